use clap::Parser;
use std::path::PathBuf;

/// A level editor driven by reflection (lore-reflect).
#[derive(Parser, Debug)]
#[command(name = "lore-editor", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// The XML file Ctrl+S saves to and Ctrl+O loads from.
    #[arg(long, default_value = "level.xml")]
    level: PathBuf,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match lore_render::run(vec![lore_editor::demo_with_file(cli.level)], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-editor: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
