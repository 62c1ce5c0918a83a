//! Looking inside a heap: occupancy statistics, the list of blocks, and the integrity check.

use super::block::{FLAGS, FREE_TAG, HEADER, Heap, MIN_BLOCK, NONE, PREV_FREE, USED_TAG, block_of};
use super::policy::Policy;
use crate::error::{Error, Result};

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
    /// the 8-byte header).
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

impl Heap<'_> {
    /// Occupancy statistics (walks the free lists: O(free blocks)).
    #[must_use]
    pub fn stats(&self) -> HeapStats {
        let mut s = HeapStats { capacity: self.len, used_blocks: self.used_blocks, ..HeapStats::default() };
        for &head in &self.heads {
            let mut cur = head;
            while cur != NONE {
                let size = self.size_at(block_of(cur));
                s.free += size;
                s.free_blocks += 1;
                s.largest_free = s.largest_free.max(size);
                cur = self.links(block_of(cur)).0;
            }
        }
        s.used = s.capacity - s.free;
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
    /// that do not tile the region, a wrong footer or left-neighbour flag, a bad tag, two free
    /// neighbours, a free block missing from (or wrongly linked in) its list, or counters that
    /// do not add up.
    ///
    /// # Errors
    /// [`Error::Corrupt`] naming the broken rule.
    pub fn check(&self) -> Result<()> {
        let mut off = 0;
        let mut prev_size = 0usize;
        let mut prev_free = false;
        let (mut free_bytes, mut used_blocks, mut free_blocks) = (0, 0, 0);
        while off < self.len {
            // SAFETY: `off` stays inside the area: it advances by block sizes checked below.
            let h = unsafe { self.hdr(off) };
            let size = h.size as usize;
            if size < MIN_BLOCK || !size.is_multiple_of(16) || off + size > self.len {
                return Err(Error::Corrupt("block size"));
            }
            if self.size_word(off) & FLAGS & !PREV_FREE != 0 {
                return Err(Error::Corrupt("header flags"));
            }
            if h.prev_free != prev_free || (prev_free && self.prev_size(off) != prev_size) {
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
                free_bytes += size;
                free_blocks += 1;
            } else {
                used_blocks += 1;
            }
            prev_free = free;
            prev_size = size;
            off += size;
        }
        if off != self.len
            || self.size_at(self.len) != 0
            || (self.size_word(self.len) & PREV_FREE != 0) != prev_free
            || (prev_free && self.prev_size(self.len) != prev_size)
        {
            return Err(Error::Corrupt("sentinel"));
        }
        if used_blocks != self.used_blocks {
            return Err(Error::Corrupt("usage counters"));
        }
        let (mut listed, mut listed_bytes) = (0, 0);
        for (bin, &head) in self.heads.iter().enumerate() {
            // (Under the list policies the bitmap stays empty.)
            let listed_in_bitmap = self.bitmap[bin / 64] & (1 << (bin % 64)) != 0;
            if listed_in_bitmap != (head != NONE && self.policy == Policy::GoodFit) {
                return Err(Error::Corrupt("bitmap"));
            }
            let mut cur = head;
            let mut back = NONE;
            while cur != NONE {
                // (A link below `HEADER` wraps around to an offset out of range.)
                let c = (cur as usize).wrapping_sub(HEADER);
                if c >= self.len
                    || !c.is_multiple_of(16)
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
                listed_bytes += self.size_at(c);
                if listed > free_blocks {
                    return Err(Error::Corrupt("free list cycle"));
                }
                back = cur;
                cur = next;
            }
        }
        if listed != free_blocks || listed_bytes != free_bytes {
            return Err(Error::Corrupt("free block not listed"));
        }
        Ok(())
    }
}
