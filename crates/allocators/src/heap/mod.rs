//! A general-purpose heap over a caller-given region: free list with first-fit, next-fit and
//! best-fit policies, plus a segregated "good fit" (TLSF-style bins with a bitmap), block
//! splitting, coalescing on free, headers inside the region, in-place realloc, statistics and
//! an integrity check.
//!
//! # Layout of the region
//!
//! The region is cut into blocks, each a multiple of 16 bytes and at least 32, each starting
//! with an 8-byte header placed so that the payload after it is 16-aligned:
//!
//! ```text
//! used: | size u32 (bit 0: left neighbour free) | tag u32 | payload ...                  |
//!                                                         ^ pointer handed out (16-aligned)
//! free: | size u32 | tag u32 | next u32 | prev u32 | list u32 | spare | ... | size u32 |
//!                                                                          footer ^
//! ```
//!
//! A free block repeats its size in a footer (a boundary tag on free blocks only) and the
//! header after it has bit 0 set, so freeing finds a free left neighbour in O(1) while a used
//! block pays 8 bytes. `next` and `prev` are the payload offsets of the neighbouring blocks in
//! the free list (never 0, which ends the list); `list` is the list's number. `tag` is a magic value mixed with the block's own offset, different for
//! used and free blocks, so freeing a pointer twice or freeing a pointer into the middle of a
//! block is reported instead of corrupting the heap. The last 8 bytes hold a sentinel header
//! marked used, so coalescing needs no bounds check on the right.

mod bins;
mod block;
mod fit;
mod locked;
mod policy;
mod stats;
#[cfg(test)]
mod tests;

use core::alloc::Layout;
use core::ptr::{self, NonNull};

use crate::error::{Error, Result};
use block::{BINS, DEAD_TAG, FLAGS, FREE_TAG, HEADER, Hdr, MIN_BLOCK, PREV_FREE, USED_TAG};

pub use block::Heap;
pub use locked::LockedHeap;
pub use policy::Policy;
pub use stats::{BlockInfo, HeapStats};

/// Asks the processor to start loading the cache line at `p` (x86-64; nothing elsewhere).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing the program sees and never faults,
    // whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl<'a> Heap<'a> {
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
        // Headers sit 8 bytes before 16-aligned payloads.
        let base = ((start + 15) & !15) + HEADER;
        // Blocks, then the sentinel's header.
        let avail = (start + len).saturating_sub(base + HEADER) & !15;
        if avail < MIN_BLOCK || avail > u32::MAX as usize & !15 {
            return Err(Error::BadRegion(len));
        }
        let mut heap = Self::empty(policy);
        // SAFETY: `base` is inside the non-empty region.
        heap.base = unsafe { NonNull::new_unchecked(base as *mut u8) };
        heap.len = avail;
        heap.offsets = (heap.len - 16) / 16;
        heap.payloads = base + HEADER;
        // SAFETY: both headers lie inside the region.
        unsafe {
            heap.write_hdr(0, Hdr { size: heap.len as u32, prev_free: false, tag: FREE_TAG });
            heap.write_hdr(heap.len, Hdr { size: 0, prev_free: false, tag: USED_TAG });
        }
        if policy == Policy::GoodFit {
            heap.insert_free::<true>(0, heap.len);
        } else {
            heap.insert_free::<false>(0, heap.len);
        }
        heap.mark_free_end(0, heap.len);
        // SAFETY: the payload of the single free block is ours.
        unsafe { heap.poison_free(0, heap.len) };
        Ok(heap)
    }
}

impl Heap<'_> {
    /// The block size for `layout`: header and payload (room for a free block's links, list
    /// number and footer at least) rounded up to 16, so never below [`MIN_BLOCK`]. Cannot
    /// overflow: a `Layout`'s size is at most `isize::MAX`.
    #[inline(always)]
    pub(super) fn block_need(layout: Layout) -> usize {
        (layout.size().max(MIN_BLOCK - HEADER) + HEADER + 15) & !15
    }

    /// Allocates a block for `layout`.
    ///
    /// Good fit's common case is inlined (`Heap::alloc_good`, private); everything else, and the
    /// list policies (whose empty bitmap sends every request there, so no policy test is
    /// needed before), is a copy of the general code compiled for good fit or for the list
    /// policies. Both return a bare pointer; the error is worked out only when there is none.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when no free block fits.
    #[inline]
    pub fn alloc(&mut self, layout: Layout) -> Result<NonNull<u8>> {
        self.alloc_good(layout).ok_or(Error::OutOfMemory { size: layout.size(), align: layout.align() })
    }

    /// [`Heap::alloc`]'s inlined common case under good fit: an alignment of 16 at most and
    /// a class that surely fits found in the first bitmap word searched, whose head block is
    /// taken. Everything else (larger alignments, a search past that word, the scan of the
    /// request's own class, the list policies) is [`Heap::alloc_slow`], out of line and
    /// called last, so that the inlined code keeps few values live and saves no registers.
    #[inline(always)]
    pub(super) fn alloc_good(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        if layout.align() <= 16 {
            let need = Self::block_need(layout);
            if let Some((off, bin)) = self.find_good_head(need) {
                self.pop_head(off, bin);
                return Some(self.take_block::<true>(off, need));
            }
        }
        self.alloc_slow(layout)
    }

    /// [`Heap::alloc_in`] for the heap's policy, out of line (see [`Heap::alloc_good`]).
    #[inline(never)]
    pub(super) fn alloc_slow(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        if self.policy == Policy::GoodFit { self.alloc_in::<true>(layout) } else { self.alloc_in::<false>(layout) }
    }

    /// Hands out the free block at `off`, already out of its list, for `need` bytes (16-byte
    /// alignment): carves it and returns its payload.
    #[inline(always)]
    pub(super) fn take_block<const GF: bool>(&mut self, off: usize, need: usize) -> NonNull<u8> {
        let size = self.free_size(off);
        // SAFETY: the whole block is ours to reshape.
        unsafe { self.unpoison_block(off, size) };
        // A block from a free list has used neighbours (free neighbours are always merged):
        // its header's flag is clear and its tail has nothing to merge with.
        // (A free block's header holds its size without flags and the free tag.)
        self.flip_tag(off, FREE_TAG ^ USED_TAG);
        self.used_blocks += 1;
        // SAFETY: `off` is inside the area, so the payload pointer is not null.
        let payload = unsafe { NonNull::new_unchecked(self.base.as_ptr().add(off + HEADER)) };
        let rest = size - need;
        if rest < MIN_BLOCK {
            self.clear_prev_free(off + size);
            return payload;
        }
        // SAFETY: `off` is a block header inside the area.
        unsafe { self.base.as_ptr().add(off).cast::<u32>().write(need as u32) };
        self.free_tail::<GF>(off + need, rest, payload)
    }

    /// Lists the tail `off..off+size` split off a block taken from a free list (so the header
    /// after it is marked as following a free block already), and returns `payload`.
    #[inline(always)]
    pub(super) fn free_tail<const GF: bool>(&mut self, off: usize, size: usize, payload: NonNull<u8>) -> NonNull<u8> {
        // SAFETY: `off` is a block header inside the area.
        unsafe { self.base.as_ptr().add(off).cast::<[u32; 2]>().write([size as u32, FREE_TAG ^ off as u32]) };
        self.list_free::<GF>(off, size);
        self.set_footer(off, size);
        // SAFETY: the tail's extent.
        unsafe { self.poison_free(off, size) };
        payload
    }

    /// The error of a failed [`Heap::alloc_in`] for `layout`.
    #[cold]
    pub(super) fn out_of_memory(layout: Layout) -> Error {
        Error::OutOfMemory { size: layout.size(), align: layout.align() }
    }

    /// [`Heap::alloc`] for good fit (`GF`) or the list policies; `None` when no free block
    /// fits.
    #[inline(always)]
    pub(super) fn alloc_in<const GF: bool>(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        let need = Self::block_need(layout);
        // (A request larger than the region needs no test of its own: no block is that large.)
        let align = layout.align();
        let search = if align <= 16 { need } else { need + align + MIN_BLOCK };
        let off = if GF {
            let (off, bin) = self.find_good(search)?;
            if bin < BINS {
                self.pop_head(off, bin)
            } else {
                self.remove_free::<GF>(off)
            }
            off
        } else {
            let off = self.find_in_list(search)?;
            self.remove_free::<GF>(off);
            off
        };
        let mut off = off;
        let mut size = self.free_size(off);
        // SAFETY: the whole block is ours to reshape.
        unsafe { self.unpoison_block(off, size) };
        // A block from a free list has a used left neighbour (free neighbours are always
        // merged): its header's flag is clear unless a free block is split off in front.
        let mut flag = 0;
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
                // SAFETY: the new header lies inside the block (`carve` writes its size and
                // tag and keeps the flag).
                unsafe { self.write_hdr(off + gap, Hdr { size: 0, prev_free: true, tag: 0 }) };
                self.mark_free_end(off, gap);
                // SAFETY: the front block's extent.
                unsafe { self.poison_free(off, gap) };
                off += gap;
                size -= gap;
                flag = PREV_FREE;
            }
        }
        // A block from a free list has a used right neighbour too, so its tail has nothing to
        // merge with.
        self.carve::<GF, false>(off, size, need, flag);
        self.used_blocks += 1;
        // SAFETY: `off` is inside the area, so the payload pointer is not null.
        Some(unsafe { NonNull::new_unchecked(self.base.as_ptr().add(off + HEADER)) })
    }

    /// Marks the block at `off` (of `size` bytes, already out of the free lists) used with
    /// `need` bytes and `flag` (its header's `PREV_FREE` bit), returning the tail as a free
    /// block when it is large enough. Returns the size the block keeps. With `MERGE` the tail
    /// absorbs a free right neighbour and the header after the block may have a used left
    /// neighbour (`off` was a used block, as in [`Heap::realloc`]); without, the block came
    /// from a free list, so the header after it is marked as following a free block already.
    #[inline(always)]
    pub(super) fn carve<const GF: bool, const MERGE: bool>(
        &mut self,
        off: usize,
        size: usize,
        need: usize,
        flag: u32,
    ) -> usize {
        let used_hdr = |size: usize| [size as u32 | flag, USED_TAG ^ off as u32];
        let rest = size - need;
        if rest < MIN_BLOCK {
            // SAFETY: `off` is a block header inside the area.
            unsafe { self.base.as_ptr().add(off).cast::<[u32; 2]>().write(used_hdr(size)) };
            self.clear_prev_free(off + size);
            return size;
        }
        // SAFETY: as above.
        unsafe { self.base.as_ptr().add(off).cast::<[u32; 2]>().write(used_hdr(need)) };
        let tail = off + need;
        let mut tail_size = rest;
        // (`insert_free` writes the tail's header: its left neighbour is this used block.)
        let after = tail + tail_size;
        let mut after_flag = MERGE;
        // The sentinel after the last block is marked used: no bounds test needed.
        if MERGE && self.is_free(after) {
            let s = self.free_size(after);
            self.remove_free::<GF>(after);
            tail_size += s;
            after_flag = false;
        }
        self.insert_free::<GF>(tail, tail_size);
        self.set_footer(tail, tail_size);
        if after_flag {
            self.set_prev_free(tail + tail_size);
        }
        // SAFETY: the tail's extent.
        unsafe { self.poison_free(tail, tail_size) };
        need
    }

    /// The header offset of `ptr` and the header's size word (flags included) when `ptr` is
    /// the payload of a used block here, else `None` (the reason is then found by
    /// [`Heap::misuse`], off the hot path).
    #[inline(always)]
    pub(super) fn used_block(&self, ptr: NonNull<u8>) -> Option<(usize, u32)> {
        let p = ptr.as_ptr() as usize;
        // One unsigned compare for both ends and the alignment: a pointer below the first
        // payload wraps around, a misaligned one rotates its low bits to the top.
        let off = p.wrapping_sub(self.payloads);
        if off.rotate_right(4) >= self.offsets {
            return None;
        }
        if crate::poison::is_poisoned((p - HEADER) as *const u8) {
            return None;
        }
        // SAFETY: `off` is a 16-aligned offset inside the area, so 8 readable bytes.
        let [word, tag] = unsafe { self.base.as_ptr().add(off).cast::<[u32; 2]>().read() };
        let poisoned = cfg!(feature = "sanitize") && tag == u32::from_ne_bytes([crate::POISON; 4]);
        let size = (word & !FLAGS) as usize;
        // (The size only has to keep the block inside the region: a right tag with a wrong
        // size can only have been forged, and a size below `MIN_BLOCK` still has a class.)
        (tag == USED_TAG ^ off as u32 && !poisoned && off + size <= self.len).then_some((off, word))
    }

    /// Why [`Heap::used_block`] rejected `ptr`: [`Error::DoubleFree`] for a block freed
    /// already (free or merged tag, or poisoned bytes), else [`Error::ForeignPointer`].
    ///
    /// Cold, but inlinable: it only reads, so where the error is dropped (as
    /// `GlobalAlloc::dealloc` does in release builds) the compiler removes the call, and the
    /// failed check costs no stack frame on the hot path.
    #[cold]
    #[inline]
    pub(super) fn misuse(&self, ptr: NonNull<u8>) -> Error {
        let p = ptr.as_ptr() as usize;
        let off = p.wrapping_sub(self.base.as_ptr() as usize + HEADER);
        if off.rotate_right(4) >= self.offsets {
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

    /// [`Heap::free`] for a block allocated (or last resized) with `layout`, as
    /// `GlobalAlloc::dealloc` and `Allocator::deallocate` know it: the same checks and the
    /// same result (the block's own header decides its size). The layout only tells where
    /// the right neighbour's header most likely is, so it is fetched alongside the block's
    /// own instead of after it (two cache misses at once rather than one after the other).
    ///
    /// # Errors
    /// As [`Heap::free`].
    #[inline]
    pub fn free_sized(&mut self, ptr: NonNull<u8>, layout: Layout) -> Result<()> {
        // (The neighbour's header is `ptr - 8 + block_need(layout)` or up to 16 bytes on:
        // about `ptr + size + 8`.)
        prefetch(ptr.as_ptr().wrapping_add(layout.size() + HEADER));
        self.free(ptr)
    }

    /// [`Heap::free`] for the list policies, out of line: a caller inlining `free` gets only
    /// the good-fit code (the list walks dwarf the call).
    #[inline(never)]
    pub(super) fn free_list(&mut self, ptr: NonNull<u8>) -> bool {
        self.free_in::<false>(ptr)
    }

    /// [`Heap::free`] for good fit (`GF`) or the list policies; `false` when `ptr` is not a
    /// used block's payload (nothing is changed then).
    #[inline(always)]
    pub(super) fn free_in<const GF: bool>(&mut self, ptr: NonNull<u8>) -> bool {
        let Some((off, word)) = self.used_block(ptr) else { return false };
        self.used_blocks -= 1;
        // (The sentinel after the last block is marked used.)
        let next = off + (word & !FLAGS) as usize;
        let next_free = self.is_free(next);
        if next_free || word & PREV_FREE != 0 {
            // SAFETY: checked just above.
            unsafe { self.free_at::<GF>(off, word, next_free) };
            return true;
        }
        // No free neighbour (about half the frees): the block is listed as it is (its size
        // word has no flag set).
        let size = next - off;
        self.flip_tag(off, USED_TAG ^ FREE_TAG);
        self.list_free::<GF>(off, size);
        self.set_footer(off, size);
        self.set_prev_free(next);
        // SAFETY: the block's extent.
        unsafe { self.poison_free(off, size) };
        true
    }

    /// Frees the used block at `off`, whose header's size word is `word`; `next_free` says
    /// whether its right neighbour is free. (The caller counts the block out of
    /// `used_blocks`.)
    ///
    /// # Safety
    /// `off` is a used block's header offset.
    #[inline(always)]
    pub(super) unsafe fn free_at<const GF: bool>(&mut self, off: usize, word: u32, next_free: bool) {
        let mut start = off;
        let mut size = (word & !FLAGS) as usize;
        let next = off + size;
        // The sentinel after the last block is marked used: no bounds test needed.
        if next_free {
            size += self.free_size(next);
            self.remove_free::<GF>(next);
            // (The absorbed header keeps its free tag: a free of its payload is still told
            // apart as a double free.)
        }
        let left = if word & PREV_FREE != 0 {
            let prev_size = self.prev_size(off);
            // (A footer larger than the offset would be corruption: then no merge.)
            let prev = off.wrapping_sub(prev_size);
            (prev_size <= off && self.is_free(prev)).then_some((prev, prev_size))
        } else {
            None
        };
        match left {
            Some((prev, prev_size)) => {
                self.remove_free::<GF>(prev);
                // As above; this block was just freed.
                self.flip_tag(off, USED_TAG ^ DEAD_TAG);
                start = prev;
                size += prev_size;
            }
            None => self.flip_tag(off, USED_TAG ^ FREE_TAG),
        }
        // SAFETY: `start` is the merged block's header, whose tag is the free one now.
        unsafe { self.base.as_ptr().add(start).cast::<u32>().write(size as u32) };
        self.list_free::<GF>(start, size);
        self.set_footer(start, size);
        // (After a free right neighbour, the next header is marked already.)
        if !next_free {
            self.set_prev_free(start + size);
        }
        // SAFETY: the merged block's extent.
        unsafe { self.poison_free(start, size) };
    }

    /// Resizes a block, in place when the block itself or its free right neighbour has room,
    /// else by moving it (the contents up to the smaller size are kept).
    ///
    /// # Errors
    /// As [`Heap::free`] for `ptr`; [`Error::OutOfMemory`] when no block fits (the old block
    /// is then untouched).
    #[inline]
    pub fn realloc(&mut self, ptr: NonNull<u8>, new: Layout) -> Result<NonNull<u8>> {
        if self.policy == Policy::GoodFit { self.realloc_in::<true>(ptr, new) } else { self.realloc_list(ptr, new) }
    }

    /// [`Heap::realloc`] for a block allocated (or last resized) with `layout`, to `new_size`
    /// bytes with the same alignment, as `GlobalAlloc::realloc` knows it: the same checks and
    /// the same result, without building (and checking) a second layout.
    ///
    /// # Errors
    /// As [`Heap::realloc`]; [`Error::OutOfMemory`] also for a `new_size` no layout with this
    /// alignment can have (above `isize::MAX` once rounded up to the alignment).
    #[inline]
    pub fn realloc_sized(&mut self, ptr: NonNull<u8>, layout: Layout, new_size: usize) -> Result<NonNull<u8>> {
        let align = layout.align();
        if new_size > isize::MAX as usize - (align - 1) {
            return Err(Error::OutOfMemory { size: new_size, align });
        }
        // SAFETY: `align` is a layout's (a power of two) and the size was checked just above.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, align) };
        if self.policy == Policy::GoodFit { self.realloc_in::<true>(ptr, new) } else { self.realloc_list(ptr, new) }
    }

    /// [`Heap::realloc`] for the list policies, out of line as [`Heap::free_list`].
    #[inline(never)]
    pub(super) fn realloc_list(&mut self, ptr: NonNull<u8>, new: Layout) -> Result<NonNull<u8>> {
        self.realloc_in::<false>(ptr, new)
    }

    /// [`Heap::realloc`] for good fit (`GF`) or the list policies.
    #[inline(always)]
    pub(super) fn realloc_in<const GF: bool>(&mut self, ptr: NonNull<u8>, new: Layout) -> Result<NonNull<u8>> {
        let Some((off, word)) = self.used_block(ptr) else { return Err(self.misuse(ptr)) };
        let need = Self::block_need(new);
        let size = (word & !FLAGS) as usize;
        let flag = word & PREV_FREE;
        // (Alignments are powers of two.)
        if ptr.as_ptr() as usize & (new.align() - 1) == 0 {
            if need <= size {
                self.carve::<GF, true>(off, size, need, flag);
                return Ok(ptr);
            }
            // (The sentinel after the last block is marked used.)
            let next = off + size;
            if self.is_free(next) {
                let next_size = self.free_size(next);
                if size + next_size >= need {
                    self.remove_free::<GF>(next);
                    // SAFETY: the absorbed block becomes part of a live one.
                    unsafe { self.unpoison_block(next - HEADER, next_size + HEADER) };
                    self.carve::<GF, true>(off, size + next_size, need, flag);
                    return Ok(ptr);
                }
            }
        }
        let fresh = if GF { self.alloc_good(new) } else { self.alloc_in::<GF>(new) };
        let Some(fresh) = fresh else { return Err(Self::out_of_memory(new)) };
        let old_payload = size - HEADER;
        // SAFETY: both blocks are live and distinct; copy the smaller payload.
        unsafe { ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), old_payload.min(new.size())) };
        self.used_blocks -= 1;
        // SAFETY: validated above, and still used (the allocation may have changed its flag
        // and its right neighbour, which are read again).
        unsafe { self.free_at::<GF>(off, self.size_word(off), self.is_free(off + size)) };
        Ok(fresh)
    }
}
