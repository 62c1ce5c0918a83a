use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use lore_platformer::demo::Platformer;
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;

/// A side-scroller made of lore crates, with an autopilot.
#[derive(Parser, Debug)]
#[command(name = "lore-platformer", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// Maze size in cells (rooms), WIDTHxHEIGHT.
    #[arg(long, default_value = "16x8", value_parser = parse_size)]
    size: (u32, u32),
    /// Zones (one more than the coloured doors).
    #[arg(long, default_value_t = 4)]
    zones: u16,
    /// Extra loops in the maze.
    #[arg(long, default_value_t = 10)]
    cycles: u32,
    /// Let the autopilot play (a person takes over with a key of the game).
    #[arg(long)]
    autopilot: bool,
    /// Decide shot–enemy pairs on the GPU headless too (a window always tries the GPU and
    /// falls back to the CPU twin with one warning line).
    #[arg(long)]
    gpu: bool,
    /// Entity kinds file, reloaded when it changes (default: the shipped assets/kinds.xml).
    #[arg(long)]
    kinds: Option<PathBuf>,
}

/// Counts every heap allocation, so the HUD and the level lines can show allocations per frame.
#[global_allocator]
static ALLOCATOR: lore_allocators::tracking::TrackingAlloc<std::alloc::System> =
    lore_allocators::tracking::TrackingAlloc::new(std::alloc::System);

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("size {s:?} is not WIDTHxHEIGHT"))?;
    let n = |v: &str| v.trim().parse::<u32>().map_err(|e| format!("size {s:?}: {e}"));
    Ok((n(w)?, n(h)?))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let kinds = match &cli.kinds {
        Some(path) => Kinds::load(path),
        None => Ok(Kinds::shipped()),
    };
    let kinds = match kinds {
        Ok(k) => k,
        Err(e) => {
            eprintln!("lore-platformer: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config =
        LevelConfig { seed: cli.run.seed, width: cli.size.0, height: cli.size.1, zones: cli.zones, cycles: cli.cycles };
    // Check the level before opening anything, so a bad size is one clear line.
    if let Err(e) = lore_platformer::level::Level::generate(config) {
        eprintln!("lore-platformer: {e}");
        return ExitCode::FAILURE;
    }
    let headless = cli.run.is_headless();
    let mut game = Platformer::new(config, kinds, cli.autopilot || headless).counting_allocations();
    if let Some(path) = &cli.kinds {
        game = game.watching_kinds(path.clone());
    }
    if cli.gpu || !headless {
        match lore_platformer::game::GpuPixels::new() {
            Ok(gpu) => {
                if headless {
                    println!("pixel tests on the gpu: {}", gpu.describe());
                }
                game = game.with_gpu_pixels(gpu);
            }
            Err(e) if cli.gpu => {
                eprintln!("lore-platformer: --gpu: {e}");
                return ExitCode::FAILURE;
            }
            Err(e) => eprintln!("lore-platformer: warning: no GPU for pixel tests ({e}); the CPU twin decides them"),
        }
    }
    let mut recording = None;
    if headless {
        game = game.printing_levels();
        match game.recording_sound() {
            Ok(rec) => recording = Some(rec),
            Err(e) => {
                eprintln!("lore-platformer: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match lore_render::run(vec![Box::new(game)], &cli.run) {
        Ok(_) => {
            if let Some(rec) = recording
                && let Err(e) = lore_platformer::demo::write_recording(&cli.run.out.join("platformer.wav"), &rec)
            {
                eprintln!("lore-platformer: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lore-platformer: {e}");
            ExitCode::FAILURE
        }
    }
}
