//! Heap allocations per step with a crowd big enough that the broadphase splits its passes over
//! its pool of helper threads (20,000 enemies of radius 0.45 in a 64 x 64 level: about 70,000
//! cell entries a step, past the grid's 64k for two parts), counted over every thread of the
//! process ([`totals`]). Its own test binary, so no other test allocates while it counts.
//!
//! A split pass keeps its job lists between passes (lore-broadphase's `Spare`), so after the
//! warm-up steps nothing is allocated on any thread; before it did, the split passes allocated
//! about 38 blocks a step on 2 threads. One core cannot split the passes: the test then fails
//! and says so rather than pass without checking.

use lore_allocators::tracking::{TrackingAlloc, this_thread, totals};
use lore_dungeon::autopilot::Autopilot;
use lore_dungeon::game::Game;
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

#[global_allocator]
static ALLOCATOR: TrackingAlloc<std::alloc::System> = TrackingAlloc::new(std::alloc::System);

/// The threads of this process (Linux: the entries of `/proc/self/task`).
#[cfg(target_os = "linux")]
fn process_threads() -> usize {
    std::fs::read_dir("/proc/self/task").map(Iterator::count).unwrap_or(0)
}

#[test]
fn a_crowd_split_over_threads_steps_without_heap_allocation() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    assert!(cores >= 2, "one core: the broadphase does not split its passes, and this test cannot check that");
    #[cfg(target_os = "linux")]
    let threads_before = process_threads();
    let mut kinds = Kinds::shipped();
    for e in [&mut kinds.wanderer, &mut kinds.chaser] {
        e.count = 10_000;
        e.radius = 0.45;
        e.speed = 6.0;
    }
    let mut game = Game::new(LevelConfig { seed: 5, width: 64, height: 64, ..LevelConfig::default() }, kinds).unwrap();
    assert_eq!(game.enemies().count(), 20_000);
    let mut pilot = Autopilot::new();
    for _ in 0..100 {
        let input = pilot.input(&mut game);
        game.step(&input).unwrap();
    }
    // The pool is started by the first pass cut into parts: its threads are there.
    #[cfg(target_os = "linux")]
    {
        let threads = process_threads();
        assert!(
            threads > threads_before,
            "no helper thread was started ({threads_before} threads before the crowd, {threads} after): \
             the broadphase's passes were not split"
        );
    }
    let level = game.stats().level;
    let (mut allocations, mut on_this_thread) = (0, 0);
    for _ in 0..60 {
        let input = pilot.input(&mut game);
        let (before, mine) = (totals().allocations, this_thread().allocations);
        game.step(&input).unwrap();
        allocations += totals().allocations - before;
        on_this_thread += this_thread().allocations - mine;
    }
    assert_eq!(game.stats().level, level, "the level changed while counting");
    assert_eq!(
        allocations, 0,
        "{allocations} heap allocations in 60 steady-state steps ({on_this_thread} on the stepping thread, \
         the rest on the broadphase's helper threads)"
    );
}
