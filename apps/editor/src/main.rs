use clap::Parser;
use std::path::PathBuf;

/// A level editor driven by reflection (lore-reflect).
#[derive(Parser, Debug)]
#[command(name = "lore-editor", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// The level to edit: opened at start (a missing file starts an empty level, created on
    /// the first save); Ctrl+S saves to it and Ctrl+O loads it again. Without it, the editor
    /// shows its built-in level and saves to `level.xml` (asking first if that file exists).
    #[arg(long)]
    level: Option<PathBuf>,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let demo = match cli.level {
        Some(file) => lore_editor::demo_opening(file),
        None => lore_editor::demo_with_file(PathBuf::from("level.xml")),
    };
    match lore_render::run(vec![demo], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-editor: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
