//! Carves one grid maze with [`GridTree::carve`] and prints its passage count: a small driver for
//! instruction counts (`cargo build --release -p lore-benches --bin mazegen_carve`, then
//! `valgrind --tool=callgrind target/release/mazegen_carve 1000 1000 0`).
//!
//! Arguments: width, height, horizontal bias, seed, repetitions, carver (defaults 1000, 1000, 0, 1,
//! 1, `kruskal`; `uniform` picks [`GridTree::carve_uniform`]). It prints a hash of the passages, so
//! that two builds can be checked to carve the same trees; with more than one repetition it also
//! prints the fastest and the median time of a carve.

use lore_mazegen::GridTree;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let (w, h): (u32, u32) = (arg(0, "1000").parse()?, arg(1, "1000").parse()?);
    let bias: f32 = arg(2, "0").parse()?;
    let seed: u64 = arg(3, "1").parse()?;
    let repetitions: usize = arg(4, "1").parse()?;
    let carve = match arg(5, "kruskal").as_str() {
        "kruskal" => GridTree::carve,
        "uniform" => GridTree::carve_uniform,
        other => return Err(format!("unknown carver {other:?} (kruskal or uniform)").into()),
    };
    let mut times = Vec::with_capacity(repetitions);
    let mut tree = carve(w, h, bias, seed)?;
    for _ in 1..repetitions {
        let start = std::time::Instant::now();
        tree = carve(w, h, bias, seed)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    // A hash of the passage bits, so that two builds can be checked to carve the same trees.
    let hash = tree.words().iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &word| (h ^ word).wrapping_mul(0x0100_0000_01b3));
    println!("{w}×{h} bias {bias} seed {seed}: {} passages, hash {hash:016x}", tree.passage_count());
    if !times.is_empty() {
        times.sort_by(f64::total_cmp);
        println!("fastest {:.2} ms, median {:.2} ms over {} carves", times[0], times[times.len() / 2], times.len());
    }
    Ok(())
}
