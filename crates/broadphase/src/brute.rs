//! Brute force: every query tests every box. The reference the other indexes are checked
//! against, and the right choice for a few dozen boxes.

use crate::error::Error;
use crate::hits::sort_hits;
use crate::id::ProxyId;
use crate::index::SpatialIndex;
use crate::near::{self, CastHit, Nearest};
use crate::ray_hit::RayHit;
use crate::slots::Slots;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::{Aabb, Ray};

/// The reference index: a list of boxes, every query O(n), pairs O(n²).
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    slots: Slots,
}

impl BruteForce {
    /// An empty index.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn items(&self) -> impl Iterator<Item = (ProxyId, Aabb)> + '_ {
        self.slots.live_slots().map(|s| (self.slots.id(s), self.slots.aabbs[s as usize]))
    }

    /// [`SpatialIndex::k_nearest`] through `&self` (brute force keeps no query state).
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
        Ok(near::brute_k_nearest(self.items(), point, k, max_d2, filter, out))
    }

    /// [`SpatialIndex::nearest`] through `&self`.
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
        let stats = BruteForce::k_nearest(self, point, 1, max_distance, filter, &mut out)?;
        Ok((out.first().copied(), stats))
    }

    /// [`SpatialIndex::cast_aabb`] through `&self`.
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
        Ok(near::brute_cast(self.items(), aabb, motion, filter, None))
    }

    /// [`SpatialIndex::cast_aabb_all`] through `&self`.
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
        Ok(near::brute_cast(self.items(), aabb, motion, filter, Some(out)).1)
    }
}

impl SpatialIndex for BruteForce {
    fn name(&self) -> &'static str {
        "brute"
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.slots.insert(aabb)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        self.slots.remove(id).map(|(_, a)| a)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        Ok(())
    }

    fn update_many(&mut self, ids: &[ProxyId], boxes: &[Aabb]) -> Result<(), Error> {
        crate::index::check_lengths(ids, boxes)?;
        self.slots.set_many(ids, |i| boxes[i], crate::par::Threads::one())
    }

    fn update_many_with(&mut self, ids: &[ProxyId], boxes: &(dyn Fn(usize) -> Aabb + Sync)) -> Result<(), Error> {
        self.slots.set_many(ids, boxes, crate::par::Threads::one())
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.slots.get(id)
    }

    fn clear(&mut self) {
        self.slots.clear();
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        out.clear();
        let mut stats = QueryStats::default();
        for s in self.slots.live_slots() {
            stats.candidates += 1;
            if self.slots.aabbs[s as usize].overlaps(area) {
                out.push(self.slots.id(s));
            }
        }
        stats.visited = stats.candidates;
        stats.hits = out.len() as u64;
        stats
    }

    fn k_nearest(
        &mut self,
        point: Vec2,
        k: usize,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<Nearest>,
    ) -> Result<QueryStats, Error> {
        BruteForce::k_nearest(self, point, k, max_distance, filter, out)
    }

    fn cast_aabb(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<CastHit>, QueryStats), Error> {
        BruteForce::cast_aabb(self, aabb, motion, filter)
    }

    fn cast_aabb_all(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<CastHit>,
    ) -> Result<QueryStats, Error> {
        BruteForce::cast_aabb_all(self, aabb, motion, filter, out)
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        let mut best: Option<RayHit> = None;
        let mut stats = QueryStats::default();
        for s in self.slots.live_slots() {
            stats.candidates += 1;
            if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                let hit = RayHit { id: self.slots.id(s), t };
                if best.is_none_or(|b| hit.before(&b)) && filter(hit.id) {
                    best = Some(hit);
                }
            }
        }
        stats.visited = stats.candidates;
        stats.hits = u64::from(best.is_some());
        (best, stats)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        out.clear();
        let mut stats = QueryStats::default();
        for s in self.slots.live_slots() {
            stats.candidates += 1;
            if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                let id = self.slots.id(s);
                if filter(id) {
                    out.push(RayHit { id, t });
                }
            }
        }
        sort_hits(out);
        stats.visited = stats.candidates;
        stats.hits = out.len() as u64;
        stats
    }

    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        out.clear();
        let live: Vec<u32> = self.slots.live_slots().collect();
        let mut stats = QueryStats::default();
        for (k, &a) in live.iter().enumerate() {
            let box_a = self.slots.aabbs[a as usize];
            for &b in &live[k + 1..] {
                stats.candidates += 1;
                if box_a.overlaps(&self.slots.aabbs[b as usize]) {
                    out.push((self.slots.id(a), self.slots.id(b)));
                }
            }
        }
        stats.visited = live.len() as u64;
        stats.hits = out.len() as u64;
        stats
    }

    fn debug_view(&mut self, _visit: &mut dyn FnMut(Aabb, u32)) {}
}
