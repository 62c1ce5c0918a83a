use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use lore_dungeon::demo::Dungeon;
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

/// A top-down dungeon made of every lore crate, with an autopilot.
#[derive(Parser, Debug)]
#[command(name = "lore-dungeon", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// Maze size in cells, WIDTHxHEIGHT.
    #[arg(long, default_value = "16x8", value_parser = parse_size)]
    size: (u32, u32),
    /// Zones (one more than the coloured doors).
    #[arg(long, default_value_t = 4)]
    zones: u16,
    /// Extra loops in the maze.
    #[arg(long, default_value_t = 12)]
    cycles: u32,
    /// Let the autopilot play (a person takes over with the arrow keys).
    #[arg(long)]
    autopilot: bool,
    /// Decide bullet–enemy pairs on the GPU headless too (a window always tries the GPU and
    /// falls back to the CPU twin with one warning line).
    #[arg(long)]
    gpu: bool,
    /// Entity kinds file (default: the shipped assets/kinds.xml).
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
            eprintln!("lore-dungeon: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config =
        LevelConfig { seed: cli.run.seed, width: cli.size.0, height: cli.size.1, zones: cli.zones, cycles: cli.cycles };
    // Check the level before opening anything, so a bad size is one clear line.
    if let Err(e) = lore_dungeon::level::Level::generate(config) {
        eprintln!("lore-dungeon: {e}");
        return ExitCode::FAILURE;
    }
    let mut dungeon = Dungeon::new(config, kinds, cli.autopilot).counting_allocations();
    if let Some(path) = &cli.kinds {
        dungeon = dungeon.watching_kinds(path.clone());
    }
    if cli.gpu || !cli.run.is_headless() {
        match lore_dungeon::game::GpuPixels::new() {
            Ok(gpu) => {
                if cli.run.is_headless() {
                    println!("pixel tests on the gpu: {}", gpu.describe());
                }
                dungeon = dungeon.with_gpu_pixels(gpu);
            }
            Err(e) if cli.gpu => {
                eprintln!("lore-dungeon: --gpu: {e}");
                return ExitCode::FAILURE;
            }
            Err(e) => eprintln!("lore-dungeon: warning: no GPU for pixel tests ({e}); the CPU twin decides them"),
        }
    }
    #[cfg(feature = "audio")]
    if !cli.run.is_headless() {
        dungeon = match dungeon.playing_sound() {
            Ok(d) => d,
            Err(e) => {
                eprintln!("lore-dungeon: {e}");
                return ExitCode::FAILURE;
            }
        };
    }
    let mut recording = None;
    if cli.run.is_headless() {
        dungeon = dungeon.printing_levels();
        match dungeon.recording_sound() {
            Ok(rec) => recording = Some(rec),
            Err(e) => {
                eprintln!("lore-dungeon: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match lore_render::run(vec![Box::new(dungeon)], &cli.run) {
        Ok(_) => {
            if let Some(rec) = recording
                && let Err(e) = lore_dungeon::demo::write_recording(&cli.run.out.join("dungeon.wav"), &rec)
            {
                eprintln!("lore-dungeon: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("lore-dungeon: {e}");
            ExitCode::FAILURE
        }
    }
}
