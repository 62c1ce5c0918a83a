//! The pair pass: every overlapping pair, bucket by bucket, each once.

use super::lists::{Cells, Item, Region};
use super::map::CellMap;
use crate::id::ProxyId;
use crate::pairs::{Order, PartKeys, SlotRanges};
use crate::par;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use core::ops::Range;
use core::sync::atomic::{AtomicUsize, Ordering};
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

/// Fewer cell entries than this per thread are paired on fewer threads.
const PARALLEL_ENTRIES: usize = 32 * 1024;

/// How many chunks of buckets per thread a pair walk on several threads is cut into: each
/// thread takes the next chunk not yet taken, so one that starts late or meets crowded buckets
/// takes fewer.
const CHUNKS_PER_THREAD: usize = 32;

/// The buckets a pair walk visits, each as its run of items.
trait Spans: Copy + Send + Sync {
    /// How many buckets.
    fn len(self) -> usize;
    /// Bucket `c`'s items, `start..end` in `items` (those with fewer than two are skipped).
    fn span(self, c: usize) -> (u32, u32);
}

/// The crowded buckets' runs (`Cells::crowded`).
impl Spans for &[(u32, u32)] {
    #[inline(always)]
    fn len(self) -> usize {
        <[(u32, u32)]>::len(self)
    }
    #[inline(always)]
    fn span(self, c: usize) -> (u32, u32) {
        self[c]
    }
}

/// The buckets in use in the patchable layout, in `region_list` order: the crowded ones are
/// those of `crowded` in the same order, read in place (the patch does not list them).
#[derive(Clone, Copy)]
struct Regions<'a> {
    list: &'a [u32],
    regions: &'a [Region],
}

impl Spans for Regions<'_> {
    #[inline(always)]
    fn len(self) -> usize {
        self.list.len()
    }
    #[inline(always)]
    fn span(self, c: usize) -> (u32, u32) {
        let r = self.regions[self.list[c] as usize];
        (r.start, r.start + r.len)
    }
}

/// Starts the reads of the boxes of bucket `c +` [`PREFETCH_AHEAD`] of `spans`.
#[inline(always)]
fn prefetch_ahead<T>(spans: impl Spans, c: usize, items: &[Item<T>], aabbs: &[Aabb]) {
    if c + PREFETCH_AHEAD < spans.len() {
        let (plo, phi) = spans.span(c + PREFETCH_AHEAD);
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

/// The pair walk over buckets `range` of `spans`: candidate keys written into `cand` from
/// `cand[n]` on (grown as needed), the new number of hits (at its front) returned, `stats`
/// counted.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn walk<T: PartialEq>(
    spans: impl Spans,
    range: Range<usize>,
    items: &[Item<T>],
    aabbs: &[Aabb],
    unique_cells: bool,
    bits: u32,
    cand: &mut Vec<u64>,
    mut n: usize,
    stats: &mut QueryStats,
) -> usize {
    // A box table bigger than the cache: each bucket's boxes are read from all over it, so
    // the reads of a bucket a few ahead are started now, to arrive by the time it is tested.
    let prefetching = aabbs.len() > PREFETCH_ABOVE;
    for c in range {
        if prefetching {
            prefetch_ahead(spans, c, items, aabbs);
        }
        let (lo, hi) = spans.span(c);
        let k = (hi - lo) as usize;
        if k < 2 {
            continue;
        }
        let items = &items[lo as usize..hi as usize];
        stats.visited += 1;
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

/// One thread's share of a pair walk cut into `chunks` runs of about equal length: takes the
/// next chunk not yet taken (`next`) until none is left, its keys going to `part`.
#[allow(clippy::too_many_arguments)]
fn walk_chunks<T: PartialEq>(
    spans: impl Spans,
    chunks: usize,
    next: &AtomicUsize,
    items: &[Item<T>],
    aabbs: &[Aabb],
    unique_cells: bool,
    bits: u32,
    part: &mut PartKeys,
) {
    let len = spans.len();
    loop {
        let c = next.fetch_add(1, Ordering::Relaxed);
        if c >= chunks {
            return;
        }
        let range = c * len / chunks..(c + 1) * len / chunks;
        part.len = walk(spans, range, items, aabbs, unique_cells, bits, &mut part.keys, part.len, &mut part.stats);
        part.end_chunk(c);
    }
}

impl<M: CellMap> Cells<M> {
    /// The full pair set, bucket by bucket: two boxes listed in the same cell are tested there,
    /// and reported only if that cell is the first cell both touch (the one at the larger of
    /// their lower corners), so each pair comes out exactly once without query stamps. The
    /// walk reads the cell lists front to back; `PairSort` then puts the pairs in id order (or,
    /// for `pairs_unsorted`, leaves them in the walk's order).
    ///
    /// On several threads the buckets are cut into chunks of about equal length, several per
    /// thread, and each thread takes the next chunk not yet taken, writing its keys after
    /// those of the chunks it took before ([`PartKeys`]);
    /// [`PairSort::sort_parts`](crate::pairs::PairSort::sort_parts) then puts the keys of all
    /// chunks in id order, or in chunk order (one thread's order) for `pairs_unsorted`.
    pub(super) fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.reindex_for_pairs();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let threads = self.threads.parts(self.entries, PARALLEL_ENTRIES);
        let (items, aabbs) = (&self.items[..], &self.slots.aabbs[..]);
        let regions = Regions { list: &self.region_list, regions: &self.regions };
        let patchable = self.is_patchable();
        let mut stats = QueryStats::default();
        if threads == 1 {
            let mut cand = core::mem::take(&mut self.cand);
            let mut n = if patchable {
                walk(regions, 0..regions.len(), items, aabbs, M::UNIQUE_CELLS, bits, &mut cand, 0, &mut stats)
            } else {
                let crowded = &self.crowded[..];
                walk(crowded, 0..crowded.len(), items, aabbs, M::UNIQUE_CELLS, bits, &mut cand, 0, &mut stats)
            };
            self.pair_big(bits, &mut stats, &mut |key| {
                if n == cand.len() {
                    cand.resize(2 * n + 16, 0);
                }
                cand[n] = key;
                n += 1;
            });
            self.pair_sort.sort_into(&[&cand[..n]], bits, &self.slots, out, order, self.threads);
            self.cand = cand;
            stats.hits = out.len() as u64;
            return stats;
        }
        let buckets = if patchable { regions.len() } else { self.crowded.len() };
        let chunks = (threads * CHUNKS_PER_THREAD).min(buckets).max(1);
        let mut parts = core::mem::take(&mut self.part_keys);
        parts.resize_with(threads, PartKeys::default);
        let next = AtomicUsize::new(0);
        let (sorted, capacity) = (order == Order::Ids, self.slots.capacity());
        let ranges = SlotRanges::new(threads * par::PARTS_PER_THREAD, capacity);
        let crowded = &self.crowded[..];
        par::run(&mut parts, |part| {
            part.start();
            if patchable {
                walk_chunks(regions, chunks, &next, items, aabbs, M::UNIQUE_CELLS, bits, part);
            } else {
                walk_chunks(crowded, chunks, &next, items, aabbs, M::UNIQUE_CELLS, bits, part);
            }
            if sorted {
                part.count_slots(bits, capacity, ranges);
            }
        });
        for part in &parts {
            stats = stats.plus(part.stats);
        }
        // The big boxes' pairs go after every chunk's, as one more chunk.
        if !self.big.is_empty()
            && let Some(last) = parts.last_mut()
        {
            self.pair_big(bits, &mut stats, &mut |key| last.push(key, bits));
            last.end_chunk(chunks);
        }
        self.pair_sort.sort_parts(&mut parts, chunks + 1, bits, &self.slots, out, order);
        self.part_keys = parts;
        stats.hits = out.len() as u64;
        stats
    }

    /// The pairs of the big boxes: a big box is a box query over its cells (or a scan of all
    /// boxes when it covers more cells than there are boxes); two big boxes pair once, from
    /// the smaller. Each pair's key goes to `key`.
    fn pair_big(&self, bits: u32, stats: &mut QueryStats, key: &mut impl FnMut(u64)) {
        for &a in &self.big {
            let box_a = self.slots.aabbs[a as usize];
            self.collect(&box_a, stats, &mut |b| {
                if !self.is_big[b as usize] || b > a {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    key((u64::from(lo) << bits) | u64::from(hi));
                }
            });
        }
    }
}
