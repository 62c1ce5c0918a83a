use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use lore_maze::{Kind, MazeDemo, Params};

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
    /// Random points of a logic maze (default 500).
    #[arg(long)]
    points: Option<u32>,
    /// Grid width in cells (default 48).
    #[arg(long)]
    width: Option<u32>,
    /// Grid height in cells (default 27).
    #[arg(long)]
    height: Option<u32>,
    /// Zones, locked doors + 1 (default 5 for logic mazes, 6 for grid mazes).
    #[arg(long)]
    zones: Option<u16>,
    /// Cycle edges added inside zones (default 40 for logic mazes, 30 for grid mazes).
    #[arg(long)]
    cycles: Option<u32>,
    /// Horizontal bias of the spanning tree, -1 to 1 (default 0 for logic mazes, 0.5 for grid
    /// mazes).
    #[arg(long, allow_negative_numbers = true)]
    bias: Option<f32>,
    /// Spanning tree algorithm: `wilson` (exactly uniform with bias 0; the default for grid
    /// mazes) or `kruskal` (the default for logic mazes).
    #[arg(long, value_enum)]
    tree: Option<Tree>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Tree {
    Kruskal,
    Wilson,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Json,
    Svg,
    Png,
    Ascii,
}

impl Cli {
    /// The maze parameters: the flags given, the kind's defaults for the others.
    fn params(&self) -> Params {
        let kind = if self.grid { Kind::Grid } else { Kind::Logic };
        let defaults = Params::new(kind);
        Params {
            kind,
            points: self.points.unwrap_or(defaults.points),
            width: self.width.unwrap_or(defaults.width),
            height: self.height.unwrap_or(defaults.height),
            zones: self.zones.unwrap_or(defaults.zones),
            cycles: self.cycles.unwrap_or(defaults.cycles),
            bias: self.bias.unwrap_or(defaults.bias),
            uniform: self.tree.map_or(defaults.uniform, |tree| matches!(tree, Tree::Wilson)),
        }
    }
}

fn export(cli: &Cli, format: Format) -> Result<(), String> {
    let params = cli.params();
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
            let params = cli.params();
            let mut demo = MazeDemo::new(params.kind);
            demo.set_params(params);
            lore_render::run(vec![Box::new(demo)], &cli.run).map(|_| ()).map_err(|e| e.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn params(args: &[&str]) -> Params {
        Cli::try_parse_from(std::iter::once("lore-maze").chain(args.iter().copied())).unwrap().params()
    }

    #[test]
    fn flags_left_out_take_the_kinds_defaults() {
        assert_eq!(params(&[]), Params::new(Kind::Logic));
        assert_eq!(params(&["--grid"]), Params::new(Kind::Grid));
        assert!(params(&["--grid"]).uniform, "grid mazes default to the uniform tree");
        assert!(!params(&[]).uniform, "logic mazes default to Kruskal's tree");
    }

    #[test]
    fn flags_given_override_the_defaults() {
        let p = params(&["--grid", "--zones", "8", "--width", "30", "--bias", "-0.25", "--tree", "kruskal"]);
        assert_eq!((p.kind, p.zones, p.width, p.bias, p.uniform), (Kind::Grid, 8, 30, -0.25, false));
        assert_eq!(p.height, Params::new(Kind::Grid).height);
        let p = params(&["--points", "900", "--cycles", "3", "--tree", "wilson"]);
        assert_eq!((p.kind, p.points, p.cycles, p.uniform), (Kind::Logic, 900, 3, true));
    }
}
