//! Fixed query workloads for instruction counts (callgrind), not a timing bench:
//! `valgrind --tool=callgrind target/release/broadphase_queries MODE [ROUNDS]`, the cost of one
//! query being the difference of two runs (ROUNDS 20 and 0) over 20 × 1,000 queries.
//!
//! - `tree`, `grid`, `parry`: the first-hit rays of the `broadphase` bench's `ray25k-1000rays`
//!   group (24,964 unit tiles on a 1.25 pitch, 1,000 rays of length 50 from seed 5), by lore's
//!   tree, lore's grid or parry2d's `Bvh`;
//! - `tree-knn`, `grid-knn`, `rstar-knn`: the 10 nearest boxes of its `nearest` group (the
//!   25,000 boxes of `Scene::new(25_000, 7)`, 1,000 points from seed 11), by lore's tree,
//!   lore's grid or rstar's `nearest_neighbor_iter`.
//!
//! Each prints a checksum (the hits and the sum of their `t`, or the answers), the same for the
//! modes of one workload (their answers are checked against the tree's first), so the work
//! cannot be optimised away.

use lore_benches::broadphase_scene::Scene;
use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Grid, Ray, SpatialIndex, Tree};
use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::Vector as PVec;
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use parry2d::query::{Ray as PRay, RayCast};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{PointDistance, RTree};

const K: usize = 10;

fn to_p(a: &Aabb) -> PAabb {
    PAabb::new(PVec::new(a.min().x, a.min().y), PVec::new(a.max().x, a.max().y))
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "tree".into());
    let rounds: usize = std::env::args().nth(2).map_or(20, |r| r.parse().expect("ROUNDS: a count"));
    if mode.ends_with("-knn") {
        return knn(&mode, rounds);
    }
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
        other => panic!("unknown mode {other:?}: tree, grid, parry, tree-knn, grid-knn or rstar-knn"),
    }
    println!("{mode}: {hits} hits, sum of t {sum:.3}");
}

/// The k-nearest workload.
fn knn(mode: &str, rounds: usize) {
    let s = Scene::new(25_000, 7);
    let mut rng = Pcg64::seed_from_u64(11);
    let points: Vec<Vec2> =
        (0..1000).map(|_| vec2(rng.random_range(0.0..s.side), rng.random_range(0.0..s.side))).collect();
    let mut tree = Tree::new();
    for i in 0..s.centers.len() {
        tree.insert(s.aabb(i)).unwrap();
    }
    tree.rebuild();
    let mut out = Vec::new();
    let want: Vec<Vec<f32>> = points
        .iter()
        .map(|&p| {
            tree.k_nearest(p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
            out.iter().map(|n| n.distance_squared).collect()
        })
        .collect();
    // (Answers counted, as the criterion bench does: they were checked above.)
    let mut found = 0usize;
    match mode {
        "tree-knn" => {
            for _ in 0..rounds {
                for &p in &points {
                    tree.k_nearest(p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
                    found += out.len();
                }
            }
        }
        "grid-knn" => {
            let area = Aabb::new(vec2(-2.0, -2.0), Vec2::splat(s.side + 2.0)).unwrap();
            let mut grid = Grid::covering(area, 4.0).unwrap();
            for i in 0..s.centers.len() {
                grid.insert(s.aabb(i)).unwrap();
            }
            for (&p, w) in points.iter().zip(&want) {
                SpatialIndex::k_nearest(&mut grid, p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
                assert_eq!(&out.iter().map(|n| n.distance_squared).collect::<Vec<_>>(), w, "grid");
            }
            for _ in 0..rounds {
                for &p in &points {
                    SpatialIndex::k_nearest(&mut grid, p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
                    found += out.len();
                }
            }
        }
        "rstar-knn" => {
            let rtree = RTree::bulk_load(
                (0..s.centers.len())
                    .map(|i| {
                        let (lo, hi) = (s.centers[i] - s.halves[i], s.centers[i] + s.halves[i]);
                        GeomWithData::new(Rectangle::from_corners([lo.x, lo.y], [hi.x, hi.y]), i as u32)
                    })
                    .collect(),
            );
            let k = |p: Vec2| -> Vec<f32> {
                rtree.nearest_neighbor_iter([p.x, p.y]).take(K).map(|r| r.geom().distance_2(&[p.x, p.y])).collect()
            };
            for (&p, w) in points.iter().zip(&want) {
                let theirs = k(p);
                assert!(
                    w.iter().zip(&theirs).all(|(a, b)| (a - b).abs() <= 1e-3 * (1.0 + b)),
                    "rstar {w:?} {theirs:?}"
                );
            }
            for _ in 0..rounds {
                for &p in &points {
                    found += rtree.nearest_neighbor_iter([p.x, p.y]).take(K).count();
                }
            }
        }
        other => panic!("unknown mode {other:?}"),
    }
    println!("{mode}: {found} answers");
}
