//! Axis-aligned boxes and rays: the only geometry an index sees.

use crate::error::Error;
use glam::Vec2;

/// An axis-aligned box with finite corners, `min <= max` on both axes.
///
/// Boxes are closed: two boxes that only touch along an edge or at a corner overlap, and a
/// zero-size box (a point) is valid. The fields are private so every box an index holds has
/// passed [`Aabb::new`]'s checks; NaN, infinities and coordinates beyond ±[`Aabb::LIMIT`] are
/// refused with an [`Error`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub(crate) min: Vec2,
    pub(crate) max: Vec2,
}

impl Aabb {
    /// The largest coordinate magnitude accepted (1e18): far beyond any game world, small enough
    /// that perimeters, fattened boxes and cell coordinates never overflow to infinity.
    pub const LIMIT: f32 = 1.0e18;

    /// The box from `min` to `max`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for NaN or infinite coordinates, [`Error::OutOfRange`] beyond
    /// ±[`Aabb::LIMIT`], [`Error::Inverted`] when `min > max` on an axis.
    #[inline]
    pub fn new(min: Vec2, max: Vec2) -> Result<Self, Error> {
        if Self::valid(min, max) { Ok(Self { min, max }) } else { Err(Self::refusal(min, max)) }
    }

    /// The box centred on `center` reaching `half_extents` each way (negative half extents are
    /// refused as [`Error::Inverted`]).
    ///
    /// # Errors
    /// As [`Aabb::new`].
    #[inline]
    pub fn from_center(center: Vec2, half_extents: Vec2) -> Result<Self, Error> {
        let (min, max) = (center - half_extents, center + half_extents);
        // Valid corners come only from a finite centre and finite half extents.
        if Self::valid(min, max) { Ok(Self { min, max }) } else { Err(Self::center_refusal(center, half_extents)) }
    }

    /// Whether `min..max` is a box [`Aabb::new`] accepts, in one test: every coordinate within
    /// ±[`Aabb::LIMIT`] (NaN and the infinities are not) and `min <= max`. Building boxes is
    /// part of every frame of a moving world, so the usual case costs no more than this and
    /// can be inlined into the caller's loop.
    #[inline(always)]
    fn valid(min: Vec2, max: Vec2) -> bool {
        (min.x.abs() <= Self::LIMIT)
            & (min.y.abs() <= Self::LIMIT)
            & (max.x.abs() <= Self::LIMIT)
            & (max.y.abs() <= Self::LIMIT)
            & (min.x <= max.x)
            & (min.y <= max.y)
    }

    /// Why [`Aabb::new`] refuses `min..max` (not [`Aabb::valid`]).
    #[cold]
    #[inline(never)]
    fn refusal(min: Vec2, max: Vec2) -> Error {
        if !(min.is_finite() && max.is_finite()) {
            Error::NonFinite
        } else if min.abs().max_element() > Self::LIMIT || max.abs().max_element() > Self::LIMIT {
            Error::OutOfRange
        } else {
            Error::Inverted
        }
    }

    /// Why [`Aabb::from_center`] refuses `center`, `half_extents` (its corners not
    /// [`Aabb::valid`]).
    #[cold]
    #[inline(never)]
    fn center_refusal(center: Vec2, half_extents: Vec2) -> Error {
        if !(center.is_finite() && half_extents.is_finite()) {
            Error::NonFinite
        } else {
            Self::refusal(center - half_extents, center + half_extents)
        }
    }

    /// The zero-size box at `point`.
    ///
    /// # Errors
    /// As [`Aabb::new`].
    pub fn point(point: Vec2) -> Result<Self, Error> {
        Self::new(point, point)
    }

    /// The lower-left corner.
    #[must_use]
    pub fn min(&self) -> Vec2 {
        self.min
    }

    /// The upper-right corner.
    #[must_use]
    pub fn max(&self) -> Vec2 {
        self.max
    }

    /// The centre.
    #[must_use]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Width and height.
    #[must_use]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Half the perimeter (width + height): the cost the tree's surface-area heuristic uses.
    #[must_use]
    pub fn half_perimeter(&self) -> f32 {
        let s = self.size();
        s.x + s.y
    }

    /// Whether the two closed boxes share at least one point (touching counts).
    #[inline]
    #[must_use]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// Whether `point` lies in the closed box.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, point: Vec2) -> bool {
        self.min.x <= point.x && point.x <= self.max.x && self.min.y <= point.y && point.y <= self.max.y
    }

    /// Whether `other` lies entirely inside this box.
    #[inline]
    #[must_use]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x && self.min.y <= other.min.y && other.max.x <= self.max.x && other.max.y <= self.max.y
    }

    /// The smallest box holding both.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    /// The box grown by `margin` on every side, clamped to ±[`Aabb::LIMIT`] (`margin >= 0`).
    #[must_use]
    pub(crate) fn grown(&self, margin: f32) -> Aabb {
        let lim = Vec2::splat(Self::LIMIT);
        Aabb { min: (self.min - margin).max(-lim), max: (self.max + margin).min(lim) }
    }

    /// Where `ray` enters the box: the smallest `t` in `0..=ray.max_t` with
    /// `ray.at(t)` inside, or `None`. A ray starting inside hits at `t = 0`.
    #[inline]
    #[must_use]
    pub fn ray_entry(&self, ray: &Ray) -> Option<f32> {
        let mut t0 = 0.0f32;
        let mut t1 = ray.max_t;
        for axis in 0..2 {
            let (o, d, inv, lo, hi) =
                (ray.origin[axis], ray.dir[axis], ray.inv_dir[axis], self.min[axis], self.max[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
            } else {
                let (a, b) = ((lo - o) * inv, (hi - o) * inv);
                let (near, far) = if a <= b { (a, b) } else { (b, a) };
                t0 = t0.max(near);
                t1 = t1.min(far);
            }
        }
        (t0 <= t1).then_some(t0)
    }
}

/// A ray (or segment): the points `origin + t * dir` for `t` in `0..=max_t`.
///
/// `t` is measured in units of `dir`: with a unit `dir` it is a distance, with `dir` the
/// segment's full displacement and `max_t = 1` it is a fraction. `max_t` may be infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub(crate) origin: Vec2,
    pub(crate) dir: Vec2,
    pub(crate) inv_dir: Vec2,
    pub(crate) max_t: f32,
}

impl Ray {
    /// A ray from `origin` along `dir` up to `max_t`.
    ///
    /// A direction component too small for its reciprocal to be finite counts as zero (the ray
    /// is parallel to that axis).
    ///
    /// # Errors
    /// [`Error::NonFinite`] for NaN or infinite origin or direction or a NaN `max_t`,
    /// [`Error::OutOfRange`] for an origin beyond ±[`Aabb::LIMIT`], [`Error::BadRay`] for a zero
    /// direction or a negative `max_t`.
    pub fn new(origin: Vec2, dir: Vec2, max_t: f32) -> Result<Self, Error> {
        if !(origin.is_finite() && dir.is_finite()) || max_t.is_nan() {
            return Err(Error::NonFinite);
        }
        if origin.abs().max_element() > Aabb::LIMIT {
            return Err(Error::OutOfRange);
        }
        let inv = |d: f32| if d != 0.0 && (1.0 / d).is_finite() { 1.0 / d } else { 0.0 };
        let dir = Vec2::new(if inv(dir.x) == 0.0 { 0.0 } else { dir.x }, if inv(dir.y) == 0.0 { 0.0 } else { dir.y });
        if dir == Vec2::ZERO || max_t < 0.0 {
            return Err(Error::BadRay);
        }
        Ok(Self { origin, dir, inv_dir: Vec2::new(inv(dir.x), inv(dir.y)), max_t })
    }

    /// The segment from `a` to `b` (`dir = b - a`, `max_t = 1`).
    ///
    /// # Errors
    /// As [`Ray::new`]; `a == b` is [`Error::BadRay`].
    pub fn segment(a: Vec2, b: Vec2) -> Result<Self, Error> {
        Self::new(a, b - a, 1.0)
    }

    /// The start point.
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// The direction (components too small to invert are zero).
    #[must_use]
    pub fn dir(&self) -> Vec2 {
        self.dir
    }

    /// The largest `t` considered.
    #[must_use]
    pub fn max_t(&self) -> f32 {
        self.max_t
    }

    /// The point at parameter `t`.
    #[must_use]
    pub fn at(&self, t: f32) -> Vec2 {
        self.origin + self.dir * t
    }

    /// The same ray cut at `max_t` (never lengthened).
    #[must_use]
    pub fn clipped(&self, max_t: f32) -> Ray {
        Ray { max_t: self.max_t.min(max_t), ..*self }
    }

    /// The parameter range `(t0, t1)` of the ray inside `aabb`, if any (like
    /// [`Aabb::ray_entry`] but with the exit too).
    #[must_use]
    pub(crate) fn span_in(&self, aabb: &Aabb) -> Option<(f32, f32)> {
        let mut t0 = 0.0f32;
        let mut t1 = self.max_t;
        for axis in 0..2 {
            let (o, d, inv, lo, hi) =
                (self.origin[axis], self.dir[axis], self.inv_dir[axis], aabb.min[axis], aabb.max[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
            } else {
                let (a, b) = ((lo - o) * inv, (hi - o) * inv);
                let (near, far) = if a <= b { (a, b) } else { (b, a) };
                t0 = t0.max(near);
                t1 = t1.min(far);
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// One ray hit: which proxy, and the `t` where the ray enters its box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The proxy hit.
    pub id: crate::id::ProxyId,
    /// Entry parameter, `0` when the ray starts inside the box.
    pub t: f32,
}

impl RayHit {
    /// Whether `self` comes before `other` in hit order: smaller `t`, ties to the smaller id.
    #[must_use]
    pub fn before(&self, other: &RayHit) -> bool {
        (self.t, self.id) < (other.t, other.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(vec2(x0, y0), vec2(x1, y1)).unwrap()
    }

    #[test]
    fn bad_boxes_are_refused() {
        assert_eq!(Aabb::new(vec2(f32::NAN, 0.0), Vec2::ONE), Err(Error::NonFinite));
        assert_eq!(Aabb::new(Vec2::ZERO, vec2(f32::INFINITY, 1.0)), Err(Error::NonFinite));
        assert_eq!(Aabb::new(Vec2::ONE, Vec2::ZERO), Err(Error::Inverted));
        assert_eq!(Aabb::new(Vec2::ZERO, vec2(2e18, 0.0)), Err(Error::OutOfRange));
        assert_eq!(Aabb::from_center(Vec2::ZERO, vec2(-1.0, 1.0)), Err(Error::Inverted));
        assert!(Aabb::point(vec2(-1e7, 1e7)).is_ok());
    }

    #[test]
    fn one_test_for_valid_boxes_keeps_each_refusal() {
        // The limit itself is accepted, in both constructors.
        let l = Aabb::LIMIT;
        assert!(Aabb::new(vec2(-l, -l), vec2(l, l)).is_ok());
        assert_eq!(Aabb::from_center(Vec2::ZERO, vec2(l, l)), Aabb::new(vec2(-l, -l), vec2(l, l)));
        // Several faults at once: non-finite first, then out of range, then inverted.
        assert_eq!(Aabb::new(vec2(f32::NAN, 5.0), vec2(3e18, 0.0)), Err(Error::NonFinite));
        assert_eq!(Aabb::new(vec2(3e18, 5.0), vec2(2e18, 0.0)), Err(Error::OutOfRange));
        assert_eq!(Aabb::new(vec2(-l, 1.0), vec2(l, 0.0)), Err(Error::Inverted));
        // From a centre: a non-finite centre or extent, finite ones whose corners overflow,
        // corners out of range, negative extents.
        assert_eq!(Aabb::from_center(vec2(f32::NAN, 0.0), Vec2::ONE), Err(Error::NonFinite));
        assert_eq!(Aabb::from_center(Vec2::ZERO, vec2(1.0, f32::INFINITY)), Err(Error::NonFinite));
        assert_eq!(Aabb::from_center(vec2(f32::INFINITY, 0.0), vec2(f32::INFINITY, 1.0)), Err(Error::NonFinite));
        assert_eq!(Aabb::from_center(vec2(3e38, 0.0), vec2(3e38, 1.0)), Err(Error::NonFinite));
        assert_eq!(Aabb::from_center(vec2(1e18, 0.0), vec2(1e17, 1.0)), Err(Error::OutOfRange));
        assert_eq!(Aabb::from_center(vec2(3e18, 0.0), vec2(-1.0, 1.0)), Err(Error::OutOfRange));
        assert_eq!(Aabb::from_center(vec2(1.0, 2.0), vec2(0.5, -0.25)), Err(Error::Inverted));
        assert_eq!(
            Aabb::from_center(vec2(1.0, 2.0), vec2(0.5, 0.25)).map(|b| (b.min, b.max)),
            Ok((vec2(0.5, 1.75), vec2(1.5, 2.25)))
        );
    }

    #[test]
    fn touching_boxes_overlap() {
        assert!(b(0.0, 0.0, 1.0, 1.0).overlaps(&b(1.0, 1.0, 2.0, 2.0)));
        assert!(!b(0.0, 0.0, 1.0, 1.0).overlaps(&b(1.0001, 0.0, 2.0, 1.0)));
        assert!(b(0.0, 0.0, 0.0, 0.0).overlaps(&b(0.0, 0.0, 0.0, 0.0)));
    }

    #[test]
    fn ray_entry_cases() {
        let unit = b(1.0, -1.0, 2.0, 1.0);
        let r = Ray::new(Vec2::ZERO, Vec2::X, 10.0).unwrap();
        assert_eq!(unit.ray_entry(&r), Some(1.0));
        assert_eq!(unit.ray_entry(&r.clipped(0.5)), None);
        // Starting inside hits at 0.
        let inside = Ray::new(vec2(1.5, 0.0), Vec2::NEG_X, 1.0).unwrap();
        assert_eq!(unit.ray_entry(&inside), Some(0.0));
        // Parallel to an axis, exactly on the boundary: grazing counts.
        let graze = Ray::new(vec2(0.0, 1.0), Vec2::X, f32::INFINITY).unwrap();
        assert_eq!(unit.ray_entry(&graze), Some(1.0));
        let miss = Ray::new(vec2(0.0, 1.01), Vec2::X, f32::INFINITY).unwrap();
        assert_eq!(unit.ray_entry(&miss), None);
        // Pointing away.
        assert_eq!(unit.ray_entry(&Ray::new(Vec2::ZERO, Vec2::NEG_X, 10.0).unwrap()), None);
    }

    #[test]
    fn bad_rays_are_refused() {
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::ZERO, 1.0), Err(Error::BadRay));
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::X, -1.0), Err(Error::BadRay));
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::X, f32::NAN), Err(Error::NonFinite));
        assert_eq!(Ray::new(vec2(f32::NAN, 0.0), Vec2::X, 1.0), Err(Error::NonFinite));
        assert_eq!(Ray::new(Vec2::ZERO, vec2(1e-45, 0.0), 1.0), Err(Error::BadRay));
        assert_eq!(Ray::segment(Vec2::ONE, Vec2::ONE), Err(Error::BadRay));
    }
}
