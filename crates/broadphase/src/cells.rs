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

use crate::pairs::{Order, PairSort};
use crate::proxy::Slots;
use crate::{Aabb, Error, ProxyId, QueryStats, Ray, RayHit, SpatialIndex, sort_hits};
use alloc::vec::Vec;
use glam::Vec2;

/// A box spanning more cells than this is kept in the "big" list (tested by every query, paired
/// by a box query of its own) instead of being listed cell by cell.
pub const BIG_CELLS: u64 = 256;

/// A grid with more than this many cells per cell entry (at the previous build) gets the
/// sparse build for `pairs` instead of the patchable one, whose build walks every cell (and
/// whose region table takes 12 bytes a cell).
const SPARSE_RATIO: usize = 32;

/// Above this many slots (a box table of 512 KiB, past the per-core cache of the machines
/// measured) `pairs` prefetches the boxes of the bucket [`PREFETCH_AHEAD`] buckets ahead.
const PREFETCH_ABOVE: usize = 1 << 15;
/// How far ahead `pairs` prefetches, in crowded buckets (of about five entries in the bench's
/// moving scenes): 8 measured best of 4, 8 and 16 at 100k boxes.
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to bring the cache line at `p` closer (a no-op off x86-64).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64 target, and a prefetch is only a hint: it reads
    // nothing the program sees and does not fault, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// `floor(v)` as an `i32`, saturating at the ends (monotone, so cell ranges of overlapping
/// boxes always overlap).
#[inline(always)]
fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i.saturating_sub(1) } else { i }
}

/// Where the cell lists live: a bounded array or a hash table.
pub(crate) trait CellMap: Clone + core::fmt::Debug {
    const NAME: &'static str;
    /// Whether each bucket holds exactly one cell (a grid) rather than a mix (a hash).
    const UNIQUE_CELLS: bool;
    /// What an entry remembers of its cell: nothing in a grid (a bucket is one cell), the
    /// coordinates in a hash (a bucket mixes cells).
    type Tag: Copy + PartialEq + core::fmt::Debug;
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
        [self.coord(aabb.min.x, 0), self.coord(aabb.min.y, 1), self.coord(aabb.max.x, 0), self.coord(aabb.max.y, 1)]
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
        Aabb { min, max: min + Vec2::splat(self.cell_size()) }
    }
}

/// The number of cells of a cell range (`r[2] >= r[0]` and `r[3] >= r[1]`, so the wrapping
/// differences are the exact spans, even across all of `i32`).
#[inline(always)]
fn cells_in(r: &[i32; 4]) -> u64 {
    (u64::from(r[2].wrapping_sub(r[0]) as u32) + 1) * (u64::from(r[3].wrapping_sub(r[1]) as u32) + 1)
}

fn check_cell_size(cell_size: f32) -> Result<f32, Error> {
    if !cell_size.is_finite() {
        return Err(Error::NonFinite);
    }
    if cell_size <= 0.0 || !(1.0 / cell_size).is_finite() {
        return Err(Error::BadConfig("cell size must be positive (and not subnormal)"));
    }
    Ok(cell_size)
}

/// The bounded array of a [`Grid`].
#[derive(Clone, Debug)]
pub(crate) struct GridMap {
    origin: Vec2,
    cell: f32,
    inv: f32,
    width: i32,
    height: i32,
    /// The largest cell coordinate on each axis, as floats.
    top: Vec2,
    /// Whether `top` is exact (dimensions up to 2²⁴), so a coordinate can be clamped as a float
    /// and then truncated: the same cell as `floor` then clamp, with no rounding fix-up.
    exact: bool,
}

impl GridMap {
    fn new(origin: Vec2, cell: f32, width: i32, height: i32) -> Self {
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
            let lo = ((aabb.min - self.origin) * self.inv).max(Vec2::ZERO).min(self.top);
            let hi = ((aabb.max - self.origin) * self.inv).max(Vec2::ZERO).min(self.top);
            // SAFETY: `max` turns NaN into 0 and the clamp keeps each value in `0..=top`, with
            // `top` at most 2^24: finite and within `i32`, as `to_int_unchecked` requires.
            unsafe {
                [lo.x.to_int_unchecked(), lo.y.to_int_unchecked(), hi.x.to_int_unchecked(), hi.y.to_int_unchecked()]
            }
        } else {
            [self.coord(aabb.min.x, 0), self.coord(aabb.min.y, 1), self.coord(aabb.max.x, 0), self.coord(aabb.max.y, 1)]
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
pub(crate) struct HashMap {
    cell: f32,
    inv: f32,
    size: u32,
    policy: TableSize,
}

impl CellMap for HashMap {
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

/// Which per-bucket table a rebuild counts in: `starts` (dense) or `counts` (sparse).
#[derive(Clone, Copy, Debug)]
enum Table {
    Starts,
    Counts,
}

/// One entry of a cell list: the proxy's slot and where the cell lies in its box; the box
/// itself is read from the slot table. (Entries used to carry a copy of the box, 24 bytes
/// instead of 8: at 100k moving boxes the rebuild then scattered 6 MB a frame across memory,
/// and the copies cost more to write than the look-ups cost to read.)
#[derive(Clone, Copy, Debug)]
struct Item<T> {
    slot: u32,
    /// Bit 0: this cell is in the box's first column; bit 1: in its first row. Two boxes
    /// listed in one cell meet there first exactly when their flags together have both bits.
    first: u32,
    /// The cell this entry was listed for, in a hash (a bucket mixes cells); nothing in a
    /// grid, whose entries are 8 bytes instead of 16.
    cell: T,
}

/// Where one bucket's items lie in the patchable layout: `items[start..start + len]`, with room
/// up to `start + cap`.
#[derive(Clone, Copy, Debug, Default)]
struct Region {
    start: u32,
    len: u32,
    cap: u32,
}

/// The room a bucket of `count` items gets in the patchable layout: a box can move in a few
/// times before the bucket has to move to the end of the items.
#[inline(always)]
fn room_for(count: u32) -> u32 {
    count + 2 + count / 4
}

/// The shared machinery of [`Grid`] and [`SpatialHash`].
#[derive(Clone, Debug)]
pub(crate) struct Cells<M: CellMap> {
    slots: Slots,
    map: M,
    /// Cell range of each slot at the last reindex (`[x0, y0, x1, y1]`).
    ranges: Vec<[i32; 4]>,
    /// Whether each slot was big at the last reindex.
    is_big: Vec<bool>,
    big: Vec<u32>,
    /// `starts[b]..starts[b + 1]` are bucket `b`'s items.
    starts: Vec<u32>,
    /// The item runs (`start..end` in `items`) of the buckets with two items or more: all
    /// `pairs` walks.
    crowded: Vec<(u32, u32)>,
    /// Whether `starts` describes `items` (a dense build). After a sparse build or in the
    /// patchable layout it does not, and a query rebuilds densely first.
    dense: bool,
    /// Whether `regions` describes `items` (the patchable layout `pairs` keeps for a dense
    /// world): each bucket's items with room to grow, so the next `pairs` moves only the
    /// entries of the boxes that changed cells instead of rebuilding the lists.
    patched: bool,
    /// The patchable layout's region of each bucket (empty for a bucket never used).
    regions: Vec<Region>,
    /// The buckets with a region, in the order `items` first held them.
    region_list: Vec<u32>,
    /// The number of cell entries (in the patchable layout `items` also holds room to grow).
    entries: usize,
    /// The length of `items` at the last patchable build: a patch that finds the items grown
    /// past twice that (buckets moved to the end) builds afresh.
    built_len: usize,
    /// Whether each slot is listed in the cells (live and not big at the last build or patch).
    in_lists: Vec<bool>,
    /// The patch's slots whose cells changed, with their new range and whether they are listed.
    moved: Vec<(u32, [i32; 4], bool)>,
    /// How many times the lists were patched rather than built (tests check the path is taken).
    #[cfg(test)]
    patches: usize,
    /// How many times a patch gave way to a build because the items had outgrown their size.
    #[cfg(test)]
    outgrown: usize,
    /// Whether every listed box lies in one cell (tiles on a lattice of the cell size): then
    /// each proxy appears once in the lists, and a box query needs no first-cell test.
    single_cells: bool,
    /// Sparse build only: per-bucket counters, all zero between builds.
    counts: Vec<u32>,
    /// Sparse build only: the buckets in use, in the order `items` holds them.
    occupied: Vec<u32>,
    items: Vec<Item<M::Tag>>,
    stamps: Vec<u32>,
    stamp: u32,
    /// The live slots of ordinary size at the last reindex, ascending (the fill walks them).
    listed: Vec<u32>,
    /// Union of all live boxes (rays are clipped to it), when `bounds_current`.
    bounds: Option<Aabb>,
    /// Whether `bounds` describes the current boxes: only rays need it, so it is computed on
    /// a ray's demand, not at every reindex.
    bounds_current: bool,
    dirty: bool,
    /// Candidate pair keys of `pairs`, hits first (grows, never shrinks).
    cand: Vec<u64>,
    /// Sorts `pairs`' keys into id pairs.
    pair_sort: PairSort,
    /// The box and id of each item's proxy, beside `items` (built by `pairs_with` when stale):
    /// `pairs_with` reads a run's boxes and ids in one sweep instead of a look-up each.
    item_boxes: Vec<(Aabb, ProxyId)>,
    /// Whether `item_boxes` describes the current `items`.
    boxes_current: bool,
    /// Each item with a copy of its box, for `pairs_with` on a grid whose boxes span several
    /// cells (built when stale): its row walk then reads one array, in order.
    item_copies: Vec<(Aabb, u32, u32)>,
    /// Whether `item_copies` describes the current `items`.
    copies_current: bool,
    /// Whether `items` lists the slots in ascending order from first to last (set with
    /// `item_boxes`): true for tiles inserted row by row into a grid. Then a row-by-row walk
    /// meets any box's partners in id order.
    items_ascending: bool,
    /// `pairs_with`'s item runs, gathered for all boxes before any is read.
    runs: Vec<(u32, u32)>,
    /// `pairs_with`: per box, where its runs end in `runs` (`u32::MAX`: no fast path).
    run_ends: Vec<u32>,
}

impl<M: CellMap> Cells<M> {
    fn new(map: M) -> Self {
        Self {
            slots: Slots::default(),
            map,
            ranges: Vec::new(),
            is_big: Vec::new(),
            big: Vec::new(),
            starts: Vec::new(),
            crowded: Vec::new(),
            dense: false,
            patched: false,
            regions: Vec::new(),
            region_list: Vec::new(),
            entries: 0,
            built_len: 0,
            in_lists: Vec::new(),
            moved: Vec::new(),
            #[cfg(test)]
            patches: 0,
            #[cfg(test)]
            outgrown: 0,
            single_cells: false,
            counts: Vec::new(),
            occupied: Vec::new(),
            items: Vec::new(),
            stamps: Vec::new(),
            stamp: 0,
            listed: Vec::new(),
            bounds: None,
            bounds_current: false,
            dirty: true,
            cand: Vec::new(),
            pair_sort: PairSort::default(),
            item_boxes: Vec::new(),
            item_copies: Vec::new(),
            copies_current: false,
            boxes_current: false,
            items_ascending: false,
            runs: Vec::new(),
            run_ends: Vec::new(),
        }
    }

    fn name(&self) -> &'static str {
        M::NAME
    }

    /// A fresh query stamp (resetting all stamps when the counter wraps).
    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Rebuilds the cell lists for [`Cells::pairs`], which needs only each bucket's run of
    /// items, not the bucket-by-bucket `starts` table: a grid with many more cells than
    /// entries (a few boxes in a big world, e.g. the movers of a static level) takes the
    /// sparse build, whose cost follows the boxes, not the cells.
    ///
    /// Otherwise the lists are kept in the patchable layout: when few boxes changed cells since
    /// the last `pairs` (moving boxes cross a cell line now and then, not every frame), only
    /// their entries move, and the rest of the lists stay as they are.
    fn reindex_for_pairs(&mut self) {
        if !self.dirty {
            return;
        }
        if self.patched && self.patch() {
            return;
        }
        if M::UNIQUE_CELLS && self.entries * SPARSE_RATIO < self.map.buckets() {
            self.reindex_sparse();
        } else if self.big.is_empty() {
            self.build(true);
        }
        // Big boxes pair through box queries, which read the dense table.
        if !self.big.is_empty() {
            self.reindex();
        }
    }

    /// Moves the entries of the boxes whose cell range changed since the lists were last
    /// built or patched (and of boxes inserted or removed since), in the patchable layout.
    /// Returns false, changing nothing that a full build does not redo, when a build is the
    /// better choice: more entries to move than half the lists, a big box, a hash table that
    /// no longer fits, or items grown past twice their built size.
    fn patch(&mut self) -> bool {
        let n = self.slots.capacity();
        self.ranges.resize(n, [0; 4]);
        self.is_big.resize(n, false);
        self.in_lists.resize(n, false);
        self.stamps.resize(n, 0);
        let mut moved = core::mem::take(&mut self.moved);
        moved.clear();
        let limit = (self.entries / 2 + 16) as u64;
        let (mut changes, mut entries) = (0u64, self.entries as u64);
        let boxes = self.slots.live_flags().iter().zip(&self.slots.aabbs);
        for (s, ((&live, aabb), (range, &listed))) in boxes.zip(self.ranges.iter().zip(&self.in_lists)).enumerate() {
            if !live && !listed {
                continue;
            }
            let r = self.map.range(aabb);
            if live && listed && r == *range {
                continue;
            }
            let cells = if live { cells_in(&r) } else { 0 };
            let old = if listed { cells_in(range) } else { 0 };
            changes += cells + old;
            entries = entries + cells - old;
            if cells > BIG_CELLS || changes > limit {
                self.moved = moved;
                return false;
            }
            moved.push((s as u32, r, live));
        }
        if !self.map.fits(entries as usize) || self.items.len() > 2 * self.built_len + 64 {
            #[cfg(test)]
            {
                self.outgrown += usize::from(self.items.len() > 2 * self.built_len + 64);
            }
            self.moved = moved;
            return false;
        }
        for &(s, r, live) in &moved {
            let s_ = s as usize;
            if self.in_lists[s_] {
                let [x0, y0, x1, y1] = self.ranges[s_];
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        self.unlist(self.map.bucket(x, y), s, M::tag(x, y));
                    }
                }
            }
            if live {
                let [x0, y0, x1, y1] = r;
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let first = u32::from(x == x0) | (u32::from(y == y0) << 1);
                        self.list(self.map.bucket(x, y), Item { slot: s, first, cell: M::tag(x, y) });
                    }
                }
            }
            self.ranges[s_] = r;
            self.in_lists[s_] = live;
            // (A slot reused since the build may have held a big box then.)
            self.is_big[s_] = false;
        }
        self.moved = moved;
        self.crowded.clear();
        for &b in &self.region_list {
            let Region { start, len, .. } = self.regions[b as usize];
            if len >= 2 {
                self.crowded.push((start, start + len));
            }
        }
        self.entries = entries as usize;
        self.dirty = false;
        self.bounds_current = false;
        #[cfg(test)]
        {
            self.patches += 1;
        }
        true
    }

    /// Removes slot `s`'s entry for the cell tagged `cell` from bucket `b` (patchable layout).
    fn unlist(&mut self, b: usize, s: u32, cell: M::Tag) {
        let region = &mut self.regions[b];
        let items = &mut self.items[region.start as usize..(region.start + region.len) as usize];
        let k = items.iter().position(|item| item.slot == s && item.cell == cell);
        debug_assert!(k.is_some(), "slot {s} is not listed in bucket {b}");
        if let Some(k) = k {
            items.copy_within(k + 1.., k);
            region.len -= 1;
        }
    }

    /// Adds `item` to bucket `b` in slot order (patchable layout), first moving the bucket to
    /// the end of the items with twice the room if it is full.
    fn list(&mut self, b: usize, item: Item<M::Tag>) {
        let mut region = self.regions[b];
        if region.len == region.cap {
            if region.cap == 0 {
                self.region_list.push(b as u32);
            }
            let start = self.items.len();
            let cap = 2 * region.cap + 2;
            self.items.extend_from_within(region.start as usize..(region.start + region.len) as usize);
            self.items.resize(start + cap as usize, item);
            region = Region { start: start as u32, len: region.len, cap };
        }
        let items = &mut self.items[region.start as usize..(region.start + region.len + 1) as usize];
        let mut k = region.len as usize;
        while k > 0 && items[k - 1].slot > item.slot {
            items[k] = items[k - 1];
            k -= 1;
        }
        items[k] = item;
        region.len += 1;
        self.regions[b] = region;
    }

    /// The first pass of every rebuild: records each live box's cell range and whether it is
    /// big (the big ones go to `big`), lists the others in `listed` and hands each one's range
    /// to `count`. Returns the number of cell entries. Works on the fields it needs, so the
    /// compiler keeps them in registers.
    #[inline(always)]
    fn measure(&mut self, mut count: impl FnMut(&M, &mut [u32], &mut Vec<u32>, [i32; 4]), table: Table) -> usize {
        let n = self.slots.capacity();
        self.ranges.resize(n, [0; 4]);
        self.is_big.resize(n, false);
        self.stamps.resize(n, 0);
        self.big.clear();
        // Written by position, then cut to length: no capacity check per box.
        self.listed.resize(n, 0);
        self.in_lists.resize(n, false);
        self.bounds_current = false;
        let (map, big, listed) = (&self.map, &mut self.big, &mut self.listed[..]);
        let mut len = 0;
        let (table, occupied) = match table {
            Table::Starts => (&mut self.starts[..], &mut self.occupied),
            Table::Counts => (&mut self.counts[..], &mut self.occupied),
        };
        let mut entries = 0usize;
        let boxes = self.slots.live_flags().iter().zip(&self.slots.aabbs);
        let flags = self.is_big.iter_mut().zip(self.in_lists.iter_mut());
        for (s, ((&live, aabb), (range, (is_big, in_lists)))) in
            boxes.zip(self.ranges.iter_mut().zip(flags)).enumerate()
        {
            *in_lists = false;
            if !live {
                continue;
            }
            let r = map.range(aabb);
            *range = r;
            let cells = cells_in(&r);
            *is_big = cells > BIG_CELLS;
            *in_lists = !*is_big;
            if *is_big {
                big.push(s as u32);
                continue;
            }
            entries += cells as usize;
            listed[len] = s as u32;
            len += 1;
            count(map, table, occupied, r);
        }
        self.listed.truncate(len);
        entries
    }

    /// The sparse build: counts per touched bucket (remembering which), a running sum over
    /// the touched buckets only, the same back-to-front fill as the dense build, then the
    /// touched counters back to zero. Each bucket's items are still ascending by slot, and
    /// their runs lie in the order the buckets were first touched.
    fn reindex_sparse(&mut self) {
        self.counts.resize(self.map.buckets() + self.map.width_step() + 1, 0);
        self.occupied.clear();
        let entries = self.measure(
            |map, counts, occupied, r| {
                let (width, step) = ((r[2] - r[0]) as usize + 1, map.width_step());
                let mut row = map.bucket(r[0], r[1]);
                if width <= 2 && r[3] - r[1] <= 1 {
                    // At most two by two cells, with no loop and no branch (as in `fill`): the
                    // four buckets are appended, and the end moves on past a bucket only if
                    // the box is in it and it was empty.
                    let (wide, tall) = (width == 2, r[3] > r[1]);
                    let mut end = occupied.len();
                    occupied.extend_from_slice(&[0; 4]);
                    for (bucket, take) in
                        [(row, true), (row + 1, wide), (row + step, tall), (row + step + 1, wide & tall)]
                    {
                        let c = counts[bucket];
                        occupied[end] = bucket as u32;
                        end += usize::from(take & (c == 0));
                        counts[bucket] = c + u32::from(take);
                    }
                    occupied.truncate(end);
                    return;
                }
                for _ in r[1]..=r[3] {
                    for (k, c) in counts[row..row + width].iter_mut().enumerate() {
                        if *c == 0 {
                            occupied.push((row + k) as u32);
                        }
                        *c += 1;
                    }
                    row += step;
                }
            },
            Table::Counts,
        );
        // Counters become the end of each bucket's run; the fill moves them back to the start.
        self.crowded.clear();
        let mut sum = 0u32;
        for &b in &self.occupied {
            let c = &mut self.counts[b as usize];
            if *c >= 2 {
                self.crowded.push((sum, sum + *c));
            }
            sum += *c;
            *c = sum;
        }
        self.fill(entries, Table::Counts);
        for &b in &self.occupied {
            self.counts[b as usize] = 0;
        }
        self.entries = entries;
        self.dense = false;
        self.patched = false;
        self.dirty = false;
        self.boxes_current = false;
        self.copies_current = false;
    }

    /// The last pass of every rebuild: each listed box, last slot first, into its buckets,
    /// each filled from its back (`table` holds the end of each bucket's run and ends up
    /// holding its start), so each bucket lists its slots ascending.
    #[inline(always)]
    fn fill(&mut self, entries: usize, table: Table) {
        let filler = Item { slot: 0, first: 0, cell: M::tag(0, 0) };
        // Every item is overwritten below, but for the patchable layout's room to grow, which
        // is never read: only the length needs setting. One more item at the end takes the
        // two-by-two path's writes for cells a box does not cover.
        self.items.resize(entries + 1, filler);
        let (map, items, ranges) = (&self.map, &mut self.items[..], &self.ranges[..]);
        let cursor = match table {
            Table::Starts => &mut self.starts[..],
            Table::Counts => &mut self.counts[..],
        };
        let step = map.width_step();
        for &s in self.listed.iter().rev() {
            let [x0, y0, x1, y1] = ranges[s as usize];
            if M::UNIQUE_CELLS && x1 - x0 <= 1 && y1 - y0 <= 1 {
                // At most two by two cells: the four cells in turn with no loop and no branch,
                // a cell the box misses leaving its cursor as it is and writing to the spare
                // item at the end.
                let b = map.bucket(x0, y0);
                let (wide, tall) = (x1 > x0, y1 > y0);
                for (bucket, take, first) in
                    [(b, true, 3), (b + 1, wide, 2), (b + step, tall, 1), (b + step + 1, wide & tall, 0)]
                {
                    let c = cursor[bucket] - u32::from(take);
                    cursor[bucket] = c;
                    let at = if take { c as usize } else { entries };
                    items[at] = Item { slot: s, first, cell: M::tag(x0, y0) };
                }
            } else if M::UNIQUE_CELLS {
                // A grid row of the range is a run of consecutive buckets.
                let width = (x1 - x0) as usize + 1;
                let mut row = map.bucket(x0, y0);
                let mut first_row = 2;
                for y in y0..=y1 {
                    for (k, c) in cursor[row..row + width].iter_mut().enumerate() {
                        *c -= 1;
                        let first = u32::from(k == 0) | first_row;
                        items[*c as usize] = Item { slot: s, first, cell: M::tag(x0 + k as i32, y) };
                    }
                    row += step;
                    first_row = 0;
                }
            } else {
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let b = map.bucket(x, y);
                        cursor[b] -= 1;
                        let first = u32::from(x == x0) | (u32::from(y == y0) << 1);
                        items[cursor[b] as usize] = Item { slot: s, first, cell: M::tag(x, y) };
                    }
                }
            }
        }
        self.items.truncate(entries);
    }

    /// Rebuilds the cell lists from the current boxes if anything changed (or the last build
    /// was not dense), with the bucket-by-bucket `starts` table that queries read.
    fn reindex(&mut self) {
        if !self.dirty && self.dense {
            return;
        }
        self.build(false);
    }

    /// Makes the lists current for a box query, a ray or the debug view: patched in place when
    /// `pairs` keeps the patchable layout (so a frame of `pairs` and queries builds nothing
    /// twice), else rebuilt densely.
    fn reindex_for_queries(&mut self) {
        if self.patched && (!self.dirty || self.patch()) {
            return;
        }
        self.reindex();
    }

    /// Bucket `b`'s items, `start..end` in `items` (dense or patchable layout).
    #[inline(always)]
    fn bucket_span(&self, b: usize) -> (usize, usize) {
        if self.patched {
            let r = self.regions[b];
            (r.start as usize, (r.start + r.len) as usize)
        } else {
            (self.starts[b] as usize, self.starts[b + 1] as usize)
        }
    }

    /// Builds the cell lists from the current boxes: dense (each bucket's items right after
    /// the previous bucket's, `starts` marking them) or, with `room`, in the patchable layout
    /// (each bucket with room to grow, `regions` marking them).
    fn build(&mut self, room: bool) {
        // One pass computes each box's cell range and counts the bucket sizes. A hash sizes its
        // table from the previous count and counts again only when that was far off.
        let entries = loop {
            let buckets = self.map.buckets();
            self.starts.clear();
            // Past the last bucket: `starts[buckets]`, then padding that the two-by-two
            // paths below may add zeros to.
            self.starts.resize(buckets + self.map.width_step() + 1, 0);
            let entries = self.measure(
                |map, starts, _, r| {
                    let [x0, y0, x1, y1] = r;
                    if M::UNIQUE_CELLS && x1 - x0 <= 1 && y1 - y0 <= 1 {
                        // At most two by two cells (the usual case when the cell is at least the
                        // box size): four additions with no loop, whose trip counts of one or two
                        // the branch predictor cannot guess.
                        let (b, step) = (map.bucket(x0, y0), map.width_step());
                        let (wide, tall) = (u32::from(x1 > x0), u32::from(y1 > y0));
                        starts[b] += 1;
                        starts[b + 1] += wide;
                        starts[b + step] += tall;
                        starts[b + step + 1] += wide & tall;
                    } else if M::UNIQUE_CELLS {
                        let (width, step) = ((x1 - x0) as usize + 1, map.width_step());
                        let mut row = map.bucket(x0, y0);
                        for _ in y0..=y1 {
                            starts[row..row + width].iter_mut().for_each(|c| *c += 1);
                            row += step;
                        }
                    } else {
                        for y in y0..=y1 {
                            for x in x0..=x1 {
                                starts[map.bucket(x, y)] += 1;
                            }
                        }
                    }
                },
                Table::Starts,
            );
            self.single_cells = entries == self.listed.len();
            if self.map.fits(entries) {
                break entries;
            }
            self.map.resize(entries);
        };
        // Counts become the end of each bucket's run; the fill moves them back to the starts
        // (a counting sort with no separate cursor array).
        // The same pass lists the buckets holding two entries or more: `pairs` walks only
        // those, so a sparse grid (few boxes, many cells) costs little there.
        let buckets = self.map.buckets();
        self.crowded.clear();
        let mut sum = 0u32;
        if room {
            // Each used bucket's region: its count, then room to grow; the fill starts at the
            // end of the count.
            self.regions.clear();
            self.regions.resize(buckets, Region::default());
            self.region_list.clear();
            for (b, c) in self.starts[..buckets].iter_mut().enumerate() {
                let count = *c;
                if count == 0 {
                    continue;
                }
                if count >= 2 {
                    self.crowded.push((sum, sum + count));
                }
                let cap = room_for(count);
                self.regions[b] = Region { start: sum, len: count, cap };
                self.region_list.push(b as u32);
                *c = sum + count;
                sum += cap;
            }
        } else {
            for c in &mut self.starts[..buckets] {
                if *c >= 2 {
                    self.crowded.push((sum, sum + *c));
                }
                sum += *c;
                *c = sum;
            }
            self.starts[buckets] = entries as u32;
        }
        self.fill(sum as usize, Table::Starts);
        self.entries = entries;
        self.built_len = sum as usize;
        self.dense = !room;
        self.patched = room;
        self.dirty = false;
        self.boxes_current = false;
        self.copies_current = false;
    }

    /// The union of all live boxes (computed once per change, on a ray's demand).
    fn bounds(&mut self) -> Option<Aabb> {
        if !self.bounds_current {
            self.bounds = self.slots.live_slots().map(|s| self.slots.aabbs[s as usize]).reduce(|a, b| a.union(&b));
            self.bounds_current = true;
        }
        self.bounds
    }

    /// Row `y` of the cell range `r` in a grid, whose cells are consecutive buckets: its entries
    /// run from `start` to `end`, the first column's up to `split`, and `row_need` is the flag an
    /// entry below the range's first row needs (bit 1: the box starts in this row). Counts the
    /// row's cells and entries into `stats`.
    #[inline(always)]
    fn row_run(&self, r: &[i32; 4], y: i32, stats: &mut QueryStats) -> (usize, usize, usize, u32) {
        stats.visited += (r[2] - r[0]) as u64 + 1;
        let row_need = if y == r[1] { 0 } else { 2 };
        let (b0, b1) = (self.map.bucket(r[0], y), self.map.bucket(r[2], y));
        let (start, split, end) =
            (self.starts[b0] as usize, self.starts[b0 + 1] as usize, self.starts[b1 + 1] as usize);
        stats.candidates += (end - start) as u64;
        (start, split, end, row_need)
    }

    #[inline]
    fn bucket_items(&self, x: i32, y: i32) -> &[Item<M::Tag>] {
        let (start, end) = self.bucket_span(self.map.bucket(x, y));
        &self.items[start..end]
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        self.reindex_for_queries();
        out.clear();
        let mut stats = QueryStats::default();
        let slots = &self.slots;
        self.collect(area, &mut stats, &mut |s| out.push(slots.id(s)));
        if !out.is_sorted() {
            out.sort_unstable();
        }
        stats.hits = out.len() as u64;
        stats
    }

    /// All the box queries of [`SpatialIndex::query_aabbs`] after one reindex, with no
    /// per-query set-up: each area's hits are appended and put in id order (usually they
    /// already are, since cells and the lists in them are both walked in slot order).
    fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
        self.reindex_for_queries();
        out.clear();
        let mut stats = QueryStats::default();
        let slots = &self.slots;
        for (i, area) in areas.iter().enumerate() {
            let start = out.len();
            let (mut last, mut sorted) = (0u32, true);
            self.collect(area, &mut stats, &mut |s| {
                sorted &= s >= last;
                last = s;
                out.push((i, slots.id(s)));
            });
            if !sorted {
                out[start..].sort_unstable();
            }
        }
        stats.hits = out.len() as u64;
        stats
    }

    /// [`SpatialIndex::pairs_with`]: the batch query of [`Cells::query_aabbs`], written as pairs.
    ///
    /// When every listed box lies in one cell (tiles on a lattice of the cell size, the usual
    /// static level), each row of a box's cell range is one run of items, each a distinct proxy,
    /// so no first-cell test is needed. Then the work goes in two passes, so that the memory
    /// reads of different boxes overlap instead of waiting on one another: the first finds
    /// every box's runs (reading only `starts`), the second tests the runs' items and writes
    /// the candidates straight into `out` with no branch on the outcome (the end moves on only
    /// for a hit; `out`'s old contents serve as the buffer, so it is re-sized only to grow).
    /// Lists that `pairs` keeps patched are read as they are, box by box through `collect`.
    fn pairs_with(&mut self, ids: &[ProxyId], areas: &[Aabb], out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.reindex_for_queries();
        let mut stats = QueryStats::default();
        // The run walks below read `starts` (dense lists); patched lists take `collect`.
        let dense = M::UNIQUE_CELLS && self.dense;
        let fast = dense && self.single_cells;
        if fast && !self.boxes_current {
            let slots = &self.slots;
            self.item_boxes.clear();
            self.item_boxes
                .extend(self.items.iter().map(|item| (slots.aabbs[item.slot as usize], slots.id(item.slot))));
            self.items_ascending = self.items.is_sorted_by_key(|item| item.slot);
            self.boxes_current = true;
        }
        if dense && !fast && !self.copies_current {
            let aabbs = &self.slots.aabbs;
            self.item_copies.clear();
            self.item_copies.extend(self.items.iter().map(|item| (aabbs[item.slot as usize], item.slot, item.first)));
            self.copies_current = true;
        }
        let areas = &areas[..areas.len().min(ids.len())];
        // Pass 1: each box's runs of items, one per row of its cell range (written by
        // position into a buffer that only grows).
        self.run_ends.clear();
        let scan_above = self.slots.len() as u64 + BIG_CELLS;
        let mut used = 0;
        for area in areas {
            let r = self.map.range(area);
            let cells = cells_in(&r);
            if !fast || cells > scan_above {
                self.run_ends.push(u32::MAX);
                continue;
            }
            stats.visited += cells;
            let (width, rows) = ((r[2] - r[0]) as usize + 1, (r[3] - r[1]) as usize + 1);
            if self.runs.len() < used + rows {
                self.runs.resize((used + rows).max(2 * self.runs.len()), (0, 0));
            }
            let mut b0 = self.map.bucket(r[0], r[1]);
            for run in &mut self.runs[used..used + rows] {
                *run = (self.starts[b0], self.starts[b0 + width]);
                b0 += self.map.width_step();
            }
            used += rows;
            self.run_ends.push(used as u32);
        }
        // Pass 2: the items of those runs.
        let filler = (ProxyId::from_bits(0), ProxyId::from_bits(0));
        let mut n = 0;
        let mut run = 0;
        for ((&id, area), &run_end) in ids.iter().zip(areas).zip(&self.run_ends) {
            let first = n;
            if run_end == u32::MAX {
                // Boxes spanning several cells (or a query past the scan limit): `collect`,
                // which takes each entry in its first cell shared with the area.
                let slots = &self.slots;
                out.truncate(n);
                let (mut last, mut sorted) = (0, true);
                let mut hit = |s: u32| {
                    sorted &= s >= last;
                    last = s;
                    out.push((id, slots.id(s)));
                };
                let r = self.map.range(area);
                if dense && cells_in(&r) <= scan_above {
                    // `collect`'s row walk, on the copies.
                    for y in r[1]..=r[3] {
                        let (start, split, end, row_need) = self.row_run(&r, y, &mut stats);
                        for (copies, need) in
                            [(&self.item_copies[start..split], row_need), (&self.item_copies[split..end], row_need | 1)]
                        {
                            for &(b, slot, first) in copies {
                                let take = (first & need == need)
                                    & (b.min.x <= area.max.x)
                                    & (area.min.x <= b.max.x)
                                    & (b.min.y <= area.max.y)
                                    & (area.min.y <= b.max.y);
                                if take {
                                    hit(slot);
                                }
                            }
                        }
                    }
                    for &s in &self.big {
                        stats.candidates += 1;
                        if slots.aabbs[s as usize].overlaps(area) {
                            hit(s);
                        }
                    }
                } else {
                    self.collect(area, &mut stats, &mut hit);
                }
                n = out.len();
                if !sorted {
                    out[first..].sort_unstable();
                }
                continue;
            }
            let area = *area;
            let mut unsorted = false;
            for &(start, end) in &self.runs[run..run_end as usize] {
                let (start, end) = (start as usize, end as usize);
                let k = end - start;
                if out.len() < n + k {
                    out.resize(n + k + 64, filler);
                }
                let dst = &mut out[n..n + k];
                let mut j = 0;
                for &(b, static_id) in &self.item_boxes[start..end] {
                    let hit = (b.min.x <= area.max.x)
                        & (area.min.x <= b.max.x)
                        & (b.min.y <= area.max.y)
                        & (area.min.y <= b.max.y);
                    dst[j] = (id, static_id);
                    j += usize::from(hit);
                }
                n += j;
                stats.candidates += k as u64;
            }
            // Rows come bottom to top and each row's cells left to right: in id order when the
            // whole list is, else it is checked.
            unsorted |= !self.items_ascending && !out[first..n].is_sorted();
            run = run_end as usize;
            for &s in &self.big {
                stats.candidates += 1;
                if self.slots.aabbs[s as usize].overlaps(&area) {
                    out.truncate(n);
                    out.push((id, self.slots.id(s)));
                    n += 1;
                    unsorted = true;
                }
            }
            if unsorted {
                out[first..n].sort_unstable();
            }
        }
        out.truncate(n);
        stats.hits = n as u64;
        stats
    }

    /// Calls `hit(slot)` once for each proxy whose box overlaps `area` (the lists must be
    /// current). Slots come in cell order, not necessarily ascending.
    #[inline]
    fn collect(&self, area: &Aabb, stats: &mut QueryStats, hit: &mut impl FnMut(u32)) {
        let r = self.map.range(area);
        if cells_in(&r) > self.slots.len() as u64 + BIG_CELLS {
            // More cells than boxes: scanning the boxes is cheaper and gives the same answer.
            for s in self.slots.live_slots() {
                if self.is_big[s as usize] {
                    continue;
                }
                stats.visited += 1;
                stats.candidates += 1;
                if self.slots.aabbs[s as usize].overlaps(area) {
                    hit(s);
                }
            }
        } else if M::UNIQUE_CELLS && !self.patched {
            // Each entry is taken only in the first cell it shares with the query (the cell at
            // the larger of the two lower corners), so a box listed in several cells comes out
            // once without query stamps. In a grid the cells of one row of the range are
            // consecutive buckets, so their lists form one run of items: the entries of the
            // range's first column are taken whatever their column flag, the others only when
            // the box starts in their column (flag bit 0); below the first row, only when it
            // starts in their row (bit 1).
            for y in r[1]..=r[3] {
                let (start, split, end, row_need) = self.row_run(&r, y, stats);
                // The first column's entries, then the rest; one branch per entry, on the hit.
                for (items, need) in [(&self.items[start..split], row_need), (&self.items[split..end], row_need | 1)] {
                    for item in items {
                        let b = &self.slots.aabbs[item.slot as usize];
                        let take = (item.first & need == need)
                            & (b.min.x <= area.max.x)
                            & (area.min.x <= b.max.x)
                            & (b.min.y <= area.max.y)
                            & (area.min.y <= b.max.y);
                        if take {
                            hit(item.slot);
                        }
                    }
                }
            }
        } else {
            // As above, cell by cell (a hash, or lists in the patchable layout, whose buckets
            // do not follow one another): a hash bucket mixes cells, so each entry also checks
            // it was listed for this cell.
            for y in r[1]..=r[3] {
                let first_row = y == r[1];
                for x in r[0]..=r[2] {
                    stats.visited += 1;
                    let first_col = x == r[0];
                    for item in self.bucket_items(x, y) {
                        if (!M::UNIQUE_CELLS && item.cell != M::tag(x, y))
                            || !(first_col || item.first & 1 != 0)
                            || !(first_row || item.first & 2 != 0)
                        {
                            continue;
                        }
                        stats.candidates += 1;
                        if self.slots.aabbs[item.slot as usize].overlaps(area) {
                            hit(item.slot);
                        }
                    }
                }
            }
        }
        for &s in &self.big {
            stats.candidates += 1;
            if self.slots.aabbs[s as usize].overlaps(area) {
                hit(s);
            }
        }
    }

    /// Visits, in order of increasing `t`, the cells along `ray` and offers each proxy met
    /// (once) to `visit(id, t_entry)`; `visit` returns the `t` past which nothing more is
    /// wanted (infinity to see everything). Falls back to a scan of all boxes when the walk
    /// would cross more cells than there are boxes.
    fn walk_ray(&mut self, ray: &Ray, stats: &mut QueryStats, visit: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.reindex_for_queries();
        let Some(bounds) = self.bounds() else { return };
        let mut cutoff = f32::INFINITY;
        for &s in &self.big {
            stats.candidates += 1;
            if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                cutoff = cutoff.min(visit(self.slots.id(s), t));
            }
        }
        let Some((t0, t1)) = ray.span_in(&bounds) else { return };
        // March along the axis the ray moves most on, one column of cells at a time.
        let m = if ray.dir.x.abs() >= ray.dir.y.abs() { 0 } else { 1 };
        let n = 1 - m;
        let (lim_lo, lim_hi) = self.map.limits(m);
        let (nlo, nhi) = self.map.limits(n);
        let step: i32 = if ray.dir[m] > 0.0 { 1 } else { -1 };
        // A margin of `eps` (world units) at both ends and on both sides of each column: a box
        // is listed in the cell of its entry point (the cells of a closed box contain every
        // point of it, and cell coordinates grow with the point), and the ray's computed points
        // and column times are off from the true ones by at most a few units in the last place
        // of the coordinates and of `t·dir`, which `eps` bounds with room to spare. Near the
        // origin that is a sliver of a cell; far from it, it can be several cells.
        let reach = ray.origin.abs().max_element() + ray.dir.abs().max_element() * t0.abs().max(t1.abs());
        let eps = (reach + self.map.cell_size()) * (16.0 * f32::EPSILON);
        let ahead = eps.copysign(ray.dir[m]);
        let c0 = self.map.coord(ray.at(t0)[m] - ahead, m).clamp(lim_lo, lim_hi);
        let c1 = self.map.coord(ray.at(t1)[m] + ahead, m).clamp(lim_lo, lim_hi);
        let columns = (i64::from(c1) - i64::from(c0)).unsigned_abs() + 1;
        let slope = (ray.dir[n] / ray.dir[m]).abs();
        let rows = (slope + 2.0 + 2.0 * eps * self.map.inv_cell()).min(1.0e9) as u64;
        if columns.saturating_mul(rows) > 2 * self.slots.len() as u64 + BIG_CELLS {
            for s in 0..self.slots.capacity() as u32 {
                if !self.slots.is_live(s) || self.is_big[s as usize] {
                    continue;
                }
                stats.candidates += 1;
                if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                    visit(self.slots.id(s), t);
                }
            }
            stats.visited += stats.candidates;
            return;
        }
        let stamp = self.next_stamp();
        let inv = 1.0 / ray.dir[m];
        // A column's computed entry time is off by at most this.
        let t_eps = eps * inv.abs();
        let mut c = c0;
        loop {
            let (lo, hi) = self.map.span(c, m);
            let (ta, tb) = ((lo - ray.origin[m]) * inv, (hi - ray.origin[m]) * inv);
            let (ta, tb) = (ta.min(tb).clamp(t0, t1), ta.max(tb).clamp(t0, t1));
            // Every box met from here on is entered past the cutoff: stop.
            if ta > cutoff + t_eps {
                break;
            }
            let (na, nb) = (ray.at(ta)[n], ray.at(tb)[n]);
            let r0 = self.map.coord(na.min(nb) - eps, n).max(nlo);
            let r1 = self.map.coord(na.max(nb) + eps, n).min(nhi);
            for r in r0..=r1 {
                stats.visited += 1;
                let (x, y) = if m == 0 { (c, r) } else { (r, c) };
                let (start, end) = self.bucket_span(self.map.bucket(x, y));
                for k in start..end {
                    let item = self.items[k];
                    let st = &mut self.stamps[item.slot as usize];
                    if *st == stamp {
                        continue;
                    }
                    *st = stamp;
                    stats.candidates += 1;
                    if let Some(t) = self.slots.aabbs[item.slot as usize].ray_entry(ray) {
                        cutoff = cutoff.min(visit(self.slots.id(item.slot), t));
                    }
                }
            }
            if c == c1 {
                break;
            }
            c += step;
        }
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        let mut stats = QueryStats::default();
        let mut best: Option<RayHit> = None;
        self.walk_ray(ray, &mut stats, &mut |id, t| {
            let hit = RayHit { id, t };
            if best.is_none_or(|b| hit.before(&b)) && filter(hit.id) {
                best = Some(hit);
            }
            best.map_or(f32::INFINITY, |b| b.t)
        });
        stats.hits = u64::from(best.is_some());
        (best, stats)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        out.clear();
        let mut stats = QueryStats::default();
        self.walk_ray(ray, &mut stats, &mut |id, t| {
            if filter(id) {
                out.push(RayHit { id, t });
            }
            f32::INFINITY
        });
        sort_hits(out);
        stats.hits = out.len() as u64;
        stats
    }

    /// The full pair set, bucket by bucket: two boxes listed in the same cell are tested there,
    /// and reported only if that cell is the first cell both touch (the one at the larger of
    /// their lower corners), so each pair comes out exactly once without query stamps. The
    /// walk reads the cell lists front to back; `PairSort` then puts the pairs in id order (or,
    /// for `pairs_unsorted`, leaves them in the walk's order).
    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.reindex_for_pairs();
        out.clear();
        let mut stats = QueryStats::default();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let (mut cand, mut n) = (core::mem::take(&mut self.cand), 0);
        // A box table bigger than the cache: each bucket's boxes are read from all over it, so
        // the reads of a bucket a few ahead are started now, to arrive by the time it is tested.
        let prefetching = self.slots.capacity() > PREFETCH_ABOVE;
        for (c, &(lo, hi)) in self.crowded.iter().enumerate() {
            if prefetching && let Some(&(plo, phi)) = self.crowded.get(c + PREFETCH_AHEAD) {
                let aabbs = self.slots.aabbs.as_ptr();
                for item in &self.items[plo as usize..phi as usize] {
                    prefetch(aabbs.wrapping_add(item.slot as usize));
                }
            }
            let items = &self.items[lo as usize..hi as usize];
            stats.visited += 1;
            let k = items.len();
            stats.candidates += (k * (k - 1) / 2) as u64;
            // Branch-free: room for every candidate of the bucket (the buffer only grows, so
            // this is rarely a call), each written, and the end moved on only for a hit. A
            // bucket lists its slots ascending, so `p.slot < q.slot`.
            let need = n + k * (k - 1) / 2;
            if cand.len() < need {
                cand.resize(need.max(2 * cand.len()), 0);
            }
            let aabbs = &self.slots.aabbs[..];
            // (The last entry has no later partner: it is only a `q`.)
            for (i, p) in items[..k - 1].iter().enumerate() {
                let key = u64::from(p.slot) << bits;
                let pb = aabbs[p.slot as usize];
                for q in &items[i + 1..] {
                    let qb = &aabbs[q.slot as usize];
                    let hit = (M::UNIQUE_CELLS || p.cell == q.cell)
                        & ((p.first | q.first) == 3)
                        & (pb.min.x <= qb.max.x)
                        & (qb.min.x <= pb.max.x)
                        & (pb.min.y <= qb.max.y)
                        & (qb.min.y <= pb.max.y);
                    cand[n] = key | u64::from(q.slot);
                    n += usize::from(hit);
                }
            }
        }
        for &a in &self.big {
            // A big box is a box query over its cells (or a scan of all boxes when it covers
            // more cells than there are boxes); two big boxes pair once, from the smaller.
            let box_a = self.slots.aabbs[a as usize];
            let is_big = &self.is_big;
            self.collect(&box_a, &mut stats, &mut |b| {
                if !is_big[b as usize] || b > a {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    if n == cand.len() {
                        cand.resize(2 * n + 16, 0);
                    }
                    cand[n] = (u64::from(lo) << bits) | u64::from(hi);
                    n += 1;
                }
            });
        }
        self.pair_sort.sort_into(&cand[..n], bits, &self.slots, out, order);
        self.cand = cand;
        stats.hits = out.len() as u64;
        stats
    }

    fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
        self.reindex_for_queries();
        let mut cells: Vec<(i32, i32)> = Vec::new();
        for s in self.slots.live_slots() {
            if self.is_big[s as usize] {
                continue;
            }
            let [x0, y0, x1, y1] = self.ranges[s as usize];
            for y in y0..=y1 {
                for x in x0..=x1 {
                    cells.push((x, y));
                }
            }
        }
        cells.sort_unstable();
        cells.dedup();
        for (x, y) in cells {
            visit(self.map.cell_rect(x, y), self.bucket_items(x, y).len() as u32);
        }
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.dirty = true;
        self.slots.insert(aabb)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        let (_, aabb) = self.slots.remove(id)?;
        self.dirty = true;
        Ok(aabb)
    }

    #[inline]
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        self.dirty = true;
        Ok(())
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.dirty = true;
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }
}

macro_rules! cell_index {
    ($ty:ident) => {
        impl SpatialIndex for $ty {
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
                self.0.raycast(ray, filter)
            }
            fn raycast_all(
                &mut self,
                ray: &Ray,
                filter: &mut dyn FnMut(ProxyId) -> bool,
                out: &mut Vec<RayHit>,
            ) -> QueryStats {
                self.0.raycast_all(ray, filter, out)
            }
            fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
                self.0.pairs(out, Order::Ids)
            }
            fn pairs_unsorted(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
                self.0.pairs(out, Order::Found)
            }
            fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
                self.0.debug_view(visit)
            }
        }
    };
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
pub struct Grid(Cells<GridMap>);

impl Grid {
    /// The largest number of cells a grid may have (2²⁶).
    pub const MAX_CELLS: usize = 1 << 26;

    /// A grid of `width × height` cells of side `cell_size` whose lower-left corner is `origin`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] / [`Error::OutOfRange`] for a bad origin or cell size,
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
        Self::new(area.min, cell, cells.x as u32, cells.y as u32)
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

cell_index!(Grid);

/// An unbounded spatial hash: a uniform grid whose cells are hashed into a table of prime size.
///
/// No bounds to choose; memory follows the number of boxes. The table is re-sized at each
/// full rebuild (a patch that would leave it far off the target size rebuilds) to the
/// smallest prime at least `table_factor ×` the number of cell entries
/// (default 2; the classic advice of 10× the object count trades memory for fewer shared
/// buckets), or fixed with [`SpatialHash::with_table_size`].
#[derive(Clone, Debug)]
pub struct SpatialHash(Cells<HashMap>);

impl SpatialHash {
    /// A hash of square cells of side `cell_size`, auto-sized table.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::BadConfig`] for a cell size that is not a positive
    /// finite number.
    pub fn new(cell_size: f32) -> Result<Self, Error> {
        let cell = check_cell_size(cell_size)?;
        Ok(Self(Cells::new(HashMap { cell, inv: 1.0 / cell, size: PRIMES[0], policy: TableSize::Auto(2.0) })))
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

cell_index!(SpatialHash);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn floor_is_monotone_and_saturates() {
        assert_eq!(floor_i32(-3.5), -4);
        assert_eq!(floor_i32(-3.0), -3);
        assert_eq!(floor_i32(2.9), 2);
        assert_eq!(floor_i32(1e30), i32::MAX);
        assert_eq!(floor_i32(-1e30), i32::MIN);
    }

    #[test]
    fn fast_grid_coordinates_match_floor_then_clamp() {
        let map = GridMap::new(vec2(-3.25, 7.5), 1.25, 40, 17);
        assert!(map.exact);
        let slow = |v: f32, axis: usize| {
            let (lo, hi) = map.limits(axis);
            floor_i32((v - map.origin[axis]) * map.inv).clamp(lo, hi)
        };
        let mut v = -80.0f32;
        while v < 80.0 {
            for axis in 0..2 {
                assert_eq!(map.coord(v, axis), slow(v, axis), "v = {v}, axis {axis}");
            }
            let b = Aabb::new(vec2(v, v * 0.5), vec2(v + 3.0, v * 0.5 + 1.0)).unwrap();
            assert_eq!(map.range(&b), [slow(b.min.x, 0), slow(b.min.y, 1), slow(b.max.x, 0), slow(b.max.y, 1)]);
            v += 0.0625;
        }
        for v in [-1e18, 1e18, -0.0, 0.0, f32::NAN] {
            assert_eq!(map.coord(v, 0), slow(v, 0));
        }
        // Past 2^24 cells on an axis the float clamp would round: the slow path is kept.
        assert!(!GridMap::new(Vec2::ZERO, 1.0, (1 << 24) + 3, 1).exact);
    }

    #[test]
    fn a_very_wide_grid_gives_the_brute_force_pairs() {
        let mut g = Grid::new(Vec2::ZERO, 1.0, (1 << 24) + 3, 1).unwrap();
        let mut brute = crate::BruteForce::default();
        for x in [0.0f32, 0.5, 16_777_215.5, 16_777_216.0, 16_777_217.5, 3e7] {
            let b = Aabb::new(vec2(x, 0.25), vec2(x + 1.0, 1.5)).unwrap();
            g.insert(b).unwrap();
            brute.insert(b).unwrap();
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        brute.pairs(&mut want);
        g.pairs(&mut got);
        assert_eq!(got, want);
        assert!(!want.is_empty());
    }

    #[test]
    fn a_sparse_grid_pairs_without_its_bucket_table_and_queries_rebuild_it() {
        let mut g = Grid::new(vec2(-50.0, -50.0), 1.0, 400, 400).unwrap();
        let mut brute = crate::BruteForce::default();
        let mut ids = Vec::new();
        for i in 0..60 {
            let (x, y) = ((i * 37 % 97) as f32, (i * 53 % 89) as f32 * 0.5);
            let b = Aabb::new(vec2(x, y), vec2(x + 1.5 + (i % 3) as f32, y + 2.0)).unwrap();
            ids.push((g.insert(b).unwrap(), brute.insert(b).unwrap()));
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for frame in 0..4 {
            brute.pairs(&mut want);
            g.pairs(&mut got);
            assert_eq!(got, want, "frame {frame}");
            // 160,000 cells for about 200 entries: `pairs` builds sparsely.
            assert!(!g.0.dense);
            let area = Aabb::new(vec2(10.0, 5.0), vec2(40.0, 30.0)).unwrap();
            let (mut want_q, mut got_q) = (Vec::new(), Vec::new());
            brute.query_aabb(&area, &mut want_q);
            g.query_aabb(&area, &mut got_q);
            assert_eq!(got_q, want_q);
            assert!(!want_q.is_empty());
            assert!(g.0.dense);
            for (k, &(gi, bi)) in ids.iter().enumerate() {
                let b = g.aabb(gi).unwrap();
                let d = vec2(((k + frame) % 5) as f32 * 0.3 - 0.6, 0.25);
                let moved = Aabb::new(b.min + d, b.max + d).unwrap();
                g.update(gi, moved).unwrap();
                brute.update(bi, moved).unwrap();
            }
        }
        // A big box sends `pairs` back to the dense build (it pairs through box queries).
        let huge = Aabb::new(vec2(0.0, 0.0), vec2(60.0, 60.0)).unwrap();
        g.insert(huge).unwrap();
        brute.insert(huge).unwrap();
        brute.pairs(&mut want);
        g.pairs(&mut got);
        assert_eq!(got, want);
        assert!(g.0.dense);
        assert!(g.0.counts.iter().all(|&c| c == 0));
    }

    /// A moving scene driven for `frames` frames against brute force: small moves (a box
    /// crosses a cell line now and then), a few inserts and removals, queries and rays
    /// between some `pairs` calls. Returns how many `pairs` calls patched the lists.
    fn drive_patched<I: SpatialIndex, M: CellMap>(index: &mut I, cells: fn(&I) -> &Cells<M>, frames: usize) -> usize {
        let mut brute = crate::BruteForce::default();
        let mut rand = crate::xorshift_unit(0x2545_f491_4f6c_dd1d);
        let mut ids = Vec::new();
        let mut boxes = Vec::new();
        for _ in 0..300 {
            let (c, h) = (vec2(rand() * 60.0, rand() * 60.0), vec2(0.2 + rand() * 1.5, 0.2 + rand() * 1.5));
            let b = Aabb::from_center(c, h).unwrap();
            ids.push((index.insert(b).unwrap(), brute.insert(b).unwrap()));
            boxes.push(b);
        }
        let (mut want, mut got, mut patched, mut answered) = (Vec::new(), Vec::new(), 0, 0);
        for frame in 0..frames {
            for (k, b) in boxes.iter_mut().enumerate() {
                // Every box drifts; one in eight of them towards a pile at (30, 30), so some
                // buckets outgrow their room.
                let d = if k % 8 == 0 {
                    (vec2(30.0, 30.0) - b.center()).clamp_length_max(0.3)
                } else {
                    vec2(rand() - 0.5, rand() - 0.5) * 0.4
                };
                *b = Aabb::new(b.min + d, b.max + d).unwrap();
                index.update(ids[k].0, *b).unwrap();
                brute.update(ids[k].1, *b).unwrap();
            }
            if frame % 5 == 2 {
                let k = (rand() * ids.len() as f32) as usize % ids.len();
                let (a, b) = ids.swap_remove(k);
                boxes.swap_remove(k);
                assert_eq!(index.remove(a).unwrap(), brute.remove(b).unwrap());
                let nb = Aabb::from_center(vec2(rand() * 60.0, rand() * 60.0), vec2(0.5, 0.7)).unwrap();
                let id = index.insert(nb).unwrap();
                assert_eq!(id, brute.insert(nb).unwrap());
                ids.push((id, id));
                boxes.push(nb);
            }
            let before = cells(index).patches;
            brute.pairs(&mut want);
            index.pairs(&mut got);
            assert_eq!(got, want, "frame {frame}");
            patched += cells(index).patches - before;
            if frame % 3 == 0 {
                let area = Aabb::new(vec2(rand() * 50.0, rand() * 50.0), vec2(55.0, 58.0)).unwrap();
                let (mut want_q, mut got_q) = (Vec::new(), Vec::new());
                brute.query_aabb(&area, &mut want_q);
                index.query_aabb(&area, &mut got_q);
                assert_eq!(got_q, want_q, "frame {frame}: query");
                let ray = Ray::new(vec2(-1.0, rand() * 60.0), vec2(1.0, rand() - 0.5), f32::INFINITY).unwrap();
                let (mut want_r, mut got_r) = (Vec::new(), Vec::new());
                brute.raycast_all(&ray, &mut |_| true, &mut want_r);
                index.raycast_all(&ray, &mut |_| true, &mut got_r);
                assert_eq!(got_r, want_r, "frame {frame}: ray");
                let areas = [area, Aabb::from_center(vec2(rand() * 60.0, rand() * 60.0), vec2(3.0, 2.0)).unwrap()];
                let outside = [ProxyId::from_bits(7), ProxyId::from_bits(9)];
                let (mut want_w, mut got_w) = (Vec::new(), Vec::new());
                brute.pairs_with(&outside, &areas, &mut want_w);
                index.pairs_with(&outside, &areas, &mut got_w);
                assert_eq!(got_w, want_w, "frame {frame}: pairs with");
                answered += usize::from(!want_q.is_empty() && !want_r.is_empty() && !want_w.is_empty());
                // The queries read the patchable layout as it is, with no dense rebuild (from
                // the second `pairs` on: the first one, with no count of entries yet, builds
                // a grid sparsely).
                assert!(frame == 0 || (cells(index).patched && !cells(index).dense), "frame {frame}");
            }
        }
        // Most query frames found something (the checks above compared real answers).
        assert!(answered > frames / 6, "{answered} query frames with answers");
        patched
    }

    #[test]
    fn patched_lists_give_the_brute_force_answers() {
        let mut grid = Grid::new(Vec2::ZERO, 2.0, 32, 32).unwrap();
        let patched = drive_patched(&mut grid, |g| &g.0, 120);
        // Most frames patch; the rest build afresh (the first, and after the pile-up has moved
        // enough buckets to the end of the items).
        assert!(patched > 90, "{patched} patches");
        assert!(grid.0.patched);
        let mut hash = SpatialHash::new(2.0).unwrap();
        let patched = drive_patched(&mut hash, |h| &h.0, 120);
        assert!(patched > 90, "{patched} patches");
    }

    #[test]
    fn buckets_that_outgrow_their_room_move_and_a_drifting_crowd_is_built_again() {
        // A crowd drifting steadily to the right across a grid, wrapping around: every bucket
        // fills and empties in turn, full buckets move to the end of the items, and once the
        // items pass twice their built size a build tidies them up.
        let mut g = Grid::new(Vec2::ZERO, 4.0, 24, 24).unwrap();
        let mut brute = crate::BruteForce::default();
        let mut ids = Vec::new();
        for i in 0..500u32 {
            let c = vec2((i * 37 % 96) as f32 + 0.3, (i * 11 % 90) as f32 * 1.05);
            let b = Aabb::from_center(c, vec2(0.4 + (i % 5) as f32 * 0.3, 0.6)).unwrap();
            ids.push((g.insert(b).unwrap(), brute.insert(b).unwrap(), b));
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        let (mut grew, mut built) = (false, 0);
        for frame in 0..500 {
            for (k, (a, b, aabb)) in ids.iter_mut().enumerate() {
                let mut d = vec2(0.05 + (k % 7) as f32 * 0.04, 0.0);
                if aabb.min.x > 92.0 {
                    d.x -= 90.0;
                }
                *aabb = Aabb::new(aabb.min + d, aabb.max + d).unwrap();
                g.update(*a, *aabb).unwrap();
                brute.update(*b, *aabb).unwrap();
            }
            let patches = g.0.patches;
            g.pairs(&mut got);
            brute.pairs(&mut want);
            assert_eq!(got, want, "frame {frame}");
            grew |= g.0.items.len() > g.0.built_len;
            built += usize::from(g.0.patches == patches);
        }
        assert!(grew, "no bucket outgrew its room");
        assert!(g.0.outgrown > 0, "the items never outgrew twice their built size");
        assert!(built < 10, "{built} builds in 500 frames");
    }

    #[test]
    fn table_sizes_are_prime() {
        for p in PRIMES {
            assert!((2..).take_while(|d| d * d <= p).all(|d| p % d != 0), "{p} is not prime");
        }
        assert!(PRIMES.windows(2).all(|w| w[1] > w[0]));
    }

    #[test]
    fn bad_configs_are_refused() {
        assert!(Grid::new(Vec2::ZERO, 0.0, 4, 4).is_err());
        assert!(Grid::new(Vec2::ZERO, f32::NAN, 4, 4).is_err());
        assert!(Grid::new(Vec2::ZERO, 1.0, 0, 4).is_err());
        assert!(Grid::new(Vec2::ZERO, 1.0, 1 << 14, 1 << 14).is_err());
        assert!(SpatialHash::new(-1.0).is_err());
        assert!(SpatialHash::new(1e-45).is_err());
        assert!(SpatialHash::with_table_size(1.0, 0).is_err());
        assert!(SpatialHash::new(1.0).unwrap().set_table_factor(f32::NAN).is_err());
    }

    #[test]
    fn each_bucket_lists_slots_ascending_and_big_boxes_stay_out() {
        let mut g = Grid::new(Vec2::ZERO, 1.0, 100, 100).unwrap();
        for i in 0..10 {
            g.insert(Aabb::new(vec2(i as f32 * 0.1, 0.0), vec2(2.0, 2.0)).unwrap()).unwrap();
        }
        let huge = g.insert(Aabb::new(vec2(-50.0, -50.0), vec2(500.0, 500.0)).unwrap()).unwrap();
        g.0.reindex();
        assert_eq!(g.0.big, [huge.index()]);
        let items = g.0.bucket_items(1, 1);
        assert_eq!(items.len(), 10);
        assert!(items.windows(2).all(|w| w[0].slot < w[1].slot));
        let mut pairs = Vec::new();
        g.pairs(&mut pairs);
        assert_eq!(pairs.len(), 45 + 10);
    }
}
