//! Serde support (feature `serde`) for the shapes with checked constructors.
//!
//! [`Disk`], [`Capsule`] and [`ConvexPolygon`] are written as plain records and read back
//! through [`Disk::new`], [`Capsule::new`] and [`ConvexPolygon::hull`], so a level file cannot
//! hold a disk with a negative radius or a polygon with no area: reading it is an error with the
//! constructor's message. The segment, box and ray are lore-geom's (checked the same way there);
//! the reports and options derive their serde impls beside their definitions. Options
//! ([`SlideOptions`](crate::SlideOptions), [`CharacterController`](crate::CharacterController))
//! are plain records, checked by every move that takes them, as when they are built in code.
//!
//! | type | record |
//! | --- | --- |
//! | [`Disk`] | `{ center, radius }` |
//! | [`Capsule`] | `{ segment: { a, b }, radius }` |
//! | [`ConvexPolygon`] | `{ points: [...] }`, counter-clockwise |
//!
//! A polygon is read as the convex hull of its points, so the vertices of any convex polygon
//! are accepted in any order, and a polygon written by this crate reads back equal.

use alloc::vec::Vec;

use glam::Vec2;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::shapes::{Capsule, ConvexPolygon, Disk, Segment};

#[derive(Serialize, Deserialize)]
#[serde(rename = "Disk")]
struct DiskRecord {
    center: Vec2,
    radius: f32,
}

impl Serialize for Disk {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Disk { center, radius } = *self;
        DiskRecord { center, radius }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Disk {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let DiskRecord { center, radius } = DiskRecord::deserialize(deserializer)?;
        Disk::new(center, radius).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Capsule")]
struct CapsuleRecord {
    segment: Segment,
    radius: f32,
}

impl Serialize for Capsule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Capsule { segment, radius } = *self;
        CapsuleRecord { segment, radius }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Capsule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The segment's ends are checked by lore-geom's `Segment` as it is read.
        let CapsuleRecord { segment, radius } = CapsuleRecord::deserialize(deserializer)?;
        Capsule::new(segment.a, segment.b, radius).map_err(D::Error::custom)
    }
}

#[derive(Serialize)]
#[serde(rename = "ConvexPolygon")]
struct PolygonRef<'a> {
    points: &'a [Vec2],
}

#[derive(Deserialize)]
#[serde(rename = "ConvexPolygon")]
struct PolygonRecord {
    points: Vec<Vec2>,
}

impl Serialize for ConvexPolygon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PolygonRef { points: self.points() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ConvexPolygon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let PolygonRecord { points } = PolygonRecord::deserialize(deserializer)?;
        ConvexPolygon::hull(&points).map_err(D::Error::custom)
    }
}
