//! The crate's error type.

/// Everything a caller can get wrong, and what the GPU can refuse.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A sprite side is zero or above [`MAX_SPRITE_SIDE`](crate::MAX_SPRITE_SIDE).
    #[error("sprite size {width}x{height} is invalid (each side must be 1..={max})")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// The largest side accepted.
        max: u32,
    },
    /// The pixel buffer does not hold the expected number of bytes.
    #[error("sprite data has {got} bytes, expected {expected}")]
    BadLength {
        /// Bytes given.
        got: usize,
        /// Bytes needed.
        expected: usize,
    },
    /// The alpha threshold is 0, which would make fully transparent texels solid.
    #[error("alpha threshold must be 1..=255 (0 would make transparent texels solid)")]
    ZeroThreshold,
    /// A pose holds a NaN or infinite number, a scale too small or too large, or a position too
    /// far out for the fixed-point arithmetic.
    #[error("invalid pose: {0}")]
    BadPose(&'static str),
    /// An id given to a [`QueryBatch`](crate::QueryBatch) does not belong to it.
    #[error("unknown {kind} id {id} in this batch")]
    UnknownId {
        /// "sprite", "object" or "group".
        kind: &'static str,
        /// The id.
        id: usize,
    },
    /// A [`PixelSpace`](crate::PixelSpace) scale that is not finite or out of
    /// [`PIXELS_PER_UNIT_RANGE`](crate::PIXELS_PER_UNIT_RANGE).
    #[error("pixels per world unit must be finite and within 1/1024..=65536, not {0}")]
    BadPixelsPerUnit(f32),
    /// A disk radius (in texels) that is negative, not finite, or too large for
    /// [`MAX_SPRITE_SIDE`](crate::MAX_SPRITE_SIDE).
    #[error("disk radius must be finite and within 0..=2048 texels, not {0}")]
    BadRadius(f32),
    /// A [`Mask::new`](crate::Mask::new) whose far edge does not fit in an `i32`, or with more
    /// than [`MAX_MASK_PIXELS`](crate::MAX_MASK_PIXELS) pixels.
    #[error(
        "mask of {width}x{height} pixels at ({x}, {y}) is invalid (its far edge must fit in an i32 and it may hold at most 2^32 pixels)"
    )]
    BadMaskSize {
        /// Requested left column.
        x: i32,
        /// Requested top row.
        y: i32,
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The device could not map the results buffer.
    #[error("reading the query results back failed: {0}")]
    ReadBack(String),
}
