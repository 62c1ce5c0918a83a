//! The cell lists the grid and the hash share: one array of entries, bucket after bucket, the
//! state that says which table describes it and what is current, and the proxy bookkeeping
//! (insert, remove, update) that marks the lists stale.

use super::map::CellMap;
use crate::error::Error;
use crate::id::ProxyId;
use crate::pairs::{PairSort, PartKeys};
use crate::par::{Spare, Threads};
use crate::slots::Slots;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// A box spanning more cells than this is kept in the "big" list (tested by every query, paired
/// by a box query of its own) instead of being listed cell by cell.
pub const BIG_CELLS: u64 = 256;

/// The patch on several threads cuts the cell lists between threads only at multiples of this
/// many buckets (where the patchable build noted the items' offset).
pub(super) const BLOCK: usize = 1024;

/// A grid with more than this many cells per cell entry (at the previous build) gets the
/// sparse build for `pairs` instead of the patchable one, whose build walks every cell (and
/// whose region table takes 12 bytes a cell).
pub(super) const SPARSE_RATIO: usize = 32;

/// Which per-bucket table a rebuild counts in: `starts` (dense) or `counts` (sparse).
#[derive(Clone, Copy, Debug)]
pub(super) enum Table {
    Starts,
    Counts,
}

/// One entry of a cell list: the proxy's slot and where the cell lies in its box; the box
/// itself is read from the slot table. (Entries used to carry a copy of the box, 24 bytes
/// instead of 8: at 100k moving boxes the rebuild then scattered 6 MB a frame across memory,
/// and the copies cost more to write than the look-ups cost to read.)
#[derive(Clone, Copy, Debug)]
pub(super) struct Item<T> {
    pub(super) slot: u32,
    /// Bit 0: this cell is in the box's first column; bit 1: in its first row. Two boxes
    /// listed in one cell meet there first exactly when their flags together have both bits.
    pub(super) first: u32,
    /// The cell this entry was listed for, in a hash (a bucket mixes cells); nothing in a
    /// grid, whose entries are 8 bytes instead of 16.
    pub(super) cell: T,
}

/// Where one bucket's items lie in the patchable layout: `items[start..start + len]`, with room
/// up to `start + cap`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Region {
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) cap: u32,
}

/// The room a bucket of `count` items gets in the patchable layout: a box can move in a few
/// times before the bucket has to move to the end of the items.
#[inline(always)]
pub(super) fn room_for(count: u32) -> u32 {
    count + 2 + count / 4
}

/// Which table describes where each bucket's items lie in `items`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// Only `crowded` does (nothing built yet, or the sparse build of `pairs`): enough for
    /// `pairs`; a query rebuilds densely first.
    Runs,
    /// The dense layout: each bucket's items right after the previous bucket's, bucket `b`'s
    /// at `starts[b]..starts[b + 1]`. Queries read it; `pairs` with big boxes keeps it.
    Dense {
        /// Every listed box lies in one cell (tiles on a lattice of the cell size): each proxy
        /// appears once in the lists, and a box query needs no first-cell test.
        single_cells: bool,
    },
    /// The patchable layout `pairs` keeps for a crowded world: each bucket's items in its
    /// `regions[b]`, with room to grow, so the next reindex moves only the entries of the
    /// boxes that changed cells instead of rebuilding the lists. Queries read it as it is.
    Patchable,
}

/// The union of all live boxes, kept for rays only, so computed on a ray's demand rather than
/// at every reindex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Bounds {
    /// The boxes changed since it was last computed.
    Stale,
    /// The union of the live boxes (`None` when there are none).
    Known(Option<Aabb>),
}

/// Which per-item copy of the boxes that `pairs_with` reads beside the dense `items` is
/// current. A build makes both stale; `pairs_with` builds the one it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Beside {
    /// Neither.
    Stale,
    /// `item_boxes` (each item's box and id, for single-cell boxes). `ascending`: `items`
    /// lists the slots in ascending order from first to last (tiles inserted row by row into a
    /// grid), so a row-by-row walk meets any box's partners in id order.
    Boxes {
        /// Whether `items` lists the slots in ascending order.
        ascending: bool,
    },
    /// `item_copies` (each item with a copy of its box, for boxes spanning several cells).
    Copies,
}

/// The shared machinery of [`Grid`] and [`SpatialHash`].
#[derive(Clone, Debug)]
pub(crate) struct Cells<M: CellMap> {
    pub(super) slots: Slots,
    pub(super) map: M,
    /// Cell range of each slot at the last reindex (`[x0, y0, x1, y1]`).
    pub(super) ranges: Vec<[i32; 4]>,
    /// Whether each slot was big at the last reindex.
    pub(super) is_big: Vec<bool>,
    pub(super) big: Vec<u32>,
    /// `starts[b]..starts[b + 1]` are bucket `b`'s items.
    pub(super) starts: Vec<u32>,
    /// The item runs (`start..end` in `items`) of the buckets with two items or more: all
    /// `pairs` walks (not kept in the patchable layout, where `pairs` reads the regions of
    /// `region_list`).
    pub(super) crowded: Vec<(u32, u32)>,
    /// The patchable layout's region of each bucket (empty for a bucket never used).
    pub(super) regions: Vec<Region>,
    /// The buckets with a region, in the order `items` first held them.
    pub(super) region_list: Vec<u32>,
    /// The number of cell entries (in the patchable layout `items` also holds room to grow).
    pub(super) entries: usize,
    /// The length of `items` at the last patchable build: a patch that finds the items grown
    /// past twice that (buckets moved to the end) builds afresh.
    pub(super) built_len: usize,
    /// Where the last patchable build put the items of bucket `j * BLOCK` (for each `j`), and
    /// `built_len` last: the patch on several threads cuts the lists there.
    pub(super) block_starts: Vec<u32>,
    /// Whether each slot is listed in the cells (live and not big at the last build or patch).
    pub(super) in_lists: Vec<bool>,
    /// The patch's slots whose cells changed, with their new range and whether they are listed.
    pub(super) moved: Vec<(u32, [i32; 4], bool)>,
    /// How many times the lists were patched rather than built (tests check the path is taken).
    #[cfg(test)]
    pub(super) patches: usize,
    /// How many times a patch gave way to a build because the items had outgrown their size.
    #[cfg(test)]
    pub(super) outgrown: usize,
    /// How many patches moved the entries on several threads, and how many of those moves
    /// were left to the calling thread (tests check both paths are taken).
    #[cfg(test)]
    pub(super) split_moves: (usize, usize),
    /// Sparse build only: per-bucket counters, all zero between builds.
    pub(super) counts: Vec<u32>,
    /// Sparse build only: the buckets in use, in the order `items` holds them.
    pub(super) occupied: Vec<u32>,
    pub(super) items: Vec<Item<M::Tag>>,
    pub(super) stamps: Vec<u32>,
    pub(super) stamp: u32,
    /// The live slots of ordinary size at the last reindex, ascending (the fill walks them).
    pub(super) listed: Vec<u32>,
    /// Which table describes where each bucket's items lie in `items`.
    pub(super) layout: Layout,
    /// Whether a box was inserted, moved or removed since the lists were last built or
    /// patched (the next query or `pairs` brings them up to date first).
    pub(super) dirty: bool,
    /// The union of all live boxes (rays are clipped to it), computed on a ray's demand.
    pub(super) bounds: Bounds,
    /// Candidate pair keys of `pairs`, hits first (grows, never shrinks).
    pub(super) cand: Vec<u64>,
    /// Sorts `pairs`' keys into id pairs.
    pub(super) pair_sort: PairSort,
    /// The box and id of each item's proxy, beside `items` (built by `pairs_with` when stale):
    /// `pairs_with` reads a run's boxes and ids in one sweep instead of a look-up each.
    pub(super) item_boxes: Vec<(Aabb, ProxyId)>,
    /// Each item with a copy of its box, for `pairs_with` on a grid whose boxes span several
    /// cells (built when stale): its row walk then reads one array, in order.
    pub(super) item_copies: Vec<(Aabb, u32, u32)>,
    /// Which of `item_boxes` and `item_copies` describes the current `items`, if either.
    pub(super) beside: Beside,
    /// `pairs_with`'s item runs, gathered for all boxes before any is read.
    pub(super) runs: Vec<(u32, u32)>,
    /// `pairs_with`: per box, where its runs end in `runs` (`u32::MAX`: no fast path).
    pub(super) run_ends: Vec<u32>,
    /// How many threads `pairs` may use.
    pub(super) threads: Threads,
    /// The keys of `pairs`' parts on several threads, one per thread (kept for reuse).
    pub(super) part_keys: Vec<PartKeys>,
    /// The patch's moved slots, per part, on several threads (kept for reuse).
    pub(super) part_moved: Vec<Vec<(u32, [i32; 4], bool)>>,
    /// The job lists of the patch on several threads, and each band's lists of moves left
    /// and of full buckets (kept for reuse).
    pub(super) scan_jobs: Spare,
    pub(super) bands: Spare,
    pub(super) band_lists: Vec<(Spare, Spare)>,
    pub(super) left_lists: Spare,
    pub(super) merge_heads: Vec<usize>,
}

impl<M: CellMap> Cells<M> {
    pub(super) fn new(map: M) -> Self {
        Self {
            slots: Slots::default(),
            map,
            ranges: Vec::new(),
            is_big: Vec::new(),
            big: Vec::new(),
            starts: Vec::new(),
            crowded: Vec::new(),
            layout: Layout::Runs,
            regions: Vec::new(),
            region_list: Vec::new(),
            entries: 0,
            built_len: 0,
            block_starts: Vec::new(),
            in_lists: Vec::new(),
            moved: Vec::new(),
            #[cfg(test)]
            patches: 0,
            #[cfg(test)]
            outgrown: 0,
            #[cfg(test)]
            split_moves: (0, 0),
            counts: Vec::new(),
            occupied: Vec::new(),
            items: Vec::new(),
            stamps: Vec::new(),
            stamp: 0,
            listed: Vec::new(),
            bounds: Bounds::Stale,
            dirty: true,
            cand: Vec::new(),
            pair_sort: PairSort::default(),
            item_boxes: Vec::new(),
            item_copies: Vec::new(),
            beside: Beside::Stale,
            runs: Vec::new(),
            run_ends: Vec::new(),
            threads: Threads::default(),
            part_keys: Vec::new(),
            part_moved: Vec::new(),
            scan_jobs: Spare::new(),
            bands: Spare::new(),
            band_lists: Vec::new(),
            left_lists: Spare::new(),
            merge_heads: Vec::new(),
        }
    }

    /// Whether the lists are in the dense layout (`starts` describes them).
    #[inline(always)]
    pub(super) fn is_dense(&self) -> bool {
        matches!(self.layout, Layout::Dense { .. })
    }

    /// Whether the lists are in the patchable layout (`regions` describes them).
    #[inline(always)]
    pub(super) fn is_patchable(&self) -> bool {
        self.layout == Layout::Patchable
    }

    pub(super) fn name(&self) -> &'static str {
        M::NAME
    }

    /// A fresh query stamp (resetting all stamps when the counter wraps).
    pub(super) fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// The union of all live boxes (computed once per change, on a ray's demand).
    pub(super) fn bounds(&mut self) -> Option<Aabb> {
        if let Bounds::Known(bounds) = self.bounds {
            return bounds;
        }
        let bounds = self.slots.live_slots().map(|s| self.slots.aabbs[s as usize]).reduce(|a, b| a.union(&b));
        self.bounds = Bounds::Known(bounds);
        bounds
    }

    /// Bucket `b`'s items, `start..end` in `items` (dense or patchable layout).
    #[inline(always)]
    pub(super) fn bucket_span(&self, b: usize) -> (usize, usize) {
        if self.is_patchable() {
            let r = self.regions[b];
            (r.start as usize, (r.start + r.len) as usize)
        } else {
            (self.starts[b] as usize, self.starts[b + 1] as usize)
        }
    }

    #[inline]
    pub(super) fn bucket_items(&self, x: i32, y: i32) -> &[Item<M::Tag>] {
        let (start, end) = self.bucket_span(self.map.bucket(x, y));
        &self.items[start..end]
    }

    pub(super) fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.dirty = true;
        self.slots.insert(aabb)
    }

    pub(super) fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        let (_, aabb) = self.slots.remove(id)?;
        self.dirty = true;
        Ok(aabb)
    }

    #[inline]
    pub(super) fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        self.dirty = true;
        Ok(())
    }

    pub(super) fn update_many(&mut self, ids: &[ProxyId], box_of: impl Fn(usize) -> Aabb + Sync) -> Result<(), Error> {
        self.slots.set_many(ids, box_of, self.threads)?;
        self.dirty |= !ids.is_empty();
        Ok(())
    }

    pub(super) fn clear(&mut self) {
        self.slots.clear();
        self.dirty = true;
    }

    pub(super) fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }
}
