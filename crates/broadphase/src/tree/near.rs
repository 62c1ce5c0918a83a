//! Nearest-neighbour and swept-box queries on the tree, through `&self`: node boxes always hold
//! their leaves' boxes (a refit only makes them tighter), so these need no refit and no shared
//! scratch, and several threads may query one tree at once. The trait's methods refit first.

use super::pool::{NULL, Tree};
use crate::error::Error;
use crate::id::ProxyId;
use crate::near::{self, CastHit, KBest, Nearest};
use crate::stats::QueryStats;
use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Reverse;
use glam::Vec2;
use lore_geom::Aabb;

impl Tree {
    /// [`SpatialIndex::k_nearest`](crate::SpatialIndex::k_nearest) through `&self`: a
    /// best-first descent that opens nodes in order of their distance to `point` and stops
    /// once the next node is farther than the `k`-th answer. Between refits the node boxes
    /// may be looser than the trait's method (which refits first) would see; the answers are
    /// the same.
    ///
    /// # Errors
    /// As the trait's method.
    pub fn k_nearest(
        &self,
        point: Vec2,
        k: usize,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<Nearest>,
    ) -> Result<QueryStats, Error> {
        let max_d2 = near::nearest_args(point, max_distance)?;
        let mut stats = QueryStats::default();
        let mut best = KBest::new(k);
        if self.root != NULL && k > 0 {
            // Min-heap of (distance² bits, node): non-negative floats order as their bits.
            let mut open = BinaryHeap::with_capacity(64);
            open.push(Reverse((
                near::distance_squared(&self.nodes[self.root as usize].aabb, point).to_bits(),
                self.root,
            )));
            while let Some(Reverse((bits, i))) = open.pop() {
                let d2 = f32::from_bits(bits);
                // Equal distances go on: a farther-down box at the same distance may have a
                // smaller id.
                if d2 > max_d2 || best.bound().is_some_and(|b| d2 > b) {
                    break;
                }
                stats.visited += 1;
                let n = &self.nodes[i as usize];
                if n.is_leaf() {
                    best.offer(
                        self.slots.id(n.slot),
                        &self.slots.aabbs[n.slot as usize],
                        point,
                        max_d2,
                        filter,
                        &mut stats,
                    );
                } else {
                    for c in [n.child1, n.child2] {
                        let dc = near::distance_squared(&self.nodes[c as usize].aabb, point);
                        if dc <= max_d2 {
                            open.push(Reverse((dc.to_bits(), c)));
                        }
                    }
                }
            }
        }
        best.finish(out, &mut stats);
        Ok(stats)
    }

    /// [`SpatialIndex::nearest`](crate::SpatialIndex::nearest) through `&self`.
    ///
    /// # Errors
    /// As the trait's method.
    pub fn nearest(
        &self,
        point: Vec2,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<Nearest>, QueryStats), Error> {
        let mut out = Vec::with_capacity(1);
        let stats = self.k_nearest(point, 1, max_distance, filter, &mut out)?;
        Ok((out.first().copied(), stats))
    }

    /// [`SpatialIndex::cast_aabb`](crate::SpatialIndex::cast_aabb) through `&self`: a descent
    /// into the nodes the swept box reaches, nearer child first, skipping nodes it reaches
    /// only after the best hit so far.
    ///
    /// # Errors
    /// As the trait's method.
    pub fn cast_aabb(
        &self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<CastHit>, QueryStats), Error> {
        near::cast_args(motion)?;
        let mut best: Option<CastHit> = None;
        let mut stats = QueryStats::default();
        self.walk_cast(aabb, motion, &mut stats, &mut |id, t| {
            let hit = CastHit { id, t };
            if best.is_none_or(|b| hit.before(&b)) && filter(id) {
                best = Some(hit);
            }
            best.map_or(f32::INFINITY, |b| b.t)
        });
        stats.hits = u64::from(best.is_some());
        Ok((best, stats))
    }

    /// [`SpatialIndex::cast_aabb_all`](crate::SpatialIndex::cast_aabb_all) through `&self`.
    ///
    /// # Errors
    /// As the trait's method.
    pub fn cast_aabb_all(
        &self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<CastHit>,
    ) -> Result<QueryStats, Error> {
        near::cast_args(motion)?;
        out.clear();
        let mut stats = QueryStats::default();
        self.walk_cast(aabb, motion, &mut stats, &mut |id, t| {
            if filter(id) {
                out.push(CastHit { id, t });
            }
            f32::INFINITY
        });
        near::sort_cast_hits(out);
        stats.hits = out.len() as u64;
        Ok(stats)
    }

    /// Offers `visit(id, t)` every leaf the moving box touches, nearer subtrees first; `visit`
    /// returns the `t` past which nothing more is wanted (nodes reached later are skipped; at
    /// that `t` exactly they are not, for ties to the smaller id).
    fn walk_cast(
        &self,
        moving: &Aabb,
        motion: Vec2,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(ProxyId, f32) -> f32,
    ) {
        if self.root == NULL {
            return;
        }
        let mut cutoff = f32::INFINITY;
        let mut stack: Vec<(u32, f32)> = Vec::new();
        if let Some(t) = near::cast_entry(moving, motion, &self.nodes[self.root as usize].aabb) {
            stack.push((self.root, t));
        }
        while let Some((i, t_node)) = stack.pop() {
            if t_node > cutoff {
                continue;
            }
            stats.visited += 1;
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                stats.candidates += 1;
                if let Some(t) = near::cast_entry(moving, motion, &self.slots.aabbs[n.slot as usize]) {
                    cutoff = cutoff.min(visit(self.slots.id(n.slot), t));
                }
                continue;
            }
            let t1 = near::cast_entry(moving, motion, &self.nodes[n.child1 as usize].aabb);
            let t2 = near::cast_entry(moving, motion, &self.nodes[n.child2 as usize].aabb);
            // Push the later child first so the earlier one is searched first.
            let (first, second) = if t1.unwrap_or(f32::INFINITY) <= t2.unwrap_or(f32::INFINITY) {
                ((n.child1, t1), (n.child2, t2))
            } else {
                ((n.child2, t2), (n.child1, t1))
            };
            for (c, t) in [second, first] {
                if let Some(t) = t
                    && t <= cutoff
                {
                    stack.push((c, t));
                }
            }
        }
    }
}
