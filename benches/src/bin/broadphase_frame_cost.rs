//! Replays the benchmark scenes frame by frame, for instruction counts under valgrind
//! (load-independent, unlike wall-clock timings on a shared machine).
//!
//! `cargo run --release -p lore-benches --bin broadphase_frame_cost -- <scene> <index> <frames>`
//!
//! - scene `static`: 100k unit tiles on a 1.25 lattice plus 1k movers, `World::pairs`;
//!   scene `static-offset`: the same with the static grid's origin off the tile lattice (as
//!   the bench's `lore-world-grid-offset`: each tile in 4 cells);
//!   scene `static-tree`: the same with the tiles in a bulk-built `Tree` of margin 0;
//!   scene `movers`: the static scene's movers alone (no tiles);
//!   scene `moving1k`, `moving10k`, `moving100k`: boxes of half extent 0.5–2.0 at about 2.6
//!   overlaps per box, all moving, update + `pairs`; scene `mixed10k`: the bench's mixed-size
//!   scene (10k moving boxes, one in 200 with half extents 10–40).
//! - index (movers' index): `grid` (cell 4), `grid2.5`, `grid1.25`, `hash`, `tree`, `sweep`;
//!   `tree-reinsert` is a `Tree` that reinserts every leaf leaving its fat box (reinsert share
//!   1), `tree-refit` one that refits every such leaf in place (share 0), `tree-share=0.01` one
//!   with the given reinsert share, `tree-margin=0.05` a default `Tree` with the given margin.
//! - a further argument `unsorted` makes the moving scenes (and the movers alone) call
//!   `pairs_unsorted` instead of `pairs`; `threads=N` runs `pairs` on N threads (the crate's
//!   `parallel` feature; default 1, `threads=all` for every core), e.g.
//!   `broadphase_frame_cost moving100k grid 20 threads=2`; `batch` moves the boxes with one
//!   `update_many` call a frame (the boxes gathered first) instead of one `update` per box,
//!   `batch-with` with one `update_many_with` (the index makes each box from the scene's
//!   center and half extents, on its threads); `alternate` (moving scenes) alternates one
//!   thread and `threads=N` frame by frame in one process and prints the ratio of their mean
//!   frame times, e.g. `broadphase_frame_cost moving100k grid 600 threads=2 batch-with alternate`.
//! - scene `rays`: the bench's first-hit rays, 1,000 a frame, against 25k tiles in a `grid`
//!   (cell 1.25), `hash` or `tree`.
//! - scene `quality1k`, `quality10k` (index ignored): the moving scene with a default `Tree`
//!   for `frames` frames, printing every 50th frame the tree's SAH cost, the cost of a fresh
//!   bulk build of the same boxes, the nodes the pair search visited in both, and how many
//!   automatic rebuilds the refit has made so far.
//!
//! Instructions per frame: run it under `valgrind --tool=callgrind` with two frame counts and
//! divide the difference by the difference of the frame counts.

use lore_benches::broadphase_scene::Scene;
use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Axis, Grid, ProxyId, Ray, SpatialHash, SpatialIndex, Sweep, Tree, World};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Runs `frames` frames of the static scene with `movers` as the movers' index.
fn static_scene<M: SpatialIndex>(make: impl FnOnce(Aabb) -> M, frames: usize) -> usize {
    static_scene_of(|b| Grid::covering(b, 1.25).unwrap(), |_| {}, make, frames, 316)
}

/// The static scene with the static grid off the tile lattice (origin at -4, 0.8 of a cell
/// from a tile corner), as the bench's `lore-world-grid-offset`.
fn static_offset_scene<M: SpatialIndex>(make: impl FnOnce(Aabb) -> M, frames: usize) -> usize {
    let offset = |b: Aabb| Grid::covering(Aabb::new(vec2(-4.0, -4.0), b.max()).unwrap(), 1.25).unwrap();
    static_scene_of(offset, |_| {}, make, frames, 316)
}

/// The static scene with the tiles in a bulk-built `Tree` (margin 0), as the bench's
/// `lore-world-tree`.
fn static_tree_scene<M: SpatialIndex>(make: impl FnOnce(Aabb) -> M, frames: usize) -> usize {
    static_scene_of(|_| Tree::with_margin(0.0).unwrap(), Tree::rebuild, make, frames, 316)
}

/// The static scene's movers alone (no tiles): the movers' own share of a frame.
fn sparse_movers<M: SpatialIndex>(make: impl FnOnce(Aabb) -> M, frames: usize) -> usize {
    let side = 316.0 * 1.25;
    let mut s = Scene::new(1000, 11);
    for p in &mut s.centers {
        *p = *p / s.side * side;
    }
    s.side = side;
    let mut index = make(Aabb::new(vec2(-5.0, -5.0), Vec2::splat(side + 4.0)).unwrap());
    run_frames(&mut index, &mut s, frames)
}

/// Whether `run_frames` calls `pairs_unsorted` instead of `pairs` (a fourth argument `unsorted`).
static UNSORTED: AtomicBool = AtomicBool::new(false);

/// How `run_frames` moves the boxes: 0, `update` per box; 1, one `update_many` (a further
/// argument `batch`); 2, one `update_many_with` (`batch-with`).
static BATCH: AtomicUsize = AtomicUsize::new(0);

/// The thread count of the index's `pairs` (a further argument `threads=N`; 1 by default).
static THREADS: AtomicUsize = AtomicUsize::new(1);

/// Whether the moving scenes alternate one thread and `THREADS` threads frame by frame (a
/// further argument `alternate`), timing both in one process so that the host's slow drifts
/// fall on both alike.
static ALTERNATE: AtomicBool = AtomicBool::new(false);

/// Update + `pairs` (or `pairs_unsorted`), `frames` times.
fn run_frames<I: SpatialIndex>(index: &mut I, s: &mut Scene, frames: usize) -> usize {
    index.set_threads(THREADS.load(Ordering::Relaxed)).unwrap();
    let ids: Vec<ProxyId> = (0..s.centers.len()).map(|i| index.insert(s.aabb(i)).unwrap()).collect();
    let mut pairs = Vec::new();
    index.pairs(&mut pairs);
    let mut total = 0;
    let mut times = Vec::with_capacity(frames);
    let (alternate, threads) = (ALTERNATE.load(Ordering::Relaxed), THREADS.load(Ordering::Relaxed));
    let mut one_thread = Vec::with_capacity(frames);
    let batch = BATCH.load(Ordering::Relaxed);
    let mut boxes = Vec::with_capacity(ids.len());
    for frame in 0..frames {
        let single = alternate && frame % 2 == 0;
        if alternate {
            index.set_threads(if single { 1 } else { threads }).unwrap();
        }
        let t = Instant::now();
        s.step();
        if batch == 1 {
            boxes.clear();
            boxes.extend((0..ids.len()).map(|i| s.aabb(i)));
            index.update_many(&ids, &boxes).unwrap();
        } else if batch == 2 {
            index.update_many_with(&ids, &|i| s.aabb(i)).unwrap();
        } else {
            for (i, &id) in ids.iter().enumerate() {
                index.update(id, s.aabb(i)).unwrap();
            }
        }
        if UNSORTED.load(Ordering::Relaxed) {
            index.pairs_unsorted(&mut pairs);
        } else {
            index.pairs(&mut pairs);
        }
        if single {
            one_thread.push(t.elapsed())
        } else {
            times.push(t.elapsed())
        }
        total += pairs.len();
    }
    if alternate {
        // Per pair of neighbouring frames (one thread, then `threads`): the ratio of their times.
        let mut ratios: Vec<f64> =
            one_thread.iter().zip(&times).map(|(a, b)| a.as_secs_f64() / b.as_secs_f64()).collect();
        ratios.sort_unstable_by(f64::total_cmp);
        let mean = |v: &[Duration]| v.iter().sum::<Duration>().as_secs_f64() / v.len().max(1) as f64;
        eprint!("1 thread, ");
        report(&mut one_thread);
        eprint!("{threads} threads, ");
        println!(
            "alternate frames: mean time ratio {:.3}, median of neighbouring frames' ratios {:.3}",
            mean(&one_thread) / mean(&times),
            ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN)
        );
    }
    report(&mut times);
    total
}

fn static_scene_of<S: SpatialIndex, M: SpatialIndex>(
    make_static: impl FnOnce(Aabb) -> S,
    prepare_static: impl FnOnce(&mut S),
    make: impl FnOnce(Aabb) -> M,
    frames: usize,
    tiles: usize,
) -> usize {
    let n_side = 316;
    let side = n_side as f32 * 1.25;
    let mut s = Scene::new(1000, 11);
    for p in &mut s.centers {
        *p = *p / s.side * side;
    }
    s.side = side;
    let bounds = Aabb::new(vec2(-5.0, -5.0), Vec2::splat(side + 4.0)).unwrap();
    let mut statics = make_static(bounds);
    for y in 0..tiles {
        for x in 0..tiles {
            let min = vec2(x as f32, y as f32) * 1.25;
            statics.insert(Aabb::new(min, min + Vec2::ONE).unwrap()).unwrap();
        }
    }
    prepare_static(&mut statics);
    let mut w = World::new(statics, make(bounds));
    w.set_threads(THREADS.load(Ordering::Relaxed)).unwrap();
    let ids: Vec<ProxyId> = (0..1000).map(|i| w.movers_mut().insert(s.aabb(i)).unwrap()).collect();
    let (mut mm, mut ms) = (Vec::new(), Vec::new());
    w.pairs(&mut mm, &mut ms);
    let mut total = 0;
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        s.step();
        for (i, &id) in ids.iter().enumerate() {
            w.movers_mut().update(id, s.aabb(i)).unwrap();
        }
        w.pairs(&mut mm, &mut ms);
        times.push(t.elapsed());
        total += mm.len() + ms.len();
    }
    report(&mut times);
    total
}

/// Runs `frames` frames of the moving scene of `n` boxes.
fn moving_scene<I: SpatialIndex>(make: impl FnOnce(Aabb) -> I, n: usize, frames: usize) -> usize {
    moving_scene_of(make, Scene::new(n, 7), frames)
}

/// The bench's mixed-size scene: the moving scene of 10k boxes with one box in 200 made huge.
fn mixed_scene<I: SpatialIndex>(make: impl FnOnce(Aabb) -> I, frames: usize) -> usize {
    moving_scene_of(make, Scene::mixed(10_000, 7), frames)
}

fn moving_scene_of<I: SpatialIndex>(make: impl FnOnce(Aabb) -> I, mut s: Scene, frames: usize) -> usize {
    let area = Aabb::new(vec2(-2.0, -2.0), Vec2::splat(s.side + 2.0)).unwrap();
    let mut index = make(area);
    run_frames(&mut index, &mut s, frames)
}

/// Prints the fastest and the median frame time (wall clock: noisy on a shared machine).
fn report(times: &mut [Duration]) {
    times.sort_unstable();
    if let (Some(min), Some(med)) = (times.first(), times.get(times.len() / 2)) {
        let mean = times.iter().sum::<Duration>().as_secs_f64() / times.len() as f64;
        eprintln!(
            "frame time: min {:.1} µs, median {:.1} µs, mean {:.1} µs",
            min.as_secs_f64() * 1e6,
            med.as_secs_f64() * 1e6,
            mean * 1e6
        );
    }
}

macro_rules! with_index {
    ($kind:expr, $run:ident ( $($arg:expr),* )) => {
        match $kind {
            "grid" => $run(|a| Grid::covering(a, 4.0).unwrap() $(, $arg)*),
            "grid2.5" => $run(|a| Grid::covering(a, 2.5).unwrap() $(, $arg)*),
            "grid1.25" => $run(|a| Grid::covering(a, 1.25).unwrap() $(, $arg)*),
            "hash" => $run(|_| SpatialHash::new(2.5).unwrap() $(, $arg)*),
            "tree" => $run(|_| Tree::new() $(, $arg)*),
            "tree-reinsert" => $run(|_| tree_with_share(1.0) $(, $arg)*),
            "tree-refit" => $run(|_| tree_with_share(0.0) $(, $arg)*),
            other if other.starts_with("tree-share=") => {
                let share: f32 = other["tree-share=".len()..].parse().unwrap();
                $run(|_| tree_with_share(share) $(, $arg)*)
            }
            other if other.starts_with("tree-margin=") => {
                let margin: f32 = other["tree-margin=".len()..].parse().unwrap();
                $run(|_| Tree::with_margin(margin).unwrap() $(, $arg)*)
            }
            "sweep" => $run(|_| Sweep::new(Axis::X) $(, $arg)*),
            other => panic!("unknown index {other}"),
        }
    };
}

fn tree_with_share(share: f32) -> Tree {
    let mut t = Tree::new();
    t.set_reinsert_share(share).unwrap();
    t
}

/// The moving scene of `n` boxes in a default `Tree`, printing its quality every 50 frames.
fn tree_quality(n: usize, frames: usize) -> usize {
    let mut s = Scene::new(n, 7);
    let mut tree = Tree::new();
    tree.set_threads(THREADS.load(Ordering::Relaxed)).unwrap();
    let ids: Vec<ProxyId> = (0..n).map(|i| tree.insert(s.aabb(i)).unwrap()).collect();
    let mut pairs = Vec::new();
    let mut total = 0;
    println!("frame  sah_cost  fresh_build_cost  pair_nodes_visited  fresh_visited  auto_rebuilds");
    for frame in 1..=frames {
        s.step();
        for (i, &id) in ids.iter().enumerate() {
            tree.update(id, s.aabb(i)).unwrap();
        }
        let stats = tree.pairs(&mut pairs);
        total += pairs.len();
        if frame % 50 == 0 || frame == 1 {
            let mut fresh = tree.clone();
            fresh.rebuild();
            let fresh_stats = fresh.pairs(&mut Vec::new());
            println!(
                "{frame:5}  {:8.1}  {:16.1}  {:18}  {:13}  {:13}",
                tree.sah_cost(),
                fresh.sah_cost(),
                stats.visited,
                fresh_stats.visited,
                tree.auto_rebuilds()
            );
        }
    }
    total
}

/// The bench's ray scene: 158 × 158 unit tiles on a 1.25 lattice in a grid of cell 1.25 (or a
/// hash of the same cell, or a bulk-built `Tree` of margin 0), 1,000 rays of length 50 from
/// random points in random directions; a "frame" is the 1,000 first-hit raycasts. Returns the
/// number of hits.
fn ray_scene(kind: &str, frames: usize) -> usize {
    let side = 158.0 * 1.25;
    match kind {
        "grid" => {
            rays_in(Grid::covering(Aabb::new(Vec2::ZERO, Vec2::splat(side)).unwrap(), 1.25).unwrap(), |_| {}, frames)
        }
        "hash" => rays_in(SpatialHash::new(1.25).unwrap(), |_| {}, frames),
        "tree" => rays_in(Tree::with_margin(0.0).unwrap(), Tree::rebuild, frames),
        other => panic!("no ray scene for {other}"),
    }
}

fn rays_in<I: SpatialIndex>(mut index: I, prepare: impl FnOnce(&mut I), frames: usize) -> usize {
    let side = 158.0 * 1.25;
    for y in 0..158 {
        for x in 0..158 {
            let min = vec2(x as f32, y as f32) * 1.25;
            index.insert(Aabb::new(min, min + Vec2::ONE).unwrap()).unwrap();
        }
    }
    prepare(&mut index);
    let mut rng = Pcg64::seed_from_u64(5);
    let rays: Vec<Ray> = (0..1000)
        .map(|_| {
            let o = vec2(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let d = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            Ray::new(o, d, 50.0).unwrap()
        })
        .collect();
    index.raycast(&rays[0], &mut |_| true);
    let mut total = 0;
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        total += rays.iter().filter(|r| index.raycast(r, &mut |_| true).0.is_some()).count();
        times.push(t.elapsed());
    }
    report(&mut times);
    total
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene = args.get(1).map_or("static", String::as_str);
    let kind = args.get(2).map_or("grid", String::as_str);
    let frames: usize = args.get(3).map_or(10, |f| f.parse().unwrap());
    for arg in args.iter().skip(4) {
        match arg.as_str() {
            "unsorted" => UNSORTED.store(true, Ordering::Relaxed),
            "batch" => BATCH.store(1, Ordering::Relaxed),
            "batch-with" => BATCH.store(2, Ordering::Relaxed),
            "alternate" => ALTERNATE.store(true, Ordering::Relaxed),
            "threads=all" => {
                THREADS.store(std::thread::available_parallelism().map_or(1, usize::from), Ordering::Relaxed);
            }
            other if other.starts_with("threads=") => {
                THREADS.store(other["threads=".len()..].parse().expect("threads=N"), Ordering::Relaxed);
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let total = match scene {
        "static" => with_index!(kind, static_scene(frames)),
        "static-offset" => with_index!(kind, static_offset_scene(frames)),
        "static-tree" => with_index!(kind, static_tree_scene(frames)),
        "movers" => with_index!(kind, sparse_movers(frames)),
        "moving1k" => with_index!(kind, moving_scene(1_000, frames)),
        "moving10k" => with_index!(kind, moving_scene(10_000, frames)),
        "moving100k" => with_index!(kind, moving_scene(100_000, frames)),
        "mixed10k" => with_index!(kind, mixed_scene(frames)),
        "quality1k" => tree_quality(1_000, frames),
        "quality10k" => tree_quality(10_000, frames),
        "rays" => ray_scene(kind, frames),
        other => panic!("unknown scene {other}"),
    };
    let threads = THREADS.load(Ordering::Relaxed);
    println!("{scene} {kind} {frames} frames, {threads} threads: {} pairs in all", black_box(total));
}
