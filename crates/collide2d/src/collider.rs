//! The [`Shape`] trait every obstacle of a slide move implements (a disk or a box against it:
//! contact and cast), its implementations for the crate's shapes, and [`Collider`], the enum that
//! mixes them in one slice. It only dispatches to [`crate::contact`] and [`crate::cast`].

use glam::Vec2;

use crate::cast::{cast_aabb_aabb, cast_disk_aabb, cast_disk_capsule, cast_disk_polygon, cast_disk_segment};
use crate::contact::{
    Contact, closest_point_aabb, contact_aabb_aabb, contact_disk_aabb, contact_disk_capsule, contact_disk_polygon,
    contact_disk_segment,
};
use crate::report::Hit;
use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// A static obstacle a disk or a box can collide with.
pub trait Shape {
    /// Contact with a disk, if they overlap.
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact>;
    /// First touch of a disk moving by `motion`, entering hits only.
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit>;
    /// Contact with a box of half extents `half` centred at `center`, grown by `radius` (its
    /// corners rounded; `radius == 0` is the sharp box), if they overlap.
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact>;
    /// First touch of that box moving by `motion`, entering hits only.
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit>;
    /// Bounding box.
    fn bounds(&self) -> Aabb;
    /// How far the shape reaches along the unit direction `dir`: the largest `point.dot(dir)`
    /// over its points. The default is the bounding box's (exact along the axes); the crate's
    /// shapes give the exact value for any direction. The character controller uses it to tell
    /// whether a body is wholly on the open side of a one-way obstacle.
    fn support(&self, dir: Vec2) -> f32 {
        let b = self.bounds();
        let h = b.half_extents();
        b.center().dot(dir) + h.x * dir.x.abs() + h.y * dir.y.abs()
    }
}

fn ends(s: &Segment) -> [Vec2; 2] {
    [s.a, s.b]
}

/// A box against the vertices of a segment or polygon: the separating-axis contact (rounded by
/// `radius`) and the SAT sweep (sharp) or the rounded Minkowski cast.
fn points_box_cast(points: sat::Points<'_>, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
    if radius > 0.0 {
        if sat::box_contact(points, center, half, radius).is_some() {
            return None;
        }
        sat::rounded_box_cast(points, center, half, radius, motion)
    } else {
        sat::box_sweep(points, center, half, motion)
    }
}

impl Shape for Segment {
    #[inline]
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        contact_disk_segment(center, radius, self)
    }
    #[inline]
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast_disk_segment(center, radius, motion, self)
    }
    #[inline]
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        sat::box_contact(sat::Points { points: &ends(self), closed: false }, center, half, radius)
    }
    #[inline]
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        points_box_cast(sat::Points { points: &ends(self), closed: false }, center, half, radius, motion)
    }
    fn bounds(&self) -> Aabb {
        self.aabb()
    }
    fn support(&self, dir: Vec2) -> f32 {
        self.a.dot(dir).max(self.b.dot(dir))
    }
}

impl Shape for Aabb {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        contact_disk_aabb(center, radius, self)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast_disk_aabb(center, radius, motion, self)
    }
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        // A box against a box is a point against the box grown by the half extents.
        let grown = Aabb::covering(self.min() - half, self.max() + half);
        let c = if radius > 0.0 {
            contact_disk_aabb(center, radius, &grown)?
        } else {
            contact_aabb_aabb(&Aabb::covering(center - half, center + half), self)?
        };
        Some(Contact { point: closest_point_aabb(c.point, self), ..c })
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        let body = Aabb::covering(center - half, center + half);
        if radius > 0.0 {
            let grown = Aabb::covering(self.min() - half, self.max() + half);
            if contact_disk_aabb(center, radius, &grown).is_some() {
                return None;
            }
            cast_disk_aabb(center, radius, motion, &grown)
        } else {
            cast_aabb_aabb(&body, motion, self)
        }
    }
    fn bounds(&self) -> Aabb {
        *self
    }
}

impl Shape for ConvexPolygon {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        contact_disk_polygon(center, radius, self)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast_disk_polygon(center, radius, motion, self)
    }
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        sat::box_contact(sat::Points { points: self.points(), closed: true }, center, half, radius)
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        points_box_cast(sat::Points { points: self.points(), closed: true }, center, half, radius, motion)
    }
    fn bounds(&self) -> Aabb {
        self.aabb()
    }
    fn support(&self, dir: Vec2) -> f32 {
        self.points().iter().fold(f32::NEG_INFINITY, |m, p| m.max(p.dot(dir)))
    }
}

impl Shape for Capsule {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        contact_disk_capsule(center, radius, self)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast_disk_capsule(center, radius, motion, self)
    }
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        let c = self.segment.box_contact(center, half, radius + self.radius)?;
        Some(Contact { point: c.point + c.normal * self.radius, ..c })
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        self.segment.box_cast(center, half, radius + self.radius, motion)
    }
    fn bounds(&self) -> Aabb {
        let b = self.segment.aabb();
        Aabb::covering(b.min() - self.radius, b.max() + self.radius)
    }
    fn support(&self, dir: Vec2) -> f32 {
        self.segment.support(dir) + self.radius * dir.length()
    }
}

impl<S: Shape + ?Sized> Shape for &S {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        (**self).disk_contact(center, radius)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        (**self).disk_cast(center, radius, motion)
    }
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        (**self).box_contact(center, half, radius)
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        (**self).box_cast(center, half, radius, motion)
    }
    fn bounds(&self) -> Aabb {
        (**self).bounds()
    }
    fn support(&self, dir: Vec2) -> f32 {
        (**self).support(dir)
    }
}

/// Any of the crate's static shapes, for levels that mix them in one slice.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Collider {
    /// A segment (floors, walls, slopes).
    Segment(Segment),
    /// A box (tiles).
    Aabb(Aabb),
    /// A capsule.
    Capsule(Capsule),
    /// A convex polygon.
    Polygon(ConvexPolygon),
}

impl Shape for Collider {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        match self {
            Collider::Segment(s) => s.disk_contact(center, radius),
            Collider::Aabb(s) => s.disk_contact(center, radius),
            Collider::Capsule(s) => s.disk_contact(center, radius),
            Collider::Polygon(s) => s.disk_contact(center, radius),
        }
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        match self {
            Collider::Segment(s) => s.disk_cast(center, radius, motion),
            Collider::Aabb(s) => s.disk_cast(center, radius, motion),
            Collider::Capsule(s) => s.disk_cast(center, radius, motion),
            Collider::Polygon(s) => s.disk_cast(center, radius, motion),
        }
    }
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        match self {
            Collider::Segment(s) => s.box_contact(center, half, radius),
            Collider::Aabb(s) => s.box_contact(center, half, radius),
            Collider::Capsule(s) => s.box_contact(center, half, radius),
            Collider::Polygon(s) => s.box_contact(center, half, radius),
        }
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        match self {
            Collider::Segment(s) => s.box_cast(center, half, radius, motion),
            Collider::Aabb(s) => s.box_cast(center, half, radius, motion),
            Collider::Capsule(s) => s.box_cast(center, half, radius, motion),
            Collider::Polygon(s) => s.box_cast(center, half, radius, motion),
        }
    }
    fn bounds(&self) -> Aabb {
        match self {
            Collider::Segment(s) => s.bounds(),
            Collider::Aabb(s) => s.bounds(),
            Collider::Capsule(s) => s.bounds(),
            Collider::Polygon(s) => s.bounds(),
        }
    }
    fn support(&self, dir: Vec2) -> f32 {
        match self {
            Collider::Segment(s) => s.support(dir),
            Collider::Aabb(s) => s.support(dir),
            Collider::Capsule(s) => s.support(dir),
            Collider::Polygon(s) => s.support(dir),
        }
    }
}
