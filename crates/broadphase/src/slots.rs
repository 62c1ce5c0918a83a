//! The slot table every index keeps its boxes in: each box by slot, with the slot's generation
//! and liveness, and the free list that hands out ids (see [`crate::ProxyId`]).

use crate::error::Error;
use crate::id::ProxyId;
use crate::par::{self, Spare, Threads};
use alloc::vec::Vec;
use lore_geom::Aabb;

/// Fewer ids than this per thread are checked and written on fewer threads.
const PARALLEL_IDS: usize = 16 * 1024;

/// The boxes of one index, by slot.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slots {
    /// The current (tight) box of each slot; meaningless for dead slots.
    pub(crate) aabbs: Vec<Aabb>,
    generation: Vec<u32>,
    live: Vec<bool>,
    free: Vec<u32>,
    len: usize,
    /// The job lists of `set_many` on several threads (kept for reuse).
    checks: Spare,
    writes: Spare,
}

impl Slots {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Number of slots, live or not (slot indices are below this).
    pub(crate) fn capacity(&self) -> usize {
        self.aabbs.len()
    }

    pub(crate) fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        let index = if let Some(i) = self.free.pop() {
            self.aabbs[i as usize] = aabb;
            self.live[i as usize] = true;
            i
        } else {
            let i = u32::try_from(self.aabbs.len()).ok().filter(|&i| i < u32::MAX).ok_or(Error::Full)?;
            self.aabbs.push(aabb);
            self.generation.push(0);
            self.live.push(true);
            // The free list never holds more than every slot: growing it with the slots keeps
            // `remove` free of heap allocation (a game removing bullets every frame allocates
            // nothing once its slot count has settled).
            if self.free.capacity() < self.aabbs.len() {
                self.free.reserve(self.aabbs.len() - self.free.len());
            }
            i
        };
        self.len += 1;
        Ok(ProxyId::new(index, self.generation[index as usize]))
    }

    /// The slot of a live id.
    #[inline]
    pub(crate) fn slot(&self, id: ProxyId) -> Result<u32, Error> {
        let i = id.index() as usize;
        if i < self.live.len() && self.live[i] && self.generation[i] == id.generation() {
            Ok(id.index())
        } else {
            Err(Error::StaleId(id))
        }
    }

    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<(u32, Aabb), Error> {
        let i = self.slot(id)?;
        let s = i as usize;
        self.live[s] = false;
        self.generation[s] = self.generation[s].wrapping_add(1);
        self.free.push(i);
        self.len -= 1;
        Ok((i, self.aabbs[s]))
    }

    /// Gives each `ids[i]` the box `box_of(i)`, in order (an id listed twice keeps its last
    /// box), on up to `threads` threads: first every id is checked, then the boxes are made
    /// and written, `box_of` called once for each `i`. Ids in ascending order (as `ids()` and
    /// `insert` give them) are cut into runs, several per thread, whose slots cannot meet; in any
    /// other order each thread reads every id and writes those of one slot range, so two
    /// threads never write one slot.
    ///
    /// # Errors
    /// [`Error::StaleId`] for the first id that is not live (nothing written, `box_of` not
    /// called).
    pub(crate) fn set_many(
        &mut self,
        ids: &[ProxyId],
        box_of: impl Fn(usize) -> Aabb + Sync,
        threads: Threads,
    ) -> Result<(), Error> {
        let threads = threads.parts(ids.len(), PARALLEL_IDS);
        if threads == 1 {
            if let (Some(id), _) = self.check(ids) {
                return Err(Error::StaleId(id));
            }
            write_range(0, &mut self.aabbs, ids, 0, &box_of);
            return Ok(());
        }
        // Runs of ids, several per thread (see `PARTS_PER_THREAD`).
        let chunk = ids.len().div_ceil(threads * par::PARTS_PER_THREAD);
        let mut checks: Vec<(&[ProxyId], Option<ProxyId>, bool)> = self.checks.take();
        checks.extend(ids.chunks(chunk).map(|c| (c, None, true)));
        par::run_on(threads, &mut checks, |(c, stale, ascending)| (*stale, *ascending) = self.check(c));
        if let Some(id) = checks.iter().find_map(|c| c.1) {
            self.checks.keep(checks);
            return Err(Error::StaleId(id));
        }
        let ascending = checks.iter().all(|c| c.2)
            && checks.windows(2).all(|w| w[0].0.last().map(|a| a.index()) < w[1].0.first().map(|b| b.index()));
        if ascending {
            // Each run's slots lie in `first..=last` of its ids, and these do not overlap.
            let mut jobs: Vec<(usize, &mut [Aabb], &[ProxyId], usize)> = self.writes.take();
            let (mut rest, mut skipped) = (&mut self.aabbs[..], 0);
            for (k, (c, _, _)) in checks.iter().enumerate() {
                let (first, last) = (c[0].index() as usize, c[c.len() - 1].index() as usize);
                let (_, tail) = core::mem::take(&mut rest).split_at_mut(first - skipped);
                let (here, tail) = tail.split_at_mut(last + 1 - first);
                (rest, skipped) = (tail, last + 1);
                jobs.push((first, here, *c, k * chunk));
            }
            par::run_on(threads, &mut jobs, |(first, here, c, at)| write_range(*first, here, c, *at, &box_of));
            self.writes.keep(jobs);
            self.checks.keep(checks);
            return Ok(());
        }
        self.checks.keep(checks);
        // Each part reads every id: one part per thread.
        let width = self.aabbs.len().div_ceil(threads).max(1);
        let mut ranges: Vec<(usize, &mut [Aabb], &[ProxyId], usize)> = self.writes.take();
        ranges.extend(self.aabbs.chunks_mut(width).enumerate().map(|(i, part)| (i * width, part, ids, 0)));
        par::run(&mut ranges, |(first, part, ids, at)| write_range(*first, part, ids, *at, &box_of));
        self.writes.keep(ranges);
        Ok(())
    }

    /// The first of `ids` that is not live, if any, and whether their slots are ascending.
    fn check(&self, ids: &[ProxyId]) -> (Option<ProxyId>, bool) {
        let mut ascending = true;
        let mut after = 0;
        for &id in ids {
            if self.slot(id).is_err() {
                return (Some(id), false);
            }
            ascending &= id.index() >= after;
            after = id.index() + 1;
        }
        (None, ascending)
    }

    pub(crate) fn get(&self, id: ProxyId) -> Option<Aabb> {
        self.slot(id).ok().map(|i| self.aabbs[i as usize])
    }

    #[inline]
    pub(crate) fn is_live(&self, slot: u32) -> bool {
        self.live[slot as usize]
    }

    /// The id of live slot `slot`.
    #[inline]
    pub(crate) fn id(&self, slot: u32) -> ProxyId {
        ProxyId::new(slot, self.generation[slot as usize])
    }

    /// The generation of each slot, by slot (a live slot's id is its index and generation).
    #[inline]
    pub(crate) fn generations(&self) -> &[u32] {
        &self.generation
    }

    /// Whether each slot is live, by slot.
    #[inline]
    pub(crate) fn live_flags(&self) -> &[bool] {
        &self.live
    }

    /// Every live proxy's id, ascending, and its box (both vectors replaced).
    pub(crate) fn ids_and_boxes(&self, ids: &mut Vec<ProxyId>, boxes: &mut Vec<Aabb>) {
        ids.clear();
        boxes.clear();
        for (i, ((&live, &generation), &aabb)) in self.live.iter().zip(&self.generation).zip(&self.aabbs).enumerate() {
            if live {
                ids.push(ProxyId::new(i as u32, generation));
                boxes.push(aabb);
            }
        }
    }

    pub(crate) fn live_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.live.iter().enumerate().filter(|(_, l)| **l).map(|(i, _)| i as u32)
    }

    pub(crate) fn clear(&mut self) {
        // Keep generations so ids issued before the clear stay stale.
        for s in 0..self.live.len() {
            if self.live[s] {
                self.live[s] = false;
                self.generation[s] = self.generation[s].wrapping_add(1);
            }
        }
        self.free = (0..self.live.len() as u32).rev().collect();
        self.len = 0;
    }
}

/// Writes `box_of(at + i)` for each `ids[i]` whose slot is in `first..first + part.len()` to
/// `part` (the boxes of those slots), in order.
fn write_range(first: usize, part: &mut [Aabb], ids: &[ProxyId], at: usize, box_of: &impl Fn(usize) -> Aabb) {
    for (i, &id) in ids.iter().enumerate() {
        if let Some(s) = (id.index() as usize).checked_sub(first)
            && s < part.len()
        {
            part[s] = box_of(at + i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn reused_slots_get_new_generations() {
        let mut s = Slots::default();
        let a = s.insert(Aabb::point(Vec2::ZERO).unwrap()).unwrap();
        let b = s.insert(Aabb::point(Vec2::ONE).unwrap()).unwrap();
        s.remove(a).unwrap();
        assert_eq!(s.remove(a), Err(Error::StaleId(a)));
        let c = s.insert(Aabb::point(Vec2::ONE).unwrap()).unwrap();
        assert_eq!(c.index(), a.index());
        assert_ne!(c, a);
        assert!(s.get(a).is_none() && s.get(c).is_some() && s.get(b).is_some());
        assert_eq!(ProxyId::from_bits(c.to_bits()), c);
        s.clear();
        assert!(s.get(b).is_none() && s.len() == 0);
    }

    #[test]
    fn the_free_list_has_room_for_every_slot_so_removal_never_grows_it() {
        let mut s = Slots::default();
        let ids: Vec<ProxyId> =
            (0..1000).map(|i| s.insert(Aabb::point(Vec2::splat(i as f32)).unwrap()).unwrap()).collect();
        let room = s.free.capacity();
        assert!(room >= 1000);
        for id in ids {
            s.remove(id).unwrap();
        }
        assert_eq!(s.free.capacity(), room, "removing every box reallocated the free list");
    }
}
