//! Storage addressed by generational handles: [`HandleArray`] (sparse: fastest `get`) and
//! [`DenseHandleArray`] (values packed in one `Vec`: fastest iteration).
//!
//! A [`Handle`] is an index plus the slot's generation when the value went in. Removing a value
//! bumps the slot's generation, so an old handle no longer matches even after the slot is
//! reused (the ABA problem of plain indices). Generations are odd while a slot is occupied and
//! even while it is free; after 2^31 reuses of one slot a generation comes back, which is the
//! only way a stale handle can match again.

use alloc::vec::Vec;
use core::mem::ManuallyDrop;
use core::num::NonZeroU32;

use crate::error::{Error, Result};

/// An 8-byte key into a [`HandleArray`] or [`DenseHandleArray`]; `Option<Handle>` is 8 bytes
/// too.
///
/// Handles are plain data: they can be copied, compared, hashed and packed into a `u64`
/// ([`Handle::to_bits`]) for storage outside Rust. A handle from one array used on another is
/// usually reported as stale but may match a live value there: keep one array per kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle {
    index: u32,
    generation: NonZeroU32,
}

impl core::fmt::Debug for Handle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

impl Handle {
    /// The slot index.
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The slot generation (always odd).
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation.get()
    }

    /// Packs the handle into a `u64` (generation high, index low).
    #[must_use]
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation.get()) << 32) | u64::from(self.index)
    }

    /// Unpacks [`Handle::to_bits`]; `None` for a value no array ever makes (an even or zero
    /// generation).
    #[must_use]
    pub fn from_bits(bits: u64) -> Option<Self> {
        let generation = (bits >> 32) as u32;
        if generation.is_multiple_of(2) {
            return None;
        }
        Some(Self { index: bits as u32, generation: NonZeroU32::new(generation)? })
    }
}

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

const NO_FREE: u32 = u32::MAX;

/// The most slots an array holds: every `u32` but the free-list end mark. (Unit tests use a
/// small limit so that a full array can be reached.)
#[cfg(not(test))]
const MAX_SLOTS: u32 = NO_FREE;
#[cfg(test)]
const MAX_SLOTS: u32 = 1000;

/// The index the next new slot gets, or [`Error::Full`].
#[inline]
fn next_index(len: usize) -> Result<u32> {
    u32::try_from(len).ok().filter(|&i| i < MAX_SLOTS).ok_or(Error::Full { limit: MAX_SLOTS as usize })
}

/// A sparse generational array: values stay in their slot, `get` is one bounds check and one
/// generation compare.
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
/// ```
pub struct HandleArray<T> {
    slots: Vec<Slot<T>>,
    free_head: u32,
    /// Slots on the free list. Counting these (not the values) keeps the append path of
    /// `insert` free of a counter update: `len = slots.len() - vacant`.
    vacant: usize,
}

impl<T: core::fmt::Debug> core::fmt::Debug for HandleArray<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T: Clone> Clone for HandleArray<T> {
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
        Self { slots, free_head: self.free_head, vacant: self.vacant }
    }
}

impl<T> Drop for HandleArray<T> {
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

impl<T> Default for HandleArray<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> HandleArray<T> {
    /// An empty array.
    #[must_use]
    pub const fn new() -> Self {
        Self { slots: Vec::new(), free_head: NO_FREE, vacant: 0 }
    }

    /// An empty array with room for `n` values.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        Self { slots: Vec::with_capacity(n), free_head: NO_FREE, vacant: 0 }
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

    /// Stores `value` and returns its handle.
    ///
    /// # Panics
    /// If the array would hold more than `u32::MAX - 1` slots; [`try_insert`](Self::try_insert)
    /// returns an error instead.
    #[inline]
    pub fn insert(&mut self, value: T) -> Handle {
        match self.try_insert(value) {
            Ok(handle) => handle,
            Err(e) => panic!("{e}"),
        }
    }

    /// Stores `value` and returns its handle, or [`Error::Full`] (dropping `value`) when every
    /// one of the `u32::MAX - 1` slots is taken.
    ///
    /// # Errors
    /// [`Error::Full`].
    #[inline]
    pub fn try_insert(&mut self, value: T) -> Result<Handle> {
        if self.free_head != NO_FREE {
            return Ok(self.insert_vacant(value));
        }
        let index = next_index(self.slots.len())?;
        self.slots.push(Slot { generation: 1, contents: Contents { value: ManuallyDrop::new(value) } });
        Ok(Handle { index, generation: NonZeroU32::MIN })
    }

    /// `insert` into the slot at the head of the free list.
    #[inline]
    fn insert_vacant(&mut self, value: T) -> Handle {
        let index = self.free_head;
        let slot = &mut self.slots[index as usize];
        // SAFETY: slots on the free list are vacant, so `next_free` is initialised.
        self.free_head = unsafe { slot.contents.next_free };
        slot.contents = Contents { value: ManuallyDrop::new(value) };
        slot.generation = slot.generation.wrapping_add(1);
        self.vacant -= 1;
        Handle { index, generation: NonZeroU32::new(slot.generation).expect("odd generations are non-zero") }
    }

    /// The value for `handle`, or `None` if it was removed.
    #[inline]
    #[must_use]
    pub fn get(&self, handle: Handle) -> Option<&T> {
        match self.slots.get(handle.index as usize) {
            // SAFETY: handles carry odd generations, so a match means the slot is occupied.
            Some(s) if s.generation == handle.generation.get() => Some(unsafe { &*s.contents.value }),
            _ => None,
        }
    }

    /// The value for `handle`, mutably.
    #[inline]
    pub fn get_mut(&mut self, handle: Handle) -> Option<&mut T> {
        match self.slots.get_mut(handle.index as usize) {
            // SAFETY: as in `get`.
            Some(s) if s.generation == handle.generation.get() => Some(unsafe { &mut *s.contents.value }),
            _ => None,
        }
    }

    /// Whether `handle` refers to a live value.
    #[must_use]
    pub fn contains(&self, handle: Handle) -> bool {
        self.get(handle).is_some()
    }

    /// Removes and returns the value.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if the value was removed already (or never existed here).
    pub fn remove(&mut self, handle: Handle) -> Result<T> {
        let slot = self.slots.get_mut(handle.index as usize).ok_or(Error::StaleHandle)?;
        if slot.generation != handle.generation.get() {
            return Err(Error::StaleHandle);
        }
        // SAFETY: the generation matched an odd handle generation: the value is initialised; it
        // is moved out once and the slot marked vacant right after.
        let value = unsafe { ManuallyDrop::take(&mut slot.contents.value) };
        slot.contents = Contents { next_free: self.free_head };
        slot.generation = slot.generation.wrapping_add(1);
        self.free_head = handle.index;
        self.vacant += 1;
        Ok(value)
    }

    /// Every live value with its handle, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            let v = s.value()?;
            Some((Handle { index: i as u32, generation: NonZeroU32::new(s.generation).expect("occupied is odd") }, v))
        })
    }

    /// Every live value, mutably, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.slots.iter_mut().filter_map(|s| {
            // SAFETY: an odd generation means the value is initialised.
            s.occupied().then(|| unsafe { &mut *s.contents.value })
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct DenseSlot {
    generation: u32,
    /// Position in `values` while occupied, next free slot while vacant.
    target: u32,
}

/// A dense generational array: values are packed in one `Vec` (removal moves the last value
/// into the hole), so iteration is a plain slice walk; `get` adds one indirection.
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
/// # Ok::<(), lore_allocators::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DenseHandleArray<T> {
    values: Vec<T>,
    /// Slot index of each value.
    owners: Vec<u32>,
    slots: Vec<DenseSlot>,
    free_head: u32,
}

impl<T> Default for DenseHandleArray<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> DenseHandleArray<T> {
    /// An empty array.
    #[must_use]
    pub const fn new() -> Self {
        Self { values: Vec::new(), owners: Vec::new(), slots: Vec::new(), free_head: NO_FREE }
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

    /// Stores `value` and returns its handle.
    ///
    /// # Panics
    /// If the array would hold more than `u32::MAX - 1` values; [`try_insert`](Self::try_insert)
    /// returns an error instead.
    pub fn insert(&mut self, value: T) -> Handle {
        match self.try_insert(value) {
            Ok(handle) => handle,
            Err(e) => panic!("{e}"),
        }
    }

    /// Stores `value` and returns its handle, or [`Error::Full`] (dropping `value`) when the
    /// array holds `u32::MAX - 1` values or slots.
    ///
    /// # Errors
    /// [`Error::Full`].
    pub fn try_insert(&mut self, value: T) -> Result<Handle> {
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
        Ok(Handle {
            index,
            generation: NonZeroU32::new(self.slots[index as usize].generation).expect("odd generations are non-zero"),
        })
    }

    #[inline]
    fn position(&self, handle: Handle) -> Option<usize> {
        match self.slots.get(handle.index as usize) {
            Some(s) if s.generation == handle.generation.get() => Some(s.target as usize),
            _ => None,
        }
    }

    /// The value for `handle`, or `None` if it was removed.
    #[inline]
    #[must_use]
    pub fn get(&self, handle: Handle) -> Option<&T> {
        self.position(handle).map(|p| &self.values[p])
    }

    /// The value for `handle`, mutably.
    #[inline]
    pub fn get_mut(&mut self, handle: Handle) -> Option<&mut T> {
        self.position(handle).map(|p| &mut self.values[p])
    }

    /// Removes and returns the value (the last value moves into its place).
    ///
    /// # Errors
    /// [`Error::StaleHandle`] if the value was removed already (or never existed here).
    pub fn remove(&mut self, handle: Handle) -> Result<T> {
        let pos = self.position(handle).ok_or(Error::StaleHandle)?;
        let slot = &mut self.slots[handle.index as usize];
        slot.generation = slot.generation.wrapping_add(1);
        slot.target = self.free_head;
        self.free_head = handle.index;
        let value = self.values.swap_remove(pos);
        self.owners.swap_remove(pos);
        if let Some(&moved) = self.owners.get(pos) {
            self.slots[moved as usize].target = pos as u32;
        }
        Ok(value)
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

    /// Every value with its handle, in the order of [`values`](Self::values).
    pub fn iter(&self) -> impl Iterator<Item = (Handle, &T)> + '_ {
        self.owners.iter().zip(&self.values).map(|(&i, v)| {
            let generation = NonZeroU32::new(self.slots[i as usize].generation).expect("occupied is odd");
            (Handle { index: i, generation }, v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_array_refuses_with_an_error_and_keeps_working() {
        let mut sparse = HandleArray::new();
        let mut dense = DenseHandleArray::new();
        let handles: Vec<Handle> = (0..MAX_SLOTS).map(|i| sparse.try_insert(i).unwrap()).collect();
        for i in 0..MAX_SLOTS {
            dense.try_insert(i).unwrap();
        }
        assert_eq!(sparse.try_insert(7), Err(Error::Full { limit: MAX_SLOTS as usize }));
        assert_eq!(dense.try_insert(7), Err(Error::Full { limit: MAX_SLOTS as usize }));
        assert_eq!(sparse.len(), MAX_SLOTS as usize);
        assert_eq!(sparse.get(handles[5]), Some(&5));
        // A removed value frees a slot for the next insert.
        sparse.remove(handles[5]).unwrap();
        let again = sparse.try_insert(99).unwrap();
        assert_eq!(sparse.get(again), Some(&99));
        assert_eq!(sparse.get(handles[5]), None);
    }

    #[test]
    #[should_panic(expected = "handle array is full")]
    fn insert_panics_when_full() {
        let mut sparse = HandleArray::new();
        for i in 0..=MAX_SLOTS {
            sparse.insert(i);
        }
    }

    #[test]
    fn handle_is_eight_bytes_with_a_niche() {
        assert_eq!(core::mem::size_of::<Handle>(), 8);
        assert_eq!(core::mem::size_of::<Option<Handle>>(), 8);
    }

    #[test]
    fn bits_round_trip() {
        let mut a = HandleArray::new();
        let h = a.insert(3);
        a.remove(h).unwrap();
        let h2 = a.insert(4);
        assert_eq!(Handle::from_bits(h2.to_bits()), Some(h2));
        assert_eq!(Handle::from_bits(2 << 32), None);
        assert_eq!(format!("{h2:?}"), "0v3");
    }

    #[test]
    fn values_are_dropped_once_and_cloned_deeply() {
        use alloc::rc::Rc;
        let token = Rc::new(());
        let mut a = HandleArray::new();
        let hs: Vec<_> = (0..6).map(|_| a.insert(Rc::clone(&token))).collect();
        drop(a.remove(hs[1]).unwrap());
        drop(a.remove(hs[4]).unwrap());
        assert_eq!(Rc::strong_count(&token), 5);
        let b = a.clone();
        assert_eq!(Rc::strong_count(&token), 9);
        let h = a.insert(Rc::clone(&token));
        assert_eq!(h.index(), hs[4].index(), "free slots are reused, last freed first");
        assert_eq!(b.get(h), None, "the clone has its own free list");
        drop(a);
        assert_eq!(Rc::strong_count(&token), 5);
        drop(b);
        assert_eq!(Rc::strong_count(&token), 1);
    }

    #[test]
    fn dense_remove_keeps_other_handles_valid() {
        let mut d = DenseHandleArray::new();
        let hs: Vec<_> = (0..10).map(|i| d.insert(i)).collect();
        d.remove(hs[0]).unwrap();
        d.remove(hs[5]).unwrap();
        assert_eq!(d.remove(hs[5]), Err(Error::StaleHandle));
        for (i, h) in hs.iter().enumerate() {
            if i != 0 && i != 5 {
                assert_eq!(d.get(*h), Some(&i));
            }
        }
        let mut vals: Vec<_> = d.values().to_vec();
        vals.sort_unstable();
        assert_eq!(vals, [1, 2, 3, 4, 6, 7, 8, 9]);
        for (h, v) in d.iter() {
            assert_eq!(d.get(h), Some(v));
        }
    }
}
