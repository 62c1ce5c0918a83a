//! Refitting moved leaves in place (with the local rotations of Kopta et al.) and the bulk
//! build that replaces the whole tree.

use super::pool::{NULL, Node, Tree};
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::Aabb;

impl Tree {
    /// Finishes the pending in-place updates: every node marked by a moved leaf is shrunk to
    /// the union of its children, children before parents, each once, and then offered the
    /// local rotations that swap one of its children with a grandchild when that shrinks the
    /// changed child's box. Queries call it themselves; call it directly to choose when the
    /// work is done. Once the refits since the last check have touched a quarter of the nodes,
    /// it computes [`Tree::sah_cost`] and rebuilds the tree if the cost has climbed past
    /// [`Tree::REBUILD_FACTOR`] times its value after the last bulk build (or, for a tree built by
    /// insertions, at the first check).
    pub fn refit(&mut self) {
        self.moved = 0;
        if self.root == NULL || !self.marked[self.root as usize] {
            return;
        }
        let mut order = core::mem::take(&mut self.order);
        order.clear();
        self.stack.clear();
        self.stack.push(self.root);
        // Pre-order over the marked nodes; read backwards, every node comes after its children.
        while let Some(i) = self.stack.pop() {
            order.push(i);
            let n = self.nodes[i as usize];
            for c in [n.child1, n.child2] {
                if self.marked[c as usize] {
                    self.stack.push(c);
                }
            }
        }
        for &i in order.iter().rev() {
            self.marked[i as usize] = false;
            self.refit_node(i);
            self.rotate_best(i);
        }
        self.refitted_since_check += order.len();
        self.order = order;
        if 4 * self.refitted_since_check < self.node_count() {
            return;
        }
        self.refitted_since_check = 0;
        // A tree grown by insertions has no reference cost yet: the first check bulk-builds
        // it (insertion-built trees measured 1.4x the bulk build's cost), which sets one.
        if self.baseline_cost.is_none_or(|base| self.sah_cost() > Self::REBUILD_FACTOR * base) {
            self.auto_rebuilds += 1;
            self.rebuild();
        }
    }

    /// Of the four swaps of one of `i`'s children with one of the other child's children, makes
    /// the one that shrinks the changed child most (if any does), and refits `i`. The other
    /// child and `i`'s own box stay as they are; heights are recomputed.
    ///
    /// ```text
    ///        i                 i            (swap b with f: c's box becomes
    ///      /   \             /   \           the union of b and g)
    ///     b     c    ==>    f     c
    ///          / \               / \
    ///         f   g             b   g
    /// ```
    pub(super) fn rotate_best(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (b, c) = (n.child1, n.child2);
        let (nb, nc) = (self.nodes[b as usize], self.nodes[c as usize]);
        // (gain, the child that moves down, the grandchild that moves up)
        let mut best = (0.0f32, NULL, NULL);
        let mut consider = |small: u32, small_box: &Aabb, parent: &Node| {
            if parent.is_leaf() {
                return;
            }
            let area = parent.aabb.half_perimeter();
            let (f, g) = (parent.child1, parent.child2);
            let (bf, bg) = (self.nodes[f as usize].aabb, self.nodes[g as usize].aabb);
            // Swapping `small` with f leaves g beside it, and the other way round.
            let gain_f = area - small_box.union(&bg).half_perimeter();
            let gain_g = area - small_box.union(&bf).half_perimeter();
            if gain_f > best.0 {
                best = (gain_f, small, f);
            }
            if gain_g > best.0 {
                best = (gain_g, small, g);
            }
        };
        consider(b, &nb.aabb, &nc);
        consider(c, &nc.aabb, &nb);
        let (gain, down, up) = best;
        // Tiny gains are float noise; skip them so boxes do not swap back and forth.
        if gain <= 1e-4 * n.aabb.half_perimeter() {
            return;
        }
        let other = if down == b { c } else { b };
        // `down` takes `up`'s place under `other`; `up` takes `down`'s place under `i`.
        if self.nodes[other as usize].child1 == up {
            self.nodes[other as usize].child1 = down;
        } else {
            self.nodes[other as usize].child2 = down;
        }
        if down == b {
            self.nodes[i as usize].child1 = up;
        } else {
            self.nodes[i as usize].child2 = up;
        }
        self.nodes[down as usize].parent = other;
        self.nodes[up as usize].parent = i;
        self.refit_node(other);
        self.refit_node(i);
    }

    /// Rebuilds the whole tree from the current boxes, top down, splitting each set of leaves
    /// at the median centre along its longer axis: the bulk build, O(n log n). Use it after
    /// loading a level, or now and then for a tree that has seen many moves (the in-place
    /// refit calls it by itself when the tree's cost has climbed too far).
    pub fn rebuild(&mut self) {
        self.marked.iter_mut().for_each(|m| *m = false);
        self.moved = 0;
        // The leaves' boxes and centres side by side, so the splits read one array in order.
        let mut leaves: Vec<(Aabb, Vec2, u32)> = Vec::with_capacity(self.slots.len());
        for s in self.slots.live_slots() {
            let leaf = self.leaf_of[s as usize];
            let b = self.nodes[leaf as usize].aabb;
            leaves.push((b, b.center(), leaf));
        }
        // Free every internal node, keep the leaves.
        self.free = NULL;
        for i in (0..self.nodes.len() as u32).rev() {
            let n = self.nodes[i as usize];
            if n.height < 0 || !n.is_leaf() {
                self.free_node(i);
            }
        }
        self.root = if leaves.is_empty() { NULL } else { self.build(&mut leaves) };
        if self.root != NULL {
            self.nodes[self.root as usize].parent = NULL;
        }
        self.lay_out_depth_first();
        self.baseline_cost = Some(self.sah_cost());
        self.refitted_since_check = 0;
    }

    /// Renumbers the nodes in depth-first order from the root (a node, its first child's
    /// subtree, then its second child's), so that every subtree lies in one run of the pool
    /// and a descent reads nearby memory (the ray walk of a 25k-tile level had a third of the
    /// first-level cache misses of the build order); the free nodes are dropped. Node numbers
    /// are internal: ids name slots, and `leaf_of` follows.
    fn lay_out_depth_first(&mut self) {
        self.free = NULL;
        if self.root == NULL {
            self.nodes.clear();
            self.marked.clear();
            return;
        }
        // The new number of each node, then the nodes in their new order.
        let mut new_of = core::mem::take(&mut self.order);
        new_of.clear();
        new_of.resize(self.nodes.len(), NULL);
        let mut laid: Vec<Node> = Vec::with_capacity(self.node_count());
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(i) = self.stack.pop() {
            new_of[i as usize] = laid.len() as u32;
            let n = self.nodes[i as usize];
            laid.push(n);
            if !n.is_leaf() {
                self.stack.push(n.child2);
                self.stack.push(n.child1);
            }
        }
        for (k, n) in laid.iter_mut().enumerate() {
            if n.parent != NULL {
                n.parent = new_of[n.parent as usize];
            }
            if n.is_leaf() {
                self.leaf_of[n.slot as usize] = k as u32;
            } else {
                (n.child1, n.child2) = (new_of[n.child1 as usize], new_of[n.child2 as usize]);
            }
        }
        self.nodes = laid;
        self.marked.clear();
        self.marked.resize(self.nodes.len(), false);
        self.root = 0;
        self.order = new_of;
    }

    pub(super) fn build(&mut self, leaves: &mut [(Aabb, Vec2, u32)]) -> u32 {
        if leaves.len() == 1 {
            return leaves[0].2;
        }
        let mut bounds = leaves[0].0;
        let (mut lo, mut hi) = (leaves[0].1, leaves[0].1);
        for (b, c, _) in leaves.iter() {
            bounds = bounds.union(b);
            lo = lo.min(*c);
            hi = hi.max(*c);
        }
        let axis = if hi.x - lo.x >= hi.y - lo.y { 0 } else { 1 };
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |p, q| p.1[axis].total_cmp(&q.1[axis]).then(p.2.cmp(&q.2)));
        let (left, right) = leaves.split_at_mut(mid);
        let c1 = self.build(left);
        let c2 = self.build(right);
        let height = 1 + self.nodes[c1 as usize].height.max(self.nodes[c2 as usize].height);
        let parent = self.alloc_node(Node { aabb: bounds, parent: NULL, child1: c1, child2: c2, height, slot: NULL });
        self.nodes[c1 as usize].parent = parent;
        self.nodes[c2 as usize].parent = parent;
        parent
    }
}
