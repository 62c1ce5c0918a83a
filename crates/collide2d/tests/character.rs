//! The character controller, for each of its three shapes, at the origin, at (8200, 8200) and
//! in a pixel-unit world (sizes x32 at (1e5, 1e5)): floors (slope limit, sliding down steep
//! slopes, no creep, snapping, constant speed, step-up), one-way obstacles, moving platforms
//! (carry, push, crush, leaving with the platform's velocity), filters, other `up` directions,
//! top-down mode and the move report.
//!
//! Snag: after settling, a frame that keeps less than half of the wanted motion along the
//! surface while pressed into it (tests/domain.rs's definition).

use glam::{Vec2, vec2};
use lore_collide2d::{
    Aabb, CharacterController, CharacterShape, Collider, FloorMode, Obstacle, ObstacleInfo, ObstacleSource, Segment,
    Shape,
};
use proptest::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// A world frame: an origin and a unit length (1 for metres, 32 for pixels).
#[derive(Clone, Copy, Debug)]
struct Frame {
    o: Vec2,
    s: f32,
}

const FRAMES: [Frame; 4] = [
    Frame { o: Vec2::ZERO, s: 1.0 },
    Frame { o: Vec2::new(8200.0, 8200.0), s: 1.0 },
    Frame { o: Vec2::new(100_000.0, 100_000.0), s: 32.0 },
    Frame { o: Vec2::new(1_000_000.0, -1_000_000.0), s: 32.0 },
];

impl Frame {
    fn p(self, x: f32, y: f32) -> Vec2 {
        self.o + vec2(x, y) * self.s
    }
    fn seg(self, a: Vec2, b: Vec2) -> Collider {
        Collider::Segment(Segment::new(self.p(a.x, a.y), self.p(b.x, b.y)).unwrap())
    }
    fn aabb(self, min: Vec2, max: Vec2) -> Collider {
        Collider::Aabb(Aabb::new(self.p(min.x, min.y), self.p(max.x, max.y)).unwrap())
    }
    /// Tolerance of positions: what `f32` resolves here, or 1e-3 units.
    fn tol(self) -> f32 {
        (1e-3 * self.s).max(64.0 * f32::EPSILON * self.o.abs().max_element())
    }
}

fn shapes(s: f32) -> [CharacterShape; 3] {
    [
        CharacterShape::Disk { radius: 0.5 * s },
        CharacterShape::Aabb { half_extents: vec2(0.4, 0.5) * s },
        CharacterShape::Capsule { half_height: 0.3 * s, radius: 0.35 * s },
    ]
}

fn ctl(shape: CharacterShape) -> CharacterController {
    CharacterController::with_shape(shape).unwrap()
}

/// How far below its centre the body's lowest point is (`up = +y`).
fn foot(shape: CharacterShape) -> f32 {
    shape.extent(Vec2::Y)
}

/// A floor of loose unit pieces from `x0` to `x1` at height `y` (frame units).
fn pieces(f: Frame, x0: i32, x1: i32, y: f32) -> Vec<Obstacle<Collider>> {
    (x0..x1)
        .map(|i| Obstacle {
            shape: f.seg(vec2(i as f32, y), vec2(i as f32 + 1.0, y)),
            info: ObstacleInfo::new((1000 + i) as u64),
        })
        .collect()
}

fn solid(shape: Collider, id: u64) -> Obstacle<Collider> {
    Obstacle { shape, info: ObstacleInfo::new(id) }
}

/// Deepest penetration of the body at `p` into any of `level`'s two-way static obstacles.
fn depth(c: &CharacterController, p: Vec2, level: &[Obstacle<Collider>]) -> f32 {
    let mut d = 0.0f32;
    for o in level.iter().filter(|o| o.info.one_way.is_none() && o.info.layers & c.mask != 0) {
        let k = match c.shape {
            CharacterShape::Disk { radius } => o.shape.disk_contact(p, radius),
            // The box's corners are rounded by `rounding` times its smaller half extent.
            CharacterShape::Aabb { half_extents } => {
                let r = c.options.rounding * half_extents.min_element();
                o.shape.box_contact(p, half_extents - r, r)
            }
            CharacterShape::Capsule { half_height, radius } => o.shape.box_contact(p, vec2(0.0, half_height), radius),
        };
        d = d.max(k.map_or(0.0, |k| k.depth));
    }
    d
}

/// Runs `frames` frames of walking at `speed` (frame units per second) with gravity from `p`,
/// returning the end and the number of snags on the way.
fn walk(
    c: &CharacterController,
    f: Frame,
    level: &[Obstacle<Collider>],
    p: Vec2,
    speed: f32,
    frames: usize,
) -> (Vec2, usize, bool) {
    let mut p = p;
    let mut v = Vec2::ZERO;
    let mut snags = 0;
    let mut always_floor = true;
    for i in 0..frames {
        v.x = speed * f.s;
        v.y -= 20.0 * f.s * DT;
        let m = c.move_and_slide(p, v, DT, level).unwrap();
        // A snag keeps less than half of the wanted motion along the surface: on a floor, of
        // the walk projected onto the floor's tangent (on a 45° slope that is half the speed
        // along x: comparing x progress with half the speed would call a clean climb a snag).
        let along = m.floor.map_or(Vec2::X, |floor| vec2(floor.normal.y, -floor.normal.x));
        let wanted = speed * f.s * DT * along.x;
        if i > 3 && (m.position - p).dot(along) < 0.5 * wanted {
            snags += 1;
        }
        if i > 3 {
            always_floor &= m.on_floor();
        }
        assert!(depth(c, m.position, level) <= f.tol(), "inside at {:?}: {}", m.position, depth(c, m.position, level));
        p = m.position;
        v = m.velocity;
    }
    (p, snags, always_floor)
}

#[test]
fn walks_floors_of_loose_pieces_without_snagging_every_shape_every_frame() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let level = pieces(f, -2, 40, 0.0);
            let start = f.p(0.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
            let (end, snags, floor) = walk(&c, f, &level, start, 6.0, 300);
            assert_eq!(snags, 0, "{shape:?} at {f:?}");
            assert!(floor, "{shape:?} at {f:?}: lost the floor");
            // Each frame's step is rounded to the spacing of `f32` there (0.1 is 0.0996 at 8200).
            let rounding = 300.0 * f.o.abs().max_element() * f32::EPSILON;
            assert!((end.x - (start.x + 30.0 * f.s)).abs() < 0.05 * f.s + rounding, "{shape:?} at {f:?}: {end}");
            assert!((end.y - f.p(0.0, 0.0).y - foot(shape)).abs() < 0.02 * f.s, "{shape:?} at {f:?}: {end}");
        }
    }
}

/// A polyline ground: flat, up a slope of `deg`, flat (frame units), as loose segments.
fn hill(f: Frame, deg: f32) -> (Vec<Obstacle<Collider>>, Vec2, Vec2) {
    let a = deg.to_radians();
    let top = vec2(10.0 + 6.0 * a.cos(), 6.0 * a.sin());
    let pts = [vec2(-5.0, 0.0), vec2(10.0, 0.0), top, top + vec2(30.0, 0.0)];
    let mut level = Vec::new();
    for (k, w) in pts.windows(2).enumerate() {
        // Each part in unit pieces.
        let n = ((w[1] - w[0]).length().ceil()) as usize;
        for i in 0..n {
            let a = w[0] + (w[1] - w[0]) * (i as f32 / n as f32);
            let b = w[0] + (w[1] - w[0]) * ((i + 1) as f32 / n as f32);
            level.push(solid(f.seg(a, b), (k * 100 + i) as u64));
        }
    }
    (level, vec2(10.0, 0.0), top)
}

#[test]
fn no_creep_standing_on_a_walkable_slope_and_steep_slopes_slide_down() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            // Walkable 30 degrees: dropped onto it, the body settles and then stays put.
            let (level, foot_of_hill, _) = hill(f, 30.0);
            let mut p = f.p(foot_of_hill.x + 3.0, 3.0 + 3.0);
            let mut v = Vec2::ZERO;
            let mut settled = None;
            for i in 0..300 {
                v.y -= 20.0 * f.s * DT;
                let m = c.move_and_slide(p, v, DT, &level).unwrap();
                p = m.position;
                v = m.velocity;
                if i == 120 {
                    assert!(m.on_floor(), "{shape:?} at {f:?}: not on the slope");
                    settled = Some(p);
                }
            }
            let drift = (p - settled.unwrap()).length();
            assert!(drift <= f.tol(), "{shape:?} at {f:?}: crept {drift}");
            // Steep 60 degrees: the body slides down to the foot.
            let (level, foot_of_hill, top) = hill(f, 60.0);
            let mut p = f.p(foot_of_hill.x + 2.5, 2.5 * 3f32.sqrt() + 2.0);
            let mut v = Vec2::ZERO;
            let mut on_floor = 0;
            for _ in 0..400 {
                v.y -= 20.0 * f.s * DT;
                let m = c.move_and_slide(p, v, DT, &level).unwrap();
                on_floor += usize::from(m.on_floor() && (m.position.y - f.o.y) > 1.0 * f.s);
                p = m.position;
                v = m.velocity;
            }
            assert!(p.x < f.p(foot_of_hill.x, 0.0).x + 0.5 * f.s, "{shape:?} at {f:?}: did not slide down: {p}");
            assert!(p.y < f.p(0.0, 1.2).y, "{shape:?} at {f:?}: {p}");
            assert_eq!(on_floor, 0, "{shape:?} at {f:?}: stood on the steep slope");
            let _ = top;
        }
    }
}

#[test]
fn walks_up_walkable_slopes_not_steep_ones_and_snaps_down_them() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let (level, _, top) = hill(f, 30.0);
            let start = f.p(0.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
            let (end, snags, floor) = walk(&c, f, &level, start, 5.0, 360);
            assert_eq!(snags, 0, "{shape:?} at {f:?}");
            assert!(floor, "{shape:?} at {f:?}: lost the floor going up");
            assert!(end.x > f.p(top.x + 1.0, 0.0).x, "{shape:?} at {f:?}: {end}");
            // Down the other way: every frame on the floor (snapped), never airborne.
            let back = CharacterController { ..c };
            let mut p = end;
            let mut v = Vec2::ZERO;
            let mut snapped = false;
            for i in 0..300 {
                v.x = -5.0 * f.s;
                v.y -= 20.0 * f.s * DT;
                let m = back.move_and_slide(p, v, DT, &level).unwrap();
                snapped |= m.snapped;
                assert!(i < 2 || m.on_floor(), "{shape:?} at {f:?}: airborne walking down at frame {i}: {p}");
                p = m.position;
                v = m.velocity;
            }
            assert!(snapped, "{shape:?} at {f:?}: never snapped");
            assert!(p.x < f.p(8.0, 0.0).x, "{shape:?} at {f:?}: {p}");
            // A 60 degree slope is a wall to a walker.
            let (level, foot_of_hill, _) = hill(f, 60.0);
            let (end, _, _) = walk(&c, f, &level, start, 5.0, 300);
            assert!(end.y < f.p(0.0, 0.0).y + foot(shape) + 0.3 * f.s, "{shape:?} at {f:?}: climbed {end}");
            assert!(end.x < f.p(foot_of_hill.x, 0.0).x + 0.5 * f.s, "{shape:?} at {f:?}: {end}");
        }
    }
}

#[test]
fn constant_speed_on_slopes_keeps_the_walked_length() {
    let f = FRAMES[0];
    for shape in shapes(1.0) {
        let c = CharacterController { constant_speed_on_slopes: true, ..ctl(shape) };
        let (level, foot_of_hill, _) = hill(f, 30.0);
        let mut p = vec2(foot_of_hill.x - 2.0, foot(shape) + 0.01);
        let mut v = Vec2::ZERO;
        let mut lengths = Vec::new();
        for _ in 0..150 {
            v.x = 3.0;
            v.y -= 20.0 * DT;
            let m = c.move_and_slide(p, v, DT, &level).unwrap();
            if p.x > foot_of_hill.x + 1.5 && p.x < foot_of_hill.x + 4.0 {
                lengths.push((m.position - p).length());
            }
            p = m.position;
            v = m.velocity;
        }
        assert!(lengths.len() > 10, "{shape:?}");
        for l in lengths {
            assert!((l - 3.0 * DT).abs() < 2e-3, "{shape:?}: {l} per frame on the slope");
        }
    }
}

#[test]
fn steps_up_ledges_below_step_height_and_not_above_every_shape() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let low = 0.8 * c.step_height / f.s;
            let high = 1.5 * c.step_height / f.s;
            for (h, climbs) in [(low, true), (high, false)] {
                let mut level = pieces(f, -2, 5, 0.0);
                level.push(solid(f.seg(vec2(5.0, 0.0), vec2(5.0, h)), 1));
                level.push(solid(f.seg(vec2(5.0, h), vec2(15.0, h)), 2));
                let start = f.p(3.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
                let mut p = start;
                let mut v = Vec2::ZERO;
                let mut stepped = false;
                for _ in 0..120 {
                    v.x = 4.0 * f.s;
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(p, v, DT, &level).unwrap();
                    stepped |= m.stepped;
                    assert!(depth(&c, m.position, &level) <= f.tol(), "{shape:?} at {f:?}: inside");
                    p = m.position;
                    v = m.velocity;
                }
                if climbs {
                    assert!(stepped && p.x > f.p(8.0, 0.0).x, "{shape:?} at {f:?}: did not step {h}: {p}");
                    assert!((p.y - f.p(0.0, h).y - foot(shape)).abs() < 0.02 * f.s, "{shape:?}: {p}");
                } else {
                    assert!(!stepped && p.x < f.p(5.0, 0.0).x, "{shape:?} at {f:?}: rode up {h}: {p}");
                    let rest = foot(shape) + (0.01 * f.s).max(f.tol());
                    assert!(p.y < f.p(0.0, 0.0).y + rest, "{shape:?} at {f:?}: {p}");
                }
            }
        }
    }
}

#[test]
fn snaps_down_stairs_but_never_while_rising() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let step = 0.6 * c.snap_length / f.s;
            // Stairs down to the right, each a unit wide.
            let mut level = Vec::new();
            for i in 0..10 {
                let y = -(i as f32) * step;
                level.push(solid(f.seg(vec2(i as f32, y), vec2(i as f32 + 1.0, y)), 10 + i));
                level.push(solid(f.seg(vec2(i as f32 + 1.0, y), vec2(i as f32 + 1.0, y - step)), 30 + i));
            }
            let mut p = f.p(0.3, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
            let mut v = Vec2::ZERO;
            let mut snapped = 0;
            for i in 0..100 {
                v.x = 3.0 * f.s;
                v.y -= 20.0 * f.s * DT;
                let m = c.move_and_slide(p, v, DT, &level).unwrap();
                snapped += usize::from(m.snapped);
                assert!(i < 2 || m.on_floor(), "{shape:?} at {f:?}: airborne on the stairs at {i}");
                p = m.position;
                v = m.velocity;
            }
            assert!(snapped >= 3, "{shape:?} at {f:?}: snapped {snapped} times");
            // A jump from the floor is never snapped back.
            let start = f.p(0.5, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
            let m = c.move_and_slide(start, vec2(0.0, 0.1 * f.s), DT, &level).unwrap();
            assert!(!m.snapped && !m.on_floor() && m.position.y > start.y, "{shape:?} at {f:?}: {m:?}");
        }
    }
}

fn one_way_level(f: Frame) -> Vec<Obstacle<Collider>> {
    let mut level = pieces(f, -5, 15, 0.0);
    // A one-way segment and a one-way box at height 2.
    let mut seg = solid(f.seg(vec2(-2.0, 2.0), vec2(3.0, 2.0)), 7);
    seg.info.one_way = Some(Vec2::Y);
    let mut slab = solid(f.aabb(vec2(5.0, 1.8), vec2(10.0, 2.0)), 8);
    slab.info.one_way = Some(Vec2::Y);
    level.push(seg);
    level.push(slab);
    level
}

#[test]
fn one_way_platforms_pass_from_below_and_sides_land_from_above_and_drop_through() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let level = one_way_level(f);
            for (x, id) in [(0.5, 7), (7.5, 8)] {
                // Jump from the floor through the platform from below, land on it.
                let mut p = f.p(x, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
                let mut v = vec2(0.0, 11.0 * f.s);
                let mut landed = false;
                let mut top = f32::MIN;
                for _ in 0..120 {
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(p, v, DT, &level).unwrap();
                    top = top.max(m.position.y);
                    // No pop: while passing, the body moves as it wants to.
                    assert!(
                        (m.position.y - (p.y + v.y * DT)).abs() < f.tol() || m.on_floor(),
                        "{shape:?} at {f:?}: popped"
                    );
                    p = m.position;
                    v = m.velocity;
                    if m.floor.is_some_and(|fl| fl.id == id) {
                        landed = true;
                    }
                }
                assert!(landed && top > f.p(0.0, 2.0).y + foot(shape), "{shape:?} at {f:?}: {p} {top}");
                assert!((p.y - f.p(0.0, 2.0).y - foot(shape)).abs() < 0.02 * f.s, "{shape:?} at {f:?}: {p}");
                // Drop through on request (held for a few frames, as a game holds the button:
                // far from the origin one frame's fall can be less than the tolerance), then
                // fall to the ground.
                let mut q = p;
                let mut v = Vec2::ZERO;
                for _ in 0..6 {
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide_with(q, v, DT, &level, true, |_| true).unwrap();
                    assert!(m.position.y < q.y, "{shape:?} at {f:?}: no drop");
                    q = m.position;
                    v = m.velocity;
                }
                for _ in 0..120 {
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(q, v, DT, &level).unwrap();
                    q = m.position;
                    v = m.velocity;
                }
                assert!((q.y - f.o.y - foot(shape)).abs() < 0.02 * f.s, "{shape:?} at {f:?}: {q}");
            }
            // Walking sideways through a platform that cuts through the body: no pop up.
            let mut p = f.p(-4.0, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
            let low = vec2(0.0, 2.0 - 0.5 * foot(shape) / f.s);
            let mut level = pieces(f, -5, 15, 0.0);
            let mut cut = solid(f.seg(vec2(-3.0, low.y), vec2(3.0, low.y)), 9);
            cut.info.one_way = Some(Vec2::Y);
            level.push(cut);
            // Put the body's top through the platform: it starts at a height cut by it.
            p.y = f.p(0.0, low.y).y + 0.5 * foot(shape);
            p.y = p.y.min(f.p(0.0, 0.0).y + foot(shape) + 0.001 * f.s).max(f.p(0.0, 0.0).y + foot(shape));
            let mut v = Vec2::ZERO;
            for _ in 0..120 {
                v.x = 4.0 * f.s;
                v.y -= 20.0 * f.s * DT;
                let m = c.move_and_slide(p, v, DT, &level).unwrap();
                assert!(m.position.y < f.p(0.0, 0.0).y + foot(shape) + 0.02 * f.s, "{shape:?} at {f:?}: popped up");
                p = m.position;
                v = m.velocity;
            }
            assert!(p.x > f.p(3.5, 0.0).x, "{shape:?} at {f:?}: blocked from the side: {p}");
        }
    }
}

/// A platform moving along `vel` (frame units per second) for `frames` frames, starting at
/// `min`..`max`, with a static floor far below; returns the body's offset from the platform at
/// every frame.
fn ride(c: &CharacterController, f: Frame, vel: Vec2, frames: usize) -> (Vec<Vec2>, bool) {
    let mut plat = Aabb::new(f.p(0.0, 5.0), f.p(4.0, 5.5)).unwrap();
    let shape = c.shape;
    let mut p = vec2(plat.center().x, plat.max().y + foot(shape) + 0.001 * f.s);
    let mut v = Vec2::ZERO;
    let mut offsets = Vec::new();
    let mut floor_always = true;
    for i in 0..frames {
        let level = [
            Obstacle {
                shape: Collider::Aabb(plat),
                info: ObstacleInfo { velocity: vel * f.s, ..ObstacleInfo::new(1) },
            },
            solid(f.seg(vec2(-1000.0, -1000.0), vec2(1000.0, -1000.0)), 2),
        ];
        v.y -= 20.0 * f.s * DT;
        let m = c.move_and_slide(p, v, DT, &level[..]).unwrap();
        assert!(!m.crushed, "crushed riding");
        p = m.position;
        v = m.velocity;
        // The caller moves the platform after the move.
        plat = plat.translated(vel * f.s * DT);
        if i > 2 {
            floor_always &= m.floor.is_some_and(|fl| fl.id == 1);
            offsets.push(p - vec2(plat.center().x, plat.max().y));
        }
    }
    (offsets, floor_always)
}

#[test]
fn carried_by_moving_platforms_without_drift_or_being_left_behind() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            for vel in [vec2(3.0, 0.0), vec2(0.0, 2.0), vec2(0.0, -4.0), vec2(-2.0, 1.5), vec2(2.5, -2.5)] {
                let (offsets, floor) = ride(&c, f, vel, 120);
                assert!(floor, "{shape:?} at {f:?} on {vel}: left the platform");
                let first = offsets[0];
                for o in &offsets {
                    assert!(
                        (*o - first).length() <= f.tol(),
                        "{shape:?} at {f:?} on {vel}: drift {}",
                        (*o - first).length()
                    );
                }
            }
        }
    }
}

#[test]
fn jumping_off_a_moving_platform_keeps_its_velocity() {
    let f = FRAMES[0];
    for shape in shapes(1.0) {
        let c = ctl(shape);
        let plat = Aabb::new(vec2(0.0, 0.0), vec2(4.0, 0.5)).unwrap();
        let level = [Obstacle {
            shape: Collider::Aabb(plat),
            info: ObstacleInfo { velocity: vec2(3.0, 0.0), ..ObstacleInfo::new(1) },
        }];
        let p = vec2(2.0, 0.5 + foot(shape) + 0.001);
        let m = c.move_and_slide(p, vec2(0.0, 8.0), DT, &level[..]).unwrap();
        assert!(!m.on_floor());
        assert!((m.velocity - vec2(3.0, 8.0)).length() < 1e-4, "{shape:?}: {}", m.velocity);
        assert!((m.achieved_velocity - vec2(3.0, 8.0)).length() < 1e-2, "{shape:?}: {}", m.achieved_velocity);
        let _ = f;
    }
}

#[test]
fn pushed_by_a_platform_and_crushed_against_a_wall_never_through_it() {
    for f in FRAMES {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            let w = shape.extent(Vec2::X);
            // A pusher moving right at 3 units/s; a wall at x = 6.
            let mut pusher = Aabb::new(f.p(-2.0, 0.0), f.p(0.0, 2.0)).unwrap();
            let wall = f.seg(vec2(6.0, 0.0), vec2(6.0, 5.0));
            let mut p = f.p(1.0, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
            let mut v = Vec2::ZERO;
            let mut pushed = false;
            let mut crushed_at = None;
            for i in 0..240 {
                let level = [
                    Obstacle {
                        shape: Collider::Aabb(pusher),
                        info: ObstacleInfo { velocity: vec2(3.0, 0.0) * f.s, ..ObstacleInfo::new(1) },
                    },
                    solid(f.seg(vec2(-10.0, 0.0), vec2(20.0, 0.0)), 2),
                    solid(wall.clone(), 3),
                ];
                v.y -= 20.0 * f.s * DT;
                let m = c.move_and_slide(p, v, DT, &level[..]).unwrap();
                assert!(
                    m.position.x + w <= f.p(6.0, 0.0).x + f.tol(),
                    "{shape:?} at {f:?}: through the wall at frame {i}: {}",
                    m.position
                );
                if m.position.x > p.x + 1e-3 * f.s {
                    pushed = true;
                }
                if m.crushed && crushed_at.is_none() {
                    crushed_at = Some(i);
                }
                p = m.position;
                v = m.velocity;
                pusher = pusher.translated(vec2(3.0, 0.0) * f.s * DT);
                if crushed_at.is_none() {
                    assert!(p.x - w >= pusher.max().x - f.tol(), "{shape:?} at {f:?}: left inside the pusher at {i}");
                }
            }
            assert!(pushed, "{shape:?} at {f:?}: never pushed");
            // The pusher's face reaches x = 6 - 2w at 3 units/s from 0.
            let expect = ((6.0 - 2.0 * w / f.s) / 3.0 / DT) as usize;
            let at: usize = crushed_at.expect("crushed");
            assert!(at.abs_diff(expect) <= 2, "{shape:?} at {f:?}: crushed at {at}, expected {expect}");
        }
    }
}

#[test]
fn layers_mask_and_predicate_filter_obstacles() {
    let f = FRAMES[0];
    for shape in shapes(1.0) {
        let mut level = pieces(f, -2, 10, 0.0);
        let mut ghost = solid(f.seg(vec2(3.0, 0.0), vec2(3.0, 3.0)), 50);
        ghost.info.layers = 0b10;
        level.push(ghost);
        let start = vec2(1.0, foot(shape) + 0.001);
        let blocked = ctl(shape);
        let (end, _, _) = walk(&blocked, f, &level, start, 4.0, 90);
        assert!(end.x < 3.0, "{shape:?}: {end}");
        let masked = CharacterController { mask: 0b01, ..ctl(shape) };
        let (end, _, _) = walk(&masked, f, &level, start, 4.0, 90);
        assert!(end.x > 5.0, "{shape:?}: {end}");
        let mut p = start;
        let mut v = Vec2::ZERO;
        for _ in 0..90 {
            v.x = 4.0;
            v.y -= 20.0 * DT;
            let m = blocked.move_and_slide_with(p, v, DT, &level, false, |o| o.id != 50).unwrap();
            p = m.position;
            v = m.velocity;
        }
        assert!(p.x > 5.0, "{shape:?}: {p}");
    }
}

#[test]
fn other_up_directions_and_top_down() {
    for shape in shapes(1.0) {
        // Gravity toward +y (up = -y): standing on a ceiling, walking along it.
        let c = CharacterController { up: Vec2::NEG_Y, ..ctl(shape) };
        let level: Vec<Collider> = (-2..10)
            .map(|i| Collider::Segment(Segment::new(vec2(i as f32, 3.0), vec2(i as f32 + 1.0, 3.0)).unwrap()))
            .collect();
        let mut p = vec2(0.0, 3.0 - foot(shape) - 0.3);
        let mut v = Vec2::ZERO;
        let mut floor = false;
        for _ in 0..120 {
            v.x = 3.0;
            v.y += 20.0 * DT;
            let m = c.move_and_slide(p, v, DT, &level).unwrap();
            floor = m.on_floor();
            assert!(m.ceiling.is_none());
            p = m.position;
            v = m.velocity;
        }
        assert!(floor && (p.y - (3.0 - foot(shape))).abs() < 0.01 && p.x > 4.0, "{shape:?}: {p}");
        // up = +x: the wall at x = 0 is a floor.
        let c = CharacterController { up: Vec2::X, ..ctl(shape) };
        let wall = [Segment::new(vec2(0.0, -10.0), vec2(0.0, 10.0)).unwrap()];
        let mut p = vec2(shape.extent(Vec2::X) + 0.5, 0.0);
        let mut v = Vec2::ZERO;
        let mut m = c.move_and_slide(p, v, DT, &wall).unwrap();
        for _ in 0..60 {
            v.x -= 20.0 * DT;
            v.y = 2.0;
            m = c.move_and_slide(p, v, DT, &wall).unwrap();
            p = m.position;
            v = m.velocity;
        }
        assert!(m.floor.is_some_and(|fl| fl.normal.abs_diff_eq(Vec2::X, 1e-5)), "{shape:?}: {m:?}");
        // Top-down: nothing is a floor; walls stop and slide.
        let c = CharacterController { mode: FloorMode::TopDown, ..ctl(shape) };
        let m = c.move_and_slide(vec2(-2.0, 0.3), vec2(300.0, 60.0), DT, &wall).unwrap();
        assert!(m.floor.is_none() && m.wall.is_some_and(|n| n.abs_diff_eq(Vec2::NEG_X, 1e-3)), "{m:?}");
        assert!(m.position.x <= -shape.extent(Vec2::X) + 1e-5 && m.position.y > 0.3 + 0.5, "{shape:?}: {m:?}");
        assert!(m.velocity.x.abs() < 1e-4 && (m.velocity.y - 60.0).abs() < 1e-4, "{m:?}");
    }
}

#[test]
fn report_lists_touches_walls_ceilings_and_the_floor_obstacle() {
    for shape in shapes(1.0) {
        let c = ctl(shape);
        let h = foot(shape);
        let w = shape.extent(Vec2::X);
        // A corridor just taller than the body: floor id 1, ceiling id 2, wall id 3.
        let level = [
            Obstacle {
                shape: Collider::Segment(Segment::new(vec2(-10.0, 0.0), vec2(10.0, 0.0)).unwrap()),
                info: ObstacleInfo::new(1),
            },
            Obstacle {
                shape: Collider::Segment(
                    Segment::new(vec2(-10.0, 2.0 * h + 0.001), vec2(10.0, 2.0 * h + 0.001)).unwrap(),
                ),
                info: ObstacleInfo::new(2),
            },
            Obstacle {
                shape: Collider::Segment(Segment::new(vec2(2.0, -1.0), vec2(2.0, 5.0)).unwrap()),
                info: ObstacleInfo::new(3),
            },
        ];
        let m = c.move_and_slide(vec2(1.0, h + 0.0005), vec2(120.0, -1.0), DT, &level[..]).unwrap();
        assert!((m.position.x - (2.0 - w)).abs() < 0.01, "{shape:?}: {m:?}");
        assert_eq!(m.floor.map(|f| f.id), Some(1), "{shape:?}: {m:?}");
        assert!(m.wall.is_some_and(|n| n.abs_diff_eq(Vec2::NEG_X, 1e-3)), "{shape:?}: {m:?}");
        assert!(m.ceiling.is_some_and(|n| n.abs_diff_eq(Vec2::NEG_Y, 1e-3)), "{shape:?}: {m:?}");
        let mut ids: Vec<u64> = m.touches().iter().map(|t| t.id).collect();
        ids.sort_unstable();
        assert_eq!(ids, [1, 2, 3], "{shape:?}: {m:?}");
        let wall = m.touches().iter().find(|t| t.id == 3).unwrap();
        assert!((wall.point.x - 2.0).abs() < 1e-4 && wall.normal.abs_diff_eq(Vec2::NEG_X, 1e-5), "{wall:?}");
        assert!(m.velocity.x.abs() < 1e-4 && m.velocity.y.abs() < 1e-6, "{shape:?}: {m:?}");
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let c = ctl(shapes(1.0)[0]);
    let level = [Segment::new(vec2(-1.0, 0.0), vec2(1.0, 0.0)).unwrap()];
    assert!(c.move_and_slide(Vec2::ZERO, Vec2::X, 0.0, &level[..]).unwrap_err().to_string().contains("dt"));
    assert!(c.move_and_slide(Vec2::NAN, Vec2::X, DT, &level[..]).is_err());
    assert!(c.move_and_slide(Vec2::ZERO, vec2(f32::INFINITY, 0.0), DT, &level[..]).is_err());
    let bad_up = CharacterController { up: vec2(1.0, 1.0), ..c };
    assert!(bad_up.move_and_slide(Vec2::ZERO, Vec2::X, DT, &level[..]).unwrap_err().to_string().contains("up"));
    assert!(CharacterController::with_shape(CharacterShape::Aabb { half_extents: vec2(0.0, 1.0) }).is_err());
    assert!(CharacterController::with_shape(CharacterShape::Capsule { half_height: -1.0, radius: 1.0 }).is_err());
    let bad_slope = CharacterController { max_slope: 2.0, ..c };
    assert!(bad_slope.move_and_slide(Vec2::ZERO, Vec2::X, DT, &level[..]).is_err());
}

/// A uniform grid of cells listing obstacle indices: a source that queries by box with no
/// per-frame collection (what a tile map or a broadphase adapter does).
struct Grid {
    obstacles: Vec<Obstacle<Collider>>,
    cells: Vec<Vec<usize>>,
    cell: f32,
    width: usize,
}

impl Grid {
    fn new(obstacles: Vec<Obstacle<Collider>>, cell: f32, width: usize) -> Self {
        let mut cells = vec![Vec::new(); width * width];
        for (i, o) in obstacles.iter().enumerate() {
            let b = o.shape.bounds();
            for y in Self::span(b.min().y, b.max().y, cell, width) {
                for x in Self::span(b.min().x, b.max().x, cell, width) {
                    cells[y * width + x].push(i);
                }
            }
        }
        Self { obstacles, cells, cell, width }
    }
    fn span(lo: f32, hi: f32, cell: f32, width: usize) -> core::ops::RangeInclusive<usize> {
        let c = |v: f32| ((v / cell).floor().max(0.0) as usize).min(width - 1);
        c(lo)..=c(hi)
    }
}

impl<'a> ObstacleSource<'a> for &'a Grid {
    type Shape = Collider;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a Collider, ObstacleInfo)) {
        let mut last = usize::MAX;
        for y in Grid::span(area.min().y, area.max().y, self.cell, self.width) {
            for x in Grid::span(area.min().x, area.max().x, self.cell, self.width) {
                for &i in &self.cells[y * self.width + x] {
                    // Obstacles in several cells come more than once; skipping the previous one
                    // is enough here (duplicates are harmless anyway).
                    if i != last {
                        visit(&self.obstacles[i].shape, self.obstacles[i].info);
                        last = i;
                    }
                }
            }
        }
    }
}

#[test]
fn a_grid_source_gives_the_same_moves_as_the_slice() {
    let f = Frame { o: vec2(1.0, 1.0), s: 1.0 };
    for shape in shapes(1.0) {
        let c = ctl(shape);
        let level = one_way_level(f);
        let grid = Grid::new(level.clone(), 2.0, 64);
        let mut p = f.p(-4.0, 0.0) + vec2(0.0, foot(shape) + 0.001);
        let mut q = p;
        let (mut v, mut u) = (Vec2::ZERO, Vec2::ZERO);
        for i in 0..300 {
            let jump = if i % 80 == 10 { 11.0 } else { 0.0 };
            v.x = 3.0;
            v.y = if jump > 0.0 { jump } else { v.y - 20.0 * DT };
            u.x = 3.0;
            u.y = if jump > 0.0 { jump } else { u.y - 20.0 * DT };
            let a = c.move_and_slide(p, v, DT, &level).unwrap();
            let b = c.move_and_slide(q, u, DT, &grid).unwrap();
            assert_eq!(a.position, b.position, "{shape:?} frame {i}");
            p = a.position;
            q = b.position;
            v = a.velocity;
            u = b.velocity;
        }
    }
}

#[test]
fn many_obstacles_near_a_move_spill_over_and_still_collide() {
    // 400 tiny pieces under a wide box: more than the inline capacity.
    let floor: Vec<Segment> =
        (0..400).map(|i| Segment::new(vec2(i as f32 * 0.05, 0.0), vec2((i + 1) as f32 * 0.05, 0.0)).unwrap()).collect();
    let c = ctl(CharacterShape::Aabb { half_extents: vec2(8.0, 0.5) });
    let mut p = vec2(10.0, 0.6);
    let mut v = Vec2::ZERO;
    for _ in 0..60 {
        v.y -= 20.0 * DT;
        let m = c.move_and_slide(p, v, DT, &floor).unwrap();
        p = m.position;
        v = m.velocity;
    }
    assert!((p.y - 0.5).abs() < 1e-3, "{p}");
}

#[test]
fn a_spilled_neighbourhood_keeps_one_way_obstacles_passable_while_carried() {
    // A wide box carried by a platform, 400 pieces below it (past the inline capacity), and a
    // one-way segment through the body listed after them: it must stay passable through the
    // carry, not pop the body.
    let mut level: Vec<Obstacle<Collider>> = (0..400)
        .map(|i| {
            solid(
                Collider::Segment(
                    Segment::new(vec2(i as f32 * 0.05, -0.5), vec2((i + 1) as f32 * 0.05, -0.5)).unwrap(),
                ),
                i,
            )
        })
        .collect();
    let mut plat = Aabb::new(vec2(0.0, -0.2), vec2(20.0, 0.0)).unwrap();
    let mut cut = solid(Collider::Segment(Segment::new(vec2(0.0, 0.6), vec2(20.0, 0.6)).unwrap()), 999);
    cut.info.one_way = Some(Vec2::Y);
    level.push(cut);
    level.push(Obstacle {
        shape: Collider::Aabb(plat),
        info: ObstacleInfo { velocity: vec2(1.0, 0.0), ..ObstacleInfo::new(1000) },
    });
    let c = ctl(CharacterShape::Aabb { half_extents: vec2(8.0, 0.5) });
    let mut p = vec2(10.0, 0.5005);
    let mut v = Vec2::ZERO;
    for _ in 0..30 {
        v.x = 0.5;
        v.y -= 20.0 * DT;
        let m = c.move_and_slide(p, v, DT, &level).unwrap();
        assert!((m.position.y - 0.5).abs() < 2e-3, "popped: {m:?}");
        assert!(m.floor.is_some_and(|f| f.id == 1000), "{m:?}");
        // A passable one-way obstacle blocks nothing, so nothing touches it.
        assert!(m.touches().iter().all(|t| t.id != 999), "the one-way segment blocked: {m:?}");
        p = m.position;
        v = m.velocity;
        plat = plat.translated(vec2(1.0, 0.0) * DT);
        let n = level.len();
        level[n - 1].shape = Collider::Aabb(plat);
    }
    assert!((p.x - (10.0 + 30.0 * 1.5 * DT)).abs() < 1e-2, "{p}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any shape, any frame, any walking speed and slope up to the limit: no snag, never inside,
    /// always on the floor once settled.
    #[test]
    fn walking_any_walkable_hill_never_snags(
        which in 0usize..3,
        frame in 0usize..4,
        speed in 1.0f32..8.0,
        deg in 0.0f32..45.0,
    ) {
        let f = FRAMES[frame];
        let shape = shapes(f.s)[which];
        let c = ctl(shape);
        let (level, _, _) = hill(f, deg);
        let start = f.p(0.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
        let frames = (14.0 / speed / DT) as usize;
        let (_, snags, floor) = walk(&c, f, &level, start, speed, frames);
        prop_assert_eq!(snags, 0);
        prop_assert!(floor);
    }

    /// A platform moving any way at up to 6 units/s carries any shape without drift.
    #[test]
    fn carried_at_any_velocity_without_drift(
        which in 0usize..3,
        frame in 0usize..4,
        vx in -6.0f32..6.0,
        vy in -6.0f32..6.0,
    ) {
        let f = FRAMES[frame];
        let c = ctl(shapes(f.s)[which]);
        let (offsets, floor) = ride(&c, f, vec2(vx, vy), 60);
        prop_assert!(floor);
        let first = offsets[0];
        for o in &offsets {
            prop_assert!((*o - first).length() <= f.tol());
        }
    }
}

/// Counterexamples unseeded runs of `walking_any_walkable_hill_never_snags` found, kept as
/// explicit cases with the frames around them: the box in the pixel-unit frame ((1e5, 1e5),
/// sizes x32) walking up a 41.5 degree hill of loose pieces snagged once (a piece end's normal
/// tilted 8°); the disk at (8200, 8200) on a 44.9 degree hill was counted 31 snags by a measure
/// of x progress against half the speed, which a clean climb at 45° only just meets.
#[test]
fn walking_a_41_degree_hill_in_pixel_units_never_snags() {
    for (which, frame, speed, deg) in [
        (1usize, 2usize, 3.757_206_7f32, 41.474_102f32),
        (1, 2, 3.757_206_7, 41.5),
        (1, 3, 3.757_206_7, 41.474_102),
        (0, 1, 7.393_452_6, 44.876_007),
        (0, 1, 7.393_452_6, 44.999),
    ] {
        let f = FRAMES[frame];
        let shape = shapes(f.s)[which];
        let c = ctl(shape);
        let (level, _, _) = hill(f, deg);
        let start = f.p(0.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
        let frames = (14.0 / speed / DT) as usize;
        let (_, snags, floor) = walk(&c, f, &level, start, speed, frames);
        assert_eq!(snags, 0, "{shape:?} at {f:?}, speed {speed}, {deg} degrees");
        assert!(floor, "{shape:?} at {f:?}: lost the floor");
    }
}

#[test]
#[allow(deprecated)]
fn the_old_box_names_still_answer_as_the_new_ones() {
    use lore_collide2d::resolve::{contacts_aabb, contacts_box, deepest_contact_aabb, deepest_contact_box};
    use lore_collide2d::{ConvexPolygon, SlideOptions, slide_aabb, slide_aabb_swept, slide_box, slide_box_swept};
    let floor = [Segment::new(vec2(-5.0, 0.0), vec2(5.0, 0.0)).unwrap()];
    let b = Aabb::new(vec2(0.0, -0.1), vec2(1.0, 0.9)).unwrap();
    let o = SlideOptions::default();
    assert_eq!(slide_box(&b, vec2(0.3, -0.1), &floor, &o), slide_aabb(&b, vec2(0.3, -0.1), &floor, &o));
    assert_eq!(slide_box_swept(&b, vec2(0.3, -0.1), &floor, &o), slide_aabb_swept(&b, vec2(0.3, -0.1), &floor, &o));
    assert_eq!(deepest_contact_box(&b, &floor), deepest_contact_aabb(&b, &floor));
    let (mut x, mut y) = (Vec::new(), Vec::new());
    contacts_box(&b, &floor, &mut x);
    contacts_aabb(&b, &floor, &mut y);
    assert_eq!(x, y);
    assert!(!x.is_empty());
    let tri = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(1.0, 2.0)]).unwrap();
    for p in [vec2(1.0, 0.5), vec2(3.0, 0.5)] {
        assert_eq!(tri.contains(p), tri.contains_point(p));
    }
}

/// A random course (frame units): a ground polyline of walkable pieces of random slope (up to
/// 40 degrees) and stairs up and down, cut into loose unit pieces whose ends are moved by up to
/// 1e-5 (overlaps and gaps), plus one-way platforms above it.
fn course(f: Frame, seed: u64, step: f32) -> Vec<Obstacle<Collider>> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut pts = vec![vec2(-10.0, 0.0), vec2(0.0, 0.0)];
    let mut p = vec2(0.0, 0.0);
    while p.x < 120.0 {
        if rng.random_range(0..5) == 0 {
            // Stairs: three steps up or down, each two units deep.
            let dir = if rng.random_range(0..2) == 0 { 1.0 } else { -1.0 };
            for _ in 0..3 {
                p.y += dir * step;
                pts.push(p);
                p.x += 2.0;
                pts.push(p);
            }
        } else {
            let a = rng.random_range(-40.0f32..40.0).to_radians();
            let len = rng.random_range(1.0f32..4.0);
            p += vec2(a.cos(), a.sin()) * len;
            pts.push(p);
        }
    }
    pts.push(p + vec2(10.0, 0.0));
    let mut level = Vec::new();
    let mut id = 0;
    let jiggle = |rng: &mut rand_pcg::Pcg64| vec2(rng.random_range(-1e-5f32..1e-5), rng.random_range(-1e-5f32..1e-5));
    for w in pts.windows(2) {
        let n = ((w[1] - w[0]).length().ceil() as usize).max(1);
        for i in 0..n {
            let a = w[0] + (w[1] - w[0]) * (i as f32 / n as f32);
            let b = w[0] + (w[1] - w[0]) * ((i + 1) as f32 / n as f32);
            let (ja, jb) = (jiggle(&mut rng), jiggle(&mut rng));
            // A vertical riser stays exact (its jiggled ends would make a slope, not a step).
            let (ja, jb) = if (b.x - a.x).abs() < 1e-6 { (Vec2::ZERO, Vec2::ZERO) } else { (ja, jb) };
            level.push(solid(f.seg(a + ja, b + jb), id));
            id += 1;
        }
    }
    level
}

/// Whether a frame snagged: on a floor before (`before`, its normal) and after, no wall touched,
/// no step taken, and less than half of the wanted walk kept along the floor, measured along the
/// floor it started on, the one it ended on (at the bottom of a V it changes floors) and every
/// walkable surface it touched (entering a slope from a flat piece, the floor reported is the
/// flatter of the two, while the move went up the slope).
fn snagged(m: &lore_collide2d::CharacterMove, before: Option<Vec2>, from: Vec2, want: f32) -> bool {
    let (Some(fl), Some(n0)) = (m.floor, before) else { return false };
    if m.wall.is_some() || m.stepped || want == 0.0 {
        return false;
    }
    let kept_half = |n: Vec2| {
        let mut t = n.perp();
        if t.x * want < 0.0 {
            t = -t;
        }
        (m.position - from).dot(t) >= 0.5 * vec2(want, 0.0).dot(t)
    };
    let walkable = |n: Vec2| n.y >= 50f32.to_radians().cos();
    !kept_half(fl.normal) && !kept_half(n0) && !m.touches().iter().any(|t| walkable(t.normal) && kept_half(t.normal))
}

/// The long run of every feature for every shape at every frame (release, `--ignored`).
#[test]
#[ignore = "long: cargo test --release -p lore-collide2d --test character -- --ignored"]
fn long_every_feature_every_shape_every_frame() {
    use rand::{RngExt, SeedableRng};
    let mut total_moves = 0usize;
    for (fi, f) in FRAMES.into_iter().enumerate() {
        for shape in shapes(f.s) {
            let c = ctl(shape);
            // 1. A random course walked both ways with jumps: no snag, never inside.
            for seed in 0..6u64 {
                let level = course(f, seed * 31 + fi as u64, 0.6 * c.step_height / f.s);
                let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
                let mut p = f.p(-5.0, 0.0) + vec2(0.0, foot(shape) + 0.01 * f.s);
                let mut v = Vec2::ZERO;
                let mut dir = 1.0;
                let mut on_floor: Option<Vec2> = None;
                let mut snags = 0;
                for i in 0..3000 {
                    let speed = rng.random_range(2.0f32..8.0);
                    if on_floor.is_some() && rng.random_range(0..60) == 0 {
                        v.y = 8.0 * f.s;
                    }
                    v.x = dir * speed * f.s;
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(p, v, DT, &level).unwrap();
                    total_moves += 1;
                    if i > 3 && snagged(&m, on_floor, p, v.x * DT) {
                        println!("snag {shape:?} {f:?} seed {seed} frame {i}: from {p} v {v} -> {m:?}");
                        snags += 1;
                    }
                    let d = depth(&c, m.position, &level);
                    assert!(d <= f.tol(), "{shape:?} at {f:?} seed {seed} frame {i}: inside by {d} at {}", m.position);
                    on_floor = m.floor.map(|fl| fl.normal);
                    p = m.position;
                    v = m.velocity;
                    if p.x > f.p(125.0, 0.0).x {
                        dir = -1.0;
                    } else if p.x < f.p(-5.0, 0.0).x {
                        dir = 1.0;
                    }
                }
                assert_eq!(snags, 0, "{shape:?} at {f:?} seed {seed}");
            }
            // 2. Carried 600 frames by platforms of random velocities: drift below the tolerance.
            let mut rng = rand_pcg::Pcg64::seed_from_u64(77 + fi as u64);
            for _ in 0..6 {
                let vel = vec2(rng.random_range(-6.0f32..6.0), rng.random_range(-6.0f32..6.0));
                let (offsets, floor) = ride(&c, f, vel, 600);
                total_moves += 600;
                assert!(floor, "{shape:?} at {f:?} on {vel}: left the platform");
                let drift = offsets.iter().map(|o| (*o - offsets[0]).length()).fold(0.0, f32::max);
                assert!(drift <= f.tol(), "{shape:?} at {f:?} on {vel}: drift {drift}");
            }
            // 3. One-way platforms: passed from below at every angle tried, landed on from above
            // at every angle tried, never popped.
            let level = one_way_level(f);
            for k in 0..=12 {
                let a = (15.0 + 150.0 * k as f32 / 12.0).to_radians();
                // From below: a jump at angle `a` from the ground under the platform.
                let mut p = f.p(0.5, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
                let mut v = vec2(a.cos(), a.sin()) * 12.0 * f.s;
                let mut passed = false;
                for _ in 0..90 {
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(p, v, DT, &level).unwrap();
                    total_moves += 1;
                    passed |= m.position.y - foot(shape) > f.p(0.0, 2.0).y;
                    p = m.position;
                    v = m.velocity;
                }
                // It went up through the platform's height (12 units/s reaches 3.6 units).
                assert!(
                    passed || a.sin() * 12.0 * 12.0 / 40.0 < 2.0 + 2.0 * foot(shape) / f.s,
                    "{shape:?} at {f:?} angle {k}: blocked from below"
                );
                // From above: falling at angle `a` below the horizontal onto the platform's middle.
                let mut p = f.p(0.5, 4.0) - vec2(a.cos(), 0.0) * 1.5 * f.s;
                let mut v = vec2(a.cos(), -a.sin().abs()) * 4.0 * f.s;
                let mut landed = false;
                for _ in 0..60 {
                    v.y -= 20.0 * f.s * DT;
                    v.x = a.cos() * 4.0 * f.s;
                    let m = c.move_and_slide(p, v, DT, &level).unwrap();
                    total_moves += 1;
                    landed |= m.floor.is_some_and(|fl| fl.id == 7);
                    assert!(
                        m.position.y >= f.p(0.0, 2.0).y + foot(shape) - f.tol() || !landed,
                        "{shape:?} at {f:?}: through after landing"
                    );
                    p = m.position;
                    v = m.velocity;
                    if landed {
                        break;
                    }
                }
                assert!(landed, "{shape:?} at {f:?} angle {k}: never landed from above: {p}");
            }
            // 4. Crushed between a pusher and a wall at random speeds: reported, never through.
            let w = shape.extent(Vec2::X);
            for speed in [0.5f32, 2.0, 5.0, 9.0] {
                let mut pusher = Aabb::new(f.p(-2.0, 0.0), f.p(0.0, 2.0)).unwrap();
                let mut p = f.p(1.0, 0.0) + vec2(0.0, foot(shape) + 0.001 * f.s);
                let mut v = Vec2::ZERO;
                let mut crushed = false;
                for _ in 0..((8.0 / speed / DT) as usize) {
                    let level = [
                        Obstacle {
                            shape: Collider::Aabb(pusher),
                            info: ObstacleInfo { velocity: vec2(speed, 0.0) * f.s, ..ObstacleInfo::new(1) },
                        },
                        solid(f.seg(vec2(-10.0, 0.0), vec2(20.0, 0.0)), 2),
                        solid(f.seg(vec2(6.0, 0.0), vec2(6.0, 5.0)), 3),
                    ];
                    v.y -= 20.0 * f.s * DT;
                    let m = c.move_and_slide(p, v, DT, &level[..]).unwrap();
                    total_moves += 1;
                    assert!(
                        m.position.x + w <= f.p(6.0, 0.0).x + f.tol(),
                        "{shape:?} at {f:?} at {speed}: through the wall"
                    );
                    crushed |= m.crushed;
                    p = m.position;
                    v = m.velocity;
                    pusher = pusher.translated(vec2(speed, 0.0) * f.s * DT);
                }
                assert!(crushed, "{shape:?} at {f:?} at {speed}: never reported crushed");
            }
        }
    }
    println!("{total_moves} moves, 0 snags, never inside, drift within tolerance");
}

/// The benchmark's character course (benches/benches/collide2d.rs, `character_course`): 200 m
/// of ground in loose 0.5 m pieces, flat stretches, slopes of 20 and 25 degrees up and down and
/// stairs of 0.15 m up and down, as pieces sorted along `x`.
fn bench_course() -> Vec<Segment> {
    let mut pts = vec![vec2(-5.0, 0.0), vec2(10.0, 0.0)];
    let mut p = vec2(10.0, 0.0);
    let mut k = 0;
    while p.x < 200.0 {
        let deg: f32 = [20.0, -25.0, 25.0, -20.0][k % 4];
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

/// The course's pieces near an area (they are sorted along `x` and at most 0.5 m long).
struct CourseSource<'a>(&'a [Segment]);

impl<'a> ObstacleSource<'a> for CourseSource<'a> {
    type Shape = Segment;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a Segment, ObstacleInfo)) {
        let lo = self.0.partition_point(|s| s.a.x.max(s.b.x) < area.min().x - 0.5);
        for (i, s) in self.0.iter().enumerate().skip(lo) {
            if s.a.x.min(s.b.x) > area.max().x {
                break;
            }
            if s.aabb().overlaps(area) {
                visit(s, ObstacleInfo::new(i as u64));
            }
        }
    }
}

/// The benchmark's course walked right at 4 m/s with gravity for 2,000 frames by its three
/// bodies (step height and snap length 0.25): no frame keeps less than half of the wanted
/// progress along `x` (the slopes are at most 25 degrees, where `x` keeps 0.82 of a walk along
/// the slope, and the stairs are below the step height), and the course is walked to its end.
/// Climbing a 0.15 m stair, a round body used to land its step-up on the stair's rounded edge,
/// a walkable but 45-degree floor, and crawl over it.
#[test]
fn walks_the_benchmark_course_without_a_snag_every_shape() {
    let mut segs = bench_course();
    segs.sort_by(|a, b| a.a.x.min(a.b.x).total_cmp(&b.a.x.min(b.b.x)));
    let shapes = [
        CharacterShape::Disk { radius: 0.5 },
        CharacterShape::Aabb { half_extents: vec2(0.4, 0.5) },
        CharacterShape::Capsule { half_height: 0.3, radius: 0.35 },
    ];
    for shape in shapes {
        let c = CharacterController {
            step_height: 0.25,
            snap_length: 0.25,
            ..CharacterController::with_shape(shape).unwrap()
        };
        let mut p = vec2(1.0, shape.extent(Vec2::Y) + 0.01);
        let mut vy = 0.0f32;
        let mut snags = Vec::new();
        for frame in 0..2000 {
            let v = vec2(4.0, vy - 20.0 * DT);
            let m = c.move_and_slide(p, v, DT, CourseSource(&segs)).unwrap();
            if m.position.x - p.x < 0.5 * 4.0 * DT {
                snags.push((frame, p));
            }
            vy = if m.on_floor() { 0.0 } else { v.y };
            p = m.position;
        }
        assert!(snags.is_empty(), "{shape:?}: {} snags (frame, from): {snags:?}", snags.len());
        assert!(p.x > 130.0, "{shape:?}: ended at {p}");
    }
}
