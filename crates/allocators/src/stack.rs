//! A stack (LIFO, "bump") allocator with markers, in-place resize of the last allocation,
//! destructors on rewind and optional growth by chaining blocks.
//!
//! Allocation moves a top pointer up; [`Stack::marker`] remembers the top and
//! [`Stack::rewind`] frees everything allocated after it at once. Values placed with
//! [`Stack::alloc`] have their destructors run by `rewind`, [`Stack::reset`] and `Drop`, newest
//! first; raw blocks ([`Stack::alloc_layout`] and the [`Allocator`] impl) are plain bytes.

use alloc::alloc::{alloc as sys_alloc, dealloc as sys_dealloc};
use alloc::vec::Vec;
use core::alloc::Layout;
use core::cell::{Cell, RefCell};
use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicUsize, Ordering};

use allocator_api2::alloc::{AllocError, Allocator};

use crate::error::{Error, Result};
use crate::poison::{poison, unpoison};

/// Alignment of every block the stack takes from the system.
const CHUNK_ALIGN: usize = 16;

static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

#[derive(Debug)]
struct Chunk {
    start: NonNull<u8>,
    cap: usize,
    /// Bytes in use when the stack moved on to the next chunk.
    used: usize,
}

/// A destructor record, stored in the stack just below the value it drops.
struct DropEntry {
    drop: unsafe fn(*mut u8),
    value: *mut u8,
    chunk: usize,
    prev: *mut DropEntry,
}

/// A position in a [`Stack`] to [`rewind`](Stack::rewind) to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    stack: usize,
    chunk: usize,
    top: usize,
}

/// A LIFO allocator over one block of memory (or a chain of blocks when growable).
///
/// Allocation takes `&self`, so many values can be alive at once; freeing is by
/// [`rewind`](Stack::rewind) (which takes `&mut self`, so no reference into the freed part can
/// survive it) or, for the last block only, through [`Allocator::deallocate`].
///
/// ```
/// use lore_allocators::Stack;
///
/// let mut stack = Stack::new(1024)?;
/// let frame = stack.marker();
/// let a = stack.alloc(41_u32)?;
/// *a += 1;
/// let name = stack.alloc(String::from("temporary"))?; // dropped by the rewind below
/// assert_eq!((*a, name.as_str()), (42, "temporary"));
/// stack.rewind(frame)?;
/// assert_eq!(stack.used(), 0);
/// # Ok::<(), lore_allocators::Error>(())
/// ```
pub struct Stack {
    id: usize,
    chunks: RefCell<Vec<Chunk>>,
    current: Cell<usize>,
    start: Cell<usize>,
    top: Cell<usize>,
    end: Cell<usize>,
    /// Start of the block at the top, when it is known (for resize and LIFO free).
    last: Cell<usize>,
    drops: Cell<*mut DropEntry>,
    /// Size of new chunks when growable.
    growth: Option<usize>,
}

impl core::fmt::Debug for Stack {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Stack")
            .field("used", &self.used())
            .field("capacity", &self.capacity())
            .field("chunks", &self.chunks.borrow().len())
            .finish()
    }
}

impl Stack {
    /// A fixed stack of `capacity` bytes: allocation past it is [`Error::OutOfMemory`].
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] if the system cannot supply the block, [`Error::Unsupported`]
    /// for a zero or overflowing capacity.
    pub fn new(capacity: usize) -> Result<Self> {
        Self::build(capacity, None)
    }

    /// A stack that starts with a block of `chunk` bytes and chains further blocks (of `chunk`
    /// bytes, or larger for a large request) when one is full. Rewinding keeps the blocks for
    /// reuse; they go back to the system when the stack is dropped.
    ///
    /// # Errors
    /// As [`Stack::new`].
    pub fn growable(chunk: usize) -> Result<Self> {
        Self::build(chunk, Some(chunk))
    }

    fn build(capacity: usize, growth: Option<usize>) -> Result<Self> {
        let chunk = new_chunk(capacity)?;
        let start = chunk.start.as_ptr() as usize;
        let end = start + chunk.cap;
        Ok(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            chunks: RefCell::new(alloc::vec![chunk]),
            current: Cell::new(0),
            start: Cell::new(start),
            top: Cell::new(start),
            end: Cell::new(end),
            last: Cell::new(usize::MAX),
            drops: Cell::new(ptr::null_mut()),
            growth,
        })
    }

    /// Bytes handed out (alignment padding included), over all chained blocks.
    #[must_use]
    pub fn used(&self) -> usize {
        let chunks = self.chunks.borrow();
        let before: usize = chunks[..self.current.get()].iter().map(|c| c.used).sum();
        before + (self.top.get() - self.start.get())
    }

    /// Total bytes of the blocks the stack holds.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.chunks.borrow().iter().map(|c| c.cap).sum()
    }

    /// The current top, to rewind to later.
    #[must_use]
    pub fn marker(&self) -> Marker {
        Marker { stack: self.id, chunk: self.current.get(), top: self.top.get() }
    }

    /// Frees everything allocated after `marker`, running the destructors of values placed
    /// with [`alloc`](Stack::alloc) newest first.
    ///
    /// A marker made before an earlier rewind to a lower marker is still accepted if it is not
    /// above the current top: it then means "that many bytes from the start".
    ///
    /// # Errors
    /// [`Error::BadMarker`] for a marker from another stack or above the current top; nothing
    /// is freed then.
    pub fn rewind(&mut self, marker: Marker) -> Result<()> {
        let current = self.current.get();
        let valid = marker.stack == self.id && marker.chunk <= current && {
            let chunks = self.chunks.borrow();
            let c = &chunks[marker.chunk];
            let s = c.start.as_ptr() as usize;
            let top = if marker.chunk == current { self.top.get() } else { s + c.used };
            marker.top >= s && marker.top <= top
        };
        if !valid {
            return Err(Error::BadMarker);
        }
        self.run_drops(marker);
        let mut chunks = self.chunks.borrow_mut();
        // Poison what is freed: the tail of the marker's chunk and every chunk above it.
        for (i, c) in chunks.iter_mut().enumerate().take(current + 1).skip(marker.chunk) {
            let s = c.start.as_ptr() as usize;
            let from = if i == marker.chunk { marker.top } else { s };
            let to = if i == current { self.top.get() } else { s + c.used };
            // SAFETY: `from..to` lies inside chunk `i`, which the stack owns, and no reference
            // into it survives `&mut self`.
            unsafe { poison(from as *mut u8, to - from) };
            c.used = 0;
        }
        let c = &chunks[marker.chunk];
        let s = c.start.as_ptr() as usize;
        self.current.set(marker.chunk);
        self.start.set(s);
        self.end.set(s + c.cap);
        self.top.set(marker.top);
        self.last.set(usize::MAX);
        Ok(())
    }

    /// Frees everything (destructors run), keeping the blocks.
    pub fn reset(&mut self) {
        let start = self.chunks.borrow()[0].start.as_ptr() as usize;
        let bottom = Marker { stack: self.id, chunk: 0, top: start };
        self.rewind(bottom).expect("the bottom of a stack is always a valid marker");
    }

    fn run_drops(&mut self, marker: Marker) {
        let mut head = self.drops.get();
        while !head.is_null() {
            // SAFETY: every entry in the list was written by `alloc` and is still above or at
            // the marker or below it; entries are only removed here.
            let entry = unsafe { &*head };
            let above =
                entry.chunk > marker.chunk || (entry.chunk == marker.chunk && entry.value as usize >= marker.top);
            if !above {
                break;
            }
            // SAFETY: the value was initialised by `alloc`, is dropped exactly once (the entry
            // leaves the list now) and `&mut self` proves no reference to it is alive.
            unsafe { (entry.drop)(entry.value) };
            head = entry.prev;
        }
        self.drops.set(head);
    }

    /// Hands out `layout.size()` bytes aligned to `layout.align()`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the block is full (and the stack cannot grow).
    #[inline]
    pub fn alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>> {
        let top = self.top.get();
        let aligned = (top + layout.align() - 1) & !(layout.align() - 1);
        match aligned.checked_add(layout.size()) {
            Some(new_top) if new_top <= self.end.get() => {
                self.top.set(new_top);
                self.last.set(aligned);
                // SAFETY: `aligned..new_top` is inside the current chunk and unused.
                unsafe { unpoison(aligned as *mut u8, layout.size()) };
                // SAFETY: `aligned` is inside a live chunk, so it is not null.
                Ok(unsafe { NonNull::new_unchecked(aligned as *mut u8) })
            }
            _ => self.alloc_layout_slow(layout),
        }
    }

    #[inline(never)]
    fn alloc_layout_slow(&self, layout: Layout) -> Result<NonNull<u8>> {
        let oom = Error::OutOfMemory { size: layout.size(), align: layout.align() };
        let Some(growth) = self.growth else { return Err(oom) };
        let need = layout.size().checked_add(layout.align()).ok_or(oom)?;
        let mut chunks = self.chunks.borrow_mut();
        let current = self.current.get();
        chunks[current].used = self.top.get() - self.start.get();
        // Reuse a block kept by an earlier rewind if it is big enough, else chain a new one.
        let next = current + 1;
        if next >= chunks.len() || chunks[next].cap < need {
            let chunk = new_chunk(need.max(growth))?;
            if next < chunks.len() {
                chunks.insert(next, chunk);
            } else {
                chunks.push(chunk);
            }
        }
        let c = &chunks[next];
        let s = c.start.as_ptr() as usize;
        self.current.set(next);
        self.start.set(s);
        self.top.set(s);
        self.end.set(s + c.cap);
        drop(chunks);
        self.alloc_layout(layout)
    }

    /// Moves `value` into the stack and returns a reference to it. If `T` needs dropping, its
    /// destructor runs at the next [`rewind`](Stack::rewind) below it, [`reset`](Stack::reset)
    /// or when the stack is dropped (a 32-byte record is stored beside such values).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the value does not fit; `value` is dropped then.
    #[allow(clippy::mut_from_ref)]
    pub fn alloc<T>(&self, value: T) -> Result<&mut T> {
        if core::mem::needs_drop::<T>() {
            let (last, chunk) = (self.last.get(), self.current.get());
            let entry = self.alloc_layout(Layout::new::<DropEntry>())?.cast::<DropEntry>();
            let slot = match self.alloc_layout(Layout::new::<T>()) {
                Ok(slot) => slot.cast::<T>(),
                Err(e) => {
                    // Give the record's bytes back (only the top moves back to it, alignment
                    // padding before it stays) and keep the previous block resizable.
                    self.top.set(entry.as_ptr() as usize);
                    self.last.set(if self.current.get() == chunk { last } else { usize::MAX });
                    return Err(e);
                }
            };
            // SAFETY: `slot` is fresh, aligned and sized for `T`; `entry` likewise for the
            // record. The record is linked only after the value is written.
            unsafe {
                slot.as_ptr().write(value);
                entry.as_ptr().write(DropEntry {
                    drop: drop_in_place_erased::<T>,
                    value: slot.as_ptr().cast(),
                    chunk: self.current.get(),
                    prev: self.drops.get(),
                });
            }
            self.drops.set(entry.as_ptr());
            self.last.set(usize::MAX); // the value is not resizable
            // SAFETY: initialised above; the stack hands out one reference per allocation and
            // frees it only through `&mut self`.
            Ok(unsafe { &mut *slot.as_ptr() })
        } else {
            let slot = self.alloc_layout(Layout::new::<T>())?.cast::<T>();
            // SAFETY: as above.
            unsafe {
                slot.as_ptr().write(value);
                Ok(&mut *slot.as_ptr())
            }
        }
    }

    /// Copies `items` into the stack.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when they do not fit.
    #[allow(clippy::mut_from_ref)]
    pub fn alloc_slice_copy<T: Copy>(&self, items: &[T]) -> Result<&mut [T]> {
        let layout = Layout::array::<T>(items.len())
            .map_err(|_| Error::Unsupported { size: usize::MAX, align: core::mem::align_of::<T>() })?;
        let dst = self.alloc_layout(layout)?.cast::<T>();
        // SAFETY: `dst` is fresh, aligned and holds `items.len()` values; `T: Copy`.
        unsafe {
            ptr::copy_nonoverlapping(items.as_ptr(), dst.as_ptr(), items.len());
            Ok(core::slice::from_raw_parts_mut(dst.as_ptr(), items.len()))
        }
    }

    /// Grows or shrinks the last block in place to `new_size` bytes.
    ///
    /// # Errors
    /// [`Error::NotLast`] if `ptr` is not the block at the top (or a typed value),
    /// [`Error::OutOfMemory`] if the current block has no room.
    pub fn resize_last(&self, ptr: NonNull<u8>, new_size: usize) -> Result<()> {
        let p = ptr.as_ptr() as usize;
        if p != self.last.get() {
            return Err(Error::NotLast);
        }
        match p.checked_add(new_size) {
            Some(new_top) if new_top <= self.end.get() => {
                let old_top = self.top.get();
                if new_top < old_top {
                    // SAFETY: the tail being released is inside the current chunk.
                    unsafe { poison(new_top as *mut u8, old_top - new_top) };
                } else {
                    // SAFETY: the bytes being added are inside the current chunk.
                    unsafe { unpoison(old_top as *mut u8, new_top - old_top) };
                }
                self.top.set(new_top);
                Ok(())
            }
            _ => Err(Error::OutOfMemory { size: new_size, align: 1 }),
        }
    }

    /// Frees the block at the top (LIFO free). Other blocks are freed by a rewind.
    ///
    /// # Errors
    /// [`Error::NotLast`] if `ptr` is not the last raw block.
    pub fn free_last(&self, ptr: NonNull<u8>) -> Result<()> {
        let p = ptr.as_ptr() as usize;
        if p != self.last.get() {
            return Err(Error::NotLast);
        }
        // SAFETY: the freed bytes are inside the current chunk.
        unsafe { poison(p as *mut u8, self.top.get() - p) };
        self.top.set(p);
        self.last.set(usize::MAX);
        Ok(())
    }
}

/// # Safety
/// `p` points to a live, initialised `T` that is not used afterwards.
unsafe fn drop_in_place_erased<T>(p: *mut u8) {
    // SAFETY: the caller's contract.
    unsafe { ptr::drop_in_place(p.cast::<T>()) }
}

fn new_chunk(cap: usize) -> Result<Chunk> {
    let cap = cap.max(CHUNK_ALIGN);
    let layout =
        Layout::from_size_align(cap, CHUNK_ALIGN).map_err(|_| Error::Unsupported { size: cap, align: CHUNK_ALIGN })?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { sys_alloc(layout) };
    let start = NonNull::new(p).ok_or(Error::OutOfMemory { size: cap, align: CHUNK_ALIGN })?;
    // SAFETY: the chunk is ours and unused.
    unsafe { poison(p, cap) };
    Ok(Chunk { start, cap, used: 0 })
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.reset();
        for c in self.chunks.get_mut().drain(..) {
            // SAFETY: the bytes were poisoned by us and go back to the system now.
            unsafe { unpoison(c.start.as_ptr(), c.cap) };
            // SAFETY: allocated in `new_chunk` with this layout.
            unsafe { sys_dealloc(c.start.as_ptr(), Layout::from_size_align_unchecked(c.cap, CHUNK_ALIGN)) };
        }
    }
}

// SAFETY: blocks are valid until freed by `deallocate` (top block only), a rewind (which needs
// `&mut Stack`, impossible while an `&Stack` allocator is in use by a collection) or the
// stack's drop; they never overlap because the top only moves up on allocation.
unsafe impl Allocator for Stack {
    #[inline]
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.alloc_layout(layout).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, layout.size()))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, _layout: Layout) {
        // Only the top block can be freed; others wait for a rewind.
        let _ = self.free_last(ptr);
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        if (ptr.as_ptr() as usize).is_multiple_of(new.align()) && self.resize_last(ptr, new.size()).is_ok() {
            return Ok(NonNull::slice_from_raw_parts(ptr, new.size()));
        }
        let fresh = self.alloc_layout(new).map_err(|_| AllocError)?;
        // SAFETY: the caller guarantees `ptr` holds `old.size()` bytes; `fresh` is a new block
        // at least that large, so they do not overlap.
        unsafe { ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), old.size()) };
        Ok(NonNull::slice_from_raw_parts(fresh, new.size()))
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        if (ptr.as_ptr() as usize).is_multiple_of(new.align()) {
            // Shrink in place; a block that is not last just keeps its bytes until a rewind.
            let _ = self.resize_last(ptr, new.size());
            return Ok(NonNull::slice_from_raw_parts(ptr, new.size()));
        }
        let fresh = self.alloc_layout(new).map_err(|_| AllocError)?;
        // SAFETY: `fresh` is new, `ptr` holds at least `new.size()` bytes (`new.size() <= old.size()`).
        unsafe { ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), new.size().min(old.size())) };
        Ok(NonNull::slice_from_raw_parts(fresh, new.size()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_is_an_error() {
        let s = Stack::new(64).unwrap();
        assert!(s.alloc_layout(Layout::from_size_align(48, 8).unwrap()).is_ok());
        assert_eq!(
            s.alloc_layout(Layout::from_size_align(32, 8).unwrap()),
            Err(Error::OutOfMemory { size: 32, align: 8 })
        );
    }

    #[test]
    fn alignment_is_respected() {
        let s = Stack::new(4096).unwrap();
        s.alloc_layout(Layout::from_size_align(1, 1).unwrap()).unwrap();
        for align in [2, 4, 8, 16, 64, 256] {
            let p = s.alloc_layout(Layout::from_size_align(3, align).unwrap()).unwrap();
            assert_eq!(p.as_ptr() as usize % align, 0);
        }
    }

    #[test]
    fn rewind_runs_destructors_newest_first() {
        use alloc::rc::Rc;
        use core::cell::RefCell as Rc2;
        struct Note(Rc<Rc2<Vec<u32>>>, u32);
        impl Drop for Note {
            fn drop(&mut self) {
                self.0.borrow_mut().push(self.1);
            }
        }
        let log = Rc::new(Rc2::new(Vec::new()));
        let mut s = Stack::new(1024).unwrap();
        s.alloc(Note(log.clone(), 1)).unwrap();
        let m = s.marker();
        s.alloc(Note(log.clone(), 2)).unwrap();
        s.alloc(Note(log.clone(), 3)).unwrap();
        s.rewind(m).unwrap();
        assert_eq!(*log.borrow(), [3, 2]);
        drop(s);
        assert_eq!(*log.borrow(), [3, 2, 1]);
    }

    #[test]
    fn markers_from_elsewhere_are_rejected() {
        let mut a = Stack::new(256).unwrap();
        let b = Stack::new(256).unwrap();
        b.alloc(1u64).unwrap();
        assert_eq!(a.rewind(b.marker()), Err(Error::BadMarker));
        let low = a.marker();
        a.alloc(5u64).unwrap();
        let high = a.marker();
        a.rewind(low).unwrap();
        assert_eq!(a.rewind(high), Err(Error::BadMarker));
    }

    #[test]
    fn resize_last_in_place() {
        let s = Stack::new(256).unwrap();
        let a = s.alloc_layout(Layout::from_size_align(16, 8).unwrap()).unwrap();
        s.resize_last(a, 100).unwrap();
        assert_eq!(s.used(), 100);
        let b = s.alloc_layout(Layout::from_size_align(8, 8).unwrap()).unwrap();
        assert_eq!(s.resize_last(a, 8), Err(Error::NotLast));
        s.free_last(b).unwrap();
        assert_eq!(s.resize_last(a, 8), Err(Error::NotLast), "the block below a freed top is not tracked");
        let c = s.alloc_layout(Layout::from_size_align(8, 8).unwrap()).unwrap();
        assert_eq!(s.resize_last(c, 300), Err(Error::OutOfMemory { size: 300, align: 1 }));
    }

    #[test]
    fn a_failed_value_keeps_the_last_block_resizable() {
        struct Big(#[allow(dead_code)] [u64; 4], #[allow(dead_code)] alloc::string::String);
        let s = Stack::new(64).unwrap();
        let a = s.alloc_layout(Layout::from_size_align(8, 8).unwrap()).unwrap();
        // The 32-byte drop record fits, the 56-byte value after it does not.
        let r = s.alloc(Big([0; 4], alloc::string::String::new()));
        assert!(matches!(r, Err(Error::OutOfMemory { .. })));
        assert_eq!(s.used(), 8, "the record's bytes are given back");
        s.resize_last(a, 16).unwrap();
        assert_eq!(s.used(), 16);
    }

    #[test]
    fn growable_chains_and_reuses_blocks() {
        let mut s = Stack::growable(128).unwrap();
        let m = s.marker();
        for i in 0..100u64 {
            assert_eq!(*s.alloc(i).unwrap(), i);
        }
        let cap = s.capacity();
        assert!(cap >= 800);
        s.rewind(m).unwrap();
        for i in 0..100u64 {
            s.alloc(i).unwrap();
        }
        assert_eq!(s.capacity(), cap, "blocks kept by the rewind are reused");
        let big = s.alloc_layout(Layout::from_size_align(1000, 8).unwrap()).unwrap();
        assert_eq!(big.as_ptr() as usize % 8, 0);
    }

    #[test]
    fn works_as_allocator_for_vec() {
        let s = Stack::new(4096).unwrap();
        let mut v = allocator_api2::vec::Vec::new_in(&s);
        for i in 0..200u32 {
            v.push(i);
        }
        assert_eq!(v.iter().sum::<u32>(), 199 * 200 / 2);
        assert!(s.used() <= 1024, "growing the last block happens in place");
    }
}
