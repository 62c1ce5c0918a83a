//! Heap allocations per step in steady state, counted by lore-allocators' tracking allocator on
//! every thread of the process ([`totals`]): the step's lists come from a `Stack` reset every
//! step, the controller gathers its obstacles inline, and the lists that keep their memory
//! (the game's, the static tree's found list, the moving grid's cell lists) are grown to their
//! largest when a level starts, so once a level has warmed up a step allocates nothing. Each
//! seed counts 6,000 steps (100 s of play across the level: without the growing at the start,
//! seed 3 allocated in 4 of them, at new highs of the grid's lists and the tree's found list). A positive control first shows the
//! counter sees an allocation made on another thread. This file holds one test, so no other
//! test's thread allocates while it counts.

use lore_allocators::tracking::{TrackingAlloc, this_thread, totals};
use lore_platformer::autopilot::Autopilot;
use lore_platformer::game::Game;
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;

#[global_allocator]
static ALLOCATOR: TrackingAlloc<std::alloc::System> = TrackingAlloc::new(std::alloc::System);

/// Warms a game up for `warm_up` steps, then counts the process's allocations over `counted`
/// steps, and fails unless there were none (naming the worst step).
fn count_steps(game: &mut Game, warm_up: u64, counted: u64, what: &str) {
    let mut pilot = Autopilot::new();
    for _ in 0..warm_up {
        let input = pilot.input(game);
        game.step(&input).unwrap();
    }
    let level = game.stats().level;
    let (mut allocations, mut worst) = (0, (0, 0));
    for _ in 0..counted {
        // The autopilot stands in for a person: only the game's step is counted.
        let input = pilot.input(game);
        let before = totals().allocations;
        game.step(&input).unwrap();
        let n = totals().allocations - before;
        allocations += n;
        if n > worst.1 {
            worst = (game.frame(), n);
        }
    }
    assert_eq!(game.stats().level, level, "{what}: the level changed while counting");
    assert_eq!(
        allocations, 0,
        "{what}: {allocations} heap allocations in {counted} steady-state steps (worst: frame {} with {})",
        worst.0, worst.1
    );
}

#[test]
fn steady_state_steps_make_no_heap_allocation_on_any_thread() {
    // Positive control: an allocation on another thread is seen by the process count and not by
    // this thread's. The other thread allocates only between the second and third meeting.
    let meet = std::sync::Arc::new(std::sync::Barrier::new(2));
    let other = {
        let meet = std::sync::Arc::clone(&meet);
        std::thread::spawn(move || {
            meet.wait();
            meet.wait();
            let v = std::hint::black_box(vec![1u8; 100]);
            meet.wait();
            v.len()
        })
    };
    meet.wait();
    let (before, mine) = (totals().allocations, this_thread().allocations);
    meet.wait();
    meet.wait();
    let (after, mine_after) = (totals().allocations, this_thread().allocations);
    other.join().unwrap();
    assert!(after > before, "an allocation on another thread was not counted");
    assert_eq!(mine_after, mine, "this thread's own count saw another thread's allocation");

    // The shipped game, two seeds, the box and the capsule: jumps, ladders, lifts, shots and
    // hits all happen while counting.
    for (seed, capsule) in [(3, false), (11, true)] {
        let mut kinds = Kinds::shipped();
        kinds.player.capsule = capsule;
        let mut game = Game::new(LevelConfig { seed, ..LevelConfig::default() }, kinds).unwrap();
        count_steps(&mut game, 300, 6000, &format!("seed {seed}"));
        let s = game.stats();
        assert!(s.shots_fired > 5 && s.jumps > 2, "seed {seed}: a quiet stretch: {s:?}");
    }
}
