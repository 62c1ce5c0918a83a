//! Renders the alloc demo headless after 120 steps and checks the picture: every band's region
//! map shows blocks of the three size classes and free space, every plot shows both curves,
//! and the right-hand statistics are written.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe); `Headless::new` fails with a message naming it otherwise.

use lore_alloc::{AllocDemo, FRAGMENTATION, FREE, LARGE, MEDIUM, OCCUPANCY, SMALL, map_rect, plot_rect};
use lore_render::glam::{Vec2, vec2};
use lore_render::headless::{Frame, Headless, close};
use lore_render::{Color, Demo};

fn count(frame: &Frame, demo: &AllocDemo, rect: (Vec2, Vec2), color: Color) -> usize {
    let camera = demo.camera();
    let viewport = vec2(frame.width as f32, frame.height as f32);
    let a = camera.world_to_screen(vec2(rect.0.x, rect.1.y), viewport);
    let b = camera.world_to_screen(vec2(rect.1.x, rect.0.y), viewport);
    frame.count_in(a.x as u32 + 2, a.y as u32 + 2, b.x as u32 - 2, b.y as u32 - 2, |c| close(c, color, 10))
}

#[test]
fn every_policy_band_shows_its_region_and_history() {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = AllocDemo::new();
    let frame = headless.run(&mut demo, 1, 120).expect("frame read back");
    for i in 0..4 {
        let map = map_rect(i);
        for (name, color, least) in
            [("free", FREE, 200), ("small", SMALL, 5), ("medium", MEDIUM, 200), ("large", LARGE, 2000)]
        {
            let n = count(&frame, &demo, map, color);
            assert!(n >= least, "band {i}: {n} {name} pixels in the region map");
        }
        let plot = plot_rect(i);
        assert!(count(&frame, &demo, plot, FRAGMENTATION) > 200, "band {i}: fragmentation curve");
        assert!(count(&frame, &demo, plot, OCCUPANCY) > 200, "band {i}: occupancy curve");
        assert_eq!(count(&frame, &demo, plot, LARGE), 0, "band {i}: no blocks drawn in the plot");
        // The statistics text right of the map.
        let text = frame.count_in(990, 0, 1270, 700, |c| close(c, Color::WHITE, 40));
        assert!(text > 1500, "statistics text: {text} pixels");
    }
    // The same trace went through every policy: the same number of events applied.
    let summary = demo.summary();
    assert_eq!(summary.len(), 4);
    assert!(summary.iter().all(|s| s.3 > 0.3), "the heaps are well filled: {summary:?}");
}

#[test]
fn same_seed_same_run() {
    let run = |seed| {
        let mut d = AllocDemo::new();
        d.reset(seed);
        for _ in 0..60 {
            d.step(&lore_render::Input::default());
        }
        d.stats()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}
