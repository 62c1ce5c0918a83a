//! Points and segments as plain vectors: closest points, distances, parallel and collinear
//! tests. The bottom of the crate (only lore-geom's [`Segment`] below it, whose robust
//! point–segment queries these wrap), so every other module may use it.
//!
//! Every function here is total on finite input: no panics, no NaN. Squared distances are
//! `>= 0` (they may be `+inf` when the true value overflows `f32`).

use glam::Vec2;

use lore_geom::Segment;

use crate::math::sqrt;

/// Parameter `t` in `[0, 1]` of the point of `a`–`b` closest to `p` ([`Segment::param`]).
///
/// A degenerate segment (`a == b`) gives 0; coordinates so large that `b - a` overflows are
/// handled by working on halves, so the result is never NaN for finite input.
#[inline]
#[must_use]
pub fn segment_param(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    Segment { a, b }.param(p)
}

/// The point at parameter `t` of `a`–`b`, computed without overflowing for finite ends
/// ([`Segment::point_at`]).
#[inline]
#[must_use]
pub fn segment_point(a: Vec2, b: Vec2, t: f32) -> Vec2 {
    Segment { a, b }.point_at(t)
}

/// The point of segment `a`–`b` closest to `p` ([`Segment::closest_point`]).
#[inline]
#[must_use]
pub fn closest_point_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    Segment { a, b }.closest_point(p)
}

/// Squared distance from `p` to segment `a`–`b`: `>= 0`, never NaN for finite input
/// ([`Segment::distance_squared`]).
#[inline]
#[must_use]
pub fn distance_squared_point_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    Segment { a, b }.distance_squared(p)
}

/// Distance from `p` to segment `a`–`b`.
#[inline]
#[must_use]
pub fn distance_point_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    sqrt(distance_squared_point_segment(p, a, b))
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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn closest_point_cases() {
        let (a, b) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert_eq!(closest_point_segment(vec2(2.0, 3.0), a, b), vec2(2.0, 0.0));
        assert_eq!(closest_point_segment(vec2(-2.0, 3.0), a, b), a);
        assert_eq!(closest_point_segment(vec2(9.0, -3.0), a, b), b);
        // Degenerate segment.
        assert_eq!(closest_point_segment(vec2(1.0, 1.0), a, a), a);
        assert_eq!(distance_squared_point_segment(vec2(3.0, 4.0), a, a), 25.0);
        // Overflowing direction.
        let big = vec2(f32::MAX, f32::MAX);
        let d = distance_squared_point_segment(Vec2::ZERO, -big, big);
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
}
