//! A fixed first-hit ray workload for instruction counts (callgrind), not a timing bench: the
//! scene and rays of the `broadphase` bench's `ray25k-1000rays` group (24,964 unit tiles on a
//! 1.25 pitch, 1,000 rays of length 50 from seed 5), cast ROUNDS times (default 20) by one
//! index: `valgrind --tool=callgrind target/release/broadphase_rays MODE [ROUNDS]` with MODE
//! `tree`, `grid` or `parry` (parry2d's `Bvh`). The cost of one ray is the difference of two
//! runs (ROUNDS 20 and 0) over 20,000 rays. Prints how many rays hit and the sum of their `t`, the same for
//! every mode (checked against the tree's answers first), so the work cannot be optimised away.

use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Grid, Ray, SpatialIndex, Tree};
use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::Vector as PVec;
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use parry2d::query::{Ray as PRay, RayCast};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

fn to_p(a: &Aabb) -> PAabb {
    PAabb::new(PVec::new(a.min().x, a.min().y), PVec::new(a.max().x, a.max().y))
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "tree".into());
    let rounds: usize = std::env::args().nth(2).map_or(20, |r| r.parse().expect("ROUNDS: a count"));
    let n_side = 158;
    let side = n_side as f32 * 1.25;
    let mut tiles = Vec::with_capacity(n_side * n_side);
    for y in 0..n_side {
        for x in 0..n_side {
            let min = vec2(x as f32, y as f32) * 1.25;
            tiles.push(Aabb::new(min, min + Vec2::ONE).unwrap());
        }
    }
    let mut rng = Pcg64::seed_from_u64(5);
    let rays: Vec<Ray> = (0..1000)
        .map(|_| {
            let o = vec2(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let d = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            Ray::new(o, d, 50.0).unwrap()
        })
        .collect();
    let mut tree = Tree::with_margin(0.0).unwrap();
    for t in &tiles {
        tree.insert(*t).unwrap();
    }
    tree.rebuild();
    let want: Vec<Option<f32>> = rays.iter().map(|r| tree.raycast(r, &mut |_| true).0.map(|h| h.t)).collect();
    let (mut hits, mut sum) = (0usize, 0f64);
    match mode.as_str() {
        "tree" => {
            for _ in 0..rounds {
                for r in &rays {
                    if let Some(h) = tree.raycast(r, &mut |_| true).0 {
                        hits += 1;
                        sum += f64::from(h.t);
                    }
                }
            }
        }
        "grid" => {
            let mut grid = Grid::covering(Aabb::new(Vec2::ZERO, Vec2::splat(side)).unwrap(), 1.25).unwrap();
            for t in &tiles {
                grid.insert(*t).unwrap();
            }
            for (r, w) in rays.iter().zip(&want) {
                assert_eq!(grid.raycast(r, &mut |_| true).0.map(|h| h.t), *w);
            }
            for _ in 0..rounds {
                for r in &rays {
                    if let Some(h) = grid.raycast(r, &mut |_| true).0 {
                        hits += 1;
                        sum += f64::from(h.t);
                    }
                }
            }
        }
        "parry" => {
            let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &tiles.iter().map(to_p).collect::<Vec<_>>());
            let cast = |r: &Ray| {
                let pr = PRay::new(PVec::new(r.origin().x, r.origin().y), PVec::new(r.dir().x, r.dir().y));
                bvh.cast_ray(&pr, r.max_t(), |leaf, best| to_p(&tiles[leaf as usize]).cast_local_ray(&pr, best, true))
            };
            for (r, w) in rays.iter().zip(&want) {
                let p = cast(r).map(|(_, t)| t);
                assert_eq!(p.is_some(), w.is_some());
                if let (Some(p), Some(w)) = (p, w) {
                    assert!((p - w).abs() < 1e-3, "parry {p}, tree {w}");
                }
            }
            for _ in 0..rounds {
                for r in &rays {
                    if let Some((_, t)) = cast(r) {
                        hits += 1;
                        sum += f64::from(t);
                    }
                }
            }
        }
        other => panic!("unknown mode {other:?}: tree, grid or parry"),
    }
    println!("{mode}: {hits} hits, sum of t {sum:.3}");
}
