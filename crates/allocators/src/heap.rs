//! A general-purpose heap over a caller-given region: free list with first-fit, next-fit and
//! best-fit policies, plus a segregated "good fit" (TLSF-style bins with a bitmap), block
//! splitting, coalescing on free, headers inside the region, in-place realloc, statistics and
//! an integrity check.
//!
//! # Layout of the region
//!
//! The region is cut into blocks, each a multiple of 16 bytes and at least 32, each starting
//! with a 16-byte header:
//!
//! ```text
//! | size u32 | prev_size u32 | tag u32 | unused u32 | payload ...            |
//!                                                   ^ pointer handed out (16-aligned)
//! free blocks keep their free list's number in the unused word and two u32 links (next,
//! prev) at the start of the payload
//! ```
//!
//! `prev_size` (a boundary tag) lets a free find its left neighbour in O(1). `tag` is a magic
//! value mixed with the block's own offset, different for used and free blocks, so freeing a
//! pointer twice or freeing a pointer into the middle of a block is reported instead of
//! corrupting the heap. The last 16 bytes hold a sentinel header marked used, so coalescing
//! needs no bounds check on the right.

use core::alloc::{GlobalAlloc, Layout};
use core::marker::PhantomData;
use core::ptr::{self, NonNull};

use allocator_api2::alloc::{AllocError, Allocator};

use crate::error::{Error, Result};
use crate::poison::{poison, unpoison};

use crate::sync::SpinLock;

const HEADER: usize = 16;
const MIN_BLOCK: usize = 32;
/// Bytes at the start of a free block's payload that hold its links.
const LINKS: usize = 8;
const NONE: u32 = u32::MAX;
const USED_TAG: u32 = 0xA110_C8ED;
const FREE_TAG: u32 = 0xF7EE_B10C;
/// Left in the header of a block merged into its left neighbour, so a second free of it is
/// still reported as a double free (until the bytes are handed out again).
const DEAD_TAG: u32 = 0xDEAD_B10C;
const BINS: usize = 256;

/// How the heap picks a free block for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// The first block in the free list that fits (the list is LIFO: recently freed first).
    FirstFit,
    /// Like first fit, but each search starts where the previous one stopped.
    NextFit,
    /// The smallest block that fits (scans the whole list unless an exact fit turns up).
    BestFit,
    /// Segregated size classes (8 per power of two) with a bitmap: O(1) search for a block at
    /// least as large as the request rounded up to its class. The default: its cost does not
    /// grow with the number of free blocks, unlike the three list policies (first fit can still
    /// win while the free list is short; see docs/allocators.md).
    #[default]
    GoodFit,
}

impl Policy {
    /// All policies, in the order of the docs.
    pub const ALL: [Policy; 4] = [Policy::FirstFit, Policy::NextFit, Policy::BestFit, Policy::GoodFit];

    /// Short lowercase name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Policy::FirstFit => "first fit",
            Policy::NextFit => "next fit",
            Policy::BestFit => "best fit",
            Policy::GoodFit => "good fit",
        }
    }
}

/// A snapshot of a heap's occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct HeapStats {
    /// Bytes the heap manages (region minus alignment slack and the sentinel).
    pub capacity: usize,
    /// Bytes in used blocks, headers included.
    pub used: usize,
    /// Bytes in free blocks, headers included; `used + free == capacity`.
    pub free: usize,
    /// Number of live allocations.
    pub used_blocks: usize,
    /// Number of free blocks.
    pub free_blocks: usize,
    /// Size of the largest free block, header included (what the largest request can be, less
    /// 16 bytes).
    pub largest_free: usize,
}

impl HeapStats {
    /// External fragmentation: `1 - largest_free / free`, 0 when the free space is one block
    /// (or there is none), approaching 1 when it is scattered in small pieces.
    #[must_use]
    pub fn fragmentation(&self) -> f64 {
        if self.free == 0 { 0.0 } else { 1.0 - self.largest_free as f64 / self.free as f64 }
    }
}

/// A block of the region as seen by [`Heap::blocks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// Offset of the block's header from the start of the managed area.
    pub offset: usize,
    /// Size in bytes, header included.
    pub size: usize,
    /// Whether the block is allocated.
    pub used: bool,
}

/// A heap allocator managing a caller-given byte region.
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
    base: NonNull<u8>,
    /// Bytes of blocks, not counting the sentinel.
    len: usize,
    /// `len - HEADER` (0 while empty): header offsets at or past it cannot start a used
    /// block, so a pointer's range is one compare.
    last_header: usize,
    policy: Policy,
    heads: [u32; BINS],
    bitmap: [u64; BINS / 64],
    /// Bit `w` set when `bitmap[w]` is not zero (the first level of the two-level bitmap).
    summary: u64,
    rover: u32,
    used: usize,
    used_blocks: usize,
    _region: PhantomData<&'a mut [u8]>,
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
struct Hdr {
    size: u32,
    prev_size: u32,
    tag: u32,
}

/// The bin of a block of `u` 16-byte units: one bin per size below 8 units, then 8 bins per
/// power of two. Branch-free: `u | 8` makes sizes below 8 units share the first power's
/// shift of 0, where `s * 8 + (u >> s)` is `u` itself.
#[inline(always)]
fn bin_of_units(u: usize) -> usize {
    let s = (usize::BITS - 1 - (u | 8).leading_zeros()) as usize - 3;
    s * 8 + (u >> s)
}

/// The first bin whose every block holds at least `u` units (`u` rounded up to the next bin
/// boundary, then [`bin_of_units`]).
#[inline(always)]
fn bin_at_least(u: usize) -> usize {
    let s = (usize::BITS - 1 - (u | 8).leading_zeros()) as usize - 3;
    bin_of_units(u + (1 << s) - 1)
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

    /// A heap over `region` (64 bytes to 4 GiB; the start is aligned up to 16).
    ///
    /// # Errors
    /// [`Error::BadRegion`] if the region is too small or too large.
    pub fn new(region: &'a mut [u8], policy: Policy) -> Result<Self> {
        let len = region.len();
        // SAFETY: the region is exclusively borrowed for `'a`, which the heap carries.
        unsafe { Self::from_raw(region.as_mut_ptr(), len, policy) }
    }

    /// A heap over raw memory.
    ///
    /// # Safety
    /// `ptr..ptr+len` must be valid for reads and writes, used by nothing else, for `'a`.
    ///
    /// # Errors
    /// [`Error::BadRegion`] if the region is too small or too large.
    pub unsafe fn from_raw(ptr: *mut u8, len: usize, policy: Policy) -> Result<Self> {
        let start = ptr as usize;
        let base = (start + 15) & !15;
        let avail = (start + len).saturating_sub(base) & !15;
        if avail < MIN_BLOCK + HEADER || avail - HEADER > u32::MAX as usize & !15 {
            return Err(Error::BadRegion(len));
        }
        let mut heap = Self::empty(policy);
        // SAFETY: `base` is inside the non-empty region.
        heap.base = unsafe { NonNull::new_unchecked(base as *mut u8) };
        heap.len = avail - HEADER;
        heap.last_header = heap.len - HEADER;
        // SAFETY: both headers lie inside the region.
        unsafe {
            heap.write_hdr(0, Hdr { size: heap.len as u32, prev_size: 0, tag: FREE_TAG });
            heap.write_hdr(heap.len, Hdr { size: 0, prev_size: heap.len as u32, tag: USED_TAG });
        }
        if policy == Policy::GoodFit {
            heap.insert_free::<true>(0, heap.len);
        } else {
            heap.insert_free::<false>(0, heap.len);
        }
        // SAFETY: the payload of the single free block is ours.
        unsafe { heap.poison_free(0, heap.len) };
        Ok(heap)
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

    // ----- raw header and link access -------------------------------------------------

    /// # Safety
    /// `off` must be a header offset inside the managed area (or the sentinel).
    #[inline]
    unsafe fn hdr(&self, off: usize) -> Hdr {
        // SAFETY: the caller's contract; headers are 16-aligned.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            Hdr { size: p.read(), prev_size: p.add(1).read(), tag: p.add(2).read() }
        }
    }

    /// # Safety
    /// As [`Heap::hdr`].
    #[inline]
    unsafe fn write_hdr(&mut self, off: usize, h: Hdr) {
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
    fn set_prev_size(&mut self, off: usize, prev_size: usize) {
        // SAFETY: callers pass the offset of a header (possibly the sentinel).
        unsafe { self.base.as_ptr().add(off).cast::<u32>().add(1).write(prev_size as u32) };
    }

    /// Marks the header at `off`, now inside a merged free block, as dead: only its tag is
    /// read again (by [`Heap::misuse`], to report a second free of it).
    #[inline(always)]
    fn set_dead(&mut self, off: usize) {
        // SAFETY: callers pass the offset of a header inside the area.
        unsafe { self.base.as_ptr().add(off).cast::<u32>().add(2).write(DEAD_TAG ^ off as u32) };
    }

    #[inline]
    fn is_free(&self, off: usize) -> bool {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).tag == FREE_TAG ^ off as u32 }
    }

    #[inline]
    fn size_at(&self, off: usize) -> usize {
        // SAFETY: callers pass header offsets.
        unsafe { self.hdr(off).size as usize }
    }

    /// The list number [`Heap::insert_free`] left in a free block's header. (Callers mask it
    /// with `% BINS` only to spare a bounds check: it is always below `BINS`, which
    /// [`Heap::check`] verifies.)
    #[inline(always)]
    fn stored_bin(&self, off: usize) -> usize {
        // SAFETY: callers pass free blocks' header offsets.
        unsafe { self.base.as_ptr().add(off).cast::<u32>().add(3).read() as usize }
    }

    #[inline]
    fn links(&self, off: usize) -> (u32, u32) {
        // SAFETY: `off` is a free block, whose payload starts with its two links.
        unsafe {
            let p = self.base.as_ptr().add(off + HEADER).cast::<u32>();
            (p.read(), p.add(1).read())
        }
    }

    #[inline]
    fn set_next(&mut self, off: u32, next: u32) {
        // SAFETY: `off` is a free block.
        unsafe { self.base.as_ptr().add(off as usize + HEADER).cast::<u32>().write(next) };
    }

    #[inline]
    fn set_prev(&mut self, off: u32, prev: u32) {
        // SAFETY: `off` is a free block.
        unsafe { self.base.as_ptr().add(off as usize + HEADER).cast::<u32>().add(1).write(prev) };
    }

    /// The free list of a block of `size` bytes under the heap's policy (for the checks; the
    /// hot paths use [`Heap::bin`], resolved at compile time).
    fn bin_for(&self, size: usize) -> usize {
        if self.policy == Policy::GoodFit { Self::bin::<true>(size) } else { Self::bin::<false>(size) }
    }

    /// The free list of a block of `size` bytes: its size class under good fit (`GF`), the
    /// one list otherwise.
    #[inline(always)]
    fn bin<const GF: bool>(size: usize) -> usize {
        if GF { bin_of_units(size / 16) } else { 0 }
    }

    /// # Safety
    /// `off..off+size` is a free block's extent.
    unsafe fn poison_free(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract: the bytes after the links are unused.
        unsafe { poison(self.base.as_ptr().add(off + HEADER + LINKS), size - HEADER - LINKS) };
    }

    /// # Safety
    /// `off..off+size` is a block being handed out or reshaped.
    unsafe fn unpoison_block(&self, off: usize, size: usize) {
        // SAFETY: the caller's contract.
        unsafe { unpoison(self.base.as_ptr().add(off + HEADER), size - HEADER) };
    }

    // ----- free lists -------------------------------------------------------------------

    /// Marks `off..off+size` free (its `prev_size` is kept) and pushes it on its list.
    #[inline(always)]
    fn insert_free<const GF: bool>(&mut self, off: usize, size: usize) {
        let bin = Self::bin::<GF>(size);
        let head = self.heads[bin];
        // SAFETY: `off` starts a block of `size` bytes inside the area; its header's size,
        // tag and list words are rewritten, its boundary tag kept.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.write(size as u32);
            p.add(2).write(FREE_TAG ^ off as u32);
            p.add(3).write(bin as u32);
        }
        let o = off as u32;
        self.set_next(o, head);
        self.set_prev(o, NONE);
        if head != NONE {
            self.set_prev(head, o);
        }
        self.heads[bin] = o;
        self.bitmap[bin / 64] |= 1 << (bin % 64);
        self.summary |= 1 << (bin / 64);
    }

    /// Unlinks the free block at `off` from its list (whose number [`Heap::insert_free`]
    /// left in the header, so the size class is not worked out again).
    #[inline(always)]
    fn remove_free<const GF: bool>(&mut self, off: usize) {
        let bin = if GF { self.stored_bin(off) % BINS } else { 0 };
        let (next, prev) = self.links(off);
        if prev == NONE {
            self.heads[bin] = next;
            if next == NONE {
                let word = &mut self.bitmap[bin / 64];
                *word &= !(1 << (bin % 64));
                if *word == 0 {
                    self.summary &= !(1 << (bin / 64));
                }
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

    /// Finds a free block of at least `need` bytes in the one list of the post's policies.
    fn find_in_list(&mut self, need: usize) -> Option<usize> {
        match self.policy {
            Policy::FirstFit => {
                let mut cur = self.heads[0];
                while cur != NONE {
                    if self.size_at(cur as usize) >= need {
                        return Some(cur as usize);
                    }
                    cur = self.links(cur as usize).0;
                }
                None
            }
            Policy::NextFit => {
                let start = if self.rover == NONE { self.heads[0] } else { self.rover };
                let mut cur = start;
                let mut wrapped = false;
                while cur != NONE || !wrapped {
                    if cur == NONE {
                        wrapped = true;
                        cur = self.heads[0];
                        if cur == NONE || cur == start {
                            break;
                        }
                        continue;
                    }
                    if wrapped && cur == start {
                        break;
                    }
                    let (next, _) = self.links(cur as usize);
                    if self.size_at(cur as usize) >= need {
                        self.rover = next;
                        return Some(cur as usize);
                    }
                    cur = next;
                }
                None
            }
            Policy::BestFit => {
                let mut cur = self.heads[0];
                let mut best: Option<(usize, usize)> = None;
                while cur != NONE {
                    let size = self.size_at(cur as usize);
                    if size >= need && best.is_none_or(|(_, b)| size < b) {
                        best = Some((cur as usize, size));
                        if size == need {
                            break;
                        }
                    }
                    cur = self.links(cur as usize).0;
                }
                best.map(|(o, _)| o)
            }
            Policy::GoodFit => None,
        }
    }

    /// Finds a free block of at least `need` bytes: the first non-empty size class that
    /// surely fits, found with the two-level bitmap in two bit scans.
    #[inline(always)]
    fn find_good(&self, need: usize) -> Option<usize> {
        let units = need / 16;
        let bin = bin_at_least(units);
        if bin < BINS {
            let word = bin / 64;
            let bits = self.bitmap[word] & (!0u64 << (bin % 64));
            if bits != 0 {
                return Some(self.heads[word * 64 + bits.trailing_zeros() as usize] as usize);
            }
            let words = self.summary & (!0u64 << (word + 1));
            if words != 0 {
                let w = words.trailing_zeros() as usize % (BINS / 64);
                return Some(self.heads[w * 64 + self.bitmap[w].trailing_zeros() as usize] as usize);
            }
        }
        // Nothing in a class that surely fits: try the request's own class, whose larger
        // members may still fit (keeps the last bytes usable).
        self.find_in_bin_below(units)
    }

    /// Scans the class of `units` itself for a block large enough.
    fn find_in_bin_below(&self, units: usize) -> Option<usize> {
        let bin = bin_of_units(units).min(BINS - 1);
        let mut cur = self.heads[bin];
        while cur != NONE {
            if self.size_at(cur as usize) >= units * 16 {
                return Some(cur as usize);
            }
            cur = self.links(cur as usize).0;
        }
        None
    }

    // ----- allocation -------------------------------------------------------------------

    /// The block size for `layout`: header and payload (room for the free links at least)
    /// rounded up to 16, so never below [`MIN_BLOCK`]. Cannot overflow: a `Layout`'s size is
    /// at most `isize::MAX`.
    #[inline(always)]
    fn block_need(layout: Layout) -> usize {
        (layout.size().max(LINKS) + HEADER + 15) & !15
    }

    /// Allocates a block for `layout`.
    ///
    /// The policy is resolved once per call: the work is done by a copy of the code compiled
    /// for good fit or for the list policies, which returns a bare pointer; the error is
    /// worked out only when there is none.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when no free block fits.
    #[inline]
    pub fn alloc(&mut self, layout: Layout) -> Result<NonNull<u8>> {
        let p = if self.policy == Policy::GoodFit { self.alloc_in::<true>(layout) } else { self.alloc_list(layout) };
        match p {
            Some(p) => Ok(p),
            None => Err(Self::out_of_memory(layout)),
        }
    }

    /// [`Heap::alloc`] for the list policies, kept out of line so that a caller inlining
    /// `alloc` gets only the good-fit code (the list walk dwarfs the call).
    #[inline(never)]
    fn alloc_list(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        self.alloc_in::<false>(layout)
    }

    /// The error of a failed [`Heap::alloc_in`] for `layout`.
    #[cold]
    fn out_of_memory(layout: Layout) -> Error {
        Error::OutOfMemory { size: layout.size(), align: layout.align() }
    }

    /// [`Heap::alloc`] for good fit (`GF`) or the list policies; `None` when no free block
    /// fits.
    #[inline(always)]
    fn alloc_in<const GF: bool>(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        let need = Self::block_need(layout);
        // (A request larger than the region needs no test of its own: no block is that large.)
        let align = layout.align();
        let search = if align <= 16 { need } else { need + align + MIN_BLOCK };
        let off = if GF { self.find_good(search)? } else { self.find_in_list(search)? };
        self.remove_free::<GF>(off);
        let mut off = off;
        let mut size = self.size_at(off);
        // SAFETY: the whole block is ours to reshape.
        unsafe { self.unpoison_block(off, size) };
        if align > 16 {
            let payload = self.base.as_ptr() as usize + off + HEADER;
            let mut aligned = (payload + align - 1) & !(align - 1);
            if aligned != payload && aligned - payload < MIN_BLOCK {
                aligned += align;
            }
            let gap = aligned - payload;
            if gap > 0 {
                // Give the front back as its own free block.
                self.insert_free::<GF>(off, gap);
                // SAFETY: the new header lies inside the block.
                unsafe { self.write_hdr(off + gap, Hdr { size: 0, prev_size: gap as u32, tag: 0 }) };
                // SAFETY: the front block's extent.
                unsafe { self.poison_free(off, gap) };
                off += gap;
                size -= gap;
            }
        }
        // A block from a free list has a used right neighbour (free neighbours are always
        // merged), so its tail has nothing to merge with.
        self.used += self.carve::<GF, false>(off, size, need);
        self.used_blocks += 1;
        // SAFETY: `off` is inside the area, so the payload pointer is not null.
        Some(unsafe { NonNull::new_unchecked(self.base.as_ptr().add(off + HEADER)) })
    }

    /// Marks the block at `off` (of `size` bytes, already out of the free lists) used with
    /// `need` bytes, returning the tail as a free block when it is large enough. Returns the
    /// size the block keeps. With `MERGE` the tail absorbs a free right neighbour (needed when
    /// `off` was a used block, as in [`Heap::realloc`]).
    #[inline(always)]
    fn carve<const GF: bool, const MERGE: bool>(&mut self, off: usize, size: usize, need: usize) -> usize {
        let keep = if size - need >= MIN_BLOCK { need } else { size };
        // SAFETY: `off` is a block header inside the area; its boundary tag is kept.
        unsafe {
            let p = self.base.as_ptr().add(off).cast::<u32>();
            p.write(keep as u32);
            p.add(2).write(USED_TAG ^ off as u32);
        }
        if keep < size {
            let tail = off + keep;
            let mut tail_size = size - keep;
            // SAFETY: the tail header lies inside the old block.
            // (`insert_free` writes the rest of the tail's header.)
            self.set_prev_size(tail, keep);
            let after = tail + tail_size;
            // The sentinel after the last block is marked used: no bounds test needed.
            if MERGE && self.is_free(after) {
                let s = self.size_at(after);
                self.remove_free::<GF>(after);
                tail_size += s;
            }
            self.insert_free::<GF>(tail, tail_size);
            self.set_prev_size(tail + tail_size, tail_size);
            // SAFETY: the tail's extent.
            unsafe { self.poison_free(tail, tail_size) };
        } else {
            self.set_prev_size(off + size, size);
        }
        keep
    }

    /// The header offset of `ptr` when it is the payload of a used block here, else `None`
    /// (the reason is then found by [`Heap::misuse`], off the hot path).
    #[inline(always)]
    fn used_block(&self, ptr: NonNull<u8>) -> Option<usize> {
        let p = ptr.as_ptr() as usize;
        let base = self.base.as_ptr() as usize;
        // One unsigned compare for both ends: a pointer below the first payload wraps around.
        let off = p.wrapping_sub(base + HEADER);
        if off >= self.last_header || !off.is_multiple_of(16) {
            return None;
        }
        if crate::poison::is_poisoned((p - HEADER) as *const u8) {
            return None;
        }
        // SAFETY: `off` is a 16-aligned offset inside the area, so 16 readable bytes.
        let h = unsafe { self.hdr(off) };
        let poisoned = cfg!(feature = "sanitize") && h.tag == u32::from_ne_bytes([crate::POISON; 4]);
        let size = h.size as usize;
        (h.tag == USED_TAG ^ off as u32 && !poisoned && size >= MIN_BLOCK && off + size <= self.len).then_some(off)
    }

    /// Why [`Heap::used_block`] rejected `ptr`: [`Error::DoubleFree`] for a block freed
    /// already (free or merged tag, or poisoned bytes), else [`Error::ForeignPointer`].
    #[cold]
    #[inline(never)]
    fn misuse(&self, ptr: NonNull<u8>) -> Error {
        let p = ptr.as_ptr() as usize;
        let off = p.wrapping_sub(self.base.as_ptr() as usize + HEADER);
        if off >= self.last_header || !off.is_multiple_of(16) {
            return Error::ForeignPointer;
        }
        if crate::poison::is_poisoned((p - HEADER) as *const u8) {
            // Inside the poisoned payload of a free block: freed already.
            return Error::DoubleFree;
        }
        // SAFETY: `off` is a 16-aligned offset inside the area, so 16 readable bytes.
        let h = unsafe { self.hdr(off) };
        let poisoned = cfg!(feature = "sanitize") && h.tag == u32::from_ne_bytes([crate::POISON; 4]);
        if h.tag == FREE_TAG ^ off as u32 || h.tag == DEAD_TAG ^ off as u32 || poisoned {
            Error::DoubleFree
        } else {
            Error::ForeignPointer
        }
    }

    /// Checks that `ptr` is the payload of a used block here and returns its header offset.
    fn validate(&self, ptr: NonNull<u8>) -> Result<usize> {
        self.used_block(ptr).ok_or_else(|| self.misuse(ptr))
    }

    /// Frees a block, merging it with free neighbours.
    ///
    /// The pointer is checked first (range, alignment, the header's tag and size); the kind
    /// of misuse is worked out only when the check fails.
    ///
    /// # Errors
    /// [`Error::DoubleFree`] for a block already freed, [`Error::ForeignPointer`] for a pointer
    /// that is not the start of a live block of this heap. (A pointer into a block freed and
    /// merged long ago is usually caught as foreign, but a stale pointer to a block that was
    /// reallocated since cannot be told apart from the new owner's: that is on the caller.)
    #[inline]
    pub fn free(&mut self, ptr: NonNull<u8>) -> Result<()> {
        let freed = if self.policy == Policy::GoodFit { self.free_in::<true>(ptr) } else { self.free_list(ptr) };
        if freed { Ok(()) } else { Err(self.misuse(ptr)) }
    }

    /// [`Heap::free`] for the list policies, out of line as [`Heap::alloc_list`].
    #[inline(never)]
    fn free_list(&mut self, ptr: NonNull<u8>) -> bool {
        self.free_in::<false>(ptr)
    }

    /// [`Heap::free`] for good fit (`GF`) or the list policies; `false` when `ptr` is not a
    /// used block's payload (nothing is changed then).
    #[inline(always)]
    fn free_in<const GF: bool>(&mut self, ptr: NonNull<u8>) -> bool {
        match self.used_block(ptr) {
            Some(off) => {
                // SAFETY: checked just above.
                unsafe { self.free_at::<GF>(off) };
                true
            }
            None => false,
        }
    }

    /// # Safety
    /// `off` is a used block's header offset.
    #[inline(always)]
    unsafe fn free_at<const GF: bool>(&mut self, off: usize) {
        // SAFETY: the caller's contract.
        let h = unsafe { self.hdr(off) };
        let mut start = off;
        let mut size = h.size as usize;
        self.used -= size;
        self.used_blocks -= 1;
        let next = off + size;
        // The sentinel after the last block is marked used: no bounds test needed.
        if self.is_free(next) {
            size += self.size_at(next);
            self.remove_free::<GF>(next);
            // The absorbed header is inside the merged block (its payload was freed before, so
            // a free of it is a double free).
            self.set_dead(next);
        }
        if h.prev_size != 0 {
            let prev = off - h.prev_size as usize;
            if self.is_free(prev) {
                self.remove_free::<GF>(prev);
                // As above; this block was just freed.
                self.set_dead(off);
                start = prev;
                size += h.prev_size as usize;
            }
        }
        self.insert_free::<GF>(start, size);
        self.set_prev_size(start + size, size);
        // SAFETY: the merged block's extent.
        unsafe { self.poison_free(start, size) };
    }

    /// Resizes a block, in place when the block itself or its free right neighbour has room,
    /// else by moving it (the contents up to the smaller size are kept).
    ///
    /// # Errors
    /// As [`Heap::free`] for `ptr`; [`Error::OutOfMemory`] when no block fits (the old block
    /// is then untouched).
    pub fn realloc(&mut self, ptr: NonNull<u8>, new: Layout) -> Result<NonNull<u8>> {
        if self.policy == Policy::GoodFit {
            self.realloc_in::<true>(ptr, new)
        } else {
            self.realloc_in::<false>(ptr, new)
        }
    }

    /// [`Heap::realloc`] for good fit (`GF`) or the list policies.
    fn realloc_in<const GF: bool>(&mut self, ptr: NonNull<u8>, new: Layout) -> Result<NonNull<u8>> {
        let off = self.validate(ptr)?;
        let oom = Error::OutOfMemory { size: new.size(), align: new.align() };
        let need = Self::block_need(new);
        let size = self.size_at(off);
        if (ptr.as_ptr() as usize).is_multiple_of(new.align()) {
            if need <= size {
                self.used -= size;
                self.used += self.carve::<GF, true>(off, size, need);
                return Ok(ptr);
            }
            let next = off + size;
            if next < self.len && self.is_free(next) && size + self.size_at(next) >= need {
                let total = size + self.size_at(next);
                self.remove_free::<GF>(next);
                // SAFETY: the absorbed block becomes part of a live one.
                unsafe { self.unpoison_block(next - HEADER, self.size_at(next) + HEADER) };
                self.used -= size;
                self.used += self.carve::<GF, true>(off, total, need);
                return Ok(ptr);
            }
        }
        let fresh = self.alloc_in::<GF>(new).ok_or(oom)?;
        let old_payload = size - HEADER;
        // SAFETY: both blocks are live and distinct; copy the smaller payload.
        unsafe { ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), old_payload.min(new.size())) };
        // SAFETY: validated above, and still used.
        unsafe { self.free_at::<GF>(off) };
        Ok(fresh)
    }

    // ----- inspection -------------------------------------------------------------------

    /// Occupancy statistics (walks the free lists: O(free blocks)).
    #[must_use]
    pub fn stats(&self) -> HeapStats {
        let mut s =
            HeapStats { capacity: self.len, used: self.used, used_blocks: self.used_blocks, ..HeapStats::default() };
        for &head in &self.heads {
            let mut cur = head;
            while cur != NONE {
                let size = self.size_at(cur as usize);
                s.free += size;
                s.free_blocks += 1;
                s.largest_free = s.largest_free.max(size);
                cur = self.links(cur as usize).0;
            }
        }
        s
    }

    /// Every block of the region in address order (walks the whole region).
    pub fn blocks(&self) -> impl Iterator<Item = BlockInfo> + '_ {
        let mut off = 0;
        core::iter::from_fn(move || {
            if off >= self.len {
                return None;
            }
            let size = self.size_at(off);
            let info = BlockInfo { offset: off, size, used: !self.is_free(off) };
            off += size.max(16);
            Some(info)
        })
    }

    /// Walks the region and the free lists and reports the first inconsistency: block sizes
    /// that do not tile the region, a wrong boundary tag, a bad tag, two free neighbours, a
    /// free block missing from (or wrongly linked in) its list, or counters that do not add up.
    ///
    /// # Errors
    /// [`Error::Corrupt`] naming the broken rule.
    pub fn check(&self) -> Result<()> {
        let mut off = 0;
        let mut prev_size = 0usize;
        let mut prev_free = false;
        let (mut used, mut used_blocks, mut free_blocks) = (0, 0, 0);
        while off < self.len {
            // SAFETY: `off` stays inside the area: it advances by block sizes checked below.
            let h = unsafe { self.hdr(off) };
            let size = h.size as usize;
            if size < MIN_BLOCK || !size.is_multiple_of(16) || off + size > self.len {
                return Err(Error::Corrupt("block size"));
            }
            if h.prev_size as usize != prev_size {
                return Err(Error::Corrupt("boundary tag"));
            }
            let free = h.tag == FREE_TAG ^ off as u32;
            if !free && h.tag != USED_TAG ^ off as u32 {
                return Err(Error::Corrupt("header tag"));
            }
            if free && prev_free {
                return Err(Error::Corrupt("two free neighbours"));
            }
            if free {
                free_blocks += 1;
            } else {
                used += size;
                used_blocks += 1;
            }
            prev_free = free;
            prev_size = size;
            off += size;
        }
        if off != self.len || self.size_at(self.len) != 0 {
            return Err(Error::Corrupt("sentinel"));
        }
        if used != self.used || used_blocks != self.used_blocks {
            return Err(Error::Corrupt("usage counters"));
        }
        for (w, &word) in self.bitmap.iter().enumerate() {
            if (word != 0) != (self.summary & (1 << w) != 0) {
                return Err(Error::Corrupt("bitmap summary"));
            }
        }
        if self.summary >> self.bitmap.len() != 0 {
            return Err(Error::Corrupt("bitmap summary"));
        }
        let mut listed = 0;
        for (bin, &head) in self.heads.iter().enumerate() {
            if (head != NONE) != (self.bitmap[bin / 64] & (1 << (bin % 64)) != 0) {
                return Err(Error::Corrupt("bitmap"));
            }
            let mut cur = head;
            let mut back = NONE;
            while cur != NONE {
                let c = cur as usize;
                if c >= self.len
                    || !self.is_free(c)
                    || self.bin_for(self.size_at(c)) != bin
                    || self.stored_bin(c) != bin
                {
                    return Err(Error::Corrupt("free list entry"));
                }
                let (next, prev) = self.links(c);
                if prev != back {
                    return Err(Error::Corrupt("free list back link"));
                }
                listed += 1;
                if listed > free_blocks {
                    return Err(Error::Corrupt("free list cycle"));
                }
                back = cur;
                cur = next;
            }
        }
        if listed != free_blocks {
            return Err(Error::Corrupt("free block not listed"));
        }
        Ok(())
    }
}

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
    /// [`Error::BadRegion`].
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

// SAFETY: blocks never overlap (the heap's invariant, checked by `Heap::check` in the tests)
// and stay valid until deallocated; the lock serialises all access.
unsafe impl Allocator for LockedHeap<'_> {
    fn allocate(&self, layout: Layout) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().alloc(layout).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, _layout: Layout) {
        let r = self.0.lock().free(ptr);
        debug_assert!(r.is_ok(), "deallocate of a block not from this heap: {r:?}");
    }

    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        _old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().realloc(ptr, new).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, new.size()))
    }

    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        _old: Layout,
        new: Layout,
    ) -> core::result::Result<NonNull<[u8]>, AllocError> {
        let p = self.0.lock().realloc(ptr, new).map_err(|_| AllocError)?;
        Ok(NonNull::slice_from_raw_parts(p, new.size()))
    }
}

// SAFETY: as for `Allocator`; a failed allocation returns null as `GlobalAlloc` requires.
unsafe impl GlobalAlloc for LockedHeap<'_> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.0.lock().alloc(layout).map_or(ptr::null_mut(), NonNull::as_ptr)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        if let Some(p) = NonNull::new(ptr) {
            let r = self.0.lock().free(p);
            debug_assert!(r.is_ok(), "dealloc of a block not from this heap: {r:?}");
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Ok(new) = Layout::from_size_align(new_size, layout.align()) else { return ptr::null_mut() };
        match NonNull::new(ptr) {
            Some(p) => self.0.lock().realloc(p, new).map_or(ptr::null_mut(), NonNull::as_ptr),
            None => ptr::null_mut(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    fn l(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    /// The bin formulas with the small sizes as a separate case, as TLSF writes them.
    fn reference_bin_of_units(u: usize) -> usize {
        if u < 8 {
            return u;
        }
        let fl = usize::BITS as usize - 1 - u.leading_zeros() as usize;
        8 + (fl - 3) * 8 + ((u >> (fl - 3)) & 7)
    }

    fn reference_bin_at_least(u: usize) -> usize {
        if u < 8 {
            return u;
        }
        let fl = usize::BITS as usize - 1 - u.leading_zeros() as usize;
        reference_bin_of_units(u + (1 << (fl - 3)) - 1)
    }

    #[test]
    fn branch_free_bins_match_the_reference() {
        let edges = (3..32).flat_map(|b| [(1usize << b) - 1, 1 << b, (1 << b) + 1]);
        for u in (0..70_000).chain(edges).chain([u32::MAX as usize / 16]) {
            assert_eq!(bin_of_units(u), reference_bin_of_units(u), "bin of {u}");
            assert_eq!(bin_at_least(u), reference_bin_at_least(u), "bin at least {u}");
        }
    }

    #[test]
    fn bins_are_monotonic_and_cover_the_range() {
        let mut last = 0;
        for u in 2..100_000usize {
            let b = bin_of_units(u);
            assert!(b >= last && b < BINS);
            last = b;
            // Every block in `bin_at_least(u)` or above is at least `u` units.
            let a = bin_at_least(u);
            for v in u.saturating_sub(20).max(2)..u + 20 {
                if bin_of_units(v) >= a {
                    assert!(v >= u, "u {u} v {v}");
                }
            }
        }
        assert!(bin_of_units(u32::MAX as usize / 16) < BINS);
    }

    #[test]
    fn the_largest_layouts_are_out_of_memory() {
        for policy in Policy::ALL {
            let mut region = vec![0u8; 4096];
            let mut heap = Heap::new(&mut region, policy).unwrap();
            let a = heap.alloc(l(100, 8)).unwrap();
            for align in [8, 16, 4096, 1 << 40] {
                let size = isize::MAX as usize + 1 - align;
                let layout = l(size, align);
                assert_eq!(heap.alloc(layout), Err(Error::OutOfMemory { size, align }), "{policy:?}");
                assert_eq!(heap.realloc(a, layout), Err(Error::OutOfMemory { size, align }), "{policy:?}");
                let big = l(heap.capacity(), align);
                assert!(matches!(heap.alloc(big), Err(Error::OutOfMemory { .. })), "{policy:?}");
            }
            heap.free(a).unwrap();
            heap.check().unwrap();
        }
    }

    #[test]
    fn region_limits() {
        let mut small = [0u8; 40];
        assert!(matches!(Heap::new(&mut small, Policy::FirstFit), Err(Error::BadRegion(40))));
    }

    #[test]
    fn every_policy_splits_and_coalesces() {
        for policy in Policy::ALL {
            let mut region = vec![0u8; 4096];
            let mut heap = Heap::new(&mut region, policy).unwrap();
            let ptrs: Vec<_> = (0..10).map(|i| heap.alloc(l(20 + i * 8, 8)).unwrap()).collect();
            heap.check().unwrap();
            for p in ptrs.iter().step_by(2) {
                heap.free(*p).unwrap();
            }
            heap.check().unwrap();
            assert_eq!(heap.stats().free_blocks, 6, "{policy:?}");
            for p in ptrs.iter().skip(1).step_by(2) {
                heap.free(*p).unwrap();
            }
            heap.check().unwrap();
            let s = heap.stats();
            assert_eq!((s.free_blocks, s.used, s.free), (1, 0, heap.capacity()));
        }
    }

    #[test]
    fn best_fit_takes_the_smallest_hole() {
        let mut region = vec![0u8; 4096];
        let mut heap = Heap::new(&mut region, Policy::BestFit).unwrap();
        let big = heap.alloc(l(200, 8)).unwrap();
        let _sep1 = heap.alloc(l(8, 8)).unwrap();
        let small = heap.alloc(l(40, 8)).unwrap();
        let _sep2 = heap.alloc(l(8, 8)).unwrap();
        heap.free(big).unwrap();
        heap.free(small).unwrap();
        assert_eq!(heap.alloc(l(40, 8)).unwrap(), small);
    }

    #[test]
    fn misuse_is_reported() {
        let mut region = vec![0u8; 1024];
        let mut other = vec![0u8; 64];
        let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
        let a = heap.alloc(l(64, 8)).unwrap();
        let _b = heap.alloc(l(64, 8)).unwrap();
        // SAFETY: `a` holds 64 bytes. (Written first: with `sanitize`, never-written bytes
        // still hold the poison pattern and an interior pointer there reads as freed.)
        unsafe { a.as_ptr().write_bytes(0, 64) };
        // SAFETY: pointer arithmetic inside the live block `a`.
        let inner = unsafe { NonNull::new_unchecked(a.as_ptr().add(16)) };
        assert_eq!(heap.free(inner), Err(Error::ForeignPointer));
        assert_eq!(heap.free(NonNull::new(other.as_mut_ptr()).unwrap()), Err(Error::ForeignPointer));
        // Just below the first payload, and at the end of the managed area (where the next
        // payload would be): both outside, neither may be read as a header.
        let base = heap.base().cast_mut();
        let cap = heap.capacity();
        for p in [base, base.wrapping_add(cap), base.wrapping_add(cap + HEADER)] {
            assert_eq!(heap.free(NonNull::new(p).unwrap()), Err(Error::ForeignPointer));
        }
        heap.free(a).unwrap();
        assert_eq!(heap.free(a), Err(Error::DoubleFree));
        heap.check().unwrap();
    }

    #[test]
    fn realloc_grows_in_place_into_a_free_neighbour() {
        let mut region = vec![0u8; 4096];
        let mut heap = Heap::new(&mut region, Policy::FirstFit).unwrap();
        let a = heap.alloc(l(32, 8)).unwrap();
        // SAFETY: `a` holds 32 bytes.
        unsafe { a.as_ptr().write_bytes(7, 32) };
        let b = heap.realloc(a, l(500, 8)).unwrap();
        assert_eq!(a, b);
        // SAFETY: `b` holds 500 bytes, the first 32 kept.
        assert!(unsafe { core::slice::from_raw_parts(b.as_ptr(), 32) }.iter().all(|&x| x == 7));
        let b = heap.realloc(b, l(16, 8)).unwrap();
        assert_eq!(a, b);
        heap.check().unwrap();
        assert_eq!(heap.stats().used, 32);
    }

    /// With `sanitize`, freed payload bytes hold the poison pattern and (under ASan) are marked
    /// unaddressable; handing them out again clears the mark.
    #[cfg(feature = "sanitize")]
    #[test]
    fn freed_blocks_are_poisoned() {
        let mut region = vec![0u8; 4096];
        let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
        let a = heap.alloc(l(200, 8)).unwrap();
        let _guard = heap.alloc(l(16, 8)).unwrap();
        heap.free(a).unwrap();
        // SAFETY: the offset lies inside the freed block, past its links.
        let inside = unsafe { a.as_ptr().add(64) };
        if cfg!(lore_asan) {
            assert!(crate::poison::is_poisoned(inside), "ASan knows the block is free");
        } else {
            // SAFETY: the region is plain memory owned by this test (no ASan in this build).
            assert_eq!(unsafe { inside.read() }, crate::POISON);
        }
        let b = heap.alloc(l(200, 8)).unwrap();
        assert_eq!(a, b);
        assert!(!crate::poison::is_poisoned(inside), "handed out again");
    }

    #[test]
    fn large_alignment() {
        let mut region = vec![0u8; 1 << 14];
        let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
        for align in [32, 64, 256, 1024] {
            let p = heap.alloc(l(24, align)).unwrap();
            assert_eq!(p.as_ptr() as usize % align, 0);
            heap.check().unwrap();
        }
    }

    #[test]
    fn fills_almost_all_of_the_region() {
        for policy in Policy::ALL {
            let mut region = vec![0u8; 1 << 16];
            let mut heap = Heap::new(&mut region, policy).unwrap();
            let mut n = 0;
            while heap.alloc(l(48, 8)).is_ok() {
                n += 1;
            }
            assert_eq!(n, heap.capacity() / 64, "{policy:?}");
        }
    }
}
