//! Distance, closest-point, parallel and contact queries.
//!
//! Every function here is total on finite input: no panics, no NaN. Squared distances are
//! `>= 0` (they may be `+inf` when the true value overflows `f32`).

use glam::Vec2;

use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// A penetration between a moving body and an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The point on the obstacle closest to the body.
    pub point: Vec2,
    /// Unit normal pointing from the obstacle toward the body: moving the body by
    /// `normal * depth` separates them.
    pub normal: Vec2,
    /// Penetration depth, `> 0`.
    pub depth: f32,
}

/// Parameter `t` in `[0, 1]` of the point of `a`–`b` closest to `p`.
///
/// A degenerate segment (`a == b`) gives 0; coordinates so large that `b - a` overflows are
/// handled by working on halves, so the result is never NaN for finite input.
#[inline]
#[must_use]
pub fn segment_param(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let d = b - a;
    let len2 = d.dot(d);
    if len2 > f32::MIN_POSITIVE && len2.is_finite() {
        let t = (p - a).dot(d) / len2;
        // A NaN (from an overflowing `p - a`) takes the robust path.
        if t.is_finite() {
            return t.clamp(0.0, 1.0);
        }
    }
    segment_param_robust(p, a, b)
}

#[cold]
fn segment_param_robust(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    // Halves cannot overflow; scale the direction to unit length so the squares cannot either.
    let dh = b * 0.5 - a * 0.5;
    let s = dh.abs().max_element();
    if s.is_nan() || s <= 0.0 {
        return 0.0;
    }
    let dn = dh / s;
    let len_n = dn.length();
    let u = dn / len_n;
    let ph = p * 0.5 - a * 0.5;
    // Each product is finite; the sum may overflow to +-inf but never to NaN.
    let along = ph.x * u.x + ph.y * u.y;
    let len_h = s * len_n;
    let t = along / len_h;
    if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) }
}

/// The point at parameter `t` of `a`–`b`, computed without overflowing for finite ends.
#[inline]
#[must_use]
pub fn segment_point(a: Vec2, b: Vec2, t: f32) -> Vec2 {
    if t <= 0.0 {
        return a;
    }
    if t >= 1.0 {
        return b;
    }
    let d = b - a;
    let p = if d.is_finite() {
        a + d * t
    } else {
        let dh = b * 0.5 - a * 0.5;
        a + dh * t + dh * t
    };
    // Rounding must not leave the segment's box (it can with ends of very different magnitude).
    p.clamp(a.min(b), a.max(b))
}

/// The point of segment `a`–`b` closest to `p`.
#[inline]
#[must_use]
pub fn closest_point_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    segment_point(a, b, segment_param(p, a, b))
}

/// Squared distance from `p` to segment `a`–`b`: `>= 0`, never NaN for finite input.
#[inline]
#[must_use]
pub fn point_segment_distance_squared(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    // Fast path, fused, ends without a division: behind `a` (this also covers a degenerate
    // segment, where the dot product is 0) or past `b`. Overflow shows up as a non-finite
    // value and takes the robust path below.
    let d = b - a;
    let w = p - a;
    let along = w.dot(d);
    if along <= 0.0 {
        let r = w.dot(w);
        if r.is_finite() {
            return r;
        }
    } else {
        let len2 = d.dot(d);
        if along >= len2 && len2 < f32::INFINITY {
            let e = p - b;
            let r = e.dot(e);
            if r.is_finite() {
                return r;
            }
        } else {
            let e = w - d * (along / len2);
            let r = e.dot(e);
            if (r + len2).is_finite() {
                return r;
            }
        }
    }
    let d = p - closest_point_on_segment(p, a, b);
    let r = d.dot(d);
    // The only way to NaN is inf - inf inside `p - c`, impossible when both are finite; keep
    // the guard so the contract holds even for the non-finite garbage the caller promised not to pass.
    if r.is_nan() { f32::INFINITY } else { r }
}

/// Distance from `p` to segment `a`–`b`.
#[inline]
#[must_use]
pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    point_segment_distance_squared(p, a, b).sqrt()
}

fn scaled(v: Vec2) -> Vec2 {
    let s = v.abs().max_element();
    if s > 0.0 && s.is_finite() { v / s } else { v }
}

/// Whether `u` and `v` are parallel (same or opposite direction) within a relative tolerance:
/// `|sin(angle)| <= tolerance`. Scale-aware: the result does not change when either vector is
/// multiplied by any positive or negative factor, tiny or huge. A zero vector is parallel to
/// everything.
#[must_use]
pub fn parallel(u: Vec2, v: Vec2, tolerance: f32) -> bool {
    let (u, v) = (scaled(u), scaled(v));
    let (lu, lv) = (u.length(), v.length());
    if lu == 0.0 || lv == 0.0 {
        return true;
    }
    u.perp_dot(v).abs() <= tolerance * lu * lv
}

/// Whether `a`, `b` and `c` lie on one line within relative tolerance (the sine of the angle at
/// the point that is not between the others). Coincident points are collinear.
#[must_use]
pub fn collinear(a: Vec2, b: Vec2, c: Vec2, tolerance: f32) -> bool {
    let hb = b * 0.5 - a * 0.5;
    let hc = c * 0.5 - a * 0.5;
    let hd = c * 0.5 - b * 0.5;
    parallel(hb, hc, tolerance) && parallel(hb, hd, tolerance) && parallel(hc, hd, tolerance)
}

/// Strictly counter-clockwise turn `o -> a -> p`, with a scale-aware tolerance so nearly
/// collinear points count as not turning.
pub(crate) fn orient_positive(o: Vec2, a: Vec2, p: Vec2) -> bool {
    let u = scaled(a - o);
    let v = scaled(p - o);
    let c = u.perp_dot(v);
    c > 1e-6 * u.length() * v.length()
}

/// Contact of a disk at `center` with radius `radius` against segment `seg`, if they overlap.
///
/// When the centre lies exactly on the segment the normal is the segment's left normal (for a
/// point segment: `+y`).
#[inline]
#[must_use]
pub fn disk_segment(center: Vec2, radius: f32, seg: &Segment) -> Option<Contact> {
    let c = closest_point_on_segment(center, seg.a, seg.b);
    let d = center - c;
    let dist2 = d.dot(d);
    if dist2.is_nan() || dist2 >= radius * radius {
        return None;
    }
    let dist = dist2.sqrt();
    let normal = if dist > 0.0 {
        d / dist
    } else {
        let e = seg.direction().normalize_or_zero();
        if e == Vec2::ZERO { Vec2::Y } else { e.perp() }
    };
    Some(Contact { point: c, normal, depth: radius - dist })
}

/// The point of the box closest to `p` (`p` itself when inside).
#[must_use]
pub fn closest_point_on_aabb(p: Vec2, aabb: &Aabb) -> Vec2 {
    p.clamp(aabb.min, aabb.max)
}

/// Contact of a disk against a box. A centre inside the box is pushed out through the nearest side.
#[must_use]
pub fn disk_aabb(center: Vec2, radius: f32, aabb: &Aabb) -> Option<Contact> {
    let c = closest_point_on_aabb(center, aabb);
    let d = center - c;
    let dist2 = d.dot(d);
    if dist2 > 0.0 {
        if dist2 >= radius * radius {
            return None;
        }
        let dist = dist2.sqrt();
        return Some(Contact { point: c, normal: d / dist, depth: radius - dist });
    }
    // Centre inside: nearest face.
    let faces = [
        (center.x - aabb.min.x, Vec2::NEG_X, Vec2::new(aabb.min.x, center.y)),
        (aabb.max.x - center.x, Vec2::X, Vec2::new(aabb.max.x, center.y)),
        (center.y - aabb.min.y, Vec2::NEG_Y, Vec2::new(center.x, aabb.min.y)),
        (aabb.max.y - center.y, Vec2::Y, Vec2::new(center.x, aabb.max.y)),
    ];
    let mut best = faces[0];
    for f in &faces[1..] {
        if f.0 < best.0 {
            best = *f;
        }
    }
    Some(Contact { point: best.2, normal: best.1, depth: radius + best.0 })
}

/// Contact of box `a` (the moving one) against box `b`: the axis of least overlap.
#[must_use]
pub fn aabb_aabb(a: &Aabb, b: &Aabb) -> Option<Contact> {
    if !a.overlaps(b) {
        return None;
    }
    let left = a.max.x - b.min.x; // push a toward -x
    let right = b.max.x - a.min.x; // push a toward +x
    let down = a.max.y - b.min.y;
    let up = b.max.y - a.min.y;
    let mut best = (left, Vec2::NEG_X);
    for c in [(right, Vec2::X), (down, Vec2::NEG_Y), (up, Vec2::Y)] {
        if c.0 < best.0 {
            best = c;
        }
    }
    let point = closest_point_on_aabb(a.center(), b);
    Some(Contact { point, normal: best.1, depth: best.0 })
}

/// Contact of a box (the moving body) against a segment, by separating axes: the box's `x` and
/// `y` axes and the segment's normal; the axis of least overlap gives the depth and the normal.
/// Touching is not a contact. A degenerate segment (a point) is tested on the box axes only.
/// The point is the segment point closest to the box centre.
#[must_use]
pub fn aabb_segment(aabb: &Aabb, seg: &Segment) -> Option<Contact> {
    sat::box_contact(sat::Points { points: &[seg.a, seg.b], closed: false }, aabb.center(), aabb.half_extents(), 0.0)
}

/// Contact of a box against a capsule: the box against the capsule's core segment, with the
/// box's corners rounded by the capsule radius (the same separating axes, then the true distance
/// between the box and the segment near the corners).
#[must_use]
pub fn aabb_capsule(aabb: &Aabb, capsule: &Capsule) -> Option<Contact> {
    let Segment { a, b } = capsule.segment;
    let c = sat::box_contact(
        sat::Points { points: &[a, b], closed: false },
        aabb.center(),
        aabb.half_extents(),
        capsule.radius,
    )?;
    Some(Contact { point: c.point + c.normal * capsule.radius, ..c })
}

/// Contact of a box against a convex polygon, by separating axes (the box axes and the edge
/// normals).
#[must_use]
pub fn aabb_polygon(aabb: &Aabb, poly: &ConvexPolygon) -> Option<Contact> {
    sat::box_contact(sat::Points { points: poly.points(), closed: true }, aabb.center(), aabb.half_extents(), 0.0)
}

/// Contact of a disk against a convex polygon (separating-axis on the edge normals plus the
/// closest boundary point when the centre is outside).
#[must_use]
pub fn disk_polygon(center: Vec2, radius: f32, poly: &ConvexPolygon) -> Option<Contact> {
    let n = poly.points().len();
    let mut max_sep = f32::NEG_INFINITY;
    let mut best_edge = 0;
    for i in 0..n {
        let e = poly.edge(i);
        let sep = (center - e.a).dot(poly.normal(i));
        if sep > max_sep {
            max_sep = sep;
            best_edge = i;
        }
    }
    if max_sep >= radius {
        return None;
    }
    if max_sep <= 0.0 {
        // Centre inside: leave through the least-penetrated edge.
        let nrm = poly.normal(best_edge);
        return Some(Contact { point: center - nrm * max_sep, normal: nrm, depth: radius - max_sep });
    }
    let mut best: Option<Contact> = None;
    for e in poly.edges() {
        if let Some(c) = disk_segment(center, radius, &e)
            && best.is_none_or(|b| c.depth > b.depth)
        {
            best = Some(c);
        }
    }
    best
}

/// The point of the polygon (boundary or interior) closest to `p`.
#[must_use]
pub fn closest_point_on_polygon(p: Vec2, poly: &ConvexPolygon) -> Vec2 {
    if poly.contains(p) {
        return p;
    }
    let mut best = poly.points()[0];
    let mut best_d = f32::INFINITY;
    for e in poly.edges() {
        let c = closest_point_on_segment(p, e.a, e.b);
        let d = (p - c).length_squared();
        if d < best_d {
            best_d = d;
            best = c;
        }
    }
    best
}

/// The segment closest to `p` and its closest point, or `None` for an empty set.
#[must_use]
pub fn nearest_segment(p: Vec2, segments: &[Segment]) -> Option<(usize, Vec2, f32)> {
    let mut best: Option<(usize, Vec2, f32)> = None;
    for (i, s) in segments.iter().enumerate() {
        let c = closest_point_on_segment(p, s.a, s.b);
        let d = (p - c).length_squared();
        if best.is_none_or(|b| d < b.2) {
            best = Some((i, c, d));
        }
    }
    best.map(|(i, c, d)| (i, c, d.sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn closest_point_cases() {
        let (a, b) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert_eq!(closest_point_on_segment(vec2(2.0, 3.0), a, b), vec2(2.0, 0.0));
        assert_eq!(closest_point_on_segment(vec2(-2.0, 3.0), a, b), a);
        assert_eq!(closest_point_on_segment(vec2(9.0, -3.0), a, b), b);
        // Degenerate segment.
        assert_eq!(closest_point_on_segment(vec2(1.0, 1.0), a, a), a);
        assert_eq!(point_segment_distance_squared(vec2(3.0, 4.0), a, a), 25.0);
        // Overflowing direction.
        let big = vec2(f32::MAX, f32::MAX);
        let d = point_segment_distance_squared(Vec2::ZERO, -big, big);
        assert!(d >= 0.0 && !d.is_nan());
    }

    #[test]
    fn parallel_and_collinear() {
        assert!(parallel(vec2(1.0, 2.0), vec2(-2.0, -4.0), 1e-6));
        assert!(!parallel(vec2(1.0, 2.0), vec2(2.0, -4.0), 1e-3));
        assert!(parallel(vec2(1e-30, 2e-30), vec2(1e30, 2e30), 1e-6));
        assert!(collinear(vec2(0.0, 0.0), vec2(1.0, 1.0), vec2(1e4, 1e4), 1e-6));
        assert!(!collinear(vec2(0.0, 0.0), vec2(1.0, 1.0), vec2(1.0, 0.0), 1e-3));
    }

    #[test]
    fn contacts() {
        let s = Segment { a: vec2(-1.0, 0.0), b: vec2(1.0, 0.0) };
        let c = disk_segment(vec2(0.0, 0.4), 0.5, &s).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::Y);
        assert!(disk_segment(vec2(0.0, 0.6), 0.5, &s).is_none());
        let b = Aabb { min: vec2(0.0, 0.0), max: vec2(2.0, 1.0) };
        let c = disk_aabb(vec2(1.0, 0.9), 0.5, &b).unwrap();
        assert_eq!(c.normal, Vec2::Y);
        assert!((c.depth - 0.6).abs() < 1e-6);
        let a = Aabb { min: vec2(1.8, 0.2), max: vec2(3.0, 0.8) };
        let c = aabb_aabb(&a, &b).unwrap();
        assert_eq!(c.normal, Vec2::X);
        assert!((c.depth - 0.2).abs() < 1e-6);
        let tri = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(1.0, 2.0)]).unwrap();
        let c = disk_polygon(vec2(1.0, -0.3), 0.5, &tri).unwrap();
        assert!((c.depth - 0.2).abs() < 1e-5 && (c.normal - Vec2::NEG_Y).length() < 1e-5);
        assert!(disk_polygon(vec2(1.0, 0.5), 0.1, &tri).is_some(), "centre inside");
    }

    #[test]
    fn box_against_segments() {
        let b = Aabb { min: vec2(-0.5, -0.1), max: vec2(0.5, 0.9) };
        let floor = Segment { a: vec2(-1.0, 0.0), b: vec2(1.0, 0.0) };
        let c = aabb_segment(&b, &floor).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::Y, "{c:?}");
        assert!(aabb_segment(&b.translated(vec2(0.0, 0.1)), &floor).is_none(), "touching");
        // A 45 degree slope: the normal is the slope's, the depth along it.
        let slope = Segment { a: vec2(-1.0, -1.0), b: vec2(1.0, 1.0) };
        let b = Aabb::from_center(vec2(0.2, -0.2), Vec2::splat(0.25)).unwrap();
        let c = aabb_segment(&b, &slope).unwrap();
        let d = 0.25f32 * 2f32.sqrt() - 0.4 / 2f32.sqrt();
        assert!((c.depth - d).abs() < 1e-5 && (c.normal - vec2(1.0, -1.0).normalize()).length() < 1e-5, "{c:?}");
        assert!(aabb_segment(&b.translated(vec2(0.3, -0.3)), &slope).is_none());
        // A point segment inside the box leaves through the nearest face.
        let dot = Segment { a: Vec2::ZERO, b: Vec2::ZERO };
        let b = Aabb::from_center(vec2(0.1, 0.3), Vec2::splat(0.5)).unwrap();
        let c = aabb_segment(&b, &dot).unwrap();
        assert!((c.depth - 0.2).abs() < 1e-6 && c.normal == Vec2::Y, "{c:?}");
        // Huge coordinates stay NaN-free.
        let big = Segment { a: vec2(-f32::MAX, f32::MAX), b: vec2(f32::MAX, -f32::MAX) };
        if let Some(c) = aabb_segment(&b, &big) {
            assert!(c.depth >= 0.0 && c.normal.is_finite());
        }
        // A capsule rounds the corners: a box corner near the core segment's end.
        let cap = Capsule { segment: Segment { a: vec2(1.0, 1.0), b: vec2(3.0, 1.0) }, radius: 0.5 };
        let b = Aabb { min: vec2(0.0, 0.0), max: vec2(0.8, 0.8) };
        let c = aabb_capsule(&b, &cap).unwrap();
        let d = 0.5 - vec2(0.2, 0.2).length();
        assert!((c.depth - d).abs() < 1e-5 && (c.normal - vec2(-1.0, -1.0).normalize()).length() < 1e-5, "{c:?}");
        let tri = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(1.0, 2.0)]).unwrap();
        let c = aabb_polygon(&Aabb { min: vec2(0.5, -1.0), max: vec2(1.5, 0.1) }, &tri).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::NEG_Y, "{c:?}");
    }
}
