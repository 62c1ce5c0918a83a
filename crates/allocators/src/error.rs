//! The one error type of the crate.

/// What went wrong in an allocator call.
///
/// Every misuse a caller can make through a safe method is reported with one of these; the
/// `unsafe` methods (the [`Allocator`](allocator_api2::alloc::Allocator) and
/// [`GlobalAlloc`](core::alloc::GlobalAlloc) impls) document what they leave undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No free block (or no room left in the stack) fits the request.
    #[error("out of memory: {size} bytes aligned to {align} do not fit")]
    OutOfMemory {
        /// Requested size in bytes.
        size: usize,
        /// Requested alignment in bytes.
        align: usize,
    },
    /// The size or alignment cannot be served at all (zero-sized request to a pool, a size that
    /// overflows, an alignment the allocator does not support).
    #[error("unsupported layout: {size} bytes aligned to {align}")]
    Unsupported {
        /// Requested size in bytes.
        size: usize,
        /// Requested alignment in bytes.
        align: usize,
    },
    /// The region given to a heap is too small or too large to manage.
    #[error("region of {0} bytes cannot be managed (needs 64 bytes to 4 GiB)")]
    BadRegion(usize),
    /// The pointer was not handed out by this allocator (outside its memory, or not the start of
    /// a block).
    #[error("pointer was not allocated here")]
    ForeignPointer,
    /// The block was already freed.
    #[error("block freed twice")]
    DoubleFree,
    /// The handle's slot was removed (and maybe reused) since the handle was made, or the handle
    /// comes from another array.
    #[error("stale or foreign handle")]
    StaleHandle,
    /// A stack marker that is above the current top, or from another stack.
    #[error("marker is not below the stack's top or belongs to another stack")]
    BadMarker,
    /// [`Heap::check`](crate::Heap::check) found a broken invariant (named in the message):
    /// memory outside the heap's blocks was written, or the heap has a bug.
    #[error("heap corrupted: {0}")]
    Corrupt(&'static str),
    /// A handle array holds as many slots as its handles can name.
    #[error("handle array is full ({limit} slots)")]
    Full {
        /// The most slots an array holds.
        limit: usize,
    },
    /// Two keys of a disjoint access (`get_disjoint_mut`) name the same value.
    #[error("keys {first} and {second} of a disjoint access name the same value")]
    AliasedHandles {
        /// Position of the first key naming it.
        first: usize,
        /// Position of the second key naming it.
        second: usize,
    },
    /// An in-place resize asked of a stack allocation that is not the last one.
    #[error("only the last stack allocation can be resized in place")]
    NotLast,
}

/// `Result` with the crate's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
