//! Serde support (feature `serde`) for [`Handle`]: the record `{ index, generation }`
//! (`#[serde(into, try_from)]` on the type), read back only with a generation an array can
//! have issued (odd), as [`Handle::from_bits`] checks.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Handle;

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename = "Handle")]
pub(crate) struct HandleRecord {
    index: u32,
    generation: u32,
}

impl From<Handle> for HandleRecord {
    fn from(h: Handle) -> Self {
        HandleRecord { index: h.index(), generation: h.generation() }
    }
}

/// A record naming a generation no array issues.
#[derive(Debug)]
pub(crate) struct EvenGeneration(HandleRecord);

impl fmt::Display for EvenGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let HandleRecord { index, generation } = self.0;
        write!(f, "handle {index}v{generation}: no array issues an even generation (live slots have odd ones)")
    }
}

impl TryFrom<HandleRecord> for Handle {
    type Error = EvenGeneration;
    fn try_from(r: HandleRecord) -> Result<Self, EvenGeneration> {
        Handle::from_bits(u64::from(r.generation) << 32 | u64::from(r.index)).ok_or(EvenGeneration(r))
    }
}
