use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use lore_maze::{Kind, Params};

/// The lore-mazegen demo: lock-and-key mazes generated step by step, or exported to a file.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// Write the finished maze in this format instead of opening the demo.
    #[arg(long, value_enum)]
    export: Option<Format>,
    /// Export file (standard output for json, svg and ascii when absent; required for png).
    #[arg(long)]
    output: Option<PathBuf>,
    /// A grid maze instead of a logic maze (demo and export).
    #[arg(long)]
    grid: bool,
    /// Random points of a logic maze.
    #[arg(long, default_value_t = 500)]
    points: u32,
    /// Grid width in cells.
    #[arg(long, default_value_t = 48)]
    width: u32,
    /// Grid height in cells.
    #[arg(long, default_value_t = 27)]
    height: u32,
    /// Zones (locked doors + 1).
    #[arg(long, default_value_t = 5)]
    zones: u16,
    /// Cycle edges added inside zones.
    #[arg(long, default_value_t = 30)]
    cycles: u32,
    /// Horizontal bias of the spanning tree, -1 to 1.
    #[arg(long, default_value_t = 0.0)]
    bias: f32,
    /// Draw the spanning tree with Wilson's algorithm (exactly uniform with bias 0) instead of
    /// Kruskal's.
    #[arg(long)]
    uniform: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Json,
    Svg,
    Png,
    Ascii,
}

fn export(cli: &Cli, format: Format) -> Result<(), String> {
    let kind = if cli.grid { Kind::Grid } else { Kind::Logic };
    let params = Params {
        kind,
        points: cli.points,
        width: cli.width,
        height: cli.height,
        zones: cli.zones,
        cycles: cli.cycles,
        bias: cli.bias,
        uniform: cli.uniform,
    };
    let maze = lore_mazegen::generate(&params.config(cli.run.seed)).map_err(|e| e.to_string())?;
    let style = lore_mazegen::Style {
        scale: if cli.grid { 16.0 } else { 6.0 },
        show_solution: true,
        ..lore_mazegen::Style::default()
    };
    let bytes = match format {
        Format::Json => lore_mazegen::to_json(&maze).into_bytes(),
        Format::Ascii => lore_mazegen::to_ascii(&maze).map_err(|e| e.to_string())?.into_bytes(),
        Format::Svg => lore_mazegen::to_svg(&maze, &style).map_err(|e| e.to_string())?.into_bytes(),
        Format::Png => lore_mazegen::to_png(&maze, &style).map_err(|e| e.to_string())?,
    };
    match (&cli.output, format) {
        (Some(path), _) => std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display())),
        (None, Format::Png) => Err("--export png needs --output FILE".to_owned()),
        (None, _) => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes).map_err(|e| e.to_string())
        }
    }
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.export {
        Some(format) => export(&cli, format),
        None => {
            let demo = if cli.grid { lore_maze::grid_demo() } else { lore_maze::demo() };
            lore_render::run(vec![demo], &cli.run).map(|_| ()).map_err(|e| e.to_string())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-maze: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
