//! Lock-and-key dungeons and grid mazes that are solvable by construction, generated step by
//! step, checked by an independent solver.
//!
//! A maze starts as a planar graph: the Delaunay triangulation of random points (a *logic maze*)
//! or a grid of cells (a *grid maze*). A random spanning tree is dug out of it, rooted at the
//! start. The tree is cut into `K` zones by `K − 1` colored locked doors, each on the edge above
//! the subtree whose size is nearest the size a zone should have. After each door closes, its key
//! is dropped in the deepest leaf still reachable without crossing a door, so keys always lie
//! where the player can get them first. Finally extra edges of the planar graph that stay inside
//! one zone add loops.
//!
//! ```
//! use lore_mazegen::{Config, check, generate, to_ascii};
//!
//! // A logic maze: 300 random points, 4 zones (3 doors), 20 loops.
//! let maze = generate(&Config::points(300).zones(4).cycles(20).seed(42))?;
//! let solution = check(&maze)?; // proves it completable
//! assert_eq!(solution.key_order.len(), 3);
//! assert_eq!(solution.zone_sizes.len(), 4);
//!
//! // A grid maze with horizontal corridors, as ASCII tiles.
//! let grid = generate(&Config::grid(12, 6).zones(3).bias(0.6).seed(1))?;
//! let text = to_ascii(&grid)?;
//! assert_eq!(text.lines().count(), 13);
//! assert!(text.contains('@') && text.contains('A') && text.contains('a'));
//! # Ok::<(), lore_mazegen::Error>(())
//! ```
//!
//! # Conventions
//! - Positions are `glam::Vec2`, y-up. Grid cell `(x, y)` (row 0 at the top, node id
//!   `y * width + x`) is centred at `(x + 0.5, height − y − 0.5)`. Pictures are y-down; the
//!   conversion happens in one place, the picture module.
//! - Door color 0 is the first door a player opens; zone `c + 1` is behind the doors of color
//!   `c`; zone 0 holds the start. Keys are never consumed: one key opens every door of its color.
//! - Seeds: every maze comes from a `Pcg64Mcg` seeded with [`Config::seed`]; the same config
//!   gives the same maze on every platform.
//!
//! # Solvable by construction, and checked anyway
//! Doors are closed in reverse order of opening. When door `i` closes, its key goes where the
//! player can walk without crossing any door closed so far; later doors can only put that key
//! behind doors that are opened *before* door `i`. Cycle edges never join two zones, so no door
//! can be walked around. [`check`] does not trust this argument: it runs one breadth-first search
//! from the root that parks doors it cannot open yet and releases them when a key of their
//! color turns up (keys are never consumed, so reachability only grows), and reports why a maze
//! is unsolvable when it is (see [`Unsolvable`]).
//!
//! # Zone sizes
//! The post aims every subtree at `N / K`. Here each door aims at `free / zones_left` (the nodes
//! still in the start zone divided by the zones still to make), which is `N / K` for the first
//! door and keeps the start zone from collecting everyone's rounding errors.
//!
//! # Step by step
//! [`Generator`] is an iterator of [`Step`]s (graph, tree, each door, each key, each cycle);
//! [`Generator::maze`] shows the state after each. [`generate`] runs the same steps.
//!
//! # Side-scroller levels
//! [`generate_side`] turns a grid maze into a tile level ([`SideLevel`]) that a character with
//! stated [`Movement`] limits can beat: vertical passages become ladders, one-way platforms,
//! ledges, lifts or hatches within its jump, and [`check_side`] proves every level beatable in
//! key order with jump arcs of its own before it is returned. [`SideGenerator`] steps it; the
//! level exports ASCII, JSON, SVG, PNG and Tiled's `.tmx`.
//!
//! ```
//! use lore_mazegen::{SideConfig, check_side, generate_side};
//! let level = generate_side(&SideConfig::default().seed(2))?;
//! assert_eq!(check_side(&level)?.keys_per_stage.concat().len(), 3);
//! # Ok::<(), lore_mazegen::Error>(())
//! ```
//!
//! # Feature flags
//! - `pictures` (default): [`to_svg`], [`to_png`], [`to_rgba`] and the same methods of
//!   [`SideLevel`]. Without it the crate has no image dependency.
//! - `serde`: `Serialize` / `Deserialize` for [`Config`], [`Maze`] and its parts,
//!   [`Solution`], [`Measures`], [`Cell`] and [`GridTree`]. A config is checked with
//!   [`Config::validate`] and a grid tree must be a spanning tree of its grid when read; a maze
//!   is plain data (hand-made ones are allowed), so run [`check`] on one from an untrusted
//!   file. [`to_json`] is a separate, fixed export format. The side-scroller types too:
//!   [`SideConfig`] and [`Movement`] are checked when read ([`Movement::validate`]); a
//!   [`SideLevel`] is plain data, so run [`check_side`] on one from an untrusted file.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The modules stack from the bottom up: each uses only modules of the layers above it.
// Layer 1, values: the error, the maze, the configuration.
mod config;
mod error;
mod maze;
mod tree_algorithm;
// Layer 2, tools: the one shuffle, disjoint sets, adjacency lists.
mod adjacency;
mod random;
mod sets;
// Layer 3, graphs and trees: random spanning trees, zones on a rooted tree, the Delaunay graph.
mod delaunay;
mod spanning;
mod walkers;
mod zones;
// Layer 4, grid mazes: the grid-graph, its carvers, the cell and tile maps.
mod grid;
// Layer 5, the generator and the checker.
mod solve;
mod steps;
// Layer 6, the exports (they draw the checker's solution).
mod export;
// Layer 7, side-scroller levels drawn from grid mazes: generator, reachability check, files.
mod side;
// Serde support for the configuration (feature `serde`; the plain types derive theirs).
#[cfg(feature = "serde")]
mod serde_impls;

pub use config::{Config, MAX_NODES, MAX_ZONES, Shape};
#[allow(deprecated)]
pub use error::MazeError;
pub use error::{
    ConfigError, Error, ExportError, MalformedError, MovementError, MovementField, TriangulationError, Unbeatable,
    Unsolvable,
};
#[allow(deprecated)]
pub use export::colour_rgb;
#[cfg(feature = "pictures")]
pub use export::{MAX_PICTURE_SIDE, Style, to_png, to_rgba, to_svg};
pub use export::{color_rgb, to_ascii, to_json, zone_rgb};
pub use glam::Vec2;
pub use grid::{ASCII_COLORS, Cell, CellMap, GridTree, Tile, TileMap, TilePos};
pub use maze::{Edge, EdgeKind, Key, Layout, Maze, NO_NODE};
pub use side::{
    Climb, LevelTile, Lift, MAX_LEVEL_TILES, Movement, RestPos, RouteLeg, RouteStep, SideConfig, SideGenerator,
    SideLevel, SideMove, SideRoute, SideSolution, SideStep, TMX_TILE_PIXELS, TMX_TILES, check_side, generate_side,
    route_leg, route_side,
};
pub use solve::{Measures, Solution, check, measure};
pub use steps::{Generator, Step, generate};
pub use tree_algorithm::TreeAlgorithm;

/// The guide's examples (`docs/mazegen.md`) run as doctests.
#[cfg(all(doctest, feature = "pictures"))]
#[doc = include_str!("../../../docs/mazegen.md")]
struct GuideDoctests;
