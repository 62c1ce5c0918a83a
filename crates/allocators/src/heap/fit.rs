//! The searches behind the fit policies: first, next and best fit walk the one free list;
//! good fit finds a size class with bit scans.

use super::bins::{bin_at_least, bin_of_units};
use super::block::{BINS, Heap, NONE};
use super::policy::Policy;

impl Heap<'_> {
    /// Finds a free block of at least `need` bytes in the one list of the post's policies.
    pub(super) fn find_in_list(&mut self, need: usize) -> Option<usize> {
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
    /// surely fits, found with bit scans of the bitmap (one in the usual case). Returns the
    /// block and, when it is the head of its class's list, that class (else `BINS`), so taking
    /// it off the list needs no look at its neighbours' links.
    #[inline(always)]
    pub(super) fn find_good(&self, need: usize) -> Option<(usize, usize)> {
        let units = need / 16;
        let bin = bin_at_least(units);
        if bin < BINS {
            let word = bin / 64;
            let bits = self.bitmap[word] & (!0u64 << (bin % 64));
            if bits != 0 {
                let b = word * 64 + bits.trailing_zeros() as usize;
                return Some((self.heads[b] as usize, b));
            }
            if let Some(b) = self.first_bin_after_word(word) {
                return Some((self.heads[b] as usize, b));
            }
        }
        // Nothing in a class that surely fits: try the request's own class, whose larger
        // members may still fit (keeps the last bytes usable).
        self.find_in_bin_below(units).map(|off| (off, BINS))
    }

    /// The first non-empty class in the bitmap words after `word`.
    #[inline(never)]
    fn first_bin_after_word(&self, word: usize) -> Option<usize> {
        (word + 1..BINS / 64).find(|&w| self.bitmap[w] != 0).map(|w| w * 64 + self.bitmap[w].trailing_zeros() as usize)
    }

    /// Scans the class of `units` itself for a block large enough.
    pub(super) fn find_in_bin_below(&self, units: usize) -> Option<usize> {
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
}
