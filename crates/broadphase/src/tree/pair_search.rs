//! The pair search: the tree against itself, node pair by node pair.

use super::pool::{Node, Tree};
use crate::id::ProxyId;
use crate::pairs::{Order, RANGES_PER_THREAD, SlotRanges};
use crate::par;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// Fewer nodes than this per thread are searched on fewer threads.
const PARALLEL_NODES: usize = 8 * 1024;

/// One part of the pair search on several threads: a run of nodes, a stack, and the keys
/// found under them in `keys[r]` by the slot range `r` of their first slot.
struct Search<'a> {
    nodes: &'a [Node],
    keys: &'a mut [Vec<u64>],
    stack: Vec<(u32, u32)>,
    stats: QueryStats,
}

impl Tree {
    /// Every pair once: two leaves meet only under their lowest common ancestor, so the tree
    /// is tested against itself by crossing the two children of every internal node, opening
    /// both sides of an overlapping pair of internal nodes at once (the internal side of a
    /// node and a leaf). `PairSort` puts the pairs in id order, or for `pairs_unsorted` leaves
    /// them in the order of the descent.
    ///
    /// On several threads each takes a run of the node pool with its own stack. For
    /// `pairs_unsorted` its keys go to one buffer, and the buffers, taken in order, are one
    /// thread's keys; for `pairs` they are split by the range of their first slot, and each
    /// thread sorts one range's keys into its own stretch of `out`.
    pub(super) fn pairs_in(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.refit();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let parts = self.threads.parts(self.nodes.len(), PARALLEL_NODES);
        let boxes = &self.slots.aabbs[..];
        if parts == 1 {
            let mut stats = QueryStats::default();
            let (packed, stack) = (&mut self.packed, &mut self.pair_stack);
            packed.clear();
            let one = SlotRanges::new(1, 1);
            search(&self.nodes, &self.nodes, boxes, bits, one, core::slice::from_mut(packed), stack, &mut stats);
            self.pair_sort.sort_into(&[&packed[..]], bits, &self.slots, out, order, self.threads);
            stats.hits = out.len() as u64;
            return stats;
        }
        let ranges =
            SlotRanges::new(if order == Order::Ids { parts * RANGES_PER_THREAD } else { 1 }, self.slots.capacity());
        let mut buffers = core::mem::take(&mut self.part_keys);
        buffers.resize_with(parts * ranges.len(), Vec::new);
        self.part_stacks.resize_with(parts, Vec::new);
        let chunk = self.nodes.len().div_ceil(parts);
        let mut searches: Vec<Search<'_>> = self.searches.take();
        searches.extend(
            self.nodes.chunks(chunk).zip(buffers.chunks_mut(ranges.len())).zip(self.part_stacks.iter_mut()).map(
                |((nodes, keys), stack)| Search {
                    nodes,
                    keys,
                    stack: core::mem::take(stack),
                    stats: QueryStats::default(),
                },
            ),
        );
        let nodes = &self.nodes[..];
        par::run(&mut searches, |s| {
            s.keys.iter_mut().for_each(Vec::clear);
            search(nodes, s.nodes, boxes, bits, ranges, s.keys, &mut s.stack, &mut s.stats);
        });
        let mut stats = QueryStats::default();
        for (s, stack) in searches.iter_mut().zip(self.part_stacks.iter_mut()) {
            stats = stats.plus(s.stats);
            *stack = core::mem::take(&mut s.stack);
        }
        // The key slices by part, then by slot range (one range for `pairs_unsorted`).
        let mut keys: Vec<&[u64]> = self.key_slices.take();
        keys.extend(searches.iter().flat_map(|s| s.keys.iter().map(|k| &k[..])));
        if order == Order::Ids {
            self.pair_sort.sort_ranges(&keys, ranges, parts, bits, &self.slots, out);
        } else {
            self.pair_sort.sort_into(&keys, bits, &self.slots, out, order, self.threads);
        }
        self.key_slices.keep(keys);
        self.searches.keep(searches);
        self.part_keys = buffers;
        stats.hits = out.len() as u64;
        stats
    }
}

/// The pair search under the internal nodes among `run` (a run of the pool `nodes`): keys
/// appended to `keys[r]` by the slot range `r` of their first slot.
#[allow(clippy::too_many_arguments)]
fn search(
    nodes: &[Node],
    run: &[Node],
    boxes: &[Aabb],
    bits: u32,
    ranges: SlotRanges,
    keys: &mut [Vec<u64>],
    stack: &mut Vec<(u32, u32)>,
    stats: &mut QueryStats,
) {
    for n in run {
        if n.height <= 0 {
            continue;
        }
        // Only pairs of nodes whose boxes overlap go on the stack.
        stats.visited += 1;
        if !nodes[n.child1 as usize].aabb.overlaps(&nodes[n.child2 as usize].aabb) {
            continue;
        }
        stack.clear();
        stack.push((n.child1, n.child2));
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&nodes[a as usize], &nodes[b as usize]);
            // Open the internal node of the two, or both.
            let (open, keep, keep_box) = match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => {
                    stats.candidates += 1;
                    let (sa, sb) = (na.slot, nb.slot);
                    if boxes[sa as usize].overlaps(&boxes[sb as usize]) {
                        let (lo, hi) = if sa < sb { (sa, sb) } else { (sb, sa) };
                        keys[ranges.of(lo)].push((u64::from(lo) << bits) | u64::from(hi));
                    }
                    continue;
                }
                (false, true) => (na, b, &nb.aabb),
                (true, false) => (nb, a, &na.aabb),
                (false, false) => {
                    // Both internal: open both at once. Four tests of child against child
                    // instead of two to open one side and up to two more for each surviving
                    // child to open the other later.
                    stats.visited += 4;
                    for c in [na.child1, na.child2] {
                        let cb = &nodes[c as usize].aabb;
                        for d in [nb.child1, nb.child2] {
                            if cb.overlaps(&nodes[d as usize].aabb) {
                                stack.push((c, d));
                            }
                        }
                    }
                    continue;
                }
            };
            stats.visited += 2;
            for c in [open.child1, open.child2] {
                if nodes[c as usize].aabb.overlaps(keep_box) {
                    stack.push((c, keep));
                }
            }
        }
    }
}
