//! The tracking allocator as the global allocator of this test binary.

use std::alloc::System;

use lore_allocators::tally_type;
use lore_allocators::tracking::{self, LeakReport, Tallied, Tracked, TrackingAlloc};

#[global_allocator]
static GLOBAL: TrackingAlloc<System> = TrackingAlloc::new(System);

#[derive(Clone, Debug)]
struct Ship(#[allow(dead_code)] u32);
tally_type!(Ship);

#[test]
fn counts_allocations_frees_bytes_across_threads() {
    let before = tracking::totals();
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let mut keep = Vec::new();
                for i in 0..100 {
                    keep.push(vec![t as u8; 64 + i]);
                }
                keep.len()
            })
        })
        .collect();
    let total: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(total, 400);
    let after = tracking::totals();
    // 100 buffers per thread at least, all freed when the threads ended.
    assert!(after.allocations - before.allocations >= 400);
    assert!(after.frees - before.frees >= 400);
    let bytes: u64 = (0..100u64).map(|i| 64 + i).sum::<u64>() * 4;
    assert!(after.bytes_allocated - before.bytes_allocated >= bytes);
    assert!(after.threads >= 4, "each thread registers its counters");
    assert!(after.peak_bytes >= bytes / 4, "a thread's peak holds its own 100 buffers");
}

#[test]
fn tallies_and_leak_report() {
    let a = Tracked::new(Ship(1));
    let b = a.clone();
    let c = Tracked::new(Ship(2));
    assert_eq!(Ship::tally().live(), 3);
    drop((a, b));
    let report = LeakReport::take();
    assert!(report.has_leaked_values(), "one ship is still alive");
    let text = report.to_string();
    assert!(text.contains("Ship:        1        3        3"), "{text}");
    drop(c);
    let report = LeakReport::take();
    assert!(!report.has_leaked_values());
    assert!(report.to_string().contains("live allocations:"));
}
