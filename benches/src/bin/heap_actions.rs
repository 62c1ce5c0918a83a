//! Instruction-count and heap-use driver for lore's good-fit heap against talc, on the
//! procedures of the allocators bench (benches/benches/allocators.rs), with a fixed number of
//! actions instead of a fixed time so that callgrind sees the same work for both:
//!
//! ```text
//! cargo build --release -p lore-benches --bin heap_actions
//! # talc's random actions (max 1000 B), instructions per action:
//! for n in 0 200000; do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/heap_actions actions lore 1000 $n 2>&1 | grep Collected
//! done
//! # heap use at first failure (1 MiB, sizes 16..=128 B, alignment 8):
//! target/release/heap_actions use lore 128
//! ```
//!
//! `time MAX TRIALS`: the same actions timed (thread CPU time, 200 ms per trial, trials of the
//! two heaps interleaved on one pre-touched arena), as ns per successful action and the ratio.
//!
//! `actions lore|talc MAX N`: talc's random actions (one in seven resizes a live object to
//! `1..3×MAX` bytes, else allocate, three in seven or six in seven below 300 live objects, or
//! free one), N actions on a 128 MiB arena, seed fixed. `use lore|talc MAX`: the fraction of a
//! 1 MiB region in live requested bytes at the first failed allocation (sizes `16..=MAX`,
//! alignment 8, one free for every two allocations).

use lore_allocators::{Heap, Policy};
use rand::{RngExt as _, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::alloc::Layout;
use std::process::ExitCode;
use std::ptr::NonNull;

// The three operations, the same for both heaps (shared with the allocators bench).
use lore_benches::heap_ops::{BenchHeap as Ops, use_at_first_failure};

/// A zeroed, 4096-aligned region, freed on drop.
struct Region {
    ptr: *mut u8,
    len: usize,
}

impl Region {
    fn new(len: usize) -> Self {
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(Layout::from_size_align(len, 4096).expect("layout")) };
        assert!(!ptr.is_null(), "out of memory");
        Self { ptr, len }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, Layout::from_size_align(self.len, 4096).expect("layout")) };
    }
}

/// Runs `f` on a heap of kind `who` over the region.
fn with_heap<R>(who: &str, region: &Region, f: impl FnOnce(&mut dyn Ops) -> R) -> Option<R> {
    // SAFETY: the region outlives the heap, which nothing else uses.
    unsafe {
        match who {
            "lore" => Some(f(&mut Heap::from_raw(region.ptr, region.len, Policy::GoodFit).ok()?)),
            "talc" => {
                let mut t = talc::base::Talc::new(talc::source::Manual);
                t.claim(region.ptr, region.len)?;
                Some(f(&mut t))
            }
            _ => None,
        }
    }
}

/// talc's size distribution: uniform in `4..c` with `c` uniform in `16..max`.
fn talc_size(rng: &mut Pcg64Mcg, max: usize) -> usize {
    let cap = rng.random_range(16..max);
    rng.random_range(4..cap)
}

/// talc's alignments: 8 (75 %), 16 (19 %), 32 (4.7 %), ...
fn talc_align(rng: &mut Pcg64Mcg) -> usize {
    8usize << (rng.random::<u16>().trailing_zeros() / 2)
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (Linux), else `None`.
fn thread_cpu_time() -> Option<std::time::Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(std::time::Duration::from_nanos(s.split_whitespace().next()?.parse().ok()?))
}

/// `n` of talc's random actions (or, with `budget`, batches of 6,400 until that much CPU time
/// has passed); returns the successful ones and the CPU time they took.
fn actions(heap: &mut dyn Ops, max: usize, n: u64, seed: u64, budget: Option<std::time::Duration>) -> (u64, f64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed + max as u64);
    let mut v: Vec<(NonNull<u8>, Layout)> = Vec::with_capacity(100_000);
    let mut score = 0;
    let start = thread_cpu_time();
    let wall = std::time::Instant::now();
    let elapsed = || match (start, thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall.elapsed(),
    };
    let mut done = 0u64;
    while budget.map_or(done < n, |b| !done.is_multiple_of(6400) || elapsed() < b) {
        done += 1;
        let action = rng.random_range(0..7);
        if action == 6 {
            if !v.is_empty() {
                let i = rng.random_range(0..v.len());
                let new_size = rng.random_range(1..3 * max);
                let (p, l) = v[i];
                // SAFETY: allocated here with `l`; on failure the old block stays.
                if let Some(q) = unsafe { heap.realloc(p, l, new_size) } {
                    v[i] = (q, Layout::from_size_align(new_size, l.align()).expect("layout"));
                    score += 1;
                }
            }
        } else if action < 3 || v.len() < 300 {
            let l = Layout::from_size_align(talc_size(&mut rng, max), talc_align(&mut rng)).expect("layout");
            if let Some(p) = heap.alloc(l) {
                v.push((p, l));
                score += 1;
            }
        } else {
            let (p, l) = v.swap_remove(rng.random_range(0..v.len()));
            // SAFETY: allocated here with `l`.
            unsafe { heap.free(p, l) };
            score += 1;
        }
    }
    let took = elapsed().as_secs_f64();
    for (p, l) in v {
        // SAFETY: allocated here with `l`.
        unsafe { heap.free(p, l) };
    }
    (score, took)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let num = |s: &str| s.parse::<u64>().ok();
    match args.as_slice() {
        ["actions", who, max, n] => {
            let (Some(max), Some(n)) = (num(max), num(n)) else { return usage() };
            let region = Region::new(1 << 27);
            let Some((score, _)) = with_heap(who, &region, |h| actions(h, max as usize, n, 1000, None)) else {
                return usage();
            };
            println!("{who}: {n} random actions (max {max} B), {score} succeeded");
        }
        ["time", max, trials] => {
            let (Some(max), Some(trials)) = (num(max), num(trials)) else { return usage() };
            let region = Region::new(1 << 27);
            for i in (0..region.len).step_by(4096) {
                // SAFETY: inside the region; maps the page before timing.
                unsafe { region.ptr.add(i).write_volatile(1) };
            }
            let budget = Some(std::time::Duration::from_millis(200));
            let mut totals = [(0u64, 0f64); 2];
            for trial in 0..trials {
                for (k, who) in ["lore", "talc"].iter().enumerate() {
                    let seed = 1000 * trial;
                    let Some((score, took)) = with_heap(who, &region, |h| {
                        actions(h, max as usize, 0, seed, Some(std::time::Duration::from_millis(2)));
                        actions(h, max as usize, 0, seed + 1, budget)
                    }) else {
                        return usage();
                    };
                    totals[k].0 += score;
                    totals[k].1 += took;
                }
            }
            let ns = totals.map(|(score, took)| took * 1e9 / score as f64);
            println!(
                "talc's random actions, max {max} B, {trials} interleaved trials: lore good fit {:.1} ns/action, \
                 talc {:.1} ns/action, lore/talc {:.3}",
                ns[0],
                ns[1],
                ns[0] / ns[1]
            );
        }
        ["use", who, max] => {
            let Some(max) = num(max) else { return usage() };
            let region = Region::new(1 << 20);
            let Some(f) = with_heap(who, &region, |h| use_at_first_failure(h, region.len, max as usize)) else {
                return usage();
            };
            println!("{who}: heap use at first failure (sizes 16..={max} B): {:.2} %", 100.0 * f);
        }
        _ => return usage(),
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: heap_actions actions lore|talc MAX N | use lore|talc MAX | time MAX TRIALS");
    ExitCode::FAILURE
}
