//! [`SecondaryMap`]: more values for the keys of another array.

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::{Handle, Key, disjoint_positions};
use crate::HandleArray;
use crate::error::{Error, Result};

#[derive(Clone, Debug)]
struct Entry<V> {
    /// The generation of the newest key seen for this slot (odd), or 0 for none yet.
    generation: u32,
    value: Option<V>,
}

/// Whether generation `a` was issued after `b` (both odd; generations wrap after 2^31 reuses of
/// a slot, so the comparison is on the wrapping difference).
#[inline]
fn newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// Values of a second kind for the keys of a [`HandleArray`] or
/// [`DenseHandleArray`](crate::DenseHandleArray) (as slotmap's `SecondaryMap`): components
/// that only some entities have, or data one system owns.
///
/// A value is found only by the exact key it was stored under. Once a newer key of the same
/// slot has been stored (the slot was reused in the primary array), the older key finds
/// nothing and storing under it is refused with [`Error::StaleHandle`]. Removing a value from
/// the primary array does not reach this map by itself: remove it here too, or call
/// [`retain_live`](Self::retain_live) (once a frame, say) to drop the values of keys the
/// primary no longer holds.
///
/// The map is a `Vec` as long as the largest slot index stored: give it keys from an array
/// (whose indices are dense), not forged ones.
///
/// ```
/// use lore_allocators::{HandleArray, SecondaryMap};
///
/// let mut enemies = HandleArray::new();
/// let mut names = SecondaryMap::new();
/// let orc = enemies.insert(30_u32);
/// names.insert(orc, "Grok")?;
/// enemies.remove(orc)?;
/// let bat = enemies.insert(5); // reuses the orc's slot
/// assert_eq!(names.get(bat), None, "the bat has no name yet");
/// names.retain_live(&enemies);
/// assert_eq!(names.get(orc), None, "the orc is gone from the primary");
/// names.insert(bat, "Flit")?;
/// assert_eq!(names[bat], "Flit");
/// # Ok::<(), lore_allocators::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SecondaryMap<V, K: Key = Handle> {
    entries: Vec<Entry<V>>,
    len: usize,
    key: PhantomData<fn(K) -> K>,
}

impl<V, K: Key> Default for SecondaryMap<V, K> {
    fn default() -> Self {
        Self { entries: Vec::new(), len: 0, key: PhantomData }
    }
}

impl<V, K: Key> SecondaryMap<V, K> {
    /// An empty map (the key type comes from the first use, or name it:
    /// `SecondaryMap::<V, MyKey>::new()`).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty map with room for slot indices below `n`.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        Self { entries: Vec::with_capacity(n), len: 0, key: PhantomData }
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Stores `value` under `key`; returns the value it replaces (stored under the same key).
    /// A value stored under an older key of the same slot is dropped.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] (dropping `value`) if a newer key of the same slot was stored
    /// here before; [`Error::OutOfMemory`] if the map cannot grow to the key's index.
    pub fn insert(&mut self, key: K, value: V) -> Result<Option<V>> {
        let handle = key.handle();
        let index = handle.index as usize;
        if index >= self.entries.len() {
            let extra = index + 1 - self.entries.len();
            self.entries.try_reserve(extra).map_err(|_| Error::OutOfMemory {
                size: extra.saturating_mul(core::mem::size_of::<Entry<V>>()),
                align: core::mem::align_of::<Entry<V>>(),
            })?;
            self.entries.resize_with(index + 1, || Entry { generation: 0, value: None });
        }
        let entry = &mut self.entries[index];
        let generation = handle.generation();
        if entry.generation != generation {
            if entry.generation != 0 && !newer(generation, entry.generation) {
                return Err(Error::StaleHandle);
            }
            entry.generation = generation;
            if entry.value.take().is_some() {
                self.len -= 1;
            }
        }
        let old = entry.value.replace(value);
        if old.is_none() {
            self.len += 1;
        }
        Ok(old)
    }

    #[inline]
    fn entry(&self, handle: Handle) -> Option<&Entry<V>> {
        self.entries.get(handle.index as usize).filter(|e| e.generation == handle.generation())
    }

    /// The value stored under `key`, or `None`.
    #[inline]
    #[must_use]
    pub fn get(&self, key: K) -> Option<&V> {
        self.entry(key.handle())?.value.as_ref()
    }

    /// The value stored under `key`, mutably.
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        let handle = key.handle();
        self.entries.get_mut(handle.index as usize).filter(|e| e.generation == handle.generation())?.value.as_mut()
    }

    /// Whether a value is stored under `key`.
    #[must_use]
    pub fn contains(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Removes and returns the value stored under `key`.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if no value is stored under `key`.
    pub fn remove(&mut self, key: K) -> Result<V> {
        let handle = key.handle();
        let entry = self
            .entries
            .get_mut(handle.index as usize)
            .filter(|e| e.generation == handle.generation())
            .ok_or(Error::StaleHandle)?;
        let value = entry.value.take().ok_or(Error::StaleHandle)?;
        self.len -= 1;
        Ok(value)
    }

    /// Mutable references to the values of several keys at once.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if a key has no value here, [`Error::AliasedHandles`] (naming the
    /// first two positions) if two keys name the same value.
    pub fn get_disjoint_mut<const N: usize>(&mut self, keys: [K; N]) -> Result<[&mut V; N]> {
        let places =
            disjoint_positions(&keys, |h| self.entry(h).filter(|e| e.value.is_some()).map(|_| h.index as usize))?;
        let base = self.entries.as_mut_ptr();
        // SAFETY: each place is the index of an entry inside `entries` holding a value, and the
        // places are pairwise distinct, so the references do not alias; they borrow `self`
        // mutably for their lifetime.
        Ok(places.map(|i| unsafe { (*base.add(i)).value.as_mut().expect("checked to hold a value above") }))
    }

    /// Keeps the values for which `keep` returns `true`, in slot order.
    pub fn retain(&mut self, mut keep: impl FnMut(K, &mut V) -> bool) {
        for (i, entry) in self.entries.iter_mut().enumerate() {
            let Some(value) = &mut entry.value else { continue };
            let key = K::from_handle(Handle::new(i as u32, entry.generation));
            if !keep(key, value) {
                entry.value = None;
                self.len -= 1;
            }
        }
    }

    /// Drops the values whose keys `primary` no longer holds.
    pub fn retain_live<T>(&mut self, primary: &HandleArray<T, K>) {
        self.retain(|key, _| primary.contains(key));
    }

    /// Removes every value.
    pub fn clear(&mut self) {
        self.retain(|_, _| false);
    }

    /// Removes every value and yields it with its key, in slot order; values the iterator
    /// does not reach are dropped with it.
    pub fn drain(&mut self) -> impl Iterator<Item = (K, V)> + '_ {
        SecondaryDrain { map: self, next: 0 }
    }

    /// Every value with its key, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> + '_ {
        self.entries.iter().enumerate().filter_map(|(i, e)| {
            let value = e.value.as_ref()?;
            Some((K::from_handle(Handle::new(i as u32, e.generation)), value))
        })
    }

    /// Every value, mutably, with its key, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> + '_ {
        self.entries.iter_mut().enumerate().filter_map(|(i, e)| {
            let value = e.value.as_mut()?;
            Some((K::from_handle(Handle::new(i as u32, e.generation)), value))
        })
    }

    /// Every key with a value, in slot order.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// Every value, in slot order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.entries.iter().filter_map(|e| e.value.as_ref())
    }

    /// Every value, mutably, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.entries.iter_mut().filter_map(|e| e.value.as_mut())
    }
}

impl<V, K: Key> core::ops::Index<K> for SecondaryMap<V, K> {
    type Output = V;

    /// The value stored under `key`.
    ///
    /// # Panics
    /// If none is; use [`SecondaryMap::get`] for keys that may have none.
    fn index(&self, key: K) -> &V {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no value for handle {key:?}"),
        }
    }
}

impl<V, K: Key> core::ops::IndexMut<K> for SecondaryMap<V, K> {
    /// The value stored under `key`, mutably.
    ///
    /// # Panics
    /// If none is; use [`SecondaryMap::get_mut`] for keys that may have none.
    fn index_mut(&mut self, key: K) -> &mut V {
        match self.get_mut(key) {
            Some(v) => v,
            None => panic!("no value for handle {key:?}"),
        }
    }
}

/// The iterator of [`SecondaryMap::drain`]: removes one value per step.
struct SecondaryDrain<'a, V, K: Key> {
    map: &'a mut SecondaryMap<V, K>,
    next: usize,
}

impl<V, K: Key> Iterator for SecondaryDrain<'_, V, K> {
    type Item = (K, V);

    fn next(&mut self) -> Option<(K, V)> {
        while let Some(entry) = self.map.entries.get_mut(self.next) {
            let index = self.next as u32;
            self.next += 1;
            if let Some(value) = entry.value.take() {
                self.map.len -= 1;
                return Some((K::from_handle(Handle::new(index, entry.generation)), value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.map.len, Some(self.map.len))
    }
}

impl<V, K: Key> Drop for SecondaryDrain<'_, V, K> {
    fn drop(&mut self) {
        for _ in self.by_ref() {}
    }
}
