//! Ray casts and shape casts (time of impact).
//!
//! A cast moves from `origin` by `motion` (not normalised); a hit reports `t` in `[0, 1]`, the
//! fraction of `motion` travelled before first touching, and the surface normal there. Casts
//! report entering hits only: a shape that starts inside (or touching) the obstacle gets
//! `None` here; use the contact queries in [`crate::query`] for that case.

use glam::Vec2;

use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// The first touch along a cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Fraction of the motion travelled, in `[0, 1]`.
    pub t: f32,
    /// Unit normal of the obstacle at the touch, pointing against the motion.
    pub normal: Vec2,
}

fn better(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Ray against a disk (circle boundary), entering hits only.
#[inline]
#[must_use]
pub fn ray_disk(origin: Vec2, motion: Vec2, center: Vec2, radius: f32) -> Option<Hit> {
    let m = origin - center;
    let c = m.dot(m) - radius * radius;
    if c <= 0.0 {
        return None;
    }
    let b = m.dot(motion);
    if b >= 0.0 {
        return None;
    }
    let a = motion.dot(motion);
    if !(a > 0.0 && a.is_finite()) {
        return None;
    }
    // The discriminant `b^2 - a c` cancels catastrophically when the radius is small next to the
    // distance. The same value as `a r^2 - (m x motion)^2` (the cross product is the line's
    // distance from the centre times `|motion|`) does not, and needs no division. The smaller
    // root in the form `c / (-b + sqrt(disc))` does not cancel either.
    let cross = m.perp_dot(motion);
    let disc = a * (radius * radius) - cross * cross;
    if disc.is_nan() || disc < 0.0 {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let p = origin + motion * t;
    Some(Hit { t, normal: (p - center).normalize_or(m.normalize_or(Vec2::Y)) })
}

/// Ray against a segment (a hit from either side).
#[must_use]
pub fn ray_segment(origin: Vec2, motion: Vec2, seg: &Segment) -> Option<Hit> {
    let e = seg.direction();
    let denom = motion.perp_dot(e);
    if denom == 0.0 || !denom.is_finite() {
        return None;
    }
    let w = seg.a - origin;
    let t = w.perp_dot(e) / denom;
    let u = w.perp_dot(motion) / denom;
    if !(0.0..=1.0).contains(&t) || !(0.0..=1.0).contains(&u) {
        return None;
    }
    let n = e.perp().normalize_or_zero();
    let normal = if n.dot(motion) > 0.0 { -n } else { n };
    Some(Hit { t, normal })
}

/// Ray against a capsule's boundary, entering hits only.
#[inline]
#[must_use]
pub fn ray_capsule(origin: Vec2, motion: Vec2, capsule: &Capsule) -> Option<Hit> {
    let Segment { a, b } = capsule.segment;
    let r = capsule.radius;
    let e = b - a;
    let len = e.length();
    let mut best = None;
    if len > 0.0 && len.is_finite() {
        let dir = e / len;
        let mut n = dir.perp();
        let side = (origin - a).dot(n);
        if side < 0.0 {
            n = -n;
        }
        let s = side.abs() - r;
        let approach = motion.dot(n);
        if s >= 0.0 && approach < 0.0 {
            let t = s / -approach;
            if t <= 1.0 {
                let p = origin + motion * t;
                let u = (p - a).dot(dir);
                if (0.0..=len).contains(&u) {
                    // The side face is hit first whenever it is hit at all.
                    return Some(Hit { t, normal: n });
                }
            }
        }
    }
    best = better(best, ray_disk(origin, motion, a, r));
    better(best, ray_disk(origin, motion, b, r))
}

/// A disk of `radius` moving from `center` by `motion` against a segment.
#[inline]
#[must_use]
pub fn cast_disk_segment(center: Vec2, radius: f32, motion: Vec2, seg: &Segment) -> Option<Hit> {
    ray_capsule(center, motion, &Capsule { segment: *seg, radius })
}

/// Ray against a box (slab method), entering hits only.
#[must_use]
pub fn ray_aabb(origin: Vec2, motion: Vec2, aabb: &Aabb) -> Option<Hit> {
    if origin.cmpgt(aabb.min).all() && origin.cmplt(aabb.max).all() {
        return None;
    }
    let mut t_enter = f32::NEG_INFINITY;
    let mut t_exit = 1.0f32;
    let mut normal = Vec2::ZERO;
    for axis in 0..2 {
        let o = origin[axis];
        let d = motion[axis];
        let (lo, hi) = (aabb.min[axis], aabb.max[axis]);
        if d == 0.0 {
            // Outside, or exactly on a face while moving along it: grazing is not a hit.
            if o <= lo || o >= hi {
                return None;
            }
            continue;
        }
        let (mut t0, mut t1) = ((lo - o) / d, (hi - o) / d);
        let mut n = Vec2::ZERO;
        n[axis] = -d.signum();
        if t0 > t1 {
            core::mem::swap(&mut t0, &mut t1);
        }
        if t0 >= t_enter {
            t_enter = t0;
            normal = n;
        }
        t_exit = t_exit.min(t1);
        if t_enter > t_exit {
            return None;
        }
    }
    if normal == Vec2::ZERO || t_enter.is_nan() || t_enter < 0.0 {
        return None;
    }
    Some(Hit { t: t_enter.max(0.0), normal })
}

/// A disk moving against a box (the rounded box: edges as capsules).
#[must_use]
pub fn cast_disk_aabb(center: Vec2, radius: f32, motion: Vec2, aabb: &Aabb) -> Option<Hit> {
    aabb.edges().iter().fold(None, |best, e| better(best, cast_disk_segment(center, radius, motion, e)))
}

/// A disk moving against a convex polygon (edges as capsules).
#[must_use]
pub fn cast_disk_polygon(center: Vec2, radius: f32, motion: Vec2, poly: &ConvexPolygon) -> Option<Hit> {
    poly.edges().fold(None, |best, e| better(best, cast_disk_segment(center, radius, motion, &e)))
}

/// Ray against a convex polygon, entering hits only.
#[must_use]
pub fn ray_polygon(origin: Vec2, motion: Vec2, poly: &ConvexPolygon) -> Option<Hit> {
    if poly.contains(origin) {
        return None;
    }
    poly.edges().fold(None, |best, e| better(best, ray_segment(origin, motion, &e)))
}

/// A moving box `a` against a static box `b` (the ray of `a`'s centre against `b` grown by
/// `a`'s half extents), entering hits only.
#[must_use]
pub fn cast_aabb_aabb(a: &Aabb, motion: Vec2, b: &Aabb) -> Option<Hit> {
    let h = a.half_extents();
    let grown = Aabb { min: b.min - h, max: b.max + h };
    let o = a.center();
    if o.cmpgt(grown.min).all() && o.cmplt(grown.max).all() {
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
    if crate::query::aabb_capsule(aabb, capsule).is_some() {
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
    fn rays() {
        let b = Aabb { min: vec2(1.0, -1.0), max: vec2(2.0, 1.0) };
        let h = ray_aabb(vec2(0.0, 0.0), vec2(4.0, 0.0), &b).unwrap();
        assert!((h.t - 0.25).abs() < 1e-6 && h.normal == Vec2::NEG_X);
        assert!(ray_aabb(vec2(0.0, 1.0), vec2(4.0, 0.0), &b).is_none(), "grazing a face");
        let h = ray_disk(vec2(-3.0, 0.0), vec2(6.0, 0.0), Vec2::ZERO, 1.0).unwrap();
        assert!((h.t - 1.0 / 3.0).abs() < 1e-6);
        let a = Aabb { min: vec2(-3.0, -0.5), max: vec2(-2.0, 0.5) };
        let h = cast_aabb_aabb(&a, vec2(4.0, 0.0), &b).unwrap();
        assert!((h.t - 0.75).abs() < 1e-6);
    }

    #[test]
    fn small_disk_far_away_is_hit() {
        // A radius of 1e-3 a hundred units away: b^2 and a c agree to 9 digits, more than f32 has.
        let motion = vec2(200.0, 0.0);
        let h = ray_disk(vec2(-100.0, 0.0), motion, vec2(0.0, 0.9e-3), 1e-3).expect("a hit");
        assert!((h.t - 0.5).abs() < 1e-5, "{h:?}");
        assert!(ray_disk(vec2(-100.0, 0.0), motion, vec2(0.0, 1.1e-3), 1e-3).is_none());
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
