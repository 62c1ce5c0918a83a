//! The patched cell lists: after a build in the patchable layout (each bucket with room to
//! grow), the next reindex moves only the entries of the boxes whose cell range changed.

use super::lists::{BIG_CELLS, BLOCK, Bounds, Cells, Item, Region, SPARSE_RATIO};
use super::map::{CellMap, cells_in};
use crate::par::{self, Spare};
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
        let threads = self.threads.parts(n, PARALLEL_SLOTS);
        let scan = if threads > 1 {
            // The slots cut into runs, several per thread, each scanned into its own list; the
            // lists, taken in order, are one thread's.
            let parts = threads * par::PARTS_PER_THREAD;
            let chunk = n.div_ceil(parts);
            self.part_moved.resize_with(parts, Vec::new);
            let mut jobs: Vec<(usize, &mut Vec<Moved>, Scan)> = self.scan_jobs.take();
            jobs.extend(self.part_moved.iter_mut().enumerate().map(|(i, list)| (i * chunk, list, Scan::default())));
            let (map, live, aabbs) = (&self.map, self.slots.live_flags(), &self.slots.aabbs[..]);
            let (ranges, in_lists) = (&self.ranges[..], &self.in_lists[..]);
            par::run_on(threads, &mut jobs, |(start, list, scan)| {
                list.clear();
                let end = (*start + chunk).min(n);
                let at = (*start).min(end)..end;
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
            self.scan_jobs.keep(jobs);
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
        let blocks = self.block_starts.len().saturating_sub(1);
        let parts = self.threads.parts(moved.len(), PARALLEL_MOVES).min(blocks);
        if parts > 1 {
            self.move_entries_split(&moved, parts);
        } else {
            // (A copy of the map's few fields: the moves change the lists, not the map.)
            let map = self.map.clone();
            for &(s, r, live) in &moved {
                let old = self.in_lists[s as usize].then_some(self.ranges[s as usize]);
                moves_of(&map, s, old, live.then_some(r), |_, op| match op {
                    Move::Unlist(b, cell) => self.unlist(b, s, cell),
                    Move::List(b, item) => self.list(b, item),
                });
            }
        }
        for &(s, r, live) in &moved {
            let s_ = s as usize;
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
        take_out(&mut self.items, 0, &mut self.regions[b], s, cell);
    }

    /// The moves of the patch on `parts` threads, each owning the buckets of a run of blocks
    /// ([`BLOCK`]) and the items the build laid out for them: every thread reads all of
    /// `moved` and makes the moves in its buckets, in order, except that a bucket whose region
    /// is full (it must move to the end of the items) or was moved there is left, from that
    /// move on, to the calling thread, which then makes the moves left in the order one thread
    /// makes them all. Each bucket so sees its moves in the same order as on one thread, and
    /// the buckets reach the end of the items in the same order: the lists come out the same.
    fn move_entries_split(&mut self, moved: &[(u32, [i32; 4], bool)], parts: usize) {
        let blocks = self.block_starts.len() - 1;
        let buckets = self.regions.len();
        let mut bands: Vec<Band<'_, M::Tag>> = self.bands.take();
        self.band_lists.resize_with(parts, || (Spare::new(), Spare::new()));
        let (mut regions, mut items) = (&mut self.regions[..], &mut self.items[..self.built_len]);
        let (mut first_bucket, mut first_item) = (0, 0);
        for k in 1..=parts {
            let end_block = k * blocks / parts;
            let end_bucket = (end_block * BLOCK).min(buckets);
            let end_item = self.block_starts[end_block] as usize;
            let (band_regions, rest) = core::mem::take(&mut regions).split_at_mut(end_bucket - first_bucket);
            let (band_items, rest_items) = core::mem::take(&mut items).split_at_mut(end_item - first_item);
            (regions, items) = (rest, rest_items);
            bands.push(Band {
                first_bucket,
                regions: band_regions,
                first_item,
                items: band_items,
                left: self.band_lists[k - 1].0.take(),
                full: self.band_lists[k - 1].1.take(),
            });
            (first_bucket, first_item) = (end_bucket, end_item);
        }
        let (map, ranges, in_lists) = (&self.map, &self.ranges[..], &self.in_lists[..]);
        par::run(&mut bands, |band| {
            let map = map.clone();
            let buckets = band.first_bucket..band.first_bucket + band.regions.len();
            for (e, &(s, r, live)) in moved.iter().enumerate() {
                let old = in_lists[s as usize].then_some(ranges[s as usize]);
                let new = live.then_some(r);
                // In a grid a range's buckets lie between those of its corners: a box whose
                // ranges both miss the band is skipped whole.
                let meets = |r: Option<[i32; 4]>| {
                    r.is_some_and(|[x0, y0, x1, y1]| {
                        map.bucket(x1, y1) >= buckets.start && map.bucket(x0, y0) < buckets.end
                    })
                };
                if M::UNIQUE_CELLS && !meets(old) && !meets(new) {
                    continue;
                }
                moves_of(&map, s, old, new, |k, op| band.make(e, k, s, op));
            }
        });
        // The moves left, in the order of one thread: each band's are in that order already,
        // so the bands' lists are merged (not sorted).
        let mut lists: Vec<Vec<Left<M::Tag>>> = self.left_lists.take();
        for (band, (_, full)) in bands.iter_mut().zip(self.band_lists.iter_mut()) {
            lists.push(core::mem::take(&mut band.left));
            full.keep(core::mem::take(&mut band.full));
        }
        self.bands.keep(bands);
        let mut heads = core::mem::take(&mut self.merge_heads);
        heads.clear();
        heads.resize(lists.len(), 0);
        #[cfg(test)]
        {
            self.split_moves.0 += 1;
            self.split_moves.1 += lists.iter().map(Vec::len).sum::<usize>();
        }
        while let Some(i) = (0..lists.len())
            .filter(|&i| heads[i] < lists[i].len())
            .min_by_key(|&i| (lists[i][heads[i]].0, lists[i][heads[i]].1))
        {
            let (_, _, s, op) = lists[i][heads[i]];
            heads[i] += 1;
            match op {
                Move::Unlist(b, cell) => self.unlist(b, s, cell),
                Move::List(b, item) => self.list(b, item),
            }
        }
        for (list, (left, _)) in lists.drain(..).zip(self.band_lists.iter_mut()) {
            left.keep(list);
        }
        self.left_lists.keep(lists);
        self.merge_heads = heads;
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
        put_in(&mut self.items, 0, &mut region, item);
        self.regions[b] = region;
    }
}

/// Fewer moved boxes than this per thread are moved in the lists on fewer threads.
const PARALLEL_MOVES: usize = 1024;

/// One entry move of the patch: out of bucket `b` (the entry of the cell with this tag), or
/// into it.
#[derive(Clone, Copy, Debug)]
enum Move<T> {
    Unlist(usize, T),
    List(usize, Item<T>),
}

/// Calls `each(k, move)` for the moves of slot `s` from its cells in range `old` (if listed)
/// to those of range `new` (if live), numbered `k` from 0: out of every old cell, then into
/// every new one, row by row.
#[inline(always)]
fn moves_of<M: CellMap>(
    map: &M,
    s: u32,
    old: Option<[i32; 4]>,
    new: Option<[i32; 4]>,
    mut each: impl FnMut(u32, Move<M::Tag>),
) {
    let mut k = 0;
    if let Some([x0, y0, x1, y1]) = old {
        for y in y0..=y1 {
            for x in x0..=x1 {
                each(k, Move::Unlist(map.bucket(x, y), M::tag(x, y)));
                k += 1;
            }
        }
    }
    if let Some([x0, y0, x1, y1]) = new {
        for y in y0..=y1 {
            for x in x0..=x1 {
                let first = u32::from(x == x0) | (u32::from(y == y0) << 1);
                each(k, Move::List(map.bucket(x, y), Item { slot: s, first, cell: M::tag(x, y) }));
                k += 1;
            }
        }
    }
}

/// Removes slot `s`'s entry for the cell tagged `cell` from `region` (its items in `items`,
/// which start at item `base`).
#[inline(always)]
fn take_out<T: Copy + PartialEq>(items: &mut [Item<T>], base: usize, region: &mut Region, s: u32, cell: T) {
    let start = region.start as usize - base;
    let items = &mut items[start..start + region.len as usize];
    let k = items.iter().position(|item| item.slot == s && item.cell == cell);
    debug_assert!(k.is_some(), "slot {s} is not listed in its bucket");
    if let Some(k) = k {
        items.copy_within(k + 1.., k);
        region.len -= 1;
    }
}

/// Adds `item` to `region` in slot order (its items in `items`, which start at item `base`;
/// the region has room).
#[inline(always)]
fn put_in<T: Copy>(items: &mut [Item<T>], base: usize, region: &mut Region, item: Item<T>) {
    let start = region.start as usize - base;
    let items = &mut items[start..start + region.len as usize + 1];
    let mut k = region.len as usize;
    while k > 0 && items[k - 1].slot > item.slot {
        items[k] = items[k - 1];
        k -= 1;
    }
    items[k] = item;
    region.len += 1;
}

/// A move left to the calling thread by a band: move `k` of entry `e` of slot `s`.
type Left<T> = (usize, u32, u32, Move<T>);

/// A slot whose cell range changed: the slot, its new range, and whether it is live.
type Moved = (u32, [i32; 4], bool);

/// One thread's share of the patch's moves: the buckets from `first_bucket` on (their
/// regions) and the items the build laid out for them, from item `first_item` on.
struct Band<'a, T> {
    first_bucket: usize,
    regions: &'a mut [Region],
    first_item: usize,
    items: &'a mut [Item<T>],
    /// The moves left to the calling thread.
    left: Vec<Left<T>>,
    /// The band's buckets that filled up: their moves are left to the calling thread from then
    /// on (few: a region has room for a quarter more entries than it was built with).
    full: Vec<usize>,
}

impl<T: Copy + PartialEq> Band<'_, T> {
    /// Makes move `k` of entry `e` (slot `s`) if its bucket is this band's: in place when the
    /// bucket's region lies in the band's items and has room, else leaves it (and every later
    /// move of that bucket) to the calling thread.
    #[inline(always)]
    fn make(&mut self, e: usize, k: u32, s: u32, op: Move<T>) {
        let b = match op {
            Move::Unlist(b, _) | Move::List(b, _) => b,
        };
        let Some(region) = b.checked_sub(self.first_bucket).and_then(|i| self.regions.get_mut(i)) else {
            return;
        };
        // A region outside the band's items (moved to the end, or never used) stays so
        // through the pass: all its moves are left.
        let (start, end) = (region.start as usize, (region.start + region.cap) as usize);
        let here = region.cap > 0 && start >= self.first_item && end <= self.first_item + self.items.len();
        if here && !self.full.contains(&b) {
            match op {
                Move::Unlist(_, cell) => return take_out(self.items, self.first_item, region, s, cell),
                Move::List(_, item) if region.len < region.cap => {
                    return put_in(self.items, self.first_item, region, item);
                }
                // Full: the calling thread moves the region to the end, and makes every later
                // move of the bucket.
                Move::List(..) => self.full.push(b),
            }
        }
        self.left.push((e, k, s, op));
    }
}
