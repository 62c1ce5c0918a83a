//! The segment and robust point–segment queries.

use alloc::vec::Vec;
use glam::Vec2;

use crate::{Aabb, Error};

/// A line segment from `a` to `b`. `a == b` (a point) is allowed.
///
/// Plain data: the ends are public. [`Segment::new`] checks they are finite; every query is
/// total on finite ends (no panic, no NaN), even when `b - a` overflows `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::SegmentRecord", try_from = "crate::serde_impls::SegmentRecord")
)]
pub struct Segment {
    /// First end.
    pub a: Vec2,
    /// Second end.
    pub b: Vec2,
}

impl Segment {
    /// A segment from `a` to `b`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] when an end is NaN or infinite.
    pub fn new(a: Vec2, b: Vec2) -> Result<Self, Error> {
        if a.is_finite() && b.is_finite() { Ok(Self { a, b }) } else { Err(Error::NonFinite) }
    }

    /// The segments joining consecutive points of a polyline (`closed` adds last to first).
    ///
    /// # Errors
    /// [`Error::NonFinite`] when a point is NaN or infinite.
    pub fn polyline(points: &[Vec2], closed: bool) -> Result<Vec<Segment>, Error> {
        let mut out = Vec::with_capacity(points.len());
        for w in points.windows(2) {
            out.push(Segment::new(w[0], w[1])?);
        }
        if closed && points.len() > 2 {
            out.push(Segment::new(points[points.len() - 1], points[0])?);
        }
        Ok(out)
    }

    /// `b - a`.
    #[inline]
    #[must_use]
    pub fn direction(&self) -> Vec2 {
        self.b - self.a
    }

    /// Length of the segment.
    #[inline]
    #[must_use]
    pub fn length(&self) -> f32 {
        self.a.distance(self.b)
    }

    /// The bounding box (clamped into ±[`Aabb::LIMIT`], see [`Aabb::covering`]).
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::covering(self.a, self.b)
    }

    /// Parameter `t` in `[0, 1]` of the point closest to `p`.
    ///
    /// A degenerate segment (`a == b`) gives 0; coordinates so large that `b - a` overflows are
    /// handled by working on halves, so the result is never NaN for finite input.
    #[inline]
    #[must_use]
    pub fn param(&self, p: Vec2) -> f32 {
        let (a, b) = (self.a, self.b);
        let d = b - a;
        let len2 = d.dot(d);
        if len2 > f32::MIN_POSITIVE && len2.is_finite() {
            let t = (p - a).dot(d) / len2;
            // A NaN (from an overflowing `p - a`) takes the robust path.
            if t.is_finite() {
                return t.clamp(0.0, 1.0);
            }
        }
        param_robust(p, a, b)
    }

    /// The point at parameter `t` (clamped to `[0, 1]`), computed without overflowing for
    /// finite ends and never outside the segment's box.
    #[inline]
    #[must_use]
    pub fn point_at(&self, t: f32) -> Vec2 {
        let (a, b) = (self.a, self.b);
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

    /// The point of the segment closest to `p`.
    #[inline]
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        self.point_at(self.param(p))
    }

    /// Squared distance from `p` to the segment: `>= 0`, never NaN for finite input (it may be
    /// `+inf` when the true value overflows `f32`).
    #[inline]
    #[must_use]
    pub fn distance_squared(&self, p: Vec2) -> f32 {
        let (a, b) = (self.a, self.b);
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
        let d = p - self.closest_point(p);
        let r = d.dot(d);
        // The only way to NaN is inf - inf inside `p - c`, impossible when both are finite; keep
        // the guard so the contract holds even for non-finite garbage.
        if r.is_nan() { f32::INFINITY } else { r }
    }

    /// Distance from `p` to the segment (see [`Segment::distance_squared`]).
    #[inline]
    #[must_use]
    pub fn distance(&self, p: Vec2) -> f32 {
        sqrt(self.distance_squared(p))
    }
}

#[cfg(feature = "std")]
#[inline]
fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

#[cfg(not(feature = "std"))]
#[inline]
fn sqrt(x: f32) -> f32 {
    libm::sqrtf(x)
}

#[cold]
fn param_robust(p: Vec2, a: Vec2, b: Vec2) -> f32 {
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

/// The box query that gives segments lives here, beside the segment, so that `aabb` (used by
/// every other value) needs nothing above it.
impl Aabb {
    /// The four edges, counter-clockwise from the bottom edge (solid on the left of each).
    #[must_use]
    pub fn edges(&self) -> [Segment; 4] {
        let c = self.corners();
        [
            Segment { a: c[0], b: c[1] },
            Segment { a: c[1], b: c[2] },
            Segment { a: c[2], b: c[3] },
            Segment { a: c[3], b: c[0] },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;
    use proptest::prelude::*;

    #[test]
    fn closest_points_and_distances() {
        let s = Segment::new(vec2(0.0, 0.0), vec2(4.0, 0.0)).unwrap();
        assert_eq!(s.closest_point(vec2(1.0, 2.0)), vec2(1.0, 0.0));
        assert_eq!(s.closest_point(vec2(-3.0, 1.0)), vec2(0.0, 0.0));
        assert_eq!(s.closest_point(vec2(9.0, -1.0)), vec2(4.0, 0.0));
        assert_eq!(s.distance_squared(vec2(2.0, -3.0)), 9.0);
        assert_eq!(s.distance(vec2(7.0, 4.0)), 5.0);
        let point = Segment { a: vec2(1.0, 1.0), b: vec2(1.0, 1.0) };
        assert_eq!(point.param(vec2(5.0, 5.0)), 0.0);
        assert_eq!(point.distance_squared(vec2(1.0, 4.0)), 9.0);
    }

    #[test]
    fn huge_ends_stay_finite() {
        let s = Segment { a: vec2(-3e38, -3e38), b: vec2(3e38, 3e38) };
        let c = s.closest_point(vec2(0.0, 1.0));
        assert!(c.is_finite());
        assert!(s.distance_squared(vec2(1e38, -1e38)) >= 0.0);
        assert!(!s.distance_squared(vec2(0.0, 1.0)).is_nan());
    }

    #[test]
    fn bad_ends_are_refused_and_polylines_join() {
        assert_eq!(Segment::new(vec2(f32::NAN, 0.0), Vec2::ONE), Err(Error::NonFinite));
        let pts = [vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 1.0)];
        assert_eq!(Segment::polyline(&pts, false).unwrap().len(), 2);
        let closed = Segment::polyline(&pts, true).unwrap();
        assert_eq!(closed.len(), 3);
        assert_eq!(closed[2], Segment { a: vec2(1.0, 1.0), b: vec2(0.0, 0.0) });
        assert_eq!(Segment::new(vec2(2.0, -1.0), vec2(0.0, 3.0)).unwrap().aabb().min(), vec2(0.0, -1.0));
    }

    proptest! {
        #[test]
        fn distance_is_never_negative_nor_nan(
            ax in -1e30f32..1e30, ay in -1e30f32..1e30, bx in -1e30f32..1e30, by in -1e30f32..1e30,
            px in -1e30f32..1e30, py in -1e30f32..1e30,
        ) {
            let s = Segment { a: vec2(ax, ay), b: vec2(bx, by) };
            let p = vec2(px, py);
            let d = s.distance_squared(p);
            prop_assert!(d >= 0.0);
            let c = s.closest_point(p);
            prop_assert!(c.is_finite());
            // Within the segment's own box (`aabb()` would clamp ends beyond ±1e18).
            prop_assert!(c.cmpge(s.a.min(s.b)).all() && c.cmple(s.a.max(s.b)).all());
        }

        #[test]
        fn closest_point_is_no_farther_than_the_ends(
            ax in -100f32..100.0, ay in -100f32..100.0, bx in -100f32..100.0, by in -100f32..100.0,
            px in -100f32..100.0, py in -100f32..100.0,
        ) {
            let s = Segment { a: vec2(ax, ay), b: vec2(bx, by) };
            let p = vec2(px, py);
            let d = s.distance_squared(p);
            let tol = 1e-3 * (1.0 + d);
            prop_assert!(d <= p.distance_squared(s.a) + tol);
            prop_assert!(d <= p.distance_squared(s.b) + tol);
        }
    }
}
