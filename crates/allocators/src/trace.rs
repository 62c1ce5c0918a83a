//! Allocation traces and their replay through a [`Heap`], to compare policies on the same
//! workload (the `alloc` demo draws this; the benches use the same generator).
//!
//! ```
//! use lore_allocators::trace::{Replay, Trace};
//! use lore_allocators::Policy;
//!
//! let trace = Trace::game_like(7, 2000);
//! let mut replay = Replay::new(64 * 1024, Policy::BestFit)?;
//! for event in trace.events() {
//!     replay.apply(*event);
//! }
//! assert!(replay.heap().check().is_ok());
//! # Ok::<(), lore_allocators::Error>(())
//! ```

use alloc::vec::Vec;
use core::alloc::Layout;
use core::ptr::NonNull;

use crate::error::{Error, Result};

const REGION_ALIGN: usize = 4096;
use crate::heap::{Heap, HeapStats, Policy};

/// One step of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Allocate `size` bytes aligned to `align` for object `id`.
    Alloc {
        /// Object number (index into the trace's objects).
        id: u32,
        /// Bytes.
        size: u32,
        /// Alignment (a power of two).
        align: u32,
    },
    /// Free object `id` (ignored if its allocation failed).
    Free {
        /// Object number.
        id: u32,
    },
}

/// A seeded sequence of allocations and frees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    events: Vec<Event>,
    objects: u32,
}

/// SplitMix64: small, portable, seedable (the crate has no RNG dependency).
#[derive(Clone, Debug)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

impl Trace {
    /// A game-like mix: 65% small short-lived objects (16–128 bytes, freed within ~40
    /// events: particles, messages), 28% medium (128–1024 bytes, ~400 events: entities), 7% large
    /// long-lived (1–4 KiB, ~1300 events: level data). `allocations` objects are allocated; every
    /// object is freed by the end. The same seed gives the same trace everywhere.
    #[must_use]
    pub fn game_like(seed: u64, allocations: u32) -> Self {
        let mut rng = SplitMix(seed);
        // (time of death, id), a small binary heap ordered by time.
        let mut deaths: Vec<(u64, u32)> = Vec::new();
        let mut events = Vec::with_capacity(allocations as usize * 2);
        let mut now = 0u64;
        for id in 0..allocations {
            now += 1;
            while let Some(&(t, dead)) = deaths.first() {
                if t > now {
                    break;
                }
                pop_min(&mut deaths);
                events.push(Event::Free { id: dead });
            }
            let roll = rng.below(100);
            let (size, life) = if roll < 65 {
                (16 + rng.below(113), 1 + rng.below(80))
            } else if roll < 93 {
                (128 + rng.below(897), 50 + rng.below(700))
            } else {
                (1024 + rng.below(3 * 1024 + 1), 300 + rng.below(2000))
            };
            let align = [4, 8, 8, 8, 16, 16, 32, 64][rng.below(8) as usize];
            events.push(Event::Alloc { id, size: size as u32, align });
            push(&mut deaths, (now + life, id));
        }
        while !deaths.is_empty() {
            let (_, dead) = pop_min(&mut deaths);
            events.push(Event::Free { id: dead });
        }
        Self { events, objects: allocations }
    }

    /// A uniform random-actions workload like talc's benchmark: each step allocates (sizes 1 to
    /// `max_size`, alignment 8) or frees a random live object, with equal odds.
    #[must_use]
    pub fn random_actions(seed: u64, steps: u32, max_size: u32) -> Self {
        let mut rng = SplitMix(seed);
        let mut live: Vec<u32> = Vec::new();
        let mut events = Vec::with_capacity(steps as usize);
        let mut next_id = 0;
        for _ in 0..steps {
            if live.is_empty() || rng.below(2) == 0 {
                events.push(Event::Alloc { id: next_id, size: 1 + rng.below(u64::from(max_size)) as u32, align: 8 });
                live.push(next_id);
                next_id += 1;
            } else {
                let i = rng.below(live.len() as u64) as usize;
                events.push(Event::Free { id: live.swap_remove(i) });
            }
        }
        for id in live {
            events.push(Event::Free { id });
        }
        Self { events, objects: next_id }
    }

    /// The events, in order.
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Number of objects (ids are `0..objects`).
    #[must_use]
    pub fn objects(&self) -> u32 {
        self.objects
    }
}

fn push(heap: &mut Vec<(u64, u32)>, item: (u64, u32)) {
    heap.push(item);
    let mut i = heap.len() - 1;
    while i > 0 {
        let parent = (i - 1) / 2;
        if heap[parent] <= heap[i] {
            break;
        }
        heap.swap(parent, i);
        i = parent;
    }
}

fn pop_min(heap: &mut Vec<(u64, u32)>) -> (u64, u32) {
    let top = heap.swap_remove(0);
    let mut i = 0;
    loop {
        let (l, r) = (2 * i + 1, 2 * i + 2);
        let mut m = i;
        if l < heap.len() && heap[l] < heap[m] {
            m = l;
        }
        if r < heap.len() && heap[r] < heap[m] {
            m = r;
        }
        if m == i {
            return top;
        }
        heap.swap(i, m);
        i = m;
    }
}

/// A heap that owns its region, with the trace's live objects, for replaying a [`Trace`].
pub struct Replay {
    // Field order matters: `heap` borrows `region`'s memory and is dropped first.
    heap: Heap<'static>,
    region: NonNull<u8>,
    layout: Layout,
    live: Vec<Option<NonNull<u8>>>,
    failures: u64,
    applied: u64,
}

impl core::fmt::Debug for Replay {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Replay").field("heap", &self.heap).field("failures", &self.failures).finish_non_exhaustive()
    }
}

impl Replay {
    /// A fresh heap of `bytes` bytes with `policy`.
    ///
    /// # Errors
    /// [`Error::BadRegion`] for a size the heap cannot manage.
    pub fn new(bytes: usize, policy: Policy) -> Result<Self> {
        // Page-aligned, so placements (which depend on the address for large alignments) are
        // the same on every run.
        let layout = Layout::from_size_align(bytes.max(1), REGION_ALIGN).map_err(|_| Error::BadRegion(bytes))?;
        // SAFETY: non-zero size.
        let ptr = NonNull::new(unsafe { alloc::alloc::alloc_zeroed(layout) })
            .ok_or(Error::OutOfMemory { size: bytes, align: REGION_ALIGN })?;
        // SAFETY: the region is owned by the replay, used only through this heap, and freed in
        // `Drop` after the heap is gone.
        let heap = unsafe { Heap::from_raw(ptr.as_ptr(), bytes, policy) };
        match heap {
            Ok(heap) => Ok(Self { heap, region: ptr, layout, live: Vec::new(), failures: 0, applied: 0 }),
            Err(e) => {
                // SAFETY: allocated above with this layout and not used since.
                unsafe { alloc::alloc::dealloc(ptr.as_ptr(), layout) };
                Err(e)
            }
        }
    }

    /// Applies one event: an allocation that does not fit counts as a failure (the object then
    /// stays unallocated and its free is skipped).
    pub fn apply(&mut self, event: Event) {
        self.applied += 1;
        match event {
            Event::Alloc { id, size, align } => {
                let id = id as usize;
                if self.live.len() <= id {
                    self.live.resize(id + 1, None);
                }
                let layout = Layout::from_size_align(size as usize, align as usize).ok();
                match layout.map(|l| self.heap.alloc(l)) {
                    Some(Ok(p)) => self.live[id] = Some(p),
                    _ => self.failures += 1,
                }
            }
            Event::Free { id } => {
                if let Some(p) = self.live.get_mut(id as usize).and_then(Option::take) {
                    let r = self.heap.free(p);
                    debug_assert!(r.is_ok(), "replay frees only what it allocated");
                }
            }
        }
    }

    /// The heap.
    #[must_use]
    pub fn heap(&self) -> &Heap<'static> {
        &self.heap
    }

    /// Current statistics.
    #[must_use]
    pub fn stats(&self) -> HeapStats {
        self.heap.stats()
    }

    /// Allocations that did not fit so far.
    #[must_use]
    pub fn failures(&self) -> u64 {
        self.failures
    }

    /// Events applied so far.
    #[must_use]
    pub fn applied(&self) -> u64 {
        self.applied
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; the heap that used it is never used
        // again (it has no destructor, and its fields are plain data).
        unsafe { alloc::alloc::dealloc(self.region.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_are_balanced_and_seeded() {
        for trace in [Trace::game_like(3, 3000), Trace::random_actions(3, 3000, 512)] {
            let mut live = alloc::collections::BTreeSet::new();
            for e in trace.events() {
                match *e {
                    Event::Alloc { id, .. } => assert!(live.insert(id)),
                    Event::Free { id } => assert!(live.remove(&id)),
                }
            }
            assert!(live.is_empty());
        }
        assert_eq!(Trace::game_like(9, 100), Trace::game_like(9, 100));
        assert_ne!(Trace::game_like(9, 100), Trace::game_like(10, 100));
    }

    #[test]
    fn replay_ends_empty_for_every_policy() {
        let trace = Trace::game_like(1, 3000);
        for policy in Policy::ALL {
            let mut r = Replay::new(96 * 1024, policy).unwrap();
            for e in trace.events() {
                r.apply(*e);
            }
            r.heap().check().unwrap();
            assert_eq!(r.stats().used_blocks, 0);
            assert_eq!(r.stats().free_blocks, 1);
        }
    }
}
