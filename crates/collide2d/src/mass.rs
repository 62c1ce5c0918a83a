//! Mass properties: area, centroid and moment of inertia about the centroid (per unit density).

use core::f32::consts::PI;

use glam::Vec2;

use crate::shapes::{Aabb, Capsule, ConvexPolygon, Disk};

/// Area, centroid and polar moment of inertia about the centroid, for density 1 (multiply
/// `area` and `inertia` by the density for mass and inertia).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassProperties {
    /// Area (mass at density 1).
    pub area: f32,
    /// Centroid.
    pub centroid: Vec2,
    /// Moment of inertia about the centroid, density 1.
    pub inertia: f32,
}

impl MassProperties {
    /// Disk: `I = m r^2 / 2`.
    #[must_use]
    pub fn disk(d: &Disk) -> Self {
        let area = PI * d.radius * d.radius;
        Self { area, centroid: d.center, inertia: area * d.radius * d.radius / 2.0 }
    }

    /// Box: `I = m (w^2 + h^2) / 12`.
    #[must_use]
    pub fn aabb(b: &Aabb) -> Self {
        let s = b.max() - b.min();
        let area = s.x * s.y;
        Self { area, centroid: b.center(), inertia: area * s.length_squared() / 12.0 }
    }

    /// Capsule of core length `L` and radius `r`: a `L x 2r` rectangle plus two half disks,
    /// each moved by the parallel axis theorem from its own centroid (at `4r / 3pi` from its
    /// flat side) to the capsule's centre:
    ///
    /// `I = m_rect (L^2 + 4 r^2) / 12 + m_disk (r^2 / 2 + L^2 / 4 + 4 L r / (3 pi))`
    ///
    /// with `m_rect = 2 r L` and `m_disk = pi r^2`.
    #[must_use]
    pub fn capsule(c: &Capsule) -> Self {
        let r = c.radius;
        let l = c.segment.length();
        let m_rect = 2.0 * r * l;
        let m_disk = PI * r * r;
        let inertia =
            m_rect * (l * l + 4.0 * r * r) / 12.0 + m_disk * (r * r / 2.0 + l * l / 4.0 + 4.0 * l * r / (3.0 * PI));
        Self { area: m_rect + m_disk, centroid: (c.segment.a + c.segment.b) * 0.5, inertia }
    }

    /// Convex polygon, by triangles fanned from the first vertex (exact for any simple polygon).
    #[must_use]
    pub fn polygon(p: &ConvexPolygon) -> Self {
        let pts = p.points();
        let o = pts[0];
        let mut area = 0.0;
        let mut first = Vec2::ZERO;
        let mut second = 0.0;
        for i in 1..pts.len() - 1 {
            let (a, b) = (pts[i] - o, pts[i + 1] - o);
            let cr = a.perp_dot(b);
            area += cr * 0.5;
            first += (a + b) * (cr / 6.0);
            second += cr * (a.dot(a) + a.dot(b) + b.dot(b)) / 12.0;
        }
        let c = first / area;
        // second is about o; move it to the centroid.
        Self { area, centroid: o + c, inertia: second - area * c.length_squared() }
    }
}
