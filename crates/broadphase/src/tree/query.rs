//! Box queries and the ray walk: descents that open only the nodes the box or ray touches.

use super::pool::{NULL, Tree};
use crate::id::ProxyId;
use crate::stats::QueryStats;
use lore_geom::{Aabb, Ray};

impl Tree {
    /// Collects into `self.found` the slots whose boxes overlap `area`; the caller refits first.
    pub(super) fn collect(&mut self, area: &Aabb, stats: &mut QueryStats) {
        self.found.clear();
        if self.root == NULL {
            return;
        }
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(i) = self.stack.pop() {
            let n = &self.nodes[i as usize];
            stats.visited += 1;
            if !n.aabb.overlaps(area) {
                continue;
            }
            if n.is_leaf() {
                stats.candidates += 1;
                if self.slots.aabbs[n.slot as usize].overlaps(area) {
                    self.found.push(n.slot);
                }
            } else {
                self.stack.push(n.child1);
                self.stack.push(n.child2);
            }
        }
    }

    /// Walks the nodes the ray touches, nearest-first; `visit(id, t)` returns the cutoff `t`.
    ///
    /// Each node's box is tested once, when its parent is opened: an internal child that the
    /// ray enters goes on the stack with its entry `t` (the farther child first, so the nearer
    /// is opened first), and is skipped when popped if a hit found since is nearer; a leaf
    /// child is decided at once on its tight box (its fat box holds the tight one, so testing
    /// both would only repeat the work). Entries equal to the cutoff are still opened, so ties
    /// reach `visit`.
    pub(super) fn walk_ray(&mut self, ray: &Ray, stats: &mut QueryStats, visit: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.refit();
        if self.root == NULL {
            return;
        }
        let mut clipped = *ray;
        let root = &self.nodes[self.root as usize];
        stats.visited += 1;
        if root.is_leaf() {
            stats.candidates += 1;
            if let Some(t) = self.slots.aabbs[root.slot as usize].ray_entry(&clipped) {
                visit(self.slots.id(root.slot), t);
            }
            return;
        }
        let Some(t) = root.aabb.ray_entry(&clipped) else {
            return;
        };
        let stack = &mut self.ray_stack;
        stack.clear();
        stack.push((self.root, t));
        while let Some((i, t)) = stack.pop() {
            if t > clipped.max_t() {
                continue;
            }
            let n = &self.nodes[i as usize];
            let mut open = [(NULL, f32::INFINITY); 2];
            for (k, c) in [n.child1, n.child2].into_iter().enumerate() {
                let child = &self.nodes[c as usize];
                stats.visited += 1;
                if child.is_leaf() {
                    stats.candidates += 1;
                    if child.aabb.ray_entry(&clipped).is_some()
                        && let Some(t) = self.slots.aabbs[child.slot as usize].ray_entry(&clipped)
                    {
                        let cutoff = visit(self.slots.id(child.slot), t);
                        if cutoff < clipped.max_t() {
                            clipped = ray.clipped(cutoff);
                        }
                    }
                } else if let Some(t) = child.aabb.ray_entry(&clipped) {
                    open[k] = (c, t);
                }
            }
            let [a, b] = open;
            let (near, far) = if a.1 <= b.1 { (a, b) } else { (b, a) };
            if far.0 != NULL {
                stack.push(far);
            }
            if near.0 != NULL {
                stack.push(near);
            }
        }
    }
}
