//! # lore-collide2d
//!
//! Move disks and boxes through 2D level geometry smoothly: no snagging on the seams of loose
//! segments or tiles, no tunnelling through thin walls, and no adjacency data to maintain.
//!
//! The modules follow the operations, as in parry2d and Box2D, and stack from the bottom up
//! (a module uses only modules above it in this list, never one below):
//!
//! - [`error`]; [`geometry`]: closest points, distances that are never negative and never NaN,
//!   robust parallel and collinear tests, on plain vectors.
//! - [`shapes`]: [`Segment`], [`Disk`], [`Aabb`], [`Capsule`], [`ConvexPolygon`] (built from
//!   any point cloud by a convex hull). [`mass`] (area, centroid, inertia) and [`motion`]
//!   (framerate-independent smoothing) sit beside the query modules.
//! - [`ray`]: a point moving along a motion against every shape ([`Hit`]).
//! - [`contact`]: disk and box contacts against every shape, depth and normal ([`Contact`];
//!   separating axes for the box).
//! - [`cast`]: a moving disk or box against every shape (time of impact).
//! - [`collider`]: the [`Shape`] trait the slide moves take and the [`Collider`] enum.
//! - [`resolve`]: the slide moves. [`slide_disk`] moves then resolves the deepest penetration
//!   first (seed 000); [`slide_disk_swept`] stops at the first touch and slides, so fast disks
//!   never tunnel. [`slide_aabb`] and [`slide_aabb_swept`] do the same for a box, whose corners
//!   are rounded by [`SlideOptions::rounding`] so it rides over the ends of loose pieces. Box
//!   resolution that only opposes the movement (seed 003), and a character controller.
//!
//! Function names follow one pattern, `[op]_[mover]_[obstacle]`: `contact_disk_segment`,
//! `cast_aabb_capsule`, `ray_polygon` (the mover of a ray is a point), `slide_aabb_swept`.
//!
//! Domain: world coordinates with `|x|, |y| <= 1e4`, radii or half extents from 0.01 to 100, and
//! steps of at least 2 spacings of the coordinates' `f32` values (2e-3 at 8200). Tolerances scale
//! with that spacing. Beyond the domain results stay NaN-free for finite input but lose
//! precision. The guide, docs/collide2d.md, states the guarantees and the numbers behind them.
//!
//! # Feature flags
//!
//! - `std` (default): std support for glam and the error type.
//! - `libm`: the math backend for `no_std` + `alloc` builds
//!   (`default-features = false, features = ["libm"]`).
//! - `serde`: `Serialize` / `Deserialize` for the shapes, [`Collider`], the options and the
//!   reports, `no_std` too. Shapes are read through their checked constructors, so a level file
//!   with a negative radius or a polygon with no area is an error when it is read.
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
//!     let out = lore_collide2d::slide_aabb_swept(&b, vec2(0.25, -0.025), &floor, &SlideOptions::default())?;
//!     b = b.translated(out.position - b.center());
//! }
//! assert!((b.min().x - 25.0).abs() < 1e-3);
//! assert!(b.min().y.abs() < 1e-3);
//! # Ok(())
//! # }
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

pub mod cast;
pub mod collider;
pub mod contact;
pub mod error;
pub mod geometry;
pub mod mass;
mod math;
pub mod motion;
pub mod ray;
mod report;
pub mod resolve;
mod sat;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod shapes;
pub mod tiles;

/// The vector type of every API (glam 0.33, the glam of bevy 0.20 and rapier2d 0.36), re-exported.
pub use glam;
/// The shared geometry vocabulary (box, segment, ray), re-exported.
pub use lore_geom as geom;

pub use collider::{Collider, Shape};
pub use error::Error;
pub use mass::MassProperties;
pub use report::{Contact, Hit};
pub use resolve::{
    AabbMode, AabbResolution, Body, CharacterController, CharacterMove, CharacterShape, Floor, FloorMode, Obstacle,
    ObstacleInfo, ObstacleSource, Order, SlideOptions, SlideOutcome, Touch, resolve_aabb, resolve_bodies, slide_aabb,
    slide_aabb_swept, slide_disk, slide_disk_swept,
};
/// The box moves' names before 0.2 (`slide_box` is [`slide_aabb`]), kept for one release.
#[allow(deprecated)]
pub use resolve::{slide_box, slide_box_swept};
pub use shapes::{Aabb, Capsule, ConvexPolygon, Disk, Ray, Segment};
pub use tiles::tile_outline;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/collide2d.md")]
struct GuideDoctests;

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
