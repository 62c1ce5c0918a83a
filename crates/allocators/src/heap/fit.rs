//! The searches behind the fit policies: first, next and best fit walk the one free list;
//! good fit finds a size class with bit scans.

use super::bins::{bin_at_least, bin_of_size};
use super::block::{BINS, Heap, NONE, block_of};
use super::policy::Policy;

impl Heap<'_> {
    /// Finds a free block of at least `need` bytes in the one list of the post's policies.
    pub(super) fn find_in_list(&mut self, need: usize) -> Option<usize> {
        match self.policy {
            Policy::FirstFit => {
                let mut cur = self.heads[0];
                while cur != NONE {
                    if self.free_size(block_of(cur)) >= need {
                        return Some(block_of(cur));
                    }
                    cur = self.links(block_of(cur)).0;
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
                    let (next, _) = self.links(block_of(cur));
                    if self.free_size(block_of(cur)) >= need {
                        self.rover = next;
                        return Some(block_of(cur));
                    }
                    cur = next;
                }
                None
            }
            Policy::BestFit => {
                let mut cur = self.heads[0];
                let mut best: Option<(usize, usize)> = None;
                while cur != NONE {
                    let size = self.free_size(block_of(cur));
                    if size >= need && best.is_none_or(|(_, b)| size < b) {
                        best = Some((block_of(cur), size));
                        if size == need {
                            break;
                        }
                    }
                    cur = self.links(block_of(cur)).0;
                }
                best.map(|(o, _)| o)
            }
            Policy::GoodFit => None,
        }
    }

    /// Finds a free block of at least `need` bytes: the first non-empty size class that
    /// surely fits, found with bit scans of the bitmap (one in the usual case). Returns the
    /// block and, when it is the head of its class's list, that class (else `BINS`), so taking
    /// it off the list needs no look at its neighbours' links.
    #[inline(always)]
    pub(super) fn find_good(&self, need: usize) -> Option<(usize, usize)> {
        let bin = bin_at_least(need);
        if bin < BINS {
            let word = bin / 64;
            let bits = self.bitmap[word] & (!0u64 << (bin % 64));
            if bits != 0 {
                let b = word * 64 + bits.trailing_zeros() as usize;
                return Some((block_of(self.heads[b]), b));
            }
            if let Some(b) = self.first_bin_after_word(word) {
                return Some((block_of(self.heads[b]), b));
            }
        }
        // Nothing in a class that surely fits: try the request's own class, whose larger
        // members may still fit (keeps the last bytes usable).
        self.find_in_bin_below(need).map(|off| (off, BINS))
    }

    /// [`Heap::find_good`]'s common case: the head block of the first non-empty class that
    /// surely fits, when the bitmap word of the first such class has one (else `None`, and
    /// the full search decides).
    #[inline(always)]
    pub(super) fn find_good_head(&self, need: usize) -> Option<(usize, usize)> {
        // `bin_at_least`, with the bound test only where a class can reach `BINS`.
        let below = need - 16;
        if below < 63 * 16 {
            // The class and the ones searched are in the first bitmap word.
            let bits = self.bitmap[0] & (!0u64 << (below / 16 + 1));
            if bits == 0 {
                return None;
            }
            let b = bits.trailing_zeros() as usize;
            return Some((block_of(self.heads[b]), b));
        }
        // (Requests of 1 KiB and more are the rarer kind.)
        core::hint::cold_path();
        let bin = bin_of_size(below) + 1;
        if bin >= BINS {
            return None;
        }
        let word = bin / 64;
        let bits = self.bitmap[word] & (!0u64 << (bin % 64));
        if bits == 0 {
            return None;
        }
        let b = word * 64 + bits.trailing_zeros() as usize;
        Some((block_of(self.heads[b]), b))
    }

    /// The first non-empty class in the bitmap words after `word`.
    #[inline(never)]
    fn first_bin_after_word(&self, word: usize) -> Option<usize> {
        (word + 1..BINS / 64).find(|&w| self.bitmap[w] != 0).map(|w| w * 64 + self.bitmap[w].trailing_zeros() as usize)
    }

    /// Scans the class of `need` bytes itself for a block large enough.
    pub(super) fn find_in_bin_below(&self, need: usize) -> Option<usize> {
        let bin = bin_of_size(need).min(BINS - 1);
        let mut cur = self.heads[bin];
        while cur != NONE {
            if self.free_size(block_of(cur)) >= need {
                return Some(block_of(cur));
            }
            cur = self.links(block_of(cur)).0;
        }
        None
    }
}
