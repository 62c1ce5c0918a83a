//! [`HandleArray`]: values stay in their slots.

use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem::ManuallyDrop;

use super::{Handle, Key, NO_FREE, disjoint_positions, next_index};
use crate::error::{Error, Result};

/// A slot's contents: the value while the generation is odd, the next free slot while it is
/// even. A union (not an enum) keeps a slot of `u64` at 16 bytes, as slotmap does.
union Contents<T> {
    value: ManuallyDrop<T>,
    next_free: u32,
}

struct Slot<T> {
    /// Odd: occupied (`contents.value` is initialised). Even: vacant.
    generation: u32,
    contents: Contents<T>,
}

impl<T> Slot<T> {
    #[inline]
    fn occupied(&self) -> bool {
        self.generation % 2 == 1
    }

    #[inline]
    fn value(&self) -> Option<&T> {
        // SAFETY: an odd generation means the value is initialised (the type's invariant).
        self.occupied().then(|| unsafe { &*self.contents.value })
    }
}

/// A sparse generational array: values stay in their slot, `get` is one bounds check and one
/// generation compare.
///
/// `K` is the key type: [`Handle`] unless you name your own with
/// [`new_key_type!`](crate::new_key_type) (then build the array with
/// [`with_key`](Self::with_key)).
///
/// ```
/// use lore_allocators::{Error, HandleArray};
///
/// let mut enemies = HandleArray::new();
/// let orc = enemies.insert("orc");
/// let bat = enemies.insert("bat");
/// assert_eq!(enemies.remove(orc), Ok("orc"));
/// let imp = enemies.insert("imp"); // reuses the orc's slot
/// assert_eq!(imp.index(), orc.index());
/// assert_eq!(enemies.get(orc), None, "the old handle is stale");
/// assert_eq!(enemies.remove(orc), Err(Error::StaleHandle));
/// assert_eq!(enemies.get(bat), Some(&"bat"));
/// assert_eq!(enemies[bat], "bat"); // indexing panics on a stale handle; `get` does not
/// ```
pub struct HandleArray<T, K: Key = Handle> {
    slots: Vec<Slot<T>>,
    free_head: u32,
    /// Slots on the free list. Counting these (not the values) keeps the append path of
    /// `insert` free of a counter update: `len = slots.len() - vacant`.
    vacant: usize,
    key: PhantomData<fn(K) -> K>,
}

impl<T: core::fmt::Debug, K: Key> core::fmt::Debug for HandleArray<T, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T: Clone, K: Key> Clone for HandleArray<T, K> {
    fn clone(&self) -> Self {
        let slots = self
            .slots
            .iter()
            .map(|s| Slot {
                generation: s.generation,
                contents: match s.value() {
                    Some(v) => Contents { value: ManuallyDrop::new(v.clone()) },
                    // SAFETY: an even generation means `next_free` is the initialised field.
                    None => Contents { next_free: unsafe { s.contents.next_free } },
                },
            })
            .collect();
        Self { slots, free_head: self.free_head, vacant: self.vacant, key: PhantomData }
    }
}

impl<T, K: Key> Drop for HandleArray<T, K> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            for s in &mut self.slots {
                if s.occupied() {
                    // SAFETY: occupied slots hold an initialised value, dropped once here.
                    unsafe { ManuallyDrop::drop(&mut s.contents.value) };
                }
            }
        }
    }
}

impl<T, K: Key> Default for HandleArray<T, K> {
    fn default() -> Self {
        Self::with_key()
    }
}

impl<T> HandleArray<T> {
    /// An empty array keyed by [`Handle`].
    #[must_use]
    pub const fn new() -> Self {
        Self::with_key()
    }

    /// An empty array keyed by [`Handle`] with room for `n` values.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        Self::with_capacity_and_key(n)
    }
}

impl<T, K: Key> HandleArray<T, K> {
    /// An empty array keyed by `K` (a type made with [`new_key_type!`](crate::new_key_type)).
    #[must_use]
    pub const fn with_key() -> Self {
        Self { slots: Vec::new(), free_head: NO_FREE, vacant: 0, key: PhantomData }
    }

    /// An empty array keyed by `K` with room for `n` values.
    #[must_use]
    pub fn with_capacity_and_key(n: usize) -> Self {
        Self { slots: Vec::with_capacity(n), free_head: NO_FREE, vacant: 0, key: PhantomData }
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len() - self.vacant
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stores `value` and returns its key.
    ///
    /// # Panics
    /// If the array would hold more than `u32::MAX - 1` slots; [`try_insert`](Self::try_insert)
    /// returns an error instead.
    #[inline]
    pub fn insert(&mut self, value: T) -> K {
        match self.try_insert(value) {
            Ok(key) => key,
            Err(e) => panic!("{e}"),
        }
    }

    /// Stores `value` and returns its key, or [`Error::Full`] (dropping `value`) when every
    /// one of the `u32::MAX - 1` slots is taken.
    ///
    /// # Errors
    /// [`Error::Full`].
    #[inline]
    pub fn try_insert(&mut self, value: T) -> Result<K> {
        self.try_insert_with_key(|_| value)
    }

    /// Stores the value `make` builds from its own key (for a value that refers to itself),
    /// and returns the key; [`Error::Full`] (without calling `make`) when the array is full.
    ///
    /// ```
    /// use lore_allocators::{Handle, HandleArray};
    ///
    /// struct Node { me: Handle, parent: Option<Handle> }
    /// let mut nodes = HandleArray::new();
    /// let root = nodes.try_insert_with_key(|me| Node { me, parent: None })?;
    /// assert_eq!(nodes[root].me, root);
    /// # Ok::<(), lore_allocators::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Full`].
    #[inline]
    pub fn try_insert_with_key(&mut self, make: impl FnOnce(K) -> T) -> Result<K> {
        if self.free_head != NO_FREE {
            let index = self.free_head;
            let slot = &self.slots[index as usize];
            let key = K::from_handle(Handle::new(index, slot.generation.wrapping_add(1)));
            let value = make(key);
            let slot = &mut self.slots[index as usize];
            // SAFETY: slots on the free list are vacant, so `next_free` is initialised.
            self.free_head = unsafe { slot.contents.next_free };
            slot.contents = Contents { value: ManuallyDrop::new(value) };
            slot.generation = slot.generation.wrapping_add(1);
            self.vacant -= 1;
            return Ok(key);
        }
        let index = next_index(self.slots.len())?;
        let key = K::from_handle(Handle::new(index, 1));
        self.slots.push(Slot { generation: 1, contents: Contents { value: ManuallyDrop::new(make(key)) } });
        Ok(key)
    }

    /// The value for `key`, or `None` if it was removed.
    #[inline]
    #[must_use]
    pub fn get(&self, key: K) -> Option<&T> {
        let handle = key.handle();
        match self.slots.get(handle.index as usize) {
            // SAFETY: handles carry odd generations, so a match means the slot is occupied.
            Some(s) if s.generation == handle.generation.get() => Some(unsafe { &*s.contents.value }),
            _ => None,
        }
    }

    /// The value for `key`, mutably.
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        let handle = key.handle();
        match self.slots.get_mut(handle.index as usize) {
            // SAFETY: as in `get`.
            Some(s) if s.generation == handle.generation.get() => Some(unsafe { &mut *s.contents.value }),
            _ => None,
        }
    }

    /// Mutable references to the values of several keys at once (as slotmap's
    /// `get_disjoint_mut`), for updating two entities that interact.
    ///
    /// ```
    /// use lore_allocators::{Error, HandleArray};
    ///
    /// let mut hp = HandleArray::new();
    /// let (a, b) = (hp.insert(10), hp.insert(20));
    /// let [x, y] = hp.get_disjoint_mut([a, b])?;
    /// core::mem::swap(x, y);
    /// assert_eq!((hp[a], hp[b]), (20, 10));
    /// assert_eq!(hp.get_disjoint_mut([a, a]), Err(Error::AliasedHandles { first: 0, second: 1 }));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if a key is stale, [`Error::AliasedHandles`] (naming the first
    /// two positions) if two keys name the same value.
    pub fn get_disjoint_mut<const N: usize>(&mut self, keys: [K; N]) -> Result<[&mut T; N]> {
        let places = disjoint_positions(&keys, |h| match self.slots.get(h.index as usize) {
            Some(s) if s.generation == h.generation.get() => Some(h.index as usize),
            _ => None,
        })?;
        let base = self.slots.as_mut_ptr();
        // SAFETY: every place is the index of an occupied slot (its generation matched an odd
        // handle generation) inside `slots`, and the places are pairwise distinct, so the
        // references do not alias; they borrow `self` mutably for their lifetime.
        // `ManuallyDrop<T>` is `repr(transparent)`, so the cast keeps the value's address.
        Ok(places.map(|i| unsafe { &mut *core::ptr::addr_of_mut!((*base.add(i)).contents.value).cast::<T>() }))
    }

    /// Whether `key` refers to a live value.
    #[must_use]
    pub fn contains(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Removes and returns the value.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if the value was removed already (or never existed here).
    pub fn remove(&mut self, key: K) -> Result<T> {
        let handle = key.handle();
        match self.slots.get(handle.index as usize) {
            Some(s) if s.generation == handle.generation.get() => Ok(self.take(handle.index)),
            _ => Err(Error::StaleHandle),
        }
    }

    /// Moves the value out of the occupied slot `index` and puts the slot on the free list.
    #[inline]
    fn take(&mut self, index: u32) -> T {
        let slot = &mut self.slots[index as usize];
        debug_assert!(slot.occupied());
        // SAFETY: callers pass an occupied slot, so the value is initialised; it is moved out
        // once and the slot is marked vacant right after.
        let value = unsafe { ManuallyDrop::take(&mut slot.contents.value) };
        slot.contents = Contents { next_free: self.free_head };
        slot.generation = slot.generation.wrapping_add(1);
        self.free_head = index;
        self.vacant += 1;
        value
    }

    /// Keeps the values for which `keep` returns `true` and removes the others (their keys
    /// become stale), in slot order.
    ///
    /// ```
    /// let mut hp = lore_allocators::HandleArray::new();
    /// let alive = hp.insert(5);
    /// let dead = hp.insert(0);
    /// hp.retain(|_, v| *v > 0);
    /// assert_eq!((hp.len(), hp.contains(alive), hp.contains(dead)), (1, true, false));
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(K, &mut T) -> bool) {
        for i in 0..self.slots.len() {
            let slot = &mut self.slots[i];
            if !slot.occupied() {
                continue;
            }
            let key = K::from_handle(Handle::new(i as u32, slot.generation));
            // SAFETY: an odd generation means the value is initialised.
            if !keep(key, unsafe { &mut *slot.contents.value }) {
                drop(self.take(i as u32));
            }
        }
    }

    /// Removes every value (their keys become stale).
    pub fn clear(&mut self) {
        self.retain(|_, _| false);
    }

    /// Removes every value and yields it with its key, in slot order. Values the iterator does
    /// not reach are dropped with it; if it is leaked, the values it did not reach stay.
    ///
    /// ```
    /// let mut a = lore_allocators::HandleArray::new();
    /// let k = a.insert('x');
    /// assert_eq!(a.drain().collect::<Vec<_>>(), [(k, 'x')]);
    /// assert!(a.is_empty() && !a.contains(k));
    /// ```
    pub fn drain(&mut self) -> impl Iterator<Item = (K, T)> + '_ {
        Drain { array: self, next: 0 }
    }

    /// Every live value with its key, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            let v = s.value()?;
            Some((K::from_handle(Handle::new(i as u32, s.generation)), v))
        })
    }

    /// Every live value, mutably, with its key, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut T)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| {
            // SAFETY: an odd generation means the value is initialised.
            s.occupied()
                .then(|| (K::from_handle(Handle::new(i as u32, s.generation)), unsafe { &mut *s.contents.value }))
        })
    }

    /// Every live key, in slot order.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// Every live value, in slot order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.slots.iter().filter_map(Slot::value)
    }

    /// Every live value, mutably, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.slots.iter_mut().filter_map(|s| {
            // SAFETY: an odd generation means the value is initialised.
            s.occupied().then(|| unsafe { &mut *s.contents.value })
        })
    }
}

impl<T, K: Key> core::ops::Index<K> for HandleArray<T, K> {
    type Output = T;

    /// The value for `key`.
    ///
    /// # Panics
    /// If `key` is stale; use [`HandleArray::get`] for keys that may be.
    #[inline]
    fn index(&self, key: K) -> &T {
        match self.get(key) {
            Some(v) => v,
            None => panic!("stale or foreign handle {key:?}"),
        }
    }
}

impl<T, K: Key> core::ops::IndexMut<K> for HandleArray<T, K> {
    /// The value for `key`, mutably.
    ///
    /// # Panics
    /// If `key` is stale; use [`HandleArray::get_mut`] for keys that may be.
    #[inline]
    fn index_mut(&mut self, key: K) -> &mut T {
        match self.get_mut(key) {
            Some(v) => v,
            None => panic!("stale or foreign handle {key:?}"),
        }
    }
}

/// The iterator of [`HandleArray::drain`]: removes one value per step.
struct Drain<'a, T, K: Key> {
    array: &'a mut HandleArray<T, K>,
    next: usize,
}

impl<T, K: Key> Iterator for Drain<'_, T, K> {
    type Item = (K, T);

    fn next(&mut self) -> Option<(K, T)> {
        while let Some(slot) = self.array.slots.get(self.next) {
            let index = self.next as u32;
            self.next += 1;
            if slot.occupied() {
                let key = K::from_handle(Handle::new(index, slot.generation));
                return Some((key, self.array.take(index)));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Every value left sits at or after `next`.
        let left = self.array.len();
        (left, Some(left))
    }
}

impl<T, K: Key> Drop for Drain<'_, T, K> {
    fn drop(&mut self) {
        for _ in self.by_ref() {}
    }
}
