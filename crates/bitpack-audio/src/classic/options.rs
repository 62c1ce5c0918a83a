//! The classic options (delta, Gray) and the packed block.

use alloc::vec::Vec;

use crate::Error;

/// Which steps run before the bit planes: delta (`1`) and Gray (`2`), as klystron's flags.
///
/// With the `serde` feature it is written as its flags (`0..=3`) and read back through
/// [`Options::from_flags`], so a flag value the stream has no meaning for is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(into = "u8", try_from = "u8"))]
pub struct Options(u8);

impl From<Options> for u8 {
    /// [`Options::flags`].
    fn from(o: Options) -> u8 {
        o.flags()
    }
}

impl TryFrom<u8> for Options {
    type Error = Error;
    /// [`Options::from_flags`].
    fn try_from(flags: u8) -> Result<Self, Error> {
        Options::from_flags(flags)
    }
}

impl Options {
    /// Option 0: the samples' bits as they are.
    pub const RAW: Options = Options(0);
    /// Option 1: delta coding only.
    pub const DELTA: Options = Options(1);
    /// Option 2: Gray coding only.
    pub const GRAY: Options = Options(2);
    /// Option 3: delta then Gray, what the post's code always does.
    pub const DELTA_GRAY: Options = Options(3);
    /// The four options in klystron's `bitpack_best` order.
    pub const ALL: [Options; 4] = [Options(0), Options(1), Options(2), Options(3)];

    /// Options from klystron's flags (`BITPACK_OPT_DELTA = 1`, `BITPACK_OPT_GRAY = 2`).
    pub fn from_flags(flags: u8) -> Result<Self, Error> {
        if flags > 3 { Err(Error::BadOption(flags)) } else { Ok(Options(flags)) }
    }

    /// The flags (0..=3).
    pub fn flags(self) -> u8 {
        self.0
    }

    /// Whether delta coding runs.
    pub fn delta(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether Gray coding runs.
    pub fn gray(self) -> bool {
        self.0 & 2 != 0
    }
}

/// A packed block: the bytes and the exact length in bits.
///
/// Bits past `bits` in the last byte are zero (the original leaves them undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// `ceil(bits / 8)` bytes.
    pub bytes: Vec<u8>,
    /// Length of the stream in bits (the reference's `packed_size`).
    pub bits: u64,
}

/// The largest block the reference's `int n` can describe.
pub const MAX_SAMPLES: usize = i32::MAX as usize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_flags() {
        assert_eq!(Options::from_flags(4), Err(Error::BadOption(4)));
    }
}
