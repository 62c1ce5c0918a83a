//! Instruction-count driver for lore-reflect against bevy_reflect: field lookup by name and
//! set from text, each contender on the same struct layout and the same names, both through
//! trait objects. Run under callgrind twice, with N calls and with none; the difference over
//! N is the cost of one call (the loop's few instructions included, the same for both):
//!
//! ```text
//! cargo build --release -p lore-benches --bin reflect_lookup
//! for n in 0 1000000; do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/reflect_lookup get lore 128 f0 $n 2>&1 | grep Collected
//! done
//! ```
//!
//! Cases: `get lore|bevy 8|128 NAME N`, `set lore-set-text|lore-handle|bevy-dyn|bevy N`.

use bevy_reflect::structs::Struct as BevyStruct;
use lore_benches::reflect_types::{BevyNarrow, BevyThing1, BevyWide, LoreNarrow, LoreWide, Thing1};
use lore_reflect::{Reflect, TypedPath};
use std::hint::black_box;
use std::process::ExitCode;

fn get_lore(value: &dyn Reflect, name: &str, n: u64) -> u64 {
    let value = black_box(value);
    let mut found = 0;
    for _ in 0..n {
        found += u64::from(value.field(black_box(name)).is_some());
    }
    found
}

fn get_bevy(value: &dyn BevyStruct, name: &str, n: u64) -> u64 {
    let value = black_box(value);
    let mut found = 0;
    for _ in 0..n {
        found += u64::from(value.field(black_box(name)).is_some());
    }
    found
}

fn set(case: &str, n: u64) -> Option<f32> {
    const TEXT: &str = "111.11";
    match case {
        "lore-set-text" => {
            let mut thing = Thing1::default();
            let value: &mut dyn Reflect = black_box(&mut thing);
            for _ in 0..n {
                value.set_text(black_box("x"), black_box(TEXT)).ok()?;
            }
            Some(thing.x)
        }
        "lore-handle" => {
            let mut thing = Thing1::default();
            let handle = TypedPath::<f32>::resolve(&thing, "x").ok()?;
            let value: &mut dyn Reflect = black_box(&mut thing);
            for _ in 0..n {
                *handle.get_mut(value).ok()? = black_box(TEXT).parse().ok()?;
            }
            Some(thing.x)
        }
        "bevy-dyn" => {
            let mut thing = BevyThing1::default();
            let value: &mut dyn BevyStruct = black_box(&mut thing);
            for _ in 0..n {
                let x = value.field_mut(black_box("x")).and_then(|f| f.try_downcast_mut::<f32>())?;
                *x = black_box(TEXT).parse().ok()?;
            }
            Some(thing.x)
        }
        "bevy" => {
            let mut thing = BevyThing1::default();
            for _ in 0..n {
                let x = thing.field_mut(black_box("x")).and_then(|f| f.try_downcast_mut::<f32>())?;
                *x = black_box(TEXT).parse().ok()?;
            }
            Some(black_box(&mut thing).x)
        }
        _ => None,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let count = |s: &str| s.parse::<u64>().ok();
    match args.as_slice() {
        ["get", who, fields, name, n] => {
            let Some(n) = count(n) else { return usage() };
            let found = match (*who, *fields) {
                ("lore", "128") => get_lore(&LoreWide::default(), name, n),
                ("lore", "8") => get_lore(&LoreNarrow::default(), name, n),
                ("bevy", "128") => get_bevy(&BevyWide::default(), name, n),
                ("bevy", "8") => get_bevy(&BevyNarrow::default(), name, n),
                _ => return usage(),
            };
            if found != n {
                eprintln!("{name} not found");
                return ExitCode::FAILURE;
            }
            println!("{who} {fields} fields, {name}: {n} lookups");
        }
        ["set", case, n] => {
            let Some(n) = count(n) else { return usage() };
            match set(case, n) {
                Some(x) if n == 0 || x == 111.11 => println!("{case}: {n} sets"),
                _ => return usage(),
            }
        }
        _ => return usage(),
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: reflect_lookup get lore|bevy 8|128 NAME N | set lore-set-text|lore-handle|bevy-dyn|bevy N");
    ExitCode::FAILURE
}
