//! Prints a grid maze as ASCII tiles and its measures: `cargo run -p lore-mazegen --example ascii -- [seed]`.

fn main() -> Result<(), lore_mazegen::Error> {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let maze = lore_mazegen::generate(&lore_mazegen::Config::grid(30, 12).zones(5).cycles(8).bias(0.5).seed(seed))?;
    print!("{}", lore_mazegen::to_ascii(&maze)?);
    let solution = lore_mazegen::check(&maze)?;
    println!("zone sizes {:?}", solution.zone_sizes);
    println!("{:?}", lore_mazegen::measure(&maze, &solution));
    Ok(())
}
