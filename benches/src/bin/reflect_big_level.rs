//! Writes a level of many things for the editor's load-to-first-frame and memory measurements:
//! the editor's built-in level repeated, each copy's names made unique.
//!
//! `cargo run --release -p lore-benches --bin reflect_big_level -- 100000 big.xml`, then
//! `/usr/bin/time -v target/release/lore-editor --level big.xml --frames 1` (under Xvfb).

use std::io::Write;
use std::path::{Path, PathBuf};

const LEVEL: &str = include_str!("../../../apps/editor/src/level.xml");

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(count), Some(out)) = (args.get(1).and_then(|n| n.parse::<usize>().ok()), args.get(2)) else {
        eprintln!("usage: reflect_big_level THINGS OUT.xml");
        return std::process::ExitCode::FAILURE;
    };
    let out = PathBuf::from(out);
    if out.exists() {
        eprintln!("reflect_big_level: {} exists; not replacing it", out.display());
        return std::process::ExitCode::FAILURE;
    }
    match write_new(&out, &level(count)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reflect_big_level: {}: {e}", out.display());
            std::process::ExitCode::FAILURE
        }
    }
}

/// `count` things: the built-in level's things in turn, named `name #copy`.
fn level(count: usize) -> String {
    let things: Vec<&str> =
        LEVEL.split("  <thing ").skip(1).map(|t| t.split("  </thing>").next().unwrap_or(t)).collect();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n");
    for i in 0..count {
        let thing = things[i % things.len()];
        let copy = i / things.len();
        let named = thing.replacen("\">\n", &format!(" #{copy}\">\n"), 1);
        xml.push_str("  <thing ");
        xml.push_str(&named);
        xml.push_str("  </thing>\n");
    }
    xml.push_str("</things>\n");
    xml
}

/// Writes a new file through a temporary file in the same directory and a rename.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temp = dir.join(format!(".reflect_big_level.{}.tmp", std::process::id()));
    let result = std::fs::File::create_new(&temp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&temp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
