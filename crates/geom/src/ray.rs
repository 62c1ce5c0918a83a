//! The ray.

use glam::Vec2;

use crate::{Aabb, Error};

/// A ray (or segment): the points `origin + t * dir` for `t` in `0..=max_t`.
///
/// `t` is measured in units of `dir`: with a unit `dir` it is a distance, with `dir` the
/// segment's full displacement and `max_t = 1` it is a fraction. `max_t` may be infinite.
/// The reciprocal of the direction is kept, so slab tests against many boxes cost no division.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::RayRecord", try_from = "crate::serde_impls::RayRecord")
)]
pub struct Ray {
    origin: Vec2,
    dir: Vec2,
    inv_dir: Vec2,
    max_t: f32,
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
    #[inline]
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// The direction (components too small to invert are zero).
    #[inline]
    #[must_use]
    pub fn dir(&self) -> Vec2 {
        self.dir
    }

    /// The reciprocal of each direction component (0 where the component is 0).
    #[inline]
    #[must_use]
    pub fn inv_dir(&self) -> Vec2 {
        self.inv_dir
    }

    /// The largest `t` considered.
    #[inline]
    #[must_use]
    pub fn max_t(&self) -> f32 {
        self.max_t
    }

    /// The point at parameter `t`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Vec2 {
        self.origin + self.dir * t
    }

    /// The same ray cut at `max_t` (never lengthened).
    #[inline]
    #[must_use]
    pub fn clipped(&self, max_t: f32) -> Ray {
        Ray { max_t: self.max_t.min(max_t), ..*self }
    }
}

/// The box queries that take a ray live here, beside the ray, so that `aabb` (used by every
/// other value) needs nothing above it.
impl Aabb {
    /// Where `ray` enters the box: the smallest `t` in `0..=ray.max_t()` with `ray.at(t)`
    /// inside, or `None`. A ray starting inside hits at `t = 0`; grazing an edge counts.
    #[inline]
    #[must_use]
    pub fn ray_entry(&self, ray: &Ray) -> Option<f32> {
        self.ray_span(ray).map(|(t0, _)| t0)
    }

    /// The parameter range `(t0, t1)` of the ray inside the box, if any: like
    /// [`Aabb::ray_entry`] with the exit too.
    #[inline]
    #[must_use]
    pub fn ray_span(&self, ray: &Ray) -> Option<(f32, f32)> {
        let mut t0 = 0.0f32;
        let mut t1 = ray.max_t();
        let (origin, dir, inv_dir) = (ray.origin(), ray.dir(), ray.inv_dir());
        for axis in 0..2 {
            let (o, d, inv, lo, hi) = (origin[axis], dir[axis], inv_dir[axis], self.min()[axis], self.max()[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
            } else {
                let (a, b) = ((lo - o) * inv, (hi - o) * inv);
                // Selects, not branches: which side is near depends on the box and the ray, so
                // a branch would be mispredicted often. (Plain comparisons, not `f32::min` /
                // `max`: no NaN can arise, a finite difference times a finite reciprocal.)
                let near = if a < b { a } else { b };
                let far = if a < b { b } else { a };
                t0 = if near > t0 { near } else { t0 };
                t1 = if far < t1 { far } else { t1 };
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn bad_rays_are_refused() {
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::ZERO, 1.0), Err(Error::BadRay));
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::X, -1.0), Err(Error::BadRay));
        assert_eq!(Ray::new(Vec2::ZERO, Vec2::X, f32::NAN), Err(Error::NonFinite));
        assert_eq!(Ray::new(vec2(f32::NAN, 0.0), Vec2::X, 1.0), Err(Error::NonFinite));
        assert_eq!(Ray::new(vec2(2e18, 0.0), Vec2::X, 1.0), Err(Error::OutOfRange));
        assert_eq!(Ray::new(Vec2::ZERO, vec2(1e-45, 0.0), 1.0), Err(Error::BadRay));
        assert_eq!(Ray::segment(Vec2::ONE, Vec2::ONE), Err(Error::BadRay));
    }

    #[test]
    fn tiny_components_count_as_zero() {
        let r = Ray::new(Vec2::ZERO, vec2(1.0, 1e-45), f32::INFINITY).unwrap();
        assert_eq!(r.dir(), vec2(1.0, 0.0));
        assert_eq!(r.inv_dir(), vec2(1.0, 0.0));
        let s = Ray::segment(vec2(1.0, 1.0), vec2(3.0, 5.0)).unwrap();
        assert_eq!(s.at(0.5), vec2(2.0, 3.0));
        assert_eq!(s.clipped(2.0).max_t(), 1.0);
    }
}
