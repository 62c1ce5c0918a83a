//! Shape casts (time of impact): a disk or a box moving by `motion` against a static shape.
//!
//! A hit reports `t` in `[0, 1]`, the fraction of `motion` travelled before first touching, and
//! the obstacle's normal there. Casts report entering hits only: a body that starts inside (or
//! touching) the obstacle gets `None` here; the contact queries in [`crate::contact`] cover that
//! case.

use glam::Vec2;

use crate::contact::contact_aabb_capsule;
use crate::ray::{ray_aabb, ray_capsule};
pub use crate::report::Hit;
use crate::report::earlier;
use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// A disk of `radius` moving from `center` by `motion` against a segment.
#[inline]
#[must_use]
pub fn cast_disk_segment(center: Vec2, radius: f32, motion: Vec2, seg: &Segment) -> Option<Hit> {
    ray_capsule(center, motion, &Capsule { segment: *seg, radius })
}

/// A disk moving against a box (the rounded box: edges as capsules).
#[must_use]
pub fn cast_disk_aabb(center: Vec2, radius: f32, motion: Vec2, aabb: &Aabb) -> Option<Hit> {
    aabb.edges().iter().fold(None, |best, e| earlier(best, cast_disk_segment(center, radius, motion, e)))
}

/// A disk moving against a convex polygon (edges as capsules).
#[must_use]
pub fn cast_disk_polygon(center: Vec2, radius: f32, motion: Vec2, poly: &ConvexPolygon) -> Option<Hit> {
    poly.edges().fold(None, |best, e| earlier(best, cast_disk_segment(center, radius, motion, &e)))
}

/// A moving box `a` against a static box `b` (the ray of `a`'s centre against `b` grown by
/// `a`'s half extents), entering hits only.
#[must_use]
pub fn cast_aabb_aabb(a: &Aabb, motion: Vec2, b: &Aabb) -> Option<Hit> {
    let h = a.half_extents();
    let grown = Aabb::covering(b.min() - h, b.max() + h);
    let o = a.center();
    if o.cmpgt(grown.min()).all() && o.cmplt(grown.max()).all() {
        return None;
    }
    // Touching and sliding along a face is not an entering hit.
    let hit = ray_aabb(o, motion, &grown)?;
    if hit.normal.dot(motion) < 0.0 { Some(hit) } else { None }
}

/// A moving box against a segment (a SAT sweep over the box axes and the segment normal):
/// the time the box first touches the segment and the normal there. Entering hits only: a box
/// that starts overlapping the segment gets `None`; one that starts touching and moves into it
/// gets `t = 0`. Grazing (touching along a face while moving along it) is not a hit.
#[must_use]
pub fn cast_aabb_segment(aabb: &Aabb, motion: Vec2, seg: &Segment) -> Option<Hit> {
    sat::box_sweep(sat::Points { points: &[seg.a, seg.b], closed: false }, aabb.center(), aabb.half_extents(), motion)
}

/// A moving box against a convex polygon (a SAT sweep over the box axes and the edge normals),
/// entering hits only.
#[must_use]
pub fn cast_aabb_polygon(aabb: &Aabb, motion: Vec2, poly: &ConvexPolygon) -> Option<Hit> {
    sat::box_sweep(sat::Points { points: poly.points(), closed: true }, aabb.center(), aabb.half_extents(), motion)
}

/// A moving box against a capsule, entering hits only: a disk of the capsule's radius at the
/// box centre cast against the edges of the segment–box Minkowski sum, each grown into a capsule.
#[must_use]
pub fn cast_aabb_capsule(aabb: &Aabb, motion: Vec2, capsule: &Capsule) -> Option<Hit> {
    if contact_aabb_capsule(aabb, capsule).is_some() {
        return None;
    }
    let Segment { a, b } = capsule.segment;
    sat::rounded_box_cast(
        sat::Points { points: &[a, b], closed: false },
        aabb.center(),
        aabb.half_extents(),
        capsule.radius,
        motion,
    )
}

/// A disk of `radius` moving from `center` by `motion` against a capsule (a ray against the
/// capsule grown by `radius`).
#[inline]
#[must_use]
pub fn cast_disk_capsule(center: Vec2, radius: f32, motion: Vec2, capsule: &Capsule) -> Option<Hit> {
    ray_capsule(center, motion, &Capsule { segment: capsule.segment, radius: capsule.radius + radius })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn disk_against_segment_side_and_end() {
        let s = Segment { a: vec2(0.0, 0.0), b: vec2(2.0, 0.0) };
        let h = cast_disk_segment(vec2(1.0, 2.0), 0.5, vec2(0.0, -4.0), &s).unwrap();
        assert!((h.t - 0.375).abs() < 1e-6 && h.normal == Vec2::Y);
        let h = cast_disk_segment(vec2(-2.0, 0.0), 0.5, vec2(4.0, 0.0), &s).unwrap();
        assert!((h.t - 0.375).abs() < 1e-6 && (h.normal - Vec2::NEG_X).length() < 1e-6);
        assert!(cast_disk_segment(vec2(1.0, 2.0), 0.5, vec2(0.0, 4.0), &s).is_none());
    }

    #[test]
    fn box_against_box() {
        let b = Aabb::covering(vec2(1.0, -1.0), vec2(2.0, 1.0));
        let a = Aabb::covering(vec2(-3.0, -0.5), vec2(-2.0, 0.5));
        let h = cast_aabb_aabb(&a, vec2(4.0, 0.0), &b).unwrap();
        assert!((h.t - 0.75).abs() < 1e-6);
    }

    #[test]
    fn box_against_segments() {
        let b = Aabb::from_center(vec2(0.0, 2.0), Vec2::splat(0.5)).unwrap();
        let floor = Segment { a: vec2(-1.0, 0.0), b: vec2(1.0, 0.0) };
        let h = cast_aabb_segment(&b, vec2(0.0, -4.0), &floor).unwrap();
        assert!((h.t - 0.375).abs() < 1e-6 && h.normal == Vec2::Y);
        assert!(cast_aabb_segment(&b, vec2(0.0, 4.0), &floor).is_none(), "moving away");
        let wall = Segment { a: vec2(2.0, 1.0), b: vec2(2.0, 3.0) };
        let h = cast_aabb_segment(&b, vec2(4.0, 0.0), &wall).unwrap();
        assert!((h.t - 0.375).abs() < 1e-6 && h.normal == Vec2::NEG_X);
        // Grazing along a face is no hit; touching and moving in is a hit at t = 0.
        let resting = Aabb::from_center(vec2(0.0, 0.5), Vec2::splat(0.5)).unwrap();
        assert!(cast_aabb_segment(&resting, vec2(1.0, 0.0), &floor).is_none());
        assert_eq!(cast_aabb_segment(&resting, vec2(0.3, -1.0), &floor).map(|h| h.t), Some(0.0));
        // A slope rising to the right, met by the box's lower right corner.
        let slope = Segment { a: vec2(0.0, -2.0), b: vec2(4.0, 2.0) };
        let h = cast_aabb_segment(&b, vec2(0.0, -4.0), &slope).unwrap();
        assert!((h.normal - vec2(-1.0, 1.0).normalize()).length() < 1e-5, "{h:?}");
        // The corner (0.5, 1.5 - 4t) reaches y = x - 2 at t = 0.75.
        assert!((h.t - 0.75).abs() < 1e-5, "{h:?}");
        // A point segment: the box's face reaches it.
        let dot = Segment { a: vec2(0.0, 0.0), b: vec2(0.0, 0.0) };
        assert!((cast_aabb_segment(&b, vec2(0.0, -2.0), &dot).unwrap().t - 0.75).abs() < 1e-6);
        // The capsule version: the flat face meets the top of the capsule.
        let cap = Capsule { segment: floor, radius: 0.25 };
        let h = cast_aabb_capsule(&b, vec2(0.0, -4.0), &cap).unwrap();
        assert!((h.t - 1.25 / 4.0).abs() < 1e-5 && (h.normal - Vec2::Y).length() < 1e-5, "{h:?}");
        let tri = ConvexPolygon::hull(&[vec2(-1.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0)]).unwrap();
        let h = cast_aabb_polygon(&Aabb::from_center(vec2(0.0, 3.0), Vec2::splat(0.5)).unwrap(), vec2(0.0, -4.0), &tri);
        assert!((h.unwrap().t - 0.375).abs() < 1e-6);
    }
}
