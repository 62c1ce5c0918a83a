//! Model-based property tests: random sequences of operations run on each allocator and on a
//! plain model (a list of live blocks with the byte each was filled with). After every step:
//! no two live blocks overlap, every block is aligned and inside its memory, the contents
//! written survive until freed, statistics add up, and freed memory is reused.
//!
//! `cargo test -p lore-allocators` runs a few dozen cases per allocator (quick enough for
//! valgrind); `cargo test --release -p lore-allocators -- --ignored` runs thousands.

use core::alloc::Layout;
use core::ptr::NonNull;
use std::collections::HashMap;

use lore_allocators::{DenseHandleArray, Error, Handle, HandleArray, Heap, Policy, Pool, SizeClasses, Stack};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
struct Live {
    ptr: NonNull<u8>,
    size: usize,
    fill: u8,
}

fn write(b: &Live) {
    // SAFETY: `b` is a live block of `size` bytes owned by the test.
    unsafe { b.ptr.as_ptr().write_bytes(b.fill, b.size) };
}

fn intact(b: &Live) -> bool {
    // SAFETY: as above.
    unsafe { core::slice::from_raw_parts(b.ptr.as_ptr(), b.size) }.iter().all(|&x| x == b.fill)
}

/// No overlaps among live blocks (zero-sized blocks excluded).
fn disjoint(live: &[Live]) -> bool {
    let mut spans: Vec<(usize, usize)> =
        live.iter().filter(|b| b.size > 0).map(|b| (b.ptr.as_ptr() as usize, b.size)).collect();
    spans.sort_unstable();
    spans.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0)
}

#[derive(Clone, Debug)]
enum HeapOp {
    Alloc { size: usize, align_log: u32 },
    Free(usize),
    Realloc(usize, usize),
}

fn heap_op() -> impl Strategy<Value = HeapOp> {
    prop_oneof![
        4 => (1usize..700, 0u32..7).prop_map(|(size, align_log)| HeapOp::Alloc { size, align_log }),
        3 => any::<usize>().prop_map(HeapOp::Free),
        1 => (any::<usize>(), 1usize..900).prop_map(|(i, s)| HeapOp::Realloc(i, s)),
    ]
}

fn run_heap(policy: Policy, ops: &[HeapOp]) -> Result<(), TestCaseError> {
    let mut region = vec![0u8; 16 * 1024];
    let (lo, hi) = (region.as_ptr() as usize, region.as_ptr() as usize + region.len());
    let mut heap = Heap::new(&mut region, policy).unwrap();
    let mut live: Vec<Live> = Vec::new();
    let mut fill = 0u8;
    for op in ops {
        fill = fill.wrapping_add(1);
        match *op {
            HeapOp::Alloc { size, align_log } => {
                let align = 1 << align_log;
                match heap.alloc(Layout::from_size_align(size, align).unwrap()) {
                    Ok(ptr) => {
                        prop_assert_eq!(ptr.as_ptr() as usize % align, 0);
                        let p = ptr.as_ptr() as usize;
                        prop_assert!(p >= lo && p + size <= hi);
                        let b = Live { ptr, size, fill };
                        write(&b);
                        live.push(b);
                    }
                    Err(e) => {
                        prop_assert_eq!(e, Error::OutOfMemory { size, align });
                        // Out of memory only when no free block could hold it.
                        let s = heap.stats();
                        prop_assert!(s.largest_free < size + 16 + 2 * align + 32 + 16);
                    }
                }
            }
            HeapOp::Free(i) if !live.is_empty() => {
                let b = live.swap_remove(i % live.len());
                prop_assert!(intact(&b));
                // Every other free with the layout as `GlobalAlloc::dealloc` passes it (the
                // live size; the alignment is not tracked here, and is only a hint anyway).
                if fill.is_multiple_of(2) {
                    heap.free_sized(b.ptr, Layout::from_size_align(b.size, 1).unwrap()).unwrap();
                } else {
                    heap.free(b.ptr).unwrap();
                }
                prop_assert_eq!(heap.free(b.ptr), Err(Error::DoubleFree));
            }
            HeapOp::Realloc(i, size) if !live.is_empty() => {
                let i = i % live.len();
                let old = live[i];
                prop_assert!(intact(&old));
                // Every other one as `GlobalAlloc::realloc` passes it (old layout, new size).
                let moved = if fill.is_multiple_of(2) {
                    heap.realloc_sized(old.ptr, Layout::from_size_align(old.size, 1).unwrap(), size)
                } else {
                    heap.realloc(old.ptr, Layout::from_size_align(size, 1).unwrap())
                };
                if let Ok(ptr) = moved {
                    let kept = Live { ptr, size: size.min(old.size), fill: old.fill };
                    prop_assert!(intact(&kept), "realloc keeps the contents");
                    live[i] = Live { ptr, size, fill };
                    write(&live[i]);
                }
            }
            _ => {}
        }
        heap.check().map_err(|e| TestCaseError::fail(format!("{e} after {op:?}")))?;
        prop_assert!(disjoint(&live));
        prop_assert!(live.iter().all(intact));
        let s = heap.stats();
        prop_assert_eq!(s.used_blocks, live.len());
        prop_assert_eq!(s.used + s.free, s.capacity);
    }
    for b in live.drain(..) {
        heap.free(b.ptr).unwrap();
    }
    let s = heap.stats();
    prop_assert_eq!((s.free_blocks, s.free), (1, heap.capacity()), "everything coalesces back");
    // Freed memory is reused: the whole capacity is available again.
    prop_assert!(heap.alloc(Layout::from_size_align(heap.capacity() - 16, 16).unwrap()).is_ok());
    Ok(())
}

#[derive(Clone, Debug)]
enum StackOp {
    Alloc { size: usize, align_log: u32 },
    Value(u32),
    Mark,
    Rewind(usize),
    Resize(usize),
    FreeLast,
}

fn stack_op() -> impl Strategy<Value = StackOp> {
    prop_oneof![
        5 => (0usize..300, 0u32..7).prop_map(|(size, align_log)| StackOp::Alloc { size, align_log }),
        2 => any::<u32>().prop_map(StackOp::Value),
        2 => Just(StackOp::Mark),
        1 => any::<usize>().prop_map(StackOp::Rewind),
        1 => (0usize..400).prop_map(StackOp::Resize),
        1 => Just(StackOp::FreeLast),
    ]
}

fn run_stack(growable: bool, ops: &[StackOp]) -> Result<(), TestCaseError> {
    let mut stack = if growable { Stack::growable(512).unwrap() } else { Stack::new(4096).unwrap() };
    // Model: live raw blocks, live boxed values (as strings, to exercise destructors), markers
    // with the model's lengths when they were taken.
    let mut live: Vec<Live> = Vec::new();
    let mut values: Vec<(*const String, u32)> = Vec::new();
    let mut markers: Vec<(lore_allocators::Marker, usize, usize)> = Vec::new();
    let mut last_raw = false;
    let mut fill = 0u8;
    for op in ops {
        fill = fill.wrapping_add(1);
        match *op {
            StackOp::Alloc { size, align_log } => {
                let align = 1 << align_log;
                match stack.alloc_layout(Layout::from_size_align(size, align).unwrap()) {
                    Ok(ptr) => {
                        prop_assert_eq!(ptr.as_ptr() as usize % align, 0);
                        let b = Live { ptr, size, fill };
                        write(&b);
                        live.push(b);
                        last_raw = true;
                    }
                    Err(e) => {
                        prop_assert!(!growable);
                        prop_assert_eq!(e, Error::OutOfMemory { size, align });
                        prop_assert!(stack.used() + size + align > 4096);
                    }
                }
            }
            StackOp::Value(v) => {
                if let Ok(s) = stack.alloc(v.to_string()) {
                    values.push((s as *const String, v));
                    last_raw = false;
                }
            }
            StackOp::Mark => markers.push((stack.marker(), live.len(), values.len())),
            StackOp::Rewind(i) if !markers.is_empty() => {
                let i = i % markers.len();
                let (m, n_live, n_values) = markers[i];
                stack.rewind(m).unwrap();
                markers.truncate(i + 1);
                live.truncate(n_live);
                values.truncate(n_values);
                last_raw = false;
            }
            StackOp::Resize(size) if last_raw => {
                // Markers taken after the block would fall inside it or above the top.
                markers.retain(|&(_, n, _)| n < live.len());
                let b = live.last_mut().unwrap();
                match stack.resize_last(b.ptr, size) {
                    Ok(()) => {
                        b.size = b.size.min(size);
                        prop_assert!(intact(b));
                        b.size = size;
                        b.fill = fill;
                        write(b);
                    }
                    Err(e) => {
                        let oom = matches!(e, Error::OutOfMemory { .. });
                        prop_assert!(oom);
                    }
                }
            }
            StackOp::FreeLast if last_raw => {
                let b = live.pop().unwrap();
                stack.free_last(b.ptr).unwrap();
                // A marker taken after the freed block now points above the top.
                markers.retain(|&(_, n, _)| n <= live.len());
                last_raw = false;
            }
            _ => {}
        }
        prop_assert!(disjoint(&live));
        prop_assert!(live.iter().all(intact));
        for &(p, v) in &values {
            // SAFETY: the model keeps only values the stack has not rewound past.
            prop_assert_eq!(unsafe { &*p }, &v.to_string());
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum SlotOp {
    Alloc,
    Free(usize),
}

fn slot_op() -> impl Strategy<Value = SlotOp> {
    prop_oneof![3 => Just(SlotOp::Alloc), 2 => any::<usize>().prop_map(SlotOp::Free)]
}

fn run_pool(size: usize, ops: &[SlotOp]) -> Result<(), TestCaseError> {
    let mut pool = Pool::with_page_size(Layout::from_size_align(size, 8).unwrap(), 1).unwrap();
    let per_page = pool.slots_per_page();
    let mut live: Vec<Live> = Vec::new();
    let mut fill = 0u8;
    let mut allocated = false;
    for op in ops {
        fill = fill.wrapping_add(1);
        match *op {
            SlotOp::Alloc => {
                allocated = true;
                let (pages, had_room) = (pool.pages(), pool.pages() * per_page > live.len());
                let ptr = pool.alloc().unwrap();
                prop_assert_eq!(ptr.as_ptr() as usize % 8, 0);
                // Freed slots are reused before a new page is taken.
                if had_room {
                    prop_assert_eq!(pool.pages(), pages);
                }
                let b = Live { ptr, size, fill };
                write(&b);
                live.push(b);
            }
            SlotOp::Free(i) if !live.is_empty() => {
                let b = live.swap_remove(i % live.len());
                prop_assert!(intact(&b));
                pool.free(b.ptr).unwrap();
                // Its page may have gone back to the system: either way it is not live.
                let again = pool.free(b.ptr);
                prop_assert!(again == Err(Error::DoubleFree) || again == Err(Error::ForeignPointer));
            }
            _ => {}
        }
        prop_assert!(disjoint(&live));
        prop_assert!(live.iter().all(intact));
        prop_assert_eq!(pool.live(), live.len());
        // Empty pages go back to the system, all but one.
        prop_assert!(pool.pages() <= live.len() + 1);
    }
    for b in live.drain(..) {
        pool.free(b.ptr).unwrap();
    }
    // The last page stays for the next allocation; a pool that never allocated has none.
    prop_assert_eq!(pool.pages(), usize::from(allocated));
    Ok(())
}

fn run_size_classes(layouts: &[(usize, u32, bool)]) -> Result<(), TestCaseError> {
    let mut sc = SizeClasses::new();
    let mut live: Vec<(Live, Layout)> = Vec::new();
    let mut fill = 0u8;
    for &(size, align_log, free) in layouts {
        fill = fill.wrapping_add(1);
        if free && !live.is_empty() {
            let (b, layout) = live.swap_remove(size % live.len());
            prop_assert!(intact(&b));
            // SAFETY: allocated by `sc` with `layout`, freed once.
            unsafe { sc.free(b.ptr, layout) };
        } else {
            let layout = Layout::from_size_align(size, 1 << align_log).unwrap();
            let ptr = sc.alloc(layout).unwrap();
            prop_assert_eq!(ptr.as_ptr() as usize % layout.align(), 0);
            let b = Live { ptr, size, fill };
            write(&b);
            live.push((b, layout));
        }
        let blocks: Vec<Live> = live.iter().map(|x| x.0).collect();
        prop_assert!(disjoint(&blocks));
        prop_assert!(blocks.iter().all(intact));
    }
    for (b, layout) in live {
        // SAFETY: as above.
        unsafe { sc.free(b.ptr, layout) };
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum HandleOp {
    Insert(u64),
    Remove(usize),
    RemoveStale(usize),
    Set(usize, u64),
    /// Keep the values whose remainder by 4 differs from this (`retain`).
    Retain(u8),
    /// Add to every value through `iter_mut`.
    AddAll(u64),
    /// Swap two values through `get_disjoint_mut` (or see it refused when they are the same).
    Swap(usize, usize),
    /// Take every value out (`drain`).
    Drain,
}

fn handle_op() -> impl Strategy<Value = HandleOp> {
    prop_oneof![
        4 => any::<u64>().prop_map(HandleOp::Insert),
        2 => any::<usize>().prop_map(HandleOp::Remove),
        1 => any::<usize>().prop_map(HandleOp::RemoveStale),
        1 => (any::<usize>(), any::<u64>()).prop_map(|(i, v)| HandleOp::Set(i, v)),
        1 => (0u8..4).prop_map(HandleOp::Retain),
        1 => any::<u64>().prop_map(HandleOp::AddAll),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| HandleOp::Swap(i, j)),
        1 => Just(HandleOp::Drain),
    ]
}

/// One operation set for both handle arrays.
trait Handles {
    fn insert(&mut self, v: u64) -> Handle;
    fn get(&self, h: Handle) -> Option<&u64>;
    fn get_mut(&mut self, h: Handle) -> Option<&mut u64>;
    fn remove(&mut self, h: Handle) -> Result<u64, Error>;
    fn len(&self) -> usize;
    fn all(&self) -> Vec<(Handle, u64)>;
    fn retain(&mut self, keep: &mut dyn FnMut(Handle, &mut u64) -> bool);
    fn add_all(&mut self, x: u64) -> Vec<Handle>;
    fn swap(&mut self, a: Handle, b: Handle) -> Result<(), Error>;
    fn drain(&mut self) -> Vec<(Handle, u64)>;
}

macro_rules! handles_impl {
    ($t:ty) => {
        impl Handles for $t {
            fn insert(&mut self, v: u64) -> Handle {
                <$t>::insert(self, v)
            }
            fn get(&self, h: Handle) -> Option<&u64> {
                <$t>::get(self, h)
            }
            fn get_mut(&mut self, h: Handle) -> Option<&mut u64> {
                <$t>::get_mut(self, h)
            }
            fn remove(&mut self, h: Handle) -> Result<u64, Error> {
                <$t>::remove(self, h)
            }
            fn len(&self) -> usize {
                <$t>::len(self)
            }
            fn all(&self) -> Vec<(Handle, u64)> {
                self.iter().map(|(h, v)| (h, *v)).collect()
            }
            fn retain(&mut self, keep: &mut dyn FnMut(Handle, &mut u64) -> bool) {
                <$t>::retain(self, keep)
            }
            fn add_all(&mut self, x: u64) -> Vec<Handle> {
                self.iter_mut()
                    .map(|(h, v)| {
                        *v = v.wrapping_add(x);
                        h
                    })
                    .collect()
            }
            fn swap(&mut self, a: Handle, b: Handle) -> Result<(), Error> {
                let [x, y] = self.get_disjoint_mut([a, b])?;
                core::mem::swap(x, y);
                Ok(())
            }
            fn drain(&mut self) -> Vec<(Handle, u64)> {
                <$t>::drain(self).collect()
            }
        }
    };
}
handles_impl!(HandleArray<u64>);
handles_impl!(DenseHandleArray<u64>);

fn run_handles(arr: &mut impl Handles, ops: &[HandleOp]) -> Result<(), TestCaseError> {
    let mut model: HashMap<Handle, u64> = HashMap::new();
    let mut keys: Vec<Handle> = Vec::new();
    let mut stale: Vec<Handle> = Vec::new();
    for op in ops {
        match *op {
            HandleOp::Insert(v) => {
                let h = arr.insert(v);
                prop_assert!(model.insert(h, v).is_none(), "a fresh handle is new");
                prop_assert!(!stale.contains(&h), "a reused slot gets a new generation");
                keys.push(h);
            }
            HandleOp::Remove(i) if !keys.is_empty() => {
                let h = keys.swap_remove(i % keys.len());
                prop_assert_eq!(arr.remove(h), Ok(model.remove(&h).unwrap()));
                stale.push(h);
            }
            HandleOp::RemoveStale(i) if !stale.is_empty() => {
                let h = stale[i % stale.len()];
                prop_assert_eq!(arr.remove(h), Err(Error::StaleHandle));
                prop_assert_eq!(arr.get(h), None);
            }
            HandleOp::Set(i, v) if !keys.is_empty() => {
                let h = keys[i % keys.len()];
                *arr.get_mut(h).unwrap() = v;
                model.insert(h, v);
            }
            HandleOp::Retain(low) => {
                let mut seen = Vec::new();
                arr.retain(&mut |h, v| {
                    seen.push(h);
                    *v % 4 != u64::from(low)
                });
                seen.sort_unstable();
                let mut expect_seen = keys.clone();
                expect_seen.sort_unstable();
                prop_assert_eq!(seen, expect_seen, "retain visits every value once");
                let gone: Vec<Handle> = keys.iter().copied().filter(|h| model[h] % 4 == u64::from(low)).collect();
                for h in gone {
                    model.remove(&h);
                    stale.push(h);
                }
                keys.retain(|h| model.contains_key(h));
            }
            HandleOp::AddAll(x) => {
                let mut seen = arr.add_all(x);
                seen.sort_unstable();
                let mut expect_seen = keys.clone();
                expect_seen.sort_unstable();
                prop_assert_eq!(seen, expect_seen, "iter_mut yields every key once");
                for v in model.values_mut() {
                    *v = v.wrapping_add(x);
                }
            }
            HandleOp::Swap(i, j) if !keys.is_empty() => {
                let (a, b) = (keys[i % keys.len()], keys[j % keys.len()]);
                if a == b {
                    prop_assert_eq!(arr.swap(a, b), Err(Error::AliasedHandles { first: 0, second: 1 }));
                } else {
                    arr.swap(a, b).unwrap();
                    let (va, vb) = (model[&a], model[&b]);
                    model.insert(a, vb);
                    model.insert(b, va);
                }
                if let Some(&s) = stale.first() {
                    prop_assert_eq!(arr.swap(a, s), Err(Error::StaleHandle));
                }
            }
            HandleOp::Drain => {
                let mut got = arr.drain();
                got.sort_unstable();
                let mut expect: Vec<(Handle, u64)> = model.drain().collect();
                expect.sort_unstable();
                prop_assert_eq!(got, expect);
                stale.append(&mut keys);
            }
            _ => {}
        }
        prop_assert_eq!(arr.len(), model.len());
        for (h, v) in &model {
            prop_assert_eq!(arr.get(*h), Some(v));
        }
        for h in &stale {
            prop_assert_eq!(arr.get(*h), None);
        }
        let mut all = arr.all();
        all.sort_unstable();
        let mut expect: Vec<(Handle, u64)> = model.iter().map(|(h, v)| (*h, *v)).collect();
        expect.sort_unstable();
        prop_assert_eq!(all, expect);
    }
    Ok(())
}

/// Found by the long run: a pool that only ever frees holds no page at the end.
#[test]
fn pool_that_never_allocates() {
    run_pool(1, &[SlotOp::Free(0)]).unwrap();
    run_pool(64, &[]).unwrap();
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

const QUICK: u32 = 48;
const LONG: u32 = 3000;

proptest! {
    #![proptest_config(config(QUICK))]

    #[test]
    fn heap_first_fit(ops in prop::collection::vec(heap_op(), 1..120)) { run_heap(Policy::FirstFit, &ops)?; }
    #[test]
    fn heap_next_fit(ops in prop::collection::vec(heap_op(), 1..120)) { run_heap(Policy::NextFit, &ops)?; }
    #[test]
    fn heap_best_fit(ops in prop::collection::vec(heap_op(), 1..120)) { run_heap(Policy::BestFit, &ops)?; }
    #[test]
    fn heap_good_fit(ops in prop::collection::vec(heap_op(), 1..120)) { run_heap(Policy::GoodFit, &ops)?; }
    #[test]
    fn stack_fixed(ops in prop::collection::vec(stack_op(), 1..120)) { run_stack(false, &ops)?; }
    #[test]
    fn stack_growable(ops in prop::collection::vec(stack_op(), 1..120)) { run_stack(true, &ops)?; }
    #[test]
    fn pool(size in 1usize..200, ops in prop::collection::vec(slot_op(), 1..300)) { run_pool(size, &ops)?; }
    #[test]
    fn size_classes(ops in prop::collection::vec((0usize..6000, 0u32..7, any::<bool>()), 1..100)) { run_size_classes(&ops)?; }
    #[test]
    fn handle_array(ops in prop::collection::vec(handle_op(), 1..150)) { run_handles(&mut HandleArray::new(), &ops)?; }
    #[test]
    fn dense_handle_array(ops in prop::collection::vec(handle_op(), 1..150)) { run_handles(&mut DenseHandleArray::new(), &ops)?; }
}

proptest! {
    #![proptest_config(config(LONG))]

    #[test]
    #[ignore = "long run: cargo test --release -p lore-allocators -- --ignored"]
    fn long_heap_all_policies(ops in prop::collection::vec(heap_op(), 1..400)) {
        for policy in Policy::ALL { run_heap(policy, &ops)?; }
    }
    #[test]
    #[ignore = "long run"]
    fn long_stack(ops in prop::collection::vec(stack_op(), 1..400)) { run_stack(false, &ops)?; run_stack(true, &ops)?; }
    #[test]
    #[ignore = "long run"]
    fn long_pool(size in 1usize..600, ops in prop::collection::vec(slot_op(), 1..2000)) { run_pool(size, &ops)?; }
    #[test]
    #[ignore = "long run"]
    fn long_handles(ops in prop::collection::vec(handle_op(), 1..600)) {
        run_handles(&mut HandleArray::new(), &ops)?;
        run_handles(&mut DenseHandleArray::new(), &ops)?;
    }
}
