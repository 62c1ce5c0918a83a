//! Generates one logic maze and prints its size: a small driver for instruction counts of the whole
//! pipeline (`cargo build --release -p lore-benches --bin mazegen_pipeline`, then
//! `valgrind --tool=callgrind target/release/mazegen_pipeline 100000`).
//!
//! Arguments: points, zones, seed, repetitions (defaults 100,000, 16, 1, 1; cycles are points / 20
//! as in the bench); with more than one repetition it also prints the fastest and the median time.

use lore_mazegen::{Config, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let points: u32 = arg(0, "100000").parse()?;
    let zones: u16 = arg(1, "16").parse()?;
    let seed: u64 = arg(2, "1").parse()?;
    let repetitions: usize = arg(3, "1").parse()?;
    let config = Config::points(points).zones(zones).cycles(points / 20).seed(seed);
    let mut times = Vec::with_capacity(repetitions);
    let mut maze = generate(&config)?;
    for _ in 1..repetitions {
        let start = std::time::Instant::now();
        maze = generate(&config)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    println!("{points} points, {zones} zones, seed {seed}: {} nodes, {} edges", maze.node_count(), maze.edges.len());
    if !times.is_empty() {
        times.sort_by(f64::total_cmp);
        println!("fastest {:.2} ms, median {:.2} ms over {} runs", times[0], times[times.len() / 2], times.len());
    }
    Ok(())
}
