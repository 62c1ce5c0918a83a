//! The fit policies: how a heap picks a free block for a request.

/// How the heap picks a free block for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// The first block in the free list that fits (the list is LIFO: recently freed first).
    FirstFit,
    /// Like first fit, but each search starts where the previous one stopped.
    NextFit,
    /// The smallest block that fits (scans the whole list unless an exact fit turns up).
    BestFit,
    /// Segregated size classes (8 per power of two) with a bitmap: O(1) search for a block at
    /// least as large as the request rounded up to its class. The default: its cost does not
    /// grow with the number of free blocks, unlike the three list policies (first fit can still
    /// win while the free list is short; see docs/allocators.md).
    #[default]
    GoodFit,
}

impl Policy {
    /// All policies, in the order of the docs.
    pub const ALL: [Policy; 4] = [Policy::FirstFit, Policy::NextFit, Policy::BestFit, Policy::GoodFit];

    /// Short lowercase name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Policy::FirstFit => "first fit",
            Policy::NextFit => "next fit",
            Policy::BestFit => "best fit",
            Policy::GoodFit => "good fit",
        }
    }
}
