//! The pair pass: every overlapping pair, bucket by bucket, each once.

use super::lists::{Cells, Item};
use super::map::CellMap;
use crate::id::ProxyId;
use crate::pairs::{Order, RANGES_PER_THREAD, SlotRanges};
use crate::par;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// Above this many slots (a box table of 512 KiB, past the per-core cache of the machines
/// measured) `pairs` prefetches the boxes of the bucket [`PREFETCH_AHEAD`] buckets ahead.
pub(super) const PREFETCH_ABOVE: usize = 1 << 15;
/// How far ahead `pairs` prefetches, in crowded buckets (of about five entries in the bench's
/// moving scenes): 8 measured best of 4, 8 and 16 at 100k boxes.
pub(super) const PREFETCH_AHEAD: usize = 8;

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

/// Fewer candidate tests than this per thread are made on fewer threads.
const PARALLEL_CANDIDATES: usize = 64 * 1024;

/// Starts the reads of the boxes of bucket `c +` [`PREFETCH_AHEAD`] of `buckets`.
#[inline(always)]
fn prefetch_ahead<T>(buckets: &[(u32, u32)], c: usize, items: &[Item<T>], aabbs: &[Aabb]) {
    if let Some(&(plo, phi)) = buckets.get(c + PREFETCH_AHEAD) {
        let boxes = aabbs.as_ptr();
        for item in &items[plo as usize..phi as usize] {
            prefetch(boxes.wrapping_add(item.slot as usize));
        }
    }
}

/// Tests `p` against the later entries `rest` of its bucket, branch-free: each candidate's
/// key is written at `cand[n]` and `n` moves on only for a hit (`cand` has room for all of
/// `rest`). A bucket lists its slots ascending, so `p.slot < q.slot`. Returns the new `n`.
#[inline(always)]
fn test_row<T: PartialEq>(
    p: &Item<T>,
    rest: &[Item<T>],
    aabbs: &[Aabb],
    unique_cells: bool,
    bits: u32,
    cand: &mut [u64],
    mut n: usize,
) -> usize {
    let key = u64::from(p.slot) << bits;
    let pb = aabbs[p.slot as usize];
    for q in rest {
        let qb = &aabbs[q.slot as usize];
        let hit = (unique_cells || p.cell == q.cell)
            & ((p.first | q.first) == 3)
            & (pb.min().x <= qb.max().x)
            & (qb.min().x <= pb.max().x)
            & (pb.min().y <= qb.max().y)
            & (qb.min().y <= pb.max().y);
        cand[n] = key | u64::from(q.slot);
        n += usize::from(hit);
    }
    n
}

/// The pair walk over `buckets`: candidate keys written into `cand` (grown as needed), the
/// number of hits (at its front) returned, `stats` counted.
#[inline(always)]
fn walk<T: PartialEq>(
    buckets: &[(u32, u32)],
    items: &[Item<T>],
    aabbs: &[Aabb],
    unique_cells: bool,
    bits: u32,
    cand: &mut Vec<u64>,
    stats: &mut QueryStats,
) -> usize {
    let mut n = 0;
    // A box table bigger than the cache: each bucket's boxes are read from all over it, so
    // the reads of a bucket a few ahead are started now, to arrive by the time it is tested.
    let prefetching = aabbs.len() > PREFETCH_ABOVE;
    for (c, &(lo, hi)) in buckets.iter().enumerate() {
        if prefetching {
            prefetch_ahead(buckets, c, items, aabbs);
        }
        let items = &items[lo as usize..hi as usize];
        stats.visited += 1;
        let k = items.len();
        stats.candidates += (k * (k - 1) / 2) as u64;
        // Room for every candidate of the bucket (the buffer only grows, so this is rarely a
        // call).
        let need = n + k * (k - 1) / 2;
        if cand.len() < need {
            cand.resize(need.max(2 * cand.len()), 0);
        }
        // (The last entry has no later partner: it is only a `q`.)
        for (i, p) in items[..k - 1].iter().enumerate() {
            n = test_row(p, &items[i + 1..], aabbs, unique_cells, bits, cand, n);
        }
    }
    n
}

/// Appends each of `keys` to `split[r]` for the slot range `r` of its first slot (each
/// `split[r]` cleared first).
fn split_by_range(keys: &[u64], bits: u32, ranges: SlotRanges, split: &mut [Vec<u64>]) {
    split.iter_mut().for_each(Vec::clear);
    for &k in keys {
        split[ranges.of((k >> bits) as u32)].push(k);
    }
}

/// One part of the pair walk on several threads: a run of crowded buckets and its buffers:
/// the walk's keys in `keys[0]` (the first `found[0]`), and for `pairs` those of slot range
/// `r` in `keys[1 + r]` (the first `found[1 + r]`).
struct Walk<'a> {
    buckets: &'a [(u32, u32)],
    keys: &'a mut [Vec<u64>],
    found: Vec<usize>,
    stats: QueryStats,
}

impl<M: CellMap> Cells<M> {
    /// The full pair set, bucket by bucket: two boxes listed in the same cell are tested there,
    /// and reported only if that cell is the first cell both touch (the one at the larger of
    /// their lower corners), so each pair comes out exactly once without query stamps. The
    /// walk reads the cell lists front to back; `PairSort` then puts the pairs in id order (or,
    /// for `pairs_unsorted`, leaves them in the walk's order).
    ///
    /// On several threads, the crowded buckets are cut into runs of about equal candidate
    /// tests, one per thread. For `pairs_unsorted` each run's keys go to one buffer, and the
    /// buffers, taken in order, are one thread's keys. For `pairs` each run splits its keys by
    /// the range of their first slot, one range per thread, and each thread then sorts one
    /// range's keys from every run into its own stretch of `out`.
    pub(super) fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.reindex_for_pairs();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        // (Counting the candidates costs a pass over the buckets: only when it may pay.)
        let threads = if self.threads.get() > 1 && 2 * self.entries >= PARALLEL_CANDIDATES {
            let weights = self.crowded.iter().map(|&(lo, hi)| {
                let k = u64::from(hi - lo);
                k * (k - 1) / 2
            });
            let parts = self.threads.parts(weights.clone().sum::<u64>() as usize, PARALLEL_CANDIDATES);
            par::cut_by_weight(self.crowded.len(), parts, weights, &mut self.cuts);
            self.cuts.len() - 1
        } else {
            1
        };
        let mut stats = QueryStats::default();
        if threads == 1 {
            let mut cand = core::mem::take(&mut self.cand);
            let mut n =
                walk(&self.crowded, &self.items, &self.slots.aabbs, M::UNIQUE_CELLS, bits, &mut cand, &mut stats);
            self.pair_big(
                bits,
                &mut stats,
                SlotRanges::new(1, 1),
                core::slice::from_mut(&mut cand),
                core::slice::from_mut(&mut n),
            );
            self.pair_sort.sort_into(&[&cand[..n]], bits, &self.slots, out, order, self.threads);
            self.cand = cand;
            stats.hits = out.len() as u64;
            return stats;
        }
        let walks = self.cuts.len() - 1;
        let ranges =
            SlotRanges::new(if order == Order::Ids { walks * RANGES_PER_THREAD } else { 1 }, self.slots.capacity());
        // The walk's buffer, then one per range (none for one range).
        let per_walk = if ranges.len() > 1 { 1 + ranges.len() } else { 1 };
        let mut buffers = core::mem::take(&mut self.part_cand);
        buffers.resize_with(walks * per_walk, Vec::new);
        let mut parts: Vec<Walk<'_>> = self
            .cuts
            .windows(2)
            .zip(buffers.chunks_mut(per_walk))
            .map(|(w, keys)| Walk {
                buckets: &self.crowded[w[0]..w[1]],
                keys,
                found: alloc::vec![0; per_walk],
                stats: QueryStats::default(),
            })
            .collect();
        let (items, aabbs) = (&self.items[..], &self.slots.aabbs[..]);
        par::run(&mut parts, |w| {
            let n = walk(w.buckets, items, aabbs, M::UNIQUE_CELLS, bits, &mut w.keys[0], &mut w.stats);
            w.found[0] = n;
            if let [walked, split @ ..] = &mut w.keys[..]
                && !split.is_empty()
            {
                // `pairs`: the walk's keys by slot range, one range for each of the sort's threads.
                split_by_range(&walked[..n], bits, ranges, split);
                for (found, keys) in w.found[1..].iter_mut().zip(split.iter()) {
                    *found = keys.len();
                }
            }
        });
        for w in &parts {
            stats = stats.plus(w.stats);
        }
        // The big boxes' pairs go after the last part's.
        let first = per_walk - ranges.len();
        if let Some(last) = parts.last_mut() {
            self.pair_big(bits, &mut stats, ranges, &mut last.keys[first..], &mut last.found[first..]);
        }
        let keys: Vec<Vec<&[u64]>> = parts
            .iter()
            .map(|w| w.keys[first..].iter().zip(&w.found[first..]).map(|(k, &n)| &k[..n]).collect())
            .collect();
        if order == Order::Ids {
            self.pair_sort.sort_ranges(&keys, ranges, walks, bits, &self.slots, out);
        } else {
            let keys: Vec<&[u64]> = keys.iter().map(|k| k[0]).collect();
            self.pair_sort.sort_into(&keys, bits, &self.slots, out, order, self.threads);
        }
        drop(keys);
        drop(parts);
        self.part_cand = buffers;
        stats.hits = out.len() as u64;
        stats
    }

    /// The pairs of the big boxes: a big box is a box query over its cells (or a scan of all
    /// boxes when it covers more cells than there are boxes); two big boxes pair once, from
    /// the smaller. Keys are appended to `keys[r]` (after its first `found[r]`) by the range
    /// `r` of their first slot.
    fn pair_big(
        &self,
        bits: u32,
        stats: &mut QueryStats,
        ranges: SlotRanges,
        keys: &mut [Vec<u64>],
        found: &mut [usize],
    ) {
        for &a in &self.big {
            let box_a = self.slots.aabbs[a as usize];
            self.collect(&box_a, stats, &mut |b| {
                if !self.is_big[b as usize] || b > a {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    let r = ranges.of(lo);
                    let (cand, n) = (&mut keys[r], &mut found[r]);
                    if *n == cand.len() {
                        cand.resize(2 * *n + 16, 0);
                    }
                    cand[*n] = (u64::from(lo) << bits) | u64::from(hi);
                    *n += 1;
                }
            });
        }
    }
}
