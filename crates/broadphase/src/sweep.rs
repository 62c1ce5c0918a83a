//! Single-axis sweep: boxes sorted by their lower bound on one axis, re-sorted each frame by
//! insertion sort, which is nearly linear when boxes move a little per frame (temporal
//! coherence). A box can overlap only the boxes that start before it ends on that axis.

use crate::error::Error;
use crate::hits::sort_hits;
use crate::id::ProxyId;
use crate::index::{SpatialIndex, check_lengths};
use crate::pairs::{Order, PairSort, RANGES_PER_THREAD, SlotRanges};
use crate::par::{self, Spare, Threads};
use crate::ray_hit::RayHit;
use crate::slots::Slots;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use lore_geom::{Aabb, Ray};

/// The axis a [`Sweep`] sorts on: the one the action spreads along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Axis {
    /// Sort by `min.x` (side scrollers).
    #[default]
    X,
    /// Sort by `min.y` (vertical scrollers).
    Y,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    aabb: Aabb,
    slot: u32,
    generation: u32,
}

/// Single-axis sweep with insertion sort.
///
/// Linear per frame when boxes are spread along the axis and move smoothly; quadratic when
/// many boxes share the same stretch of the axis (a crowd seen end-on). Queries and raycasts
/// scan the sorted list (a query stops at the first box starting past its end).
#[derive(Clone, Debug, Default)]
pub struct Sweep {
    slots: Slots,
    axis: Axis,
    entries: Vec<Entry>,
    dirty: bool,
    /// Entries appended since the last sort: many of them make a full sort cheaper than
    /// insertion sort.
    appended: usize,
    /// The pair keys of the last `pairs` call, one buffer per thread (kept for reuse).
    part_packed: Vec<Vec<u64>>,
    /// The job list and the key slices of a pass on several threads (kept for reuse).
    jobs: Spare,
    key_slices: Spare,
    /// How many threads `pairs` may use.
    threads: Threads,
    /// Sorts the pair keys into id pairs.
    pair_sort: PairSort,
}

impl Sweep {
    /// An empty sweep along `axis`.
    #[must_use]
    pub fn new(axis: Axis) -> Self {
        Self { axis, ..Self::default() }
    }

    /// The axis sorted on.
    #[must_use]
    pub fn axis(&self) -> Axis {
        self.axis
    }

    fn a(&self) -> usize {
        match self.axis {
            Axis::X => 0,
            Axis::Y => 1,
        }
    }

    /// Brings entries up to date and sorted.
    fn refresh(&mut self) {
        if !self.dirty {
            return;
        }
        let slots = &self.slots;
        self.entries.retain_mut(|e| {
            let keep = slots.is_live(e.slot) && slots.id(e.slot).generation() == e.generation;
            if keep {
                e.aabb = slots.aabbs[e.slot as usize];
            }
            keep
        });
        let a = self.a();
        let key = |e: &Entry| e.aabb.min()[a];
        if self.appended * 4 > self.entries.len() {
            self.entries.sort_unstable_by(|p, q| key(p).total_cmp(&key(q)).then(p.slot.cmp(&q.slot)));
        } else {
            // Insertion sort: O(n + swaps), few swaps when the order barely changed.
            for i in 1..self.entries.len() {
                let e = self.entries[i];
                let mut j = i;
                while j > 0 && key(&self.entries[j - 1]) > key(&e) {
                    self.entries[j] = self.entries[j - 1];
                    j -= 1;
                }
                self.entries[j] = e;
            }
        }
        self.appended = 0;
        self.dirty = false;
    }
}

impl SpatialIndex for Sweep {
    fn name(&self) -> &'static str {
        "sweep"
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        let id = self.slots.insert(aabb)?;
        self.entries.push(Entry { aabb, slot: id.index(), generation: id.generation() });
        self.appended += 1;
        self.dirty = true;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        let (_, aabb) = self.slots.remove(id)?;
        self.dirty = true;
        Ok(aabb)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        self.dirty = true;
        Ok(())
    }

    fn update_many(&mut self, ids: &[ProxyId], boxes: &[Aabb]) -> Result<(), Error> {
        check_lengths(ids, boxes)?;
        self.slots.set_many(ids, |i| boxes[i], self.threads)?;
        self.dirty |= !ids.is_empty();
        Ok(())
    }

    fn update_many_with(&mut self, ids: &[ProxyId], boxes: &(dyn Fn(usize) -> Aabb + Sync)) -> Result<(), Error> {
        self.slots.set_many(ids, boxes, self.threads)?;
        self.dirty |= !ids.is_empty();
        Ok(())
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.slots.get(id)
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.entries.clear();
        self.appended = 0;
        self.dirty = false;
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }

    fn ids_and_boxes(&self, ids: &mut Vec<ProxyId>, boxes: &mut Vec<Aabb>) {
        self.slots.ids_and_boxes(ids, boxes);
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        self.refresh();
        out.clear();
        let a = self.a();
        let mut stats = QueryStats::default();
        for e in &self.entries {
            stats.visited += 1;
            if e.aabb.min()[a] > area.max()[a] {
                break;
            }
            stats.candidates += 1;
            if e.aabb.overlaps(area) {
                out.push(self.slots.id(e.slot));
            }
        }
        out.sort_unstable();
        stats.hits = out.len() as u64;
        stats
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        self.refresh();
        let mut best: Option<RayHit> = None;
        let mut stats = QueryStats::default();
        for e in &self.entries {
            stats.visited += 1;
            stats.candidates += 1;
            if let Some(t) = e.aabb.ray_entry(ray) {
                let hit = RayHit { id: self.slots.id(e.slot), t };
                if best.is_none_or(|b| hit.before(&b)) && filter(hit.id) {
                    best = Some(hit);
                }
            }
        }
        stats.hits = u64::from(best.is_some());
        (best, stats)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        self.refresh();
        out.clear();
        let mut stats = QueryStats::default();
        for e in &self.entries {
            stats.visited += 1;
            stats.candidates += 1;
            if let Some(t) = e.aabb.ray_entry(ray) {
                let id = self.slots.id(e.slot);
                if filter(id) {
                    out.push(RayHit { id, t });
                }
            }
        }
        sort_hits(out);
        stats.hits = out.len() as u64;
        stats
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

    fn debug_view(&mut self, _visit: &mut dyn FnMut(Aabb, u32)) {}
}

/// Fewer entries than this per thread are swept on fewer threads.
const PARALLEL_ENTRIES: usize = 4 * 1024;

impl Sweep {
    /// Each entry against the entries after it that start before it ends. On several threads
    /// each takes a run of the sorted entries with its own keys; the keys, taken in order,
    /// are one thread's.
    fn pairs_in(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.refresh();
        let a = self.a();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let n = self.entries.len();
        let parts = self.threads.parts(n, PARALLEL_ENTRIES);
        // On several threads, for `pairs`: each part's keys by the slot range of their first slot.
        let split = parts > 1 && order == Order::Ids;
        let ranges = SlotRanges::new(if split { parts * RANGES_PER_THREAD } else { 1 }, self.slots.capacity());
        self.part_packed.resize_with(parts * ranges.len(), Vec::new);
        let chunk = n.div_ceil(parts).max(1);
        let mut jobs: Vec<(usize, &mut [Vec<u64>], QueryStats)> = self.jobs.take();
        jobs.extend(
            self.part_packed
                .chunks_mut(ranges.len())
                .take(parts)
                .enumerate()
                .map(|(i, keys)| (i * chunk, keys, QueryStats::default())),
        );
        let entries = &self.entries[..];
        par::run(&mut jobs, |(start, keys, stats)| {
            keys.iter_mut().for_each(Vec::clear);
            let end = (*start + chunk).min(entries.len());
            for (i, e) in entries.iter().enumerate().take(end).skip(*start) {
                let reach = e.aabb.max()[a];
                stats.visited += 1;
                for f in &entries[i + 1..] {
                    if f.aabb.min()[a] > reach {
                        break;
                    }
                    stats.candidates += 1;
                    if e.aabb.overlaps(&f.aabb) {
                        let (lo, hi) = if e.slot < f.slot { (e.slot, f.slot) } else { (f.slot, e.slot) };
                        keys[ranges.of(lo)].push((u64::from(lo) << bits) | u64::from(hi));
                    }
                }
            }
        });
        let stats = jobs.iter().fold(QueryStats::default(), |s, j| s.plus(j.2));
        // The key slices by part, then by slot range (one range when not split).
        let mut keys: Vec<&[u64]> = self.key_slices.take();
        keys.extend(jobs.iter().flat_map(|j| j.1.iter().map(|k| &k[..])));
        if split {
            self.pair_sort.sort_ranges(&keys, ranges, parts, bits, &self.slots, out);
        } else {
            self.pair_sort.sort_into(&keys, bits, &self.slots, out, order, self.threads);
        }
        self.key_slices.keep(keys);
        self.jobs.keep(jobs);
        QueryStats { hits: out.len() as u64, ..stats }
    }
}
