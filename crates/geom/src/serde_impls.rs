//! Serde support (feature `serde`).
//!
//! Each type is written as a plain record of its defining values and read back through its
//! checked constructor (`#[serde(into = …, try_from = …)]` on the type, with the record and
//! the two conversions here), so a file cannot hand the program a box, ray or segment the type
//! forbids: an inverted or non-finite box, a zero-direction ray, a segment with a NaN end is
//! a deserialisation error carrying the constructor's [`Error`](crate::Error) message.
//!
//! | type | record | checked by |
//! | --- | --- | --- |
//! | [`Aabb`] | `{ min, max }` | [`Aabb::new`] |
//! | [`Ray`] | `{ origin, dir, max_t }`, `max_t` left out when infinite | [`Ray::new`] |
//! | [`Segment`] | `{ a, b }` | [`Segment::new`] |
//!
//! Vectors are glam's serde form, `[x, y]`. An infinite `max_t` is written by leaving the
//! field out (formats such as JSON have no infinity), and a missing or `null` `max_t` reads
//! back as infinite.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::{Aabb, Error, Ray, Segment};

#[derive(Serialize, Deserialize)]
#[serde(rename = "Aabb")]
pub(crate) struct AabbRecord {
    min: Vec2,
    max: Vec2,
}

impl From<Aabb> for AabbRecord {
    fn from(b: Aabb) -> Self {
        AabbRecord { min: b.min(), max: b.max() }
    }
}

impl TryFrom<AabbRecord> for Aabb {
    type Error = Error;
    fn try_from(r: AabbRecord) -> Result<Self, Error> {
        Aabb::new(r.min, r.max)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Ray")]
pub(crate) struct RayRecord {
    origin: Vec2,
    dir: Vec2,
    /// `None`: unbounded (`f32::INFINITY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_t: Option<f32>,
}

impl From<Ray> for RayRecord {
    fn from(r: Ray) -> Self {
        // A ray's `max_t` is never NaN or negative, so "not finite" means +infinity.
        let max_t = r.max_t().is_finite().then_some(r.max_t());
        RayRecord { origin: r.origin(), dir: r.dir(), max_t }
    }
}

impl TryFrom<RayRecord> for Ray {
    type Error = Error;
    fn try_from(r: RayRecord) -> Result<Self, Error> {
        Ray::new(r.origin, r.dir, r.max_t.unwrap_or(f32::INFINITY))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Segment")]
pub(crate) struct SegmentRecord {
    a: Vec2,
    b: Vec2,
}

impl From<Segment> for SegmentRecord {
    fn from(Segment { a, b }: Segment) -> Self {
        SegmentRecord { a, b }
    }
}

impl TryFrom<SegmentRecord> for Segment {
    type Error = Error;
    fn try_from(r: SegmentRecord) -> Result<Self, Error> {
        Segment::new(r.a, r.b)
    }
}
