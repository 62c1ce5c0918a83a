//! [`ProxyMap`]: a user value per proxy, kept beside an index.
//!
//! The indexes hold boxes only (so every index stays one small, fast structure, and so that
//! a value lives where its owner wants it). The pattern for a payload is a side table keyed by
//! the [`ProxyId`]: a `ProxyMap` is one, with the id's generation checked, so a stale id never
//! finds the value of the proxy that reused its slot.

use crate::id::ProxyId;
use crate::index::SpatialIndex;
use alloc::vec::Vec;

/// A value per proxy, by [`ProxyId`] (an entity handle, a collider, a tile kind...).
///
/// Values sit in a `Vec` by [`ProxyId::index`], which indexes keep dense, with the generation
/// of the id they were stored under: [`ProxyMap::get`] answers only for that exact id. One
/// value per slot: storing under a newer id of a slot replaces the older id's value. Removing
/// a proxy from its index does not reach the map by itself: remove its value too, or call
/// [`ProxyMap::retain_live`] after a batch of removals.
///
/// ```
/// use lore_broadphase::{Aabb, Grid, ProxyMap, SpatialIndex, glam::vec2};
/// # fn main() -> Result<(), lore_broadphase::Error> {
/// #[derive(Debug, PartialEq)]
/// enum Kind { Wall, Coin }
///
/// let mut grid = Grid::new(vec2(0.0, 0.0), 2.0, 32, 32)?;
/// let mut kinds = ProxyMap::new();
/// let wall = grid.insert(Aabb::new(vec2(4.0, 0.0), vec2(5.0, 8.0))?)?;
/// let coin = grid.insert(Aabb::from_center(vec2(2.0, 2.0), vec2(0.25, 0.25))?)?;
/// kinds.insert(wall, Kind::Wall);
/// kinds.insert(coin, Kind::Coin);
///
/// // What does the player touch?
/// let mut touching = Vec::new();
/// grid.query_aabb(&Aabb::from_center(vec2(2.2, 2.0), vec2(0.5, 0.5))?, &mut touching);
/// assert_eq!(kinds.get(touching[0]), Some(&Kind::Coin));
///
/// grid.remove(coin)?;
/// kinds.retain_live(&grid);
/// assert_eq!(kinds.get(coin), None);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ProxyMap<T> {
    entries: Vec<Option<(u32, T)>>,
    len: usize,
}

impl<T> Default for ProxyMap<T> {
    fn default() -> Self {
        Self { entries: Vec::new(), len: 0 }
    }
}

impl<T> ProxyMap<T> {
    /// An empty map.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map holds no value.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Stores `value` for `id`; returns the value it replaces if that was stored under the
    /// same id (a value stored under another id of the same slot is dropped).
    ///
    /// The map grows to `id.index() + 1` entries: give it ids from an index (whose slot
    /// indices are dense), not made-up ones.
    pub fn insert(&mut self, id: ProxyId, value: T) -> Option<T> {
        let i = id.index() as usize;
        if i >= self.entries.len() {
            self.entries.resize_with(i + 1, || None);
        }
        let old = self.entries[i].replace((id.generation(), value));
        match old {
            Some((g, v)) if g == id.generation() => Some(v),
            Some(_) => None,
            None => {
                self.len += 1;
                None
            }
        }
    }

    /// The value stored for `id`, or `None` (never another id's value).
    #[must_use]
    pub fn get(&self, id: ProxyId) -> Option<&T> {
        match self.entries.get(id.index() as usize) {
            Some(Some((g, v))) if *g == id.generation() => Some(v),
            _ => None,
        }
    }

    /// The value stored for `id`, mutably.
    pub fn get_mut(&mut self, id: ProxyId) -> Option<&mut T> {
        match self.entries.get_mut(id.index() as usize) {
            Some(Some((g, v))) if *g == id.generation() => Some(v),
            _ => None,
        }
    }

    /// Removes and returns the value stored for `id`.
    pub fn remove(&mut self, id: ProxyId) -> Option<T> {
        let entry = self.entries.get_mut(id.index() as usize)?;
        if entry.as_ref().is_some_and(|(g, _)| *g == id.generation()) {
            self.len -= 1;
            entry.take().map(|(_, v)| v)
        } else {
            None
        }
    }

    /// Keeps the values for which `keep` returns `true`.
    pub fn retain(&mut self, mut keep: impl FnMut(ProxyId, &mut T) -> bool) {
        for (i, entry) in self.entries.iter_mut().enumerate() {
            if let Some((g, v)) = entry
                && !keep(ProxyId::new(i as u32, *g), v)
            {
                *entry = None;
                self.len -= 1;
            }
        }
    }

    /// Drops the values of ids that `index` no longer holds.
    pub fn retain_live(&mut self, index: &(impl SpatialIndex + ?Sized)) {
        self.retain(|id, _| index.aabb(id).is_some());
    }

    /// Every value with its id, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (ProxyId, &T)> + '_ {
        self.entries.iter().enumerate().filter_map(|(i, e)| e.as_ref().map(|(g, v)| (ProxyId::new(i as u32, *g), v)))
    }

    /// Removes every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Aabb, BruteForce};
    use glam::vec2;

    #[test]
    fn stale_ids_never_find_a_value() {
        let mut index = BruteForce::new();
        let mut map = ProxyMap::new();
        let b = Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap();
        let a = index.insert(b).unwrap();
        assert_eq!(map.insert(a, "a"), None);
        assert_eq!(map.insert(a, "a2"), Some("a"));
        index.remove(a).unwrap();
        let c = index.insert(b).unwrap();
        assert_eq!(c.index(), a.index());
        assert_eq!(map.get(c), None, "the new proxy has no value yet");
        assert_eq!(map.get(a), Some(&"a2"), "until retain_live, the old id keeps its value");
        map.retain_live(&index);
        assert_eq!((map.get(a), map.len()), (None, 0));
        map.insert(a, "old");
        assert_eq!(map.insert(c, "c"), None, "a newer id replaces the old id's value");
        assert_eq!((map.get(a), map.get(c), map.len()), (None, Some(&"c"), 1));
        assert_eq!(map.remove(a), None);
        assert_eq!(map.remove(c), Some("c"));
        assert!(map.is_empty());
    }
}
