//! `resolve_aabb` (smooth) pressed hard into tile seams: a box walking over a row of tiles and
//! along a wall of tiles, landing at every press angle from 5° to 85°, edges exactly on seams,
//! near the origin and at (8200, 8200). Snag: as in `box_seams.rs`.

use glam::{Vec2, vec2};
use lore_collide2d::{Aabb, AabbMode, resolve_aabb};

/// Walks a box of half extents `h` along a floor (`wall == false`: tiles below y = origin.y) or
/// a wall (tiles right of x = origin.x) pressed at `press` degrees; returns (steps, snags, inside).
#[allow(clippy::too_many_arguments)]
fn walk(
    origin: Vec2,
    h: Vec2,
    tile: f32,
    speed: f32,
    press: f32,
    dir: f32,
    wall: bool,
    steps: usize,
) -> (u64, u64, u64) {
    let tiles: Vec<Aabb> = (-400..400)
        .map(|i| {
            let a = i as f32 * tile;
            if wall {
                Aabb::covering(origin + vec2(0.0, a), origin + vec2(tile, a + tile))
            } else {
                Aabb::covering(origin + vec2(a, -tile), origin + vec2(a + tile, 0.0))
            }
        })
        .collect();
    let (u, n) = if wall { (vec2(0.0, 1.0), vec2(-1.0, 0.0)) } else { (vec2(1.0, 0.0), vec2(0.0, 1.0)) };
    let v = speed * h.min_element();
    let (s, c) = press.to_radians().sin_cos();
    let m = u * (dir * v * c) - n * (v * s);
    // Resting on the surface with an edge exactly on a seam.
    let support = if wall { h.x } else { h.y };
    let mut b = Aabb::from_center(origin + n * support + u * (h.x.max(h.y) - tile * 0.0), h).unwrap();
    let (mut total, mut snags, mut inside) = (0, 0, 0);
    for i in 0..steps {
        let near: Vec<Aabb> = tiles.iter().filter(|t| t.overlaps(&b.grown(2.0 * v + 1.0))).copied().collect();
        let out = resolve_aabb(&b, m, &near, AabbMode::Smooth).unwrap();
        let q = out.aabb;
        if i >= 3 {
            total += 1;
            snags += u64::from((q.center() - b.center()).dot(u * dir) < 0.5 * v * c);
            inside += u64::from(near.iter().any(|t| t.interiors_overlap(&q)));
        }
        b = q;
    }
    (total, snags, inside)
}

#[test]
fn resolve_aabb_pressed_into_tile_seams_never_snags() {
    let mut worst = (0u64, String::new());
    let mut sum = (0u64, 0u64, 0u64);
    for origin in [Vec2::ZERO, vec2(8200.0, 8200.0)] {
        for h in [vec2(0.1, 0.1), vec2(1.0, 1.0), vec2(1.0, 0.25), vec2(0.25, 1.0), vec2(10.0, 10.0)] {
            for tile in [1.0f32, 0.25] {
                for speed in [0.05f32, 0.3, 1.0] {
                    for press in [5.0f32, 30.0, 45.0, 60.0, 85.0] {
                        for dir in [1.0f32, -1.0] {
                            for wall in [false, true] {
                                // Inside the documented domain: at least 2 spacings along per step.
                                let along = speed * h.min_element() * press.to_radians().cos();
                                if along < 2.0 * origin.x.abs().max(1.0) * f32::EPSILON {
                                    continue;
                                }
                                let r = walk(origin, h, tile, speed, press, dir, wall, 40);
                                sum = (sum.0 + r.0, sum.1 + r.1, sum.2 + r.2);
                                if r.1 + r.2 > worst.0 {
                                    worst = (
                                        r.1 + r.2,
                                        format!(
                                            "{origin} {h} tile {tile} speed {speed} press {press} dir {dir} wall {wall}: {r:?}"
                                        ),
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!("resolve_aabb: steps {}, snags {}, inside {}; worst {}", sum.0, sum.1, sum.2, worst.1);
    assert_eq!((sum.1, sum.2), (0, 0), "worst: {}", worst.1);
}
