//! One ray hit: what the raycasts return. The box and the ray themselves are
//! [`lore_geom`]'s, re-exported at the crate root; the tests below pin the behaviour of the
//! re-exported types that the indexes rely on.

use crate::id::ProxyId;

/// One ray hit: which proxy, and the `t` where the ray enters its box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The proxy hit.
    pub id: ProxyId,
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
    use glam::{Vec2, vec2};
    use lore_geom::{Aabb, Error, Ray};

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
            Aabb::from_center(vec2(1.0, 2.0), vec2(0.5, 0.25)).map(|b| (b.min(), b.max())),
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
