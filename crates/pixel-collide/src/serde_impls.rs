//! Serde support (feature `serde`) for the types with checked constructors.
//!
//! [`Sprite`] is written as `{ width, height, alpha, threshold }` (one alpha byte per texel,
//! row-major, top row first) and read back through [`Sprite::from_alpha`]; [`PixelSpace`] as
//! `{ pixels_per_unit }` through [`PixelSpace::new`]. A size, length or threshold the
//! constructors refuse is a deserialisation error with their message. [`PixelRect`] and
//! [`Pose`](crate::Pose) derive theirs beside their definitions. A [`Mask`](crate::Mask) is not
//! serialised: rasterize it again from the sprite and pose.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{PixelSpace, Sprite};

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
struct SpaceRecord {
    pixels_per_unit: f32,
}

impl Serialize for PixelSpace {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SpaceRecord { pixels_per_unit: self.pixels_per_unit() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PixelSpace {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SpaceRecord { pixels_per_unit } = SpaceRecord::deserialize(deserializer)?;
        PixelSpace::new(pixels_per_unit).map_err(D::Error::custom)
    }
}
