//! The region and its blocks: the [`Heap`] itself, the block header layout (size, boundary
//! tag, magic tag), header reads and writes, and poisoning of free bytes.

use core::marker::PhantomData;
use core::ptr::NonNull;

use super::policy::Policy;
use crate::poison::{poison, unpoison};

pub(super) const HEADER: usize = 8;
/// The smallest block: a header, a free block's links and list number, and its footer.
pub(super) const MIN_BLOCK: usize = 32;
/// Bytes at the start of a free block's payload that the heap keeps: the two list links and
/// the list number (and 4 spare bytes, so the poisoned middle starts 16-aligned).
pub(super) const FREE_META: usize = 16;
/// Bytes at the end of a free block that hold its footer (its size, in the last 4).
pub(super) const FOOTER: usize = 8;
/// Bit 0 of a header's size word: the block to the left is free, and its size is in the
/// footer just before this header. (Sizes are multiples of 16, so the low 4 bits are free.)
pub(super) const PREV_FREE: u32 = 1;
/// The low bits of a header's size word that are not size.
pub(super) const FLAGS: u32 = 15;
/// The end of a free list. List links are the offsets of free blocks' payloads
/// ([`link`]), never 0, so the end is 0: a test against zero.
pub(super) const NONE: u32 = 0;

/// The list link of the free block at `off`: its payload's offset. (Block offsets are below
/// `u32::MAX - 32`, so it fits.)
#[inline(always)]
pub(super) const fn link(off: usize) -> u32 {
    (off + HEADER) as u32
}

/// The header offset of the free block with list link `l`.
#[inline(always)]
pub(super) const fn block_of(l: u32) -> usize {
    l as usize - HEADER
}
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
    /// The number of 16-byte steps at which a used block can start, `(len - 16) / 16` (0
    /// while empty): a header offset `off` can start one when `off / 16` is below it and
    /// `off` is a multiple of 16, which `off.rotate_right(4) < offsets` tests in one compare
    /// (the low bits rotate to the top). (`base + HEADER` is 16-aligned: payloads are, and so
    /// is every block offset.)
    pub(super) offsets: usize,
    /// The address of the first payload, `base + HEADER`: a payload pointer's header offset
    /// is one subtraction away.
    pub(super) payloads: usize,
    pub(super) policy: Policy,
    /// The first block of each list, as a [`link`].
    pub(super) heads: [u32; BINS],
    /// Bit `b` set when class `b`'s list is not empty (good fit).
    pub(super) bitmap: [u64; BINS / 64],
    /// Where next fit's search starts, as a [`link`].
    pub(super) rover: u32,
    /// Takes the writes to a missing list neighbour (the previous link of the block after
    /// the last one, say), so that the list updates write without testing for one: a
    /// branch on whether a list is empty is a coin toss that the processor keeps losing.
    /// Never read.
    pub(super) spill: u32,
    /// Live allocations. (The bytes they hold are the capacity less the free blocks, which
    /// [`Heap::stats`](super::HeapStats) adds up: no counter on the hot paths.)
    pub(super) used_blocks: usize,
    pub(super) _region: PhantomData<&'a mut [u8]>,
}

impl core::fmt::Debug for Heap<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Heap")
            .field("policy", &self.policy)
            .field("capacity", &self.len)
            .field("used", &self.stats().used)
            .field("used_blocks", &self.used_blocks)
            .finish_non_exhaustive()
    }
}

// SAFETY: the heap exclusively borrows its region; moving it moves that borrow.
unsafe impl Send for Heap<'_> {}

#[derive(Clone, Copy)]
pub(super) struct Hdr {
    /// The block's size (flags masked off).
    pub(super) size: u32,
    /// Whether the left neighbour is free ([`PREV_FREE`]).
    pub(super) prev_free: bool,
    pub(super) tag: u32,
}

impl<'a> Heap<'a> {
    /// A heap that cannot allocate until [`LockedHeap::init`](super::LockedHeap::init) gives it a region (for statics).
    #[must_use]
    pub const fn empty(policy: Policy) -> Self {
        Self {
            base: NonNull::dangling(),
            len: 0,
            offsets: 0,
            payloads: 0,
            policy,
            heads: [NONE; BINS],
            bitmap: [0; BINS / 64],
            rover: NONE,
            spill: 0,
            used_blocks: 0,
            _region: PhantomData,
        }
    }

    /// The policy in use.
    #[must_use]
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Start of the managed area (block offsets in [`BlockInfo`](super::BlockInfo) count from here).
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
            let word = p.read();
            Hdr { size: word & !FLAGS, prev_free: word & PREV_FREE != 0, tag: p.add(1).read() }
        }
    }

    /// The header's size word as stored, flags included (for the check).
    #[inline]
    pub(super) fn size_word(&self, off: usize) -> u32 {
        // SAFETY: callers pass header offsets.
        unsafe { self.base.as_ptr().add(off).cast::<u32>().read() }
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
            p.write(h.size | if h.prev_free { PREV_FREE } else { 0 });
            p.add(1).write(tag);
        }
    }

    /// The free block `off..off+size` gets its footer, and the header after it learns that
    /// its left neighbour is free.
    #[inline(always)]
    pub(super) fn mark_free_end(&mut self, off: usize, size: usize) {
        self.set_footer(off, size);
        self.set_prev_free(off + size);
    }

    /// The free block `off..off+size` gets its footer (its size in its last 4 bytes).
    #[inline(always)]
    pub(super) fn set_footer(&mut self, off: usize, size: usize) {
        // SAFETY: callers pass a free block's extent.
        unsafe { self.base.as_ptr().add(off + size).sub(4).cast::<u32>().write(size as u32) };
    }

    /// The header at `off` (possibly the sentinel) now has a free left neighbour.
    #[inline(always)]
    pub(super) fn set_prev_free(&mut self, off: usize) {
        // SAFETY: callers pass the offset of a header.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.write(p.read() | PREV_FREE);
        }
    }

    /// The header at `off` (possibly the sentinel) now has a used left neighbour.
    #[inline(always)]
    pub(super) fn clear_prev_free(&mut self, off: usize) {
        // SAFETY: callers pass the offset of a header.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.write(p.read() & !PREV_FREE);
        }
    }

    /// The size of the free block left of the header at `off`, from its footer.
    #[inline(always)]
    pub(super) fn prev_size(&self, off: usize) -> usize {
        // SAFETY: callers pass a header whose left neighbour is free, so the 4 bytes before
        // it are that block's footer.
        unsafe { self.base.as_ptr().add(off).sub(4).cast::<u32>().read() as usize }
    }

    /// Turns the tag of the header at `off` from one kind to another: `flip` is the two
    /// kinds' tags xor-ed (the offset mixed into both cancels out), so the tag is changed in
    /// place without being worked out.
    #[inline(always)]
    pub(super) fn flip_tag(&mut self, off: usize, flip: u32) {
        // SAFETY: callers pass the offset of a header inside the area.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>().add(1);
            p.write(p.read() ^ flip);
        }
    }

    #[inline]
    pub(super) fn is_free(&self, off: usize) -> bool {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).tag == FREE_TAG ^ off as u32 }
    }

    /// The size of the free block at `off`: its size word as stored, since a free block's
    /// header has no flag set (its left neighbour is used: free neighbours are always
    /// merged).
    #[inline(always)]
    pub(super) fn free_size(&self, off: usize) -> usize {
        let word = self.size_word(off);
        debug_assert_eq!(word & FLAGS, 0, "a free block's header has no flag set");
        word as usize
    }

    #[inline]
    pub(super) fn size_at(&self, off: usize) -> usize {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).size as usize }
    }

    /// # Safety
    /// `off..off+size` is a free block's extent.
    pub(super) unsafe fn poison_free(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract: the bytes between the links and the footer are unused.
        unsafe { poison(self.base.as_ptr().add(off + HEADER + FREE_META), size - HEADER - FREE_META - FOOTER) };
    }

    /// # Safety
    /// `off..off+size` is a block being handed out or reshaped.
    pub(super) unsafe fn unpoison_block(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract.
        unsafe { unpoison(self.base.as_ptr().add(off + HEADER), size - HEADER) };
    }
}
