//! The unbounded [`SpatialHash`]: cells hashed into a table of prime size.

use super::lists::Cells;
use super::map::{CellMap, check_cell_size};
use crate::error::Error;
use crate::hits::{all_hits, first_hit};
use crate::id::ProxyId;
use crate::index::{SpatialIndex, check_lengths};
use crate::pairs::Order;
use crate::ray_hit::RayHit;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::{Aabb, Ray};

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
impl SpatialIndex for SpatialHash {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn len(&self) -> usize {
        self.0.slots.len()
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.0.insert(aabb)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        self.0.remove(id)
    }

    // Called once per moving box and frame, often from the caller's crate: inlined there.
    #[inline]
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        self.0.update(id, aabb)
    }

    fn update_many(&mut self, ids: &[ProxyId], boxes: &[Aabb]) -> Result<(), Error> {
        check_lengths(ids, boxes)?;
        self.0.update_many(ids, |i| boxes[i])
    }

    fn update_many_with(&mut self, ids: &[ProxyId], boxes: &(dyn Fn(usize) -> Aabb + Sync)) -> Result<(), Error> {
        self.0.update_many(ids, boxes)
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.0.slots.get(id)
    }

    fn clear(&mut self) {
        self.0.clear();
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.0.ids()
    }

    fn ids_and_boxes(&self, ids: &mut Vec<ProxyId>, boxes: &mut Vec<Aabb>) {
        self.0.slots.ids_and_boxes(ids, boxes);
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        self.0.query_aabb(area, out)
    }

    fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
        self.0.query_aabbs(areas, out)
    }

    fn pairs_with(&mut self, ids: &[ProxyId], areas: &[Aabb], out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.0.pairs_with(ids, areas, out)
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        first_hit(|stats, visit| self.0.walk_ray(ray, stats, visit), filter)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        all_hits(|stats, visit| self.0.walk_ray(ray, stats, visit), filter, out)
    }

    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.0.pairs(out, Order::Ids)
    }

    fn pairs_unsorted(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.0.pairs(out, Order::Found)
    }

    #[cfg(feature = "parallel")]
    fn set_threads(&mut self, threads: usize) -> Result<(), Error> {
        self.0.threads.set(threads)
    }

    #[cfg(feature = "parallel")]
    fn threads(&self) -> usize {
        self.0.threads.get()
    }

    fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
        self.0.debug_view(visit);
    }
}
