//! Exact counts across thread exits, with the tracking allocator as the global allocator. One
//! check in its own binary without the test harness (`harness = false`), so nothing else
//! allocates between the snapshots.

use std::alloc::{GlobalAlloc, Layout, System};

use lore_allocators::tracking::{self, TrackingAlloc};

#[global_allocator]
static GLOBAL: TrackingAlloc<System> = TrackingAlloc::new(System);

struct Block(*mut u8, Layout);
// SAFETY: a plain heap block, owned by whoever holds the `Block`.
unsafe impl Send for Block {}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated by `alloc` with this layout, freed once (`free` forgets the block).
        unsafe { GLOBAL.dealloc(self.0, self.1) };
    }
}

fn alloc(size: usize) -> Block {
    let layout = Layout::from_size_align(size, 8).unwrap();
    // SAFETY: non-zero size.
    Block(unsafe { GLOBAL.alloc(layout) }, layout)
}

fn free(b: Block) {
    drop(b);
}

fn main() {
    exact_per_thread_and_after_threads_exit();
    println!("tracking_exact: ok");
}

fn exact_per_thread_and_after_threads_exit() {
    // Warm up what the first spawn sets up once (std's thread machinery).
    std::thread::spawn(|| ()).join().unwrap();
    let before = tracking::totals();

    // A thread allocates 100 + 300 + 50 bytes, frees two blocks, hands one over, exits.
    let handed = std::thread::spawn(|| {
        // (std's thread start may already have freed blocks its parent made.)
        let start = tracking::this_thread();
        assert_eq!(start.allocations, 0, "fresh counters");
        let a = alloc(100);
        let b = alloc(300);
        free(a);
        let c = alloc(50);
        free(b);
        let s = tracking::this_thread();
        let (frees, freed) = (s.frees - start.frees, s.bytes_freed - start.bytes_freed);
        assert_eq!((s.allocations, frees, s.bytes_allocated, freed), (3, 2, 450, 400));
        // Live bytes of this thread (negative when it freed its parent's blocks) went 400 above
        // where they started (a + b), and end 50 above.
        let live = |s: tracking::AllocStats| s.bytes_allocated.wrapping_sub(s.bytes_freed) as i64;
        let peak = (start.peak_bytes as i64).max(live(start) + 400);
        assert_eq!((s.peak_bytes as i64, live(s) - live(start), s.threads), (peak, 50, 1));
        c
    })
    .join()
    .unwrap();

    // Another thread only frees: its counters are linked by that free and folded at exit.
    std::thread::spawn(move || {
        let start = tracking::this_thread();
        free(handed);
        let s = tracking::this_thread();
        let (frees, freed) = (s.frees - start.frees, s.bytes_freed - start.bytes_freed);
        assert_eq!((s.allocations, frees, freed, s.threads), (0, 1, 50, 1));
    })
    .join()
    .unwrap();

    let after = tracking::totals();
    // Everything the two threads (and their spawning) allocated was freed again, and nothing
    // was lost when their counters were folded at exit.
    assert_eq!(after.live_allocations() - before.live_allocations(), 0);
    assert_eq!(after.live_bytes(), before.live_bytes());
    assert!(after.allocations - before.allocations >= 3);
    assert!(after.bytes_freed - before.bytes_freed >= 450);
    assert!(after.threads >= before.threads + 2);
    assert!(after.peak_bytes >= before.peak_bytes + 400, "the sum of per-thread peaks");
}
