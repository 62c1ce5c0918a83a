//! The bounded [`Grid`]: a `width × height` array of cells.

use super::lists::Cells;
use super::map::{CellMap, check_cell_size, floor_i32};
use crate::error::Error;
use glam::Vec2;
use lore_geom::Aabb;

/// The bounded array of a [`Grid`].
#[derive(Clone, Debug)]
pub(crate) struct GridMap {
    pub(super) origin: Vec2,
    pub(super) cell: f32,
    pub(super) inv: f32,
    pub(super) width: i32,
    pub(super) height: i32,
    /// The largest cell coordinate on each axis, as floats.
    pub(super) top: Vec2,
    /// Whether `top` is exact (dimensions up to 2²⁴), so a coordinate can be clamped as a float
    /// and then truncated: the same cell as `floor` then clamp, with no rounding fix-up.
    pub(super) exact: bool,
}

impl GridMap {
    pub(super) fn new(origin: Vec2, cell: f32, width: i32, height: i32) -> Self {
        let top = Vec2::new((width - 1) as f32, (height - 1) as f32);
        Self { origin, cell, inv: 1.0 / cell, width, height, top, exact: width.max(height) <= 1 << 24 }
    }
}

impl CellMap for GridMap {
    const NAME: &'static str = "grid";
    const UNIQUE_CELLS: bool = true;
    type Tag = ();
    #[inline(always)]
    fn tag(_x: i32, _y: i32) {}
    fn origin(&self) -> Vec2 {
        self.origin
    }
    fn cell_size(&self) -> f32 {
        self.cell
    }
    fn inv_cell(&self) -> f32 {
        self.inv
    }
    fn limits(&self, axis: usize) -> (i32, i32) {
        (0, if axis == 0 { self.width - 1 } else { self.height - 1 })
    }
    #[inline(always)]
    fn coord(&self, v: f32, axis: usize) -> i32 {
        if self.exact {
            // Non-negative after the clamp, so truncation is floor (NaN becomes 0, as before).
            ((v - self.origin[axis]) * self.inv).max(0.0).min(self.top[axis]) as i32
        } else {
            let (lo, hi) = self.limits(axis);
            floor_i32((v - self.origin[axis]) * self.inv).clamp(lo, hi)
        }
    }
    #[inline(always)]
    fn range(&self, aabb: &Aabb) -> [i32; 4] {
        if self.exact {
            let lo = ((aabb.min() - self.origin) * self.inv).max(Vec2::ZERO).min(self.top);
            let hi = ((aabb.max() - self.origin) * self.inv).max(Vec2::ZERO).min(self.top);
            // SAFETY: `max` turns NaN into 0 and the clamp keeps each value in `0..=top`, with
            // `top` at most 2^24: finite and within `i32`, as `to_int_unchecked` requires.
            unsafe {
                [lo.x.to_int_unchecked(), lo.y.to_int_unchecked(), hi.x.to_int_unchecked(), hi.y.to_int_unchecked()]
            }
        } else {
            [
                self.coord(aabb.min().x, 0),
                self.coord(aabb.min().y, 1),
                self.coord(aabb.max().x, 0),
                self.coord(aabb.max().y, 1),
            ]
        }
    }
    #[inline(always)]
    fn bucket(&self, x: i32, y: i32) -> usize {
        y as usize * self.width as usize + x as usize
    }
    #[inline(always)]
    fn width_step(&self) -> usize {
        self.width as usize
    }
    fn buckets(&self) -> usize {
        self.width as usize * self.height as usize
    }
    fn fits(&self, _entries: usize) -> bool {
        true
    }
    fn resize(&mut self, _entries: usize) {}
}

/// A bounded uniform grid of square cells, each listing the proxies whose boxes touch it.
///
/// Choose the cell size near the typical box size ([`suggest_cell_size`](crate::suggest_cell_size)).
/// Boxes outside the grid are clamped into its edge cells: still correct, only slower if many
/// boxes live outside. Updates are O(1); the next query or `pairs` call brings the cell lists
/// up to date, moving only the entries of boxes that changed cells since the last `pairs`
/// (a full rebuild in one pass when many did), which is the fastest way to get the full pair
/// set of a world of similar-size moving boxes. When the grid has more than 32 times as many
/// cells as cell entries (a few movers in a grid that covers a whole level), `pairs` rebuilds
/// sparsely instead, touching only the cells the boxes are in, so its cost follows the boxes
/// rather than the grid's size.
#[derive(Clone, Debug)]
pub struct Grid(pub(super) Cells<GridMap>);

impl Grid {
    /// The largest number of cells a grid may have (2²⁶).
    pub const MAX_CELLS: usize = 1 << 26;

    /// A grid of `width × height` cells of side `cell_size` whose lower-left corner is `origin`.
    ///
    /// # Errors
    /// [`Error::Geom`] for a bad origin, [`Error::NonFinite`] for a NaN or infinite cell size,
    /// [`Error::BadConfig`] for a non-positive cell size, zero dimensions or more than
    /// [`Grid::MAX_CELLS`] cells.
    pub fn new(origin: Vec2, cell_size: f32, width: u32, height: u32) -> Result<Self, Error> {
        Aabb::point(origin)?;
        let cell = check_cell_size(cell_size)?;
        if width == 0 || height == 0 {
            return Err(Error::BadConfig("grid width and height must be at least 1"));
        }
        if width as usize * height as usize > Self::MAX_CELLS || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(Error::BadConfig("grid has more than 2^26 cells"));
        }
        Ok(Self(Cells::new(GridMap::new(origin, cell, width as i32, height as i32))))
    }

    /// A grid covering `area` with cells of side `cell_size` (rounded up to whole cells).
    ///
    /// # Errors
    /// As [`Grid::new`].
    pub fn covering(area: Aabb, cell_size: f32) -> Result<Self, Error> {
        let cell = check_cell_size(cell_size)?;
        let cells = (area.size() / cell).ceil().max(Vec2::ONE);
        if cells.x * cells.y > Self::MAX_CELLS as f32 {
            return Err(Error::BadConfig("grid has more than 2^26 cells"));
        }
        Self::new(area.min(), cell, cells.x as u32, cells.y as u32)
    }

    /// The cell side.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.0.map.cell
    }

    /// Width and height in cells.
    #[must_use]
    pub fn dimensions(&self) -> (u32, u32) {
        (self.0.map.width as u32, self.0.map.height as u32)
    }
}

// The trait, method by method, over the shared core.
spatial_index_over_cells!(Grid);
