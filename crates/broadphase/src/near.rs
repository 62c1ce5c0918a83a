//! Nearest-neighbour and swept-box queries: their answer types, the exact tests every index
//! shares (so each gives bit-for-bit the answers of brute force), and brute force itself, which
//! is the trait's default for the indexes without a specialised search.
//!
//! - **Nearest**: the distance from a point to a closed box is the distance to the box's closest
//!   point (0 inside). Answers sort by squared distance, ties to the smaller id; the bound is
//!   inclusive (`distance² <= max_distance²`).
//! - **Cast** (a box moving along `motion`): the answer is the fraction `t` in `0..=1` of the
//!   motion at which the moving box first touches a box (closed boxes: touching counts; `t = 0`
//!   when they overlap at the start). Hits sort by `t`, ties to the smaller id.

use crate::error::Error;
use crate::id::ProxyId;
use crate::stats::QueryStats;
use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::Aabb;

/// One answer of [`SpatialIndex::k_nearest`](crate::SpatialIndex::k_nearest): a proxy and its
/// squared distance to the query point (squared so that `no_std` builds need no square root,
/// and so that the order is exactly the one sorted on).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Nearest {
    /// The proxy.
    pub id: ProxyId,
    /// Squared distance from the query point to the proxy's box (0 when the point is inside).
    pub distance_squared: f32,
}

/// One answer of [`SpatialIndex::cast_aabb`](crate::SpatialIndex::cast_aabb): a proxy and the
/// fraction of the motion at which the moving box first touches it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastHit {
    /// The proxy hit.
    pub id: ProxyId,
    /// Time of impact in `0..=1`: the moving box touches the proxy's box once it has moved by
    /// `t * motion`. `0` when they overlap at the start.
    pub t: f32,
}

impl CastHit {
    /// Whether `self` comes before `other` in hit order: smaller `t`, ties to the smaller id.
    #[must_use]
    pub fn before(&self, other: &CastHit) -> bool {
        (self.t, self.id) < (other.t, other.id)
    }
}

/// Checks a nearest query's point and bound; returns the squared bound.
pub(crate) fn nearest_args(point: Vec2, max_distance: f32) -> Result<f32, Error> {
    Aabb::point(point)?;
    if max_distance.is_nan() || max_distance < 0.0 {
        return Err(Error::BadQuery("max_distance must be zero or more (infinity for no bound)"));
    }
    Ok(max_distance * max_distance)
}

/// Checks a cast's motion.
pub(crate) fn cast_args(motion: Vec2) -> Result<(), Error> {
    if motion.is_finite() { Ok(()) } else { Err(Error::BadQuery("cast motion must be finite")) }
}

/// Squared distance from `point` to `aabb`: the one formula every index uses.
#[inline]
pub(crate) fn distance_squared(aabb: &Aabb, point: Vec2) -> f32 {
    aabb.distance_squared(point)
}

/// Where `moving`, moved by `t * motion`, first touches `target`: the smallest `t` in `0..=1`,
/// or `None`. The one formula every index uses (a node's box holding `target` never gives a
/// later `t`, since each step below is monotone in the target's bounds).
#[inline]
pub(crate) fn cast_entry(moving: &Aabb, motion: Vec2, target: &Aabb) -> Option<f32> {
    let (mut enter, mut exit) = (0.0f32, 1.0f32);
    for axis in 0..2 {
        let d = motion[axis];
        // The gap to close before touching, and the overlap left before passing through.
        let (lo, hi) = (target.min()[axis] - moving.max()[axis], target.max()[axis] - moving.min()[axis]);
        if d == 0.0 {
            if lo > 0.0 || hi < 0.0 {
                return None;
            }
        } else if d > 0.0 {
            enter = enter.max(lo / d);
            exit = exit.min(hi / d);
        } else {
            enter = enter.max(hi / d);
            exit = exit.min(lo / d);
        }
    }
    // `+ 0.0` turns a `-0.0` (a `lo / d` of `-0.0` that `max` may keep over `0.0`) into `0.0`:
    // hit order sorts times with `total_cmp`, where `-0.0` comes first, so two boxes touched at
    // the start were ordered by the sign of a zero instead of by id.
    (enter <= exit).then_some(enter + 0.0)
}

/// The area the moving box sweeps between fractions `t0` and `t1` of the motion, grown by a
/// small relative margin so that float rounding never leaves out a box [`cast_entry`] hits.
pub(crate) fn swept_area(moving: &Aabb, motion: Vec2, t0: f32, t1: f32) -> Aabb {
    let (a, b) = (motion * t0, motion * t1);
    let lo = (moving.min() + a).min(moving.min() + b);
    let hi = (moving.max() + a).max(moving.max() + b);
    let margin = lo.abs().max(hi.abs()).max_element() * 1.0e-5 + 1.0e-30;
    Aabb::covering(lo - Vec2::splat(margin), hi + Vec2::splat(margin))
}

/// The `k` best answers seen so far by `(distance², id)`: a max-heap, so the worst is on top.
#[derive(Debug)]
pub(crate) struct KBest {
    k: usize,
    heap: BinaryHeap<(u32, ProxyId)>,
}

impl KBest {
    pub(crate) fn new(k: usize) -> Self {
        // Room for the answers and the one pushed past them (bounded: `k` may be `usize::MAX`).
        Self { k, heap: BinaryHeap::with_capacity(k.min(1024) + 1) }
    }

    /// Whether an answer at `d2` with `id` would be kept (so the filter is worth asking).
    #[inline]
    pub(crate) fn would_take(&self, d2: f32, id: ProxyId) -> bool {
        // Non-negative floats order as their bits.
        self.k > 0 && (self.heap.len() < self.k || (d2.to_bits(), id) < *self.heap.peek().expect("full"))
    }

    pub(crate) fn take(&mut self, d2: f32, id: ProxyId) {
        self.heap.push((d2.to_bits(), id));
        if self.heap.len() > self.k {
            self.heap.pop();
        }
    }

    /// The distance² a new answer must not exceed to matter: the worst kept one once `k` are
    /// kept, else `None`.
    pub(crate) fn bound(&self) -> Option<f32> {
        (self.heap.len() == self.k).then(|| self.heap.peek().map_or(-1.0, |&(bits, _)| f32::from_bits(bits)))
    }

    /// Offers one box: kept if within the bound, accepted by `filter`, and among the best.
    #[inline]
    pub(crate) fn offer(
        &mut self,
        id: ProxyId,
        aabb: &Aabb,
        point: Vec2,
        max_d2: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        stats: &mut QueryStats,
    ) {
        stats.candidates += 1;
        let d2 = distance_squared(aabb, point);
        if d2 <= max_d2 && self.would_take(d2, id) && filter(id) {
            self.take(d2, id);
        }
    }

    /// The answers, nearest first, into `out` (replaced).
    pub(crate) fn finish(self, out: &mut Vec<Nearest>, stats: &mut QueryStats) {
        out.clear();
        out.extend(
            self.heap
                .into_sorted_vec()
                .into_iter()
                .map(|(bits, id)| Nearest { id, distance_squared: f32::from_bits(bits) }),
        );
        stats.hits = out.len() as u64;
    }
}

/// Sorts cast hits into hit order.
pub(crate) fn sort_cast_hits(hits: &mut [CastHit]) {
    hits.sort_unstable_by(|a, b| a.t.total_cmp(&b.t).then(a.id.cmp(&b.id)));
}

/// Brute-force k-nearest over `(id, box)` pairs (the trait's default).
pub(crate) fn brute_k_nearest(
    items: impl Iterator<Item = (ProxyId, Aabb)>,
    point: Vec2,
    k: usize,
    max_d2: f32,
    filter: &mut dyn FnMut(ProxyId) -> bool,
    out: &mut Vec<Nearest>,
) -> QueryStats {
    let mut best = KBest::new(k);
    let mut stats = QueryStats::default();
    for (id, aabb) in items {
        best.offer(id, &aabb, point, max_d2, filter, &mut stats);
    }
    stats.visited = stats.candidates;
    best.finish(out, &mut stats);
    stats
}

/// Brute-force cast over `(id, box)` pairs: the first hit, or every hit into `all` when given.
pub(crate) fn brute_cast(
    items: impl Iterator<Item = (ProxyId, Aabb)>,
    moving: &Aabb,
    motion: Vec2,
    filter: &mut dyn FnMut(ProxyId) -> bool,
    mut all: Option<&mut Vec<CastHit>>,
) -> (Option<CastHit>, QueryStats) {
    let mut stats = QueryStats::default();
    let mut best: Option<CastHit> = None;
    if let Some(out) = all.as_deref_mut() {
        out.clear();
    }
    for (id, aabb) in items {
        stats.candidates += 1;
        let Some(t) = cast_entry(moving, motion, &aabb) else { continue };
        let hit = CastHit { id, t };
        match all.as_deref_mut() {
            Some(out) => {
                if filter(id) {
                    out.push(hit);
                }
            }
            None => {
                if best.is_none_or(|b| hit.before(&b)) && filter(id) {
                    best = Some(hit);
                }
            }
        }
    }
    stats.visited = stats.candidates;
    match all {
        Some(out) => {
            sort_cast_hits(out);
            stats.hits = out.len() as u64;
        }
        None => stats.hits = u64::from(best.is_some()),
    }
    (best, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(vec2(x0, y0), vec2(x1, y1)).unwrap()
    }

    #[test]
    fn cast_entry_touches_overlaps_and_misses() {
        let mover = b(0.0, 0.0, 1.0, 1.0);
        // Straight ahead: touches when its right side reaches x = 3.
        assert_eq!(cast_entry(&mover, vec2(4.0, 0.0), &b(3.0, 0.0, 4.0, 1.0)), Some(0.5));
        // Moving left onto a box on the left.
        assert_eq!(cast_entry(&mover, vec2(-4.0, 0.0), &b(-3.0, 0.0, -2.0, 1.0)), Some(0.5));
        // Overlapping at the start.
        assert_eq!(cast_entry(&mover, vec2(4.0, 0.0), &b(0.5, 0.5, 2.0, 2.0)), Some(0.0));
        // Touching at the end of the motion counts; a hair beyond does not.
        assert_eq!(cast_entry(&mover, vec2(2.0, 0.0), &b(3.0, 0.0, 4.0, 1.0)), Some(1.0));
        assert_eq!(cast_entry(&mover, vec2(1.9, 0.0), &b(3.0, 0.0, 4.0, 1.0)), None);
        // Passing beside (y gap) with no vertical motion.
        assert_eq!(cast_entry(&mover, vec2(4.0, 0.0), &b(3.0, 1.5, 4.0, 2.0)), None);
        // Diagonal: the box enters through a corner region.
        assert_eq!(cast_entry(&mover, vec2(4.0, 4.0), &b(2.0, 2.0, 3.0, 3.0)), Some(0.25));
        // No motion: only overlap.
        assert_eq!(cast_entry(&mover, Vec2::ZERO, &b(1.0, 1.0, 2.0, 2.0)), Some(0.0));
        assert_eq!(cast_entry(&mover, Vec2::ZERO, &b(1.5, 1.0, 2.0, 2.0)), None);
    }

    #[test]
    fn k_best_keeps_the_nearest_with_ties_to_the_smaller_id() {
        let mut best = KBest::new(2);
        let ids: Vec<ProxyId> = (0..4).map(|i| ProxyId::new(i, 0)).collect();
        best.take(4.0, ids[3]);
        best.take(1.0, ids[2]);
        assert!(best.would_take(1.0, ids[1]));
        best.take(1.0, ids[1]);
        assert!(!best.would_take(1.0, ids[3]));
        assert_eq!(best.bound(), Some(1.0));
        let mut out = Vec::new();
        best.finish(&mut out, &mut QueryStats::default());
        assert_eq!(out.iter().map(|n| n.id).collect::<Vec<_>>(), [ids[1], ids[2]]);
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(nearest_args(vec2(f32::NAN, 0.0), 1.0).is_err());
        assert!(nearest_args(Vec2::ZERO, -1.0).is_err());
        assert!(nearest_args(Vec2::ZERO, f32::NAN).is_err());
        assert_eq!(nearest_args(Vec2::ZERO, f32::INFINITY), Ok(f32::INFINITY));
        assert!(cast_args(vec2(f32::INFINITY, 0.0)).is_err());
    }
}
