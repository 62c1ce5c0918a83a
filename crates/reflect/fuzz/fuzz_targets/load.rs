//! Any bytes as a thing document: loading never panics, keeps at most `max_problems`
//! problems, and what loads saves to XML that loads again.
//! Run: `cargo +nightly fuzz run load -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_reflect::{Document, Limits, Reflect, Registry};

#[derive(Reflect, Default)]
struct Piece {
    at: [f32; 2],
    #[reflect(color)]
    color: [f32; 4],
    points: Vec<[f32; 2]>,
    name: String,
    mode: Option<i32>,
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut registry = Registry::new();
    registry.register::<Piece>().expect("one kind");
    let limits = Limits { max_problems: 64, ..Limits::default() };
    if let Ok((doc, report)) = Document::from_xml_with(text, &registry, &limits) {
        assert!(report.problems.len() <= 64);
        if let Ok(xml) = doc.try_to_xml() {
            assert!(Document::from_xml(&xml, &registry).is_ok(), "a saved document loads");
        }
    }
});
