//! The one error type of the crate.

use thiserror::Error;

/// Every way an input can be rejected. New variants may be added in minor releases.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// A coordinate, motion or parameter was NaN or infinite.
    #[error("{what} is not finite")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A radius, extent or length was negative (or zero where a size is required).
    #[error("{what} must be > 0, got {value}")]
    NotPositive {
        /// Which input.
        what: &'static str,
        /// The rejected value.
        value: f32,
    },
    /// A point cloud has fewer than three points that are not collinear, so it has no area.
    #[error("the points span no area ({points} points, all collinear or coincident)")]
    Degenerate {
        /// How many points were given.
        points: usize,
    },
    /// A box, segment or ray refused by lore-geom (for example a box whose minimum exceeds
    /// its maximum).
    #[error(transparent)]
    Geom(#[from] lore_geom::Error),
    /// An option outside its range (for example a slope angle beyond 90 degrees).
    #[error("{what} is out of range: {value}")]
    OutOfRange {
        /// Which option.
        what: &'static str,
        /// The rejected value.
        value: f32,
    },
}

pub(crate) fn finite(v: glam::Vec2, what: &'static str) -> Result<(), Error> {
    if v.is_finite() { Ok(()) } else { Err(Error::NonFinite { what }) }
}

pub(crate) fn positive(x: f32, what: &'static str) -> Result<(), Error> {
    if !x.is_finite() {
        Err(Error::NonFinite { what })
    } else if x > 0.0 {
        Ok(())
    } else {
        Err(Error::NotPositive { what, value: x })
    }
}
