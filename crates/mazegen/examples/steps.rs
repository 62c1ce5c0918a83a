//! Writes a PNG of every generation step of a small logic maze, and a finished grid maze:
//! `cargo run -p lore-mazegen --example steps -- OUT_DIR` (the pictures in docs/mazegen.md).

use lore_mazegen::{Config, Generator, Step, Style, to_png};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "target/mazegen-steps".to_owned()));
    std::fs::create_dir_all(&out)?;
    let style = Style { scale: 4.0, margin: 8.0, show_graph: false, show_solution: false };
    let mut generator = Generator::new(&Config::points(150).zones(4).cycles(12).seed(5))?;
    let (mut doors, mut keys) = (0, 0);
    while let Some(step) = generator.next() {
        let name = match step {
            Step::Graph { .. } => "1-graph".to_owned(),
            Step::Tree { .. } => "2-tree".to_owned(),
            Step::Door { .. } => {
                doors += 1;
                format!("3-door-{doors}")
            }
            Step::Key { .. } => {
                keys += 1;
                if keys < 3 {
                    continue;
                }
                "4-keys".to_owned()
            }
            Step::Cycle { .. } => continue,
        };
        let style = Style { show_graph: matches!(step, Step::Graph { .. }), ..style };
        std::fs::write(out.join(format!("mazegen-{name}.png")), to_png(generator.maze(), &style)?)?;
    }
    let maze = generator.into_maze();
    let done = Style { show_solution: true, ..style };
    std::fs::write(out.join("mazegen-5-cycles-solution.png"), to_png(&maze, &done)?)?;
    let grid = lore_mazegen::generate(&Config::grid(32, 16).zones(5).cycles(12).bias(0.6).seed(3))?;
    let grid_style = Style { scale: 14.0, show_solution: true, ..Style::default() };
    std::fs::write(out.join("mazegen-grid.png"), to_png(&grid, &grid_style)?)?;
    println!("{}", lore_mazegen::to_ascii(&lore_mazegen::generate(&Config::grid(16, 6).zones(3).bias(0.6).seed(3))?)?);
    Ok(())
}
