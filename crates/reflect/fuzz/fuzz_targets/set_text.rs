//! Any text into any field: never panics, and a failed read leaves the value unchanged.
//! Run: `cargo +nightly fuzz run set_text -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_reflect::Reflect;

#[derive(Reflect, Default)]
struct Piece {
    at: [f32; 2],
    color: [f32; 4],
    points: Vec<[f32; 2]>,
    name: String,
    mode: Option<i32>,
    tags: std::collections::BTreeMap<String, u8>,
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let mut piece = Piece::default();
    let r: &mut dyn Reflect = &mut piece;
    let path = ["", "at", "color", "points", "name", "mode", "tags"][usize::from(pick) % 7];
    let before = r.to_text();
    if r.set_text(path, text).is_err() {
        assert_eq!(r.to_text(), before, "a failed read changes nothing");
    }
});
