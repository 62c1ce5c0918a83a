//! The two plain results every query returns: a [`Contact`] (overlap now) and a [`Hit`] (first
//! touch along a motion). They sit at the bottom so the ray, separating-axis, contact and cast
//! modules can all return them without importing one another.

use glam::Vec2;

/// A penetration between a moving body and an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// The point on the obstacle closest to the body.
    pub point: Vec2,
    /// Unit normal pointing from the obstacle toward the body: moving the body by
    /// `normal * depth` separates them.
    pub normal: Vec2,
    /// Penetration depth, `> 0`.
    pub depth: f32,
}

/// The first touch along a cast.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hit {
    /// Fraction of the motion travelled, in `[0, 1]`.
    pub t: f32,
    /// Unit normal of the obstacle at the touch, pointing against the motion.
    pub normal: Vec2,
}

/// The earlier of two optional hits (the first one on a tie).
#[inline]
pub(crate) fn earlier(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}
