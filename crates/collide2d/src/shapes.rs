//! The primitives: [`Segment`], [`Disk`], [`Aabb`], [`Capsule`] and [`ConvexPolygon`]. The
//! segment, the box and the ray are lore-geom's, the one vocabulary of the lore crates,
//! re-exported here.
//!
//! Constructors check their input and return [`Error`]; the fields stay public for plain data
//! use, and every query is NaN-free for any finite field values.

use alloc::boxed::Box;
use alloc::vec::Vec;

use glam::Vec2;

use crate::error::{Error, finite, positive};
pub use lore_geom::{Aabb, Ray, Segment};

/// A disk (filled circle).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::DiskRecord", try_from = "crate::serde_impls::DiskRecord")
)]
pub struct Disk {
    /// Centre.
    pub center: Vec2,
    /// Radius, > 0.
    pub radius: f32,
}

impl Disk {
    /// A disk; the radius must be finite and > 0.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotPositive`].
    pub fn new(center: Vec2, radius: f32) -> Result<Self, Error> {
        finite(center, "disk centre")?;
        positive(radius, "disk radius")?;
        Ok(Self { center, radius })
    }

    /// The bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::covering(self.center - self.radius, self.center + self.radius)
    }
}

/// A capsule: all points within `radius` of the segment `a`–`b` (a stadium in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::CapsuleRecord", try_from = "crate::serde_impls::CapsuleRecord")
)]
pub struct Capsule {
    /// Core segment.
    pub segment: Segment,
    /// Radius, > 0.
    pub radius: f32,
}

impl Capsule {
    /// A capsule around the segment `a`–`b`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotPositive`].
    pub fn new(a: Vec2, b: Vec2, radius: f32) -> Result<Self, Error> {
        positive(radius, "capsule radius")?;
        Ok(Self { segment: Segment::new(a, b)?, radius })
    }
}

/// A convex polygon, vertices counter-clockwise, no three collinear, at least three.
///
/// Build it with [`ConvexPolygon::hull`] from any points: winding, duplicates, interior points
/// and concavities are taken care of.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::PolygonRecord", try_from = "crate::serde_impls::PolygonRecord")
)]
pub struct ConvexPolygon {
    points: Vec<Vec2>,
}

fn cross(a: Vec2, b: Vec2) -> f32 {
    a.perp_dot(b)
}

impl ConvexPolygon {
    /// The convex hull of `points` (Andrew's monotone chain, `O(n log n)`), counter-clockwise,
    /// without collinear or duplicate vertices.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for a NaN/infinite point, [`Error::Degenerate`] when the hull has no
    /// area (fewer than three points, or all collinear).
    pub fn hull(points: &[Vec2]) -> Result<Self, Error> {
        for &p in points {
            finite(p, "polygon point")?;
        }
        let mut pts: Vec<Vec2> = points.to_vec();
        pts.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
        pts.dedup();
        if pts.len() < 3 {
            return Err(Error::Degenerate { points: points.len() });
        }
        let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() * 2);
        for pass in 0..2 {
            let start = hull.len();
            let iter: Box<dyn Iterator<Item = &Vec2>> =
                if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
            for &p in iter {
                while hull.len() >= start + 2 {
                    let o = hull[hull.len() - 2];
                    let a = hull[hull.len() - 1];
                    if crate::geometry::orient_positive(o, a, p) {
                        break;
                    }
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop();
        }
        if hull.len() < 3 {
            return Err(Error::Degenerate { points: points.len() });
        }
        Ok(Self { points: hull })
    }

    /// A box as a polygon.
    #[must_use]
    pub fn from_aabb(aabb: &Aabb) -> Self {
        Self { points: aabb.corners().to_vec() }
    }

    /// The vertices, counter-clockwise.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Edge `i` (from vertex `i` to vertex `i + 1`).
    #[must_use]
    pub fn edge(&self, i: usize) -> Segment {
        let n = self.points.len();
        Segment { a: self.points[i % n], b: self.points[(i + 1) % n] }
    }

    /// The edges, counter-clockwise.
    pub fn edges(&self) -> impl Iterator<Item = Segment> + '_ {
        (0..self.points.len()).map(|i| self.edge(i))
    }

    /// Outward unit normal of edge `i`.
    #[must_use]
    pub fn normal(&self, i: usize) -> Vec2 {
        let d = self.edge(i).direction();
        Vec2::new(d.y, -d.x).normalize_or_zero()
    }

    /// The polygon moved by `d`.
    #[must_use]
    pub fn translated(&self, d: Vec2) -> Self {
        Self { points: self.points.iter().map(|&p| p + d).collect() }
    }

    /// Whether `p` is inside or on the border (the name `Aabb` uses).
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        self.edges().all(|e| cross(e.b - e.a, p - e.a) >= 0.0)
    }

    /// Renamed [`ConvexPolygon::contains_point`].
    #[deprecated(since = "0.2.0", note = "renamed `contains_point`, as on `Aabb`")]
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.contains_point(p)
    }

    /// The bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let (mut lo, mut hi) = (self.points[0], self.points[0]);
        for &p in &self.points[1..] {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        Aabb::covering(lo, hi)
    }
}
