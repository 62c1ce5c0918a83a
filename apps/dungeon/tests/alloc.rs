//! Heap allocations per step in steady state, counted by lore-allocators' tracking allocator:
//! the step's scratch lists come from a `Stack` reset every step, and the lists the broadphase
//! fills keep their memory, so once a level has warmed up a step allocates nothing.
//!
//! The count is the process's ([`totals`]): every thread's allocations, the broadphase's
//! helper threads included. A positive control first shows the counter sees an allocation made
//! on another thread and not on this one. The shipped levels are too small for the broadphase
//! to split a pass over threads; `alloc_crowd.rs` runs a crowd big enough that it does. This
//! file holds one test, so no other test's thread allocates while it counts.

use lore_allocators::tracking::{TrackingAlloc, this_thread, totals};
use lore_dungeon::autopilot::Autopilot;
use lore_dungeon::game::Game;
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

#[global_allocator]
static ALLOCATOR: TrackingAlloc<std::alloc::System> = TrackingAlloc::new(std::alloc::System);

/// Every allocation of the process so far, on every thread.
fn process_allocations() -> u64 {
    totals().allocations
}

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
        let before = process_allocations();
        game.step(&input).unwrap();
        let n = process_allocations() - before;
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
    // this thread's, and one on this thread by both.
    // The other thread allocates only between the second and third meeting, while this one
    // waits (spawning a thread allocates on the spawning thread too, so that stays outside).
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
    let (before, mine) = (process_allocations(), this_thread().allocations);
    meet.wait();
    meet.wait();
    let (after, mine_after) = (process_allocations(), this_thread().allocations);
    other.join().unwrap();
    assert!(after > before, "an allocation on another thread was not counted");
    assert_eq!(mine_after, mine, "this thread's own count saw another thread's allocation");
    let before = process_allocations();
    let b = std::hint::black_box(Box::new(7u64));
    assert!(process_allocations() > before, "an allocation on this thread was not counted");
    drop(b);

    // The shipped game, two seeds.
    for seed in [3, 11] {
        let mut game = Game::new(LevelConfig { seed, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
        count_steps(&mut game, 300, 900, &format!("seed {seed}"));
        assert!(game.stats().bullets_fired > 10 && game.stats().enemies_hit > 0, "seed {seed}: a quiet stretch");
    }
}
