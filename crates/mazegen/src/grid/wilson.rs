//! The uniform grid carver: Wilson's algorithm on the grid's planar dual, one byte per square.
//!
//! Wilson's algorithm grows a tree from a root: from each vertex not yet in the tree it walks at
//! random until it meets the tree, then adds the walk with its loops erased. With the simple
//! random walk the tree is exactly uniform among all spanning trees (Wilson 1996); with steps
//! weighted by conductances, each tree's probability is proportional to the product of its
//! edges' conductances.
//!
//! What makes it fast on a grid:
//!
//! - **The dual, rooted at the outer face.** The grid-graph is planar: its faces are the
//!   `(w − 1) × (h − 1)` squares between four cells, plus the outer face around it. The walls of
//!   a spanning tree (the edges it leaves out) form a spanning tree of the dual, and this is a
//!   bijection, so a uniform dual tree gives a uniform maze. Rooted at the outer face, which
//!   touches every square of the rim, a walk ends as soon as it steps off the rim or meets the
//!   tree. The expected number of steps is the sum of the vertices' effective resistances to the
//!   root times their degrees: to the whole rim that is about half of what it is to one central
//!   cell. Measured on 1000 × 1000: 4.1–4.4 steps per square, against 7.4–14.6 steps per cell
//!   for Wilson on the grid itself with a central root (seeds 0 to 7), and far less spread
//!   between seeds.
//! - **One byte per square** in an array whose one-square border is the outer face: the
//!   direction the latest walk left the square by (loop erasure keeps only the last exit) and a
//!   tree flag. A step is a table add, one store and one load, and the border needs no test of
//!   its own.
//! - **Two random bits per step** without a bias (32 steps per 64-bit draw), 16 with one. Each
//!   walk takes fresh draws, so the loop over a draw's steps always has the same length and only
//!   the walk's end is mispredicted; each draw is made one walk ahead, off the critical path.
//! - **Starts found 64 squares at a time** from a mask of the squares not yet in the tree, kept
//!   exact as walks add squares (the retrace clears their bits with no branch), so no start is
//!   tested again; a walk that ends where it started (most late walks) marks its square without
//!   retracing.
//! - **Walls to passages 32 cells at a time**: eight squares' bytes compared per 64-bit word
//!   (portable, no SIMD intrinsics), then the two masks interleaved into the tree's bit layout.
//!
//! With a bias the grid's edges have conductance `1 + bias` (horizontal) and `1 − bias`
//! (vertical); a dual edge gets the inverse of its grid edge's, and a dual edge across a
//! vertical grid edge is horizontal, so a dual step is sideways with the same probability
//! `(1 + bias) / 2` as a grid step would be. Which square a walk starts from does not change
//! the distribution, so the raster order of the starts is free to follow the memory.

use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::tree::{GridTree, check};
use crate::error::Error;

/// Low two bits: the direction a cell was last left by (0 right, 1 left, 2 down, 3 up).
const DIRECTION: u8 = 3;
/// The cell is in the tree; its direction bits lead to its parent.
const IN_TREE: u8 = 4;
/// The root (the outer face, the array's border): in the tree, with no parent.
const ROOT: u8 = IN_TREE | 8;

/// Smallest step weight with a bias, as in the general Wilson path: a zero weight would trap a
/// walk in one row (bias 1) or column (bias −1) forever.
const MIN_WEIGHT: f32 = 0.01;

/// Where the next steps go: each 64-bit draw gives [`Steps::PER_DRAW`] directions.
trait Steps {
    /// Directions per 64-bit draw.
    const PER_DRAW: u32;
    /// Bits of the draw one direction takes.
    const BITS: u32;
    /// The direction in the low [`Steps::BITS`] bits of `r` (0 right, 1 left, 2 down, 3 up).
    fn dir(&self, r: u64) -> usize;
}

/// Uniform directions, two bits each.
struct Uniform;

impl Steps for Uniform {
    const PER_DRAW: u32 = 32;
    const BITS: u32 = 2;

    #[inline(always)]
    fn dir(&self, r: u64) -> usize {
        (r & 3) as usize
    }
}

/// Weighted directions, 16 bits each: the low bit picks the sign, the other 15 compare with
/// `horizontal` (the sideways share, in 1/32,768ths).
struct Weighted {
    horizontal: u32,
}

impl Steps for Weighted {
    const PER_DRAW: u32 = 4;
    const BITS: u32 = 16;

    #[inline(always)]
    fn dir(&self, r: u64) -> usize {
        let r = r as u32 & 0xffff;
        2 * usize::from(r >> 1 >= self.horizontal) + (r & 1) as usize
    }
}

impl GridTree {
    /// Carves an exactly uniform random spanning tree of the grid (Wilson's algorithm) with a
    /// seeded `Pcg64Mcg`; with a bias, a tree drawn with probability proportional to the product
    /// of its passages' weights, `1 + bias` for horizontal ones and `1 − bias` for vertical ones
    /// (each at least 0.01).
    ///
    /// [`GridTree::carve`] (Kruskal) is the other carver. Its trees have slightly more dead ends
    /// and shorter corridors than uniform ones (about 5 % and 4 %); this carver's are the
    /// reference those numbers are measured against, and it is also faster. Its running time
    /// varies a little with the seed (the walks' lengths are random) and grows as `|bias|` nears
    /// 1, where walks rarely change row or column: measured on 1000 × 1000, about 1.2× the
    /// unbiased time at 0.5, 1.4× at 0.9 and 2.6× at ±1.
    /// [`crate::generate`] uses it for grid mazes with [`crate::TreeAlgorithm::Wilson`].
    ///
    /// ```
    /// use lore_mazegen::GridTree;
    /// let tree = GridTree::carve_uniform(1000, 1000, 0.0, 7)?;
    /// assert_eq!(tree.passage_count(), 1000 * 1000 - 1);
    /// # Ok::<(), lore_mazegen::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Config`] when a side is 0, the grid has more than [`MAX_NODES`](crate::MAX_NODES) cells, or the
    /// bias is outside `-1.0..=1.0`.
    pub fn carve_uniform(width: u32, height: u32, horizontal_bias: f32, seed: u64) -> Result<Self, Error> {
        check(width, height, horizontal_bias)?;
        Ok(Self::carve_uniform_with(&mut Pcg64Mcg::seed_from_u64(seed), width, height, horizontal_bias))
    }

    /// The uniform carver proper, for sizes and a bias already checked.
    pub(crate) fn carve_uniform_with(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32) -> Self {
        let (w, h) = (width as usize, height as usize);
        if w == 1 || h == 1 {
            // A path: its only spanning tree opens every passage.
            let mut tree = Self::from_words(width, height, vec![0; (2 * w * h).div_ceil(64)]);
            for c in 0..w * h - 1 {
                let edge = 2 * c + usize::from(w == 1);
                tree.open_edge(edge);
            }
            return tree;
        }
        let faces = if bias == 0.0 {
            dual_wilson(rng, w, h, &Uniform)
        } else {
            let (wh, wv) = ((1.0 + bias).max(MIN_WEIGHT), (1.0 - bias).max(MIN_WEIGHT));
            let horizontal = (f64::from(wh / (wh + wv)) * 32768.0).round() as u32;
            dual_wilson(rng, w, h, &Weighted { horizontal })
        };
        Self::from_words(width, height, passages(&faces, w, h))
    }
}

/// Wilson's algorithm on the planar dual of the `w × h` grid-graph, rooted at the outer face.
///
/// The dual's vertices are the `(w − 1) × (h − 1)` squares between four cells plus the outer
/// face, which touches every square on the rim; a dual edge crosses one passage-or-wall of the
/// grid. Complements of spanning trees are spanning trees of the dual, so a uniform dual tree
/// gives a uniform grid tree (and weights `1/c` on the dual give the weights `c` on the grid:
/// the sideways share of a dual step equals the grid's). Rooted at the outer face, which the
/// border of the array stands for, a walk ends at the first step out of the rim: the expected
/// number of steps is the sum of the squares' resistances to the rim, about half the sum of the
/// cells' resistances to a central root.
///
/// Returns the squares with a one-square border (row stride `w + 1`): each inner one in the tree
/// with the direction of its parent, the border [`ROOT`]. The length is a power of two so that
/// indexing by `pos & mask` needs no bounds check.
fn dual_wilson<S: Steps>(rng: &mut Pcg64Mcg, w: usize, h: usize, steps: &S) -> Vec<u8> {
    let (fw, fh, stride) = (w - 1, h - 1, w + 1);
    let mut faces = vec![ROOT; (stride * (fh + 2)).next_power_of_two()];
    for y in 1..=fh {
        faces[y * stride + 1..][..fw].fill(0);
    }
    let mask = faces.len() - 1;
    let state = &mut faces[..=mask];
    assert!(stride * (fh + 2) <= state.len(), "the walk's bound: every square and its border");
    let delta = [1, 1usize.wrapping_neg(), stride, stride.wrapping_neg()];
    let mut ahead = rng.next_u64();
    for y in 1..=fh {
        let row = y * stride + 1;
        for block in (row..row + fw).step_by(64) {
            let len = (row + fw - block).min(64);
            let mut free = if len == 64 {
                free_mask(state[block..block + 64].try_into().expect("64 squares"))
            } else {
                state[block..block + len].iter().enumerate().fold(0, |m, (i, &c)| m | u64::from(c < IN_TREE) << i)
            };
            while free != 0 {
                let start = block + free.trailing_zeros() as usize;
                free &= free - 1;
                // `free` stays exact: a walk takes its start into the tree, whose bit is clear
                // now, and the retrace below clears the bit of every other square it adds.
                debug_assert!(state[start & mask] < IN_TREE, "a start in the tree");
                // Walk until the tree, remembering each square's last exit. A fresh draw per
                // walk and a fixed count per draw keep the loop's exits predictable; only the
                // walk's own end is a surprise.
                let mut pos = start;
                'walk: loop {
                    // The draw is made one walk ahead, off the walk's critical path.
                    let mut r = ahead;
                    ahead = rng.next_u64();
                    // Written as 4 × (PER_DRAW / 4) steps, the loop is unrolled whole: no step
                    // counter, nine instructions a step (a single loop of 32 was unrolled by two
                    // only, eleven a step).
                    for _ in 0..S::PER_DRAW / 4 {
                        for _ in 0..4 {
                            let dir = steps.dir(r);
                            r >>= S::BITS;
                            // The carver's hot path: unchecked indexing here saves 4–5 % of the
                            // carve against the masked indexing elsewhere (docs/benchmarks.md,
                            // mazegen, fourth session).
                            // SAFETY: `pos` is an inner square: the walk starts on one and moves
                            // only onto squares not in the tree, and every border square is ROOT,
                            // in the tree. So `pos` and its four neighbours lie inside the
                            // `(h + 1) × stride` grid, within `state` (asserted above).
                            unsafe { *state.get_unchecked_mut(pos) = dir as u8 };
                            let next = pos.wrapping_add(delta[dir]);
                            // SAFETY: `next` is a neighbour of the inner square `pos` (see above).
                            if unsafe { *state.get_unchecked(next) } >= IN_TREE {
                                break 'walk;
                            }
                            pos = next;
                        }
                    }
                }
                // Add the loop-erased path: follow the last exits from the start.
                if pos == start {
                    state[start & mask] |= IN_TREE;
                } else {
                    let mut pos = start;
                    loop {
                        let c = state[pos & mask];
                        if c >= IN_TREE {
                            break;
                        }
                        state[pos & mask] = c | IN_TREE;
                        // No branch: a square outside the block clears no bit.
                        let offset = pos.wrapping_sub(block);
                        free &= !(u64::from(offset < 64) << (offset & 63));
                        pos = pos.wrapping_add(delta[usize::from(c & DIRECTION)]);
                    }
                }
            }
        }
    }
    faces
}

/// Bit `i` set when square `i` is not in the tree yet, eight squares per 64-bit word: a byte
/// below [`IN_TREE`] (every byte here is below 16) stays below 0x80 when 0x7C is added, a byte in
/// the tree reaches it, with no carry into the next byte; the high bits are then gathered by a
/// multiply.
#[inline(always)]
fn free_mask(squares: &[u8; 64]) -> u64 {
    const ADD: u64 = 0x7c7c_7c7c_7c7c_7c7c;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut free = 0;
    for (k, chunk) in squares.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 squares"));
        free |= u64::from(gather_high(!word.wrapping_add(ADD) & HIGH)) << (8 * k);
    }
    free
}

/// The passage bits of [`GridTree`] from the dual tree: a passage is open unless the dual tree
/// crosses it. The passage right of cell `(x, y)` is the bottom side of square `(x, y − 1)` and
/// the top side of square `(x, y)`; the passage below it is the right side of square
/// `(x − 1, y)` and the left side of square `(x, y)`. Runs of 32 cells become two 32-bit masks
/// (eight byte compares per 64-bit word), interleaved into the 64 bits those cells own.
fn passages(faces: &[u8], w: usize, h: usize) -> Vec<u64> {
    let stride = w + 1;
    // One spare word so that a run's bits may spill past the last word; it is dropped at the end.
    let words = (2 * w * h).div_ceil(64);
    let mut open = vec![0u64; words + 1];
    for y in 0..h {
        // `above[x]` is square (x, y − 1); `here[x]` is square (x − 1, y), `here[x + 1]` (x, y).
        let above = &faces[y * stride + 1..][..w];
        let here = &faces[(y + 1) * stride..][..=w];
        let mut x = 0;
        while x < w {
            let run = (w - x).min(32);
            let (mut right, mut down) = if run == 32 {
                let a: &[u8; 32] = above[x..x + 32].try_into().expect("32 squares");
                let b: &[u8; 33] = here[x..x + 33].try_into().expect("33 squares");
                run_masks(a, b)
            } else {
                let mut masks = (0u32, 0u32);
                for i in 0..run {
                    masks.0 |= u32::from(above[x + i] != IN_TREE | 2 && here[x + i + 1] != IN_TREE | 3) << i;
                    masks.1 |= u32::from(here[x + i] != IN_TREE && here[x + i + 1] != IN_TREE | 1) << i;
                }
                masks
            };
            // No passage leaves the last column to the right or the last row downwards.
            if x + run == w {
                right &= !(1 << (run - 1));
            }
            if y + 1 == h {
                down = 0;
            }
            let bits = spread(right) | spread(down) << 1;
            let at = 2 * (y * w + x);
            open[at / 64] |= bits << (at % 64);
            if !at.is_multiple_of(64) {
                open[at / 64 + 1] |= bits >> (64 - at % 64);
            }
            x += run;
        }
    }
    open.truncate(words);
    open
}

/// Masks of 32 cells: bit `i` of the first is set when cell `i` is open to the right (neither the
/// square above nor the square below its right passage crosses it), of the second when it is open
/// downwards. `above` holds the squares above the cells' right passages, `here` the squares left
/// of the first cell's downward passage and on. Eight cells a step, a byte per square in a 64-bit
/// word (about a third of the instructions of a byte-by-byte loop).
#[inline(always)]
fn run_masks(above: &[u8; 32], here: &[u8; 33]) -> (u32, u32) {
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes[..8].try_into().expect("8 squares"));
    let (mut right, mut down) = (0u32, 0u32);
    for k in 0..4 {
        let (a, h0, h1) = (word(&above[8 * k..]), word(&here[8 * k..]), word(&here[8 * k + 1..]));
        let r = differs(a, IN_TREE | 2) & differs(h1, IN_TREE | 3);
        let d = differs(h0, IN_TREE) & differs(h1, IN_TREE | 1);
        right |= gather_high(r) << (8 * k);
        down |= gather_high(d) << (8 * k);
    }
    (right, down)
}

/// The high bit of each byte of `word` set where the byte differs from `value`, others clear:
/// every square's byte and every value are below 16, so their XOR plus 0x7F reaches 0x80 exactly
/// when it is not 0, with no carry into the next byte.
#[inline(always)]
fn differs(word: u64, value: u8) -> u64 {
    ((word ^ (u64::from(value) * 0x0101_0101_0101_0101)).wrapping_add(0x7f7f_7f7f_7f7f_7f7f)) & 0x8080_8080_8080_8080
}

/// The high bits of a word's eight bytes as an 8-bit mask (byte `i`'s to bit `i`), by a multiply.
#[inline(always)]
fn gather_high(high: u64) -> u32 {
    (high.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u32
}

/// The bits of `x` moved to the even positions of a 64-bit word.
fn spread(x: u32) -> u64 {
    let mut x = u64::from(x);
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::tree::is_spanning_tree;
    use rand::RngExt;
    use std::collections::HashMap;

    #[test]
    fn every_size_and_bias_gives_a_spanning_tree() {
        for (w, h) in [(1, 1), (1, 2), (2, 1), (1, 9), (9, 1), (2, 2), (3, 5), (64, 3), (65, 7), (130, 2), (31, 33)] {
            for bias in [0.0, 0.3, -0.7, 1.0, -1.0] {
                for seed in 0..3 {
                    let tree = GridTree::carve_uniform(w, h, bias, seed).unwrap();
                    assert!(is_spanning_tree(&tree), "{w}×{h} bias {bias} seed {seed}");
                }
            }
        }
    }

    /// Every spanning tree comes up equally often: chi-square tests over 1,000 draws per tree on
    /// the 3 × 3 grid (192 trees) and the 4 × 2 and 2 × 5 ladders (56 and 209 trees; not square,
    /// so the dual's rows and columns differ), each bound at the 0.9999 quantile of its
    /// distribution (Wilson–Hilferty).
    #[test]
    fn unbiased_trees_are_uniform() {
        for (w, h, trees, bound) in [(3u32, 3u32, 192usize, 272.5), (4, 2, 56, 102.9), (2, 5, 209, 292.6)] {
            let mut counts: HashMap<Vec<u64>, u32> = HashMap::new();
            let mut rng = Pcg64Mcg::seed_from_u64(11);
            let samples = 1000 * trees as u32;
            for _ in 0..samples {
                *counts.entry(GridTree::carve_uniform_with(&mut rng, w, h, 0.0).words().to_vec()).or_default() += 1;
            }
            assert_eq!(counts.len(), trees, "every spanning tree of the {w} × {h} grid appears");
            let expected = f64::from(samples) / trees as f64;
            let chi2: f64 = counts.values().map(|&c| (f64::from(c) - expected).powi(2) / expected).sum();
            assert!(chi2 < bound, "{w} × {h}: chi-square {chi2:.1} over {} degrees of freedom", trees - 1);
        }
    }

    /// With a bias, a tree's probability is proportional to its passages' weights. On the 2 × 2
    /// grid each tree leaves out one of the four passages: leaving out a horizontal one keeps
    /// weight `wh · wv²`, a vertical one `wh² · wv`, so the horizontal passage is left out with
    /// probability `wv / (wh + wv)`.
    #[test]
    fn biased_trees_follow_their_weights() {
        for bias in [0.5f32, -0.3, 0.9] {
            let (wh, wv) = (f64::from(1.0 + bias), f64::from(1.0 - bias));
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            let samples = 100_000;
            let mut missing_horizontal = 0u32;
            for _ in 0..samples {
                let tree = GridTree::carve_uniform_with(&mut rng, 2, 2, bias);
                let horizontal = u32::from(tree.open_right(0, 0)) + u32::from(tree.open_right(0, 1));
                missing_horizontal += u32::from(horizontal == 1);
            }
            let p = wv / (wh + wv);
            let sigma = (p * (1.0 - p) / f64::from(samples)).sqrt();
            let got = f64::from(missing_horizontal) / f64::from(samples);
            assert!((got - p).abs() < 5.0 * sigma, "bias {bias}: {got:.4} against {p:.4}");
        }
    }

    /// Dead-end ratio, mean corridor length (edges per chain through cells with two passages),
    /// turn ratio (cells with two perpendicular passages among those with two) and share of
    /// horizontal passages of a spanning tree of the `w × h` grid given as cell pairs.
    fn shape(w: usize, h: usize, passages: impl Iterator<Item = [u32; 2]>) -> [f64; 4] {
        let n = w * h;
        let (mut degree, mut sideways) = (vec![0u32; n], vec![0u32; n]);
        let mut horizontal = 0;
        for [a, b] in passages {
            let along = u32::from(b == a + 1 && w > 1);
            horizontal += along;
            for c in [a, b] {
                degree[c as usize] += 1;
                sideways[c as usize] += along;
            }
        }
        let dead = degree.iter().filter(|&&d| d == 1).count() as f64;
        let two = degree.iter().filter(|&&d| d == 2).count() as f64;
        let turns = (0..n).filter(|&c| degree[c] == 2 && sideways[c] == 1).count() as f64;
        let ends: u32 = degree.iter().filter(|&&d| d != 2).sum();
        [dead / n as f64, (n - 1) as f64 / f64::from(ends / 2), turns / two, f64::from(horizontal) / (n - 1) as f64]
    }

    /// The grid carver and the general Wilson path on the grid-graph draw from one distribution:
    /// their mean shapes over 60 trees of 100 × 100 agree within 1.5 %, with and without a bias.
    /// (Both are exact; the margin is sampling noise, about 0.3 % here.)
    #[test]
    #[ignore = "long: statistics over large grids, run in release"]
    fn carver_matches_the_general_wilson() {
        let (w, h) = (100u32, 100u32);
        let (_, graph) = crate::grid::grid_graph(w, h);
        let horizontal: Vec<bool> = graph.iter().map(|&[a, b]| b == a + 1).collect();
        for bias in [0.0f32, 0.5] {
            let (mut carved, mut general) = ([0.0; 4], [0.0; 4]);
            for seed in 0..60 {
                let tree = GridTree::carve_uniform(w, h, bias, seed).unwrap();
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let edges = crate::spanning::random_tree(
                    &mut rng,
                    (w * h) as usize,
                    &graph,
                    &horizontal,
                    bias,
                    crate::TreeAlgorithm::Wilson,
                );
                let a = shape(w as usize, h as usize, tree.passages());
                let b = shape(w as usize, h as usize, edges.iter().map(|&e| graph[e as usize]));
                for i in 0..4 {
                    carved[i] += a[i] / 60.0;
                    general[i] += b[i] / 60.0;
                }
            }
            println!("bias {bias}: carver {carved:?}, general {general:?}");
            for i in 0..4 {
                let rel = (carved[i] - general[i]).abs() / general[i];
                assert!(rel < 0.015, "bias {bias}, statistic {i}: {} against {} ({rel:.4})", carved[i], general[i]);
            }
        }
    }

    /// The word-wide masks agree with the byte-by-byte definition on every kind of square byte a
    /// finished dual tree holds (the four parent directions and the border).
    #[test]
    fn word_masks_match_the_definition() {
        let kinds = [IN_TREE, IN_TREE | 1, IN_TREE | 2, IN_TREE | 3, ROOT];
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        for _ in 0..2000 {
            let above: [u8; 32] = std::array::from_fn(|_| kinds[rng.random_range(0..kinds.len())]);
            let here: [u8; 33] = std::array::from_fn(|_| kinds[rng.random_range(0..kinds.len())]);
            let (mut right, mut down) = (0u32, 0u32);
            for i in 0..32 {
                right |= u32::from(above[i] != IN_TREE | 2 && here[i + 1] != IN_TREE | 3) << i;
                down |= u32::from(here[i] != IN_TREE && here[i + 1] != IN_TREE | 1) << i;
            }
            assert_eq!(run_masks(&above, &here), (right, down), "{above:?} {here:?}");
        }
    }

    #[test]
    fn same_seed_same_tree() {
        let a = GridTree::carve_uniform(97, 41, 0.0, 5).unwrap();
        assert_eq!(a, GridTree::carve_uniform(97, 41, 0.0, 5).unwrap());
        assert_ne!(a, GridTree::carve_uniform(97, 41, 0.0, 6).unwrap());
        let b = GridTree::carve_uniform(97, 41, 0.4, 5).unwrap();
        assert_eq!(b, GridTree::carve_uniform(97, 41, 0.4, 5).unwrap());
    }

    #[test]
    fn bad_sizes_and_biases_are_errors() {
        assert!(GridTree::carve_uniform(0, 5, 0.0, 1).is_err());
        assert!(GridTree::carve_uniform(5, 0, 0.0, 1).is_err());
        assert!(GridTree::carve_uniform(1 << 14, 1 << 13, 0.0, 1).is_err());
        assert!(GridTree::carve_uniform(5, 5, 1.5, 1).is_err());
        assert!(GridTree::carve_uniform(5, 5, f32::NAN, 1).is_err());
    }
}
