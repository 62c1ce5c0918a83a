//! Points and segments as plain vectors: closest points, distances, parallel and collinear
//! tests. The bottom of the crate: it names no shape, so every other module may use it.
//!
//! Every function here is total on finite input: no panics, no NaN. Squared distances are
//! `>= 0` (they may be `+inf` when the true value overflows `f32`).

use glam::Vec2;

use crate::math::sqrt;

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
pub fn closest_point_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    segment_point(a, b, segment_param(p, a, b))
}

/// Squared distance from `p` to segment `a`–`b`: `>= 0`, never NaN for finite input.
#[inline]
#[must_use]
pub fn distance_squared_point_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
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
    let d = p - closest_point_segment(p, a, b);
    let r = d.dot(d);
    // The only way to NaN is inf - inf inside `p - c`, impossible when both are finite; keep
    // the guard so the contract holds even for the non-finite garbage the caller promised not to pass.
    if r.is_nan() { f32::INFINITY } else { r }
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
