//! Splitting a pass over threads: the thread count an index keeps, how many parts a pass of a
//! given size is cut into, and one scoped run of a closure per part.
//!
//! With the `parallel` feature a pass cut into several parts runs them on scoped threads
//! (`std::thread::scope`: the first part on the calling thread, one new thread for each other
//! part); without it, or with one thread, the parts run in turn on the calling thread. Each
//! part writes only its own buffers, and the caller joins them in part order, so the result
//! is the same as one thread's, to the order of `pairs_unsorted`.

#[cfg(feature = "parallel")]
use crate::error::Error;

/// How many threads an index's `pairs` may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threads(usize);

impl Default for Threads {
    /// All the cores the process may use (`std::thread::available_parallelism`, asked once per
    /// process) with the `parallel` feature; one without.
    fn default() -> Self {
        #[cfg(feature = "parallel")]
        {
            static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            Self(*CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from)))
        }
        #[cfg(not(feature = "parallel"))]
        Self(1)
    }
}

impl Threads {
    /// One thread.
    #[cfg(test)]
    pub(crate) const fn one() -> Self {
        Self(1)
    }

    /// The thread count.
    pub(crate) fn get(self) -> usize {
        self.0
    }

    /// Sets the thread count.
    ///
    /// # Errors
    /// [`Error::BadConfig`] for 0.
    #[cfg(feature = "parallel")]
    pub(crate) fn set(&mut self, threads: usize) -> Result<(), Error> {
        if threads == 0 {
            return Err(Error::BadConfig("thread count must be at least 1"));
        }
        self.0 = threads;
        Ok(())
    }

    /// How many parts a pass of `work` units is cut into: one per thread, but none smaller
    /// than `min` units (a thread costs tens of microseconds to start, more than a small pass
    /// saves).
    pub(crate) fn parts(self, work: usize, min: usize) -> usize {
        (work / min.max(1)).clamp(1, self.0)
    }
}

#[cfg(all(test, feature = "parallel"))]
std::thread_local! {
    /// How many runs on this thread were split across threads (tests check the split happens).
    pub(crate) static SPLIT_RUNS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// Runs `f` on every part: on scoped threads with the `parallel` feature (the first part on
/// the calling thread), else in turn. Returns when every part is done.
pub(crate) fn run<P: Send>(parts: &mut [P], f: impl Fn(&mut P) + Sync) {
    #[cfg(feature = "parallel")]
    if let Some((first, rest)) = parts.split_first_mut()
        && !rest.is_empty()
    {
        let f = &f;
        #[cfg(test)]
        SPLIT_RUNS.with(|c| c.set(c.get() + 1));
        std::thread::scope(|s| {
            for part in rest {
                s.spawn(move || f(part));
            }
            f(first);
        });
        return;
    }
    parts.iter_mut().for_each(f);
}

/// Where to cut `n` weighted items into `parts` runs of about equal weight: up to `parts + 1`
/// ascending indices from 0 to `n` into `cuts` (replaced). `weights` yields the `n` weights
/// in order.
pub(crate) fn cut_by_weight(
    n: usize,
    parts: usize,
    weights: impl Iterator<Item = u64> + Clone,
    cuts: &mut alloc::vec::Vec<usize>,
) {
    cuts.clear();
    cuts.push(0);
    let total: u64 = weights.clone().sum();
    let parts = parts.max(1) as u64;
    let (mut sum, mut next) = (0u64, 1u64);
    // Cut before the first item at which the items before it carry `next` shares.
    let mut target = total.div_ceil(parts);
    for (i, w) in weights.enumerate() {
        if next >= parts {
            break;
        }
        if sum >= target && i > cuts[cuts.len() - 1] {
            cuts.push(i);
            next += 1;
            target = (total * next).div_ceil(parts);
        }
        sum += w;
    }
    cuts.push(n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn cuts_cover_every_item_once_in_order() {
        let mut cuts = Vec::new();
        for (n, parts) in [(0, 1), (0, 4), (1, 4), (10, 1), (10, 3), (1000, 7), (5, 8)] {
            cut_by_weight(n, parts, (0..n).map(|i| (i % 5) as u64 * 3 + 1), &mut cuts);
            assert_eq!(cuts.first(), Some(&0));
            assert_eq!(cuts.last(), Some(&n));
            assert!(cuts.windows(2).all(|w| w[0] <= w[1]), "{cuts:?}");
            assert!(cuts.len() <= parts + 1, "{n} {parts} {cuts:?}");
        }
        // Even weights: even parts.
        cut_by_weight(1000, 4, (0..1000).map(|_| 1), &mut cuts);
        assert_eq!(cuts, [0, 250, 500, 750, 1000]);
        // One heavy item at the front takes a part of its own.
        cut_by_weight(100, 2, (0..100).map(|i| if i == 0 { 1000 } else { 1 }), &mut cuts);
        assert_eq!(cuts, [0, 1, 100]);
    }

    #[test]
    fn every_part_runs_once() {
        let mut parts: Vec<(usize, usize)> = (0..5).map(|i| (i, 0)).collect();
        run(&mut parts, |(i, out)| *out = *i * 10 + 1);
        assert_eq!(parts, [(0, 1), (1, 11), (2, 21), (3, 31), (4, 41)]);
        let t = Threads(3);
        assert_eq!(t.parts(0, 100), 1);
        assert_eq!(t.parts(250, 100), 2);
        assert_eq!(t.parts(10_000, 100), 3);
    }

    /// Big enough scenes do split: the pair search and the sort (and the grid's patch) each
    /// run on several threads.
    #[cfg(feature = "parallel")]
    #[test]
    fn big_scenes_split_their_pair_search_and_sort() {
        use crate::{Aabb, Axis, Grid, SpatialHash, SpatialIndex, Sweep, Tree};
        use glam::vec2;
        let n = 60_000u32;
        let side = (9.5 * n as f32).sqrt();
        let mut unit = crate::xorshift_unit(9);
        let boxes: Vec<Aabb> = (0..n)
            .map(|_| {
                let c = vec2(unit(), unit()) * side;
                Aabb::from_center(c, vec2(1.5, 1.2)).unwrap()
            })
            .collect();
        let area = Aabb::new(vec2(-2.0, -2.0), glam::Vec2::splat(side + 2.0)).unwrap();
        let indexes: [Box<dyn SpatialIndex>; 4] = [
            Box::new(Grid::covering(area, 4.0).unwrap()),
            Box::new(SpatialHash::new(2.5).unwrap()),
            Box::new(Tree::new()),
            Box::new(Sweep::new(Axis::X)),
        ];
        let splits = || SPLIT_RUNS.with(core::cell::Cell::get);
        for mut index in indexes {
            index.set_threads(2).unwrap();
            let ids: Vec<_> = boxes.iter().map(|&b| index.insert(b).unwrap()).collect();
            let mut pairs = Vec::new();
            // Small moves: from the second on, the grid and the hash patch their lists (one
            // more split run).
            for step in 1..=2 {
                index.pairs(&mut pairs);
                for (&id, b) in ids.iter().zip(&boxes) {
                    let d = 0.01 * step as f32;
                    index.update(id, Aabb::new(b.min() + d, b.max() + d).unwrap()).unwrap();
                }
            }
            for order in 0..2 {
                let before = splits();
                if order == 0 {
                    index.pairs(&mut pairs);
                } else {
                    index.pairs_unsorted(&mut pairs);
                }
                let want = if order == 0 && matches!(index.name(), "grid" | "hash") { 3 } else { 2 };
                assert_eq!(splits() - before, want, "{} (order {order})", index.name());
            }
            index.set_threads(1).unwrap();
            let before = splits();
            index.pairs(&mut pairs);
            assert_eq!(splits(), before, "{} on one thread", index.name());
        }
    }
}
