//! Serde support (feature `serde`).
//!
//! Each type is written as a plain record of its defining values and read back through its
//! checked constructor, so a file cannot hand the program a box, ray or segment the type
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
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Aabb, Ray, Segment};

#[derive(Serialize, Deserialize)]
#[serde(rename = "Aabb")]
struct AabbRecord {
    min: Vec2,
    max: Vec2,
}

impl Serialize for Aabb {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        AabbRecord { min: self.min(), max: self.max() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Aabb {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let AabbRecord { min, max } = AabbRecord::deserialize(deserializer)?;
        Aabb::new(min, max).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Ray")]
struct RayRecord {
    origin: Vec2,
    dir: Vec2,
    /// `None`: unbounded (`f32::INFINITY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_t: Option<f32>,
}

impl Serialize for Ray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A ray's `max_t` is never NaN or negative, so "not finite" means +infinity.
        let max_t = self.max_t().is_finite().then_some(self.max_t());
        RayRecord { origin: self.origin(), dir: self.dir(), max_t }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Ray {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let RayRecord { origin, dir, max_t } = RayRecord::deserialize(deserializer)?;
        Ray::new(origin, dir, max_t.unwrap_or(f32::INFINITY)).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Segment")]
struct SegmentRecord {
    a: Vec2,
    b: Vec2,
}

impl Serialize for Segment {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Segment { a, b } = *self;
        SegmentRecord { a, b }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Segment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SegmentRecord { a, b } = SegmentRecord::deserialize(deserializer)?;
        Segment::new(a, b).map_err(D::Error::custom)
    }
}
