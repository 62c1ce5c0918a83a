//! The free lists: size classes (bins) with a bitmap of non-empty classes for good fit, one
//! list for the other policies, and the links kept inside free blocks.

use super::block::{BINS, FREE_TAG, HEADER, Heap, NONE};
use super::policy::Policy;

/// The size class of a block of `u` 16-byte units: one class per unit below 16 units, then 8
/// classes per power of two. Branch-free: `u | 8` makes sizes below 8 units share the first
/// power's shift of 0, where `s * 8 + (u >> s)` is `u` itself.
#[inline(always)]
pub(super) fn bin_of_units(u: usize) -> usize {
    let s = (usize::BITS - 1 - (u | 8).leading_zeros()) as usize - 3;
    s * 8 + (u >> s)
}

/// The first class whose every block holds at least `u` units (`u` at least 1): the class
/// after that of `u - 1`, since classes are contiguous ranges of sizes.
#[inline(always)]
pub(super) fn bin_at_least(u: usize) -> usize {
    bin_of_units(u - 1) + 1
}

impl Heap<'_> {
    /// The list number [`Heap::insert_free`] left in a free block's header. (Callers mask it
    /// with `% BINS` only to spare a bounds check: it is always below `BINS`, which
    /// [`Heap::check`] verifies.)
    #[inline(always)]
    pub(super) fn stored_bin(&self, off: usize) -> usize {
        // SAFETY: callers pass free blocks' header offsets.
        unsafe { self.base.as_ptr().add(off + HEADER).cast::<u32>().add(2).read() as usize }
    }

    #[inline]
    pub(super) fn links(&self, off: usize) -> (u32, u32) {
        // SAFETY: `off` is a free block, whose payload starts with its two links.
        unsafe {
            let p = self.base.as_ptr().add(off + HEADER).cast::<u32>();
            (p.read(), p.add(1).read())
        }
    }

    #[inline]
    pub(super) fn set_next(&mut self, off: u32, next: u32) {
        // SAFETY: `off` is a free block.
        unsafe { self.base.as_ptr().add(off as usize + HEADER).cast::<u32>().write(next) };
    }

    #[inline]
    pub(super) fn set_prev(&mut self, off: u32, prev: u32) {
        // SAFETY: `off` is a free block.
        unsafe { self.base.as_ptr().add(off as usize + HEADER).cast::<u32>().add(1).write(prev) };
    }

    /// The free list of a block of `size` bytes under the heap's policy (for the checks; the
    /// hot paths use [`Heap::bin`], resolved at compile time).
    pub(super) fn bin_for(&self, size: usize) -> usize {
        if self.policy == Policy::GoodFit { Self::bin::<true>(size) } else { Self::bin::<false>(size) }
    }

    /// The free list of a block of `size` bytes: its size class under good fit (`GF`), the
    /// one list otherwise.
    #[inline(always)]
    pub(super) fn bin<const GF: bool>(size: usize) -> usize {
        if GF { bin_of_units(size / 16) } else { 0 }
    }

    /// Marks `off..off+size` free and pushes it on its list. Its left neighbour is used (free
    /// neighbours are always merged), so the header's `PREV_FREE` bit is clear; the caller
    /// writes the footer ([`Heap::set_footer`]) and the next header's flag.
    #[inline(always)]
    pub(super) fn insert_free<const GF: bool>(&mut self, off: usize, size: usize) {
        // (Always below `BINS`, see `bins_are_monotonic_and_cover_the_range`; the mask spares
        // a bounds check.)
        let bin = Self::bin::<GF>(size) % BINS;
        let head = self.heads[bin];
        let o = off as u32;
        // SAFETY: `off` starts a block of `size` bytes inside the area (at least `MIN_BLOCK`):
        // its header (size and tag), links and list number are rewritten, its footer kept;
        // `head`, when there is one, is a free block.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.cast::<[u32; 2]>().write([size as u32, FREE_TAG ^ o]);
            p.add(2).cast::<[u32; 2]>().write([head, NONE]);
            p.add(4).write(bin as u32);
        }
        if head != NONE {
            self.set_prev(head, o);
        }
        self.heads[bin] = o;
        self.bitmap[bin / 64] |= 1 << (bin % 64);
    }

    /// Clears class `bin`'s bit in the bitmap of non-empty lists: its list has just become
    /// empty.
    #[inline(always)]
    fn mark_empty(&mut self, bin: usize) {
        self.bitmap[bin / 64] &= !(1 << (bin % 64));
    }

    /// Takes the head block `off` off the list of class `bin` (good fit: the class is known
    /// and the block has no predecessor).
    #[inline(always)]
    pub(super) fn pop_head(&mut self, off: usize, bin: usize) {
        let bin = bin % BINS;
        let next = self.links(off).0;
        self.heads[bin] = next;
        if next == NONE {
            self.mark_empty(bin);
        } else {
            self.set_prev(next, NONE);
        }
    }

    /// Unlinks the free block at `off` from its list (whose number [`Heap::insert_free`]
    /// left in the header, so the size class is not worked out again).
    #[inline(always)]
    pub(super) fn remove_free<const GF: bool>(&mut self, off: usize) {
        let bin = if GF { self.stored_bin(off) % BINS } else { 0 };
        let (next, prev) = self.links(off);
        if prev == NONE {
            self.heads[bin] = next;
            if next == NONE {
                self.mark_empty(bin);
            }
        } else {
            self.set_next(prev, next);
        }
        if next != NONE {
            self.set_prev(next, prev);
        }
        if !GF && self.rover == off as u32 {
            self.rover = next;
        }
    }
}
