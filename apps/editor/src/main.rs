use clap::Parser;
use lore_editor::editor::{Editor, SaveOutcome};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Scripted edit, without a window: set parameter PATH of the thing called THING to TEXT
    /// after opening `--level` (repeatable; applied in order, as the inspector would).
    #[arg(long, num_args = 3, value_names = ["THING", "PATH", "TEXT"], requires = "level")]
    set: Vec<String>,
    /// Scripted save, without a window: after opening `--level` and applying `--set`, press
    /// Ctrl+S once per `--save` (twice confirms a save the editor asks about), print each
    /// message, and exit: 0 when the last save wrote the file, 2 when it asks for confirmation,
    /// 1 when it failed or an edit did not read.
    #[arg(long, action = clap::ArgAction::Count, requires = "level")]
    save: u8,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(file) = cli.level.clone()
        && (cli.save > 0 || !cli.set.is_empty())
    {
        return scripted(file, &cli.set, cli.save);
    }
    let demo = match cli.level {
        Some(file) => lore_editor::demo_opening(file),
        None => lore_editor::demo_with_file(PathBuf::from("level.xml")),
    };
    match lore_render::run(vec![demo], &cli.run) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-editor: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The headless script: open, edit, save; every message printed as the status line shows it.
fn scripted(file: PathBuf, sets: &[String], saves: u8) -> ExitCode {
    let mut ed = Editor::new(file);
    ed.open();
    println!("{}", ed.status);
    for set in sets.chunks_exact(3) {
        let [thing, path, text] = set else { continue };
        let Some(index) = ed.doc.things.iter().position(|t| &t.name == thing) else {
            eprintln!("lore-editor: --set: no thing called {thing:?}");
            return ExitCode::FAILURE;
        };
        ed.selected = Some(index);
        if let Err(e) = ed.set_selected(path, text) {
            eprintln!("lore-editor: --set {thing:?} {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("set {thing:?} {path} = {text}");
    }
    let mut last = None;
    for _ in 0..saves {
        let outcome = ed.save();
        println!("{}", ed.status);
        last = Some(outcome);
    }
    match last {
        None | Some(SaveOutcome::Saved) => ExitCode::SUCCESS,
        Some(SaveOutcome::NeedsConfirmation) => ExitCode::from(2),
        Some(SaveOutcome::Failed) => ExitCode::FAILURE,
    }
}
