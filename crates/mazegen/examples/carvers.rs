//! Every tree algorithm on the same small grid, with its share of dead ends, so the textures can
//! be compared side by side: `cargo run -p lore-mazegen --example carvers -- [seed] [bias]`.

use lore_mazegen::{Config, GridTree, TreeAlgorithm, check, generate, to_ascii};

fn main() -> Result<(), lore_mazegen::Error> {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let bias = args.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    for algorithm in TreeAlgorithm::ALL {
        // The bare tree (walls only) ...
        let tree = GridTree::carve_by(algorithm, 100, 100, bias, seed)?;
        let mut degree = vec![0u8; 100 * 100];
        for [a, b] in tree.passages() {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let dead_ends = degree.iter().filter(|&&d| d == 1).count();
        // ... and a full maze with zones, doors and keys from the same algorithm.
        let maze = generate(&Config::grid(16, 6).zones(3).bias(bias).tree(algorithm).seed(seed))?;
        check(&maze)?;
        println!("{algorithm:?}: {:.1} % dead ends on 100 × 100", dead_ends as f64 / 100.0);
        print!("{}", to_ascii(&maze)?);
    }
    Ok(())
}
