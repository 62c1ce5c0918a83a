//! The free lists: size classes (bins) with a bitmap of non-empty classes for good fit, one
//! list for the other policies, and the links kept inside free blocks.

use super::block::{BINS, FREE_TAG, HEADER, Heap, NONE, link};
use super::policy::Policy;

/// Sizes below this have a class per 16 bytes: `size / 16`, one shift.
pub(super) const LINEAR_END: usize = 1024;

/// The size class of a block of `size` bytes (a multiple of 16, at least 16): one class per
/// 16 bytes below [`LINEAR_END`] (classes 0 to 63), then 8 classes per power of two, told
/// apart by the 3 bits after the leading one, numbered `8 * log2(size) - 16 + those bits`
/// (64 for 1024 bytes, at most 239 for a size below 2^32).
///
/// The small sizes, by far the most requested, cost a shift; above, on targets with hardware
/// doubles, the exponent and the top 3 bits of the mantissa of `size` as an `f64` are the
/// class (exact for every size below 2^53; a larger or negative one only has to land at or
/// above [`BINS`](super::block::BINS), and does): a conversion and a shift, without the
/// leading-zero count and variable shift of [`bin_of_size_int`], which gives the same
/// classes elsewhere.
#[inline(always)]
pub(super) fn bin_of_size(size: usize) -> usize {
    if size < LINEAR_END { size / 16 } else { bin_above_linear(size) }
}

/// [`bin_of_size`] at or above [`LINEAR_END`] (below it, a meaningless number).
#[inline(always)]
fn bin_above_linear(size: usize) -> usize {
    if FLOAT_CLASSES {
        // Sign (0), 11 exponent bits (1023 + log2), then the mantissa: bits 49.. are
        // `8 * (1023 + log2) + top 3 mantissa bits`.
        (((size as i64 as f64).to_bits() >> 49) as usize).wrapping_sub(1023 * 8 + 16)
    } else {
        bin_of_size_int(size)
    }
}

/// [`bin_of_size`] for a block (a size from 16 to `u32::MAX`) without a branch on which
/// side of [`LINEAR_END`] it lies: both formulas are worked out and one is picked by a
/// conditional move. For the blocks listed on frees and splits, whose side is a coin toss
/// on mixed workloads (the branch went the wrong way one time in six to eight); the
/// searches, whose requests are mostly small, keep the branch.
#[inline(always)]
pub(super) fn bin_of_block(size: usize) -> usize {
    debug_assert!((16..=u32::MAX as usize).contains(&size));
    core::hint::select_unpredictable(size < LINEAR_END, size / 16, bin_above_linear(size))
}

/// Whether [`bin_of_size`] converts to `f64`: on targets where that is one instruction.
const FLOAT_CLASSES: bool = cfg!(any(
    target_arch = "x86_64",
    all(target_arch = "x86", target_feature = "sse2"),
    target_arch = "aarch64",
    target_family = "wasm"
));

/// [`bin_of_size`] above [`LINEAR_END`] with integer operations.
#[inline(always)]
pub(super) fn bin_of_size_int(size: usize) -> usize {
    let b = size.ilog2() as usize;
    // `size >> (b - 3)` is 8 plus the 3 bits after the leading one.
    8 * b + (size >> (b - 3)) - 24
}

/// The first class whose every block holds at least `size` bytes (`size` a multiple of 16,
/// at least 32): the class after that of `size - 16`, since classes are contiguous ranges of
/// sizes.
#[inline(always)]
pub(super) fn bin_at_least(size: usize) -> usize {
    bin_of_size(size - 16) + 1
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

    /// The next and previous [`link`]s of the free block at `off`.
    #[inline]
    pub(super) fn links(&self, off: usize) -> (u32, u32) {
        // SAFETY: `off` is a free block, whose payload starts with its two links.
        unsafe {
            let p = self.base.as_ptr().add(off + HEADER).cast::<u32>();
            (p.read(), p.add(1).read())
        }
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
        if GF { bin_of_block(size) } else { 0 }
    }

    /// Marks `off..off+size` free and pushes it on its list. Its left neighbour is used (free
    /// neighbours are always merged), so the header's `PREV_FREE` bit is clear; the caller
    /// writes the footer ([`Heap::set_footer`]) and the next header's flag.
    #[inline(always)]
    pub(super) fn insert_free<const GF: bool>(&mut self, off: usize, size: usize) {
        // SAFETY: `off` is a block header inside the area.
        unsafe { self.base.as_ptr().add(off).cast::<[u32; 2]>().write([size as u32, FREE_TAG ^ off as u32]) };
        self.list_free::<GF>(off, size);
    }

    /// [`Heap::insert_free`] for a block whose header is written already (size without
    /// flags, free tag).
    #[inline(always)]
    pub(super) fn list_free<const GF: bool>(&mut self, off: usize, size: usize) {
        self.list_free_in::<GF>(off, Self::bin::<GF>(size));
    }

    /// Where the previous link of the free block with link `l` is, or [`Heap::spill`] for
    /// [`NONE`]: a conditional move, not a branch.
    #[inline(always)]
    fn prev_slot(&mut self, l: u32) -> *mut u32 {
        let spill = &raw mut self.spill;
        // (`wrapping_add`: for `NONE` the address is worked out but not used.)
        let slot = self.base.as_ptr().wrapping_add(l as usize + 4).cast::<u32>();
        core::hint::select_unpredictable(l != NONE, slot, spill)
    }

    /// [`Heap::list_free`] for a block whose class (list) is worked out already. Takes no
    /// branch: the old head's previous link is written through [`Heap::prev_slot`], and the
    /// class's bit is set whether or not it was.
    #[inline(always)]
    pub(super) fn list_free_in<const GF: bool>(&mut self, off: usize, bin: usize) {
        // SAFETY: a block is at most `u32::MAX` bytes, whose class is below `BINS` (see
        // `size_classes_are_tlsf_classes`).
        let slot = unsafe { self.heads.get_unchecked_mut(bin) };
        debug_assert!(bin < BINS);
        let head = *slot;
        let o = link(off);
        *slot = o;
        // SAFETY: `off` starts a block of `size` bytes inside the area (at least `MIN_BLOCK`):
        // its links and list number are rewritten; `head`'s slot is a free block's previous
        // link or the spill.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.add(2).cast::<[u32; 2]>().write([head, NONE]);
            p.add(4).write(bin as u32);
            self.prev_slot(head).write(o);
        }
        if GF {
            // (The list policies leave the bitmap empty: good fit's inlined search then finds
            // nothing and hands their requests to their own code.)
            // SAFETY: `bin` is below `BINS`, as above.
            *unsafe { self.bitmap.get_unchecked_mut(bin / 64) } |= 1 << (bin % 64);
        }
    }

    /// Clears class `bin`'s bit in the bitmap of non-empty lists when `empty` (its list has
    /// just become empty), without a branch. (The bit is set, since a block was just taken
    /// off the list: an xor clears it.)
    #[inline(always)]
    fn mark_empty_if(&mut self, bin: usize, empty: bool) {
        self.bitmap[bin / 64 % (BINS / 64)] ^= u64::from(empty) << (bin % 64);
    }

    /// Takes the head block `off` off the list of class `bin` (good fit: the class is known
    /// and the block has no predecessor). Takes no branch.
    #[inline(always)]
    pub(super) fn pop_head(&mut self, off: usize, bin: usize) {
        let bin = bin % BINS;
        let next = self.links(off).0;
        self.heads[bin] = next;
        // SAFETY: `next`'s slot is a free block's previous link or the spill.
        unsafe { self.prev_slot(next).write(NONE) };
        self.mark_empty_if(bin, next == NONE);
    }

    /// Unlinks the free block at `off` from its list (whose number [`Heap::insert_free`]
    /// left in the header, so the size class is not worked out again). Under good fit it
    /// takes no branch: the two links are written through conditionally moved addresses.
    #[inline(always)]
    pub(super) fn remove_free<const GF: bool>(&mut self, off: usize) {
        let bin = if GF { self.stored_bin(off) % BINS } else { 0 };
        let (next, prev) = self.links(off);
        let head = &raw mut self.heads[bin];
        let prev_next = self.base.as_ptr().wrapping_add(prev as usize).cast::<u32>();
        // SAFETY: the slot that links to `off` is its predecessor's next link, or the list
        // head when it has none; `next`'s slot is a free block's previous link or the spill.
        unsafe {
            core::hint::select_unpredictable(prev == NONE, head, prev_next).write(next);
            self.prev_slot(next).write(prev);
        }
        if GF {
            self.mark_empty_if(bin, (prev | next) == NONE);
        }
        if !GF && self.rover == link(off) {
            self.rover = next;
        }
    }
}
