//! The GPU pixel path on whatever adapter lore-render picks (lavapipe on a machine without a
//! GPU: Debian's `mesa-vulkan-drivers`; without an adapter this test fails with a message
//! naming that package): every answer agrees with the CPU twin, and the game plays exactly as
//! it does on the CPU alone.

use lore_platformer::autopilot::Autopilot;
use lore_platformer::game::{Game, GpuPixels};
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;

#[test]
fn the_gpu_decides_shot_pairs_as_the_cpu_twin_does() {
    let gpu = GpuPixels::new().expect("a graphics adapter (install mesa-vulkan-drivers for lavapipe)");
    eprintln!("adapter: {}", gpu.describe());
    let config = LevelConfig { seed: 2, ..LevelConfig::default() };
    let mut on_gpu = Game::new(config, Kinds::shipped()).unwrap();
    on_gpu.use_gpu(gpu);
    let mut on_cpu = Game::new(config, Kinds::shipped()).unwrap();
    let (mut pilot_gpu, mut pilot_cpu) = (Autopilot::new(), Autopilot::new());
    for _ in 0..8000 {
        let input = pilot_gpu.input(&on_gpu);
        on_gpu.step(&input).unwrap();
        let input = pilot_cpu.input(&on_cpu);
        on_cpu.step(&input).unwrap();
        assert_eq!(on_gpu.state_hash(), on_cpu.state_hash(), "frame {}", on_gpu.frame());
        if on_gpu.stats().gpu_pairs >= 30 && on_gpu.stats().enemies_hit >= 4 {
            break;
        }
    }
    assert_eq!(on_gpu.gpu_error(), None);
    let s = on_gpu.stats();
    assert!(s.gpu_pairs >= 30 && s.enemies_hit >= 4, "too few pairs to compare: {s:?}");
    assert_eq!(s.gpu_pairs, s.pixel_pairs, "every candidate went to the GPU");
    assert_eq!(s.gpu_agree, s.gpu_pairs, "GPU and CPU twin disagree: {s:?}");
    assert_eq!(on_cpu.stats().gpu_pairs, 0);
}
