//! lore-allocators side by side with its peers on the same data, in one run.
//!
//! `cargo bench -p lore-benches --bench allocators` (add a filter such as `heap` to run one
//! group). Before the timings it prints the heap use at first failure of each heap allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::ptr::NonNull;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use lore_allocators::tracking::{Tallied, Tracked, TrackingAlloc};
use lore_allocators::{DenseHandleArray, HandleArray, Heap, Policy, Pool, Stack, tally_type};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

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

/// The operations a heap peer needs for the workloads.
trait BenchHeap {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>>;
    /// # Safety
    /// `ptr` was allocated here with `layout`.
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout);
}

impl BenchHeap for Heap<'_> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        Heap::alloc(self, layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, _layout: Layout) {
        let _ = Heap::free(self, ptr);
    }
}

impl BenchHeap for talc::base::Talc<talc::source::Manual, talc::DefaultBinning> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        // SAFETY: any layout is valid for talc.
        unsafe { self.allocate(layout) }
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.deallocate(ptr.as_ptr(), layout) }
    }
}

impl BenchHeap for linked_list_allocator::Heap {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        self.allocate_first_fit(layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.deallocate(ptr, layout) }
    }
}

impl BenchHeap for buddy_system_allocator::Heap<32> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        buddy_system_allocator::Heap::alloc(self, layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.dealloc(ptr, layout) };
    }
}

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
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, Layout::from_size_align(self.len, 4096).unwrap()) };
    }
}

const REGION: usize = 4 << 20;

fn make(name: &str, region: &Region) -> Box<dyn BenchHeap> {
    // SAFETY (all arms): the region outlives the heap (both live in one benchmark iteration) and is
    // used by nothing else.
    #[allow(clippy::undocumented_unsafe_blocks)]
    unsafe {
        match name {
            "lore good fit" => Box::new(Heap::from_raw(region.ptr, region.len, Policy::GoodFit).unwrap()),
            "lore first fit" => Box::new(Heap::from_raw(region.ptr, region.len, Policy::FirstFit).unwrap()),
            "lore next fit" => Box::new(Heap::from_raw(region.ptr, region.len, Policy::NextFit).unwrap()),
            "lore best fit" => Box::new(Heap::from_raw(region.ptr, region.len, Policy::BestFit).unwrap()),
            "talc" => {
                let mut t = talc::base::Talc::new(talc::source::Manual);
                t.claim(region.ptr, region.len).unwrap();
                Box::new(t)
            }
            "linked_list_allocator" => {
                let mut h = linked_list_allocator::Heap::empty();
                h.init(region.ptr, region.len);
                Box::new(h)
            }
            "buddy_system_allocator" => {
                let mut h = buddy_system_allocator::Heap::<32>::empty();
                h.init(region.ptr as usize, region.len);
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
        }
    }
    black_box(&live);
}

/// Fraction of the region in live requested bytes when the first allocation fails (random
/// sizes 16..=`max`, one free for every two allocations).
fn use_at_first_failure(name: &str, max: usize) -> f64 {
    let region = Region::new(1 << 20);
    let mut heap = make(name, &region);
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut live: Vec<(NonNull<u8>, Layout)> = Vec::new();
    let mut bytes = 0usize;
    loop {
        if !live.is_empty() && rng.random_range(0..3) == 0 {
            let (p, l) = live.swap_remove(rng.random_range(0..live.len()));
            bytes -= l.size();
            // SAFETY: allocated here with `l`.
            unsafe { heap.free(p, l) };
        } else {
            let l = Layout::from_size_align(rng.random_range(16..=max), 8).unwrap();
            match heap.alloc(l) {
                Some(p) => {
                    bytes += l.size();
                    live.push((p, l));
                }
                None => return bytes as f64 / region.len as f64,
            }
        }
    }
}

fn heap(c: &mut Criterion) {
    for max in [128, 1024] {
        for name in HEAPS {
            println!(
                "heap use at first failure (sizes 16..={max}): {name:>24} {:.2}%",
                100.0 * use_at_first_failure(name, max)
            );
        }
    }
    let (actions, objects) = random_actions(5, 2000, 20_000, 512);
    let mut g = c.benchmark_group("heap random actions");
    g.throughput(Throughput::Elements(actions.len() as u64));
    g.sample_size(10);
    for name in HEAPS {
        g.bench_function(name, |b| {
            b.iter_batched_ref(
                || Region::new(REGION),
                |region| {
                    let mut heap = make(name, region);
                    replay(heap.as_mut(), &actions, objects);
                },
                BatchSize::PerIteration,
            );
        });
    }
    g.finish();
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
    g.bench_function("get/lore DenseHandleArray", |b| {
        b.iter(|| idx.iter().map(|&i| *dense.get(dense_keys[i]).unwrap()).sum::<u64>());
    });
    g.bench_function("get/slotmap SlotMap", |b| {
        b.iter(|| idx.iter().map(|&i| *sm.get(sm_keys[i]).unwrap()).sum::<u64>());
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

struct Bullet(#[allow(dead_code)] u64);
tally_type!(Bullet);

fn tracking(c: &mut Criterion) {
    let mut g = c.benchmark_group("tracking alloc+free 64 B");
    g.throughput(Throughput::Elements(POOL_N));
    let layout = Layout::from_size_align(64, 8).unwrap();
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
