//! The region and its blocks: the [`Heap`] itself, the block header layout (size, boundary
//! tag, magic tag), header reads and writes, and poisoning of free bytes.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::policy::Policy;
use crate::poison::{poison, unpoison};

pub(super) const HEADER: usize = 16;
pub(super) const MIN_BLOCK: usize = 32;
/// Bytes at the start of a free block's payload that hold its links.
pub(super) const LINKS: usize = 8;
pub(super) const NONE: u32 = u32::MAX;
pub(super) const USED_TAG: u32 = 0xA110_C8ED;
pub(super) const FREE_TAG: u32 = 0xF7EE_B10C;
/// Left in the header of a block merged into its left neighbour, so a second free of it is
/// still reported as a double free (until the bytes are handed out again).
pub(super) const DEAD_TAG: u32 = 0xDEAD_B10C;
pub(super) const BINS: usize = 256;

///
/// ```
/// use lore_allocators::{Heap, Policy};
/// use core::alloc::Layout;
///
/// let mut region = vec![0u8; 4096];
/// let mut heap = Heap::new(&mut region, Policy::BestFit)?;
/// let a = heap.alloc(Layout::new::<[u64; 8]>())?;
/// let b = heap.alloc(Layout::from_size_align(100, 32)?)?;
/// assert_eq!(b.as_ptr() as usize % 32, 0);
/// heap.free(a)?;
/// assert_eq!(heap.free(a), Err(lore_allocators::Error::DoubleFree));
/// heap.free(b)?;
/// assert_eq!(heap.stats().free_blocks, 1, "neighbours coalesce");
/// heap.check()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Heap<'a> {
    pub(super) base: NonNull<u8>,
    /// Bytes of blocks, not counting the sentinel.
    pub(super) len: usize,
    /// `len - HEADER` (0 while empty): header offsets at or past it cannot start a used
    /// block, so a pointer's range is one compare.
    pub(super) last_header: usize,
    pub(super) policy: Policy,
    pub(super) heads: [u32; BINS],
    pub(super) bitmap: [u64; BINS / 64],
    /// Bit `w` set when `bitmap[w]` is not zero (the first level of the two-level bitmap).
    pub(super) summary: u64,
    pub(super) rover: u32,
    pub(super) used: usize,
    pub(super) used_blocks: usize,
    pub(super) _region: PhantomData<&'a mut [u8]>,
}

impl core::fmt::Debug for Heap<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Heap")
            .field("policy", &self.policy)
            .field("capacity", &self.len)
            .field("used", &self.used)
            .field("used_blocks", &self.used_blocks)
            .finish_non_exhaustive()
    }
}

// SAFETY: the heap exclusively borrows its region; moving it moves that borrow.
unsafe impl Send for Heap<'_> {}

#[derive(Clone, Copy)]
pub(super) struct Hdr {
    pub(super) size: u32,
    pub(super) prev_size: u32,
    pub(super) tag: u32,
}

impl<'a> Heap<'a> {
    /// A heap that cannot allocate until [`LockedHeap::init`] gives it a region (for statics).
    #[must_use]
    pub const fn empty(policy: Policy) -> Self {
        Self {
            base: NonNull::dangling(),
            len: 0,
            last_header: 0,
            policy,
            heads: [NONE; BINS],
            bitmap: [0; BINS / 64],
            summary: 0,
            rover: NONE,
            used: 0,
            used_blocks: 0,
            _region: PhantomData,
        }
    }

    /// The policy in use.
    #[must_use]
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Start of the managed area (block offsets in [`BlockInfo`] count from here).
    #[must_use]
    pub fn base(&self) -> *const u8 {
        self.base.as_ptr()
    }

    /// Bytes the heap manages.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.len
    }
}

impl Heap<'_> {
    /// # Safety
    /// `off` must be a header offset inside the managed area (or the sentinel).
    #[inline]
    pub(super) unsafe fn hdr(&self, off: usize) -> Hdr {
        // SAFETY: the caller's contract; headers are 16-aligned.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            Hdr { size: p.read(), prev_size: p.add(1).read(), tag: p.add(2).read() }
        }
    }

    /// # Safety
    /// As [`Heap::hdr`].
    #[inline]
    pub(super) unsafe fn write_hdr(&mut self, off: usize, h: Hdr) {
        // Tag 0 is written as is (a header inside a block being reshaped); the three tags
        // are mixed with the offset.
        let tag = if h.tag == 0 { 0 } else { h.tag ^ off as u32 };
        // SAFETY: the caller's contract.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.write(h.size);
            p.add(1).write(h.prev_size);
            p.add(2).write(tag);
        }
    }

    #[inline]
    pub(super) fn set_prev_size(&mut self, off: usize, prev_size: usize) {
        // SAFETY: callers pass the offset of a header (possibly the sentinel).
        unsafe { self.base.as_ptr().add(off).cast::<u32>().add(1).write(prev_size as u32) };
    }

    /// Marks the header at `off`, now inside a merged free block, as dead: only its tag is
    /// read again (by [`Heap::misuse`], to report a second free of it).
    #[inline(always)]
    pub(super) fn set_dead(&mut self, off: usize) {
        // SAFETY: callers pass the offset of a header inside the area.
        unsafe { self.base.as_ptr().add(off).cast::<u32>().add(2).write(DEAD_TAG ^ off as u32) };
    }

    #[inline]
    pub(super) fn is_free(&self, off: usize) -> bool {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).tag == FREE_TAG ^ off as u32 }
    }

    #[inline]
    pub(super) fn size_at(&self, off: usize) -> usize {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).size as usize }
    }

    /// # Safety
    /// `off..off+size` is a free block's extent.
    pub(super) unsafe fn poison_free(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract: the bytes after the links are unused.
        unsafe { poison(self.base.as_ptr().add(off + HEADER + LINKS), size - HEADER - LINKS) };
    }

    /// # Safety
    /// `off..off+size` is a block being handed out or reshaped.
    pub(super) unsafe fn unpoison_block(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract.
        unsafe { unpoison(self.base.as_ptr().add(off + HEADER), size - HEADER) };
    }
}
