//! Proxy ids: the handle an index gives back for each box it holds.
//!
//! All indexes allocate ids the same way (lowest-cost: the most recently freed slot first, a new
//! slot otherwise), so the same sequence of inserts and removals gives the same ids in every
//! index. That is what lets the tests compare any index with [`BruteForce`](crate::BruteForce)
//! answer for answer.

/// A handle to one box in one index: a slot index plus the slot's generation.
///
/// A removed proxy's id goes stale: every method given it returns `None` or
/// [`Error::StaleId`](crate::Error::StaleId), even after its slot is reused by a later insert (which gets a new
/// generation). Ids order by slot index first, so among live proxies the order is the slot order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The id of slot `index` at generation `generation`.
    #[inline]
    pub(crate) const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index: dense from 0, reused after removal. Handy as an index into a side table.
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this id was issued.
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// Packs the id into a `u64` (generation high, index low).
    #[must_use]
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// The id packed by [`ProxyId::to_bits`]. An id made up this way is just stale if no index
    /// issued it.
    #[must_use]
    pub fn from_bits(bits: u64) -> Self {
        Self { index: bits as u32, generation: (bits >> 32) as u32 }
    }
}

impl core::fmt::Debug for ProxyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}
