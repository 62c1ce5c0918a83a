//! Generates one side-scroller level (with its reachability check) and checks it once more: a
//! small driver for instruction counts (`cargo build --release -p lore-benches --bin
//! mazegen_side`, then `valgrind --tool=callgrind target/release/mazegen_side`).
//!
//! Arguments: seed, repetitions (defaults 1, 1); the level is `SideConfig::default()` (16 × 8
//! cells, 4 zones, 10 loops, bias 0.6, the default movement). With more than one repetition it
//! also prints the fastest and the median time of generation and of the check alone.

use lore_mazegen::{SideConfig, check_side, generate_side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let seed: u64 = arg(0, "1").parse()?;
    let repetitions: usize = arg(1, "1").parse()?;
    let config = SideConfig::default().seed(seed);
    let (mut generation, mut checks) = (Vec::new(), Vec::new());
    let mut level = generate_side(&config)?;
    let mut solution = check_side(&level)?;
    for _ in 1..repetitions {
        let start = std::time::Instant::now();
        level = generate_side(&config)?;
        generation.push(start.elapsed().as_secs_f64() * 1e3);
        let start = std::time::Instant::now();
        solution = check_side(&level)?;
        checks.push(start.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "seed {seed}: {} × {} tiles, {} lifts, keys {:?}, {} positions reached",
        level.width,
        level.height,
        level.lifts.len(),
        solution.key_order,
        solution.reached_per_stage.last().copied().unwrap_or(0)
    );
    for (name, times) in [("generate_side", &mut generation), ("check_side", &mut checks)] {
        if !times.is_empty() {
            times.sort_by(f64::total_cmp);
            println!(
                "{name}: fastest {:.2} ms, median {:.2} ms over {} runs",
                times[0],
                times[times.len() / 2],
                times.len()
            );
        }
    }
    Ok(())
}
