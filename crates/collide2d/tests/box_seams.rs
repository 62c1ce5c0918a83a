//! Box moves pressed hard into seams: landings at every press angle from 5° to 85°, box corners
//! placed exactly on seam ends, single segments at many tilts, floors of exactly collinear pieces
//! of odd lengths, loose and bent pieces, tile tops and triangle edges, five box shapes, both
//! directions along the surface, near the origin and at (8200, 8200).
//!
//! Snag (as in `domain.rs`): after a few settling steps, a step that keeps less than half of the
//! wanted motion along the surface while pressed into it. Fell: a step that ends below the
//! surface line by more than half the box's smaller half extent. Left inside: a move that reports
//! a depth beyond its tolerance. The fast matrix runs in `cargo test`; the whole one with
//! `cargo test --release -p lore-collide2d --test box_seams -- --ignored --nocapture`, which prints
//! the number of steps each case covered. Seeds are fixed.

use glam::{Vec2, vec2};
use lore_collide2d::{Aabb, Collider, ConvexPolygon, Segment, SlideOptions, slide_aabb, slide_aabb_swept};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const ORIGINS: [Vec2; 2] = [Vec2::ZERO, Vec2::new(8200.0, 8200.0)];
const SETTLE: usize = 3;
/// The five box shapes of the matrix (half extents).
const BOXES: [Vec2; 5] =
    [Vec2::new(0.1, 0.1), Vec2::new(1.0, 1.0), Vec2::new(10.0, 10.0), Vec2::new(1.0, 0.25), Vec2::new(0.25, 1.0)];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Floor {
    /// One long straight segment.
    Single,
    /// Pieces of an odd length (0.074 units) sharing their ends exactly (computed in f64).
    Exact,
    /// Unit pieces, each end moved by up to 1e-5 across and along.
    Loose,
    /// One polyline whose unit pieces tilt by up to ±1e-4 rad.
    Bent,
    /// Unit boxes whose tops make the floor (axis-aligned surfaces only).
    Tiles,
    /// Triangles whose top edges make the floor.
    Triangles,
}

const FLOORS: [Floor; 6] = [Floor::Single, Floor::Exact, Floor::Loose, Floor::Bent, Floor::Tiles, Floor::Triangles];

/// A surface along `u` through `origin`, solid on the `-n` side.
struct Surface {
    origin: Vec2,
    u: Vec2,
    n: Vec2,
    /// Length of its pieces (where they have one).
    piece: f64,
    shapes: Vec<Collider>,
}

fn surface(origin: Vec2, deg: f64, floor: Floor, len: f64, rng: &mut Pcg64) -> Option<Surface> {
    let a = deg.to_radians();
    let (u64x, u64y) = (a.cos(), a.sin());
    let u = vec2(u64x as f32, u64y as f32);
    let n = u.perp();
    // Points in f64, rounded once: shared ends of exactly collinear pieces are the same f32.
    let at = |s: f64, h: f64| {
        vec2((origin.x as f64 + u64x * s - u64y * h) as f32, (origin.y as f64 + u64y * s + u64x * h) as f32)
    };
    let start = -len;
    let seg = |p: Vec2, q: Vec2| Collider::Segment(Segment::new(p, q).unwrap());
    let (piece, shapes) = match floor {
        Floor::Single => (2.0 * len, vec![seg(at(start, 0.0), at(len, 0.0))]),
        Floor::Exact => {
            let l = 0.074;
            let n = (2.0 * len / l) as i64;
            (l, (0..n).map(|i| seg(at(start + i as f64 * l, 0.0), at(start + (i + 1) as f64 * l, 0.0))).collect())
        }
        Floor::Loose => (
            1.0,
            (0..(2.0 * len) as i64)
                .map(|i| {
                    let mut j = || rng.random_range(-1e-5f64..1e-5);
                    let s = start + i as f64;
                    seg(at(s + j(), j()), at(s + 1.0 + j(), j()))
                })
                .collect(),
        ),
        Floor::Bent => {
            let mut h = 0.0f64;
            let mut pts = vec![at(start, 0.0)];
            for i in 1..=(2.0 * len) as i64 {
                h = (h + rng.random_range(-1e-4f64..1e-4)).clamp(-1e-3, 1e-3);
                pts.push(at(start + i as f64, h));
            }
            (1.0, Segment::polyline(&pts, false).unwrap().into_iter().map(Collider::Segment).collect())
        }
        Floor::Tiles => {
            if deg.rem_euclid(90.0) != 0.0 {
                return None;
            }
            (
                1.0,
                (0..(2.0 * len) as i64)
                    .map(|i| {
                        let s = start + i as f64;
                        Collider::Aabb(Aabb::covering(at(s, 0.0), at(s + 1.0, -1.0)))
                    })
                    .collect(),
            )
        }
        Floor::Triangles => (
            1.0,
            (0..(2.0 * len) as i64)
                .map(|i| {
                    let s = start + i as f64;
                    Collider::Polygon(ConvexPolygon::hull(&[at(s, 0.0), at(s + 1.0, 0.0), at(s + 0.5, -0.5)]).unwrap())
                })
                .collect(),
        ),
    };
    Some(Surface { origin, u, n, piece, shapes })
}

impl Surface {
    /// The shapes within `reach` of `p` along the surface (what a broad phase would return): the
    /// pieces are laid in order along `u`, `piece` apart, from `-len`.
    fn near(&self, p: Vec2, reach: f32, len: f64) -> &[Collider] {
        if self.shapes.len() == 1 {
            return &self.shapes;
        }
        let s = ((p - self.origin).dot(self.u) as f64 + len) / self.piece;
        let r = reach as f64 / self.piece + 2.0;
        let lo = (s - r).floor().max(0.0) as usize;
        let hi = ((s + r).ceil().max(0.0) as usize).min(self.shapes.len());
        &self.shapes[lo.min(hi)..hi]
    }
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Count {
    runs: u64,
    steps: u64,
    snags: u64,
    fell: u64,
    inside: u64,
}

impl core::ops::AddAssign for Count {
    fn add_assign(&mut self, o: Count) {
        self.runs += o.runs;
        self.steps += o.steps;
        self.snags += o.snags;
        self.fell += o.fell;
        self.inside += o.inside;
    }
}

/// Distance from the box centre to the surface with normal `n` when resting on it.
fn support(h: Vec2, n: Vec2) -> f32 {
    h.x * n.x.abs() + h.y * n.y.abs()
}

struct Case {
    half: Vec2,
    swept: bool,
    /// Speed along the motion, a fraction of the smaller half extent per step.
    speed: f32,
    /// Angle of the motion into the surface, degrees.
    press: f32,
    /// +1 or -1: the direction along `u`.
    dir: f32,
    /// Where the box starts along the surface (its support corner, relative to a piece's end).
    offset: f32,
    /// Height above the surface the box starts at (landing), a multiple of the per-step press.
    drop_steps: f32,
}

fn walk(surf: &Surface, case: &Case, steps: usize, len: f64) -> (Count, Option<String>) {
    let opts = SlideOptions::default();
    let h = case.half;
    let v = case.speed * h.min_element();
    let (s, c) = case.press.to_radians().sin_cos();
    let along = surf.u * (case.dir * v * c);
    let m = along - surf.n * (v * s);
    // The box's corner (or face) that rests on the surface starts on a piece's end plus `offset`.
    let corner = vec2(-h.x * surf.n.x.signum(), -h.y * surf.n.y.signum());
    let corner = vec2(if surf.n.x == 0.0 { 0.0 } else { corner.x }, if surf.n.y == 0.0 { 0.0 } else { corner.y });
    let mut p = surf.origin + surf.u * case.offset - corner + surf.n * (case.drop_steps * v * s);
    // Make the box rest on the line exactly where it should (corner or face on the surface).
    p += surf.n * (support(h, surf.n) - (p - surf.origin).dot(surf.n) + case.drop_steps * v * s);
    let mut count = Count { runs: 1, ..Count::default() };
    let mut first = None;
    let tol = |p: Vec2| (1e-4 * h.min_element()).max(4.0 * p.abs().max_element().max(1.0) * f32::EPSILON * 2.0);
    for i in 0..steps {
        let near = surf.near(p, h.length() + 2.0 * v + 1.0, len);
        let b = Aabb::from_center(p, h).unwrap();
        let out =
            if case.swept { slide_aabb_swept(&b, m, near, &opts) } else { slide_aabb(&b, m, near, &opts) }.unwrap();
        let q = out.position;
        if i >= SETTLE + case.drop_steps as usize {
            count.steps += 1;
            let kept = (q - p).dot(surf.u * case.dir);
            let wanted = v * c;
            let snag = kept < 0.5 * wanted;
            let fell = (q - surf.origin).dot(surf.n) < support(h, surf.n) - 0.5 * h.min_element();
            let inside = out.depth > tol(q);
            count.snags += u64::from(snag);
            count.fell += u64::from(fell);
            count.inside += u64::from(inside);
            if (snag || fell || inside) && first.is_none() {
                first = Some(format!(
                    "step {i}: p {p:?} m {m:?} -> {q:?} (kept {kept} of {wanted}, depth {}, normal {:?}){}{}{}",
                    out.depth,
                    out.last_normal,
                    if snag { " snag" } else { "" },
                    if fell { " fell" } else { "" },
                    if inside { " inside" } else { "" }
                ));
            }
        }
        p = q;
    }
    (count, first)
}

struct Matrix {
    degs: Vec<f64>,
    speeds: Vec<f32>,
    presses: Vec<f32>,
    steps: usize,
    offsets: usize,
}

/// One mode of the matrix at one origin: the total, and the count of each box shape (in the
/// order of [`BOXES`]).
fn run(label: &str, m: &Matrix, swept: bool, origin: Vec2, seed: u64) -> (Count, [Count; BOXES.len()]) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut total = Count::default();
    let mut worst: Option<(u64, String)> = None;
    let mut by_press: Vec<(f32, u64)> = m.presses.iter().map(|&p| (p, 0)).collect();
    let mut by_box = [Count::default(); BOXES.len()];
    let mut first_by_press: Vec<Option<String>> = vec![None; m.presses.len()];
    let ulp = origin.abs().max_element().max(1.0) * f32::EPSILON;
    for &deg in &m.degs {
        for floor in FLOORS {
            for half in BOXES {
                let reach = half.length() as f64;
                let longest = m.speeds.iter().fold(0.0f32, |a, &s| a.max(s)) * half.min_element() * m.steps as f32;
                let len = (longest as f64 + 4.0 * reach + 8.0).ceil();
                let Some(surf) = surface(origin, deg, floor, len, &mut rng) else { continue };
                for &speed in &m.speeds {
                    for &press in &m.presses {
                        let v = speed * half.min_element() * press.to_radians().cos();
                        // Below two units in the last place per step, `p + motion == p` can hold.
                        if v < 2.0 * ulp * (1.0 + half.max_element() / origin.abs().max_element().max(1.0)) {
                            continue;
                        }
                        for dir in [1.0f32, -1.0] {
                            for k in 0..m.offsets {
                                // k = 0: the support corner exactly on a piece's end; then random.
                                let end = if floor == Floor::Single {
                                    0.0
                                } else {
                                    (-len + surf.piece * (len / surf.piece).round()) as f32
                                };
                                let offset =
                                    if k == 0 { end } else { end + rng.random_range(0.0..surf.piece.min(1.0) as f32) };
                                let case = Case {
                                    half,
                                    swept,
                                    speed,
                                    press,
                                    dir,
                                    offset,
                                    drop_steps: if press >= 30.0 { 2.0 } else { 0.0 },
                                };
                                let (c, first) = walk(&surf, &case, m.steps, len);
                                if let Some(f) = first {
                                    let bad = c.snags + c.fell + c.inside;
                                    if worst.as_ref().is_none_or(|w| bad > w.0) {
                                        worst = Some((
                                            bad,
                                            format!(
                                                "{deg} deg {floor:?} box {half} speed {speed} press {press} dir {dir} offset {offset}: {c:?}; first {f}"
                                            ),
                                        ));
                                    }
                                }
                                total += c;
                                by_box[BOXES.iter().position(|&b| b == half).unwrap()] += c;
                                if let Some(k) = by_press.iter().position(|e| e.0 == press) {
                                    by_press[k].1 += c.snags + c.fell + c.inside;
                                    if c.snags + c.fell + c.inside > 0 && first_by_press[k].is_none() {
                                        first_by_press[k] = Some(format!(
                                            "{deg} deg {floor:?} box {half} speed {speed} press {press} dir {dir} offset {offset}: {c:?}"
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!("{label} at {origin}: {total:?}; failing steps by press angle {by_press:?}");
    for (b, c) in BOXES.iter().zip(&by_box) {
        println!("  box {b}: {c:?}");
    }
    if let Some(w) = worst {
        println!("  worst: {}", w.1);
    }
    for f in first_by_press.iter().flatten() {
        println!("  first: {f}");
    }
    assert!(total.steps > 0);
    (total, by_box)
}

fn matrix(n_degs: usize, steps: usize, offsets: usize) -> Matrix {
    // Every orientation: floors, slopes, walls and ceilings, plus two tilts a level uses often.
    let mut degs: Vec<f64> = (0..n_degs).map(|i| 360.0 * i as f64 / n_degs as f64).collect();
    degs.extend([7.0, 33.0]);
    Matrix { degs, speeds: vec![0.01, 0.3], presses: vec![5.0, 45.0], steps, offsets }
}

fn check(rows: &[Count]) {
    for c in rows {
        assert_eq!((c.snags, c.fell, c.inside), (0, 0, 0), "{c:?}");
    }
}

fn both_modes(m: &Matrix, origin: Vec2, seed: u64) -> Vec<Count> {
    both_modes_by_box(m, origin, seed).iter().map(|r| r.0).collect()
}

fn both_modes_by_box(m: &Matrix, origin: Vec2, seed: u64) -> Vec<(Count, [Count; BOXES.len()])> {
    vec![run("slide_aabb", m, false, origin, seed), run("slide_aabb_swept", m, true, origin, seed + 1)]
}

/// Presses of 5° and 45° at both origins, and 60° to 85° near the origin on a few orientations:
/// no snag, none through the floor, none left inside. The long run covers the rest.
#[test]
fn box_pressed_into_seams_never_snags() {
    let m = matrix(4, 16, 1);
    check(&both_modes(&m, ORIGINS[0], 100));
    check(&both_modes(&m, ORIGINS[1], 200));
    let steep = Matrix { presses: vec![60.0, 75.0, 85.0], degs: vec![0.0, 7.0, 33.0, 90.0, 180.0], ..matrix(4, 16, 1) };
    check(&both_modes(&steep, ORIGINS[0], 300));
}

/// The matrix in release mode: 12 orientations plus 7° and 33°, four speeds from 1/1000 to the
/// whole size per step, presses from 5° to 85°, both origins: asserted near the origin, and at
/// (8200, 8200) for every box but the 10 x 10 one, whose counts are printed for the guide (see
/// docs/collide2d.md, "Box moves pressed hard into seams"). `LORE_BOX_SEAMS_FULL=1` runs a larger
/// matrix (24 orientations, five speeds, two starting places, 60 steps).
#[test]
#[ignore = "long run: cargo test --release -p lore-collide2d --test box_seams -- --ignored --nocapture"]
fn box_pressed_into_seams_never_snags_long() {
    let full = std::env::var_os("LORE_BOX_SEAMS_FULL").is_some();
    let mut m = if full { matrix(24, 60, 2) } else { matrix(12, 30, 1) };
    m.speeds = if full { vec![0.001, 0.01, 0.05, 0.3, 1.0] } else { vec![0.001, 0.02, 0.3, 1.0] };
    m.presses = vec![5.0, 15.0, 30.0, 45.0, 60.0, 75.0, 85.0];
    check(&both_modes(&m, ORIGINS[0], 1000));
    // The far origin: asserted for every box but the 10 x 10 one, which is counted for the guide.
    for (_, by_box) in both_modes_by_box(&m, ORIGINS[1], 2000) {
        let others: Vec<Count> =
            BOXES.iter().zip(by_box).filter(|(b, _)| **b != Vec2::new(10.0, 10.0)).map(|(_, c)| c).collect();
        check(&others);
    }
}

/// The first case, verbatim: a box resting on a perfectly level floor of collinear
/// pieces far from the origin, moving down-left (and down-right) at 45°.
#[test]
fn level_collinear_pieces_far_away_at_45_degrees() {
    let segs: Vec<Segment> = (-300..300)
        .map(|i| {
            let a = 8200.0f64 + i as f64 * 0.074;
            Segment::new(vec2(a as f32, 8200.0), vec2((a + 0.074) as f32, 8200.0)).unwrap()
        })
        .collect();
    for swept in [false, true] {
        for m in [vec2(-0.05, -0.05), vec2(0.05, -0.05)] {
            let mut p = vec2(8200.0, 8200.1);
            for i in 0..300 {
                let b = Aabb::from_center(p, vec2(0.1, 0.1)).unwrap();
                let o = SlideOptions::default();
                let out =
                    if swept { slide_aabb_swept(&b, m, &segs, &o) } else { slide_aabb(&b, m, &segs, &o) }.unwrap();
                let kept = (out.position.x - p.x) * m.x.signum();
                assert!(
                    kept >= 0.025,
                    "swept {swept}, m {m}, step {i}: {p} -> {} ({:?})",
                    out.position,
                    out.last_normal
                );
                p = out.position;
            }
            assert!((p.x - 8200.0).abs() > 14.9, "swept {swept} m {m}: ends at {p}");
        }
    }
}

/// The second case, verbatim: a discrete box on one segment tilted 7°, near the origin,
/// pressed as it walks.
#[test]
fn one_segment_tilted_7_degrees() {
    let seg = [Segment::new(vec2(-14.888192, -1.8280401), vec2(14.888192, 1.8280401)).unwrap()];
    let u = (seg[0].b - seg[0].a).normalize();
    let m = vec2(0.0011144155, -0.0008706768);
    let mut p = vec2(-0.2, 0.2);
    for i in 0..600 {
        let b = Aabb::from_center(p, vec2(0.1, 0.1)).unwrap();
        let out = slide_aabb(&b, m, &seg, &SlideOptions::default()).unwrap();
        let kept = (out.position - p).dot(u);
        assert!(i < SETTLE || kept >= 0.5 * m.dot(u), "step {i}: {p} -> {} ({:?})", out.position, out.last_normal);
        p = out.position;
    }
}

/// A level floor at the origin `o`: pieces of length 0.074 from `x0` to `x1` at height `y`,
/// sharing their ends exactly.
fn level_pieces(o: Vec2, x0: f64, x1: f64, y: f64) -> Vec<Collider> {
    let n = ((x1 - x0) / 0.074).ceil() as i64;
    (0..n)
        .map(|i| {
            let a = x0 + i as f64 * 0.074;
            let b = (a + 0.074).min(x1);
            let p = |x: f64| vec2((o.x as f64 + x) as f32, (o.y as f64 + y) as f32);
            Collider::Segment(Segment::new(p(a), p(b)).unwrap())
        })
        .collect()
}

/// Walks a box resting on the floor at height 0 (relative to `o`) toward +x from `start` (its
/// right edge), pressed into the floor at `press` degrees, for `steps` steps; returns where its
/// right edge ends (relative to `o`) and whether it ever went below the floor by more than half
/// its smaller half extent.
#[allow(clippy::too_many_arguments)]
fn walk_right(o: Vec2, half: Vec2, level: &[Collider], swept: bool, m: Vec2, start: f32, steps: usize) -> (f32, bool) {
    let mut p = o + vec2(start - half.x, half.y);
    let mut fell = false;
    for _ in 0..steps {
        let b = Aabb::from_center(p, half).unwrap();
        let opts = SlideOptions::default();
        let out = if swept { slide_aabb_swept(&b, m, level, &opts) } else { slide_aabb(&b, m, level, &opts) }.unwrap();
        p = out.position;
        fell |= p.y - o.y < half.y - 0.5 * half.min_element();
    }
    (p.x - o.x + half.x, fell)
}

/// The seam rule stops at real obstacles: a box pressed into a floor at 45 and 85 degrees stops
/// at a wall, and at a step up of 0.5 % of its smaller half extent (twice the seam height, half
/// the corner rounding), whether the step has a riser or is only the raised end of the next
/// piece; a raised end of a tenth of that (0.05 %, below the seam height) is ridden over. Every
/// box shape, both modes, both origins. The discrete move is tried only where its motion along
/// the floor per step is less than the step's height: a move that enters a step deeper sideways
/// than it is high is pushed out upward (the least overlap), as by any position-based resolver.
#[test]
fn real_walls_and_steps_still_block_pressed_boxes() {
    let mut runs = 0;
    for o in ORIGINS {
        let ulp = o.abs().max_element().max(1.0) * f32::EPSILON;
        for half in BOXES {
            let small = half.min_element();
            // The corner rounding (1 %, at least 16 spacings): how far past a step's foot the
            // box's edge reaches when its rounded corner rests against the step's top.
            let round = (0.01 * small).max((16.0 * ulp).min(0.5 * small));
            // Where it may stop short: the swept move's skin (at least 8 spacings) and 1 %.
            let short = -(1e-3 * small).max(8.0 * ulp) - 0.01 * small - 4.0 * ulp;
            for swept in [false, true] {
                for press in [45.0f32, 85.0] {
                    for speed in [0.001f32, 0.02, 0.3] {
                        let v = speed * small;
                        let (s, c) = press.to_radians().sin_cos();
                        let m = vec2(v * c, -v * s);
                        // Outside the domain: less than 2 spacings along the floor per step.
                        if m.x < 2.0 * ulp {
                            continue;
                        }
                        // 20 steps from the obstacle, 60 steps: a free box passes it by 40.
                        let (start, steps) = (-20.0 * m.x, 60);
                        let label = format!("{o} box {half} swept {swept} press {press} speed {speed}");
                        let floor = |x0: f64, x1: f64, y: f64| level_pieces(o, x0 - 2.0 * half.x as f64 - 1.0, x1, y);
                        // A wall at x = 0 rising 3 half heights above the floor.
                        let mut level = floor(start as f64, 4.0 + 2.0 * half.x as f64, 0.0);
                        level.push(Collider::Segment(Segment::new(o, o + vec2(0.0, 3.0 * half.y)).unwrap()));
                        let (edge, fell) = walk_right(o, half, &level, swept, m, start, steps);
                        assert!(!fell, "{label}: fell through the floor at the wall");
                        assert!(edge <= 4.0 * ulp + 1e-4 * small, "{label}: right edge {edge} past the wall at 0");
                        assert!(edge > short, "{label}: stopped short of the wall at {edge}");
                        runs += 1;
                        // A step up of 0.5 % of the smaller half extent at x = 0, with and
                        // without a riser; and a raised end of 0.05 %, ridden over.
                        // Far from the origin the seam height is at least 4 spacings (the
                        // rounding at least 16), and so is the step twice as high.
                        let seam = (0.0025 * small).max(4.0 * ulp);
                        for (rise, riser) in [(2.0f32, true), (2.0, false), (0.2, false)] {
                            let h = rise * seam;
                            if !swept && rise >= 2.0 && m.x >= h {
                                continue;
                            }
                            let mut level = floor(start as f64, 0.0, 0.0);
                            level.extend(level_pieces(o, 0.0, 1.0 + 40.0 * m.x as f64 + 2.0 * half.x as f64, h as f64));
                            if riser {
                                level.push(Collider::Segment(Segment::new(o, o + vec2(0.0, h)).unwrap()));
                            }
                            let (edge, fell) = walk_right(o, half, &level, swept, m, start, steps);
                            assert!(!fell, "{label} step {h}: fell through the floor");
                            if rise >= 2.0 {
                                assert!(
                                    edge <= round + 4.0 * ulp,
                                    "{label}: passed a real step of {h} (edge at {edge})"
                                );
                                assert!(edge > short, "{label}: stopped short of the step of {h} at {edge}");
                            } else {
                                assert!(edge > 10.0 * m.x, "{label}: stopped at a raised end of {h} (edge at {edge})");
                            }
                            runs += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(runs > 300, "{runs}");
}

/// A box hovering over a floor by less than the seam margin (0.2 % of its smaller half extent:
/// where a seam's lift leaves it) and pressed into it lands: within a few steps its gap to the
/// floor is no more than the swept move's skin. The discrete move first closes the gap, then
/// slides; keeping the gap would leave the box floating for good.
#[test]
fn a_box_hovering_within_the_seam_margin_lands() {
    for o in ORIGINS {
        let ulp = o.abs().max_element().max(1.0) * f32::EPSILON;
        for half in BOXES {
            let small = half.min_element();
            let level = level_pieces(o, -8.0 - 2.0 * half.x as f64, 8.0 + 2.0 * half.x as f64, 0.0);
            let skin = (1e-3 * small).max(8.0 * ulp);
            let tol = (1e-4 * small).max(4.0 * ulp);
            for swept in [false, true] {
                for press in [30.0f32, 60.0, 85.0] {
                    let v = 0.01 * small;
                    let (s, c) = press.to_radians().sin_cos();
                    let m = vec2(v * c, -v * s);
                    let mut p = o + vec2(0.0, half.y + 0.002 * small);
                    for _ in 0..5 {
                        let b = Aabb::from_center(p, half).unwrap();
                        let opts = SlideOptions::default();
                        let out = if swept {
                            slide_aabb_swept(&b, m, &level, &opts)
                        } else {
                            slide_aabb(&b, m, &level, &opts)
                        };
                        p = out.unwrap().position;
                    }
                    let gap = p.y - o.y - half.y;
                    assert!(
                        gap <= skin + tol + ulp && gap >= -tol - ulp,
                        "{o} box {half} swept {swept} press {press}: gap {gap} after 5 steps"
                    );
                }
            }
        }
    }
}
