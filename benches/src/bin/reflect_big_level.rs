//! Writes a level of many things for the editor's load-to-first-frame and memory measurements:
//! the editor's built-in level repeated side by side on a grid (copy 0 where the built-in level
//! is, so the editor's first view shows one copy), each copy's names made unique.
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

/// `count` things: the built-in level's things in turn, named `name #copy`, copy `k` moved by
/// its place on a grid of 100 copies a row.
fn level(count: usize) -> String {
    let things: Vec<&str> =
        LEVEL.split("  <thing ").skip(1).map(|t| t.split("  </thing>").next().unwrap_or(t)).collect();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n");
    for i in 0..count {
        let thing = things[i % things.len()];
        let copy = i / things.len();
        let offset = ((copy % 100) as f32 * 25.0, (copy / 100) as f32 * 20.0);
        let named = thing.replacen("\">\n", &format!(" #{copy}\">\n"), 1);
        xml.push_str("  <thing ");
        xml.push_str(&shift(&named, offset));
        xml.push_str("  </thing>\n");
    }
    xml.push_str("</things>\n");
    xml
}

/// The thing's `position` and `points` moved by `(dx, dy)`: their values are lists of numbers,
/// `x , y` pairs in order (nested in brackets for `points`); a single number (a star's
/// `points`) is left alone.
fn shift(thing: &str, (dx, dy): (f32, f32)) -> String {
    let mut out = String::new();
    for line in thing.split_inclusive('\n') {
        let moved = ["\"position\"", "\"points\""].iter().any(|p| line.contains(&format!("name={p}")));
        let Some((head, rest)) = line.split_once("value=\"").filter(|_| moved) else {
            out.push_str(line);
            continue;
        };
        let (value, tail) = rest.split_once('"').unwrap_or((rest, ""));
        if !value.contains(" , ") {
            // A star's `points` is a count, not a list of points.
            out.push_str(line);
            continue;
        }
        let mut coordinate = 0;
        let shifted: Vec<String> = value
            .split(" , ")
            .map(|part| {
                let number = part.trim_matches(|c| c == '(' || c == ')');
                let Ok(v) = number.parse::<f32>() else { return part.to_string() };
                let d = if coordinate % 2 == 0 { dx } else { dy };
                coordinate += 1;
                part.replacen(number, &(v + d).to_string(), 1)
            })
            .collect();
        out.push_str(&format!("{head}value=\"{}\"{tail}", shifted.join(" , ")));
    }
    out
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
