//! Collision response: where a moving body ends.
//!
//! - the slide moves of a disk or a box among any [`Shape`](crate::Shape)s, discrete
//!   ([`slide_disk`], [`slide_aabb`]: move, then push out deepest-first) and swept
//!   ([`slide_disk_swept`], [`slide_aabb_swept`]: stop at the first touch and slide);
//! - box-among-boxes resolution after seed 003 ([`resolve_aabb`], [`resolve_bodies`]);
//! - a character controller on the swept disk move ([`CharacterController`]).
//!
//! Inside, `aabb` and `slide` use only the query modules below them; `character` builds on
//! `slide`.

mod aabb;
mod character;
mod slide;

pub use aabb::{AabbMode, AabbResolution, Body, resolve_aabb, resolve_bodies};
pub use character::{
    CharacterController, CharacterMove, CharacterShape, Floor, FloorMode, INLINE_OBSTACLES, MAX_TOUCHES, Obstacle,
    ObstacleInfo, ObstacleSource, Touch,
};
pub use slide::{
    Order, SlideOptions, SlideOutcome, contacts_aabb, contacts_disk, deepest_contact_aabb, deepest_contact_disk,
    slide_aabb, slide_aabb_swept, slide_disk, slide_disk_swept,
};
#[allow(deprecated)]
pub use slide::{contacts_box, deepest_contact_box, slide_box, slide_box_swept};
