//! lore-reflect's XML document loader on arbitrary text: no panic, memory bounded by the
//! limits, and what loads saves and reloads to the same document ("keeps everything the user
//! wrote": a loaded document's XML is a fixed point of load + save).
//! Run: `cargo +nightly fuzz run reflect_xml -- -max_total_time=60`.
#![no_main]

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use glam::{Vec2, Vec3};
use libfuzzer_sys::fuzz_target;
use lore_reflect::xml::Limits;
use lore_reflect::{Document, Reflect, Registry};

/// An enum with unit, tuple and struct variants.
#[derive(Reflect, Default, Debug, Clone)]
enum Mode {
    #[default]
    Off,
    Fixed(f64),
    Range {
        lo: i16,
        hi: i16,
    },
}

/// A nested struct.
#[derive(Reflect, Default, Debug, Clone)]
struct Inner {
    label: String,
    at: Vec2,
}

/// A kind with one field of every shape the text forms support.
#[derive(Reflect, Default, Debug, Clone)]
struct Everything {
    x: f32,
    d: f64,
    i: i32,
    u: u64,
    b: bool,
    c: char,
    s: String,
    v3: Vec3,
    #[reflect(color)]
    color: [f32; 4],
    list: Vec<String>,
    nested: Vec<Vec<i32>>,
    opt: Option<Inner>,
    map: HashMap<String, f32>,
    tree: BTreeMap<String, Mode>,
    mode: Mode,
}

/// The small kind of the world editor post.
#[derive(Reflect, Default, Debug, Clone)]
struct Thing1 {
    x: f32,
    y: f32,
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.register::<Everything>().expect("register Everything");
        r.register::<Thing1>().expect("register Thing1");
        r
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Small limits, so that the fuzzer also reaches the limit checks.
    let limits = Limits { max_depth: 8, max_value_len: 4096, max_things: 64, ..Limits::default() };
    let Ok((doc, _report)) = Document::from_xml_with(&text, registry(), &limits) else {
        return;
    };
    let saved = doc.to_xml();
    let (again, _) = Document::from_xml(&saved, registry())
        .unwrap_or_else(|e| panic!("a saved document does not load: {e}\n--- saved:\n{saved}"));
    let resaved = again.to_xml();
    assert_eq!(saved, resaved, "load + save is not a fixed point");
});
