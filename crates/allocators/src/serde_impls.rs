//! Serde support (feature `serde`) for [`Handle`]: the record `{ index, generation }`, read back
//! only with a generation an array can have issued (odd), as [`Handle::from_bits`] checks.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Handle;

#[derive(Serialize, Deserialize)]
#[serde(rename = "Handle")]
struct HandleRecord {
    index: u32,
    generation: u32,
}

impl Serialize for Handle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        HandleRecord { index: self.index(), generation: self.generation() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Handle {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let HandleRecord { index, generation } = HandleRecord::deserialize(deserializer)?;
        Handle::from_bits(u64::from(generation) << 32 | u64::from(index)).ok_or_else(|| {
            D::Error::custom(format_args!(
                "handle {index}v{generation}: no array issues an even generation (live slots have odd ones)"
            ))
        })
    }
}
