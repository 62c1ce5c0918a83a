//! Paged pools of fixed-size slots, and a small-object allocator made of 2^N size classes.
//!
//! A [`Pool`] takes pages (16 KiB or more, aligned to their size) from the system on demand and
//! cuts them into slots. Freed slots go on an intrusive free list inside the page (the first
//! word of a free slot links to the next), so alloc and free are a few instructions. Each page
//! keeps a bitmap of live slots, so a double free or a pointer into the middle of a slot is an
//! error, not corruption, and a count, so a page whose slots are all free goes back to the
//! system (one empty page is kept to avoid thrashing at the boundary).

use alloc::alloc::{alloc as sys_alloc, dealloc as sys_dealloc};
use alloc::vec::Vec;
use core::alloc::{GlobalAlloc, Layout};
use core::ptr::{self, NonNull};

use allocator_api2::alloc::{AllocError, Allocator};

use crate::error::{Error, Result};
use crate::poison::{poison, unpoison};
use crate::sync::SpinLock;

const MIN_PAGE: usize = 16 * 1024;
const WORD: usize = core::mem::size_of::<usize>();

#[repr(C)]
struct Page {
    next: *mut Page,
    prev: *mut Page,
    free: *mut u8,
    /// Address of the first slot never handed out.
    bump: usize,
    live: usize,
    in_partial: bool,
}

/// A pool of equal-sized slots.
///
/// ```
/// use lore_allocators::Pool;
/// use core::alloc::Layout;
///
/// let mut pool = Pool::new(Layout::new::<[f32; 4]>())?;
/// let a = pool.alloc()?;
/// let b = pool.alloc()?;
/// pool.free(a)?;
/// assert_eq!(pool.alloc()?, a, "the last freed slot is reused first");
/// assert_eq!(pool.free(b), Ok(()));
/// assert_eq!(pool.free(b), Err(lore_allocators::Error::DoubleFree));
/// # Ok::<(), lore_allocators::Error>(())
/// ```
pub struct Pool {
    slot: usize,
    page_size: usize,
    /// Offset of the first slot from the page start (after the header and bitmap).
    first: usize,
    slots_per_page: usize,
    /// Pages with at least one free slot; allocation takes from the head.
    partial: *mut Page,
    /// Every page, sorted by address, for validating frees.
    pages: Vec<usize>,
    live: usize,
}

impl core::fmt::Debug for Pool {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Pool")
            .field("slot", &self.slot)
            .field("page_size", &self.page_size)
            .field("pages", &self.pages.len())
            .field("live", &self.live)
            .finish()
    }
}

// SAFETY: the pool owns its pages; nothing is shared with other pools or threads.
unsafe impl Send for Pool {}

impl Pool {
    /// A pool whose slots fit `layout`, with pages of at least 16 KiB.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a zero size, or a slot that cannot fit 8 times in a page
    /// of up to 1 GiB.
    pub fn new(layout: Layout) -> Result<Self> {
        Self::with_page_size(layout, MIN_PAGE)
    }

    /// A pool with pages of `page_size` bytes (rounded up to a power of two, and up to a size
    /// that holds at least 8 slots).
    ///
    /// # Errors
    /// As [`Pool::new`].
    pub fn with_page_size(layout: Layout, page_size: usize) -> Result<Self> {
        let bad = Error::Unsupported { size: layout.size(), align: layout.align() };
        if layout.size() == 0 || layout.size() > 1 << 26 {
            return Err(bad);
        }
        let align = layout.align().max(WORD);
        let slot = (layout.size().max(WORD) + align - 1) & !(align - 1);
        let mut page_size = page_size.max(MIN_PAGE).next_power_of_two();
        loop {
            let slots_guess = page_size / slot;
            let meta = core::mem::size_of::<Page>() + slots_guess.div_ceil(64) * 8;
            let first = (meta + align - 1) & !(align - 1);
            let slots = (page_size - first) / slot;
            if slots >= 8 {
                return Ok(Self {
                    slot,
                    page_size,
                    first,
                    slots_per_page: slots,
                    partial: ptr::null_mut(),
                    pages: Vec::new(),
                    live: 0,
                });
            }
            page_size *= 2;
            if page_size > 1 << 30 {
                return Err(bad);
            }
        }
    }

    /// Bytes per slot (the layout's size rounded up to its alignment and to a word).
    #[must_use]
    pub fn slot_size(&self) -> usize {
        self.slot
    }

    /// Slots per page.
    #[must_use]
    pub fn slots_per_page(&self) -> usize {
        self.slots_per_page
    }

    /// Pages currently held.
    #[must_use]
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Live slots.
    #[must_use]
    pub fn live(&self) -> usize {
        self.live
    }

    fn page_layout(&self) -> Layout {
        // SAFETY: the page size is a power of two below 2^31, valid as size and alignment.
        unsafe { Layout::from_size_align_unchecked(self.page_size, self.page_size) }
    }

    #[inline]
    fn bitmap(page: *mut Page) -> *mut u64 {
        // SAFETY: the bitmap follows the header inside the page.
        unsafe { page.add(1).cast::<u64>() }
    }

    /// Hands out one slot.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the system has no page to give.
    #[inline]
    pub fn alloc(&mut self) -> Result<NonNull<u8>> {
        let page = self.partial;
        if page.is_null() {
            return self.alloc_slow();
        }
        // SAFETY: `partial` pages are live pages of this pool with at least one free slot.
        unsafe {
            let pg = &mut *page;
            let p = if pg.free.is_null() {
                let p = pg.bump as *mut u8;
                pg.bump += self.slot;
                p
            } else {
                let p = pg.free;
                pg.free = p.cast::<*mut u8>().read();
                p
            };
            pg.live += 1;
            let index = (p as usize - page as usize - self.first) / self.slot;
            *Self::bitmap(page).add(index / 64) |= 1 << (index % 64);
            if pg.live == self.slots_per_page {
                self.unlink(page);
            }
            self.live += 1;
            unpoison(p, self.slot);
            Ok(NonNull::new_unchecked(p))
        }
    }

    #[inline(never)]
    fn alloc_slow(&mut self) -> Result<NonNull<u8>> {
        let layout = self.page_layout();
        // SAFETY: non-zero size.
        let raw = unsafe { sys_alloc(layout) };
        if raw.is_null() {
            return Err(Error::OutOfMemory { size: self.slot, align: self.slot & self.slot.wrapping_neg() });
        }
        let page = raw.cast::<Page>();
        // SAFETY: the page is fresh and large enough for its header, bitmap and slots.
        unsafe {
            page.write(Page {
                next: ptr::null_mut(),
                prev: ptr::null_mut(),
                free: ptr::null_mut(),
                bump: raw as usize + self.first,
                live: 0,
                in_partial: false,
            });
            ptr::write_bytes(Self::bitmap(page), 0, self.slots_per_page.div_ceil(64));
            poison(raw.add(self.first), self.slots_per_page * self.slot);
        }
        let at = self.pages.partition_point(|&p| p < raw as usize);
        self.pages.insert(at, raw as usize);
        self.push_partial(page);
        self.alloc()
    }

    fn push_partial(&mut self, page: *mut Page) {
        // SAFETY: `page` and the current head are live pages of this pool.
        unsafe {
            (*page).next = self.partial;
            (*page).prev = ptr::null_mut();
            (*page).in_partial = true;
            if !self.partial.is_null() {
                (*self.partial).prev = page;
            }
        }
        self.partial = page;
    }

    fn unlink(&mut self, page: *mut Page) {
        // SAFETY: `page` is in the partial list, whose members are live pages.
        unsafe {
            let (next, prev) = ((*page).next, (*page).prev);
            if prev.is_null() {
                self.partial = next;
            } else {
                (*prev).next = next;
            }
            if !next.is_null() {
                (*next).prev = prev;
            }
            (*page).in_partial = false;
        }
    }

    /// Returns a slot to the pool.
    ///
    /// # Errors
    /// [`Error::ForeignPointer`] if `ptr` is not the start of a slot of this pool,
    /// [`Error::DoubleFree`] if the slot is already free.
    pub fn free(&mut self, ptr: NonNull<u8>) -> Result<()> {
        let p = ptr.as_ptr() as usize;
        let page = p & !(self.page_size - 1);
        if self.pages.binary_search(&page).is_err() {
            return Err(Error::ForeignPointer);
        }
        let rel = p - page;
        if rel < self.first
            || !(rel - self.first).is_multiple_of(self.slot)
            || rel - self.first >= self.slots_per_page * self.slot
        {
            return Err(Error::ForeignPointer);
        }
        let index = (rel - self.first) / self.slot;
        // SAFETY: `page` is one of our pages (checked above), so its bitmap is readable.
        let live = unsafe { *Self::bitmap(page as *mut Page).add(index / 64) & (1 << (index % 64)) != 0 };
        if !live {
            return Err(Error::DoubleFree);
        }
        // SAFETY: a live slot of this pool, just checked.
        unsafe { self.free_unchecked(ptr) };
        Ok(())
    }

    /// Returns a slot without the membership checks of [`Pool::free`] (a bitmap update still
    /// happens).
    ///
    /// # Safety
    /// `ptr` must be a live slot handed out by this pool.
    #[inline]
    pub unsafe fn free_unchecked(&mut self, ptr: NonNull<u8>) {
        let p = ptr.as_ptr();
        let page = (p as usize & !(self.page_size - 1)) as *mut Page;
        // SAFETY: the caller guarantees `p` is a live slot, so `page` is our page.
        unsafe {
            let index = (p as usize - page as usize - self.first) / self.slot;
            *Self::bitmap(page).add(index / 64) &= !(1 << (index % 64));
            poison(p.add(WORD), self.slot - WORD);
            p.cast::<*mut u8>().write((*page).free);
            (*page).free = p;
            (*page).live -= 1;
            self.live -= 1;
            if !(*page).in_partial {
                self.push_partial(page);
            }
            if (*page).live == 0 && !((*page).prev.is_null() && (*page).next.is_null()) {
                self.release(page);
            }
        }
    }

    #[cold]
    fn release(&mut self, page: *mut Page) {
        self.unlink(page);
        if let Ok(i) = self.pages.binary_search(&(page as usize)) {
            self.pages.remove(i);
        }
        // SAFETY: the page has no live slot and was allocated with this layout.
        unsafe {
            unpoison(page.cast::<u8>().add(self.first), self.slots_per_page * self.slot);
            sys_dealloc(page.cast(), self.page_layout());
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let layout = self.page_layout();
        for &page in &self.pages {
            // SAFETY: every listed page was allocated with this layout and is ours.
            unsafe {
                unpoison((page as *mut u8).add(self.first), self.slots_per_page * self.slot);
                sys_dealloc(page as *mut u8, layout);
            }
        }
    }
}

/// A [`Pool`] behind a spin lock: thread-safe, and an [`Allocator`] for layouts that fit its
/// slot (others fail with `AllocError`).
#[derive(Debug)]
pub struct LockedPool(SpinLock<Pool>);

impl LockedPool {
    /// Wraps a pool.
    #[must_use]
    pub fn new(pool: Pool) -> Self {
        Self(SpinLock::new(pool))
    }

    /// Locks the pool for direct use.
    pub fn lock(&self) -> crate::sync::SpinGuard<'_, Pool> {
        self.0.lock()
    }
}

// SAFETY: slots are disjoint and live until freed; the lock serialises access.
unsafe impl Allocator for LockedPool {
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let mut pool = self.0.lock();
        if layout.size() > pool.slot
            || !pool.slot.is_multiple_of(layout.align())
            || !pool.first.is_multiple_of(layout.align())
        {
            return Err(AllocError);
        }
        let p = pool.alloc().map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, pool.slot))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, _layout: Layout) {
        let r = self.0.lock().free(ptr);
        debug_assert!(r.is_ok(), "deallocate of a slot not from this pool: {r:?}");
    }
}

/// Number of size classes: 16, 32, ..., 4096 bytes.
pub const SIZE_CLASSES: usize = 9;
/// The largest request served from a size class; larger ones go to the system allocator.
pub const MAX_SMALL: usize = 16 << (SIZE_CLASSES - 1);

/// A general small-object allocator: one [`Pool`] per power-of-two size from 16 to 4096 bytes,
/// each slot aligned to its size; larger requests go to the system allocator.
///
/// ```
/// use lore_allocators::SizeClasses;
/// use core::alloc::Layout;
///
/// let mut small = SizeClasses::new();
/// let p = small.alloc(Layout::from_size_align(24, 8)?)?; // a 32-byte slot
/// // SAFETY: `p` came from `small.alloc` with this layout.
/// unsafe { small.free(p, Layout::from_size_align(24, 8)?) };
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SizeClasses {
    pools: [Option<Pool>; SIZE_CLASSES],
}

impl Default for SizeClasses {
    fn default() -> Self {
        Self::new()
    }
}

impl SizeClasses {
    /// An allocator with no pages yet.
    #[must_use]
    pub const fn new() -> Self {
        Self { pools: [const { None }; SIZE_CLASSES] }
    }

    /// The class serving `layout`, or `None` for the system allocator.
    #[must_use]
    pub fn class_of(layout: Layout) -> Option<usize> {
        let need = layout.size().max(layout.align()).max(16);
        if need > MAX_SMALL {
            return None;
        }
        Some(need.next_power_of_two().trailing_zeros() as usize - 4)
    }

    fn pool(&mut self, class: usize) -> Result<&mut Pool> {
        if self.pools[class].is_none() {
            let size = 16 << class;
            let layout = Layout::from_size_align(size, size).map_err(|_| Error::Unsupported { size, align: size })?;
            self.pools[class] = Some(Pool::new(layout)?);
        }
        Ok(self.pools[class].as_mut().expect("created above"))
    }

    /// Allocates a block for `layout` (zero-sized layouts get a 16-byte slot).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the system cannot supply memory.
    pub fn alloc(&mut self, layout: Layout) -> Result<NonNull<u8>> {
        match Self::class_of(layout) {
            Some(c) => self.pool(c)?.alloc(),
            None => {
                // SAFETY: sizes above `MAX_SMALL` are non-zero.
                let p = unsafe { sys_alloc(layout) };
                NonNull::new(p).ok_or(Error::OutOfMemory { size: layout.size(), align: layout.align() })
            }
        }
    }

    /// Frees a block.
    ///
    /// # Safety
    /// `ptr` must come from [`SizeClasses::alloc`] on this allocator with the same `layout`,
    /// and not be freed already.
    pub unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        match Self::class_of(layout) {
            Some(c) => {
                let r = self.pools[c].as_mut().map(|p| p.free(ptr));
                debug_assert!(matches!(r, Some(Ok(()))), "free of a block not from this allocator: {r:?}");
            }
            // SAFETY: the caller's contract: it came from `sys_alloc` with this layout.
            None => unsafe { sys_dealloc(ptr.as_ptr(), layout) },
        }
    }

    /// Pages held per class (index 0 is 16 bytes).
    #[must_use]
    pub fn pages(&self) -> [usize; SIZE_CLASSES] {
        core::array::from_fn(|i| self.pools[i].as_ref().map_or(0, Pool::pages))
    }
}

/// [`SizeClasses`] behind a spin lock: thread-safe, an [`Allocator`] and a [`GlobalAlloc`].
///
/// ```
/// use lore_allocators::LockedSizeClasses;
/// use allocator_api2::vec::Vec;
///
/// let small = LockedSizeClasses::new();
/// let mut v = Vec::new_in(&small);
/// v.extend(0..100u64);
/// assert_eq!(v.len(), 100);
/// ```
#[derive(Debug)]
pub struct LockedSizeClasses(SpinLock<SizeClasses>);

impl Default for LockedSizeClasses {
    fn default() -> Self {
        Self::new()
    }
}

impl LockedSizeClasses {
    /// An allocator with no pages yet (usable in a `static`).
    #[must_use]
    pub const fn new() -> Self {
        Self(SpinLock::new(SizeClasses::new()))
    }

    /// Locks the allocator for direct use.
    pub fn lock(&self) -> crate::sync::SpinGuard<'_, SizeClasses> {
        self.0.lock()
    }
}

// SAFETY: blocks are slots of disjoint pools or system blocks; the lock serialises access.
unsafe impl Allocator for LockedSizeClasses {
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().alloc(layout).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the `Allocator` contract matches `free`'s.
        unsafe { self.0.lock().free(ptr, layout) }
    }
}

// SAFETY: as for `Allocator`; failure returns null.
unsafe impl GlobalAlloc for LockedSizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.0.lock().alloc(layout).map_or(ptr::null_mut(), NonNull::as_ptr)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if let Some(p) = NonNull::new(ptr) {
            // SAFETY: the `GlobalAlloc` contract matches `free`'s.
            unsafe { self.0.lock().free(p, layout) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_come_and_go() {
        let mut pool = Pool::new(Layout::new::<[u64; 8]>()).unwrap();
        let n = pool.slots_per_page();
        let ptrs: Vec<_> = (0..3 * n).map(|_| pool.alloc().unwrap()).collect();
        assert_eq!(pool.pages(), 3);
        for p in &ptrs {
            pool.free(*p).unwrap();
        }
        assert_eq!(pool.pages(), 1, "empty pages go back, one is kept");
        assert_eq!(pool.live(), 0);
    }

    #[test]
    fn misuse_is_reported() {
        let mut pool = Pool::new(Layout::new::<u64>()).unwrap();
        let a = pool.alloc().unwrap();
        let b = pool.alloc().unwrap();
        // SAFETY: inside the slot `a`.
        let mid = unsafe { NonNull::new_unchecked(a.as_ptr().add(4)) };
        assert_eq!(pool.free(mid), Err(Error::ForeignPointer));
        let mut local = 0u64;
        assert_eq!(pool.free(NonNull::from(&mut local).cast()), Err(Error::ForeignPointer));
        pool.free(b).unwrap();
        assert_eq!(pool.free(b), Err(Error::DoubleFree));
        pool.free(a).unwrap();
    }

    #[test]
    fn size_classes_align_to_size() {
        let mut sc = SizeClasses::new();
        for size in [1usize, 15, 16, 17, 100, 1000, 4096, 5000] {
            let layout = Layout::from_size_align(size, 1).unwrap();
            let p = sc.alloc(layout).unwrap();
            if let Some(c) = SizeClasses::class_of(layout) {
                assert_eq!(p.as_ptr() as usize % (16 << c), 0);
            }
            // SAFETY: allocated just above with this layout.
            unsafe { sc.free(p, layout) };
        }
        assert_eq!(SizeClasses::class_of(Layout::from_size_align(8, 64).unwrap()), Some(2));
    }

    #[test]
    fn zero_size_pool_is_unsupported() {
        assert!(matches!(Pool::new(Layout::new::<()>()), Err(Error::Unsupported { .. })));
    }
}
