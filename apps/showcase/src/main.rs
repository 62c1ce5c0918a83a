use clap::Parser;
use lore_showcase::{Cli, select};

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
    let result = select(&cli.demos)
        .map_err(|e| e.to_string())
        .and_then(|demos| lore_render::run(demos, &cli.run).map_err(|e| e.to_string()));
    match result {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-showcase: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
