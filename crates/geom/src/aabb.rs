//! The axis-aligned box.

use glam::Vec2;

use crate::Error;

/// An axis-aligned box with finite corners, `min <= max` on both axes.
///
/// Boxes are closed: two boxes that only touch along an edge or at a corner
/// [overlap](Aabb::overlaps), and a zero-size box (a point) is valid. The fields are private so
/// every box satisfies the invariant checked by [`Aabb::new`]: NaN, infinities and coordinates
/// beyond ±[`Aabb::LIMIT`] are refused with an [`Error`]. Operations that could leave the
/// range ([`Aabb::translated`], [`Aabb::grown`]) clamp into it instead.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::AabbRecord", try_from = "crate::serde_impls::AabbRecord")
)]
pub struct Aabb {
    min: Vec2,
    max: Vec2,
}

/// `v` clamped into ±[`Aabb::LIMIT`] on both axes; NaN becomes `-LIMIT` (`f32::max` returns
/// the number when one side is NaN).
#[inline(always)]
fn clamp_to_limit(v: Vec2) -> Vec2 {
    let lim = Vec2::splat(Aabb::LIMIT);
    Vec2::new(v.x.max(-lim.x).min(lim.x), v.y.max(-lim.y).min(lim.y))
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
    /// refused as [`Error::Inverted`]; zero is a line or a point).
    ///
    /// # Errors
    /// As [`Aabb::new`].
    #[inline]
    pub fn from_center(center: Vec2, half_extents: Vec2) -> Result<Self, Error> {
        let (min, max) = (center - half_extents, center + half_extents);
        // Valid corners come only from a finite centre and finite half extents.
        if Self::valid(min, max) { Ok(Self { min, max }) } else { Err(Self::center_refusal(center, half_extents)) }
    }

    /// The zero-size box at `point`.
    ///
    /// # Errors
    /// As [`Aabb::new`].
    #[inline]
    pub fn point(point: Vec2) -> Result<Self, Error> {
        Self::new(point, point)
    }

    /// The smallest box holding both points, clamped into ±[`Aabb::LIMIT`]; never fails.
    ///
    /// Use it for boxes derived from data that was checked elsewhere (a shape's bounds, a
    /// swept area). A NaN coordinate is clamped to `-LIMIT`, so a NaN never enters a box.
    #[inline]
    #[must_use]
    pub fn covering(a: Vec2, b: Vec2) -> Self {
        let (a, b) = (clamp_to_limit(a), clamp_to_limit(b));
        Self { min: a.min(b), max: a.max(b) }
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

    /// Why [`Aabb::from_center`] refuses `center`, `half_extents` (its corners not valid).
    #[cold]
    #[inline(never)]
    fn center_refusal(center: Vec2, half_extents: Vec2) -> Error {
        if !(center.is_finite() && half_extents.is_finite()) {
            Error::NonFinite
        } else {
            Self::refusal(center - half_extents, center + half_extents)
        }
    }

    /// The lower-left corner.
    #[inline]
    #[must_use]
    pub fn min(&self) -> Vec2 {
        self.min
    }

    /// The upper-right corner.
    #[inline]
    #[must_use]
    pub fn max(&self) -> Vec2 {
        self.max
    }

    /// The centre.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Width and height.
    #[inline]
    #[must_use]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Half the width and half the height.
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        (self.max - self.min) * 0.5
    }

    /// Half the perimeter (width + height): the cost a tree's surface-area heuristic uses.
    #[inline]
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

    /// Whether the open interiors share a point: boxes that only touch do not.
    #[inline]
    #[must_use]
    pub fn interiors_overlap(&self, other: &Aabb) -> bool {
        self.min.x < other.max.x && other.min.x < self.max.x && self.min.y < other.max.y && other.min.y < self.max.y
    }

    /// Whether `point` lies in the closed box.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, point: Vec2) -> bool {
        self.min.x <= point.x && point.x <= self.max.x && self.min.y <= point.y && point.y <= self.max.y
    }

    /// Whether `other` lies entirely inside this closed box.
    #[inline]
    #[must_use]
    pub fn contains_aabb(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x && self.min.y <= other.min.y && other.max.x <= self.max.x && other.max.y <= self.max.y
    }

    /// The smallest box holding both.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    /// The common part of both closed boxes, or `None` when they do not overlap.
    #[inline]
    #[must_use]
    pub fn intersection(&self, other: &Aabb) -> Option<Aabb> {
        let (min, max) = (self.min.max(other.min), self.max.min(other.max));
        (min.x <= max.x && min.y <= max.y).then_some(Aabb { min, max })
    }

    /// The box grown by `margin` on every side, clamped to ±[`Aabb::LIMIT`]. A negative margin
    /// shrinks it, down to the centre line on an axis where it would invert; a NaN margin
    /// leaves it as it is.
    #[inline]
    #[must_use]
    pub fn grown(&self, margin: f32) -> Aabb {
        if margin >= 0.0 {
            let lim = Vec2::splat(Self::LIMIT);
            Aabb { min: (self.min - margin).max(-lim), max: (self.max + margin).min(lim) }
        } else if margin < 0.0 {
            let c = self.center();
            Aabb { min: (self.min - margin).min(c), max: (self.max + margin).max(c) }
        } else {
            *self
        }
    }

    /// The box moved by `d`, clamped to ±[`Aabb::LIMIT`] (a NaN component of `d` moves that
    /// axis to `-LIMIT`).
    #[inline]
    #[must_use]
    pub fn translated(&self, d: Vec2) -> Aabb {
        let (min, max) = (self.min + d, self.max + d);
        if Self::valid(min, max) { Aabb { min, max } } else { Aabb::covering(min, max) }
    }

    /// The four corners, counter-clockwise from `min`.
    #[inline]
    #[must_use]
    pub fn corners(&self) -> [Vec2; 4] {
        [self.min, Vec2::new(self.max.x, self.min.y), self.max, Vec2::new(self.min.x, self.max.y)]
    }

    /// The point of the closed box closest to `point` (`point` itself when inside).
    #[inline]
    #[must_use]
    pub fn closest_point(&self, point: Vec2) -> Vec2 {
        point.clamp(self.min, self.max)
    }

    /// Squared distance from `point` to the closed box (0 inside).
    #[inline]
    #[must_use]
    pub fn distance_squared(&self, point: Vec2) -> f32 {
        let d = point - self.closest_point(point);
        d.dot(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ray, Segment};
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
        let l = Aabb::LIMIT;
        assert!(Aabb::new(vec2(-l, -l), vec2(l, l)).is_ok());
        assert_eq!(Aabb::from_center(Vec2::ZERO, vec2(l, l)), Aabb::new(vec2(-l, -l), vec2(l, l)));
        assert_eq!(Aabb::new(vec2(f32::NAN, 5.0), vec2(3e18, 0.0)), Err(Error::NonFinite));
        assert_eq!(Aabb::new(vec2(3e18, 5.0), vec2(2e18, 0.0)), Err(Error::OutOfRange));
        assert_eq!(Aabb::new(vec2(-l, 1.0), vec2(l, 0.0)), Err(Error::Inverted));
        assert_eq!(Aabb::from_center(vec2(f32::NAN, 0.0), Vec2::ONE), Err(Error::NonFinite));
        assert_eq!(Aabb::from_center(Vec2::ZERO, vec2(1.0, f32::INFINITY)), Err(Error::NonFinite));
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
    fn touching_boxes_overlap_but_their_interiors_do_not() {
        assert!(b(0.0, 0.0, 1.0, 1.0).overlaps(&b(1.0, 1.0, 2.0, 2.0)));
        assert!(!b(0.0, 0.0, 1.0, 1.0).interiors_overlap(&b(1.0, 0.0, 2.0, 1.0)));
        assert!(b(0.0, 0.0, 1.0, 1.0).interiors_overlap(&b(0.5, 0.5, 2.0, 2.0)));
        assert!(!b(0.0, 0.0, 1.0, 1.0).overlaps(&b(1.0001, 0.0, 2.0, 1.0)));
        assert!(b(0.0, 0.0, 0.0, 0.0).overlaps(&b(0.0, 0.0, 0.0, 0.0)));
    }

    #[test]
    fn contains_point_and_box() {
        let outer = b(0.0, 0.0, 4.0, 4.0);
        assert!(outer.contains_point(vec2(4.0, 0.0)));
        assert!(!outer.contains_point(vec2(4.0, -0.001)));
        assert!(outer.contains_aabb(&b(1.0, 1.0, 4.0, 2.0)));
        assert!(!outer.contains_aabb(&b(1.0, 1.0, 4.5, 2.0)));
    }

    #[test]
    fn intersection_union_and_distance() {
        let a = b(0.0, 0.0, 2.0, 2.0);
        let c = b(1.0, 1.0, 3.0, 3.0);
        assert_eq!(a.intersection(&c), Some(b(1.0, 1.0, 2.0, 2.0)));
        assert_eq!(a.intersection(&b(2.0, 0.0, 3.0, 1.0)), Some(b(2.0, 0.0, 2.0, 1.0)));
        assert_eq!(a.intersection(&b(2.5, 0.0, 3.0, 1.0)), None);
        assert_eq!(a.union(&c), b(0.0, 0.0, 3.0, 3.0));
        assert_eq!(a.distance_squared(vec2(5.0, 6.0)), 9.0 + 16.0);
        assert_eq!(a.distance_squared(vec2(1.0, 1.0)), 0.0);
    }

    #[test]
    fn derived_boxes_stay_in_range() {
        let l = Aabb::LIMIT;
        let big = b(-l, -l, l, l);
        assert_eq!(big.grown(5e17), big);
        assert_eq!(b(0.0, 0.0, 1.0, 1.0).grown(-2.0), b(0.5, 0.5, 0.5, 0.5));
        assert_eq!(b(0.0, 0.0, 1.0, 1.0).grown(f32::NAN), b(0.0, 0.0, 1.0, 1.0));
        assert_eq!(b(0.0, 0.0, 1.0, 1.0).translated(vec2(1.0, -1.0)), b(1.0, -1.0, 2.0, 0.0));
        assert_eq!(b(0.0, 0.0, 1.0, 1.0).translated(vec2(f32::INFINITY, 0.0)), b(l, 0.0, l, 1.0));
        let nan = b(0.0, 0.0, 1.0, 1.0).translated(vec2(f32::NAN, 0.0));
        assert!(Aabb::new(nan.min(), nan.max()).is_ok());
        assert_eq!(Aabb::covering(vec2(3.0, -1.0), vec2(1.0, 2.0)), b(1.0, -1.0, 3.0, 2.0));
        assert_eq!(Aabb::covering(vec2(f32::NEG_INFINITY, 0.0), vec2(1e30, 0.0)), b(-l, 0.0, l, 0.0));
    }

    #[test]
    fn ray_entry_cases() {
        let unit = b(1.0, -1.0, 2.0, 1.0);
        let r = Ray::new(Vec2::ZERO, Vec2::X, 10.0).unwrap();
        assert_eq!(unit.ray_entry(&r), Some(1.0));
        assert_eq!(unit.ray_span(&r), Some((1.0, 2.0)));
        assert_eq!(unit.ray_entry(&r.clipped(0.5)), None);
        let inside = Ray::new(vec2(1.5, 0.0), Vec2::NEG_X, 1.0).unwrap();
        assert_eq!(unit.ray_entry(&inside), Some(0.0));
        let graze = Ray::new(vec2(0.0, 1.0), Vec2::X, f32::INFINITY).unwrap();
        assert_eq!(unit.ray_entry(&graze), Some(1.0));
        let miss = Ray::new(vec2(0.0, 1.01), Vec2::X, f32::INFINITY).unwrap();
        assert_eq!(unit.ray_entry(&miss), None);
        assert_eq!(unit.ray_entry(&Ray::new(Vec2::ZERO, Vec2::NEG_X, 10.0).unwrap()), None);
    }

    #[test]
    fn edges_wind_counter_clockwise() {
        let e = b(0.0, 0.0, 2.0, 1.0).edges();
        assert_eq!(e[0], Segment { a: vec2(0.0, 0.0), b: vec2(2.0, 0.0) });
        assert_eq!(e[3].b, vec2(0.0, 0.0));
        // The solid lies on the left of each edge: the centre is left of every direction.
        for s in e {
            let c = vec2(1.0, 0.5) - s.a;
            assert!(s.direction().perp_dot(c) > 0.0);
        }
    }
}
