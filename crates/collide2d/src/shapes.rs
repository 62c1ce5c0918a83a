//! The primitives: [`Segment`], [`Disk`], [`Aabb`], [`Capsule`] and [`ConvexPolygon`].
//!
//! Constructors check their input and return [`Error`]; the fields stay public for plain data
//! use, and every query is NaN-free for any finite field values.

use alloc::boxed::Box;
use alloc::vec::Vec;

use glam::Vec2;

use crate::error::{Error, finite, positive};

/// A line segment from `a` to `b`. `a == b` (a point) is allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
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
        finite(a, "segment end a")?;
        finite(b, "segment end b")?;
        Ok(Self { a, b })
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
    #[must_use]
    pub fn direction(&self) -> Vec2 {
        self.b - self.a
    }

    /// Length of the segment.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.a.distance(self.b)
    }

    /// The bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb { min: self.a.min(self.b), max: self.a.max(self.b) }
    }
}

/// A disk (filled circle).
#[derive(Clone, Copy, Debug, PartialEq)]
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
        Aabb { min: self.center - self.radius, max: self.center + self.radius }
    }
}

/// An axis-aligned box, `min <= max` on both axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its corners.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::InvertedAabb`] when `min > max` on an axis.
    pub fn new(min: Vec2, max: Vec2) -> Result<Self, Error> {
        finite(min, "aabb min")?;
        finite(max, "aabb max")?;
        if min.x > max.x || min.y > max.y {
            return Err(Error::InvertedAabb { min: min.to_array(), max: max.to_array() });
        }
        Ok(Self { min, max })
    }

    /// A box from its centre and half extents (each > 0).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotPositive`].
    pub fn from_center(center: Vec2, half: Vec2) -> Result<Self, Error> {
        finite(center, "aabb centre")?;
        positive(half.x, "aabb half width")?;
        positive(half.y, "aabb half height")?;
        Ok(Self { min: center - half, max: center + half })
    }

    /// Centre of the box.
    #[must_use]
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Half extents.
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        (self.max - self.min) * 0.5
    }

    /// The box moved by `d`.
    #[must_use]
    pub fn translated(&self, d: Vec2) -> Aabb {
        Aabb { min: self.min + d, max: self.max + d }
    }

    /// Whether the interiors overlap (touching boxes do not).
    #[must_use]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x < other.max.x && other.min.x < self.max.x && self.min.y < other.max.y && other.min.y < self.max.y
    }

    /// Whether `p` is inside or on the border.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// The four corners, counter-clockwise from `min`.
    #[must_use]
    pub fn corners(&self) -> [Vec2; 4] {
        [self.min, Vec2::new(self.max.x, self.min.y), self.max, Vec2::new(self.min.x, self.max.y)]
    }

    /// The four edges, counter-clockwise.
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

    /// The smallest box holding both.
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb { min: self.min.min(other.min), max: self.max.max(other.max) }
    }
}

/// A capsule: all points within `radius` of the segment `a`–`b` (a stadium in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
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

    /// Whether `p` is inside or on the border.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        self.edges().all(|e| cross(e.b - e.a, p - e.a) >= 0.0)
    }

    /// The bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let mut b = Aabb { min: self.points[0], max: self.points[0] };
        for &p in &self.points[1..] {
            b.min = b.min.min(p);
            b.max = b.max.max(p);
        }
        b
    }
}
