//! The one error type of the crate.

use crate::id::ProxyId;

/// Everything a caller can get wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A box, ray or point was refused by [`lore_geom`] (NaN or infinite coordinates,
    /// coordinates beyond ±[`Aabb::LIMIT`](crate::Aabb::LIMIT), an inverted box, a zero ray
    /// direction or a negative ray length); the inner error says which.
    #[error("bad geometry: {0}")]
    Geom(#[from] lore_geom::Error),
    /// A setting (cell size, tree margin or reinsert share) was NaN or infinite.
    #[error("a setting is NaN or infinite")]
    NonFinite,
    /// The id was never issued by this index, or its proxy has been removed.
    #[error("stale or unknown proxy id {0:?}")]
    StaleId(ProxyId),
    /// A cell size, margin, grid size or table size that cannot work (zero, negative, too many
    /// cells), or slices given together that differ in length; the text names the parameter.
    #[error("bad configuration: {0}")]
    BadConfig(&'static str),
    /// A query argument that cannot work (a NaN or negative distance bound, a motion that is
    /// not finite); the text names it.
    #[error("bad query: {0}")]
    BadQuery(&'static str),
    /// More than `u32::MAX - 1` live proxies.
    #[error("too many proxies")]
    Full,
}
