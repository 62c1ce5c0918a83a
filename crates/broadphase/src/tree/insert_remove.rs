//! Inserting and removing leaves: the walk down by the surface-area heuristic, the AVL-style
//! rotations on the way back up, and growing a leaf's ancestors in place for a refit.

use super::pool::{NULL, Node, Tree};
use lore_geom::Aabb;

impl Tree {
    /// Walks from `i` to the root, rotating and refitting each ancestor.
    pub(super) fn fix_upwards(&mut self, mut i: u32) {
        while i != NULL {
            i = self.balance(i);
            self.refit_node(i);
            i = self.nodes[i as usize].parent;
        }
    }

    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        // Walk down choosing the sibling by the surface-area heuristic: the cost of making the
        // new leaf a sibling of node i is the perimeter of their union, plus the growth it
        // forces on every ancestor ("inheritance").
        let leaf_box = self.nodes[leaf as usize].aabb;
        let mut i = self.root;
        while !self.nodes[i as usize].is_leaf() {
            let n = self.nodes[i as usize];
            let area = n.aabb.half_perimeter();
            let combined = n.aabb.union(&leaf_box).half_perimeter();
            let cost_here = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let child_cost = |c: &Node| {
                let grown = c.aabb.union(&leaf_box).half_perimeter();
                if c.is_leaf() { grown + inheritance } else { grown - c.aabb.half_perimeter() + inheritance }
            };
            let cost1 = child_cost(&self.nodes[n.child1 as usize]);
            let cost2 = child_cost(&self.nodes[n.child2 as usize]);
            if cost_here < cost1 && cost_here < cost2 {
                break;
            }
            i = if cost1 < cost2 { n.child1 } else { n.child2 };
        }
        let sibling = i;
        //      old_parent              old_parent
        //          |                       |
        //       sibling      ==>       new_parent
        //                               /      \
        //                           sibling    leaf
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.alloc_node(Node {
            aabb: self.nodes[sibling as usize].aabb.union(&leaf_box),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: self.nodes[sibling as usize].height + 1,
            slot: NULL,
        });
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.fix_upwards(new_parent);
    }

    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        //      grand                 grand
        //        |                     |
        //      parent      ==>      sibling
        //      /    \
        //   leaf   sibling
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.replace_child(grand, parent, sibling);
        self.nodes[sibling as usize].parent = grand;
        self.free_node(parent);
        self.fix_upwards(grand);
    }

    /// If node `a`'s subtrees differ in height by more than one, rotates the taller child up
    /// and returns the node now in `a`'s place; otherwise returns `a`.
    ///
    /// ```text
    ///        a                 c            (c is taller than b by 2;
    ///      /   \             /   \           f is c's taller child)
    ///     b     c    ==>    a     f
    ///          / \         / \
    ///         f   g       b   g
    /// ```
    pub(super) fn balance(&mut self, a: u32) -> u32 {
        let na = self.nodes[a as usize];
        if na.is_leaf() || na.height < 2 {
            return a;
        }
        let (b, c) = (na.child1, na.child2);
        let diff = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if diff > 1 {
            self.rotate_up(a, c, b, false)
        } else if diff < -1 {
            self.rotate_up(a, b, c, true)
        } else {
            a
        }
    }

    /// Rotates `up` (a child of `a`) into `a`'s place; `other` is `a`'s other child and
    /// `up_is_child1` says which side `up` was on. `up`'s taller child stays under `up`; the
    /// shorter one moves under `a`, in `up`'s old slot.
    pub(super) fn rotate_up(&mut self, a: u32, up: u32, other: u32, up_is_child1: bool) -> u32 {
        let nu = self.nodes[up as usize];
        let (f, g) = (nu.child1, nu.child2);
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height { (f, g) } else { (g, f) };
        let a_parent = self.nodes[a as usize].parent;
        // `up` takes a's place.
        self.nodes[up as usize].parent = a_parent;
        self.replace_child(a_parent, a, up);
        self.nodes[up as usize].child1 = a;
        self.nodes[up as usize].child2 = keep;
        self.nodes[a as usize].parent = up;
        // `a` keeps `other` and takes `give` where `up` was.
        if up_is_child1 {
            self.nodes[a as usize].child1 = give;
        } else {
            self.nodes[a as usize].child2 = give;
        }
        self.nodes[give as usize].parent = a;
        debug_assert!(self.nodes[a as usize].child1 == other || self.nodes[a as usize].child2 == other);
        self.refit_node(a);
        self.refit_node(up);
        up
    }

    /// A leaf that left its fat box takes its new fat box in place; its ancestors grow to hold
    /// it and are marked for the next [`Tree::refit`].
    pub(super) fn enlarge(&mut self, leaf: u32, fat: Aabb) {
        self.nodes[leaf as usize].aabb = fat;
        let mut child_box = fat;
        let mut i = self.nodes[leaf as usize].parent;
        while i != NULL {
            let n = &mut self.nodes[i as usize];
            let holds = n.aabb.contains_aabb(&child_box);
            if holds && self.marked[i as usize] {
                // Every ancestor of a marked node is marked and already holds this box.
                break;
            }
            self.marked[i as usize] = true;
            if !holds {
                n.aabb = n.aabb.union(&child_box);
            }
            child_box = n.aabb;
            i = n.parent;
        }
    }
}
