//! Generates a side-scroller level of the default size, prints it as ASCII with the keys each
//! stage of its check picks up, and says what each vertical passage became:
//! `cargo run -p lore-mazegen --example side -- [seed]`.

use lore_mazegen::{SideConfig, SideGenerator, SideStep, check_side};

fn main() -> Result<(), lore_mazegen::Error> {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut generator = SideGenerator::new(&SideConfig::default().seed(seed))?;
    let mut climbs = std::collections::BTreeMap::new();
    for step in generator.by_ref() {
        if let SideStep::Passage { climb, .. } = step {
            *climbs.entry(format!("{climb:?}")).or_insert(0) += 1;
        }
    }
    let level = generator.finish()?;
    print!("{}", level.to_ascii());
    let solution = check_side(&level)?;
    println!("{} × {} tiles; passages {climbs:?}", level.width, level.height);
    println!("keys per stage {:?}, positions reached {:?}", solution.keys_per_stage, solution.reached_per_stage);
    Ok(())
}
