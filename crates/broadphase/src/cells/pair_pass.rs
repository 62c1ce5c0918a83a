//! The pair pass: every overlapping pair, bucket by bucket, each once.

use super::lists::Cells;
use super::map::CellMap;
use crate::id::ProxyId;
use crate::pairs::Order;
use crate::stats::QueryStats;
use alloc::vec::Vec;

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

impl<M: CellMap> Cells<M> {
    /// The full pair set, bucket by bucket: two boxes listed in the same cell are tested there,
    /// and reported only if that cell is the first cell both touch (the one at the larger of
    /// their lower corners), so each pair comes out exactly once without query stamps. The
    /// walk reads the cell lists front to back; `PairSort` then puts the pairs in id order (or,
    /// for `pairs_unsorted`, leaves them in the walk's order).
    pub(super) fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
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
                        & (pb.min().x <= qb.max().x)
                        & (qb.min().x <= pb.max().x)
                        & (pb.min().y <= qb.max().y)
                        & (qb.min().y <= pb.max().y);
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
}
