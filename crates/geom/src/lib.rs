//! The shared 2D geometry vocabulary of lore's crates.
//!
//! One axis-aligned box ([`Aabb`]), one ray ([`Ray`]) and one segment ([`Segment`]) on glam's
//! [`Vec2`](glam::Vec2). The algorithm crates that deal in geometry (`lore-broadphase`,
//! `lore-collide2d`, `lore-pixel-collide`) take and return these types, so values flow between
//! them without conversion code, and a method name means the same thing in every crate:
//!
//! - [`Aabb::overlaps`]: the *closed* boxes share a point (touching counts);
//!   [`Aabb::interiors_overlap`]: the open interiors do (touching does not).
//! - [`Aabb::contains_point`] takes a point, [`Aabb::contains_aabb`] a box.
//! - [`Aabb::ray_entry`] / [`Aabb::ray_span`]: where a [`Ray`] enters (and leaves) a box.
//! - [`Segment::closest_point`], [`Segment::distance_squared`]: robust point–segment queries.
//!
//! ```
//! use lore_geom::{Aabb, Ray, Segment, glam::vec2};
//!
//! # fn main() -> Result<(), lore_geom::Error> {
//! let wall = Aabb::new(vec2(2.0, -1.0), vec2(3.0, 1.0))?;
//! let player = Aabb::from_center(vec2(0.0, 0.0), vec2(0.5, 0.5))?;
//! assert!(!wall.overlaps(&player));
//! assert!(wall.overlaps(&player.translated(vec2(1.6, 0.0))));
//!
//! let ray = Ray::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 10.0)?;
//! assert_eq!(wall.ray_entry(&ray), Some(2.0));
//!
//! let floor = Segment::new(vec2(-5.0, 0.0), vec2(5.0, 0.0))?;
//! assert_eq!(floor.closest_point(vec2(1.0, 3.0)), vec2(1.0, 0.0));
//! # Ok(())
//! # }
//! ```
//!
//! # Checked once, trusted everywhere
//!
//! An [`Aabb`] is checked when it is built: finite corners within ±[`Aabb::LIMIT`] and
//! `min <= max`. Its fields are private, so every box a consumer receives satisfies this and
//! is never checked again (a spatial index builds thousands per frame). Where a box is derived
//! from data that may be out of range, [`Aabb::covering`] is the infallible constructor: it
//! clamps into range instead of failing. A [`Segment`] is plain data with public ends;
//! [`Segment::new`] checks them.
//!
//! # Conventions
//!
//! World space is y-up; `min` is the lower-left corner. Boxes are closed sets. Ray parameters
//! `t` are in units of the ray's direction.
//!
//! # Feature flags
//!
//! - `std` (default): std support for glam and the error type.
//! - `libm`: the math backend for `no_std` + `alloc` builds
//!   (`default-features = false, features = ["libm"]`).
//! - `serde`: `Serialize` / `Deserialize` for [`Aabb`], [`Ray`] and [`Segment`], `no_std`
//!   too. Reading a value goes through its checked constructor, so an inverted or non-finite
//!   box in a file is a deserialisation error, never a box that breaks the invariant.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

extern crate alloc;

mod aabb;
mod error;
mod ray;
mod segment;
#[cfg(feature = "serde")]
mod serde_impls;

pub use aabb::Aabb;
pub use error::Error;
pub use glam;
pub use ray::Ray;
pub use segment::Segment;

/// The README's example, compiled and run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
