//! Writes the game's sound effects from the synthesiser as `.bpk` files into a folder (by
//! default `apps/platformer/assets/sfx`): `cargo run -p lore-platformer --example make_sfx -- [DIR] [--force]`.
//! An existing file is replaced only with `--force`; each is written atomically.

use std::path::PathBuf;
use std::process::ExitCode;

use lore_bitpack_audio::{Effort, Settings, encode};
use lore_platformer::sound::{Effect, synthesise};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let force = args.iter().any(|a| a == "--force");
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/sfx"), PathBuf::from);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("make_sfx: {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for effect in Effect::ALL {
        let path = dir.join(effect.file_name());
        if path.exists() && !force {
            eprintln!("make_sfx: {} exists (pass --force to replace it)", path.display());
            return ExitCode::FAILURE;
        }
        let audio = synthesise(effect);
        let bytes = match encode(&audio, Settings { effort: Effort::Max, chunk_frames: 4096 }) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("make_sfx: {}: {e}", effect.file_name());
                return ExitCode::FAILURE;
            }
        };
        if let Err(e) = lore_render::file::write_atomic(&path, &bytes) {
            eprintln!("make_sfx: {e}");
            return ExitCode::FAILURE;
        }
        println!("{}: {} samples -> {} bytes", path.display(), audio.samples.len(), bytes.len());
    }
    ExitCode::SUCCESS
}
