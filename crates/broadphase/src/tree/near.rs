//! Nearest-neighbour and swept-box queries on the tree, through `&self`: node boxes always hold
//! their leaves' boxes (a refit only makes them tighter), so these need no refit and no shared
//! scratch, and several threads may query one tree at once. The trait's methods refit first.

use super::pool::{NULL, Tree};
use crate::error::Error;
use crate::id::ProxyId;
use crate::near::{self, CastHit, KBest, Nearest};
use crate::stats::QueryStats;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::Aabb;

impl Tree {
    /// [`SpatialIndex::k_nearest`](crate::SpatialIndex::k_nearest) through `&self`: a
    /// depth-first descent, nearer child first, that skips every node farther than the `k`-th
    /// answer found so far (a leaf is offered as soon as its parent is opened, so the bound
    /// tightens early). Between refits the node boxes may be looser than the trait's method
    /// (which refits first) would see; the answers are the same.
    ///
    /// (A best-first descent over a heap of open nodes opens fewer nodes, but on a 25k-box
    /// level its heap's sifting cost more than it saved: 14,105 instructions and 152
    /// mispredicted branches a query at k = 10 against 12,600 and 145 for this one's first
    /// version, rstar's `nearest_neighbor_iter` 15,976 and 198.)
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
            // Whether a node (or box) at `d2` can still hold an answer. Equal distances go
            // on: a box at the bound's distance may have a smaller id.
            let wanted = |d2: f32, best: &KBest| d2 <= max_d2 && best.bound().is_none_or(|b| d2 <= b);
            let root = &self.nodes[self.root as usize];
            let mut open = OpenStack::new();
            open.push((self.root, near::distance_squared(&root.aabb, point)));
            while let Some((i, d2)) = open.pop() {
                if !wanted(d2, &best) {
                    continue;
                }
                stats.visited += 1;
                let n = &self.nodes[i as usize];
                if n.is_leaf() {
                    // (Only the root is reached here as a leaf: other leaves are offered when
                    // their parent is opened.)
                    best.offer(
                        self.slots.id(n.slot),
                        &self.slots.aabbs[n.slot as usize],
                        point,
                        max_d2,
                        filter,
                        &mut stats,
                    );
                    continue;
                }
                let mut inner = [(NULL, f32::INFINITY); 2];
                for (slot, c) in [n.child1, n.child2].into_iter().enumerate() {
                    let child = &self.nodes[c as usize];
                    let dc = near::distance_squared(&child.aabb, point);
                    if !wanted(dc, &best) {
                        continue;
                    }
                    if child.is_leaf() {
                        stats.visited += 1;
                        best.offer(
                            self.slots.id(child.slot),
                            &self.slots.aabbs[child.slot as usize],
                            point,
                            max_d2,
                            filter,
                            &mut stats,
                        );
                    } else {
                        inner[slot] = (c, dc);
                    }
                }
                // The farther child first, so the nearer one is opened next.
                let [a, b] = inner;
                let (near_child, far_child) = if a.1 <= b.1 { (a, b) } else { (b, a) };
                for c in [far_child, near_child] {
                    if c.0 != NULL {
                        open.push(c);
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
        let mut stack = OpenStack::new();
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

/// The open nodes of a `&self` descent, with their distance or entry: on the call's own stack
/// up to [`OpenStack::INLINE`] of them (a balanced tree of a million boxes needs about 40), in
/// a vector past that, so a query allocates nothing in the usual case.
struct OpenStack {
    inline: [(u32, f32); Self::INLINE],
    len: usize,
    spill: Vec<(u32, f32)>,
}

impl OpenStack {
    const INLINE: usize = 64;

    fn new() -> Self {
        Self { inline: [(NULL, 0.0); Self::INLINE], len: 0, spill: Vec::new() }
    }

    #[inline]
    fn push(&mut self, entry: (u32, f32)) {
        if self.len < Self::INLINE {
            self.inline[self.len] = entry;
            self.len += 1;
        } else {
            self.spill.push(entry);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, f32)> {
        if let Some(e) = self.spill.pop() {
            return Some(e);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::OpenStack;
    use alloc::vec::Vec;

    #[test]
    fn the_open_stack_is_last_in_first_out_past_its_inline_room() {
        let mut stack = OpenStack::new();
        let mut model = Vec::new();
        // Pushes and pops across the inline room's edge, in both directions.
        for round in 0..3u32 {
            for i in 0..(OpenStack::INLINE as u32 + 40) {
                stack.push((round * 1000 + i, i as f32));
                model.push((round * 1000 + i, i as f32));
            }
            for _ in 0..(OpenStack::INLINE + 20) {
                assert_eq!(stack.pop(), model.pop());
            }
        }
        while let Some(e) = model.pop() {
            assert_eq!(stack.pop(), Some(e));
        }
        assert_eq!(stack.pop(), None);
    }
}
