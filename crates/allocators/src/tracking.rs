//! Counting what a program allocates: [`TrackingAlloc`], a [`GlobalAlloc`] wrapper, plus
//! per-type tallies for types that opt in ([`tally_type!`](crate::tally_type), [`Tracked`]),
//! and an end-of-run [`LeakReport`].
//!
//! # Cost and accuracy
//!
//! With the `std` feature each thread counts into its own counters, which live directly in
//! its thread-local storage (`const`-initialised, no destructor of their own, so reaching them
//! is one `fs`-relative address with no lazy-initialisation check). An allocation updates three
//! of them and a free two, with plain loads and stores (no atomic read-modify-write, no shared
//! cache line); [`totals`] folds them on demand. The peak is kept as *headroom* (`peak - live`),
//! so a new peak is detected by the borrow of a subtraction instead of a compare.
//!
//! A thread links its counters into a global list once, on its first allocation or free (the
//! slow path of that same borrow, or of a carry in the free counter); a thread-local guard
//! folds them into the totals of exited threads and unlinks them when the thread exits.
//! Anything a thread allocates or frees after that (other destructors at thread exit) is folded
//! right away. A thread that never exits stays linked, and [`totals`] reads its counters in
//! place; threads still running at process exit never run that destructor and need not, for the
//! same reason (see the guide's "When the per-thread counters are folded").
//!
//! Counts, bytes and live bytes are exact once the threads are quiet. The peak is exact per
//! thread ([`this_thread`]); the global [`AllocStats::peak_bytes`] is approximate: the sum of
//! every thread's peak (exited threads included), an upper bound of the true global peak,
//! equal to it in a single-threaded program. Without `std`, one set of shared atomics is used
//! (slower under contention, and the peak is exact).
//!
//! All [`TrackingAlloc`] values share one set of counters (a program has one global allocator).

use core::alloc::{GlobalAlloc, Layout};
use core::fmt;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering::Relaxed};

/// A shared counter: 64-bit where the target has 64-bit atomics, pointer-sized (wrapping past
/// `usize::MAX`) on the 32-bit targets that have none, such as Cortex-M.
#[cfg(target_has_atomic = "64")]
#[derive(Debug)]
struct Counter(core::sync::atomic::AtomicU64);
#[cfg(not(target_has_atomic = "64"))]
#[derive(Debug)]
struct Counter(core::sync::atomic::AtomicUsize);

impl Counter {
    #[cfg(target_has_atomic = "64")]
    const fn new() -> Self {
        Self(core::sync::atomic::AtomicU64::new(0))
    }

    #[cfg(not(target_has_atomic = "64"))]
    const fn new() -> Self {
        Self(core::sync::atomic::AtomicUsize::new(0))
    }

    /// Adds `n` and returns the new value.
    #[inline]
    #[allow(clippy::cast_possible_truncation, clippy::useless_conversion)]
    fn add(&self, n: u64) -> u64 {
        let n = n as _;
        u64::try_from(self.0.fetch_add(n, Relaxed).wrapping_add(n)).unwrap_or(u64::MAX)
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn max(&self, n: u64) {
        self.0.fetch_max(n as _, Relaxed);
    }

    #[inline]
    #[allow(clippy::useless_conversion)]
    fn load(&self) -> u64 {
        u64::try_from(self.0.load(Relaxed)).unwrap_or(u64::MAX)
    }
}

/// Shared counters: the `no_std` fallback (updated with atomic read-modify-writes).
struct Shared {
    allocations: Counter,
    frees: Counter,
    bytes_allocated: Counter,
    bytes_freed: Counter,
    peak: Counter,
}

impl Shared {
    const fn new() -> Self {
        Self {
            allocations: Counter::new(),
            frees: Counter::new(),
            bytes_allocated: Counter::new(),
            bytes_freed: Counter::new(),
            peak: Counter::new(),
        }
    }

    #[inline]
    #[cfg_attr(feature = "std", allow(dead_code))]
    fn record(&self, alloc: bool, bytes: u64) {
        if alloc {
            self.allocations.add(1);
            let total = self.bytes_allocated.add(bytes);
            let live = total.saturating_sub(self.bytes_freed.load());
            self.peak.max(live);
        } else {
            self.frees.add(1);
            self.bytes_freed.add(bytes);
        }
    }

    fn stats(&self) -> AllocStats {
        AllocStats {
            allocations: self.allocations.load(),
            frees: self.frees.load(),
            bytes_allocated: self.bytes_allocated.load(),
            bytes_freed: self.bytes_freed.load(),
            peak_bytes: self.peak.load(),
            threads: 0,
        }
    }
}

static SHARED: Shared = Shared::new();

#[cfg(feature = "std")]
mod per_thread {
    //! The per-thread counters and the list that [`totals`](super::totals) folds.

    use core::ptr;
    use core::sync::atomic::{AtomicPtr, AtomicU8, AtomicU64, Ordering::Relaxed};

    use super::AllocStats;
    use crate::sync::SpinLock;

    const FRESH: u8 = 0;
    const LINKED: u8 = 1;
    const EXITED: u8 = 2;

    /// One thread's counters. Only the owning thread writes the counters; [`totals`](super::totals)
    /// reads them from other threads, hence atomics (relaxed loads and stores compile to plain
    /// moves). The list links are written only under [`REGISTRY`]'s lock.
    pub(super) struct Local {
        allocations: AtomicU64,
        /// Frees minus one, wrapping: it starts at `u64::MAX`, so the carry of a thread's first
        /// free sends it to the slow path that links the counters.
        frees_minus_one: AtomicU64,
        bytes_allocated: AtomicU64,
        /// `peak - live` (wrapping). An allocation larger than this is a new peak: the
        /// subtraction borrows.
        headroom: AtomicU64,
        peak: AtomicU64,
        state: AtomicU8,
        next: AtomicPtr<Local>,
        prev: AtomicPtr<Local>,
    }

    impl Local {
        const fn new() -> Self {
            Self {
                allocations: AtomicU64::new(0),
                frees_minus_one: AtomicU64::new(u64::MAX),
                bytes_allocated: AtomicU64::new(0),
                headroom: AtomicU64::new(0),
                peak: AtomicU64::new(0),
                state: AtomicU8::new(FRESH),
                next: AtomicPtr::new(ptr::null_mut()),
                prev: AtomicPtr::new(ptr::null_mut()),
            }
        }

        #[inline]
        fn on_alloc(&self, bytes: u64) {
            self.allocations.store(self.allocations.load(Relaxed).wrapping_add(1), Relaxed);
            self.bytes_allocated.store(self.bytes_allocated.load(Relaxed).wrapping_add(bytes), Relaxed);
            let (room, new_peak) = self.headroom.load(Relaxed).overflowing_sub(bytes);
            if new_peak {
                // `room` is minus the amount by which live bytes now exceed the old peak.
                self.peak.store(self.peak.load(Relaxed).wrapping_sub(room), Relaxed);
                self.headroom.store(0, Relaxed);
                if self.state.load(Relaxed) != LINKED {
                    self.slow();
                }
            } else {
                self.headroom.store(room, Relaxed);
            }
        }

        #[inline]
        fn on_free(&self, bytes: u64) {
            let (frees, first) = self.frees_minus_one.load(Relaxed).overflowing_add(1);
            self.frees_minus_one.store(frees, Relaxed);
            self.headroom.store(self.headroom.load(Relaxed).wrapping_add(bytes), Relaxed);
            if first {
                self.slow();
            }
        }

        /// A fresh thread links its counters; an exited one folds what it just counted.
        #[cold]
        #[inline(never)]
        fn slow(&self) {
            match self.state.load(Relaxed) {
                FRESH => {
                    // Marked first: whatever the lines below allocate takes the fast path.
                    self.state.store(LINKED, Relaxed);
                    REGISTRY.lock().link(self);
                    // Arms the destructor that unlinks us at thread exit. If this thread's
                    // destructors have run already, fold at once instead.
                    if GUARD.try_with(|_| ()).is_err() {
                        exit();
                    }
                }
                EXITED => {
                    REGISTRY.lock().retire(self, false);
                    self.reset(EXITED);
                }
                _ => {}
            }
        }

        fn reset(&self, state: u8) {
            self.allocations.store(0, Relaxed);
            self.frees_minus_one.store(u64::MAX, Relaxed);
            self.bytes_allocated.store(0, Relaxed);
            self.headroom.store(0, Relaxed);
            self.peak.store(0, Relaxed);
            self.state.store(state, Relaxed);
        }

        pub(super) fn stats(&self) -> AllocStats {
            let bytes_allocated = self.bytes_allocated.load(Relaxed);
            let peak = self.peak.load(Relaxed);
            let live = peak.wrapping_sub(self.headroom.load(Relaxed));
            AllocStats {
                allocations: self.allocations.load(Relaxed),
                frees: self.frees_minus_one.load(Relaxed).wrapping_add(1),
                bytes_allocated,
                bytes_freed: bytes_allocated.wrapping_sub(live),
                peak_bytes: peak,
                threads: 1,
            }
        }
    }

    std::thread_local! {
        static LOCAL: Local = const { Local::new() };
        static GUARD: Guard = const { Guard };
    }

    /// Its destructor takes the thread's counters out of the list, keeping their counts.
    struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            exit();
        }
    }

    /// What the guard does at thread exit: fold this thread's counters into the totals of
    /// exited threads and unlink them (their storage is about to go away).
    pub(super) fn exit() {
        LOCAL.with(|c| {
            let mut r = REGISTRY.lock();
            let linked = c.state.load(Relaxed) == LINKED;
            if linked {
                r.unlink(c);
            }
            r.retire(c, linked);
            c.reset(EXITED);
        });
    }

    /// The linked threads' counters and the sums of the exited ones.
    pub(super) struct Registry {
        head: *const Local,
        retired: AllocStats,
    }

    // SAFETY: the raw pointers are only followed under the lock, and a `Local` is unlinked
    // (under the lock) before its thread's storage goes away.
    unsafe impl Send for Registry {}

    pub(super) static REGISTRY: SpinLock<Registry> =
        SpinLock::new(Registry { head: ptr::null(), retired: AllocStats::ZERO });

    impl Registry {
        fn link(&mut self, c: &Local) {
            let me = ptr::from_ref(c).cast_mut();
            c.prev.store(ptr::null_mut(), Relaxed);
            c.next.store(self.head.cast_mut(), Relaxed);
            if !self.head.is_null() {
                // SAFETY: linked counters are alive (unlinked before their thread ends).
                unsafe { (*self.head).prev.store(me, Relaxed) };
            }
            self.head = me;
        }

        fn unlink(&mut self, c: &Local) {
            let (next, prev) = (c.next.load(Relaxed), c.prev.load(Relaxed));
            if prev.is_null() {
                self.head = next;
            } else {
                // SAFETY: as in `link`.
                unsafe { (*prev).next.store(next, Relaxed) };
            }
            if !next.is_null() {
                // SAFETY: as in `link`.
                unsafe { (*next).prev.store(prev, Relaxed) };
            }
        }

        fn retire(&mut self, c: &Local, thread: bool) {
            let mut s = c.stats();
            s.threads = u64::from(thread);
            self.retired.add(&s);
        }

        /// The exited threads' sums plus every linked thread's counters.
        pub(super) fn totals(&self) -> AllocStats {
            let mut s = self.retired;
            let mut cur = self.head;
            while !cur.is_null() {
                // SAFETY: as in `link`.
                let c = unsafe { &*cur };
                s.add(&c.stats());
                cur = c.next.load(Relaxed);
            }
            s
        }
    }

    #[inline]
    pub(super) fn record(alloc: bool, bytes: u64) {
        LOCAL.with(|c| if alloc { c.on_alloc(bytes) } else { c.on_free(bytes) });
    }

    pub(super) fn this_thread() -> AllocStats {
        LOCAL.with(|c| {
            let mut s = c.stats();
            s.threads = u64::from(c.state.load(Relaxed) == LINKED);
            s
        })
    }
}

/// A [`GlobalAlloc`] that counts allocations, frees, bytes and the peak of live bytes, then
/// forwards to `A` (for example [`std::alloc::System`]).
///
/// ```
/// use lore_allocators::tracking::{self, TrackingAlloc};
/// use std::alloc::System;
///
/// #[global_allocator]
/// static GLOBAL: TrackingAlloc<System> = TrackingAlloc::new(System);
///
/// let before = tracking::totals();
/// let v = vec![0u8; 1000];
/// let after = tracking::totals();
/// assert!(after.allocations > before.allocations);
/// assert!(tracking::this_thread().peak_bytes >= 1000);
/// drop(v);
/// ```
#[derive(Debug, Default)]
pub struct TrackingAlloc<A> {
    inner: A,
}

impl<A> TrackingAlloc<A> {
    /// Wraps `inner`.
    pub const fn new(inner: A) -> Self {
        Self { inner }
    }
}

#[inline]
fn record(alloc: bool, bytes: usize) {
    #[cfg(feature = "std")]
    per_thread::record(alloc, bytes as u64);
    #[cfg(not(feature = "std"))]
    SHARED.record(alloc, bytes as u64);
}

// SAFETY: every call is forwarded to `inner` unchanged; counting has no effect on the blocks.
unsafe impl<A: GlobalAlloc> GlobalAlloc for TrackingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            record(true, layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            record(true, layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.inner.dealloc(ptr, layout) };
        record(false, layout.size());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as a free of the old block and an allocation of the new one.
            record(false, layout.size());
            record(true, new_size);
        }
        p
    }
}

/// Allocation counters: totals over all threads ([`totals`]) or one thread's ([`this_thread`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Allocations (a `realloc` counts as one allocation and one free).
    pub allocations: u64,
    /// Frees.
    pub frees: u64,
    /// Bytes ever allocated.
    pub bytes_allocated: u64,
    /// Bytes ever freed.
    pub bytes_freed: u64,
    /// Peak of live bytes. For one thread ([`this_thread`]): exact, counting what the thread
    /// allocated minus what it freed. In [`totals`]: the sum of every thread's peak (exited
    /// threads included), an upper bound of the true peak, exact for one thread.
    pub peak_bytes: u64,
    /// Threads that have allocated or freed (in [`this_thread`]: 1 once this one has).
    pub threads: u64,
}

impl AllocStats {
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    const ZERO: Self = Self { allocations: 0, frees: 0, bytes_allocated: 0, bytes_freed: 0, peak_bytes: 0, threads: 0 };

    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    fn add(&mut self, o: &Self) {
        self.allocations = self.allocations.wrapping_add(o.allocations);
        self.frees = self.frees.wrapping_add(o.frees);
        self.bytes_allocated = self.bytes_allocated.wrapping_add(o.bytes_allocated);
        self.bytes_freed = self.bytes_freed.wrapping_add(o.bytes_freed);
        self.peak_bytes = self.peak_bytes.wrapping_add(o.peak_bytes);
        self.threads += o.threads;
    }

    /// Allocations not freed yet.
    #[must_use]
    pub fn live_allocations(&self) -> u64 {
        self.allocations.saturating_sub(self.frees)
    }

    /// Bytes not freed yet.
    #[must_use]
    pub fn live_bytes(&self) -> u64 {
        self.bytes_allocated.saturating_sub(self.bytes_freed)
    }
}

/// Folds every thread's counters into totals (takes a short lock; the allocation paths never
/// take it after a thread's first call).
#[must_use]
pub fn totals() -> AllocStats {
    #[cfg(feature = "std")]
    {
        let mut s = per_thread::REGISTRY.lock().totals();
        s.add(&SHARED.stats());
        s
    }
    #[cfg(not(feature = "std"))]
    SHARED.stats()
}

/// This thread's own counters, with its exact peak of live bytes (what it allocated minus what
/// it freed; negative live bytes, from freeing other threads' blocks, wrap). Without `std`,
/// the shared totals.
#[must_use]
pub fn this_thread() -> AllocStats {
    #[cfg(feature = "std")]
    {
        per_thread::this_thread()
    }
    #[cfg(not(feature = "std"))]
    SHARED.stats()
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    /// The only unit test that records: this test binary's global allocator is not a
    /// `TrackingAlloc`, so every count below is explicit and the totals are exact.
    #[test]
    fn counts_survive_thread_exit_and_later_calls_are_folded() {
        std::thread::spawn(|| {
            let before = totals();
            per_thread::record(true, 100);
            per_thread::record(true, 28);
            per_thread::record(false, 100);
            per_thread::record(true, 60);
            let me = this_thread();
            assert_eq!((me.allocations, me.frees, me.bytes_allocated, me.bytes_freed), (3, 1, 188, 100));
            assert_eq!((me.peak_bytes, me.live_bytes(), me.threads), (128, 88, 1));
            assert_eq!(totals().threads, before.threads + 1, "linked on the first call");

            per_thread::exit(); // what the guard's destructor does when the thread ends
            assert_eq!(this_thread(), AllocStats::ZERO, "folded into the exited threads' totals");
            // Other destructors may still free (or allocate) afterwards: folded at once.
            per_thread::record(false, 28);
            per_thread::record(false, 60);
            per_thread::record(true, 8);
            assert_eq!(this_thread(), AllocStats::ZERO);

            let after = totals();
            let d = |f: fn(&AllocStats) -> u64| f(&after) - f(&before);
            assert_eq!((d(|s| s.allocations), d(|s| s.frees)), (4, 3));
            assert_eq!((d(|s| s.bytes_allocated), d(|s| s.bytes_freed)), (196, 188));
            assert_eq!((d(|s| s.peak_bytes), d(|s| s.threads)), (128 + 8, 1));
        })
        .join()
        .unwrap();
    }
}

/// Counters for one opted-in type, made by [`tally_type!`](crate::tally_type).
#[derive(Debug)]
pub struct TypeTally {
    name: &'static str,
    created: Counter,
    dropped: Counter,
    peak: Counter,
    registered: AtomicBool,
    next: AtomicPtr<TypeTally>,
}

static TALLIES: AtomicPtr<TypeTally> = AtomicPtr::new(ptr::null_mut());

impl TypeTally {
    /// A tally named `name` (use [`tally_type!`](crate::tally_type) rather than this).
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            created: Counter::new(),
            dropped: Counter::new(),
            peak: Counter::new(),
            registered: AtomicBool::new(false),
            next: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// The type's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Values ever created.
    #[must_use]
    pub fn created(&self) -> u64 {
        self.created.load()
    }

    /// Values alive now.
    #[must_use]
    pub fn live(&self) -> u64 {
        self.created().saturating_sub(self.dropped.load())
    }

    /// Most values alive at once.
    #[must_use]
    pub fn peak(&self) -> u64 {
        self.peak.load()
    }

    /// Counts one value created.
    #[inline]
    pub fn add(&'static self) {
        if !self.registered.load(Relaxed) {
            self.register();
        }
        let created = self.created.add(1);
        self.peak.max(created.saturating_sub(self.dropped.load()));
    }

    /// Counts one value dropped.
    #[inline]
    pub fn remove(&'static self) {
        self.dropped.add(1);
    }

    #[cold]
    fn register(&'static self) {
        if self.registered.swap(true, Relaxed) {
            return;
        }
        let me = ptr::from_ref(self).cast_mut();
        let mut head = TALLIES.load(Relaxed);
        loop {
            self.next.store(head, Relaxed);
            match TALLIES.compare_exchange_weak(head, me, core::sync::atomic::Ordering::Release, Relaxed) {
                Ok(_) => return,
                Err(h) => head = h,
            }
        }
    }
}

/// Every tally that has counted something, newest type first.
pub fn tallies() -> impl Iterator<Item = &'static TypeTally> {
    let mut cur = TALLIES.load(core::sync::atomic::Ordering::Acquire);
    core::iter::from_fn(move || {
        if cur.is_null() {
            return None;
        }
        // SAFETY: tallies are statics, linked once and never unlinked.
        let t: &'static TypeTally = unsafe { &*cur };
        cur = t.next.load(Relaxed);
        Some(t)
    })
}

/// A type whose values are counted by name. Implement with [`tally_type!`](crate::tally_type).
pub trait Tallied {
    /// The type's counters.
    fn tally() -> &'static TypeTally;
}

/// Opts types into per-type tallies: `tally_type!(Enemy, Bullet);`.
///
/// ```
/// use lore_allocators::{tally_type, tracking::{Tracked, Tallied}};
///
/// struct Enemy { hp: u32 }
/// tally_type!(Enemy);
///
/// let a = Tracked::new(Enemy { hp: 3 });
/// let b = Tracked::new(Enemy { hp: 5 });
/// assert_eq!(Enemy::tally().live(), 2);
/// assert_eq!(a.hp + b.hp, 8);
/// drop((a, b));
/// assert_eq!((Enemy::tally().live(), Enemy::tally().peak()), (0, 2));
/// ```
#[macro_export]
macro_rules! tally_type {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::tracking::Tallied for $t {
            fn tally() -> &'static $crate::tracking::TypeTally {
                static TALLY: $crate::tracking::TypeTally = $crate::tracking::TypeTally::new(stringify!($t));
                &TALLY
            }
        }
    )+};
}

/// A value counted in its type's tally from creation (and clone) to drop.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tracked<T: Tallied>(T);

impl<T: Tallied> Tracked<T> {
    /// Wraps and counts `value`.
    pub fn new(value: T) -> Self {
        T::tally().add();
        Self(value)
    }
}

impl<T: Tallied + Clone> Clone for Tracked<T> {
    fn clone(&self) -> Self {
        Self::new(self.0.clone())
    }
}

impl<T: Tallied> core::ops::Deref for Tracked<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Tallied> core::ops::DerefMut for Tracked<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: Tallied> Drop for Tracked<T> {
    fn drop(&mut self) {
        T::tally().remove();
    }
}

/// The end-of-run table: allocation totals and, per opted-in type, live / peak / created.
///
/// ```text
///  live allocations:        0
///        live bytes:        0
///       allocations:     1234
///        peak bytes:    56789
///              Enemy:        0        2        2
/// ```
#[derive(Clone, Debug)]
pub struct LeakReport {
    /// Allocation totals.
    pub totals: AllocStats,
    /// `(type name, live, peak, created)`, sorted by name.
    pub types: alloc::vec::Vec<(&'static str, u64, u64, u64)>,
}

impl LeakReport {
    /// Takes the report now.
    #[must_use]
    pub fn take() -> Self {
        let mut types: alloc::vec::Vec<_> = tallies().map(|t| (t.name(), t.live(), t.peak(), t.created())).collect();
        types.sort_unstable_by_key(|t| t.0);
        Self { totals: totals(), types }
    }

    /// Whether any opted-in value is still alive. (Live allocations are not counted as leaks:
    /// statics and runtime buffers legitimately live to the end.)
    #[must_use]
    pub fn has_leaked_values(&self) -> bool {
        self.types.iter().any(|t| t.1 > 0)
    }
}

impl fmt::Display for LeakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.types.iter().map(|t| t.0.len()).max().unwrap_or(0).max(18);
        let t = &self.totals;
        for (label, value) in [
            ("live allocations", t.live_allocations()),
            ("live bytes", t.live_bytes()),
            ("allocations", t.allocations),
            ("peak bytes", t.peak_bytes),
        ] {
            writeln!(f, "{label:>width$}: {value:>8}")?;
        }
        writeln!(f, "{:>width$}  {:>8} {:>8} {:>8}", "type", "live", "peak", "created")?;
        for (name, live, peak, created) in &self.types {
            writeln!(f, "{name:>width$}: {live:>8} {peak:>8} {created:>8}")?;
        }
        Ok(())
    }
}
