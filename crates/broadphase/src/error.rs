//! The one error type of the crate.

use crate::id::ProxyId;

/// Everything a caller can get wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A coordinate, extent, direction or length was NaN or infinite.
    #[error("a coordinate is NaN or infinite")]
    NonFinite,
    /// A box whose `min` exceeds its `max` on some axis.
    #[error("box min exceeds max")]
    Inverted,
    /// A coordinate beyond ±[`Aabb::LIMIT`](crate::Aabb::LIMIT).
    #[error("coordinate beyond the supported range of ±1e18")]
    OutOfRange,
    /// The id was never issued by this index, or its proxy has been removed.
    #[error("stale or unknown proxy id {0:?}")]
    StaleId(ProxyId),
    /// A ray with a zero direction or a negative length.
    #[error("ray direction is zero or its length is negative")]
    BadRay,
    /// A cell size, margin, grid size or table size that cannot work (zero, negative, too many
    /// cells); the text names the parameter.
    #[error("bad configuration: {0}")]
    BadConfig(&'static str),
    /// More than `u32::MAX - 1` live proxies.
    #[error("too many proxies")]
    Full,
}
