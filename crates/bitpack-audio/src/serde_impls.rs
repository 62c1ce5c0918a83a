//! Serde support (feature `serde`) for [`Options`]: written as its klystron flags (`0..=3`) and
//! read back through [`Options::from_flags`], so a flag value the stream has no meaning for is
//! refused. [`Settings`](crate::Settings), [`Limits`](crate::Limits) and
//! [`Effort`](crate::Effort) derive theirs beside their definitions.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::classic::Options;

impl Serialize for Options {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.flags())
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Options::from_flags(u8::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}
