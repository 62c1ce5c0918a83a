//! Contact queries: whether a disk or a box overlaps a shape now, and how to separate them
//! (depth and normal), plus closest points on boxes and polygons.
//!
//! Every function here is total on finite input: no panics, no NaN. Boxes use separating axes
//! (the box axes and the obstacle's edge normals).

use glam::Vec2;

use crate::geometry::closest_point_segment;
use crate::math::sqrt;
pub use crate::report::Contact;
use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// Contact of a disk at `center` with radius `radius` against segment `seg`, if they overlap.
///
/// When the centre lies exactly on the segment the normal is the segment's left normal (for a
/// point segment: `+y`).
#[inline]
#[must_use]
pub fn contact_disk_segment(center: Vec2, radius: f32, seg: &Segment) -> Option<Contact> {
    let c = closest_point_segment(center, seg.a, seg.b);
    let d = center - c;
    let dist2 = d.dot(d);
    if dist2.is_nan() || dist2 >= radius * radius {
        return None;
    }
    let dist = sqrt(dist2);
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
pub fn closest_point_aabb(p: Vec2, aabb: &Aabb) -> Vec2 {
    p.clamp(aabb.min(), aabb.max())
}

/// Contact of a disk against a box. A centre inside the box is pushed out through the nearest side.
#[must_use]
pub fn contact_disk_aabb(center: Vec2, radius: f32, aabb: &Aabb) -> Option<Contact> {
    let c = closest_point_aabb(center, aabb);
    let d = center - c;
    let dist2 = d.dot(d);
    if dist2 > 0.0 {
        if dist2 >= radius * radius {
            return None;
        }
        let dist = sqrt(dist2);
        return Some(Contact { point: c, normal: d / dist, depth: radius - dist });
    }
    // Centre inside: nearest face.
    let faces = [
        (center.x - aabb.min().x, Vec2::NEG_X, Vec2::new(aabb.min().x, center.y)),
        (aabb.max().x - center.x, Vec2::X, Vec2::new(aabb.max().x, center.y)),
        (center.y - aabb.min().y, Vec2::NEG_Y, Vec2::new(center.x, aabb.min().y)),
        (aabb.max().y - center.y, Vec2::Y, Vec2::new(center.x, aabb.max().y)),
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
pub fn contact_aabb_aabb(a: &Aabb, b: &Aabb) -> Option<Contact> {
    if !a.interiors_overlap(b) {
        return None;
    }
    let left = a.max().x - b.min().x; // push a toward -x
    let right = b.max().x - a.min().x; // push a toward +x
    let down = a.max().y - b.min().y;
    let up = b.max().y - a.min().y;
    let mut best = (left, Vec2::NEG_X);
    for c in [(right, Vec2::X), (down, Vec2::NEG_Y), (up, Vec2::Y)] {
        if c.0 < best.0 {
            best = c;
        }
    }
    let point = closest_point_aabb(a.center(), b);
    Some(Contact { point, normal: best.1, depth: best.0 })
}

/// Contact of a box (the moving body) against a segment, by separating axes: the box's `x` and
/// `y` axes and the segment's normal; the axis of least overlap gives the depth and the normal.
/// Touching is not a contact. A degenerate segment (a point) is tested on the box axes only.
/// The point is the segment point closest to the box centre.
#[must_use]
pub fn contact_aabb_segment(aabb: &Aabb, seg: &Segment) -> Option<Contact> {
    sat::box_contact(sat::Points { points: &[seg.a, seg.b], closed: false }, aabb.center(), aabb.half_extents(), 0.0)
}

/// Contact of a box against a capsule: the box against the capsule's core segment, with the
/// box's corners rounded by the capsule radius (the same separating axes, then the true distance
/// between the box and the segment near the corners).
#[must_use]
pub fn contact_aabb_capsule(aabb: &Aabb, capsule: &Capsule) -> Option<Contact> {
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
pub fn contact_aabb_polygon(aabb: &Aabb, poly: &ConvexPolygon) -> Option<Contact> {
    sat::box_contact(sat::Points { points: poly.points(), closed: true }, aabb.center(), aabb.half_extents(), 0.0)
}

/// Contact of a disk against a convex polygon (separating-axis on the edge normals plus the
/// closest boundary point when the centre is outside).
#[must_use]
pub fn contact_disk_polygon(center: Vec2, radius: f32, poly: &ConvexPolygon) -> Option<Contact> {
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
        if let Some(c) = contact_disk_segment(center, radius, &e)
            && best.is_none_or(|b| c.depth > b.depth)
        {
            best = Some(c);
        }
    }
    best
}

/// The point of the polygon (boundary or interior) closest to `p`.
#[must_use]
pub fn closest_point_polygon(p: Vec2, poly: &ConvexPolygon) -> Vec2 {
    if poly.contains_point(p) {
        return p;
    }
    let mut best = poly.points()[0];
    let mut best_d = f32::INFINITY;
    for e in poly.edges() {
        let c = closest_point_segment(p, e.a, e.b);
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
        let c = closest_point_segment(p, s.a, s.b);
        let d = (p - c).length_squared();
        if best.is_none_or(|b| d < b.2) {
            best = Some((i, c, d));
        }
    }
    best.map(|(i, c, d)| (i, c, sqrt(d)))
}

/// Contact of a disk against a capsule (the disk grown by the capsule radius against its core
/// segment); the point is on the capsule's surface.
#[inline]
#[must_use]
pub fn contact_disk_capsule(center: Vec2, radius: f32, capsule: &Capsule) -> Option<Contact> {
    let c = contact_disk_segment(center, radius + capsule.radius, &capsule.segment)?;
    Some(Contact { point: c.point + c.normal * capsule.radius, ..c })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn contacts() {
        let s = Segment { a: vec2(-1.0, 0.0), b: vec2(1.0, 0.0) };
        let c = contact_disk_segment(vec2(0.0, 0.4), 0.5, &s).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::Y);
        assert!(contact_disk_segment(vec2(0.0, 0.6), 0.5, &s).is_none());
        let b = Aabb::covering(vec2(0.0, 0.0), vec2(2.0, 1.0));
        let c = contact_disk_aabb(vec2(1.0, 0.9), 0.5, &b).unwrap();
        assert_eq!(c.normal, Vec2::Y);
        assert!((c.depth - 0.6).abs() < 1e-6);
        let a = Aabb::covering(vec2(1.8, 0.2), vec2(3.0, 0.8));
        let c = contact_aabb_aabb(&a, &b).unwrap();
        assert_eq!(c.normal, Vec2::X);
        assert!((c.depth - 0.2).abs() < 1e-6);
        let tri = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(1.0, 2.0)]).unwrap();
        let c = contact_disk_polygon(vec2(1.0, -0.3), 0.5, &tri).unwrap();
        assert!((c.depth - 0.2).abs() < 1e-5 && (c.normal - Vec2::NEG_Y).length() < 1e-5);
        assert!(contact_disk_polygon(vec2(1.0, 0.5), 0.1, &tri).is_some(), "centre inside");
    }

    #[test]
    fn box_against_segments() {
        let b = Aabb::covering(vec2(-0.5, -0.1), vec2(0.5, 0.9));
        let floor = Segment { a: vec2(-1.0, 0.0), b: vec2(1.0, 0.0) };
        let c = contact_aabb_segment(&b, &floor).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::Y, "{c:?}");
        assert!(contact_aabb_segment(&b.translated(vec2(0.0, 0.1)), &floor).is_none(), "touching");
        // A 45 degree slope: the normal is the slope's, the depth along it.
        let slope = Segment { a: vec2(-1.0, -1.0), b: vec2(1.0, 1.0) };
        let b = Aabb::from_center(vec2(0.2, -0.2), Vec2::splat(0.25)).unwrap();
        let c = contact_aabb_segment(&b, &slope).unwrap();
        let d = 0.25f32 * 2f32.sqrt() - 0.4 / 2f32.sqrt();
        assert!((c.depth - d).abs() < 1e-5 && (c.normal - vec2(1.0, -1.0).normalize()).length() < 1e-5, "{c:?}");
        assert!(contact_aabb_segment(&b.translated(vec2(0.3, -0.3)), &slope).is_none());
        // A point segment inside the box leaves through the nearest face.
        let dot = Segment { a: Vec2::ZERO, b: Vec2::ZERO };
        let b = Aabb::from_center(vec2(0.1, 0.3), Vec2::splat(0.5)).unwrap();
        let c = contact_aabb_segment(&b, &dot).unwrap();
        assert!((c.depth - 0.2).abs() < 1e-6 && c.normal == Vec2::Y, "{c:?}");
        // Huge coordinates stay NaN-free.
        let big = Segment { a: vec2(-f32::MAX, f32::MAX), b: vec2(f32::MAX, -f32::MAX) };
        if let Some(c) = contact_aabb_segment(&b, &big) {
            assert!(c.depth >= 0.0 && c.normal.is_finite());
        }
        // A capsule rounds the corners: a box corner near the core segment's end.
        let cap = Capsule { segment: Segment { a: vec2(1.0, 1.0), b: vec2(3.0, 1.0) }, radius: 0.5 };
        let b = Aabb::covering(vec2(0.0, 0.0), vec2(0.8, 0.8));
        let c = contact_aabb_capsule(&b, &cap).unwrap();
        let d = 0.5 - vec2(0.2, 0.2).length();
        assert!((c.depth - d).abs() < 1e-5 && (c.normal - vec2(-1.0, -1.0).normalize()).length() < 1e-5, "{c:?}");
        let tri = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(1.0, 2.0)]).unwrap();
        let c = contact_aabb_polygon(&Aabb::covering(vec2(0.5, -1.0), vec2(1.5, 0.1)), &tri).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == Vec2::NEG_Y, "{c:?}");
    }
}
