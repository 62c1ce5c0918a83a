use clap::Parser;
use lore_showcase::{Cli, select_recording};

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if cli.list {
        for demo in lore_showcase::demos::all() {
            println!("{:10} {}", demo.name(), demo.description());
        }
        return std::process::ExitCode::SUCCESS;
    }
    if cli.probe {
        return match lore_render::gpu::Gpu::headless() {
            Ok(gpu) => {
                println!("{}", gpu.describe());
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("lore-showcase: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    let result = select_recording(&cli.demos).and_then(|(demos, recordings)| {
        lore_render::run(demos, &cli.run).map_err(|e| e.to_string())?;
        // Headless, each game's mix of the run is written beside its PNG.
        if cli.run.is_headless() {
            for (name, rec) in recordings {
                let path = cli.run.out.join(format!("{name}.wav"));
                match name {
                    "platformer" => lore_platformer::demo::write_recording(&path, &rec)?,
                    _ => lore_dungeon::demo::write_recording(&path, &rec)?,
                }
            }
        }
        Ok(())
    });
    match result {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-showcase: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
