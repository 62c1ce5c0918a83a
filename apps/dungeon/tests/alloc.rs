//! Heap allocations per step in steady state, counted by lore-allocators' tracking allocator:
//! the step's scratch lists come from a `Stack` reset every step, and the lists the broadphase
//! fills keep their memory, so once a level has warmed up a step allocates nothing.

use lore_allocators::tracking::{TrackingAlloc, this_thread};
use lore_dungeon::autopilot::Autopilot;
use lore_dungeon::game::Game;
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

#[global_allocator]
static ALLOCATOR: TrackingAlloc<std::alloc::System> = TrackingAlloc::new(std::alloc::System);

/// Steps before counting (the lists grow to the level's size).
const WARM_UP: u64 = 300;
/// Steps counted.
const COUNTED: u64 = 900;

#[test]
fn steady_state_steps_make_no_heap_allocation() {
    for seed in [3, 11] {
        let mut game = Game::new(LevelConfig { seed, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
        let mut pilot = Autopilot::new();
        for _ in 0..WARM_UP {
            let input = pilot.input(&mut game);
            game.step(&input).unwrap();
        }
        let level = game.stats().level;
        let (mut allocations, mut worst) = (0, (0, 0));
        for _ in 0..COUNTED {
            // The autopilot stands in for a person: only the game's step is counted.
            let input = pilot.input(&mut game);
            let before = this_thread().allocations;
            game.step(&input).unwrap();
            let n = this_thread().allocations - before;
            allocations += n;
            if n > worst.1 {
                worst = (game.frame(), n);
            }
        }
        assert_eq!(game.stats().level, level, "seed {seed}: the level changed while counting");
        assert!(game.stats().bullets_fired > 10 && game.stats().enemies_hit > 0, "seed {seed}: a quiet stretch");
        assert_eq!(
            allocations, 0,
            "seed {seed}: {allocations} heap allocations in {COUNTED} steady-state steps (worst: frame {} with {})",
            worst.0, worst.1
        );
    }
}
