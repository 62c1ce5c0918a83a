//! lore-reflect's paths and text forms on arbitrary input: the first line is a path, the rest
//! the text written there. No panic, and what is accepted reads back exactly: after a
//! successful `set_text`, the value's text form sets the same value again.
//! Run: `cargo +nightly fuzz run reflect_text -- -max_total_time=60`.
#![no_main]

use std::collections::{BTreeMap, HashMap};

use glam::{Vec2, Vec4};
use libfuzzer_sys::fuzz_target;
use lore_reflect::Reflect;

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

/// One field of every shape the text forms support, with a few elements in the containers so
/// that indexed paths find something.
#[derive(Reflect, Debug, Clone)]
struct Everything {
    f: f32,
    d: f64,
    i8_: i8,
    i64_: i64,
    u16_: u16,
    u64_: u64,
    b: bool,
    c: char,
    s: String,
    v4: Vec4,
    list: Vec<String>,
    nested: Vec<Vec<i32>>,
    arr: [f32; 3],
    opt: Option<Inner>,
    opt_s: Option<String>,
    map: HashMap<String, f32>,
    tree: BTreeMap<String, Mode>,
    mode: Mode,
    inners: Vec<Inner>,
}

impl Default for Everything {
    fn default() -> Self {
        Self {
            f: 1.5,
            d: -2.25,
            i8_: -3,
            i64_: 4,
            u16_: 5,
            u64_: 6,
            b: true,
            c: 'x',
            s: "s".into(),
            v4: Vec4::ONE,
            list: vec!["a".into(), "b".into()],
            nested: vec![vec![1, 2], vec![]],
            arr: [0.0, 1.0, 2.0],
            opt: Some(Inner { label: "in".into(), at: Vec2::X }),
            opt_s: None,
            map: HashMap::from([("k".into(), 1.0)]),
            tree: BTreeMap::from([("t".into(), Mode::Range { lo: -1, hi: 1 })]),
            mode: Mode::Fixed(0.5),
            inners: vec![Inner::default()],
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (path, text) = input.split_once('\n').unwrap_or((&input, ""));
    let _ = lore_reflect::parse_path(path);
    let mut value = Everything::default();
    let v: &mut dyn Reflect = &mut value;
    let _ = v.path(path);
    if v.set_text(path, text).is_err() {
        return;
    }
    let first = v.text(path).expect("a path that was just set has a text form");
    v.set_text(path, &first).unwrap_or_else(|e| panic!("{path}: the text form {first:?} does not read back: {e}"));
    let second = v.text(path).expect("a path that was just set has a text form");
    assert_eq!(first, second, "{path}: text form changed on a round trip");
    // The whole value's text form reads back too.
    let whole = v.to_text();
    let mut fresh = Everything::default();
    let w: &mut dyn Reflect = &mut fresh;
    lore_reflect::text::set_text(w, &whole)
        .unwrap_or_else(|e| panic!("the whole value's text {whole:?} does not read back: {e}"));
    assert_eq!(w.to_text(), whole, "whole text form changed on a round trip");
});
