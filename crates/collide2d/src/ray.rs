//! Rays (a point moving along a motion) against every shape: the time of first touch.
//!
//! A ray starts at `origin` and moves by `motion` (not normalised); a hit reports `t` in
//! `[0, 1]`, the fraction of `motion` travelled, and the surface normal there, pointing against
//! the motion. Apart from [`ray_segment`] (a hit from either side) rays report entering hits
//! only: a ray starting inside a shape gets `None`.

use glam::Vec2;

use crate::math::sqrt;
pub use crate::report::Hit;
use crate::report::earlier;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

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
    let t = c / (-b + sqrt(disc));
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    // Relative to the centre: `origin + motion * t - center` would round at the scale of the
    // coordinates, and a normal of a small disk far from the origin would be off by `ulp / r`.
    let normal = (m + motion * t).normalize_or(m.normalize_or(Vec2::Y));
    Some(Hit { t, normal })
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
    best = earlier(best, ray_disk(origin, motion, a, r));
    earlier(best, ray_disk(origin, motion, b, r))
}

/// Ray against a box (slab method), entering hits only.
#[must_use]
pub fn ray_aabb(origin: Vec2, motion: Vec2, aabb: &Aabb) -> Option<Hit> {
    if origin.cmpgt(aabb.min()).all() && origin.cmplt(aabb.max()).all() {
        return None;
    }
    let mut t_enter = f32::NEG_INFINITY;
    let mut t_exit = 1.0f32;
    let mut normal = Vec2::ZERO;
    for axis in 0..2 {
        let o = origin[axis];
        let d = motion[axis];
        let (lo, hi) = (aabb.min()[axis], aabb.max()[axis]);
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

/// Ray against a convex polygon, entering hits only.
#[must_use]
pub fn ray_polygon(origin: Vec2, motion: Vec2, poly: &ConvexPolygon) -> Option<Hit> {
    if poly.contains_point(origin) {
        return None;
    }
    poly.edges().fold(None, |best, e| earlier(best, ray_segment(origin, motion, &e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn rays() {
        let b = Aabb::covering(vec2(1.0, -1.0), vec2(2.0, 1.0));
        let h = ray_aabb(vec2(0.0, 0.0), vec2(4.0, 0.0), &b).unwrap();
        assert!((h.t - 0.25).abs() < 1e-6 && h.normal == Vec2::NEG_X);
        assert!(ray_aabb(vec2(0.0, 1.0), vec2(4.0, 0.0), &b).is_none(), "grazing a face");
        let h = ray_disk(vec2(-3.0, 0.0), vec2(6.0, 0.0), Vec2::ZERO, 1.0).unwrap();
        assert!((h.t - 1.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn small_disk_far_away_is_hit() {
        // A radius of 1e-3 a hundred units away: b^2 and a c agree to 9 digits, more than f32 has.
        let motion = vec2(200.0, 0.0);
        let h = ray_disk(vec2(-100.0, 0.0), motion, vec2(0.0, 0.9e-3), 1e-3).expect("a hit");
        assert!((h.t - 0.5).abs() < 1e-5, "{h:?}");
        assert!(ray_disk(vec2(-100.0, 0.0), motion, vec2(0.0, 1.1e-3), 1e-3).is_none());
    }
}
