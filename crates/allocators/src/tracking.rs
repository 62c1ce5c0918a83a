//! Counting what a program allocates: [`TrackingAlloc`], a [`GlobalAlloc`] wrapper, plus
//! per-type tallies for types that opt in ([`tally_type!`](crate::tally_type), [`Tracked`]),
//! and an end-of-run [`LeakReport`].
//!
//! # Cost and accuracy
//!
//! With the `std` feature each thread counts into its own counters (plain loads and stores, no
//! atomic read-modify-write, no shared cache line); [`totals`] folds them on demand. Counts,
//! bytes and live bytes are exact once the threads are quiet. The peak is exact per thread;
//! the global [`AllocStats::peak_bytes`] is the sum of the per-thread peaks, an upper bound of
//! the true global peak (equal to it in a single-threaded program). Without `std`, one set of
//! shared atomics is used (slower under contention, and the peak is exact).
//!
//! All [`TrackingAlloc`] values share one set of counters (a program has one global allocator).

use core::alloc::{GlobalAlloc, Layout};
use core::fmt;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering::Relaxed};

/// Counters of one thread (or the shared fallback).
struct Counters {
    allocations: AtomicU64,
    frees: AtomicU64,
    bytes_allocated: AtomicU64,
    bytes_freed: AtomicU64,
    peak: AtomicU64,
    next: AtomicPtr<Counters>,
}

impl Counters {
    const fn new() -> Self {
        Self {
            allocations: AtomicU64::new(0),
            frees: AtomicU64::new(0),
            bytes_allocated: AtomicU64::new(0),
            bytes_freed: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            next: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// Records from the owning thread only: a load and a store, no locked instruction.
    #[inline]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    fn record_owned(&self, alloc: bool, bytes: u64) {
        if alloc {
            self.allocations.store(self.allocations.load(Relaxed) + 1, Relaxed);
            let total = self.bytes_allocated.load(Relaxed) + bytes;
            self.bytes_allocated.store(total, Relaxed);
            let live = total.saturating_sub(self.bytes_freed.load(Relaxed));
            if live > self.peak.load(Relaxed) {
                self.peak.store(live, Relaxed);
            }
        } else {
            self.frees.store(self.frees.load(Relaxed) + 1, Relaxed);
            self.bytes_freed.store(self.bytes_freed.load(Relaxed) + bytes, Relaxed);
        }
    }

    /// Records from any thread.
    #[inline]
    fn record_shared(&self, alloc: bool, bytes: u64) {
        if alloc {
            self.allocations.fetch_add(1, Relaxed);
            let total = self.bytes_allocated.fetch_add(bytes, Relaxed) + bytes;
            let live = total.saturating_sub(self.bytes_freed.load(Relaxed));
            self.peak.fetch_max(live, Relaxed);
        } else {
            self.frees.fetch_add(1, Relaxed);
            self.bytes_freed.fetch_add(bytes, Relaxed);
        }
    }
}

/// Used without `std`, and by threads whose own counters could not be allocated.
static SHARED: Counters = Counters::new();
/// Every thread's counters (never freed: a thread's counts outlive it).
static THREADS: AtomicPtr<Counters> = AtomicPtr::new(ptr::null_mut());

#[cfg(feature = "std")]
std::thread_local! {
    static LOCAL: core::cell::Cell<*const Counters> = const { core::cell::Cell::new(ptr::null()) };
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

impl<A: GlobalAlloc> TrackingAlloc<A> {
    #[inline]
    fn record(&self, alloc: bool, bytes: usize) {
        #[cfg(feature = "std")]
        {
            let local = LOCAL.try_with(|cell| {
                let mut c = cell.get();
                if c.is_null() {
                    c = self.register();
                    cell.set(c);
                }
                c
            });
            if let Ok(c) = local
                && !c.is_null()
            {
                // SAFETY: registered counters are never freed, and only this thread writes them.
                unsafe { (*c).record_owned(alloc, bytes as u64) };
                return;
            }
        }
        SHARED.record_shared(alloc, bytes as u64);
    }

    /// Allocates this thread's counters from the inner allocator (not from ourselves, which
    /// would recurse) and links them into the global list; null on failure.
    #[cfg(feature = "std")]
    #[cold]
    fn register(&self) -> *const Counters {
        // SAFETY: `Counters` has a non-zero size.
        let p = unsafe { self.inner.alloc(Layout::new::<Counters>()) }.cast::<Counters>();
        if p.is_null() {
            return p;
        }
        // SAFETY: fresh, aligned memory for one `Counters`.
        unsafe { p.write(Counters::new()) };
        let mut head = THREADS.load(Relaxed);
        loop {
            // SAFETY: `p` is ours until published below.
            unsafe { (*p).next.store(head, Relaxed) };
            match THREADS.compare_exchange_weak(head, p, core::sync::atomic::Ordering::Release, Relaxed) {
                Ok(_) => return p,
                Err(h) => head = h,
            }
        }
    }
}

// SAFETY: every call is forwarded to `inner` unchanged; counting has no effect on the blocks.
unsafe impl<A: GlobalAlloc> GlobalAlloc for TrackingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            self.record(true, layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            self.record(true, layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.inner.dealloc(ptr, layout) };
        self.record(false, layout.size());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as a free of the old block and an allocation of the new one.
            self.record(false, layout.size());
            self.record(true, new_size);
        }
        p
    }
}

/// Totals over all threads, as of the call.
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
    /// Sum of the per-thread peaks of live bytes: exact for one thread, an upper bound of the
    /// true peak otherwise.
    pub peak_bytes: u64,
    /// Threads that have allocated.
    pub threads: u64,
}

impl AllocStats {
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

/// Folds every thread's counters into totals.
#[must_use]
pub fn totals() -> AllocStats {
    let mut s = AllocStats::default();
    let mut add = |c: &Counters| {
        s.allocations += c.allocations.load(Relaxed);
        s.frees += c.frees.load(Relaxed);
        s.bytes_allocated += c.bytes_allocated.load(Relaxed);
        s.bytes_freed += c.bytes_freed.load(Relaxed);
        s.peak_bytes += c.peak.load(Relaxed);
    };
    add(&SHARED);
    let mut cur = THREADS.load(core::sync::atomic::Ordering::Acquire);
    while !cur.is_null() {
        // SAFETY: registered counters are never freed.
        let c = unsafe { &*cur };
        add(c);
        s.threads += 1;
        cur = c.next.load(Relaxed);
    }
    s
}

/// Counters for one opted-in type, made by [`tally_type!`](crate::tally_type).
#[derive(Debug)]
pub struct TypeTally {
    name: &'static str,
    created: AtomicU64,
    dropped: AtomicU64,
    peak: AtomicU64,
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
            created: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            peak: AtomicU64::new(0),
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
        self.created.load(Relaxed)
    }

    /// Values alive now.
    #[must_use]
    pub fn live(&self) -> u64 {
        self.created().saturating_sub(self.dropped.load(Relaxed))
    }

    /// Most values alive at once.
    #[must_use]
    pub fn peak(&self) -> u64 {
        self.peak.load(Relaxed)
    }

    /// Counts one value created.
    #[inline]
    pub fn add(&'static self) {
        if !self.registered.load(Relaxed) {
            self.register();
        }
        let created = self.created.fetch_add(1, Relaxed) + 1;
        self.peak.fetch_max(created.saturating_sub(self.dropped.load(Relaxed)), Relaxed);
    }

    /// Counts one value dropped.
    #[inline]
    pub fn remove(&'static self) {
        self.dropped.fetch_add(1, Relaxed);
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
