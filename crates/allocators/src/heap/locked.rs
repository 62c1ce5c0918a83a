//! [`LockedHeap`]: a heap behind a spin lock, usable as a global allocator.

use core::alloc::{GlobalAlloc, Layout};
use core::ptr::{self, NonNull};

use allocator_api2::alloc::{AllocError, Allocator};

use super::block::Heap;
use crate::error::Result;
use crate::sync::SpinLock;

/// A [`Heap`] behind a spin lock: thread-safe, usable as the [`GlobalAlloc`] and as an
/// [`Allocator`] for collections.
///
/// ```
/// use lore_allocators::{Heap, LockedHeap, Policy};
/// use allocator_api2::vec::Vec;
///
/// let mut region = vec![0u8; 1 << 16];
/// let heap = LockedHeap::new(Heap::new(&mut region, Policy::GoodFit)?);
/// let mut v = Vec::new_in(&heap);
/// v.extend(0..1000u32);
/// assert_eq!(v[999], 999);
/// # Ok::<(), lore_allocators::Error>(())
/// ```
///
/// As the global allocator over a static region:
///
/// ```no_run
/// use lore_allocators::{Heap, LockedHeap, Policy};
///
/// #[global_allocator]
/// static HEAP: LockedHeap<'static> = LockedHeap::new(Heap::empty(Policy::GoodFit));
///
/// fn main() {
///     static mut REGION: [u8; 1 << 20] = [0; 1 << 20];
///     // SAFETY: the region is used by nothing else, once, before any allocation.
///     unsafe { HEAP.init(&raw mut REGION as *mut u8, 1 << 20).unwrap() };
/// }
/// ```
#[derive(Debug)]
pub struct LockedHeap<'a>(SpinLock<Heap<'a>>);

impl<'a> LockedHeap<'a> {
    /// Wraps a heap.
    #[must_use]
    pub const fn new(heap: Heap<'a>) -> Self {
        Self(SpinLock::new(heap))
    }

    /// Replaces the heap with a new one over raw memory (see [`Heap::from_raw`]); meant for a
    /// static made with [`Heap::empty`].
    ///
    /// # Safety
    /// As [`Heap::from_raw`], and no block of the previous heap may be in use.
    ///
    /// # Errors
    /// [`Error::BadRegion`](crate::Error::BadRegion).
    pub unsafe fn init(&self, ptr: *mut u8, len: usize) -> Result<()> {
        let mut heap = self.0.lock();
        let policy = heap.policy();
        // SAFETY: the caller's contract.
        *heap = unsafe { Heap::from_raw(ptr, len, policy)? };
        Ok(())
    }

    /// Locks the heap for direct use (statistics, checks, checked frees).
    pub fn lock(&self) -> crate::sync::SpinGuard<'_, Heap<'a>> {
        self.0.lock()
    }
}

impl LockedHeap<'_> {
    /// `grow` and `shrink`: [`Heap::realloc`] (in place when it can), as a slice.
    fn resize(&self, ptr: NonNull<u8>, new: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().realloc(ptr, new).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, new.size()))
    }
}

// SAFETY: blocks never overlap (the heap's invariant, checked by `Heap::check` in the tests)
// and stay valid until deallocated; the lock serialises all access.
unsafe impl Allocator for LockedHeap<'_> {
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().alloc(layout).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        let r = self.0.lock().free_sized(ptr, layout);
        debug_assert!(r.is_ok(), "deallocate of a block not from this heap: {r:?}");
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        _old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        self.resize(ptr, new)
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        _old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        self.resize(ptr, new)
    }
}

// SAFETY: as for `Allocator`; a failed allocation returns null as `GlobalAlloc` requires.
unsafe impl GlobalAlloc for LockedHeap<'_> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.0.lock().alloc(layout).map_or(ptr::null_mut(), NonNull::as_ptr)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if let Some(p) = NonNull::new(ptr) {
            let r = self.0.lock().free_sized(p, layout);
            debug_assert!(r.is_ok(), "dealloc of a block not from this heap: {r:?}");
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match NonNull::new(ptr) {
            Some(p) => self.0.lock().realloc_sized(p, layout, new_size).map_or(ptr::null_mut(), NonNull::as_ptr),
            None => ptr::null_mut(),
        }
    }
}
