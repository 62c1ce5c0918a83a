//! lore-mazegen's serde support on arbitrary JSON (what `--config`-style tools and users hand
//! the crate): a `Config`, a `Maze`, a `GridTree` or a `Solution`, picked by the first byte. No
//! panic and no hang; a config is checked on the way in (`Config::validate`), a maze read back
//! is checked with `check` before it is used, and anything accepted serializes to JSON that
//! reads back the same.
//! Run: `cargo +nightly fuzz run maze_json -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_mazegen::{Config, GridTree, Maze, Solution, Style, check, measure, to_ascii, to_json, to_svg};

/// Serializes `value` and reads it back: it must be the same.
fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = serde_json::to_string(value).expect("a value read from JSON writes to JSON");
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
    assert_eq!(&back, value, "{json} reads back differently");
    back
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, json)) = data.split_first() else { return };
    match which % 4 {
        0 => {
            if let Ok(config) = serde_json::from_slice::<Config>(json) {
                config.validate().expect("a config read from JSON is valid");
                round_trip(&config);
            }
        }
        1 => {
            let Ok(maze) = serde_json::from_slice::<Maze>(json) else { return };
            round_trip(&maze);
            // A maze from a file is whatever the file says: `check` decides whether it is one.
            let Ok(solution) = check(&maze) else { return };
            let _ = measure(&maze, &solution);
            let _ = to_json(&maze);
            // The pictures' size follows the maze's: only small ones, to stay fast.
            if maze.positions.len() <= 4096 {
                let _ = to_ascii(&maze);
                let _ = to_svg(&maze, &Style::default());
            }
        }
        2 => {
            if let Ok(tree) = serde_json::from_slice::<GridTree>(json) {
                round_trip(&tree);
            }
        }
        _ => {
            if let Ok(solution) = serde_json::from_slice::<Solution>(json) {
                round_trip(&solution);
            }
        }
    }
});
