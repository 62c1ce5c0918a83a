//! Cell geometry shared by the grid and the hash: world coordinates to cell coordinates, the
//! cell range of a box, and [`CellMap`], the one thing the two differ in (where a cell's list
//! lives).

use crate::error::Error;
use glam::Vec2;
use lore_geom::Aabb;

/// `floor(v)` as an `i32`, saturating at the ends (monotone, so cell ranges of overlapping
/// boxes always overlap).
#[inline(always)]
pub(super) fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i.saturating_sub(1) } else { i }
}

/// Where the cell lists live: a bounded array or a hash table.
pub(crate) trait CellMap: Clone + core::fmt::Debug + Send + Sync {
    const NAME: &'static str;
    /// Whether each bucket holds exactly one cell (a grid) rather than a mix (a hash).
    const UNIQUE_CELLS: bool;
    /// What an entry remembers of its cell: nothing in a grid (a bucket is one cell), the
    /// coordinates in a hash (a bucket mixes cells).
    type Tag: Copy + PartialEq + core::fmt::Debug + Send + Sync;
    fn tag(x: i32, y: i32) -> Self::Tag;
    fn origin(&self) -> Vec2;
    fn cell_size(&self) -> f32;
    fn inv_cell(&self) -> f32;
    /// The smallest and largest cell coordinate on `axis`; the end cells hold everything beyond.
    fn limits(&self, axis: usize) -> (i32, i32);
    fn bucket(&self, x: i32, y: i32) -> usize;
    /// The bucket distance between a cell and the one above it (grids only).
    fn width_step(&self) -> usize {
        0
    }
    fn buckets(&self) -> usize;
    /// Whether the current bucket count suits `entries` cell entries.
    fn fits(&self, entries: usize) -> bool;
    /// Re-sizes the table for `entries` cell entries.
    fn resize(&mut self, entries: usize);

    #[inline(always)]
    fn coord(&self, v: f32, axis: usize) -> i32 {
        let (lo, hi) = self.limits(axis);
        floor_i32((v - self.origin()[axis]) * self.inv_cell()).clamp(lo, hi)
    }

    /// Inclusive cell range `[x0, y0, x1, y1]` of a box.
    #[inline(always)]
    fn range(&self, aabb: &Aabb) -> [i32; 4] {
        [
            self.coord(aabb.min().x, 0),
            self.coord(aabb.min().y, 1),
            self.coord(aabb.max().x, 0),
            self.coord(aabb.max().y, 1),
        ]
    }

    /// The world interval of cell column/row `c` on `axis` (infinite at the end cells).
    fn span(&self, c: i32, axis: usize) -> (f32, f32) {
        let (lo, hi) = self.limits(axis);
        let start = self.origin()[axis] + c as f32 * self.cell_size();
        let a = if c <= lo { f32::NEG_INFINITY } else { start };
        let b = if c >= hi { f32::INFINITY } else { start + self.cell_size() };
        (a, b)
    }

    fn cell_rect(&self, x: i32, y: i32) -> Aabb {
        let min = self.origin() + Vec2::new(x as f32, y as f32) * self.cell_size();
        Aabb::covering(min, min + Vec2::splat(self.cell_size()))
    }
}

/// The number of cells of a cell range (`r[2] >= r[0]` and `r[3] >= r[1]`, so the wrapping
/// differences are the exact spans, even across all of `i32`), saturating at `u64::MAX`: a
/// range over all of `i32` on both axes has 2^64 cells, one more than a `u64` holds, and a
/// wrapped product of 0 would let such a box through as a small one, to be listed (or a query
/// area walked) cell by cell for ever. Every caller compares the count with a bound first
/// ([`BIG_CELLS`](super::lists::BIG_CELLS), the number of boxes), so any range past the bound
/// is treated as "everywhere": a big box on the list every query tests, a query area that
/// scans the boxes instead of the cells.
#[inline(always)]
pub(super) fn cells_in(r: &[i32; 4]) -> u64 {
    (u64::from(r[2].wrapping_sub(r[0]) as u32) + 1).saturating_mul(u64::from(r[3].wrapping_sub(r[1]) as u32) + 1)
}

pub(super) fn check_cell_size(cell_size: f32) -> Result<f32, Error> {
    if !cell_size.is_finite() {
        return Err(Error::NonFinite);
    }
    if cell_size <= 0.0 || !(1.0 / cell_size).is_finite() {
        return Err(Error::BadConfig("cell size must be positive (and not subnormal)"));
    }
    Ok(cell_size)
}
