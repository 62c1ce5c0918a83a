//! Serde support (feature `serde`) for the types with checked constructors.
//!
//! [`Sprite`] is written as `{ width, height, alpha, threshold }` (one alpha byte per texel,
//! row-major, top row first) and read back through [`Sprite::from_alpha`]; [`PixelSpace`] as
//! `{ pixels_per_unit }` through [`PixelSpace::new`]. A size, length or threshold the
//! constructors refuse is a deserialisation error with their message. `PixelSpace` derives
//! its serde through the record here (`#[serde(into, try_from)]`); `Sprite`'s is written by
//! hand because it serialises its alpha bytes borrowed, where `into` would copy them. [`PixelRect`] and
//! [`Pose`](crate::Pose) derive theirs beside their definitions. A [`Mask`](crate::Mask) is not
//! serialised: rasterize it again from the sprite and pose.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Error, PixelSpace, Sprite};

#[derive(Serialize)]
#[serde(rename = "Sprite")]
struct SpriteRef<'a> {
    width: u32,
    height: u32,
    alpha: &'a [u8],
    threshold: u8,
}

#[derive(Deserialize)]
#[serde(rename = "Sprite")]
struct SpriteRecord {
    width: u32,
    height: u32,
    alpha: Vec<u8>,
    threshold: u8,
}

impl Serialize for Sprite {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SpriteRef { width: self.width(), height: self.height(), alpha: self.alpha(), threshold: self.threshold() }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Sprite {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SpriteRecord { width, height, alpha, threshold } = SpriteRecord::deserialize(deserializer)?;
        Sprite::from_alpha(width, height, alpha, threshold).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "PixelSpace")]
pub(crate) struct SpaceRecord {
    pixels_per_unit: f32,
}

impl From<PixelSpace> for SpaceRecord {
    fn from(space: PixelSpace) -> Self {
        SpaceRecord { pixels_per_unit: space.pixels_per_unit() }
    }
}

impl TryFrom<SpaceRecord> for PixelSpace {
    type Error = Error;
    fn try_from(r: SpaceRecord) -> Result<Self, Error> {
        PixelSpace::new(r.pixels_per_unit)
    }
}
