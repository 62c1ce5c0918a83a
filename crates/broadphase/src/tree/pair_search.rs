//! The pair search: the tree against itself, node pair by node pair.

use super::pool::Tree;
use crate::id::ProxyId;
use crate::pairs::Order;
use crate::stats::QueryStats;
use alloc::vec::Vec;

impl Tree {
    /// Every pair once: two leaves meet only under their lowest common ancestor, so the tree
    /// is tested against itself by crossing the two children of every internal node, opening
    /// both sides of an overlapping pair of internal nodes at once (the internal side of a
    /// node and a leaf). `PairSort` puts the pairs in id order, or for `pairs_unsorted` leaves
    /// them in the order of the descent.
    pub(super) fn pairs_in(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let mut packed = core::mem::take(&mut self.packed);
        packed.clear();
        let mut stack = core::mem::take(&mut self.pair_stack);
        let nodes = &self.nodes;
        let boxes = &self.slots.aabbs;
        for n in nodes {
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
                            packed.push((u64::from(lo) << bits) | u64::from(hi));
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
        self.pair_sort.sort_into(&packed, bits, &self.slots, out, order);
        self.packed = packed;
        self.pair_stack = stack;
        stats.hits = out.len() as u64;
        stats
    }
}
