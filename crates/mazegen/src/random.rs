//! The crate's one Fisher–Yates shuffle and the two bounded draws it runs with.
//!
//! `rand`'s `SliceRandom::shuffle` walks the slice the other way and batches its draws, so it
//! would change every seeded maze (the guide's pictures and the golden mazes in the tests pin
//! them). The shuffle here is the classic backward Fisher–Yates; what differs between its two
//! callers is only how a uniform index below `n` is drawn:
//!
//! - [`shuffle`], for the general Kruskal: one `random_range` per item;
//! - [`shuffle_paired`], for the grid carver's buckets (its hot loop): two indices per 64-bit
//!   draw, each by Lemire's multiply-and-reject, which halves the generator's work.

use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;

/// Fisher–Yates: for `i` from the last index down to 1, swaps item `i` with item `below(i + 1)`,
/// where `below(n)` must return a uniform index in `0..n`.
#[inline(always)]
fn shuffle_by<T>(items: &mut [T], mut below: impl FnMut(u32) -> usize) {
    // Two swaps a round: a caller whose draws come in pairs keeps its state in registers.
    let mut i = items.len();
    while i > 2 {
        i -= 1;
        let j = below(i as u32 + 1);
        items.swap(i, j);
        i -= 1;
        let j = below(i as u32 + 1);
        items.swap(i, j);
    }
    if i == 2 {
        let j = below(2);
        items.swap(1, j);
    }
}

/// A uniform shuffle, one `random_range` draw per item.
pub(crate) fn shuffle(rng: &mut Pcg64Mcg, items: &mut [u32]) {
    shuffle_by(items, |n| rng.random_range(0..n) as usize);
}

/// A uniform shuffle drawing two indices from each 64-bit draw (the low half first), each
/// unbiased by Lemire's multiply-and-reject (a rejected half draws a fresh 32-bit value).
pub(crate) fn shuffle_paired(rng: &mut Pcg64Mcg, items: &mut [u32]) {
    let mut spare: Option<u32> = None;
    shuffle_by(items, |n| {
        let r = spare.take().unwrap_or_else(|| {
            let r = rng.next_u64();
            spare = Some((r >> 32) as u32);
            r as u32
        });
        below(r, n, rng)
    });
}

/// A uniform number below `range` from the random `r`, drawing again in the rare rejected case.
#[inline(always)]
fn below(r: u32, range: u32, rng: &mut Pcg64Mcg) -> usize {
    let mut m = u64::from(r) * u64::from(range);
    if (m as u32) < range {
        let threshold = range.wrapping_neg() % range;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(range);
        }
    }
    (m >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Every permutation of four items comes up about equally often with both draws.
    #[test]
    fn both_shuffles_are_uniform() {
        for paired in [false, true] {
            let mut rng = Pcg64Mcg::seed_from_u64(21);
            let mut counts = std::collections::HashMap::new();
            for _ in 0..24_000 {
                let mut items = [0u32, 1, 2, 3];
                if paired {
                    shuffle_paired(&mut rng, &mut items)
                } else {
                    shuffle(&mut rng, &mut items)
                }
                *counts.entry(items).or_insert(0u32) += 1;
            }
            assert_eq!(counts.len(), 24, "paired {paired}");
            assert!(counts.values().all(|&c| (800..1200).contains(&c)), "paired {paired}: {counts:?}");
        }
    }

    /// The paired draw takes the low half of a 64-bit draw first, then the high half: the
    /// order the grid carver's seeded trees were made with.
    #[test]
    fn paired_draws_use_both_halves_in_order() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut copy = rng.clone();
        let mut items: Vec<u32> = (0..3).collect();
        shuffle_paired(&mut rng, &mut items);
        let r = copy.next_u64();
        let mut expected: Vec<u32> = (0..3).collect();
        expected.swap(2, below(r as u32, 3, &mut copy));
        expected.swap(1, below((r >> 32) as u32, 2, &mut copy));
        assert_eq!(items, expected);
    }
}
