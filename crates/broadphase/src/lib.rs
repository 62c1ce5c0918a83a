//! Broad phase and spatial indexes for 2D games: five indexes behind one trait.
//!
//! A spatial index holds boxes ([`Aabb`]) under ids ([`ProxyId`]) and answers "which boxes
//! overlap this box / contain this point / does this ray hit first / which are nearest to this
//! point ([`SpatialIndex::k_nearest`]) / what does this box hit as it moves
//! ([`SpatialIndex::cast_aabb`])", plus the broad phase's question "which pairs of boxes
//! overlap", each pair reported once, in a deterministic order.
//! Every index gives exactly the same answers as [`BruteForce`] (the property tests check it);
//! they differ only in speed.
//!
//! ```
//! use lore_broadphase::{Aabb, Grid, Ray, SpatialIndex, glam::vec2};
//!
//! # fn main() -> Result<(), lore_broadphase::Error> {
//! let mut grid = Grid::new(vec2(0.0, 0.0), 2.0, 64, 64)?;
//! let a = grid.insert(Aabb::new(vec2(1.0, 1.0), vec2(3.0, 2.0))?)?;
//! let b = grid.insert(Aabb::new(vec2(2.5, 1.5), vec2(4.0, 4.0))?)?;
//! let c = grid.insert(Aabb::from_center(vec2(20.0, 20.0), vec2(0.5, 0.5))?)?;
//!
//! let mut pairs = Vec::new();
//! grid.pairs(&mut pairs);
//! assert_eq!(pairs, [(a, b)]);
//!
//! grid.update(c, Aabb::from_center(vec2(3.5, 3.5), vec2(0.5, 0.5))?)?;
//! grid.pairs(&mut pairs);
//! assert_eq!(pairs, [(a, b), (b, c)]);
//!
//! let ray = Ray::new(vec2(0.0, 3.5), vec2(1.0, 0.0), 100.0)?;
//! let (hit, _stats) = grid.raycast(&ray, &mut |_| true);
//! assert_eq!(hit.map(|h| (h.id, h.t)), Some((b, 2.5)));
//! # Ok(())
//! # }
//! ```
//!
//! # Choosing an index
//!
//! | index | best for | why |
//! |---|---|---|
//! | [`Grid`] | bounded worlds of similar-size boxes: pairs, box queries, rays | the fastest full pair set of moving boxes; rays walk only the cells they cross |
//! | [`SpatialHash`] | the same, unbounded | the grid's machinery with no array to size, somewhat slower |
//! | [`Tree`] | boxes of very mixed sizes, static sets, few movers | no cell size to tune |
//! | [`Sweep`] | action along one axis (scrollers), a few hundred boxes | simplest; linear queries |
//! | [`BruteForce`] | a few dozen boxes; the reference | everything O(n) |
//!
//! [`World`] keeps a static index and a moving index side by side: the static one is built once
//! and costs nothing per frame while its boxes stay put; pairs are moving×moving and
//! moving×static. The guide, `docs/broadphase.md` in the repository, says which index to choose
//! and why; the measured figures (lore against parry2d and rstar) are in one place,
//! `docs/benchmarks.md`.
//!
//! # Conventions
//!
//! - [`Aabb`] and [`Ray`] are [`lore_geom`]'s, re-exported: the same values flow to and from the
//!   other geometry crates; their refusals come back as [`Error::Geom`].
//! - Boxes are closed: touching boxes overlap; zero-size boxes are points and are valid.
//! - Pairs are `(a, b)` with `a < b`, sorted; ray hits sort by `t`, ties to the smaller id.
//! - Query results replace the contents of the `out` vector they are given.
//! - Queries through the trait take `&mut self`: the grid and the hash bring their cell lists
//!   up to date lazily on the first query after a change and keep per-proxy query stamps, and
//!   the tree finishes its pending refits and reuses its stack. [`Tree`] and [`BruteForce`]
//!   also answer nearest and cast queries through `&self` (inherent methods of the same names),
//!   so several threads can query one of them at once.
//! - Nearest queries sort by squared distance, ties to the smaller id; casts by time of impact
//!   `t` in `0..=1`, ties to the smaller id.
//! - A value per proxy lives beside the index, in a [`ProxyMap`] keyed by [`ProxyId`].
//! - Bad input (NaN, infinities, inverted boxes, stale ids, zero cell sizes) is an [`Error`],
//!   never a panic.
//!
//! # Feature flags
//!
//! - `std` (default): std support for glam and the error type.
//! - `libm`: the math backend for `no_std` + `alloc` builds
//!   (`default-features = false, features = ["libm"]`).
//! - `serde`: `Serialize` / `Deserialize` for [`ProxyId`], [`RayHit`], [`QueryStats`],
//!   [`Axis`] and [`CellSizeAdvice`], and for the re-exported [`Aabb`] and [`Ray`] (read
//!   through their checked constructors), `no_std` too. An id read back is only as good as the
//!   index it came from: in another index it is stale or names another box.
//! - `parallel` (implies `std`): `pairs` and `pairs_unsorted` of the grid, the hash, the tree
//!   and the sweep, and [`SpatialIndex::update_many`] / [`SpatialIndex::update_many_with`] of
//!   the grid, the hash and the sweep, split their work over a pool of std threads kept for
//!   the process, by default one per core ([`SpatialIndex::set_threads`],
//!   [`World::set_threads`]). The answers are those of one thread, in the same order; passes
//!   too small to gain stay on one thread. On a target without threads (wasm32 in a browser,
//!   built without the `atomics` target feature) the feature builds and every pass runs on the
//!   calling thread, whatever `set_threads` says.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

extern crate alloc;

// How the modules stack: each uses only modules before it in this line (the root only
// re-exports; boxes and rays are lore-geom's): id, error, ray_hit, stats, slots, par, pairs, index,
// hits; then the indexes brute, sweep, cells, tree, each on its own; then world (any two
// indexes) and tune (boxes only).
mod brute;
mod cells;
mod error;
mod hits;
mod id;
mod index;
mod near;
mod pairs;
mod par;
mod payload;
mod ray_hit;
mod slots;
mod stats;
mod sweep;
#[cfg(test)]
mod test_rng;
mod tree;
mod tune;
mod world;

pub use brute::BruteForce;
pub use cells::{Grid, SpatialHash};
pub use error::Error;
pub use glam;
pub use id::ProxyId;
pub use index::SpatialIndex;
pub use lore_geom;
pub use lore_geom::{Aabb, Ray};
pub use near::{CastHit, Nearest};
pub use payload::ProxyMap;
pub use ray_hit::RayHit;
pub use stats::QueryStats;
pub use sweep::{Axis, Sweep};
pub use tree::Tree;
pub use tune::{CellSizeAdvice, suggest_cell_size};
pub use world::World;

#[cfg(test)]
pub(crate) use test_rng::{xorshift, xorshift_unit};

/// The guide's examples (`docs/broadphase.md`), run as doctests so the guide stays in step with
/// the code (only under `cfg(doctest)`: the packaged crate does not need the file).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/broadphase.md")]
struct GuideDoctests;
