//! lore-allocators side by side with its peers on the same data, in one run.
//!
//! `cargo bench -p lore-benches --bench allocators` (add a filter such as `heap` to run one
//! group). Before the timings it prints the heap use at first failure of each heap allocator.
//! With `LORE_TALC_PROCEDURES=1` it first runs talc's own two heap procedures (random actions
//! for a fixed time on a 128 MiB arena, and heap efficiency; `LORE_TALC_EFFICIENCY_TRIALS`
//! sets the number of fills, 300 by default): about a minute, plus a few minutes for the
//! efficiency fills of the slow list-walking heaps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::ptr::NonNull;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use lore_allocators::tracking::{Tallied, Tracked, TrackingAlloc};
use lore_allocators::{
    DenseHandleArray, HandleArray, Heap, Policy, Pool, SecondaryMap, Stack, new_key_type, tally_type,
};

new_key_type! {
    /// A typed key, to measure what the key type costs against plain `Handle`s.
    struct BenchKey;
}
use lore_benches::heap_ops::{self, BenchHeap};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

// ----- interleaved minimum ----------------------------------------------------------------

/// Times each candidate once per round, in turn, for `rounds` rounds, and prints each one's
/// fastest round in ns per operation with its ratio to the fastest candidate. Other processes
/// only ever add time, so on a loaded machine the minimum of interleaved rounds gives steadier
/// ratios than criterion's one-after-the-other medians. Each candidate returns its operation
/// count and the time they took (see [`timed`]).
///
/// The order rotates by one each round, so every candidate runs after every other one equally
/// often: a run is slowed by what ran just before it (on the heap workloads, by up to 40 %
/// right after linked_list_allocator's list walks), and a fixed order charged that to
/// whichever candidate came first.
fn interleaved_min(label: &str, rounds: usize, candidates: &mut [Candidate<'_>]) {
    let n = candidates.len();
    let mut best = vec![f64::INFINITY; n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (k + round) % n;
            let (ops, took) = (candidates[i].1)();
            best[i] = best[i].min(took.as_secs_f64() * 1e9 / ops as f64);
        }
    }
    let fastest = best.iter().copied().fold(f64::INFINITY, f64::min);
    for ((name, _), ns) in candidates.iter().zip(&best) {
        println!("{label} (min of {rounds} interleaved rounds): {name:>28} {ns:6.3} ns  {:.2}x", ns / fastest);
    }
}

/// A named run returning its operation count and how long they took.
type Candidate<'a> = (&'a str, &'a mut dyn FnMut() -> (u64, Duration));

/// Runs `f`, returning its operation count and how long it took.
fn timed(f: impl FnOnce() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let ops = f();
    (ops, start.elapsed())
}

// ----- stack -----------------------------------------------------------------------------

const STACK_N: u64 = 1000;

fn stack(c: &mut Criterion) {
    let mut g = c.benchmark_group("stack");
    g.throughput(Throughput::Elements(STACK_N));
    let mut lore = Stack::new(64 * 1024).unwrap();
    g.bench_function("lore Stack::alloc u64", |b| {
        b.iter(|| {
            for i in 0..STACK_N {
                black_box(lore.alloc(i).unwrap());
            }
            lore.reset();
        });
    });
    let mut bump = bumpalo::Bump::with_capacity(64 * 1024);
    g.bench_function("bumpalo alloc u64", |b| {
        b.iter(|| {
            for i in 0..STACK_N {
                black_box(bump.alloc(i));
            }
            bump.reset();
        });
    });
    let mut scope: bump_scope::Bump = bump_scope::Bump::with_size(64 * 1024);
    g.bench_function("bump-scope alloc u64", |b| {
        b.iter(|| {
            for i in 0..STACK_N {
                std::mem::forget(black_box(scope.alloc(i)));
            }
            scope.reset();
        });
    });
    g.finish();
}

// ----- heap ------------------------------------------------------------------------------

/// A 4096-aligned region, freed on drop.
struct Region {
    ptr: *mut u8,
    len: usize,
}

impl Region {
    fn new(len: usize) -> Self {
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(Layout::from_size_align(len, 4096).unwrap()) };
        assert!(!ptr.is_null());
        Self { ptr, len }
    }

    /// A region whose pages are all mapped already (written once), so the timings do not
    /// include the kernel's first-touch page faults (talc's benchmark does the same).
    fn touched(len: usize) -> Self {
        let r = Self::new(len);
        for i in (0..len).step_by(4096) {
            // SAFETY: inside the region.
            unsafe { r.ptr.add(i).write_volatile(1) };
        }
        r
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, Layout::from_size_align(self.len, 4096).unwrap()) };
    }
}

const REGION: usize = 4 << 20;
/// Region of the talc-like workload (talc's benchmark uses 128 MiB; these runs stay well
/// under 32 MiB live).
const TALC_REGION: usize = 32 << 20;
/// Actions per iteration of the talc-like workload.
const TALC_STEPS: usize = 20_000;

/// A heap of kind `name` over the first `len` bytes of `region`.
fn make(name: &str, region: &Region, len: usize) -> Box<dyn BenchHeap> {
    assert!(len <= region.len);
    // SAFETY (all arms): the region outlives the heap (made and dropped within one iteration)
    // and nothing else uses it meanwhile (heaps on one region never live at the same time).
    #[allow(clippy::undocumented_unsafe_blocks)]
    unsafe {
        match name {
            "lore good fit" => Box::new(Heap::from_raw(region.ptr, len, Policy::GoodFit).unwrap()),
            "lore first fit" => Box::new(Heap::from_raw(region.ptr, len, Policy::FirstFit).unwrap()),
            "lore next fit" => Box::new(Heap::from_raw(region.ptr, len, Policy::NextFit).unwrap()),
            "lore best fit" => Box::new(Heap::from_raw(region.ptr, len, Policy::BestFit).unwrap()),
            "talc" => {
                let mut t = talc::base::Talc::new(talc::source::Manual);
                t.claim(region.ptr, len).unwrap();
                Box::new(t)
            }
            "linked_list_allocator" => {
                let mut h = linked_list_allocator::Heap::empty();
                h.init(region.ptr, len);
                Box::new(h)
            }
            "buddy_system_allocator" => {
                let mut h = buddy_system_allocator::Heap::<32>::empty();
                h.init(region.ptr as usize, len);
                Box::new(h)
            }
            _ => unreachable!("unknown heap {name}"),
        }
    }
}

const HEAPS: [&str; 7] = [
    "lore good fit",
    "lore first fit",
    "lore next fit",
    "lore best fit",
    "talc",
    "buddy_system_allocator",
    "linked_list_allocator",
];

#[derive(Clone, Copy)]
enum Action {
    Alloc(usize, Layout),
    Free(usize),
    /// Resize object `.0` to `.1` bytes (same alignment).
    Realloc(usize, usize),
}

/// Random actions like talc's benchmark: fill with `warm` objects, then allocate (sizes 16 to
/// `max`, alignment 8) or free a random live object with equal odds.
fn random_actions(seed: u64, warm: usize, steps: usize, max: usize) -> (Vec<Action>, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut live: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for step in 0..warm + steps {
        if step < warm || live.is_empty() || rng.random_bool(0.5) {
            let size = rng.random_range(16..=max);
            out.push(Action::Alloc(next, Layout::from_size_align(size, 8).unwrap()));
            live.push(next);
            next += 1;
        } else {
            let i = rng.random_range(0..live.len());
            out.push(Action::Free(live.swap_remove(i)));
        }
    }
    (out, next)
}

/// Random actions as in talc's own benchmark (`random_actions`): one action in seven resizes a
/// random live object to 1..3×`max` bytes; otherwise allocate or free with equal odds, always
/// allocating while fewer than 300 objects live. Sizes lean small (uniform in `4..c` with `c`
/// uniform in `16..max`); alignments are 8 (75 %), 16 (19 %), 32 (4 %) and rarer higher ones.
fn talc_like_actions(seed: u64, steps: usize, max: usize) -> (Vec<Action>, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut live: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for _ in 0..steps {
        let action = rng.random_range(0..7);
        if action == 6 {
            if !live.is_empty() {
                let id = live[rng.random_range(0..live.len())];
                out.push(Action::Realloc(id, rng.random_range(1..3 * max)));
            }
        } else if action < 3 || live.len() < 300 {
            let cap = rng.random_range(16..max);
            let size = rng.random_range(4..cap);
            let align = 8usize << (rng.random::<u16>().trailing_zeros() / 2);
            out.push(Action::Alloc(next, Layout::from_size_align(size, align).unwrap()));
            live.push(next);
            next += 1;
        } else {
            let i = rng.random_range(0..live.len());
            out.push(Action::Free(live.swap_remove(i)));
        }
    }
    (out, next)
}

fn replay(heap: &mut dyn BenchHeap, actions: &[Action], objects: usize) {
    let mut live: Vec<Option<(NonNull<u8>, Layout)>> = vec![None; objects];
    for a in actions {
        match *a {
            Action::Alloc(id, layout) => live[id] = heap.alloc(layout).map(|p| (p, layout)),
            Action::Free(id) => {
                if let Some((p, l)) = live[id].take() {
                    // SAFETY: allocated here with `l`.
                    unsafe { heap.free(p, l) };
                }
            }
            Action::Realloc(id, size) => {
                if let Some((p, l)) = live[id] {
                    // SAFETY: allocated here with `l`; on failure the old block stays.
                    if let Some(q) = unsafe { heap.realloc(p, l, size) } {
                        live[id] = Some((q, Layout::from_size_align(size, l.align()).unwrap()));
                    }
                }
            }
        }
    }
    black_box(&live);
}

/// Fraction of the region in live requested bytes when the first allocation fails.
fn use_at_first_failure(name: &str, max: usize) -> f64 {
    let region = Region::new(1 << 20);
    let mut heap = make(name, &region, region.len);
    heap_ops::use_at_first_failure(&mut *heap, region.len, max)
}

// ----- talc's own procedures ---------------------------------------------------------------
//
// Written from the description of talc's benchmark programs (`benches/` in talc's repository):
// a 128 MiB arena, mapped before timing; random actions for a fixed time, not a fixed count, so
// the live set random-walks up from 300 objects for as long as the allocator keeps up; heap
// efficiency as the mean fraction of the arena in live requests at the first failed allocation
// or reallocation over repeated fills of one heap. Run with `LORE_TALC_PROCEDURES=1`.

/// talc's arena size.
const TALC_ARENA: usize = 1 << 27;

/// talc's size distribution: uniform in `4..c` with `c` uniform in `16..max` (leans small).
fn talc_size(rng: &mut Pcg64Mcg, max: usize) -> usize {
    let cap = rng.random_range(16..max);
    rng.random_range(4..cap)
}

/// talc's alignments: 8 (75 %), 16 (19 %), 32 (4.7 %), ..., 2048 (at most).
fn talc_align(rng: &mut Pcg64Mcg) -> usize {
    8usize << (rng.random::<u16>().trailing_zeros() / 2)
}

/// What one timed run of talc's random actions did.
struct RaRun {
    /// Successful actions (talc's score): allocations, frees and reallocations that worked.
    score: u64,
    elapsed: Duration,
    live_at_end: usize,
    failures: u64,
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (Linux); `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(s.split_whitespace().next()?.parse().ok()?))
}

/// The clock of [`talc_random_actions`]: the thread's CPU time where the system gives it
/// (other processes then do not count: on a loaded machine wall time would shrink every run
/// alike and the live set with it), else wall time. Read every 64 batches of 100 actions.
struct RunClock {
    cpu0: Option<Duration>,
    wall0: Instant,
}

impl RunClock {
    fn start() -> Self {
        Self { cpu0: thread_cpu_time(), wall0: Instant::now() }
    }
    fn elapsed(&self) -> Duration {
        match (self.cpu0, thread_cpu_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall0.elapsed(),
        }
    }
}

/// talc's random actions for `duration` (of CPU time, see [`RunClock`]): one action in
/// seven resizes a random live object to `1..3×max` bytes; else allocate (three in seven, or
/// six in seven while fewer than 300 objects live) or free a random live object (three in
/// seven). talc checks the clock every 100 actions; this reads it every 6,400 (a read of the
/// CPU clock is a small file read) and times exactly what ran. Frees everything afterwards,
/// outside the timing.
fn talc_random_actions(heap: &mut dyn BenchHeap, rng: &mut Pcg64Mcg, max: usize, duration: Duration) -> RaRun {
    let mut v: Vec<(NonNull<u8>, Layout)> = Vec::with_capacity(100_000);
    let (mut score, mut failures) = (0u64, 0u64);
    let clock = RunClock::start();
    let mut elapsed = Duration::ZERO;
    while elapsed < duration {
        for _ in 0..6400 {
            let action = rng.random_range(0..7);
            if action == 6 {
                if !v.is_empty() {
                    let i = rng.random_range(0..v.len());
                    let new_size = rng.random_range(1..3 * max);
                    let (p, l) = v[i];
                    // SAFETY: allocated here with `l`; on failure the old block stays.
                    match unsafe { heap.realloc(p, l, new_size) } {
                        Some(q) => {
                            v[i] = (q, Layout::from_size_align(new_size, l.align()).unwrap());
                            score += 1;
                        }
                        None => failures += 1,
                    }
                }
            } else if action < 3 || v.len() < 300 {
                let l = Layout::from_size_align(talc_size(rng, max), talc_align(rng)).unwrap();
                match heap.alloc(l) {
                    Some(p) => {
                        v.push((p, l));
                        score += 1;
                    }
                    None => failures += 1,
                }
            } else {
                let (p, l) = v.swap_remove(rng.random_range(0..v.len()));
                // SAFETY: allocated here with `l`.
                unsafe { heap.free(p, l) };
                score += 1;
            }
        }
        elapsed = clock.elapsed();
    }
    let live_at_end = v.len();
    for (p, l) in v {
        // SAFETY: allocated here with `l`.
        unsafe { heap.free(p, l) };
    }
    RaRun { score, elapsed, live_at_end, failures }
}

/// talc's random-actions benchmark: for each maximum size, 7 trials per allocator (interleaved
/// here: trial 1 of every allocator, then trial 2, ...), each on a fresh heap over the mapped
/// arena: a 2 ms warm-up run, its objects freed, then the 200 ms run that is scored.
fn talc_random_actions_bench(arena: &Region) {
    const TRIALS: usize = 7;
    for max in [1000, 3000, 10_000, 30_000] {
        let mut runs: Vec<Vec<RaRun>> = HEAPS.iter().map(|_| Vec::new()).collect();
        for trial in 0..TRIALS {
            for (k, name) in HEAPS.iter().enumerate() {
                let mut heap = make(name, arena, arena.len);
                let mut rng = Pcg64Mcg::seed_from_u64(1000 * trial as u64 + max as u64);
                talc_random_actions(heap.as_mut(), &mut rng, max, Duration::from_millis(2));
                runs[k].push(talc_random_actions(heap.as_mut(), &mut rng, max, Duration::from_millis(200)));
            }
        }
        let per_action: Vec<f64> = runs
            .iter()
            .map(|r| {
                let ns: f64 = r.iter().map(|x| x.elapsed.as_secs_f64() * 1e9).sum();
                ns / r.iter().map(|x| x.score).sum::<u64>() as f64
            })
            .collect();
        let talc = HEAPS.iter().position(|&n| n == "talc").unwrap();
        let list = HEAPS.iter().position(|&n| n == "linked_list_allocator").unwrap();
        for (k, name) in HEAPS.iter().enumerate() {
            let r = &runs[k];
            let score = r.iter().map(|x| x.score).sum::<u64>() / TRIALS as u64;
            let live = r.iter().map(|x| x.live_at_end).sum::<usize>() / TRIALS;
            let failures = r.iter().map(|x| x.failures).sum::<u64>() / TRIALS as u64;
            println!(
                "talc random actions, max {max:>5} B: {name:>24} {:9.1} ns/action  score {score:>9} per 200 ms  \
                 live at end {live:>6}  failures {failures:>6}  {:.2}x talc  list/this {:.1}x",
                per_action[k],
                per_action[k] / per_action[talc],
                per_action[list] / per_action[k],
            );
        }
    }
}

/// talc's heap-efficiency benchmark: on one heap over the arena, `trials` times: allocate
/// (five in ten; sizes as in random actions with max 10,000 B, talc's alignments), free a
/// random live object (one in ten) or resize one to `1..100,000` bytes (four in ten) until an
/// allocation or a reallocation fails; add up the live objects' requested sizes, free them all.
/// Returns the mean fraction of the arena the live requests held.
fn talc_heap_efficiency(name: &str, arena: &Region, trials: usize) -> f64 {
    let mut heap = make(name, arena, arena.len);
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    let mut v: Vec<(NonNull<u8>, Layout)> = Vec::with_capacity(100_000);
    let mut used = 0usize;
    for _ in 0..trials {
        loop {
            match rng.random_range(0..10) {
                0..=4 => {
                    let l = Layout::from_size_align(talc_size(&mut rng, 10_000), talc_align(&mut rng)).unwrap();
                    match heap.alloc(l) {
                        Some(p) => v.push((p, l)),
                        None => break,
                    }
                }
                5 => {
                    if !v.is_empty() {
                        let (p, l) = v.swap_remove(rng.random_range(0..v.len()));
                        // SAFETY: allocated here with `l`.
                        unsafe { heap.free(p, l) };
                    }
                }
                _ => {
                    if !v.is_empty() {
                        let i = rng.random_range(0..v.len());
                        let new_size = rng.random_range(1..100_000);
                        let (p, l) = v[i];
                        // SAFETY: allocated here with `l`; on failure the old block stays.
                        match unsafe { heap.realloc(p, l, new_size) } {
                            Some(q) => v[i] = (q, Layout::from_size_align(new_size, l.align()).unwrap()),
                            None => break,
                        }
                    }
                }
            }
        }
        used += v.iter().map(|(_, l)| l.size()).sum::<usize>();
        for (p, l) in v.drain(..) {
            // SAFETY: allocated here with `l`.
            unsafe { heap.free(p, l) };
        }
    }
    used as f64 / (trials * arena.len) as f64
}

fn talc_procedures() {
    let arena = Region::touched(TALC_ARENA);
    let trials: usize = std::env::var("LORE_TALC_EFFICIENCY_TRIALS").ok().and_then(|t| t.parse().ok()).unwrap_or(300);
    for name in HEAPS {
        let start = Instant::now();
        let e = talc_heap_efficiency(name, &arena, trials);
        println!(
            "talc heap efficiency ({trials} fills of 128 MiB): {name:>24} {:.2}%  ({:.1} s)",
            100.0 * e,
            start.elapsed().as_secs_f64()
        );
    }
    talc_random_actions_bench(&arena);
}

fn heap(c: &mut Criterion) {
    if std::env::var_os("LORE_TALC_PROCEDURES").is_some() {
        talc_procedures();
    }
    for max in [128, 1024] {
        for name in HEAPS {
            println!(
                "heap use at first failure (sizes 16..={max}): {name:>24} {:.2}%",
                100.0 * use_at_first_failure(name, max)
            );
        }
    }
    // One region, its pages mapped before timing; each iteration builds a fresh heap on it.
    let region = Region::touched(TALC_REGION);
    let workloads = [
        ("old workload", REGION, random_actions(5, 2000, 20_000, 512)),
        ("talc-like max 1000 B", TALC_REGION, talc_like_actions(7, TALC_STEPS, 1000)),
        ("talc-like max 30000 B", TALC_REGION, talc_like_actions(7, TALC_STEPS, 30_000)),
    ];
    for (label, len, (actions, objects)) in &workloads {
        let run = |name: &'static str| {
            let region = &region;
            move || {
                let mut heap = make(name, region, *len);
                timed(|| {
                    replay(heap.as_mut(), actions, *objects);
                    actions.len() as u64
                })
            }
        };
        let (mut good, mut first, mut talc) = (run("lore good fit"), run("lore first fit"), run("talc"));
        let (mut buddy, mut list) = (run("buddy_system_allocator"), run("linked_list_allocator"));
        interleaved_min(
            &format!("heap {label}"),
            20,
            &mut [
                ("lore good fit", &mut good),
                ("lore first fit", &mut first),
                ("talc", &mut talc),
                ("buddy_system_allocator", &mut buddy),
                ("linked_list_allocator", &mut list),
            ],
        );
    }
    let (actions, objects) = random_actions(5, 2000, 20_000, 512);
    let mut g = c.benchmark_group("heap random actions");
    g.throughput(Throughput::Elements(actions.len() as u64));
    g.sample_size(10);
    for name in HEAPS {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut heap = make(name, &region, REGION);
                replay(heap.as_mut(), &actions, objects);
            });
        });
    }
    g.finish();
    for max in [1000, 30_000] {
        let (actions, objects) = talc_like_actions(7, TALC_STEPS, max);
        let mut g = c.benchmark_group(format!("heap talc-like random actions max {max} B"));
        g.throughput(Throughput::Elements(actions.len() as u64));
        g.sample_size(10);
        for name in HEAPS {
            g.bench_function(name, |b| {
                b.iter(|| {
                    let mut heap = make(name, &region, region.len);
                    replay(heap.as_mut(), &actions, objects);
                });
            });
        }
        g.finish();
    }
}

// ----- pool ------------------------------------------------------------------------------

const POOL_N: u64 = 1000;

fn pool(c: &mut Criterion) {
    let mut g = c.benchmark_group("pool alloc+free 64 B");
    g.throughput(Throughput::Elements(POOL_N));
    let layout = Layout::from_size_align(64, 8).unwrap();
    let mut p = Pool::new(layout).unwrap();
    let keep: Vec<_> = (0..64).map(|_| p.alloc().unwrap()).collect();
    g.bench_function("lore Pool (free_unchecked)", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                let x = p.alloc().unwrap();
                black_box(x);
                // SAFETY: just allocated from `p`.
                unsafe { p.free_unchecked(x) };
            }
        });
    });
    g.bench_function("lore Pool (checked free)", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                let x = p.alloc().unwrap();
                p.free(black_box(x)).unwrap();
            }
        });
    });
    black_box(keep);
    g.bench_function("system malloc+free", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                // SAFETY: non-zero layout; freed right away with the same layout.
                unsafe {
                    let x = System.alloc(layout);
                    System.dealloc(black_box(x), layout);
                }
            }
        });
    });
    let mut slab = slab::Slab::<[u64; 8]>::with_capacity(128);
    g.bench_function("slab insert+remove", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                let k = slab.insert([0; 8]);
                black_box(slab.remove(black_box(k)));
            }
        });
    });
    g.finish();
}

// ----- handle arrays ---------------------------------------------------------------------

const HANDLES_N: usize = 10_000;

fn order(n: usize) -> Vec<usize> {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
    v
}

fn handles(c: &mut Criterion) {
    let idx = order(HANDLES_N);
    let n = HANDLES_N as u64;
    interleaved_min(
        "handles insert (array allocated before timing)",
        200,
        &mut [
            ("lore HandleArray", &mut || {
                let mut a = HandleArray::with_capacity(HANDLES_N);
                timed(|| {
                    for i in 0..n {
                        black_box(a.insert(i));
                    }
                    n
                })
            }),
            ("lore HandleArray typed key", &mut || {
                let mut a = HandleArray::<u64, BenchKey>::with_capacity_and_key(HANDLES_N);
                timed(|| {
                    for i in 0..n {
                        black_box(a.insert(i));
                    }
                    n
                })
            }),
            ("slotmap SlotMap", &mut || {
                let mut a = slotmap::SlotMap::with_capacity(HANDLES_N);
                timed(|| {
                    for i in 0..n {
                        black_box(a.insert(i));
                    }
                    n
                })
            }),
            ("thunderdome Arena", &mut || {
                let mut a = thunderdome::Arena::with_capacity(HANDLES_N);
                timed(|| {
                    for i in 0..n {
                        black_box(a.insert(i));
                    }
                    n
                })
            }),
            ("slab Slab", &mut || {
                let mut a = slab::Slab::with_capacity(HANDLES_N);
                timed(|| {
                    for i in 0..n {
                        black_box(a.insert(i));
                    }
                    n
                })
            }),
        ],
    );
    let mut g = c.benchmark_group("handles");
    g.throughput(Throughput::Elements(HANDLES_N as u64));

    g.bench_function("insert/lore HandleArray", |b| {
        b.iter(|| {
            let mut a = HandleArray::with_capacity(HANDLES_N);
            for i in 0..HANDLES_N as u64 {
                black_box(a.insert(i));
            }
            a
        });
    });
    g.bench_function("insert/lore HandleArray typed key", |b| {
        b.iter(|| {
            let mut a = HandleArray::<u64, BenchKey>::with_capacity_and_key(HANDLES_N);
            for i in 0..HANDLES_N as u64 {
                black_box(a.insert(i));
            }
            a
        });
    });
    g.bench_function("insert/slotmap SlotMap", |b| {
        b.iter(|| {
            let mut a = slotmap::SlotMap::with_capacity(HANDLES_N);
            for i in 0..HANDLES_N as u64 {
                black_box(a.insert(i));
            }
            a
        });
    });
    g.bench_function("insert/thunderdome Arena", |b| {
        b.iter(|| {
            let mut a = thunderdome::Arena::with_capacity(HANDLES_N);
            for i in 0..HANDLES_N as u64 {
                black_box(a.insert(i));
            }
            a
        });
    });
    g.bench_function("insert/slab Slab", |b| {
        b.iter(|| {
            let mut a = slab::Slab::with_capacity(HANDLES_N);
            for i in 0..HANDLES_N as u64 {
                black_box(a.insert(i));
            }
            a
        });
    });

    let mut lore = HandleArray::new();
    let lore_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| lore.insert(i)).collect();
    let mut dense = DenseHandleArray::new();
    let dense_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| dense.insert(i)).collect();
    let mut sm = slotmap::SlotMap::new();
    let sm_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| sm.insert(i)).collect();
    let mut td = thunderdome::Arena::new();
    let td_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| td.insert(i)).collect();
    let mut sl = slab::Slab::new();
    let sl_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| sl.insert(i)).collect();

    g.bench_function("get/lore HandleArray", |b| {
        b.iter(|| idx.iter().map(|&i| *lore.get(lore_keys[i]).unwrap()).sum::<u64>());
    });
    let mut typed = HandleArray::<u64, BenchKey>::with_key();
    let typed_keys: Vec<BenchKey> = (0..HANDLES_N as u64).map(|i| typed.insert(i)).collect();
    g.bench_function("get/lore HandleArray typed key", |b| {
        b.iter(|| idx.iter().map(|&i| *typed.get(typed_keys[i]).unwrap()).sum::<u64>());
    });
    let mut secondary = SecondaryMap::new();
    let mut sm_secondary = slotmap::SecondaryMap::new();
    for (i, k) in lore_keys.iter().enumerate() {
        secondary.insert(*k, i as u64).unwrap();
    }
    g.bench_function("get/lore DenseHandleArray", |b| {
        b.iter(|| idx.iter().map(|&i| *dense.get(dense_keys[i]).unwrap()).sum::<u64>());
    });
    g.bench_function("get/slotmap SlotMap", |b| {
        b.iter(|| idx.iter().map(|&i| *sm.get(sm_keys[i]).unwrap()).sum::<u64>());
    });
    for (i, k) in sm_keys.iter().enumerate() {
        sm_secondary.insert(*k, i as u64);
    }
    g.bench_function("get/lore SecondaryMap", |b| {
        b.iter(|| idx.iter().map(|&i| *secondary.get(lore_keys[i]).unwrap()).sum::<u64>());
    });
    g.bench_function("get/slotmap SecondaryMap", |b| {
        b.iter(|| idx.iter().map(|&i| *sm_secondary.get(sm_keys[i]).unwrap()).sum::<u64>());
    });
    g.bench_function("get/thunderdome Arena", |b| {
        b.iter(|| idx.iter().map(|&i| *td.get(td_keys[i]).unwrap()).sum::<u64>());
    });
    g.bench_function("get/slab Slab", |b| {
        b.iter(|| idx.iter().map(|&i| *sl.get(sl_keys[i]).unwrap()).sum::<u64>());
    });

    g.bench_function("remove/lore HandleArray", |b| {
        b.iter_batched_ref(
            || lore.clone(),
            |a| idx.iter().map(|&i| a.remove(lore_keys[i]).unwrap()).sum::<u64>(),
            BatchSize::LargeInput,
        );
    });
    g.bench_function("remove/slotmap SlotMap", |b| {
        b.iter_batched_ref(
            || sm.clone(),
            |a| idx.iter().map(|&i| a.remove(sm_keys[i]).unwrap()).sum::<u64>(),
            BatchSize::LargeInput,
        );
    });
    g.bench_function("remove/thunderdome Arena", |b| {
        b.iter_batched_ref(
            || td.clone(),
            |a| idx.iter().map(|&i| a.remove(td_keys[i]).unwrap()).sum::<u64>(),
            BatchSize::LargeInput,
        );
    });
    g.bench_function("remove/slab Slab", |b| {
        b.iter_batched_ref(
            || sl.clone(),
            |a| idx.iter().map(|&i| a.remove(sl_keys[i])).sum::<u64>(),
            BatchSize::LargeInput,
        );
    });

    // Iteration over a container with every other value removed (holes for the sparse ones).
    for &i in idx.iter().step_by(2) {
        lore.remove(lore_keys[i]).unwrap();
        dense.remove(dense_keys[i]).unwrap();
        sm.remove(sm_keys[i]).unwrap();
        td.remove(td_keys[i]).unwrap();
        sl.remove(sl_keys[i]);
    }
    let mut dsm = slotmap::DenseSlotMap::new();
    let dsm_keys: Vec<_> = (0..HANDLES_N as u64).map(|i| dsm.insert(i)).collect();
    for &i in idx.iter().step_by(2) {
        dsm.remove(dsm_keys[i]).unwrap();
    }
    g.throughput(Throughput::Elements(HANDLES_N as u64 / 2));
    g.bench_function("iterate half-full/lore HandleArray", |b| b.iter(|| lore.iter().map(|(_, v)| *v).sum::<u64>()));
    g.bench_function("iterate half-full/lore DenseHandleArray", |b| b.iter(|| dense.values().iter().sum::<u64>()));
    g.bench_function("iterate half-full/slotmap SlotMap", |b| b.iter(|| sm.values().sum::<u64>()));
    g.bench_function("iterate half-full/slotmap DenseSlotMap", |b| b.iter(|| dsm.values().sum::<u64>()));
    g.bench_function("iterate half-full/thunderdome Arena", |b| b.iter(|| td.iter().map(|(_, v)| *v).sum::<u64>()));
    g.bench_function("iterate half-full/slab Slab", |b| b.iter(|| sl.iter().map(|(_, v)| *v).sum::<u64>()));
    g.finish();
}

// ----- tracking --------------------------------------------------------------------------

static TRACKING: TrackingAlloc<System> = TrackingAlloc::new(System);
/// Pairs per interleaved round.
const TRACKING_N: u64 = 10_000;

struct Bullet(#[allow(dead_code)] u64);
tally_type!(Bullet);

fn tracking(c: &mut Criterion) {
    let layout = Layout::from_size_align(64, 8).unwrap();
    interleaved_min(
        "tracking alloc+free 64 B",
        300,
        &mut [
            ("system", &mut || {
                timed(|| {
                    for _ in 0..TRACKING_N {
                        // SAFETY: non-zero layout, freed right away.
                        unsafe { System.dealloc(black_box(System.alloc(layout)), layout) };
                    }
                    TRACKING_N
                })
            }),
            ("lore TrackingAlloc<System>", &mut || {
                timed(|| {
                    for _ in 0..TRACKING_N {
                        // SAFETY: as above.
                        unsafe { TRACKING.dealloc(black_box(TRACKING.alloc(layout)), layout) };
                    }
                    TRACKING_N
                })
            }),
        ],
    );
    let mut g = c.benchmark_group("tracking alloc+free 64 B");
    g.throughput(Throughput::Elements(POOL_N));
    g.bench_function("system", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                // SAFETY: non-zero layout, freed right away.
                unsafe { System.dealloc(black_box(System.alloc(layout)), layout) };
            }
        });
    });
    g.bench_function("lore TrackingAlloc<System>", |b| {
        b.iter(|| {
            for _ in 0..POOL_N {
                // SAFETY: as above.
                unsafe { TRACKING.dealloc(black_box(TRACKING.alloc(layout)), layout) };
            }
        });
    });
    g.bench_function("Tracked::new + drop (per-type tally)", |b| {
        b.iter(|| {
            for i in 0..POOL_N {
                black_box(Tracked::new(Bullet(i)));
            }
        });
    });
    g.finish();
    black_box(Bullet::tally().created());
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = stack, heap, pool, handles, tracking }
criterion_main!(benches);
