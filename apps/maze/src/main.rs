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
    /// Export file (standard output for json, svg and ascii when absent; required for png). It is
    /// written whole or not at all: a failed export leaves an existing file as it was.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Replace the --output file when it exists (without it, an existing file is never touched).
    #[arg(long)]
    force: bool,
    /// Pixels per grid cell (or per world unit of a logic maze, 160 × 90 units) in SVG and PNG
    /// exports. Default: 16 for grid mazes and 6 for logic mazes, lowered so that the picture is
    /// at most 4096 pixels a side; pictures over 16384 pixels a side are refused.
    #[arg(long)]
    scale: Option<f32>,
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
    /// A side-scroller level drawn from a grid maze (default 16 × 8 cells, 4 zones, 10 loops,
    /// bias 0.6), checked beatable, written with --export (ascii, json, svg, png or tmx;
    /// ASCII on standard output without --export).
    #[arg(long)]
    side: bool,
    /// Side-scroller: the character's jump height in tiles (default 3.2).
    #[arg(long)]
    jump_height: Option<f32>,
    /// Side-scroller: the distance of a running jump in tiles (default 5).
    #[arg(long)]
    jump_distance: Option<f32>,
    /// Side-scroller: the character's width and height in tiles, `W,H` (default 0.8,1.6).
    #[arg(long, value_parser = parse_size)]
    character: Option<(f32, f32)>,
}

/// Parses `W,H`.
fn parse_size(text: &str) -> Result<(f32, f32), String> {
    let (w, h) = text.split_once(',').ok_or_else(|| format!("{text}: expected W,H"))?;
    let number = |t: &str| t.trim().parse::<f32>().map_err(|e| format!("{t}: {e}"));
    Ok((number(w)?, number(h)?))
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
    /// Tiled's map format (side-scroller levels only).
    Tmx,
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

/// The longest side, in pixels, of a picture exported at the default scale.
const DEFAULT_PICTURE_SIDE: f32 = 4096.0;

impl Cli {
    /// The picture style of an export: `--scale`, or the kind's default scale lowered to fit
    /// [`DEFAULT_PICTURE_SIDE`].
    fn style(&self, params: &Params) -> lore_mazegen::Style {
        let style = lore_mazegen::Style { show_solution: true, ..lore_mazegen::Style::default() };
        let (base, extent) = match params.kind {
            Kind::Grid => (16.0f32, params.width.max(params.height) as f32),
            Kind::Logic => (6.0, lore_maze::LOGIC_SIZE.max_element()),
        };
        let fit = (DEFAULT_PICTURE_SIDE - 2.0 * style.margin) / extent.max(1.0);
        lore_mazegen::Style { scale: self.scale.unwrap_or(base.min(fit)), ..style }
    }
}

fn export(cli: &Cli, format: Format) -> Result<(), String> {
    let params = cli.params();
    if let Some(path) = &cli.output
        && path.exists()
        && !cli.force
    {
        return Err(format!("{} exists; pass --force to replace it", path.display()));
    }
    if let Some(scale) = cli.scale
        && !(scale.is_finite() && scale > 0.0)
    {
        return Err(format!("--scale {scale}: must be a positive number of pixels"));
    }
    let bytes = if cli.side {
        side_bytes(cli, format)?
    } else {
        let maze = lore_mazegen::generate(&params.config(cli.run.seed)).map_err(|e| e.to_string())?;
        let style = cli.style(&params);
        match format {
            Format::Json => lore_mazegen::to_json(&maze).into_bytes(),
            Format::Ascii => lore_mazegen::to_ascii(&maze).map_err(|e| e.to_string())?.into_bytes(),
            Format::Svg => lore_mazegen::to_svg(&maze, &style).map_err(scale_hint)?.into_bytes(),
            Format::Png => lore_mazegen::to_png(&maze, &style).map_err(scale_hint)?,
            Format::Tmx => return Err("--export tmx writes side-scroller levels: add --side".to_owned()),
        }
    };
    match (&cli.output, format) {
        (Some(path), _) => lore_maze::file::write_atomic(path, &bytes).map_err(|e| e.to_string()),
        (None, Format::Png) => Err("--export png needs --output FILE".to_owned()),
        (None, _) => {
            use std::io::Write;
            std::io::stdout().write_all(&bytes).map_err(|e| e.to_string())
        }
    }
}

/// The message of an export error, with a hint when the picture is too large for the scale.
fn scale_hint(e: lore_mazegen::Error) -> String {
    match e {
        lore_mazegen::Error::Export(lore_mazegen::ExportError::PictureTooLarge { .. }) => {
            format!("{e}: pass a smaller --scale")
        }
        e => e.to_string(),
    }
}

/// Pixels per tile of a side-scroller picture by default.
const SIDE_SCALE: f32 = 8.0;

impl Cli {
    /// The side-scroller config: the defaults of [`lore_mazegen::SideConfig`], the flags given.
    fn side_config(&self) -> lore_mazegen::SideConfig {
        let base = lore_mazegen::SideConfig::default();
        let mut maze = base.maze;
        if let lore_mazegen::Shape::Grid { width, height } = maze.shape {
            maze.shape =
                lore_mazegen::Shape::Grid { width: self.width.unwrap_or(width), height: self.height.unwrap_or(height) };
        }
        let maze = maze
            .zones(self.zones.unwrap_or(maze.zones))
            .cycles(self.cycles.unwrap_or(maze.cycles))
            .bias(self.bias.unwrap_or(maze.horizontal_bias))
            .seed(self.run.seed);
        let maze = match self.tree {
            Some(Tree::Kruskal) => maze.tree(lore_mazegen::TreeAlgorithm::Kruskal),
            Some(Tree::Wilson) => maze.tree(lore_mazegen::TreeAlgorithm::Wilson),
            None => maze,
        };
        let m = base.movement;
        let (w, h) = self.character.unwrap_or((m.size.x, m.size.y));
        let movement = lore_mazegen::Movement {
            jump_height: self.jump_height.unwrap_or(m.jump_height),
            jump_distance: self.jump_distance.unwrap_or(m.jump_distance),
            size: lore_mazegen::Vec2::new(w, h),
            ..m
        };
        lore_mazegen::SideConfig::new(maze, movement)
    }
}

/// A checked side-scroller level in `format`.
fn side_bytes(cli: &Cli, format: Format) -> Result<Vec<u8>, String> {
    let level = lore_mazegen::generate_side(&cli.side_config()).map_err(|e| e.to_string())?;
    let scale = cli.scale.unwrap_or(SIDE_SCALE);
    Ok(match format {
        Format::Json => level.to_json().into_bytes(),
        Format::Ascii => level.to_ascii().into_bytes(),
        Format::Svg => level.to_svg(scale).map_err(scale_hint)?.into_bytes(),
        Format::Png => level.to_png(scale).map_err(scale_hint)?,
        Format::Tmx => level.to_tmx().into_bytes(),
    })
}

/// Opens the demo (a window, or headless PNGs) on the maze the flags describe, after checking
/// that they describe one.
fn demo(cli: &Cli) -> Result<(), String> {
    let params = cli.params();
    params.validate().map_err(|e| e.to_string())?;
    let mut demo = MazeDemo::new(params.kind);
    demo.set_params(params);
    if let Some(e) = demo.error() {
        // Values that pass the checks but not the generator (all points merged, say).
        return Err(e.to_owned());
    }
    lore_render::run(vec![Box::new(demo)], &cli.run).map(|_| ()).map_err(|e| e.to_string())
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match (cli.export, cli.side) {
        (Some(format), _) => export(&cli, format),
        (None, true) => export(&cli, Format::Ascii),
        (None, false) => demo(&cli),
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
    fn default_scale_fits_big_mazes_and_scale_overrides_it() {
        let cli =
            |args: &[&str]| Cli::try_parse_from(std::iter::once("lore-maze").chain(args.iter().copied())).unwrap();
        let small = cli(&["--grid"]);
        assert_eq!(small.style(&small.params()).scale, 16.0, "a 48 × 27 grid keeps 16 px a cell");
        let big = cli(&["--grid", "--width", "1000", "--height", "1000"]);
        let style = big.style(&big.params());
        assert!((1000.0 * style.scale + 2.0 * style.margin - DEFAULT_PICTURE_SIDE).abs() < 0.01, "{style:?}");
        let given = cli(&["--grid", "--width", "1000", "--height", "1000", "--scale", "2.5"]);
        assert_eq!(given.style(&given.params()).scale, 2.5);
        let logic = cli(&[]);
        assert_eq!(logic.style(&logic.params()).scale, 6.0);
    }

    #[test]
    fn side_flags_override_the_side_defaults() {
        let cli = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("lore-maze").chain(args.iter().copied())).unwrap().side_config()
        };
        let defaults = lore_mazegen::SideConfig::default();
        assert_eq!(cli(&["--side"]), defaults.seed(1), "the run seed (default 1) seeds the maze");
        let c = cli(&["--side", "--width", "9", "--zones", "3", "--jump-height", "4", "--character", "0.5,1.2"]);
        assert_eq!(c.maze.shape, lore_mazegen::Shape::Grid { width: 9, height: 8 });
        assert_eq!((c.maze.zones, c.movement.jump_height), (3, 4.0));
        assert_eq!(c.movement.size, lore_mazegen::Vec2::new(0.5, 1.2));
        assert_eq!(c.movement.jump_distance, defaults.movement.jump_distance);
        assert!(parse_size("1").is_err() && parse_size("a,2").is_err());
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
