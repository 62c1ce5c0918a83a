//! Cell indexes: the bounded uniform [`Grid`] and the unbounded [`SpatialHash`].
//!
//! Both lay a uniform grid of square cells over the world and list each proxy in every cell
//! its box touches; they differ only in where a cell's list lives. The grid keeps a
//! `width × height` array (boxes outside it are clamped into the edge cells); the hash maps
//! cell `(x, y)` to bucket `(x·1640531513 ⊕ y·2654435789) mod p` of a table of prime size `p`,
//! so the world has no bounds and memory follows the number of boxes, at the price of
//! unrelated cells sharing a bucket (false positives, rejected by the box test).
//!
//! The lists are brought up to date lazily, when a query follows a change (the "reindex").
//! A full build is a counting pass, a prefix sum and a fill, so the lists of one bucket sit
//! together in one array of slots (8 bytes an entry in a grid). `pairs` builds them with room
//! to grow in each bucket and from then on patches them: boxes that move a little keep their
//! cells, so only the entries of boxes whose cell range changed move (a few percent of the
//! boxes a frame in a typical scene), and box queries and rays read the patched lists as they
//! are. Patching gives way to a full build when more than half the entries would move, a box
//! turns big, or buckets that outgrew their room have doubled the lists' size. A grid with
//! many more cells than entries is built sparsely for `pairs` instead (the prefix sum runs
//! over the touched buckets only).
//! A proxy met twice in one query (it spans several cells, or the hash put two of its cells
//! in one bucket) is reported once: box queries and `pairs` take an entry only in the first
//! cell it shares with the query or partner, rays use a per-proxy query stamp. A box spanning
//! more than [`BIG_CELLS`] cells is kept aside in a short list instead, so one huge box cannot
//! flood the table: every query tests that list, and `pairs` finds a big box's partners with
//! one box query over its cells.
//!
//! The files stack as: `map` (cell geometry) ← `lists` (the shared core: entries, state,
//! bookkeeping) ← `build` ← `patched` ← `query` ← `pair_pass` and `ray_walk` ← `grid` and
//! `hash` (each a [`CellMap`](map::CellMap) and a public index over the core) ← this file.

mod build;
mod grid;
mod hash;
mod lists;
mod map;
mod pair_pass;
mod patched;
mod query;
mod ray_walk;
#[cfg(test)]
mod tests;

pub use grid::Grid;
pub use hash::SpatialHash;
