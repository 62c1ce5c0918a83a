//! Building the cell lists from scratch: a counting pass, a prefix sum and a fill, into the
//! dense layout (queries), the patchable layout (`pairs` in a crowded world) or sparsely
//! (`pairs` in a world of many more cells than entries).

use super::lists::{BIG_CELLS, BLOCK, Beside, Bounds, Cells, Item, Layout, Region, Table, room_for};
use super::map::{CellMap, cells_in};
use alloc::vec::Vec;

impl<M: CellMap> Cells<M> {
    /// The first pass of every rebuild: records each live box's cell range and whether it is
    /// big (the big ones go to `big`), lists the others in `listed` and hands each one's range
    /// to `count`. Returns the number of cell entries. Works on the fields it needs, so the
    /// compiler keeps them in registers.
    #[inline(always)]
    pub(super) fn measure(
        &mut self,
        mut count: impl FnMut(&M, &mut [u32], &mut Vec<u32>, [i32; 4]),
        table: Table,
    ) -> usize {
        let n = self.slots.capacity();
        self.ranges.resize(n, [0; 4]);
        self.is_big.resize(n, false);
        self.stamps.resize(n, 0);
        self.big.clear();
        // Written by position, then cut to length: no capacity check per box.
        self.listed.resize(n, 0);
        self.in_lists.resize(n, false);
        self.bounds = Bounds::Stale;
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
    pub(super) fn reindex_sparse(&mut self) {
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
        self.layout = Layout::Runs;
        self.dirty = false;
        self.beside = Beside::Stale;
    }

    /// The last pass of every rebuild: each listed box, last slot first, into its buckets,
    /// each filled from its back (`table` holds the end of each bucket's run and ends up
    /// holding its start), so each bucket lists its slots ascending.
    #[inline(always)]
    pub(super) fn fill(&mut self, entries: usize, table: Table) {
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
    pub(super) fn reindex(&mut self) {
        if !self.dirty && self.is_dense() {
            return;
        }
        self.build(false);
    }

    /// Builds the cell lists from the current boxes: dense (each bucket's items right after
    /// the previous bucket's, `starts` marking them) or, with `room`, in the patchable layout
    /// (each bucket with room to grow, `regions` marking them).
    pub(super) fn build(&mut self, room: bool) {
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
            if self.map.fits(entries) {
                break entries;
            }
            self.map.resize(entries);
        };
        // Counts become the end of each bucket's run; the fill moves them back to the starts
        // (a counting sort with no separate cursor array).
        // The same pass lists the buckets holding two entries or more: `pairs` walks only
        // those, so a sparse grid (few boxes, many cells) costs little there. (In the
        // patchable layout it walks the used buckets' regions instead, which patches keep.)
        let buckets = self.map.buckets();
        self.crowded.clear();
        let mut sum = 0u32;
        if room {
            // Each used bucket's region: its count, then room to grow; the fill starts at the
            // end of the count.
            self.regions.clear();
            self.regions.resize(buckets, Region::default());
            self.region_list.clear();
            self.block_starts.clear();
            for (b, c) in self.starts[..buckets].iter_mut().enumerate() {
                if b % BLOCK == 0 {
                    self.block_starts.push(sum);
                }
                let count = *c;
                if count == 0 {
                    continue;
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
        if room {
            self.block_starts.push(sum);
        }
        self.fill(sum as usize, Table::Starts);
        self.entries = entries;
        self.built_len = sum as usize;
        // (`listed` holds the boxes of ordinary size, each in one cell or more.)
        let single_cells = entries == self.listed.len();
        self.layout = if room { Layout::Patchable } else { Layout::Dense { single_cells } };
        self.dirty = false;
        self.beside = Beside::Stale;
    }
}
