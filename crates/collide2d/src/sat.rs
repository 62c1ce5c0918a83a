//! A box against a convex set of points (a segment's two ends, a convex polygon's vertices) by
//! separating axes.
//!
//! The Minkowski sum of the obstacle and the box (centred at the origin) is a convex polygon
//! whose faces have exactly the normals `x`, `y` and the obstacle's edge normals, so it is the
//! intersection of one slab per axis. The box overlaps the obstacle when its centre is inside
//! every slab; a moving box first touches the obstacle when its centre's ray enters the last
//! slab (a SAT sweep); a box rounded by `radius` is a disk of that radius against the sum, whose
//! boundary is covered by the edges listed by [`minkowski_edges`]. One mechanism gives sharp
//! contacts, sweeps, rounded contacts and rounded casts.

use glam::Vec2;

use crate::geometry::closest_point_segment;
use crate::math::sqrt;
use crate::ray::ray_capsule;
use crate::report::{Contact, Hit};
use crate::shapes::{Capsule, Segment};

/// The obstacle: its vertices and whether they close into a polygon (counter-clockwise) or are
/// the two ends of a segment.
#[derive(Clone, Copy)]
pub(crate) struct Points<'a> {
    pub points: &'a [Vec2],
    pub closed: bool,
}

impl Points<'_> {
    /// The edges: consecutive vertices, closing the loop for a polygon.
    fn edge_count(&self) -> usize {
        let n = self.points.len();
        if self.closed { n } else { n.saturating_sub(1) }
    }

    fn edge(&self, i: usize) -> (Vec2, Vec2) {
        let n = self.points.len();
        (self.points[i], self.points[(i + 1) % n])
    }
}

/// Coordinates are taken relative to the box centre and multiplied by `scale`: 1, or 1/8 when
/// a difference could overflow (beyond the documented domain), which keeps every sum finite.
fn scale_for(points: Points<'_>, center: Vec2, half: Vec2, motion: Vec2) -> f32 {
    const BIG: f32 = 1e37;
    let far = points.points.iter().any(|&p| (p - center).abs().max_element() >= BIG);
    if far || half.max_element() >= BIG || motion.abs().max_element() >= BIG { 0.125 } else { 1.0 }
}

/// Calls `f(axis, lo, hi)` for every separating axis (unit length): `[lo, hi]` is the extent
/// along `axis` of the Minkowski sum, relative to the centre, times `scale`.
fn for_each_slab(points: Points<'_>, center: Vec2, half: Vec2, scale: f32, mut f: impl FnMut(Vec2, f32, f32)) {
    let c = center * scale;
    let h = half * scale;
    let mut slab = |axis: Vec2| {
        let mut lo = f32::INFINITY;
        let mut hi = f32::NEG_INFINITY;
        for &p in points.points {
            let x = (p * scale - c).dot(axis);
            lo = lo.min(x);
            hi = hi.max(x);
        }
        let r = h.x * axis.x.abs() + h.y * axis.y.abs();
        f(axis, lo - r, hi + r);
    };
    slab(Vec2::X);
    slab(Vec2::Y);
    for i in 0..points.edge_count() {
        let (p, q) = points.edge(i);
        // Halves cannot overflow; the normal's direction is all that matters.
        let n = (q * 0.5 - p * 0.5).perp().normalize_or_zero();
        // Axis-aligned edges repeat `x` or `y`; a degenerate one has no normal.
        if n != Vec2::ZERO && n.x != 0.0 && n.y != 0.0 {
            slab(n);
        }
    }
}

/// The largest signed separation of the box centre from the Minkowski sum over all axes
/// (negative inside: minus the smallest overlap), with the unit normal pointing from the
/// obstacle toward the box. NaN never comes out: a NaN separation counts as far.
pub(crate) fn separation(points: Points<'_>, center: Vec2, half: Vec2) -> (f32, Vec2) {
    let scale = scale_for(points, center, half, Vec2::ZERO);
    let mut best = (f32::NEG_INFINITY, Vec2::Y);
    for_each_slab(points, center, half, scale, |axis, lo, hi| {
        // The centre is at 0: below the slab it is `lo` away (leave toward -axis), above it
        // `-hi` (leave toward +axis); inside, the larger of the two is minus the overlap.
        let (s, n) = if lo > -hi { (lo, -axis) } else { (-hi, axis) };
        let s = if s.is_nan() { f32::INFINITY } else { s };
        if s > best.0 {
            best = (s, n);
        }
    });
    (best.0 / scale, best.1)
}

/// The boundary point of the obstacle closest to `center` (for reporting contacts).
fn closest_obstacle_point(points: Points<'_>, center: Vec2) -> Vec2 {
    let mut best = (f32::INFINITY, points.points[0]);
    for i in 0..points.edge_count() {
        let (p, q) = points.edge(i);
        let c = closest_point_segment(center, p, q);
        let d = (center - c).length_squared();
        if d < best.0 {
            best = (d, c);
        }
    }
    best.1
}

/// Contact of a box (centre, half extents `half`, corners rounded by `radius >= 0`) against the
/// obstacle. `radius == 0` is the sharp box: the least overlap over the separating axes;
/// touching is not a contact.
pub(crate) fn box_contact(points: Points<'_>, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
    if points.points.is_empty() {
        return None;
    }
    let (sep, normal) = separation(points, center, half);
    if sep >= radius {
        return None;
    }
    if sep <= 0.0 {
        if radius == 0.0 && sep == 0.0 {
            return None;
        }
        let point = closest_obstacle_point(points, center);
        return Some(Contact { point, normal, depth: radius - sep });
    }
    // Outside the sum but closer than `radius` along some axis: the true distance between the
    // box and the obstacle is between a vertex of one and an edge of the other.
    let lo = center - half;
    let hi = center + half;
    let mut best: Option<(f32, Vec2, Vec2)> = None; // (distance², obstacle point, box point)
    let mut consider = |obstacle: Vec2, body: Vec2| {
        let d = (body - obstacle).length_squared();
        if d.is_finite() && best.is_none_or(|b| d < b.0) {
            best = Some((d, obstacle, body));
        }
    };
    for &p in points.points {
        consider(p, p.clamp(lo, hi));
    }
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    for i in 0..points.edge_count() {
        let (p, q) = points.edge(i);
        for k in corners {
            consider(closest_point_segment(k, p, q), k);
        }
    }
    let (d2, point, body) = best?;
    let dist = sqrt(d2);
    if dist >= radius {
        return None;
    }
    // A box corner against the inside of an edge, a distance of few spacings: the edge's normal
    // (toward the corner), exact however few units in the last place the distance spans; the
    // difference of the two points is quantised to a few ulps per axis there.
    // Only a distance of a few dozen spacings of the coordinates is quantised enough to matter.
    let coarse = dist < 64.0 * f32::EPSILON * center.abs().max_element();
    let inside =
        if coarse { edge_holding(points, point, body).or_else(|| edge_under(points, body, dist)) } else { None };
    let towards = match inside {
        Some((p, q)) => {
            let n = (q * 0.5 - p * 0.5).perp().normalize_or_zero();
            if (body - point).dot(n) < 0.0 { -n } else { n }
        }
        None => (body - point) / dist,
    };
    // The centre is outside the core sum along `normal`, so the true normal leans the same way.
    // A tiny distance measured across the segment (the corner a hair past the line, which the
    // slabs round the other way) points into the obstacle instead: the axis is then the normal,
    // and the slab separation the distance.
    let leans = dist > 0.0 && towards.dot(normal) > 0.0;
    if !leans {
        return Some(Contact { point, normal, depth: radius - sep });
    }
    Some(Contact { point, normal: towards, depth: radius - dist })
}

/// The obstacle edge nearest to `body` (a box corner) among those it lies straight across from
/// (its projection strictly inside the edge), measured in coordinates relative to the edge: the
/// pair search picked a vertex, but the corner is past it over the next edge, and the rounded
/// closest point on that edge lost the comparison by a spacing (the normal from the vertex was
/// then a few degrees off, and a box gliding past a polyline's vertex far from the origin dived).
/// Only an edge as near as the pair found (`dist`, within a few spacings) is such an edge: a far
/// edge whose line happens to pass under the corner (the other side of a triangle whose top
/// vertex the box rests on) is not the boundary there, and its normal stopped a box gliding
/// over a row of triangles.
#[cold]
fn edge_under(points: Points<'_>, body: Vec2, dist: f32) -> Option<(Vec2, Vec2)> {
    let near = 2.0 * dist + 8.0 * f32::EPSILON * body.abs().max_element();
    let mut best: Option<(f32, (Vec2, Vec2))> = None;
    for i in 0..points.edge_count() {
        let (p, q) = points.edge(i);
        let e = q - p;
        let w = body - p;
        let s = w.dot(e);
        let n = e.perp().normalize_or_zero();
        let d = w.dot(n).abs();
        if n != Vec2::ZERO && s > 0.0 && s < e.length_squared() && d <= near && best.is_none_or(|b| d < b.0) {
            best = Some((d, (p, q)));
        }
    }
    best.map(|b| b.1)
}

/// The obstacle edge whose inside holds `point`, the point of it closest to `body` (a box
/// corner), if `point` is not a vertex.
#[cold]
fn edge_holding(points: Points<'_>, point: Vec2, body: Vec2) -> Option<(Vec2, Vec2)> {
    (0..points.edge_count())
        .map(|i| points.edge(i))
        .find(|&(p, q)| point != p && point != q && closest_point_segment(body, p, q) == point)
}

/// First touch of the sharp box moving by `motion`, by a SAT sweep: the time the centre enters
/// the last slab, if it is still inside all the others then. Entering hits only: a box that
/// starts overlapping gets `None`; one that starts touching and moves in gets `t = 0`.
pub(crate) fn box_sweep(points: Points<'_>, center: Vec2, half: Vec2, motion: Vec2) -> Option<Hit> {
    if points.points.is_empty() {
        return None;
    }
    let scale = scale_for(points, center, half, motion);
    let m = motion * scale;
    let mut t_enter = f32::NEG_INFINITY;
    let mut t_exit = f32::INFINITY;
    let mut normal = Vec2::ZERO;
    let mut separated = false;
    for_each_slab(points, center, half, scale, |axis, lo, hi| {
        let v = m.dot(axis);
        if v == 0.0 || !v.is_finite() {
            // Not moving across this slab: inside it for good, or never (touching is grazing).
            if !(lo < 0.0 && hi > 0.0) {
                separated = true;
            }
            return;
        }
        let (enter, exit, n) = if v > 0.0 { (lo / v, hi / v, -axis) } else { (hi / v, lo / v, axis) };
        if enter > t_enter {
            t_enter = enter;
            normal = n;
        }
        t_exit = t_exit.min(exit);
    });
    if separated || normal == Vec2::ZERO || !((0.0..=1.0).contains(&t_enter) && t_enter < t_exit) {
        return None;
    }
    Some(Hit { t: t_enter, normal })
}

/// Edges lying on the boundary of the Minkowski sum of the obstacle and the box, covering it:
/// each obstacle edge moved by the box corner that supports its outward normal (both corners on
/// a tie, so an axis-aligned face is covered end to end), and each box face moved by the
/// obstacle vertex that supports its normal. A segment counts both of its sides.
pub(crate) fn for_each_minkowski_edge(points: Points<'_>, half: Vec2, mut f: impl FnMut(Segment)) {
    let signs = |c: f32| -> &'static [f32] {
        if c > 0.0 {
            &[1.0]
        } else if c < 0.0 {
            &[-1.0]
        } else {
            &[1.0, -1.0]
        }
    };
    let mut edge = |p: Vec2, q: Vec2| {
        let e = q - p;
        let m = Vec2::new(e.y, -e.x); // outward for a counter-clockwise edge
        for &sx in signs(m.x) {
            for &sy in signs(m.y) {
                let k = Vec2::new(half.x * sx, half.y * sy);
                f(Segment { a: p + k, b: q + k });
            }
        }
    };
    for i in 0..points.edge_count() {
        let (p, q) = points.edge(i);
        edge(p, q);
        if !points.closed {
            edge(q, p);
        }
    }
    let corners = [-half, Vec2::new(half.x, -half.y), half, Vec2::new(-half.x, half.y)];
    let normals = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
    for (i, m) in normals.into_iter().enumerate() {
        let mut s = points.points[0];
        for &p in &points.points[1..] {
            if p.dot(m) > s.dot(m) {
                s = p;
            }
        }
        f(Segment { a: s + corners[i], b: s + corners[(i + 1) % 4] });
    }
}

/// First touch of a box rounded by `radius > 0`: the disk of that radius at the centre cast
/// against the edges of the Minkowski sum, each grown into a capsule (their union covers the
/// rounded sum's boundary, so the first entry into it is the first entry into one of them).
/// Entering hits only: callers check the start is outside.
pub(crate) fn rounded_box_cast(points: Points<'_>, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
    if points.points.is_empty() {
        return None;
    }
    let mut best: Option<Hit> = None;
    // The box the disk sweeps (with a margin of a thousandth of the radius and a few hundred
    // spacings of the coordinates): a capsule whose core's box is apart from it is not met, and
    // most of the sum's edges are, for the short casts of the character's floor probes.
    let end = center + motion;
    let m = radius * 1.001 + 1e-5 * center.abs().max(end.abs()).max_element();
    let (lo, hi) = (center.min(end) - m, center.max(end) + m);
    for_each_minkowski_edge(points, half, |segment| {
        let (a, b) = (segment.a, segment.b);
        if a.x.max(b.x) < lo.x || a.y.max(b.y) < lo.y || a.x.min(b.x) > hi.x || a.y.min(b.y) > hi.y {
            return;
        }
        if let Some(h) = ray_capsule(center, motion, &Capsule { segment, radius })
            && best.is_none_or(|b| h.t < b.t)
        {
            best = Some(h);
        }
    });
    best
}
