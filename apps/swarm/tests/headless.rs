//! Renders the swarm demo headless after 120 steps on the grid and checks the picture: the
//! heat map's cells (low and high counts), resting and touching bodies, the ray and its first
//! hit, each where the demo's state says they are.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe); `Headless::new` fails with a message naming it otherwise.

use lore_render::glam::{Vec2, vec2};
use lore_render::headless::{Frame, Headless, close};
use lore_render::{Color, Demo};
use lore_swarm::{FIRST_HIT, IndexKind, RAY, RESTING, SwarmDemo, TOUCHING, WORLD, heat_color};

/// Pixels matching `pred` in the world rectangle `lo..hi`.
fn count(frame: &Frame, demo: &SwarmDemo, lo: Vec2, hi: Vec2, pred: impl Fn(Color) -> bool) -> usize {
    let camera = demo.camera();
    let viewport = vec2(frame.width as f32, frame.height as f32);
    let a = camera.world_to_screen(vec2(lo.x, hi.y), viewport);
    let b = camera.world_to_screen(vec2(hi.x, lo.y), viewport);
    frame.count_in(a.x.max(0.0) as u32, a.y.max(0.0) as u32, b.x as u32, b.y as u32, pred)
}

#[test]
fn picture_shows_heat_map_bodies_and_ray() {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = SwarmDemo::new();
    let frame = headless.run(&mut demo, 0, 120).expect("frame read back");
    let _ = frame.save_png(std::path::Path::new(concat!(env!("CARGO_TARGET_TMPDIR"), "/swarm.png")));
    assert_eq!(demo.kind(), IndexKind::Grid);
    let (lo, hi) = WORLD;

    // Heat map: sparse cells (one proxy) are common, crowded cells (three or more) exist.
    let low = count(&frame, &demo, lo, hi, |c| close(c, heat_color(1), 6));
    assert!(low > 20_000, "one-proxy cells: {low} px");
    let high = count(&frame, &demo, lo, hi, |c| (3..=8).any(|k| close(c, heat_color(k), 4)));
    eprintln!("heat: {low} px of one-proxy cells, {high} px of cells with 3+");
    assert!(high > 300, "crowded cells: {high} px");
    // Nothing of the heat map outside the world.
    let outside = count(&frame, &demo, vec2(lo.x - 2.0, lo.y), vec2(lo.x - 0.5, hi.y), |c| close(c, heat_color(1), 6));
    assert_eq!(outside, 0);

    // Bodies: most rest, some touch; a touching body shows its colour at its centre.
    let resting = count(&frame, &demo, lo, hi, |c| close(c, RESTING, 8));
    let touching = count(&frame, &demo, lo, hi, |c| close(c, TOUCHING, 8));
    eprintln!("bodies: {resting} px resting, {touching} px touching");
    assert!(resting > 20_000 && touching > 3_000, "resting {resting} px, touching {touching} px");
    let (i, b) = demo
        .bodies()
        .iter()
        .enumerate()
        .find(|(i, b)| demo.is_touching(*i) && b.aabb().size().min_element() > 1.2)
        .expect("a touching body of some size");
    let c = b.pos;
    let at = count(&frame, &demo, c - 0.3, c + 0.3, |p| close(p, TOUCHING, 8));
    assert!(at > 4, "body {i} at {c}: {at} px of its colour");

    // The ray and its first hit.
    let (ray, first, hits) = demo.ray();
    let ray = ray.expect("a ray is cast every step");
    let mid = ray.at(0.5 * ray.max_t().min(first.map_or(f32::INFINITY, |h| h.t)));
    assert!(count(&frame, &demo, mid - 1.0, mid + 1.0, |p| close(p, RAY, 10)) > 3, "ray near {mid}");
    let first = first.expect("the ray crosses the swarm");
    assert!(!hits.is_empty() && hits[0] == first);
    let p = ray.at(first.t);
    let red = count(&frame, &demo, p - 0.6, p + 0.6, |c| close(c, FIRST_HIT, 10));
    assert!(red > 30, "first hit at {p}: {red} px");
}
