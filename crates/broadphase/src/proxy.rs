//! Proxy ids and the slot table every index keeps its boxes in.
//!
//! All indexes allocate ids the same way (lowest-cost: the most recently freed slot first, a new
//! slot otherwise), so the same sequence of inserts and removals gives the same ids in every
//! index. That is what lets the tests compare any index with [`BruteForce`](crate::BruteForce)
//! answer for answer.

use crate::{Aabb, Error};
use alloc::vec::Vec;

/// A handle to one box in one index: a slot index plus the slot's generation.
///
/// A removed proxy's id goes stale: every method given it returns `None` or
/// [`Error::StaleId`], even after its slot is reused by a later insert (which gets a new
/// generation). Ids order by slot index first, so among live proxies the order is the slot order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The id of slot `index` at generation `generation`.
    #[inline]
    pub(crate) const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index: dense from 0, reused after removal. Handy as an index into a side table.
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this id was issued.
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// Packs the id into a `u64` (generation high, index low).
    #[must_use]
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// The id packed by [`ProxyId::to_bits`]. An id made up this way is just stale if no index
    /// issued it.
    #[must_use]
    pub fn from_bits(bits: u64) -> Self {
        Self { index: bits as u32, generation: (bits >> 32) as u32 }
    }
}

impl core::fmt::Debug for ProxyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

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
            i
        };
        self.len += 1;
        Ok(ProxyId { index, generation: self.generation[index as usize] })
    }

    /// The slot of a live id.
    #[inline]
    pub(crate) fn slot(&self, id: ProxyId) -> Result<u32, Error> {
        let i = id.index as usize;
        if i < self.live.len() && self.live[i] && self.generation[i] == id.generation {
            Ok(id.index)
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
        ProxyId { index: slot, generation: self.generation[slot as usize] }
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
                ids.push(ProxyId { index: i as u32, generation });
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
}
