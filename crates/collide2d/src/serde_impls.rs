//! Serde support (feature `serde`) for the shapes with checked constructors.
//!
//! [`Disk`], [`Capsule`] and [`ConvexPolygon`] are written as plain records and read back
//! through [`Disk::new`], [`Capsule::new`] and [`ConvexPolygon::hull`]
//! (`#[serde(into = …, try_from = …)]` on the type, with the record and the two conversions
//! here), so a level file cannot
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
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::shapes::{Capsule, ConvexPolygon, Disk, Segment};

#[derive(Serialize, Deserialize)]
#[serde(rename = "Disk")]
pub(crate) struct DiskRecord {
    center: Vec2,
    radius: f32,
}

impl From<Disk> for DiskRecord {
    fn from(Disk { center, radius }: Disk) -> Self {
        DiskRecord { center, radius }
    }
}

impl TryFrom<DiskRecord> for Disk {
    type Error = Error;
    fn try_from(r: DiskRecord) -> Result<Self, Error> {
        Disk::new(r.center, r.radius)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Capsule")]
pub(crate) struct CapsuleRecord {
    /// Its ends are checked by lore-geom's `Segment` as it is read.
    segment: Segment,
    radius: f32,
}

impl From<Capsule> for CapsuleRecord {
    fn from(Capsule { segment, radius }: Capsule) -> Self {
        CapsuleRecord { segment, radius }
    }
}

impl TryFrom<CapsuleRecord> for Capsule {
    type Error = Error;
    fn try_from(r: CapsuleRecord) -> Result<Self, Error> {
        Capsule::new(r.segment.a, r.segment.b, r.radius)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "ConvexPolygon")]
pub(crate) struct PolygonRecord {
    points: Vec<Vec2>,
}

impl From<ConvexPolygon> for PolygonRecord {
    fn from(p: ConvexPolygon) -> Self {
        PolygonRecord { points: p.points().to_vec() }
    }
}

impl TryFrom<PolygonRecord> for ConvexPolygon {
    type Error = Error;
    fn try_from(r: PolygonRecord) -> Result<Self, Error> {
        ConvexPolygon::hull(&r.points)
    }
}
