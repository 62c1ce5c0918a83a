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
    pub(super) fn walk_ray(&mut self, ray: &Ray, stats: &mut QueryStats, visit: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.refit();
        if self.root == NULL {
            return;
        }
        let mut cutoff = f32::INFINITY;
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(i) = self.stack.pop() {
            let n = self.nodes[i as usize];
            stats.visited += 1;
            let clipped = ray.clipped(cutoff);
            if n.aabb.ray_entry(&clipped).is_none() {
                continue;
            }
            if n.is_leaf() {
                stats.candidates += 1;
                if let Some(t) = self.slots.aabbs[n.slot as usize].ray_entry(&clipped) {
                    cutoff = cutoff.min(visit(self.slots.id(n.slot), t));
                }
            } else {
                // Push the farther child first so the nearer one is searched first.
                let t1 = self.nodes[n.child1 as usize].aabb.ray_entry(&clipped).unwrap_or(f32::INFINITY);
                let t2 = self.nodes[n.child2 as usize].aabb.ray_entry(&clipped).unwrap_or(f32::INFINITY);
                if t1 <= t2 {
                    self.stack.push(n.child2);
                    self.stack.push(n.child1);
                } else {
                    self.stack.push(n.child1);
                    self.stack.push(n.child2);
                }
            }
        }
    }
}
