//! Inserts and gets on a handle array keyed by `Handle`, by a typed key from `new_key_type!`,
//! or on slotmap's `SlotMap`: a small driver for instruction counts, so that what a typed key
//! costs can be read on a busy machine (`cargo build --release -p lore-benches --bin
//! handles_typed`, then `valgrind --tool=callgrind target/release/handles_typed typed get 200000`
//! and the same with 100000: the difference over 100,000 is the cost of one operation, set-up
//! cancelled).
//!
//! Arguments: `plain`, `typed` or `slotmap`; `insert` or `get`; the number of operations. It
//! prints a checksum so that the work cannot be optimised away.

use lore_allocators::{Handle, HandleArray, new_key_type};
use std::hint::black_box;

new_key_type! {
    struct Typed;
}

/// A fixed pseudo-random visiting order (xorshift), the same for every variant.
fn order(n: usize) -> Vec<usize> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % (i as u64 + 1)) as usize);
    }
    v
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kind, op) = (args.first().map_or("typed", String::as_str), args.get(1).map_or("get", String::as_str));
    let n: usize = args.get(2).map_or(Ok(100_000), |s| s.parse())?;
    let visit = order(n);
    let sum = match (kind, op) {
        ("plain", "insert") => {
            let mut a: HandleArray<u64> = HandleArray::with_capacity(n);
            (0..n as u64).map(|i| black_box(a.insert(i)).index() as u64).sum::<u64>()
        }
        ("typed", "insert") => {
            let mut a: HandleArray<u64, Typed> = HandleArray::with_capacity_and_key(n);
            (0..n as u64).map(|i| Handle::from(black_box(a.insert(i))).index() as u64).sum::<u64>()
        }
        ("slotmap", "insert") => {
            let mut a = slotmap::SlotMap::with_capacity(n);
            (0..n as u64)
                .inspect(|&i| {
                    black_box(a.insert(i));
                })
                .sum::<u64>()
        }
        ("plain", "get") => {
            let mut a: HandleArray<u64> = HandleArray::with_capacity(n);
            let keys: Vec<Handle> = (0..n as u64).map(|i| a.insert(i)).collect();
            visit.iter().map(|&i| *a.get(black_box(keys[i])).unwrap()).sum::<u64>()
        }
        ("typed", "get") => {
            let mut a: HandleArray<u64, Typed> = HandleArray::with_capacity_and_key(n);
            let keys: Vec<Typed> = (0..n as u64).map(|i| a.insert(i)).collect();
            visit.iter().map(|&i| *a.get(black_box(keys[i])).unwrap()).sum::<u64>()
        }
        ("slotmap", "get") => {
            let mut a = slotmap::SlotMap::with_capacity(n);
            let keys: Vec<_> = (0..n as u64).map(|i| a.insert(i)).collect();
            visit.iter().map(|&i| *a.get(black_box(keys[i])).unwrap()).sum::<u64>()
        }
        _ => return Err(format!("unknown {kind:?} {op:?}: plain|typed|slotmap insert|get N").into()),
    };
    println!("{kind} {op} {n}: checksum {sum}");
    Ok(())
}
