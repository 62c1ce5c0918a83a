//! The patched cell lists: after a build in the patchable layout (each bucket with room to
//! grow), the next reindex moves only the entries of the boxes whose cell range changed.

use super::lists::{BIG_CELLS, Bounds, Cells, Item, Region, SPARSE_RATIO};
use super::map::{CellMap, cells_in};
use crate::par;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// Fewer slots than this per thread are scanned on fewer threads.
const PARALLEL_SLOTS: usize = 16 * 1024;

/// What a patch's scan of some slots found.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    /// Entries to move: removed and added.
    changes: u64,
    /// Entries added and dropped.
    added: u64,
    dropped: u64,
    /// A box turned big, or the changes passed the limit: a build, not a patch.
    refused: bool,
}

impl Scan {
    fn plus(self, other: Scan) -> Scan {
        Scan {
            changes: self.changes + other.changes,
            added: self.added + other.added,
            dropped: self.dropped + other.dropped,
            refused: self.refused | other.refused,
        }
    }
}

/// The patch's scan of the slots from `first` on (`live`, `aabbs`, `ranges` and `in_lists`
/// cut to the same run): each slot whose cell range changed (or that came or went) goes to
/// `moved` with its new range and liveness. Stops early, refused, at a big box or once the
/// changes pass `limit`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn scan_slots<M: CellMap>(
    map: &M,
    first: usize,
    live: &[bool],
    aabbs: &[Aabb],
    ranges: &[[i32; 4]],
    in_lists: &[bool],
    limit: u64,
    moved: &mut Vec<(u32, [i32; 4], bool)>,
) -> Scan {
    // A copy of the few fields of the map, so they stay in registers across the pushes.
    let map = map.clone();
    let mut scan = Scan::default();
    let boxes = live.iter().zip(aabbs);
    for (s, ((&live, aabb), (range, &listed))) in boxes.zip(ranges.iter().zip(in_lists)).enumerate() {
        if !live && !listed {
            continue;
        }
        let r = map.range(aabb);
        if live && listed && r == *range {
            continue;
        }
        let cells = if live { cells_in(&r) } else { 0 };
        // (Checked before the sums: a big box's count may be anything up to `u64::MAX`; a
        // listed box's old count is at most `BIG_CELLS`.)
        if cells > BIG_CELLS {
            scan.refused = true;
            return scan;
        }
        let old = if listed { cells_in(range) } else { 0 };
        scan.changes += cells + old;
        scan.added += cells;
        scan.dropped += old;
        if scan.changes > limit {
            scan.refused = true;
            return scan;
        }
        moved.push(((first + s) as u32, r, live));
    }
    scan
}

impl<M: CellMap> Cells<M> {
    /// Rebuilds the cell lists for [`Cells::pairs`], which needs only each bucket's run of
    /// items, not the bucket-by-bucket `starts` table: a grid with many more cells than
    /// entries (a few boxes in a big world, e.g. the movers of a static level) takes the
    /// sparse build, whose cost follows the boxes, not the cells.
    ///
    /// Otherwise the lists are kept in the patchable layout: when few boxes changed cells since
    /// the last `pairs` (moving boxes cross a cell line now and then, not every frame), only
    /// their entries move, and the rest of the lists stay as they are.
    pub(super) fn reindex_for_pairs(&mut self) {
        if !self.dirty {
            return;
        }
        if self.is_patchable() && self.patch() {
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

    /// Makes the lists current for a box query, a ray or the debug view: patched in place when
    /// `pairs` keeps the patchable layout (so a frame of `pairs` and queries builds nothing
    /// twice), else rebuilt densely.
    pub(super) fn reindex_for_queries(&mut self) {
        if self.is_patchable() && (!self.dirty || self.patch()) {
            return;
        }
        self.reindex();
    }

    /// Moves the entries of the boxes whose cell range changed since the lists were last
    /// built or patched (and of boxes inserted or removed since), in the patchable layout.
    /// Returns false, changing nothing that a full build does not redo, when a build is the
    /// better choice: more entries to move than half the lists, a big box, a hash table that
    /// no longer fits, or items grown past twice their built size.
    pub(super) fn patch(&mut self) -> bool {
        let n = self.slots.capacity();
        self.ranges.resize(n, [0; 4]);
        self.is_big.resize(n, false);
        self.in_lists.resize(n, false);
        self.stamps.resize(n, 0);
        let mut moved = core::mem::take(&mut self.moved);
        moved.clear();
        let limit = (self.entries / 2 + 16) as u64;
        let parts = self.threads.parts(n, PARALLEL_SLOTS);
        let scan = if parts > 1 {
            // Each thread scans a run of the slots into its own list; the lists, taken in
            // order, are one thread's.
            let chunk = n.div_ceil(parts);
            self.part_moved.resize_with(parts, Vec::new);
            let mut jobs: Vec<_> =
                self.part_moved.iter_mut().enumerate().map(|(i, list)| (i * chunk, list, Scan::default())).collect();
            let (map, live, aabbs) = (&self.map, self.slots.live_flags(), &self.slots.aabbs[..]);
            let (ranges, in_lists) = (&self.ranges[..], &self.in_lists[..]);
            par::run(&mut jobs, |(start, list, scan)| {
                list.clear();
                let end = (*start + chunk).min(n);
                let at = *start..end;
                *scan = scan_slots(
                    map,
                    *start,
                    &live[at.clone()],
                    &aabbs[at.clone()],
                    &ranges[at.clone()],
                    &in_lists[at],
                    limit,
                    list,
                );
            });
            let mut total = Scan::default();
            for (_, list, scan) in &jobs {
                total = total.plus(*scan);
                moved.extend_from_slice(list);
            }
            total
        } else {
            let (live, aabbs) = (self.slots.live_flags(), &self.slots.aabbs[..n]);
            scan_slots(&self.map, 0, &live[..n], aabbs, &self.ranges[..n], &self.in_lists[..n], limit, &mut moved)
        };
        if scan.refused || scan.changes > limit {
            self.moved = moved;
            return false;
        }
        let entries = self.entries as u64 + scan.added - scan.dropped;
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
        self.entries = entries as usize;
        self.dirty = false;
        self.bounds = Bounds::Stale;
        #[cfg(test)]
        {
            self.patches += 1;
        }
        true
    }

    /// Removes slot `s`'s entry for the cell tagged `cell` from bucket `b` (patchable layout).
    pub(super) fn unlist(&mut self, b: usize, s: u32, cell: M::Tag) {
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
    pub(super) fn list(&mut self, b: usize, item: Item<M::Tag>) {
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
}
