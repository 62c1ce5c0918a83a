//! [`DenseHandleArray`]: values packed in one `Vec`.

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::{Handle, Key, NO_FREE, disjoint_positions, next_index};
use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug)]
struct DenseSlot {
    generation: u32,
    /// Position in `values` while occupied, next free slot while vacant.
    target: u32,
}

/// A dense generational array: values are packed in one `Vec` (removal moves the last value
/// into the hole), so iteration is a plain slice walk; `get` adds one indirection.
///
/// `K` is the key type, as for [`HandleArray`](crate::HandleArray).
///
/// ```
/// use lore_allocators::DenseHandleArray;
///
/// let mut particles = DenseHandleArray::new();
/// let a = particles.insert(1.0_f32);
/// let b = particles.insert(2.0);
/// particles.remove(a)?;
/// assert_eq!(particles.values(), &[2.0]);
/// assert_eq!(particles.get(b), Some(&2.0));
/// assert_eq!(particles[b], 2.0);
/// # Ok::<(), lore_allocators::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DenseHandleArray<T, K: Key = Handle> {
    values: Vec<T>,
    /// Slot index of each value.
    owners: Vec<u32>,
    slots: Vec<DenseSlot>,
    free_head: u32,
    key: PhantomData<fn(K) -> K>,
}

impl<T, K: Key> Default for DenseHandleArray<T, K> {
    fn default() -> Self {
        Self::with_key()
    }
}

impl<T> DenseHandleArray<T> {
    /// An empty array keyed by [`Handle`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_key()
    }
}

impl<T, K: Key> DenseHandleArray<T, K> {
    /// An empty array keyed by `K` (a type made with [`new_key_type!`](crate::new_key_type)).
    #[must_use]
    pub const fn with_key() -> Self {
        Self { values: Vec::new(), owners: Vec::new(), slots: Vec::new(), free_head: NO_FREE, key: PhantomData }
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Stores `value` and returns its key.
    ///
    /// # Panics
    /// If the array would hold more than `u32::MAX - 1` values; [`try_insert`](Self::try_insert)
    /// returns an error instead.
    pub fn insert(&mut self, value: T) -> K {
        match self.try_insert(value) {
            Ok(key) => key,
            Err(e) => panic!("{e}"),
        }
    }

    /// Stores `value` and returns its key, or [`Error::Full`] (dropping `value`) when the
    /// array holds `u32::MAX - 1` values or slots.
    ///
    /// # Errors
    /// [`Error::Full`].
    pub fn try_insert(&mut self, value: T) -> Result<K> {
        let pos = next_index(self.values.len())?;
        let index = if self.free_head != NO_FREE {
            let index = self.free_head;
            let slot = &mut self.slots[index as usize];
            self.free_head = slot.target;
            slot.generation = slot.generation.wrapping_add(1);
            slot.target = pos;
            index
        } else {
            let index = next_index(self.slots.len())?;
            self.slots.push(DenseSlot { generation: 1, target: pos });
            index
        };
        self.values.push(value);
        self.owners.push(index);
        Ok(K::from_handle(Handle::new(index, self.slots[index as usize].generation)))
    }

    #[inline]
    fn position(&self, handle: Handle) -> Option<usize> {
        match self.slots.get(handle.index as usize) {
            Some(s) if s.generation == handle.generation.get() => Some(s.target as usize),
            _ => None,
        }
    }

    /// The key of the value at `pos` in [`values`](Self::values).
    #[inline]
    fn key_at(&self, pos: usize) -> K {
        let index = self.owners[pos];
        K::from_handle(Handle::new(index, self.slots[index as usize].generation))
    }

    /// The value for `key`, or `None` if it was removed.
    #[inline]
    #[must_use]
    pub fn get(&self, key: K) -> Option<&T> {
        self.position(key.handle()).map(|p| &self.values[p])
    }

    /// The value for `key`, mutably.
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        self.position(key.handle()).map(|p| &mut self.values[p])
    }

    /// Whether `key` refers to a live value.
    #[must_use]
    pub fn contains(&self, key: K) -> bool {
        self.position(key.handle()).is_some()
    }

    /// Mutable references to the values of several keys at once.
    ///
    /// ```
    /// let mut hp = lore_allocators::DenseHandleArray::new();
    /// let (a, b) = (hp.insert(10), hp.insert(20));
    /// let [x, y] = hp.get_disjoint_mut([a, b])?;
    /// (*x, *y) = (*y, *x);
    /// assert_eq!((hp[a], hp[b]), (20, 10));
    /// # Ok::<(), lore_allocators::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if a key is stale, [`Error::AliasedHandles`] (naming the first
    /// two positions) if two keys name the same value.
    pub fn get_disjoint_mut<const N: usize>(&mut self, keys: [K; N]) -> Result<[&mut T; N]> {
        let places = disjoint_positions(&keys, |h| self.position(h))?;
        let base = self.values.as_mut_ptr();
        // SAFETY: each place is the position of a live value (a slot's target is always below
        // `values.len()` while the slot is occupied), and distinct slots have distinct
        // positions, so the references do not alias; they borrow `self` mutably.
        Ok(places.map(|p| unsafe { &mut *base.add(p) }))
    }

    /// Removes and returns the value (the last value moves into its place).
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if the value was removed already (or never existed here).
    pub fn remove(&mut self, key: K) -> Result<T> {
        let handle = key.handle();
        let pos = self.position(handle).ok_or(Error::StaleHandle)?;
        Ok(self.remove_at(pos))
    }

    /// Removes the value at `pos` (in range) and frees its slot.
    fn remove_at(&mut self, pos: usize) -> T {
        let index = self.owners[pos];
        let slot = &mut self.slots[index as usize];
        slot.generation = slot.generation.wrapping_add(1);
        slot.target = self.free_head;
        self.free_head = index;
        let value = self.values.swap_remove(pos);
        self.owners.swap_remove(pos);
        if let Some(&moved) = self.owners.get(pos) {
            self.slots[moved as usize].target = pos as u32;
        }
        value
    }

    /// Keeps the values for which `keep` returns `true` and removes the others (their keys
    /// become stale). Each value is visited once, in no particular order.
    pub fn retain(&mut self, mut keep: impl FnMut(K, &mut T) -> bool) {
        let mut pos = 0;
        while pos < self.values.len() {
            let key = self.key_at(pos);
            if keep(key, &mut self.values[pos]) {
                pos += 1;
            } else {
                // The last value moves into `pos` and is visited next.
                drop(self.remove_at(pos));
            }
        }
    }

    /// Removes every value (their keys become stale).
    pub fn clear(&mut self) {
        for _ in self.drain() {}
    }

    /// Removes every value and yields it with its key, last value first. Values the iterator
    /// does not reach are dropped with it; if it is leaked, they stay.
    pub fn drain(&mut self) -> impl Iterator<Item = (K, T)> + '_ {
        DenseDrain { array: self }
    }

    /// The values, packed, in no particular order.
    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The values, mutably.
    pub fn values_mut(&mut self) -> &mut [T] {
        &mut self.values
    }

    /// Every value with its key, in the order of [`values`](Self::values).
    pub fn iter(&self) -> impl Iterator<Item = (K, &T)> + '_ {
        (0..self.values.len()).map(|p| (self.key_at(p), &self.values[p]))
    }

    /// Every value, mutably, with its key, in the order of [`values`](Self::values).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut T)> + '_ {
        let slots = &self.slots;
        self.owners
            .iter()
            .zip(self.values.iter_mut())
            .map(|(&i, v)| (K::from_handle(Handle::new(i, slots[i as usize].generation)), v))
    }

    /// Every key, in the order of [`values`](Self::values).
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        (0..self.values.len()).map(|p| self.key_at(p))
    }
}

impl<T, K: Key> core::ops::Index<K> for DenseHandleArray<T, K> {
    type Output = T;

    /// The value for `key`.
    ///
    /// # Panics
    /// If `key` is stale; use [`DenseHandleArray::get`] for keys that may be.
    #[inline]
    fn index(&self, key: K) -> &T {
        match self.get(key) {
            Some(v) => v,
            None => panic!("stale or foreign handle {key:?}"),
        }
    }
}

impl<T, K: Key> core::ops::IndexMut<K> for DenseHandleArray<T, K> {
    /// The value for `key`, mutably.
    ///
    /// # Panics
    /// If `key` is stale; use [`DenseHandleArray::get_mut`] for keys that may be.
    #[inline]
    fn index_mut(&mut self, key: K) -> &mut T {
        match self.get_mut(key) {
            Some(v) => v,
            None => panic!("stale or foreign handle {key:?}"),
        }
    }
}

/// The iterator of [`DenseHandleArray::drain`]: removes the last value per step (no moves).
struct DenseDrain<'a, T, K: Key> {
    array: &'a mut DenseHandleArray<T, K>,
}

impl<T, K: Key> Iterator for DenseDrain<'_, T, K> {
    type Item = (K, T);

    fn next(&mut self) -> Option<(K, T)> {
        let last = self.array.values.len().checked_sub(1)?;
        let key = self.array.key_at(last);
        Some((key, self.array.remove_at(last)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.array.len(), Some(self.array.len()))
    }
}

impl<T, K: Key> Drop for DenseDrain<'_, T, K> {
    fn drop(&mut self) {
        for _ in self.by_ref() {}
    }
}
