//! The GPU pixel path on whatever adapter lore-render picks (lavapipe on a machine without a
//! GPU: Debian's `mesa-vulkan-drivers`; without an adapter this test fails with a message
//! naming that package): every answer agrees with the CPU twin, and the game plays exactly as
//! it does on the CPU alone.

use lore_dungeon::autopilot::Autopilot;
use lore_dungeon::game::{Game, GpuPixels};
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

#[test]
fn the_gpu_decides_bullet_pairs_as_the_cpu_twin_does() {
    let gpu = GpuPixels::new().expect("a graphics adapter (install mesa-vulkan-drivers for lavapipe)");
    let config = LevelConfig { seed: 2, ..LevelConfig::default() };
    let mut on_gpu = Game::new(config, Kinds::shipped()).unwrap();
    on_gpu.use_gpu(gpu);
    let mut on_cpu = Game::new(config, Kinds::shipped()).unwrap();
    let (mut pilot_gpu, mut pilot_cpu) = (Autopilot::new(), Autopilot::new());
    for _ in 0..1500 {
        let input = pilot_gpu.input(&mut on_gpu);
        on_gpu.step(&input).unwrap();
        let input = pilot_cpu.input(&mut on_cpu);
        on_cpu.step(&input).unwrap();
        assert_eq!(on_gpu.state_hash(), on_cpu.state_hash(), "frame {}", on_gpu.frame());
        if on_gpu.stats().gpu_pairs >= 40 && on_gpu.stats().enemies_hit >= 5 {
            break;
        }
    }
    assert_eq!(on_gpu.gpu_error(), None);
    let s = on_gpu.stats();
    assert!(s.gpu_pairs >= 40 && s.enemies_hit >= 5, "too few pairs to compare: {s:?}");
    assert_eq!(s.gpu_pairs, s.pixel_pairs, "every candidate went to the GPU");
    assert_eq!(s.gpu_agree, s.gpu_pairs, "GPU and CPU twin disagree: {s:?}");
    assert_eq!(on_cpu.stats().gpu_pairs, 0);
    assert_eq!(on_cpu.stats().pixel_pairs, s.pixel_pairs);
}

/// The backends `WGPU_BACKEND` allows (wgpu's own spellings), as `wgpu::Backend`'s debug names;
/// `None` when it is not set.
fn backends_asked() -> Option<Vec<&'static str>> {
    let list = std::env::var("WGPU_BACKEND").ok()?;
    Some(
        list.split(',')
            .map(|b| match b.trim().to_lowercase().as_str() {
                "vulkan" | "vk" => "Vulkan",
                "dx12" | "d3d12" => "Dx12",
                "metal" | "mtl" => "Metal",
                "opengl" | "gles" | "gl" => "Gl",
                "webgpu" => "BrowserWebGpu",
                other => panic!("WGPU_BACKEND names an unknown backend: {other:?}"),
            })
            .collect(),
    )
}

/// The stage that sets `WGPU_BACKEND=gl` runs this file on GL: the adapter must be one of the
/// backends asked for, or that stage would test the Vulkan path a second time.
#[test]
fn the_adapter_is_on_a_backend_wgpu_backend_allows() {
    let adapter = GpuPixels::new().expect("a graphics adapter (install mesa-vulkan-drivers for lavapipe)").describe();
    eprintln!("adapter: {adapter}");
    if let Some(asked) = backends_asked() {
        assert!(
            asked.iter().any(|b| adapter.contains(&format!("({b}, "))),
            "WGPU_BACKEND asks for {asked:?}, got {adapter}"
        );
    }
}
