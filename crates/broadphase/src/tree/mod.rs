//! Dynamic AABB tree: a binary tree of boxes, each internal node's box enclosing its
//! children's, leaves holding the proxies.
//!
//! The layout follows the classic dynamic tree (Box2D's `b2DynamicTree`): a node pool with a
//! free list threaded through it, leaves stored with a *fat* box (the proxy's box grown by a
//! margin) so a box that moves a little stays inside its fat box and the tree does not change
//! at all, insertion that walks down choosing the sibling by the surface-area heuristic, and
//! AVL-style rotations on the way back up that keep the tree balanced. A bulk build
//! ([`Tree::rebuild`]) makes a fresh, well-shaped tree from all current boxes at once.
//!
//! When many leaves leave their fat boxes between two queries (every box moving every frame),
//! reinserting each one would cost a walk down and up the tree per leaf. Past a share of the
//! leaves ([`Tree::set_reinsert_share`]) the tree switches to refitting in place: a moved leaf
//! takes its new fat box and grows its ancestors just enough to hold it (so the tree stays valid
//! at every moment) and marks the path to the root. The next query (or [`Tree::refit`]) then
//! walks the marked nodes once, children before parents, shrinks each to the union of its
//! children, and tries the four local rotations of Kopta et al. (2012, "Fast, effective BVH
//! updates for animated scenes") that swap a child with a grandchild when that makes the
//! node's children smaller. If the tree's surface-area cost ([`Tree::sah_cost`]) still climbs
//! past [`Tree::REBUILD_FACTOR`] times its value after the last bulk build, the tree is rebuilt.

//!
//! The files stack as: `pool` (nodes, settings, invariants) ← `insert_remove` ← `refit`
//! (moved leaves, bulk build) ← `query` (boxes, rays) and `pair_search` ← this file (the
//! [`SpatialIndex`] face).

mod insert_remove;
mod near;
mod pair_search;
mod pool;
mod query;
mod refit;
#[cfg(test)]
mod tests;

pub use pool::Tree;

use crate::error::Error;
use crate::hits::{all_hits, first_hit};
use crate::id::ProxyId;
use crate::index::SpatialIndex;
use crate::near::{CastHit, Nearest};
use crate::pairs::Order;
use crate::ray_hit::RayHit;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::{Aabb, Ray};
use pool::{NULL, Node};

impl SpatialIndex for Tree {
    fn name(&self) -> &'static str {
        "tree"
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.refit();
        let id = self.slots.insert(aabb)?;
        let leaf = self.alloc_node(Node {
            aabb: aabb.grown(self.margin),
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            slot: id.index(),
        });
        let s = id.index() as usize;
        if self.leaf_of.len() <= s {
            self.leaf_of.resize(s + 1, NULL);
        }
        self.leaf_of[s] = leaf;
        self.insert_leaf(leaf);
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        self.slots.slot(id)?;
        // Finish pending refits first (a rebuild there must still see this proxy).
        self.refit();
        let (s, aabb) = self.slots.remove(id)?;
        let leaf = self.leaf_of[s as usize];
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.leaf_of[s as usize] = NULL;
        Ok(aabb)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        let leaf = self.leaf_of[s as usize];
        let fat = self.nodes[leaf as usize].aabb;
        let refattened = aabb.grown(self.margin);
        // Inside its fat box and the fat box not grossly larger: nothing to do.
        if fat.contains_aabb(&aabb) && fat.half_perimeter() <= 4.0 * refattened.half_perimeter() + 1e-6 {
            return Ok(());
        }
        self.moved += 1;
        // A box that jumped clear of its fat box would stretch every ancestor on the way to
        // its new place: it is reinserted. So are the first `reinsert_share` of the movers.
        let jumped = !fat.overlaps(&aabb);
        if jumped || self.moved as f32 <= self.reinsert_share * self.slots.len() as f32 {
            let mut leaf = leaf;
            if self.root != NULL && self.marked[self.root as usize] {
                // Rotations and removals need every box on the way up to be tight. (A refit
                // may rebuild the tree, which renumbers the nodes: the leaf is looked up again.)
                self.refit();
                leaf = self.leaf_of[s as usize];
            }
            self.remove_leaf(leaf);
            self.nodes[leaf as usize].aabb = refattened;
            self.insert_leaf(leaf);
        } else {
            self.enlarge(leaf, refattened);
        }
        Ok(())
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.slots.get(id)
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.nodes.clear();
        self.marked.clear();
        self.moved = 0;
        self.baseline_cost = None;
        self.refitted_since_check = 0;
        self.leaf_of.iter_mut().for_each(|l| *l = NULL);
        self.free = NULL;
        self.root = NULL;
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }

    fn k_nearest(
        &mut self,
        point: Vec2,
        k: usize,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<Nearest>,
    ) -> Result<QueryStats, Error> {
        self.refit();
        Tree::k_nearest(self, point, k, max_distance, filter, out)
    }

    fn cast_aabb(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<CastHit>, QueryStats), Error> {
        self.refit();
        Tree::cast_aabb(self, aabb, motion, filter)
    }

    fn cast_aabb_all(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<CastHit>,
    ) -> Result<QueryStats, Error> {
        self.refit();
        Tree::cast_aabb_all(self, aabb, motion, filter, out)
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        self.refit();
        let mut stats = QueryStats::default();
        self.collect(area, &mut stats);
        self.found.sort_unstable();
        out.clear();
        out.extend(self.found.iter().map(|&s| self.slots.id(s)));
        stats.hits = out.len() as u64;
        stats
    }

    /// One refit, then each area's walk in turn.
    fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        for (i, area) in areas.iter().enumerate() {
            self.collect(area, &mut stats);
            self.found.sort_unstable();
            out.extend(self.found.iter().map(|&s| (i, self.slots.id(s))));
        }
        stats.hits = out.len() as u64;
        stats
    }

    /// As [`Tree::query_aabbs`], written as pairs.
    fn pairs_with(&mut self, ids: &[ProxyId], areas: &[Aabb], out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        for (&id, area) in ids.iter().zip(areas) {
            self.collect(area, &mut stats);
            self.found.sort_unstable();
            out.extend(self.found.iter().map(|&s| (id, self.slots.id(s))));
        }
        stats.hits = out.len() as u64;
        stats
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        first_hit(|stats, visit| self.walk_ray(ray, stats, visit), filter)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        all_hits(|stats, visit| self.walk_ray(ray, stats, visit), filter, out)
    }

    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.pairs_in(out, Order::Ids)
    }

    fn pairs_unsorted(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.pairs_in(out, Order::Found)
    }

    #[cfg(feature = "parallel")]
    fn set_threads(&mut self, threads: usize) -> Result<(), Error> {
        self.threads.set(threads)
    }

    #[cfg(feature = "parallel")]
    fn threads(&self) -> usize {
        self.threads.get()
    }

    fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
        self.refit();
        if self.root == NULL {
            return;
        }
        let mut stack = alloc::vec![(self.root, 0u32)];
        while let Some((i, depth)) = stack.pop() {
            let n = self.nodes[i as usize];
            visit(n.aabb, depth);
            if !n.is_leaf() {
                stack.push((n.child1, depth + 1));
                stack.push((n.child2, depth + 1));
            }
        }
    }
}
