//! The slot table every index keeps its boxes in: each box by slot, with the slot's generation
//! and liveness, and the free list that hands out ids (see [`crate::ProxyId`]).

use crate::error::Error;
use crate::id::ProxyId;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// The boxes of one index, by slot.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slots {
    /// The current (tight) box of each slot; meaningless for dead slots.
    pub(crate) aabbs: Vec<Aabb>,
    generation: Vec<u32>,
    live: Vec<bool>,
    free: Vec<u32>,
    len: usize,
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
