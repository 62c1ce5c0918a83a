//! # lore-collide2d
//!
//! Move disks and boxes through 2D level geometry smoothly: no snagging on the seams of loose
//! segments or tiles, no tunnelling through thin walls, and no adjacency data to maintain.
//!
//! - [`shapes`]: [`Segment`], [`Disk`], [`Aabb`], [`Capsule`], [`ConvexPolygon`] (built from
//!   any point cloud by a convex hull).
//! - [`query`]: closest points and distances that are never negative and never NaN, robust
//!   parallel and collinear tests, disk and box contacts against every shape (depth and
//!   normal; separating axes for the box).
//! - [`cast`]: ray and shape casts (time of impact), moving disks and boxes included.
//! - [`slide`]: the slide moves. [`slide_disk`] moves then resolves the deepest penetration
//!   first (seed 000); [`slide_disk_swept`] stops at the first touch and slides, so fast disks
//!   never tunnel. [`slide_box`] and [`slide_box_swept`] do the same for a box, whose corners
//!   are rounded by [`SlideOptions::rounding`] so it rides over the ends of loose pieces.
//! - [`aabb`]: box resolution that only opposes the movement, necessary corrections first
//!   (seed 003), a teleport mode and priorities.
//! - [`character`]: slopes, ground detection, step-up.
//! - [`mass`]: area, centroid, moment of inertia; [`motion`]: framerate-independent smoothing.
//!
//! Domain: world coordinates with `|x|, |y| <= 1e4` and radii or half extents from 0.01 to 100.
//! Beyond that results stay NaN-free for finite input but lose precision.
//!
//! ```
//! use glam::vec2;
//! use lore_collide2d::{Segment, SlideOptions, slide_disk_swept};
//!
//! # fn main() -> Result<(), lore_collide2d::Error> {
//! // A floor cut into 100 loose pieces, no adjacency information.
//! let floor: Vec<Segment> =
//!     (0..100).map(|i| Segment::new(vec2(i as f32, 0.0), vec2(i as f32 + 1.0, 0.0))).collect::<Result<_, _>>()?;
//! let mut p = vec2(0.5, 0.5);
//! for _ in 0..100 {
//!     // Move right while pressing down: the disk slides over every seam.
//!     p = slide_disk_swept(p, 0.5, vec2(0.25, -0.025), &floor, &SlideOptions::default())?.position;
//! }
//! assert!((p.x - 25.5).abs() < 1e-3);
//! assert!((p.y - 0.5).abs() < 1e-3);
//!
//! // A box on the same floor.
//! let mut b = lore_collide2d::Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0))?;
//! for _ in 0..100 {
//!     let out = lore_collide2d::slide_box_swept(&b, vec2(0.25, -0.025), &floor, &SlideOptions::default())?;
//!     b = b.translated(out.position - b.center());
//! }
//! assert!((b.min.x - 25.0).abs() < 1e-3);
//! assert!(b.min.y.abs() < 1e-3);
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod aabb;
pub mod cast;
pub mod character;
pub mod error;
pub mod mass;
pub mod motion;
pub mod query;
mod sat;
pub mod shapes;
pub mod slide;

/// The vector type of every API (glam 0.34), re-exported.
pub use glam;

pub use aabb::{AabbMode, AabbResolution, Body, resolve_aabb, resolve_bodies};
pub use cast::Hit;
pub use character::{CharacterController, CharacterMove};
pub use error::Error;
pub use mass::MassProperties;
pub use query::Contact;
pub use shapes::{Aabb, Capsule, ConvexPolygon, Disk, Segment};
pub use slide::{
    Collider, Order, Shape, SlideOptions, SlideOutcome, slide_box, slide_box_swept, slide_disk, slide_disk_swept,
};
