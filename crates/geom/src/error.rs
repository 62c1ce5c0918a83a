//! The one error type of the crate.

/// Why a box, ray or segment was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A coordinate, extent, direction or length was NaN or infinite.
    #[error("a coordinate is NaN or infinite")]
    NonFinite,
    /// A box whose `min` exceeds its `max` on some axis (or negative half extents).
    #[error("box min exceeds max")]
    Inverted,
    /// A coordinate beyond ±[`Aabb::LIMIT`](crate::Aabb::LIMIT).
    #[error("coordinate beyond the supported range of ±1e18")]
    OutOfRange,
    /// A ray with a zero direction (or one too small to invert) or a negative length.
    #[error("ray direction is zero or its length is negative")]
    BadRay,
}
