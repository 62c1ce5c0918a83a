//! The unbounded [`SpatialHash`]: cells hashed into a table of prime size.

use super::lists::Cells;
use super::map::{CellMap, check_cell_size};
use crate::error::Error;
use glam::Vec2;

/// Table sizes of the spatial hash: primes, each roughly twice the previous.
pub(crate) const PRIMES: [u32; 27] = [
    13, 23, 47, 97, 199, 409, 823, 1741, 3469, 6949, 14033, 28411, 57557, 116731, 236897, 480881, 976369, 1982627,
    4026031, 8175383, 16601593, 33712729, 68460391, 139022417, 282312799, 573292817, 1164186217,
];

/// The smallest table prime `>= n` (the largest one past it).
fn prime_at_least(n: usize) -> u32 {
    PRIMES.iter().copied().find(|&p| p as usize >= n).unwrap_or(PRIMES[PRIMES.len() - 1])
}

/// How a [`SpatialHash`] sizes its table.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TableSize {
    /// The smallest prime ≥ `factor ×` the number of cell entries, re-chosen at each reindex.
    Auto(f32),
    /// A fixed prime.
    Fixed(u32),
}

/// The hash table of a [`SpatialHash`].
#[derive(Clone, Debug)]
pub(crate) struct HashTable {
    cell: f32,
    inv: f32,
    size: u32,
    policy: TableSize,
}

impl CellMap for HashTable {
    const NAME: &'static str = "hash";
    const UNIQUE_CELLS: bool = false;
    type Tag = [i32; 2];
    #[inline(always)]
    fn tag(x: i32, y: i32) -> [i32; 2] {
        [x, y]
    }
    fn origin(&self) -> Vec2 {
        Vec2::ZERO
    }
    fn cell_size(&self) -> f32 {
        self.cell
    }
    fn inv_cell(&self) -> f32 {
        self.inv
    }
    fn limits(&self, _axis: usize) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
    #[inline(always)]
    fn bucket(&self, x: i32, y: i32) -> usize {
        // Large primes times the coordinates, xored, modulo a prime table size.
        ((x as u32).wrapping_mul(1_640_531_513) ^ (y as u32).wrapping_mul(2_654_435_789)) as usize % self.size as usize
    }
    fn buckets(&self) -> usize {
        self.size as usize
    }
    fn fits(&self, entries: usize) -> bool {
        match self.policy {
            TableSize::Fixed(_) => true,
            TableSize::Auto(factor) => {
                let target = entries as f32 * factor;
                let size = self.size as f32;
                self.size == prime_at_least(target as usize) || (0.5 * target..=2.0 * target).contains(&size)
            }
        }
    }
    fn resize(&mut self, entries: usize) {
        if let TableSize::Auto(factor) = self.policy {
            self.size = prime_at_least((entries as f32 * factor) as usize);
        }
    }
}

/// An unbounded spatial hash: a uniform grid whose cells are hashed into a table of prime size.
///
/// No bounds to choose; memory follows the number of boxes. The table is re-sized at each
/// full rebuild (a patch that would leave it far off the target size rebuilds) to the
/// smallest prime at least `table_factor ×` the number of cell entries
/// (default 2; the classic advice of 10× the object count trades memory for fewer shared
/// buckets), or fixed with [`SpatialHash::with_table_size`].
#[derive(Clone, Debug)]
pub struct SpatialHash(pub(super) Cells<HashTable>);

impl SpatialHash {
    /// A hash of square cells of side `cell_size`, auto-sized table.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::BadConfig`] for a cell size that is not a positive
    /// finite number.
    pub fn new(cell_size: f32) -> Result<Self, Error> {
        let cell = check_cell_size(cell_size)?;
        Ok(Self(Cells::new(HashTable { cell, inv: 1.0 / cell, size: PRIMES[0], policy: TableSize::Auto(2.0) })))
    }

    /// A hash whose table has a fixed size: the smallest table prime `>= buckets`.
    ///
    /// # Errors
    /// As [`SpatialHash::new`], and [`Error::BadConfig`] for zero buckets.
    pub fn with_table_size(cell_size: f32, buckets: usize) -> Result<Self, Error> {
        if buckets == 0 {
            return Err(Error::BadConfig("hash table needs at least one bucket"));
        }
        let mut hash = Self::new(cell_size)?;
        let size = prime_at_least(buckets);
        hash.0.map.size = size;
        hash.0.map.policy = TableSize::Fixed(size);
        Ok(hash)
    }

    /// Sets the automatic table size to `factor ×` the cell entries (load factor `1/factor`).
    ///
    /// # Errors
    /// [`Error::BadConfig`] unless `factor` is finite and in `0.1..=100`.
    pub fn set_table_factor(&mut self, factor: f32) -> Result<(), Error> {
        if !(0.1..=100.0).contains(&factor) {
            return Err(Error::BadConfig("table factor must be in 0.1..=100"));
        }
        self.0.map.policy = TableSize::Auto(factor);
        self.0.dirty = true;
        Ok(())
    }

    /// The cell side.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.0.map.cell
    }

    /// The current table size (a prime).
    #[must_use]
    pub fn table_size(&self) -> usize {
        self.0.map.size as usize
    }
}

// The trait, method by method, over the shared core.
spatial_index_over_cells!(SpatialHash);
