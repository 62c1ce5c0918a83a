//! Nearest-neighbour and swept-box queries on the cell lists, built on the box query's walk:
//! k-nearest looks in growing squares around the point, a cast queries the cells along the
//! path one cell-sized step at a time. Both test each box once with the exact tests of
//! `near.rs`, so they answer as brute force does.

use super::lists::Cells;
use super::map::CellMap;
use crate::error::Error;
use crate::id::ProxyId;
use crate::near::{self, CastHit, KBest, Nearest};
use crate::stats::QueryStats;
use alloc::collections::BTreeSet;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::Aabb;

/// The most cell-sized steps one cast takes: a longer motion takes longer steps (the same
/// answers, more cells per step).
const MAX_CAST_STEPS: f32 = 65_536.0;

impl<M: CellMap> Cells<M> {
    /// The `k` nearest boxes: box queries over squares of half-side one cell, two, four...
    /// around `point`, until the `k`-th answer is nearer than the square's half-side (nothing
    /// outside the square can beat it), the square reaches `max_distance`, or it held every box.
    pub(super) fn k_nearest(
        &mut self,
        point: Vec2,
        k: usize,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<Nearest>,
    ) -> Result<QueryStats, Error> {
        let max_d2 = near::nearest_args(point, max_distance)?;
        self.reindex_for_queries();
        let mut stats = QueryStats::default();
        let mut best = KBest::new(k);
        // The slots of the previous (smaller) square, sorted: each box is offered once.
        let (mut seen, mut found): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        let mut half = self.map.cell_size();
        while k > 0 && self.slots.len() != 0 {
            let last = half >= max_distance;
            let radius = if last { max_distance } else { half };
            // A margin so that float rounding never leaves out a box within `radius`.
            let margin = radius * 1.0e-5 + point.abs().max_element() * 1.0e-6 + 1.0e-30;
            let area = Aabb::covering(point - Vec2::splat(radius + margin), point + Vec2::splat(radius + margin));
            found.clear();
            self.collect(&area, &mut stats, &mut |s| found.push(s));
            found.sort_unstable();
            for &s in &found {
                if seen.binary_search(&s).is_err() {
                    best.offer(self.slots.id(s), &self.slots.aabbs[s as usize], point, max_d2, filter, &mut stats);
                }
            }
            let everything = found.len() >= self.slots.len();
            if last || everything || best.bound().is_some_and(|b| b <= radius * radius) {
                break;
            }
            core::mem::swap(&mut seen, &mut found);
            half *= 2.0;
        }
        best.finish(out, &mut stats);
        Ok(stats)
    }

    /// The boxes `moving` touches along `motion`: the first (ties to the smaller id), or all
    /// into `all` in hit order. The path is cut into steps of about one cell; each step's swept
    /// area is one box query, and the first-hit search stops after the step that holds a hit
    /// (a box the moving box reaches later lies in a later step's area).
    pub(super) fn cast(
        &mut self,
        moving: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        mut all: Option<&mut Vec<CastHit>>,
    ) -> Result<(Option<CastHit>, QueryStats), Error> {
        near::cast_args(motion)?;
        self.reindex_for_queries();
        let mut stats = QueryStats::default();
        let mut best: Option<CastHit> = None;
        if let Some(out) = all.as_deref_mut() {
            out.clear();
        }
        // The cell count along the path, rounded up (no `ceil` in `no_std` builds).
        let cells = (motion.abs().max_element() / self.map.cell_size()).min(MAX_CAST_STEPS);
        let whole = cells as u32;
        let steps = if (whole as f32) < cells { whole + 1 } else { whole }.max(1);
        let mut seen = BTreeSet::new();
        let mut found = Vec::new();
        for j in 0..steps {
            let t0 = j as f32 / steps as f32;
            let t1 = if j + 1 == steps { 1.0 } else { (j + 1) as f32 / steps as f32 };
            found.clear();
            self.collect(&near::swept_area(moving, motion, t0, t1), &mut stats, &mut |s| found.push(s));
            for &s in &found {
                if !seen.insert(s) {
                    continue;
                }
                let Some(t) = near::cast_entry(moving, motion, &self.slots.aabbs[s as usize]) else { continue };
                let hit = CastHit { id: self.slots.id(s), t };
                match all.as_deref_mut() {
                    Some(out) => {
                        if filter(hit.id) {
                            out.push(hit);
                        }
                    }
                    None => {
                        if best.is_none_or(|b| hit.before(&b)) && filter(hit.id) {
                            best = Some(hit);
                        }
                    }
                }
            }
            // Strictly before the step's end: a later step may still hold a tie at `t1`.
            if all.is_none() && best.is_some_and(|b| b.t < t1) {
                break;
            }
        }
        match all {
            Some(out) => {
                near::sort_cast_hits(out);
                stats.hits = out.len() as u64;
            }
            None => stats.hits = u64::from(best.is_some()),
        }
        Ok((best, stats))
    }
}
