//! What the indexes share about ray hits: their order, and turning an index's ray walk into
//! the first hit or all hits.
//!
//! A walk (the grid's and the hash's march through cells, the tree's descent) offers each box
//! the ray touches as `visit(id, t)` and takes back the `t` past which it may stop looking.
//! [`first_hit`] and [`all_hits`] are the two visitors every walking index answers
//! [`SpatialIndex::raycast`](crate::SpatialIndex::raycast) and
//! [`SpatialIndex::raycast_all`](crate::SpatialIndex::raycast_all) with.

use crate::id::ProxyId;
use crate::ray_hit::RayHit;
use crate::stats::QueryStats;
use alloc::vec::Vec;

/// Sorts hits into ray order (by `t`, ties to the smaller id).
pub(crate) fn sort_hits(hits: &mut [RayHit]) {
    hits.sort_unstable_by(|a, b| a.t.total_cmp(&b.t).then(a.id.cmp(&b.id)));
}

/// The first hit `filter` accepts (smallest `t`, ties to the smaller id) of the boxes `walk`
/// offers: `walk(stats, visit)` calls `visit(id, t)` for each box the ray enters and may skip
/// boxes entered past the `t` that `visit` returns (the best hit so far).
#[inline]
pub(crate) fn first_hit(
    walk: impl FnOnce(&mut QueryStats, &mut dyn FnMut(ProxyId, f32) -> f32),
    filter: &mut dyn FnMut(ProxyId) -> bool,
) -> (Option<RayHit>, QueryStats) {
    let mut stats = QueryStats::default();
    let mut best: Option<RayHit> = None;
    walk(&mut stats, &mut |id, t| {
        let hit = RayHit { id, t };
        if best.is_none_or(|b| hit.before(&b)) && filter(id) {
            best = Some(hit);
        }
        best.map_or(f32::INFINITY, |b| b.t)
    });
    stats.hits = u64::from(best.is_some());
    (best, stats)
}

/// Every hit `filter` accepts of the boxes `walk` offers (as in [`first_hit`], with no cutoff),
/// in ray order, into `out` (replaced).
#[inline]
pub(crate) fn all_hits(
    walk: impl FnOnce(&mut QueryStats, &mut dyn FnMut(ProxyId, f32) -> f32),
    filter: &mut dyn FnMut(ProxyId) -> bool,
    out: &mut Vec<RayHit>,
) -> QueryStats {
    out.clear();
    let mut stats = QueryStats::default();
    walk(&mut stats, &mut |id, t| {
        if filter(id) {
            out.push(RayHit { id, t });
        }
        f32::INFINITY
    });
    sort_hits(out);
    stats.hits = out.len() as u64;
    stats
}
