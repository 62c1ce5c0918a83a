//! lore-collide2d against rapier2d 0.36 (KinematicCharacterController) and parry2d 0.31
//! (point-segment distance), side by side in one run.
//!
//! Run: `cargo bench -p lore-benches --bench collide2d`
//!
//! The slide-move world: a 1,000 m floor made of 10,000 co-linear 0.1 m segments (as separate
//! colliders for rapier; as a slice for lore, with candidates from a simple 1 m grid), 1,000
//! disks of radius 0.5 spread along it, each moving by (v, -0.1 v) with v = 0.05 (0.1 r).
//! Before timing, one disk walks 2,000 steps at several speeds on each library and the steps
//! that lose more than half the wanted horizontal motion (snags) are printed.
//!
//! The character course: the same level and the same inputs for lore's `CharacterController`
//! and rapier2d's `KinematicCharacterController` (autostep 0.25 and snap-to-ground 0.25 on in
//! both, slope limit 50 degrees): 200 m of ground made of loose 0.5 m segments, flat stretches,
//! slopes of 20 and 25 degrees up and down, stairs of 0.15 m up and down, walked right at 4 m/s
//! with gravity (20 m/s^2) for 2,000 frames at 60 Hz, by a ball (r 0.5), a cuboid (0.8 x 1) and
//! a capsule (half height 0.3, r 0.35). Obstacles come from a 1 m column grid (lore, through
//! `ObstacleSource`) and rapier's own broad phase. The snags (frames that keep less than half of
//! the wanted horizontal motion: every slope is walkable and every step below the step height)
//! are printed before timing; one timed iteration is the whole course.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use lore_collide2d::geometry::distance_squared_point_segment;
use lore_collide2d::glam::{Vec2, vec2};
use lore_collide2d::{
    Aabb, CharacterController, CharacterShape, ObstacleInfo, ObstacleSource, Segment, SlideOptions, slide_disk_swept,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rapier2d::control::KinematicCharacterController;
use rapier2d::parry::query::PointQuery;
use rapier2d::prelude::*;

const R: f32 = 0.5;
const FLOOR: usize = 10_000;
const PIECE: f32 = 0.1;
const DISKS: usize = 1000;

fn rv(v: Vec2) -> rapier2d::math::Vector {
    rapier2d::math::Vector::new(v.x, v.y)
}

fn floor() -> Vec<Segment> {
    (0..FLOOR).map(|i| Segment { a: vec2(i as f32 * PIECE, 0.0), b: vec2((i + 1) as f32 * PIECE, 0.0) }).collect()
}

/// A uniform grid of 1 m columns (the floor is one row): the candidates of a disk.
struct Grid {
    cells: Vec<Vec<usize>>,
}

impl Grid {
    fn new(segs: &[Segment]) -> Self {
        let n = (FLOOR as f32 * PIECE).ceil() as usize + 1;
        let mut cells = vec![Vec::new(); n];
        for (i, s) in segs.iter().enumerate() {
            let b = s.aabb();
            let (lo, hi) = (b.min().x.floor().max(0.0) as usize, (b.max().x.floor() as usize).min(n - 1));
            for cell in &mut cells[lo..=hi] {
                cell.push(i);
            }
        }
        Self { cells }
    }

    fn gather(&self, segs: &[Segment], lo: f32, hi: f32, out: &mut Vec<Segment>) {
        out.clear();
        let n = self.cells.len();
        let (a, b) = ((lo.floor().max(0.0) as usize).min(n - 1), (hi.floor().max(0.0) as usize).min(n - 1));
        for c in a..=b {
            for &i in &self.cells[c] {
                out.push(segs[i]);
            }
        }
        // A segment spanning two cells appears twice; harmless for the move, rare on this floor.
    }
}

struct LoreWorld {
    segs: Vec<Segment>,
    grid: Grid,
    scratch: Vec<Segment>,
}

impl LoreWorld {
    fn new() -> Self {
        let segs = floor();
        let grid = Grid::new(&segs);
        Self { segs, grid, scratch: Vec::new() }
    }

    fn step(&mut self, p: Vec2, m: Vec2) -> Vec2 {
        let (lo, hi) = (p.x.min(p.x + m.x) - R - 0.01, p.x.max(p.x + m.x) + R + 0.01);
        self.grid.gather(&self.segs, lo, hi, &mut self.scratch);
        slide_disk_swept(p, R, m, &self.scratch, &SlideOptions::default()).map_or(p, |o| o.position)
    }
}

struct RapierWorld {
    world: PhysicsWorld,
    controller: KinematicCharacterController,
    shape: SharedShape,
}

impl RapierWorld {
    fn new(polyline: bool) -> Self {
        let mut world = PhysicsWorld::default();
        if polyline {
            let pts: Vec<_> = (0..=FLOOR).map(|i| rv(vec2(i as f32 * PIECE, 0.0))).collect();
            world.insert_collider(ColliderBuilder::polyline(pts, None), None);
        } else {
            for s in floor() {
                world.insert_collider(ColliderBuilder::segment(rv(s.a), rv(s.b)), None);
            }
        }
        world.step();
        Self { world, controller: KinematicCharacterController::default(), shape: SharedShape::ball(R) }
    }

    fn step(&self, p: Vec2, m: Vec2) -> Vec2 {
        let w = &self.world;
        let queries = w.broad_phase.as_query_pipeline(
            w.narrow_phase.query_dispatcher(),
            &w.bodies,
            &w.colliders,
            QueryFilter::default(),
        );
        let pose = Pose::from_translation(rv(p));
        let out = self.controller.move_shape(1.0 / 60.0, &queries, &*self.shape, &pose, rv(m), |_| {});
        p + vec2(out.translation.x, out.translation.y)
    }
}

fn snags(mut step: impl FnMut(Vec2, Vec2) -> Vec2, v: f32) -> usize {
    let mut p = vec2(5.0, R + 0.01);
    let mut n = 0;
    for _ in 0..2000 {
        let q = step(p, vec2(v, -0.1 * v));
        if q.x - p.x < 0.5 * v {
            n += 1;
        }
        p = q;
    }
    n
}

fn closest_point(c: &mut Criterion) {
    let mut rng = Pcg64::seed_from_u64(1);
    let data: Vec<(Vec2, Vec2, Vec2)> = (0..1024)
        .map(|_| {
            let mut v = || vec2(rng.random_range(-100.0..100.0), rng.random_range(-100.0..100.0));
            (v(), v(), v())
        })
        .collect();
    let parry: Vec<(rapier2d::math::Vector, rapier2d::parry::shape::Segment)> =
        data.iter().map(|&(p, a, b)| (rv(p), rapier2d::parry::shape::Segment::new(rv(a), rv(b)))).collect();
    let mut g = c.benchmark_group("collide2d/point_segment_distance_1024");
    g.bench_function("lore", |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for &(p, a, b) in black_box(&data) {
                s += distance_squared_point_segment(p, a, b);
            }
            s
        });
    });
    g.bench_function("parry2d", |bch| {
        bch.iter(|| {
            let mut s = 0.0;
            for (p, seg) in black_box(&parry) {
                let d = seg.distance_to_local_point(*p, true);
                s += d * d;
            }
            s
        });
    });
    g.finish();
}

fn slide_move(c: &mut Criterion) {
    let mut lore = LoreWorld::new();
    let rapier = RapierWorld::new(false);
    let rapier_poly = RapierWorld::new(true);
    for s in [0.001, 0.01, 0.1, 0.25, 0.5] {
        let v = s * R;
        let a = snags(|p, m| lore.step(p, m), v);
        let b = snags(|p, m| rapier.step(p, m), v);
        let c = snags(|p, m| rapier_poly.step(p, m), v);
        eprintln!("snags in 2,000 steps at v = {s} r: lore {a}, rapier2d segments {b}, rapier2d polyline {c}");
    }
    let starts: Vec<Vec2> = (0..DISKS).map(|i| vec2(5.0 + i as f32 * 0.99, R + 0.01)).collect();
    let m = vec2(0.05, -0.005);
    let mut g = c.benchmark_group("collide2d/slide_1000_disks_10000_segments");
    g.sample_size(20);
    g.bench_function("lore_swept_grid", |bch| {
        bch.iter(|| {
            let mut s = Vec2::ZERO;
            for &p in &starts {
                s += lore.step(p, m);
            }
            s
        });
    });
    g.bench_function("rapier2d_kcc", |bch| {
        bch.iter(|| {
            let mut s = Vec2::ZERO;
            for &p in &starts {
                s += rapier.step(p, m);
            }
            s
        });
    });
    g.bench_function("rapier2d_kcc_polyline", |bch| {
        bch.iter(|| {
            let mut s = Vec2::ZERO;
            for &p in &starts {
                s += rapier_poly.step(p, m);
            }
            s
        });
    });
    g.finish();
}

/// The character course's ground polyline (see the module docs), cut into loose 0.5 m pieces.
fn course() -> Vec<Segment> {
    let mut pts = vec![vec2(-5.0, 0.0), vec2(10.0, 0.0)];
    let mut p = vec2(10.0, 0.0);
    let mut k = 0;
    while p.x < 200.0 {
        let deg: f32 = match k % 4 {
            0 => 20.0,
            1 => -25.0,
            2 => 25.0,
            _ => -20.0,
        };
        let a = deg.to_radians();
        p += vec2(a.cos(), a.sin()) * 4.0;
        pts.push(p);
        p.x += 3.0;
        pts.push(p);
        let dir = if k % 2 == 0 { 1.0 } else { -1.0 };
        for _ in 0..3 {
            p.y += 0.15 * dir;
            pts.push(p);
            p.x += 1.5;
            pts.push(p);
        }
        p.x += 3.0;
        pts.push(p);
        k += 1;
    }
    let mut out = Vec::new();
    for w in pts.windows(2) {
        let n = ((w[1] - w[0]).length() / 0.5).ceil().max(1.0) as usize;
        for i in 0..n {
            let a = w[0] + (w[1] - w[0]) * (i as f32 / n as f32);
            let b = w[0] + (w[1] - w[0]) * ((i + 1) as f32 / n as f32);
            out.push(Segment { a, b });
        }
    }
    out
}

/// A 1 m column grid over the course: the obstacle source of lore's controller.
struct Columns {
    segs: Vec<Segment>,
    cells: Vec<Vec<u32>>,
    x0: f32,
}

impl Columns {
    fn new(segs: Vec<Segment>) -> Self {
        let x0 = -10.0;
        let mut cells = vec![Vec::new(); 260];
        for (i, s) in segs.iter().enumerate() {
            let b = s.aabb();
            let (lo, hi) = ((b.min().x - x0).floor() as usize, (b.max().x - x0).floor() as usize);
            for cell in &mut cells[lo..=hi.min(259)] {
                cell.push(i as u32);
            }
        }
        Self { segs, cells, x0 }
    }
}

impl<'a> ObstacleSource<'a> for &'a Columns {
    type Shape = Segment;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a Segment, ObstacleInfo)) {
        let n = self.cells.len() - 1;
        let lo = ((area.min().x - self.x0).floor().max(0.0) as usize).min(n);
        let hi = ((area.max().x - self.x0).floor().max(0.0) as usize).min(n);
        let mut last = u32::MAX;
        for cell in &self.cells[lo..=hi] {
            for &i in cell {
                // A piece in two columns comes twice in a row at most; skip the repeat.
                if i != last && self.segs[i as usize].aabb().overlaps(area) {
                    visit(&self.segs[i as usize], ObstacleInfo::new(u64::from(i)));
                }
                last = i;
            }
        }
    }
}

const COURSE_FRAMES: usize = 2000;
const DT: f32 = 1.0 / 60.0;

/// The three bodies of the course, as lore shapes.
fn course_shapes() -> [(&'static str, CharacterShape); 3] {
    [
        ("ball", CharacterShape::Disk { radius: 0.5 }),
        ("cuboid", CharacterShape::Aabb { half_extents: vec2(0.4, 0.5) }),
        ("capsule", CharacterShape::Capsule { half_height: 0.3, radius: 0.35 }),
    ]
}

fn start_of(shape: CharacterShape) -> Vec2 {
    vec2(1.0, shape.extent(Vec2::Y) + 0.01)
}

/// One run of the course by lore's controller: the end and the number of snags.
fn lore_course(ctl: &CharacterController, level: &Columns) -> (Vec2, usize) {
    let mut p = start_of(ctl.shape);
    let mut vy = 0.0f32;
    let mut snags = 0;
    for _ in 0..COURSE_FRAMES {
        let v = vec2(4.0, vy - 20.0 * DT);
        let m = ctl.move_and_slide(p, v, DT, level).expect("valid input");
        if m.position.x - p.x < 0.5 * 4.0 * DT {
            snags += 1;
        }
        vy = if m.on_floor() { 0.0 } else { v.y };
        p = m.position;
    }
    (p, snags)
}

struct RapierCourse {
    world: PhysicsWorld,
    controller: KinematicCharacterController,
}

impl RapierCourse {
    fn new(segs: &[Segment]) -> Self {
        let mut world = PhysicsWorld::default();
        for s in segs {
            world.insert_collider(ColliderBuilder::segment(rv(s.a), rv(s.b)), None);
        }
        world.step();
        let controller = KinematicCharacterController {
            autostep: Some(rapier2d::control::CharacterAutostep {
                max_height: rapier2d::control::CharacterLength::Absolute(0.25),
                min_width: rapier2d::control::CharacterLength::Absolute(0.2),
                include_dynamic_bodies: false,
            }),
            snap_to_ground: Some(rapier2d::control::CharacterLength::Absolute(0.25)),
            max_slope_climb_angle: 50f32.to_radians(),
            ..KinematicCharacterController::default()
        };
        Self { world, controller }
    }

    fn run(&self, shape: CharacterShape) -> (Vec2, usize) {
        let body = match shape {
            CharacterShape::Disk { radius } => SharedShape::ball(radius),
            CharacterShape::Aabb { half_extents } => SharedShape::cuboid(half_extents.x, half_extents.y),
            CharacterShape::Capsule { half_height, radius } => SharedShape::capsule_y(half_height, radius),
        };
        let w = &self.world;
        let queries = w.broad_phase.as_query_pipeline(
            w.narrow_phase.query_dispatcher(),
            &w.bodies,
            &w.colliders,
            QueryFilter::default(),
        );
        let mut p = start_of(shape);
        let mut vy = 0.0f32;
        let mut snags = 0;
        for _ in 0..COURSE_FRAMES {
            let v = vec2(4.0, vy - 20.0 * DT);
            let pose = Pose::from_translation(rv(p));
            let out = self.controller.move_shape(DT, &queries, &*body, &pose, rv(v * DT), |_| {});
            let q = p + vec2(out.translation.x, out.translation.y);
            if q.x - p.x < 0.5 * 4.0 * DT {
                snags += 1;
            }
            vy = if out.grounded { 0.0 } else { v.y };
            p = q;
        }
        (p, snags)
    }
}

fn character_course(c: &mut Criterion) {
    let segs = course();
    let columns = Columns::new(segs.clone());
    let rapier = RapierCourse::new(&segs);
    let mut g = c.benchmark_group("collide2d/character_course_2000_frames");
    g.sample_size(10);
    for (name, shape) in course_shapes() {
        let ctl = CharacterController {
            step_height: 0.25,
            snap_length: 0.25,
            ..CharacterController::with_shape(shape).expect("valid shape")
        };
        let (a, sa) = lore_course(&ctl, &columns);
        let (b, sb) = rapier.run(shape);
        eprintln!("character course, {name}: lore {sa} snags (ends at {a}), rapier2d {sb} snags (ends at {b})");
        g.bench_function(format!("lore_{name}"), |bch| bch.iter(|| lore_course(black_box(&ctl), &columns)));
        g.bench_function(format!("rapier2d_{name}"), |bch| bch.iter(|| rapier.run(black_box(shape))));
    }
    g.finish();
}

criterion_group!(group, closest_point, slide_move, character_course);
criterion_main!(group);
