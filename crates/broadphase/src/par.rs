//! Splitting a pass over threads: the thread count an index keeps, how many parts a pass of a
//! given size is cut into, and one run of a closure per part.
//!
//! With the `parallel` feature a pass cut into several parts runs them on the calling thread
//! and on helper threads of a pool kept for the whole process (started by the first split
//! pass that needs them; between passes they spin briefly, then sleep): every thread takes
//! the next part not yet taken until none is left, so a pass may have more parts than threads
//! and a late or busy thread only takes fewer. Without the feature, or with one thread, the parts run in
//! turn on the calling thread. Each part writes only its own buffers, and the caller joins
//! them in part order, so the result is the same as one thread's, to the order of
//! `pairs_unsorted`, whichever thread ran which part.

#[cfg(feature = "parallel")]
use crate::error::Error;

/// How many parts per thread a pass of parts of about equal work is cut into: each thread
/// takes the next part not yet taken, so one that starts late (a helper waking up) or is
/// held up (the core taken by another process) leaves the rest of its share to the others.
pub(crate) const PARTS_PER_THREAD: usize = 4;

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

/// The allocation of one pass's job list, kept for the next pass, so that a split pass
/// allocates nothing once its lists have grown (a game counts heap allocations per frame).
///
/// Jobs borrow the buffers of their pass, so the list itself cannot outlive it: between
/// passes only its allocation is kept, typed by the size and alignment of its items, and
/// [`Spare::take`] hands it out again as an empty `Vec` of any type of that layout (the same
/// job type, with the next pass's lifetimes). A clone is a new, empty spare.
pub(crate) struct Spare {
    /// The allocation, when `bytes > 0`.
    ptr: core::ptr::NonNull<u8>,
    bytes: usize,
    align: usize,
}

impl Spare {
    /// No allocation yet.
    pub(crate) const fn new() -> Self {
        Self { ptr: core::ptr::NonNull::dangling(), bytes: 0, align: 1 }
    }

    /// An empty list on the kept allocation when its layout fits `T` (a new, empty one
    /// otherwise: the old allocation is freed).
    pub(crate) fn take<T>(&mut self) -> alloc::vec::Vec<T> {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        let old = core::mem::take(self);
        if old.bytes == 0 || size == 0 || old.align != align || !old.bytes.is_multiple_of(size) {
            return alloc::vec::Vec::new();
        }
        let old = core::mem::ManuallyDrop::new(old);
        // SAFETY: `old.ptr` was allocated by the global allocator (a `Vec`'s buffer, given up
        // in `keep`) with the layout `(old.bytes, old.align)`; `T` has that alignment and
        // `capacity * size_of::<T>() == old.bytes`, as `from_raw_parts` asks; the length is 0,
        // so no item is read. Ownership moves to the `Vec` (`old` is not dropped).
        unsafe { alloc::vec::Vec::from_raw_parts(old.ptr.as_ptr().cast::<T>(), 0, old.bytes / size) }
    }

    /// Keeps the allocation of `list` (its items are dropped first) for the next `take`.
    pub(crate) fn keep<T>(&mut self, mut list: alloc::vec::Vec<T>) {
        list.clear();
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        if size == 0 || list.capacity() == 0 {
            return;
        }
        let mut list = core::mem::ManuallyDrop::new(list);
        let bytes = list.capacity() * size;
        // (A `Vec`'s pointer is never null.)
        let ptr = core::ptr::NonNull::new(list.as_mut_ptr().cast::<u8>()).unwrap_or(core::ptr::NonNull::dangling());
        *self = Self { ptr, bytes, align };
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        if self.bytes > 0 {
            // SAFETY: the allocation `keep` took over from a `Vec`, whose layout was
            // `(bytes, align)` (a valid layout: the `Vec` made it).
            unsafe {
                alloc::alloc::dealloc(
                    self.ptr.as_ptr(),
                    alloc::alloc::Layout::from_size_align_unchecked(self.bytes, self.align),
                );
            }
        }
    }
}

impl Default for Spare {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for Spare {
    /// A new, empty spare (the kept allocation belongs to one list).
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Spare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Spare").field("bytes", &self.bytes).finish()
    }
}

// SAFETY: a spare holds no item, only an allocation of plain bytes, which any thread may free.
unsafe impl Send for Spare {}
// SAFETY: as for `Send`; `&Spare` gives no access to the allocation.
unsafe impl Sync for Spare {}

#[cfg(all(test, feature = "parallel"))]
std::thread_local! {
    /// How many runs on this thread were split across threads (tests check the split happens).
    pub(crate) static SPLIT_RUNS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    /// The most threads a split run on this thread asked the pool for (tests check a pass
    /// never takes more threads than its index may use).
    pub(crate) static MOST_THREADS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// Runs `f` on every part, on up to as many threads as parts (see [`run_on`]): only for
/// passes cut into one part per thread. A pass cut into more parts than its index's threads
/// (several per thread, or one per chunk) calls [`run_on`] with the index's thread count, or
/// it would start and spin as many helpers as it has parts.
pub(crate) fn run<P: Send>(parts: &mut [P], f: impl Fn(&mut P) + Sync) {
    run_on(parts.len(), parts, f);
}

/// Runs `f` on every part, on up to `threads` threads: the calling thread and helpers from the
/// pool (with the `parallel` feature), each taking the next part not yet taken. Returns when
/// every part is done; a panic in a part is raised again here once all parts are done.
pub(crate) fn run_on<P: Send>(threads: usize, parts: &mut [P], f: impl Fn(&mut P) + Sync) {
    // A target without threads (wasm32 without the `atomics` feature, as browsers run it):
    // every part on the calling thread, the same answers as one thread's.
    let threads = if cfg!(all(target_family = "wasm", not(target_feature = "atomics"))) { 1 } else { threads };
    #[cfg(feature = "parallel")]
    if threads > 1 && parts.len() > 1 {
        #[cfg(test)]
        SPLIT_RUNS.with(|c| c.set(c.get() + 1));
        #[cfg(test)]
        MOST_THREADS.with(|c| c.set(c.get().max(threads.min(parts.len()))));
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
///
/// A pass is published and joined with atomics only: the calling thread stores the job and
/// how many helpers may join it, then bumps the epoch; a helper that sees the epoch move
/// (while it spins after its last pass) claims a place and works. The lock and the condition
/// variables are only for sleeping: a helper that has spun long enough sleeps, and the calling
/// thread wakes helpers only when some sleep; the calling thread sleeps at the end of a pass
/// only when its helpers take long to finish, and a helper wakes it only then.
#[cfg(feature = "parallel")]
mod pool {
    use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
    use std::any::Any;
    use std::boxed::Box;
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

    /// How many times a helper that has just finished a pass checks for the next one before it
    /// sleeps (a pass usually follows another within microseconds: the parts of one `pairs`).
    const HELPER_SPIN: u32 = 1 << 14;
    /// How many times the calling thread checks that its helpers are done before it sleeps:
    /// as long as a helper spins (the calling thread is held in the pass anyway, and a helper
    /// finishing its last part, a small share of the pass, is then met without a wake-up).
    const CALLER_SPIN: u32 = HELPER_SPIN;

    /// One split pass: a closure over part indices, with its lifetime erased (see `run`).
    struct Job {
        task: *const (dyn Fn(usize) + Sync + 'static),
        parts: usize,
        /// The pass's epoch (a helper joins each pass once).
        epoch: u64,
        /// The next part index to take.
        next: AtomicUsize,
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
                // has left this job (the calling thread waits for `Pool::inside` to drop to 0).
                unsafe { (*self.task)(i) };
            }
        }
    }

    struct Pool {
        /// Whether a pass holds the pool (another pass then runs on scoped threads).
        busy: AtomicBool,
        /// The pass being worked on (null when none).
        job: AtomicPtr<Job>,
        /// Bumped for every pass; helpers spin on it.
        epoch: AtomicU64,
        /// How many more helpers may join the pass.
        wanted: AtomicUsize,
        /// Helpers inside the pass, or about to claim a place in it (see `helper`).
        inside: AtomicUsize,
        /// Helpers asleep on `wake`, or about to sleep.
        sleepers: AtomicUsize,
        /// Whether the calling thread sleeps on `done`, or is about to.
        waiting: AtomicBool,
        /// Helper threads started (changed under the lock; read without it).
        started: AtomicUsize,
        helpers: Mutex<usize>,
        /// Helpers sleep here, the calling thread too at the end of a long pass.
        wake: Condvar,
        done: Condvar,
    }

    static POOL: Pool = Pool {
        busy: AtomicBool::new(false),
        job: AtomicPtr::new(core::ptr::null_mut()),
        epoch: AtomicU64::new(0),
        wanted: AtomicUsize::new(0),
        inside: AtomicUsize::new(0),
        sleepers: AtomicUsize::new(0),
        waiting: AtomicBool::new(false),
        started: AtomicUsize::new(0),
        helpers: Mutex::new(0),
        wake: Condvar::new(),
        done: Condvar::new(),
    };

    impl Pool {
        fn lock(&self) -> MutexGuard<'_, usize> {
            // The lock is never held while a part runs, so a panic cannot poison it; if one
            // ever did, the count is still right (every update is a single store).
            self.helpers.lock().unwrap_or_else(PoisonError::into_inner)
        }

        /// Joins the current pass if it still wants a helper: returns it, counted in `inside`
        /// (the caller of `join` must leave with `leave`).
        fn join(&self) -> Option<&Job> {
            // Counted inside first, then the place claimed (both sequentially consistent): the
            // calling thread closes the pass by setting `wanted` to 0 and then waits for
            // `inside` to drop to 0, so a claim that succeeds came before the close, and the
            // count before it is seen by the wait.
            self.inside.fetch_add(1, Ordering::SeqCst);
            let claimed = self.wanted.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |w| w.checked_sub(1)).is_ok();
            if !claimed {
                self.leave();
                return None;
            }
            let job = self.job.load(Ordering::SeqCst);
            // SAFETY: a place was claimed while the pass was open, so the job is the pass's
            // (published before `wanted`), and it stays alive until this helper leaves: the
            // calling thread waits for `inside` to drop to 0 before it returns.
            Some(unsafe { &*job })
        }

        /// Leaves the pass: the last helper out wakes the calling thread if it sleeps.
        fn leave(&self) {
            if self.inside.fetch_sub(1, Ordering::SeqCst) == 1 && self.waiting.load(Ordering::SeqCst) {
                // (Taking the lock orders this after the calling thread's check of `inside`:
                // it holds the lock from that check until it sleeps.)
                drop(self.lock());
                self.done.notify_all();
            }
        }
    }

    /// A helper thread: joins each pass that wants it, then spins briefly and sleeps.
    fn helper() {
        let pool = &POOL;
        let mut seen = 0;
        loop {
            let epoch = pool.epoch.load(Ordering::SeqCst);
            if epoch != seen {
                if let Some(job) = pool.join() {
                    seen = job.epoch;
                    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job.work())) {
                        // Stop the others taking new parts; keep the first panic.
                        job.next.store(job.parts, Ordering::Relaxed);
                        job.panic.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(payload);
                    }
                    // (The job may be gone once this helper has left: only the pool is touched.)
                    pool.leave();
                } else {
                    // Nothing to join in that pass (it is closed, or full).
                    seen = epoch;
                }
                continue;
            }
            let mut spins = 0;
            while spins < HELPER_SPIN && pool.epoch.load(Ordering::Relaxed) == seen {
                core::hint::spin_loop();
                spins += 1;
            }
            if spins < HELPER_SPIN {
                continue;
            }
            // Sleep until the epoch moves: counted as a sleeper before the last check, so the
            // calling thread, which bumps the epoch before it checks for sleepers, either is
            // seen here or sees this helper (and then wakes it under the lock, after it sleeps).
            let mut lock = pool.lock();
            pool.sleepers.fetch_add(1, Ordering::SeqCst);
            while pool.epoch.load(Ordering::SeqCst) == seen {
                lock = pool.wake.wait(lock).unwrap_or_else(PoisonError::into_inner);
            }
            pool.sleepers.fetch_sub(1, Ordering::SeqCst);
            drop(lock);
        }
    }

    /// Runs `task(i)` for every `i` below `parts` on the calling thread and up to `threads - 1`
    /// helpers; returns when every call has returned. When another pass is using the pool
    /// (another thread's index, or a pass started from inside a part), this one runs on
    /// scoped threads of its own instead.
    pub(super) fn run(threads: usize, parts: usize, task: &(dyn Fn(usize) + Sync)) {
        // SAFETY: only the lifetime changes. Every use of the pointer ends before this function
        // returns: helpers reach the job only between joining and leaving the pass, and the
        // calling thread closes the pass and waits for every helper to leave before returning
        // or unwinding (`Finish`).
        let task: &'static (dyn Fn(usize) + Sync) = unsafe { core::mem::transmute(task) };
        let helpers = threads - 1;
        if POOL.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            let job = Job { task, parts, epoch: 0, next: AtomicUsize::new(0), panic: Mutex::new(None) };
            return run_scoped(helpers, &job);
        }
        if POOL.started.load(Ordering::Relaxed) < helpers {
            let mut started = POOL.lock();
            while *started < helpers {
                let name = std::format!("lore-broadphase-{}", *started + 1);
                if std::thread::Builder::new().name(name).spawn(helper).is_err() {
                    break;
                }
                *started += 1;
            }
            POOL.started.store(*started, Ordering::Relaxed);
        }
        // (Only this thread writes the epoch while it holds the pool.)
        let epoch = POOL.epoch.load(Ordering::Relaxed) + 1;
        let job = Job { task, parts, epoch, next: AtomicUsize::new(0), panic: Mutex::new(None) };
        POOL.job.store(core::ptr::from_ref(&job).cast_mut(), Ordering::SeqCst);
        POOL.wanted.store(helpers, Ordering::SeqCst);
        POOL.epoch.store(epoch, Ordering::SeqCst);
        if POOL.sleepers.load(Ordering::SeqCst) > 0 {
            drop(POOL.lock());
            POOL.wake.notify_all();
        }
        let finish = Finish(&job);
        job.work();
        drop(finish);
        if let Some(payload) = job.panic.lock().unwrap_or_else(PoisonError::into_inner).take() {
            resume_unwind(payload);
        }
    }

    /// Ends a pass on the calling thread (also when its own part panics): no helper may join
    /// any more, and those inside have left, when this is dropped; then the pool is free.
    struct Finish<'a>(&'a Job);

    impl Drop for Finish<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                // The calling thread's part panicked: the helpers take no new parts.
                self.0.next.store(self.0.parts, Ordering::Relaxed);
            }
            POOL.wanted.store(0, Ordering::SeqCst);
            // Sequentially consistent: pairs with the helpers' `leave`, so their parts' writes
            // are visible once `inside` reads 0.
            let mut spins = 0;
            while POOL.inside.load(Ordering::SeqCst) > 0 {
                if spins < CALLER_SPIN {
                    core::hint::spin_loop();
                    spins += 1;
                    continue;
                }
                let mut lock = POOL.lock();
                POOL.waiting.store(true, Ordering::SeqCst);
                while POOL.inside.load(Ordering::SeqCst) > 0 {
                    lock = POOL.done.wait(lock).unwrap_or_else(PoisonError::into_inner);
                }
                POOL.waiting.store(false, Ordering::SeqCst);
                drop(lock);
            }
            POOL.job.store(core::ptr::null_mut(), Ordering::Relaxed);
            POOL.busy.store(false, Ordering::Release);
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
    fn a_spare_hands_its_allocation_to_the_next_list_of_the_same_layout() {
        let mut spare = Spare::new();
        assert!(spare.take::<u64>().is_empty());
        let mut data = [1u64, 2, 3];
        let mut list: Vec<&mut u64> = spare.take();
        list.extend(data.iter_mut());
        *list[1] = 20;
        let (ptr, capacity) = (list.as_ptr().cast::<u8>(), list.capacity());
        spare.keep(list);
        assert_eq!(data, [1, 20, 3]);
        // The next pass's list (other borrows, same layout) gets the same buffer, empty.
        let other = [7u64; 5];
        let mut list: Vec<&u64> = spare.take();
        assert!(list.is_empty());
        assert_eq!((list.as_ptr().cast::<u8>(), list.capacity()), (ptr, capacity));
        list.extend(other.iter());
        assert_eq!(list.iter().map(|&&x| x).sum::<u64>(), 35);
        spare.keep(list);
        // A list of another layout gets a new buffer (the old one is freed), and the spare
        // keeps that one from then on.
        let list: Vec<(u8, u8, u8)> = spare.take();
        assert_eq!(list.capacity(), 0);
        let mut list = list;
        list.push((1, 2, 3));
        spare.keep(list);
        let list: Vec<[u8; 3]> = spare.take();
        assert!(list.is_empty() && list.capacity() >= 1);
        spare.keep(list);
        // A clone is empty; zero-sized items keep nothing; dropping a spare frees its buffer.
        assert_eq!(spare.clone().bytes, 0);
        spare.keep(alloc::vec![(); 4]);
        drop(spare);
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

    /// A pass after the helpers have gone to sleep wakes one: the first part to start waits
    /// for the other to start, so they run on two threads.
    #[cfg(feature = "parallel")]
    #[test]
    fn a_pass_wakes_sleeping_helpers() {
        use core::sync::atomic::{AtomicUsize, Ordering};
        use std::time::{Duration, Instant};
        for _ in 0..3 {
            // Long past the helpers' spin (well under a millisecond): they sleep.
            std::thread::sleep(Duration::from_millis(30));
            let started = AtomicUsize::new(0);
            let mut parts = [None, None];
            run_on(2, &mut parts, |p| {
                started.fetch_add(1, Ordering::AcqRel);
                let start = Instant::now();
                while started.load(Ordering::Acquire) < 2 && start.elapsed() < Duration::from_secs(10) {
                    std::thread::yield_now();
                }
                *p = Some(std::thread::current().id());
            });
            assert!(parts[0].is_some() && parts[0] != parts[1], "both parts ran on one thread");
        }
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
        let most_threads = || MOST_THREADS.with(core::cell::Cell::get);
        MOST_THREADS.with(|c| c.set(0));
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
                // However many parts a pass is cut into, it runs on the index's two threads.
                assert_eq!(most_threads(), 2, "{} (order {order})", index.name());
            }
            index.set_threads(1).unwrap();
            let before = splits();
            index.pairs(&mut pairs);
            assert_eq!(splits(), before, "{} on one thread", index.name());
        }
    }
}
