//! lore-broadphase against parry2d's `Bvh` (rapier's broad phase) and rstar, on the same data.
//!
//! Scenes (f32, one core): boxes of half extent 0.5–2.0 in a square world sized for about 2.8
//! overlaps per box, every box moving every frame (time = update of every box + the full pair
//! set); 100k static tiles + 1k movers (time = moving×moving + moving×static pairs); first-hit
//! rays against 25k tiles; the moving scene's boxes gathered into Gaussian blobs ("clustered")
//! and with one box in 200 made huge ("mixed"), 10k boxes each. The pair sets (and ray hits) of every contender are checked equal
//! before anything is timed.
//!
//! The `parallel-moving` cases run the moving scene's grid and tree on one thread and on every
//! core (the crate's `parallel` feature, on in this package; every other lore case is set to
//! one thread), with parry2d in the same run.
//!
//! Run: `cargo bench -p lore-benches --bench broadphase` (only the thread comparison:
//! `cargo bench -p lore-benches --bench broadphase -- parallel-moving`)

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lore_benches::broadphase_scene::Scene;
use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Axis, Grid, ProxyId, Ray, SpatialHash, SpatialIndex, Sweep, Tree, World};
use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::Vector as PVec;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry2d::query::{Ray as PRay, RayCast};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB as RAabb, PointDistance, RTree, SelectionFunction};
use std::hint::black_box;
use std::time::Duration;

/// The peers' boxes for the shared scene.
trait PeerBoxes {
    fn paabb(&self, i: usize) -> PAabb;
    fn rect(&self, i: usize) -> GeomWithData<Rectangle<[f32; 2]>, u32>;
}

impl PeerBoxes for Scene {
    fn paabb(&self, i: usize) -> PAabb {
        let (lo, hi) = (self.centers[i] - self.halves[i], self.centers[i] + self.halves[i]);
        PAabb::new(PVec::new(lo.x, lo.y), PVec::new(hi.x, hi.y))
    }

    fn rect(&self, i: usize) -> GeomWithData<Rectangle<[f32; 2]>, u32> {
        let (lo, hi) = (self.centers[i] - self.halves[i], self.centers[i] + self.halves[i]);
        GeomWithData::new(Rectangle::from_corners([lo.x, lo.y], [hi.x, hi.y]), i as u32)
    }
}

/// A lore index fed by the scene.
struct Lore<I: SpatialIndex> {
    index: I,
    ids: Vec<ProxyId>,
    pairs: Vec<(ProxyId, ProxyId)>,
    /// Whether the frame asks for the pairs in id order (`pairs`) or as found
    /// (`pairs_unsorted`).
    sorted: bool,
    /// Whether the frame moves the boxes with one `update_many_with` (the index makes each
    /// box, on its threads) instead of one `update` per box.
    batch: bool,
}

impl<I: SpatialIndex> Lore<I> {
    /// On one thread (the crate's `parallel` feature is on in this package, and an index's
    /// default is every core): the one-core figures stay one-core.
    fn new(index: I, scene: &Scene) -> Self {
        Self::on_threads(index, scene, 1)
    }

    fn on_threads(mut index: I, scene: &Scene, threads: usize) -> Self {
        index.set_threads(threads).unwrap();
        let ids = (0..scene.centers.len()).map(|i| index.insert(scene.aabb(i)).unwrap()).collect();
        Self { index, ids, pairs: Vec::new(), sorted: true, batch: false }
    }

    fn unsorted(self) -> Self {
        Self { sorted: false, ..self }
    }

    fn batch(self) -> Self {
        Self { batch: true, ..self }
    }

    fn frame(&mut self, scene: &Scene) -> usize {
        if self.batch {
            self.index.update_many_with(&self.ids, &|i| scene.aabb(i)).unwrap();
        } else {
            for (i, &id) in self.ids.iter().enumerate() {
                self.index.update(id, scene.aabb(i)).unwrap();
            }
        }
        if self.sorted {
            self.index.pairs(&mut self.pairs);
        } else {
            self.index.pairs_unsorted(&mut self.pairs);
        }
        self.pairs.len()
    }

    /// The pairs of the last frame as slot pairs, sorted.
    fn pair_set(&self) -> Vec<(u32, u32)> {
        sorted(self.pairs.iter().map(|(a, b)| (a.index(), b.index())).collect())
    }
}

/// parry2d's `Bvh` driven the way rapier drives it: partial updates, incremental
/// re-optimisation, refit, then the self-traversal for every overlapping leaf pair (the
/// tight boxes are tested again in the callback, as rapier's narrow phase would).
struct Parry {
    bvh: Bvh,
    ws: BvhWorkspace,
    pairs: Vec<(u32, u32)>,
}

impl Parry {
    fn new(scene: &Scene) -> Self {
        let leaves: Vec<PAabb> = (0..scene.centers.len()).map(|i| scene.paabb(i)).collect();
        Self {
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves),
            ws: BvhWorkspace::default(),
            pairs: Vec::new(),
        }
    }

    fn frame(&mut self, scene: &Scene) -> usize {
        for i in 0..scene.centers.len() {
            self.bvh.insert_or_update_partially(scene.paabb(i), i as u32, 0.0);
        }
        self.bvh.optimize_incremental(&mut self.ws);
        self.bvh.refit(&mut self.ws);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh.traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| {
            if scene.overlap(a as usize, b as usize) {
                pairs.push((a.min(b), a.max(b)));
            }
        });
        self.pairs.len()
    }
}

/// rstar rebuilt by bulk load each frame, then joined with itself.
fn rstar_frame(scene: &Scene, pairs: &mut Vec<(u32, u32)>) -> usize {
    let tree = RTree::bulk_load((0..scene.centers.len()).map(|i| scene.rect(i)).collect());
    pairs.clear();
    for (a, b) in tree.intersection_candidates_with_other_tree(&tree) {
        if a.data < b.data {
            pairs.push((a.data, b.data));
        }
    }
    pairs.len()
}

fn sorted(mut v: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    v.sort_unstable();
    v
}

fn config(c: &mut Criterion) -> criterion::BenchmarkGroup<'_, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group("broadphase");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    g
}

fn grid_for(scene: &Scene, cell: f32) -> Grid {
    let area = Aabb::new(vec2(-2.0, -2.0), Vec2::splat(scene.side + 2.0)).unwrap();
    Grid::covering(area, cell).unwrap()
}

/// Checks every contender's pair set on frame 1, then times each on the same frames.
fn bench_scene(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    scene: &str,
    label: &str,
    base: &Scene,
) {
    let n = base.centers.len();
    {
        let mut s = base.clone();
        s.step();
        let mut grid = Lore::new(grid_for(&s, 2.5), base);
        grid.frame(&s);
        let want = grid.pair_set();
        let mut hash = Lore::new(SpatialHash::new(2.5).unwrap(), base);
        hash.frame(&s);
        assert_eq!(hash.pair_set(), want, "hash");
        let mut tree = Lore::new(Tree::new(), base);
        tree.frame(&s);
        assert_eq!(tree.pair_set(), want, "tree");
        let mut unsorted = Lore::new(grid_for(&s, 4.0), base).unsorted();
        unsorted.frame(&s);
        assert_eq!(unsorted.pair_set(), want, "grid, unsorted");
        let mut sweep = Lore::new(Sweep::new(Axis::X), base);
        sweep.frame(&s);
        assert_eq!(sweep.pair_set(), want, "sweep");
        let mut parry = Parry::new(base);
        parry.frame(&s);
        assert_eq!(sorted(parry.pairs.clone()), want, "parry");
        let mut rp = Vec::new();
        rstar_frame(&s, &mut rp);
        assert_eq!(sorted(rp), want, "rstar");
        eprintln!("{scene} {n} boxes: {} pairs ({:.2} per box)", want.len(), 2.0 * want.len() as f64 / n as f64);
    }
    for cell in [2.5f32, 4.0] {
        let mut s = base.clone();
        let mut lore = Lore::new(grid_for(&s, cell), &s);
        g.bench_function(BenchmarkId::new(format!("{scene}/lore-grid-{cell}"), label), |b| {
            b.iter(|| {
                s.step();
                black_box(lore.frame(&s))
            })
        });
    }
    let mut s = base.clone();
    let mut lore = Lore::new(grid_for(&s, 4.0), &s).unsorted();
    g.bench_function(BenchmarkId::new(format!("{scene}/lore-grid-4-unsorted"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(lore.frame(&s))
        })
    });
    let mut s = base.clone();
    let mut lore = Lore::new(SpatialHash::new(2.5).unwrap(), &s);
    g.bench_function(BenchmarkId::new(format!("{scene}/lore-hash"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(lore.frame(&s))
        })
    });
    let mut s = base.clone();
    let mut lore = Lore::new(Tree::new(), &s);
    g.bench_function(BenchmarkId::new(format!("{scene}/lore-tree"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(lore.frame(&s))
        })
    });
    let mut s = base.clone();
    let mut lore = Lore::new(Sweep::new(Axis::X), &s);
    g.bench_function(BenchmarkId::new(format!("{scene}/lore-sweep"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(lore.frame(&s))
        })
    });
    let mut s = base.clone();
    let mut parry = Parry::new(&s);
    g.bench_function(BenchmarkId::new(format!("{scene}/parry2d-bvh"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(parry.frame(&s))
        })
    });
    let mut s = base.clone();
    let mut rp = Vec::new();
    g.bench_function(BenchmarkId::new(format!("{scene}/rstar"), label), |b| {
        b.iter(|| {
            s.step();
            black_box(rstar_frame(&s, &mut rp))
        })
    });
}

fn moving(c: &mut Criterion) {
    let mut g = config(c);
    for n in [1_000usize, 10_000, 100_000] {
        bench_scene(&mut g, "moving", &format!("{}k", n / 1000), &Scene::new(n, 7));
    }
    g.finish();
}

/// Clustered (Gaussian blobs) and mixed-size (one box in 200 huge) scenes, 10k boxes.
fn shapes(c: &mut Criterion) {
    let mut g = config(c);
    bench_scene(&mut g, "clustered", "10k", &Scene::clustered(10_000, 7));
    bench_scene(&mut g, "mixed", "10k", &Scene::mixed(10_000, 7));
    g.finish();
}

/// 100k unit tiles on a lattice of pitch 1.25, plus 1k movers among them.
fn tiles(n_side: usize) -> Vec<Aabb> {
    let mut v = Vec::with_capacity(n_side * n_side);
    for y in 0..n_side {
        for x in 0..n_side {
            let min = vec2(x as f32, y as f32) * 1.25;
            v.push(Aabb::new(min, min + Vec2::ONE).unwrap());
        }
    }
    v
}

fn to_p(a: &Aabb) -> PAabb {
    PAabb::new(PVec::new(a.min().x, a.min().y), PVec::new(a.max().x, a.max().y))
}

type Pairs = Vec<(ProxyId, ProxyId)>;

fn lore_frame<S: SpatialIndex, M: SpatialIndex>(
    w: &mut World<S, M>,
    ids: &[ProxyId],
    s: &Scene,
    mm: &mut Pairs,
    ms: &mut Pairs,
) -> usize {
    for (i, &id) in ids.iter().enumerate() {
        w.movers_mut().update(id, s.aabb(i)).unwrap();
    }
    w.pairs(mm, ms);
    mm.len() + ms.len()
}

/// Cell side of the static grid: the tile pitch.
const STATIC_CELL: f32 = 1.25;

fn static_world(c: &mut Criterion) {
    let mut g = config(c);
    let tiles = tiles(316);
    let side = 316.0 * 1.25;
    let mut base = Scene::new(1000, 11);
    for p in &mut base.centers {
        *p = *p / base.side * side;
    }
    base.side = side;
    let n_t = tiles.len() as u32;
    // The lower corner is a whole number of tile pitches from the tiles, so the static grid's
    // cell lines fall between tiles and each tile is listed in one cell. (At -4.0, a tile's
    // upper edges lie on cell lines, and since boxes are closed each tile lands in 4 cells:
    // the same pairs, more time: "lore-world-grid-offset" measures it.)
    let tile_bounds = Aabb::new(vec2(-5.0, -5.0), Vec2::splat(side + 4.0)).unwrap();
    let offset_bounds = Aabb::new(vec2(-4.0, -4.0), Vec2::splat(side + 4.0)).unwrap();

    let make_world_in = |s: &Scene, static_bounds: Aabb| {
        let mut w =
            World::new(Grid::covering(static_bounds, STATIC_CELL).unwrap(), Grid::covering(tile_bounds, 4.0).unwrap());
        w.set_threads(1).unwrap();
        for t in &tiles {
            w.statics_mut().insert(*t).unwrap();
        }
        let ids: Vec<ProxyId> = (0..s.centers.len()).map(|i| w.movers_mut().insert(s.aabb(i)).unwrap()).collect();
        (w, ids)
    };
    // The same static grid with the movers in a sweep instead of their own grid.
    let make_sweep_world = |s: &Scene| {
        let mut w = World::new(Grid::covering(tile_bounds, STATIC_CELL).unwrap(), Sweep::new(Axis::X));
        w.set_threads(1).unwrap();
        for t in &tiles {
            w.statics_mut().insert(*t).unwrap();
        }
        let ids: Vec<ProxyId> = (0..s.centers.len()).map(|i| w.movers_mut().insert(s.aabb(i)).unwrap()).collect();
        (w, ids)
    };
    let make_tree_world = |s: &Scene| {
        let mut w = World::new(Tree::with_margin(0.0).unwrap(), Grid::covering(tile_bounds, 4.0).unwrap());
        w.set_threads(1).unwrap();
        for t in &tiles {
            w.statics_mut().insert(*t).unwrap();
        }
        w.statics_mut().rebuild();
        let ids: Vec<ProxyId> = (0..s.centers.len()).map(|i| w.movers_mut().insert(s.aabb(i)).unwrap()).collect();
        (w, ids)
    };
    // parry: one tree holding tiles (leaves 0..n_t) and movers (n_t..); with change detection,
    // only pairs involving moved leaves are traversed, which is exactly moving×(moving+static).
    let make_parry = |s: &Scene| {
        let mut leaves: Vec<PAabb> = tiles.iter().map(to_p).collect();
        leaves.extend((0..s.centers.len()).map(|i| s.paabb(i)));
        (Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves), BvhWorkspace::default())
    };
    let parry_frame = |bvh: &mut Bvh, ws: &mut BvhWorkspace, s: &Scene, out: &mut Vec<(u32, u32)>| {
        for i in 0..s.centers.len() {
            // A tiny change-detection margin: every mover counts as changed each frame (they all
            // move), so the change-detecting traversal yields every pair involving a mover.
            bvh.insert_or_update_partially(s.paabb(i), n_t + i as u32, 1e-6);
        }
        bvh.refit(ws);
        out.clear();
        bvh.traverse_bvtt_single_tree::<true>(ws, &mut |a, b| {
            let (a, b) = (a.min(b), a.max(b));
            if b < n_t {
                return;
            }
            let bb = s.aabb((b - n_t) as usize);
            let ab = if a < n_t { tiles[a as usize] } else { s.aabb((a - n_t) as usize) };
            if ab.overlaps(&bb) {
                out.push((a, b));
            }
        });
        bvh.optimize_incremental(ws);
        out.len()
    };
    // rstar: static tree bulk-loaded once; movers bulk-loaded each frame, self-joined and
    // joined with the static tree.
    let static_rtree = RTree::bulk_load(
        tiles
            .iter()
            .enumerate()
            .map(|(i, t)| GeomWithData::new(Rectangle::from_corners(t.min().to_array(), t.max().to_array()), i as u32))
            .collect(),
    );
    let rstar_world = |s: &Scene, out: &mut Vec<(u32, u32)>| {
        let movers = RTree::bulk_load((0..s.centers.len()).map(|i| s.rect(i)).collect());
        out.clear();
        for (a, b) in movers.intersection_candidates_with_other_tree(&movers) {
            if a.data < b.data {
                out.push((n_t + a.data, n_t + b.data));
            }
        }
        for (m, t) in movers.intersection_candidates_with_other_tree(&static_rtree) {
            out.push((t.data, n_t + m.data));
        }
        out.len()
    };
    let as_global = |mm: &[(ProxyId, ProxyId)], ms: &[(ProxyId, ProxyId)]| {
        let mut v: Vec<(u32, u32)> = mm.iter().map(|(a, b)| (n_t + a.index(), n_t + b.index())).collect();
        v.extend(ms.iter().map(|(m, t)| (t.index(), n_t + m.index())));
        sorted(v)
    };
    {
        let mut s = base.clone();
        s.step();
        let (mut w, ids) = make_world_in(&base, tile_bounds);
        let (mut mm, mut ms) = (Vec::new(), Vec::new());
        lore_frame(&mut w, &ids, &s, &mut mm, &mut ms);
        let want = as_global(&mm, &ms);
        let (mut ow, oids) = make_world_in(&base, offset_bounds);
        lore_frame(&mut ow, &oids, &s, &mut mm, &mut ms);
        assert_eq!(as_global(&mm, &ms), want, "offset grid world");
        let (mut tw, tids) = make_tree_world(&base);
        lore_frame(&mut tw, &tids, &s, &mut mm, &mut ms);
        assert_eq!(as_global(&mm, &ms), want, "tree world");
        let (mut sw, sids) = make_sweep_world(&base);
        lore_frame(&mut sw, &sids, &s, &mut mm, &mut ms);
        assert_eq!(as_global(&mm, &ms), want, "sweep movers world");
        let (mut bvh, mut ws) = make_parry(&base);
        let mut out = Vec::new();
        parry_frame(&mut bvh, &mut ws, &s, &mut out);
        assert_eq!(sorted(out.clone()), want, "parry");
        rstar_world(&s, &mut out);
        assert_eq!(sorted(out.clone()), want, "rstar");
        eprintln!("static world: {} pairs", want.len());
    }
    let (mut mm, mut ms) = (Vec::new(), Vec::new());
    for (name, bounds) in [("lore-world-grid", tile_bounds), ("lore-world-grid-offset", offset_bounds)] {
        let mut s = base.clone();
        let (mut w, ids) = make_world_in(&s, bounds);
        w.pairs(&mut mm, &mut ms); // builds the static grid once, outside the timing
        g.bench_function(format!("static100k+1k/{name}"), |b| {
            b.iter(|| {
                s.step();
                black_box(lore_frame(&mut w, &ids, &s, &mut mm, &mut ms))
            })
        });
    }
    let mut s = base.clone();
    let (mut w, ids) = make_sweep_world(&s);
    w.pairs(&mut mm, &mut ms);
    g.bench_function("static100k+1k/lore-world-grid-sweep", |b| {
        b.iter(|| {
            s.step();
            black_box(lore_frame(&mut w, &ids, &s, &mut mm, &mut ms))
        })
    });
    let mut s = base.clone();
    let (mut w, ids) = make_tree_world(&s);
    g.bench_function("static100k+1k/lore-world-tree", |b| {
        b.iter(|| {
            s.step();
            black_box(lore_frame(&mut w, &ids, &s, &mut mm, &mut ms))
        })
    });
    let mut s = base.clone();
    let (mut bvh, mut ws) = make_parry(&s);
    let mut out = Vec::new();
    g.bench_function("static100k+1k/parry2d-bvh", |b| {
        b.iter(|| {
            s.step();
            black_box(parry_frame(&mut bvh, &mut ws, &s, &mut out))
        })
    });
    let mut s = base.clone();
    g.bench_function("static100k+1k/rstar", |b| {
        b.iter(|| {
            s.step();
            black_box(rstar_world(&s, &mut out))
        })
    });
    g.finish();
}

/// rstar has no ray cast: a selection function that opens envelopes the ray touches.
struct RaySel(Ray);

impl SelectionFunction<GeomWithData<Rectangle<[f32; 2]>, u32>> for RaySel {
    fn should_unpack_parent(&self, e: &RAabb<[f32; 2]>) -> bool {
        let a = Aabb::new(Vec2::from(e.lower()), Vec2::from(e.upper())).unwrap();
        a.ray_entry(&self.0).is_some()
    }
}

fn rays(c: &mut Criterion) {
    let mut g = config(c);
    let tiles = tiles(158); // 24,964 tiles
    let side = 158.0 * 1.25;
    let mut rng = Pcg64::seed_from_u64(5);
    let rays: Vec<Ray> = (0..1000)
        .map(|_| {
            let o = vec2(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let d = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            Ray::new(o, d, 50.0).unwrap()
        })
        .collect();
    let mut tree = Tree::with_margin(0.0).unwrap();
    let mut grid = Grid::covering(Aabb::new(Vec2::ZERO, Vec2::splat(side)).unwrap(), 1.25).unwrap();
    let mut hash = SpatialHash::new(1.25).unwrap();
    for t in &tiles {
        tree.insert(*t).unwrap();
        grid.insert(*t).unwrap();
        hash.insert(*t).unwrap();
    }
    tree.rebuild();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &tiles.iter().map(to_p).collect::<Vec<_>>());
    let parry_ray = |r: &Ray| {
        let pr = PRay::new(PVec::new(r.origin().x, r.origin().y), PVec::new(r.dir().x, r.dir().y));
        bvh.cast_ray(&pr, r.max_t(), |leaf, best| to_p(&tiles[leaf as usize]).cast_local_ray(&pr, best, true))
    };
    let rtree = RTree::bulk_load(
        tiles
            .iter()
            .enumerate()
            .map(|(i, t)| GeomWithData::new(Rectangle::from_corners(t.min().to_array(), t.max().to_array()), i as u32))
            .collect(),
    );
    let rstar_ray = |r: &Ray| {
        rtree
            .locate_with_selection_function(RaySel(*r))
            .filter_map(|o| tiles[o.data as usize].ray_entry(r).map(|t| (t, o.data)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
    };
    for r in &rays {
        let want = tree.raycast(r, &mut |_| true).0.map(|h| (h.id.index(), h.t));
        assert_eq!(grid.raycast(r, &mut |_| true).0.map(|h| (h.id.index(), h.t)), want);
        assert_eq!(hash.raycast(r, &mut |_| true).0.map(|h| (h.id.index(), h.t)), want);
        assert_eq!(rstar_ray(r).map(|(t, i)| (i, t)), want);
        let p = parry_ray(r);
        assert_eq!(p.map(|(_, t)| t).is_some(), want.is_some());
        if let (Some((_, pt)), Some((_, t))) = (p, want) {
            assert!((pt - t).abs() < 1e-3, "parry {pt} lore {t}");
        }
    }
    g.bench_function("ray25k-1000rays/lore-tree", |b| {
        b.iter(|| rays.iter().filter(|r| tree.raycast(r, &mut |_| true).0.is_some()).count())
    });
    g.bench_function("ray25k-1000rays/lore-grid", |b| {
        b.iter(|| rays.iter().filter(|r| grid.raycast(r, &mut |_| true).0.is_some()).count())
    });
    g.bench_function("ray25k-1000rays/lore-hash", |b| {
        b.iter(|| rays.iter().filter(|r| hash.raycast(r, &mut |_| true).0.is_some()).count())
    });
    g.bench_function("ray25k-1000rays/parry2d-bvh", |b| {
        b.iter(|| rays.iter().filter(|r| parry_ray(r).is_some()).count())
    });
    g.bench_function("ray25k-1000rays/rstar", |b| b.iter(|| rays.iter().filter(|r| rstar_ray(r).is_some()).count()));
    g.finish();
}

/// The moving scene on one thread and on every core (the `parallel` feature), same scene, same
/// frames, with parry2d beside them; the pair sets are checked equal first.
fn parallel(c: &mut Criterion) {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut g = config(c);
    for n in [10_000usize, 100_000] {
        let label = format!("{}k", n / 1000);
        let base = Scene::new(n, 7);
        {
            let mut s = base.clone();
            s.step();
            let mut one = Lore::on_threads(grid_for(&s, 4.0), &base, 1);
            one.frame(&s);
            let mut all = Lore::on_threads(grid_for(&s, 4.0), &base, cores);
            all.frame(&s);
            assert_eq!(all.pairs, one.pairs, "grid on {cores} threads");
            let mut batch = Lore::on_threads(grid_for(&s, 4.0), &base, cores).batch();
            batch.frame(&s);
            assert_eq!(batch.pairs, one.pairs, "grid on {cores} threads, update_many_with");
            let mut tree = Lore::on_threads(Tree::new(), &base, cores);
            tree.frame(&s);
            assert_eq!(tree.pairs, one.pairs, "tree on {cores} threads");
            let mut parry = Parry::new(&base);
            parry.frame(&s);
            assert_eq!(sorted(parry.pairs.clone()), one.pair_set(), "parry");
            eprintln!("parallel: moving {n} boxes, {} pairs, {cores} threads", one.pairs.len());
        }
        for (name, threads, sorted_pairs, batch) in [
            ("lore-grid-4-1thread", 1, true, false),
            ("lore-grid-4-all-threads", cores, true, false),
            ("lore-grid-4-unsorted-1thread", 1, false, false),
            ("lore-grid-4-unsorted-all-threads", cores, false, false),
            // The boxes moved with one `update_many_with` a frame.
            ("lore-grid-4-batch-1thread", 1, true, true),
            ("lore-grid-4-batch-all-threads", cores, true, true),
        ] {
            let mut s = base.clone();
            let mut lore = Lore::on_threads(grid_for(&s, 4.0), &s, threads);
            if !sorted_pairs {
                lore = lore.unsorted();
            }
            if batch {
                lore = lore.batch();
            }
            g.bench_function(BenchmarkId::new(format!("parallel-moving/{name}"), &label), |b| {
                b.iter(|| {
                    s.step();
                    black_box(lore.frame(&s))
                })
            });
        }
        for (name, threads) in [("lore-tree-1thread", 1), ("lore-tree-all-threads", cores)] {
            let mut s = base.clone();
            let mut lore = Lore::on_threads(Tree::new(), &s, threads);
            g.bench_function(BenchmarkId::new(format!("parallel-moving/{name}"), &label), |b| {
                b.iter(|| {
                    s.step();
                    black_box(lore.frame(&s))
                })
            });
        }
        let mut s = base.clone();
        let mut parry = Parry::new(&s);
        g.bench_function(BenchmarkId::new("parallel-moving/parry2d-bvh", &label), |b| {
            b.iter(|| {
                s.step();
                black_box(parry.frame(&s))
            })
        });
    }
    g.finish();
}

/// k-nearest (k = 10) by point on 25k static boxes: lore's tree (through `&self`) and grid
/// against rstar's `nearest_neighbor_iter(..).take(10)`, 1,000 query points.
fn nearest(c: &mut Criterion) {
    const K: usize = 10;
    let s = Scene::new(25_000, 7);
    let mut rng = Pcg64::seed_from_u64(11);
    let points: Vec<Vec2> =
        (0..1000).map(|_| vec2(rng.random_range(0.0..s.side), rng.random_range(0.0..s.side))).collect();
    let mut tree = Tree::new();
    let mut grid = grid_for(&s, 4.0);
    for i in 0..s.centers.len() {
        tree.insert(s.aabb(i)).unwrap();
        grid.insert(s.aabb(i)).unwrap();
    }
    tree.rebuild();
    let rtree = RTree::bulk_load((0..s.centers.len()).map(|i| s.rect(i)).collect());
    let rstar_k = |p: Vec2| -> Vec<f32> {
        rtree.nearest_neighbor_iter([p.x, p.y]).take(K).map(|r| r.geom().distance_2(&[p.x, p.y])).collect()
    };
    // Same distances from all three (ties may order differently in rstar).
    let mut out = Vec::new();
    for &p in &points {
        tree.k_nearest(p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
        let lore: Vec<f32> = out.iter().map(|n| n.distance_squared).collect();
        SpatialIndex::k_nearest(&mut grid, p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap();
        assert_eq!(out.iter().map(|n| n.distance_squared).collect::<Vec<_>>(), lore, "grid");
        let theirs = rstar_k(p);
        assert!(lore.iter().zip(&theirs).all(|(a, b)| (a - b).abs() <= 1e-3 * (1.0 + b)), "rstar {lore:?} {theirs:?}");
    }
    let mut g = c.benchmark_group("nearest");
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    g.throughput(criterion::Throughput::Elements(points.len() as u64));
    g.bench_function("k10_static25k/lore tree", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            points
                .iter()
                .map(|&p| tree.k_nearest(p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap().hits)
                .sum::<u64>()
        });
    });
    g.bench_function("k10_static25k/lore grid", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            points
                .iter()
                .map(|&p| {
                    SpatialIndex::k_nearest(&mut grid, p, K, f32::INFINITY, &mut |_| true, &mut out).unwrap().hits
                })
                .sum::<u64>()
        });
    });
    g.bench_function("k10_static25k/rstar", |b| {
        b.iter(|| points.iter().map(|&p| rtree.nearest_neighbor_iter([p.x, p.y]).take(K).count() as u64).sum::<u64>());
    });
    g.bench_function("k1_static25k/lore tree", |b| {
        b.iter(|| {
            points.iter().filter(|&&p| tree.nearest(p, f32::INFINITY, &mut |_| true).unwrap().0.is_some()).count()
        });
    });
    g.bench_function("k1_static25k/rstar", |b| {
        b.iter(|| points.iter().filter(|&&p| rtree.nearest_neighbor([p.x, p.y]).is_some()).count());
    });
    g.finish();
}

criterion_group!(group, moving, shapes, static_world, rays, parallel, nearest);
criterion_main!(group);
