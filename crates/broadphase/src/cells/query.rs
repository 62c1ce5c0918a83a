//! Box queries on the cell lists: one area, many areas at once, and the pairs between boxes
//! kept elsewhere and this index; and the debug view of the occupied cells.

use super::lists::{BIG_CELLS, Beside, Cells, Layout};
use super::map::{CellMap, cells_in};
use crate::id::ProxyId;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use lore_geom::Aabb;

impl<M: CellMap> Cells<M> {
    /// Row `y` of the cell range `r` in a grid, whose cells are consecutive buckets: its entries
    /// run from `start` to `end`, the first column's up to `split`, and `row_need` is the flag an
    /// entry below the range's first row needs (bit 1: the box starts in this row). Counts the
    /// row's cells and entries into `stats`.
    #[inline(always)]
    pub(super) fn row_run(&self, r: &[i32; 4], y: i32, stats: &mut QueryStats) -> (usize, usize, usize, u32) {
        stats.visited += (r[2] - r[0]) as u64 + 1;
        let row_need = if y == r[1] { 0 } else { 2 };
        let (b0, b1) = (self.map.bucket(r[0], y), self.map.bucket(r[2], y));
        let (start, split, end) =
            (self.starts[b0] as usize, self.starts[b0 + 1] as usize, self.starts[b1 + 1] as usize);
        stats.candidates += (end - start) as u64;
        (start, split, end, row_need)
    }

    pub(super) fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
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
    pub(super) fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
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
    pub(super) fn pairs_with(
        &mut self,
        ids: &[ProxyId],
        areas: &[Aabb],
        out: &mut Vec<(ProxyId, ProxyId)>,
    ) -> QueryStats {
        self.reindex_for_queries();
        let mut stats = QueryStats::default();
        // The run walks below read `starts` (dense lists); patched lists take `collect`.
        let dense = M::UNIQUE_CELLS && self.is_dense();
        let fast = dense && self.layout == (Layout::Dense { single_cells: true });
        if fast && !matches!(self.beside, Beside::Boxes { .. }) {
            let slots = &self.slots;
            self.item_boxes.clear();
            self.item_boxes
                .extend(self.items.iter().map(|item| (slots.aabbs[item.slot as usize], slots.id(item.slot))));
            self.beside = Beside::Boxes { ascending: self.items.is_sorted_by_key(|item| item.slot) };
        }
        if dense && !fast && self.beside != Beside::Copies {
            let aabbs = &self.slots.aabbs;
            self.item_copies.clear();
            self.item_copies.extend(self.items.iter().map(|item| (aabbs[item.slot as usize], item.slot, item.first)));
            self.beside = Beside::Copies;
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
        let ascending = self.beside == (Beside::Boxes { ascending: true });
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
                                    & (b.min().x <= area.max().x)
                                    & (area.min().x <= b.max().x)
                                    & (b.min().y <= area.max().y)
                                    & (area.min().y <= b.max().y);
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
                    let hit = (b.min().x <= area.max().x)
                        & (area.min().x <= b.max().x)
                        & (b.min().y <= area.max().y)
                        & (area.min().y <= b.max().y);
                    dst[j] = (id, static_id);
                    j += usize::from(hit);
                }
                n += j;
                stats.candidates += k as u64;
            }
            // Rows come bottom to top and each row's cells left to right: in id order when the
            // whole list is, else it is checked.
            unsorted |= !ascending && !out[first..n].is_sorted();
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
    pub(super) fn collect(&self, area: &Aabb, stats: &mut QueryStats, hit: &mut impl FnMut(u32)) {
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
        } else if M::UNIQUE_CELLS && !self.is_patchable() {
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
                            & (b.min().x <= area.max().x)
                            & (area.min().x <= b.max().x)
                            & (b.min().y <= area.max().y)
                            & (area.min().y <= b.max().y);
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

    pub(super) fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
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
}
