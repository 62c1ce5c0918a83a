//! Pixel-perfect collision for 2D sprites, on the GPU with one instanced draw per batch and on
//! the CPU with word-parallel bitmasks, both giving the same answers.
//!
//! # The method
//!
//! A [`Sprite`] is an alpha channel and a threshold: texels with alpha `>= threshold` are
//! solid. A [`Pose`] (sub-pixel position, rotation, scale) places it in *collision space*, a
//! y-down pixel grid. A pose becomes a [`Placement`]: pixel bounds plus a 16.16 fixed-point map
//! from each pixel's centre back to a texel. The CPU twin ([`Mask`]) and the GPU fragment
//! shader evaluate that same integer map, so they agree on every pixel by construction rather
//! than by trusting a driver's rasterization rules.
//!
//! On the GPU ([`GpuCollider`]), a [`QueryBatch`] holds objects, groups and queries. Each query
//! becomes one quad per candidate member (a group, e.g. every enemy, gives one per member whose
//! rectangle meets the object's), drawn over the pixels where the two sprites' *footprints* meet
//! (convex hulls of their solid texels, posed, with a quarter pixel to spare); each fragment
//! evaluates both sprites' coverage and, where both cover its pixel, sets the query's answer word
//! in a storage buffer. Pairs whose footprints do not meet never reach the GPU. All quads of a
//! batch are one instanced draw in one render pass, one submission and one read-back
//! ([`BatchStats`] counts them), so a batch costs the pixels it covers, not commands per pair;
//! wait for it the same frame or pick it up the next ([`Pending::try_take`]). The contract is
//! `overlaps: bool`; exact pixel counts come from a compute pass ([`QueryBatch::area`]), which
//! also answers queries with a triangle mesh in them, and every query on wgpu's GL backend (no
//! writable storage in fragment shaders).
//!
//! Triangle meshes ([`Mesh`], [`QueryBatch::add_mesh`]) take part in every query. Their
//! vertices are snapped to 1/16 pixel; the CPU twin ([`MeshPlacement::rasterize`]) covers pixel
//! centres inside a triangle with exact integer edge functions and the top-left rule for
//! centres on an edge, and the GPU's compute pass evaluates that same rule with the same
//! integers, so they agree on every pixel.
//!
//! [`shapes`] turns a mask into greedy rectangles or outline loops for a broadphase or a
//! polygon collider.
//!
//! # Example (CPU twin)
//!
//! ```
//! use lore_pixel_collide::{Mask, Pose, Sprite, glam::Vec2};
//!
//! // A 16×16 ring: solid between radius 5 and 8.
//! let ring = Sprite::from_fn(16, 16, |x, y| {
//!     let d = Vec2::new(x as f32 - 7.5, y as f32 - 7.5).length();
//!     (5.0..8.0).contains(&d)
//! })?;
//! let dot = Sprite::from_fn(2, 2, |_, _| true)?;
//! let ring_mask = Mask::rasterize(&ring, Pose::at(Vec2::new(50.0, 50.0)))?;
//! // A dot in the hole does not touch the ring; on the rim it does.
//! let inside = Mask::rasterize(&dot, Pose::at(Vec2::new(50.0, 50.0)))?;
//! let on_rim = Mask::rasterize(&dot, Pose::at(Vec2::new(56.5, 50.0)).rotated(0.3))?;
//! assert!(!ring_mask.overlaps(&inside));
//! assert!(ring_mask.overlaps(&on_rim));
//! assert!(ring_mask.overlap_area(&on_rim) > 0);
//! # Ok::<(), lore_pixel_collide::Error>(())
//! ```
//!
//! The GPU path ([`GpuCollider`], feature `gpu`) takes the caller's `wgpu::Device` and
//! `wgpu::Queue`; its documentation shows a batch with a group query and an exact area.
//!
//! # Feature flags
//!
//! - `gpu` (default): the GPU path, [`GpuCollider`] and [`QueryBatch`], and the wgpu
//!   dependency. Without it (`default-features = false`) the crate is the CPU twin alone and
//!   does not build wgpu.
//! - `serde`: `Serialize` / `Deserialize` for [`Sprite`], [`Pose`], [`PixelRect`] and
//!   [`PixelSpace`]; sprites and spaces are read through their checked constructors.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// The crate docs name the GPU items; without the `gpu` feature those links have no target.
#![cfg_attr(not(feature = "gpu"), allow(rustdoc::broken_intra_doc_links))]

mod disks;
mod error;
#[cfg(feature = "gpu")]
mod gpu;
mod mask;
mod mesh;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod shapes;
mod sprite;
mod world;

#[cfg(feature = "gpu")]
pub use disks::GpuDiskPairs;
pub use disks::{DiskAt, DiskPairs};
pub use error::Error;
pub use glam;
#[cfg(feature = "gpu")]
pub use gpu::{BatchStats, GpuCollider, GpuOptions, Id, Pending, QueryBatch, Recorded, Results};
/// The shared world-space vocabulary ([`Aabb`](lore_geom::Aabb)), re-exported.
pub use lore_geom;
pub use mask::{Connectivity, MAX_MASK_PIXELS, Mask, Moments, overlap_area, overlaps};
pub use mesh::{MESH_SUBPIXEL_BITS, Mesh, MeshPlacement};
pub use sprite::{
    FIXED_BITS, MAX_EXTENT, MAX_POSITION, MAX_SCALE, MAX_SPRITE_SIDE, MIN_SCALE, PixelRect, Placement, Pose, Sprite,
};
pub use world::{PIXELS_PER_UNIT_RANGE, PixelSpace};

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The guide's examples (docs/pixel-collide.md), compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/pixel-collide.md")]
struct GuideDoctests;
