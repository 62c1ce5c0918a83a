//! Splitting a pass over threads: the thread count an index keeps, how many parts a pass of a
//! given size is cut into, and one run of a closure per part.
//!
//! With the `parallel` feature a pass cut into several parts runs them on the calling thread
//! and on helper threads of a pool kept for the whole process (started by the first split
//! pass that needs them, then asleep between passes): every thread takes the next part not
//! yet taken until none is left, so a pass may have more parts than threads and a late or
//! busy thread only takes fewer. Without the feature, or with one thread, the parts run in
//! turn on the calling thread. Each part writes only its own buffers, and the caller joins
//! them in part order, so the result is the same as one thread's, to the order of
//! `pairs_unsorted`, whichever thread ran which part.

#[cfg(feature = "parallel")]
use crate::error::Error;

/// How many threads an index's `pairs` may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threads(usize);

impl Default for Threads {
    /// All the cores the process may use (`std::thread::available_parallelism`, asked once per
    /// process) with the `parallel` feature; one without.
    fn default() -> Self {
        #[cfg(feature = "parallel")]
        {
            static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            Self(*CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from)))
        }
        #[cfg(not(feature = "parallel"))]
        Self(1)
    }
}

impl Threads {
    /// One thread.
    pub(crate) const fn one() -> Self {
        Self(1)
    }

    /// The thread count.
    #[cfg(feature = "parallel")]
    pub(crate) fn get(self) -> usize {
        self.0
    }

    /// Sets the thread count.
    ///
    /// # Errors
    /// [`Error::BadConfig`] for 0.
    #[cfg(feature = "parallel")]
    pub(crate) fn set(&mut self, threads: usize) -> Result<(), Error> {
        if threads == 0 {
            return Err(Error::BadConfig("thread count must be at least 1"));
        }
        self.0 = threads;
        Ok(())
    }

    /// How many parts a pass of `work` units is cut into: one per thread, but none smaller
    /// than `min` units (waking a helper thread and waiting for it costs microseconds, more
    /// than a small pass saves).
    pub(crate) fn parts(self, work: usize, min: usize) -> usize {
        (work / min.max(1)).clamp(1, self.0)
    }
}

#[cfg(all(test, feature = "parallel"))]
std::thread_local! {
    /// How many runs on this thread were split across threads (tests check the split happens).
    pub(crate) static SPLIT_RUNS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// Runs `f` on every part, on up to as many threads as parts (see [`run_on`]).
pub(crate) fn run<P: Send>(parts: &mut [P], f: impl Fn(&mut P) + Sync) {
    run_on(parts.len(), parts, f);
}

/// Runs `f` on every part, on up to `threads` threads: the calling thread and helpers from the
/// pool (with the `parallel` feature), each taking the next part not yet taken. Returns when
/// every part is done; a panic in a part is raised again here once all parts are done.
pub(crate) fn run_on<P: Send>(threads: usize, parts: &mut [P], f: impl Fn(&mut P) + Sync) {
    #[cfg(feature = "parallel")]
    if threads > 1 && parts.len() > 1 {
        #[cfg(test)]
        SPLIT_RUNS.with(|c| c.set(c.get() + 1));
        let base = PartsPtr(parts.as_mut_ptr());
        let n = parts.len();
        let task = move |i: usize| {
            debug_assert!(i < n);
            // SAFETY: `pool::run` calls this once for each `i` below `n` (each index is taken
            // once, from one counter), so the `&mut` borrows of the parts are disjoint, and
            // only while `run_on` holds `parts` borrowed (the pool returns when every call has
            // ended). `P: Send` lets the part move to the thread that calls this.
            f(unsafe { &mut *base.get().add(i) });
        };
        pool::run(threads.min(n), n, &task);
        return;
    }
    let _ = threads;
    parts.iter_mut().for_each(f);
}

/// The parts of a split pass, handed to other threads by index.
#[cfg(feature = "parallel")]
struct PartsPtr<P>(*mut P);

// (By hand: a derive would ask `P: Copy`.)
#[cfg(feature = "parallel")]
impl<P> Clone for PartsPtr<P> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(feature = "parallel")]
impl<P> Copy for PartsPtr<P> {}

#[cfg(feature = "parallel")]
impl<P> PartsPtr<P> {
    /// The pointer (a method, so closures capture the whole wrapper, not the raw field).
    fn get(self) -> *mut P {
        self.0
    }
}

// SAFETY: the pointer is only used to reach parts of a `&mut [P]` that `run_on` holds, each by
// one thread at a time (see `run_on`); sending a `P` to another thread needs `P: Send`.
#[cfg(feature = "parallel")]
unsafe impl<P: Send> Send for PartsPtr<P> {}
// SAFETY: as for `Send`: shared, the wrapper only hands out pointers to disjoint parts.
#[cfg(feature = "parallel")]
unsafe impl<P: Send> Sync for PartsPtr<P> {}

/// The process's helper threads and the one pass they may be working on.
#[cfg(feature = "parallel")]
mod pool {
    use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::any::Any;
    use std::boxed::Box;
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

    /// How many times a helper that has just finished a pass checks for the next one before it
    /// sleeps (a pass usually follows another within microseconds: the parts of one `pairs`).
    const HELPER_SPIN: u32 = 1 << 14;
    /// How many times the calling thread checks that its helpers are done before it sleeps
    /// (they usually finish with it: every thread takes parts until none is left).
    const CALLER_SPIN: u32 = 1 << 8;

    /// One split pass: a closure over part indices, with its lifetime erased (see `run`).
    struct Job {
        task: *const (dyn Fn(usize) + Sync + 'static),
        parts: usize,
        /// The next part index to take.
        next: AtomicUsize,
        /// Helpers inside `work` (the job outlives every one of them).
        active: AtomicUsize,
        /// The first panic a helper caught, raised again by the calling thread.
        panic: Mutex<Option<Box<dyn Any + Send>>>,
    }

    // SAFETY: the task is `Sync` and everything else is atomics or a mutex; the pointer is only
    // followed while the closure is alive (see `Job::work`).
    unsafe impl Sync for Job {}

    impl Job {
        /// Takes parts until none is left.
        fn work(&self) {
            loop {
                let i = self.next.fetch_add(1, Ordering::Relaxed);
                if i >= self.parts {
                    return;
                }
                // SAFETY: `task` points to the closure `run` keeps alive until every thread
                // has left this job (the calling thread waits for `active` to drop to 0).
                unsafe { (*self.task)(i) };
            }
        }
    }

    /// What the calling thread and the helpers share, under the pool's lock.
    struct Shared {
        /// The pass being worked on (null when none).
        job: *const Job,
        /// Bumped for every pass, so a helper joins each pass once.
        epoch: u64,
        /// How many more helpers may join the pass.
        wanted: usize,
        /// Helper threads started.
        helpers: usize,
    }

    // SAFETY: `job` is only read under the lock, and only while the pass it points to is
    // running (the calling thread clears it before the job goes out of scope).
    unsafe impl Send for Shared {}

    struct Pool {
        shared: Mutex<Shared>,
        /// Helpers wait here for a pass.
        wake: Condvar,
        /// The calling thread waits here for its helpers to leave the pass.
        done: Condvar,
        /// `Shared::epoch`, readable without the lock (helpers check it while spinning).
        epoch: AtomicU64,
    }

    static POOL: Pool = Pool {
        shared: Mutex::new(Shared { job: core::ptr::null(), epoch: 0, wanted: 0, helpers: 0 }),
        wake: Condvar::new(),
        done: Condvar::new(),
        epoch: AtomicU64::new(0),
    };

    impl Pool {
        fn lock(&self) -> MutexGuard<'_, Shared> {
            // The lock is never held while a part runs, so a panic cannot poison it; if one
            // ever did, the state is still consistent (every update is a single store).
            self.shared.lock().unwrap_or_else(PoisonError::into_inner)
        }
    }

    /// A helper thread: joins each pass that wants it, then spins briefly and sleeps.
    fn helper() {
        let pool = &POOL;
        let mut seen = 0;
        let mut shared = pool.lock();
        loop {
            if !shared.job.is_null() && shared.wanted > 0 && shared.epoch != seen {
                seen = shared.epoch;
                shared.wanted -= 1;
                // SAFETY: the job is alive while it is published (see `Shared::job`), and it
                // stays alive until `active` is back to 0 after this helper's `work`.
                let job = unsafe { &*shared.job };
                job.active.fetch_add(1, Ordering::Relaxed);
                drop(shared);
                if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job.work())) {
                    // Stop the others taking new parts; keep the first panic.
                    job.next.store(job.parts, Ordering::Relaxed);
                    job.panic.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(payload);
                }
                // Release: the parts' writes happen before the calling thread sees 0.
                if job.active.fetch_sub(1, Ordering::Release) == 1 {
                    // (The job may be gone from here on: only the pool is touched.)
                    drop(pool.lock());
                    pool.done.notify_all();
                }
                for _ in 0..HELPER_SPIN {
                    if pool.epoch.load(Ordering::Relaxed) != seen {
                        break;
                    }
                    core::hint::spin_loop();
                }
                shared = pool.lock();
                continue;
            }
            shared = pool.wake.wait(shared).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Runs `task(i)` for every `i` below `parts` on the calling thread and up to `threads - 1`
    /// helpers; returns when every call has returned. When another pass is using the pool
    /// (another thread's index, or a pass started from inside a part), this one runs on
    /// scoped threads of its own instead.
    pub(super) fn run(threads: usize, parts: usize, task: &(dyn Fn(usize) + Sync)) {
        // SAFETY: only the lifetime changes. Every use of the pointer ends before this function
        // returns: helpers reach the job only while it is published, and the calling thread
        // unpublishes it and waits for `active` to drop to 0 before returning or unwinding
        // (`Finish`).
        let task: &'static (dyn Fn(usize) + Sync) = unsafe { core::mem::transmute(task) };
        let job = Job { task, parts, next: AtomicUsize::new(0), active: AtomicUsize::new(0), panic: Mutex::new(None) };
        let helpers = threads - 1;
        {
            let mut shared = POOL.lock();
            if !shared.job.is_null() {
                drop(shared);
                return run_scoped(helpers, &job);
            }
            while shared.helpers < helpers {
                let name = std::format!("lore-broadphase-{}", shared.helpers + 1);
                if std::thread::Builder::new().name(name).spawn(helper).is_err() {
                    break;
                }
                shared.helpers += 1;
            }
            shared.job = &job;
            shared.wanted = helpers;
            shared.epoch += 1;
            POOL.epoch.store(shared.epoch, Ordering::Relaxed);
        }
        for _ in 0..helpers {
            POOL.wake.notify_one();
        }
        let finish = Finish(&job);
        job.work();
        drop(finish);
        if let Some(payload) = job.panic.lock().unwrap_or_else(PoisonError::into_inner).take() {
            resume_unwind(payload);
        }
    }

    /// Ends a pass on the calling thread (also when its own part panics): no helper may join
    /// any more, and those inside have left, when this is dropped.
    struct Finish<'a>(&'a Job);

    impl Drop for Finish<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                // The calling thread's part panicked: the helpers take no new parts.
                self.0.next.store(self.0.parts, Ordering::Relaxed);
            }
            POOL.lock().wanted = 0;
            // Acquire: pairs with the helpers' release, so their parts' writes are visible.
            for _ in 0..CALLER_SPIN {
                if self.0.active.load(Ordering::Acquire) == 0 {
                    break;
                }
                core::hint::spin_loop();
            }
            let mut shared = POOL.lock();
            while self.0.active.load(Ordering::Acquire) > 0 {
                shared = POOL.done.wait(shared).unwrap_or_else(PoisonError::into_inner);
            }
            shared.job = core::ptr::null();
        }
    }

    /// A pass on `helpers` scoped threads of its own and the calling thread, for when the pool
    /// is busy.
    fn run_scoped(helpers: usize, job: &Job) {
        std::thread::scope(|s| {
            for _ in 0..helpers {
                s.spawn(|| job.work());
            }
            job.work();
        });
    }
}

/// Where to cut `n` weighted items into `parts` runs of about equal weight: up to `parts + 1`
/// ascending indices from 0 to `n` into `cuts` (replaced). `weights` yields the `n` weights
/// in order.
pub(crate) fn cut_by_weight(
    n: usize,
    parts: usize,
    weights: impl Iterator<Item = u64> + Clone,
    cuts: &mut alloc::vec::Vec<usize>,
) {
    cuts.clear();
    cuts.push(0);
    let total: u64 = weights.clone().sum();
    let parts = parts.max(1) as u64;
    let (mut sum, mut next) = (0u64, 1u64);
    // Cut before the first item at which the items before it carry `next` shares.
    let mut target = total.div_ceil(parts);
    for (i, w) in weights.enumerate() {
        if next >= parts {
            break;
        }
        if sum >= target && i > cuts[cuts.len() - 1] {
            cuts.push(i);
            next += 1;
            target = (total * next).div_ceil(parts);
        }
        sum += w;
    }
    cuts.push(n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn cuts_cover_every_item_once_in_order() {
        let mut cuts = Vec::new();
        for (n, parts) in [(0, 1), (0, 4), (1, 4), (10, 1), (10, 3), (1000, 7), (5, 8)] {
            cut_by_weight(n, parts, (0..n).map(|i| (i % 5) as u64 * 3 + 1), &mut cuts);
            assert_eq!(cuts.first(), Some(&0));
            assert_eq!(cuts.last(), Some(&n));
            assert!(cuts.windows(2).all(|w| w[0] <= w[1]), "{cuts:?}");
            assert!(cuts.len() <= parts + 1, "{n} {parts} {cuts:?}");
        }
        // Even weights: even parts.
        cut_by_weight(1000, 4, (0..1000).map(|_| 1), &mut cuts);
        assert_eq!(cuts, [0, 250, 500, 750, 1000]);
        // One heavy item at the front takes a part of its own.
        cut_by_weight(100, 2, (0..100).map(|i| if i == 0 { 1000 } else { 1 }), &mut cuts);
        assert_eq!(cuts, [0, 1, 100]);
    }

    #[test]
    fn every_part_runs_once() {
        let mut parts: Vec<(usize, usize)> = (0..5).map(|i| (i, 0)).collect();
        run(&mut parts, |(i, out)| *out = *i * 10 + 1);
        assert_eq!(parts, [(0, 1), (1, 11), (2, 21), (3, 31), (4, 41)]);
        let t = Threads(3);
        assert_eq!(t.parts(0, 100), 1);
        assert_eq!(t.parts(250, 100), 2);
        assert_eq!(t.parts(10_000, 100), 3);
    }

    /// More parts than threads: each part runs once, whichever thread takes it.
    #[test]
    fn more_parts_than_threads_each_run_once() {
        for threads in [1, 2, 3, 8] {
            let mut parts: Vec<(usize, usize)> = (0..100).map(|i| (i, 0)).collect();
            run_on(threads, &mut parts, |(i, out)| *out += *i * 3 + 1);
            assert!(parts.iter().all(|&(i, out)| out == i * 3 + 1), "{threads} threads");
        }
    }

    /// A panic in a part reaches the caller once every part is done, and the pool still works.
    #[cfg(feature = "parallel")]
    #[test]
    fn a_panicking_part_panics_the_caller_and_the_pool_goes_on() {
        for _ in 0..3 {
            let mut parts: Vec<usize> = (0..64).collect();
            let result = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
                run_on(4, &mut parts, |p| {
                    assert!(*p != 37, "part 37 fails");
                    *p += 1000;
                });
            }));
            assert!(result.is_err());
        }
        let mut parts = vec![0usize; 64];
        run_on(4, &mut parts, |p| *p += 1);
        assert!(parts.iter().all(|&p| p == 1));
    }

    /// Passes started at once from several threads, and a pass started from inside a part
    /// (the pool then busy: scoped threads of its own), each run every part once.
    #[cfg(feature = "parallel")]
    #[test]
    fn concurrent_and_nested_passes_run_every_part_once() {
        std::thread::scope(|s| {
            for t in 0..4usize {
                s.spawn(move || {
                    for round in 0..50 {
                        let mut parts: Vec<usize> = (0..(8 + round % 5)).collect();
                        run_on(3, &mut parts, |p| *p = *p * 2 + t);
                        assert!(parts.iter().enumerate().all(|(i, &p)| p == i * 2 + t));
                    }
                });
            }
        });
        let mut outer: Vec<Vec<usize>> = (0..6).map(|i| vec![i; 10]).collect();
        run_on(3, &mut outer, |inner| run_on(2, inner, |x| *x += 1));
        assert!(outer.iter().enumerate().all(|(i, v)| v.iter().all(|&x| x == i + 1)));
    }

    /// Big enough scenes do split: the pair search and the sort (and the grid's patch) each
    /// run on several threads.
    #[cfg(feature = "parallel")]
    #[test]
    fn big_scenes_split_their_pair_search_and_sort() {
        use crate::{Aabb, Axis, Grid, SpatialHash, SpatialIndex, Sweep, Tree};
        use glam::vec2;
        let n = 60_000u32;
        let side = (9.5 * n as f32).sqrt();
        let mut unit = crate::xorshift_unit(9);
        let boxes: Vec<Aabb> = (0..n)
            .map(|_| {
                let c = vec2(unit(), unit()) * side;
                Aabb::from_center(c, vec2(1.5, 1.2)).unwrap()
            })
            .collect();
        let area = Aabb::new(vec2(-2.0, -2.0), glam::Vec2::splat(side + 2.0)).unwrap();
        let indexes: [Box<dyn SpatialIndex>; 4] = [
            Box::new(Grid::covering(area, 4.0).unwrap()),
            Box::new(SpatialHash::new(2.5).unwrap()),
            Box::new(Tree::new()),
            Box::new(Sweep::new(Axis::X)),
        ];
        let splits = || SPLIT_RUNS.with(core::cell::Cell::get);
        for mut index in indexes {
            index.set_threads(2).unwrap();
            let ids: Vec<_> = boxes.iter().map(|&b| index.insert(b).unwrap()).collect();
            let mut pairs = Vec::new();
            // Small moves: from the second on, the grid and the hash patch their lists (one
            // more split run).
            for step in 1..=2 {
                index.pairs(&mut pairs);
                for (&id, b) in ids.iter().zip(&boxes) {
                    let d = 0.01 * step as f32;
                    index.update(id, Aabb::new(b.min() + d, b.max() + d).unwrap()).unwrap();
                }
            }
            for order in 0..2 {
                let before = splits();
                if order == 0 {
                    index.pairs(&mut pairs);
                } else {
                    index.pairs_unsorted(&mut pairs);
                }
                // Grid and hash, sorted: the patch's scan, the walk, and the sort's three passes
                // (offsets, scatter, runs); unsorted: the walk and the pairs written. Tree and
                // sweep: the search and the sort.
                let cells = matches!(index.name(), "grid" | "hash");
                let want = if cells && order == 0 { 5 } else { 2 };
                assert_eq!(splits() - before, want, "{} (order {order})", index.name());
            }
            index.set_threads(1).unwrap();
            let before = splits();
            index.pairs(&mut pairs);
            assert_eq!(splits(), before, "{} on one thread", index.name());
        }
    }
}
