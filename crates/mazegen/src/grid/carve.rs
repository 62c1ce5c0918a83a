//! The grid carver: a random spanning tree of a `width × height` grid, two bits per cell.
//!
//! It is Kruskal's algorithm over a random edge order, like [`crate::TreeAlgorithm::Kruskal`] on a
//! general graph, with the grid's structure used everywhere:
//!
//! - **Edge ids instead of an edge list.** Edge `2c` joins cell `c` to its right neighbour, edge
//!   `2c + 1` to the cell below; nothing but the ids is stored.
//! - **A bucketed shuffle.** Each edge draws a random bucket (the top bits of half a 64-bit draw);
//!   one pass drops the ids into buckets sized for their expected count plus
//!   [`CAPACITY_SIGMAS`] standard deviations (an overflow recounts exactly and replays the same
//!   random stream), and each bucket, about [`BUCKET_TARGET`] edges, is shuffled in the L1 cache
//!   just before it is used. Sorting by an i.i.d. random key and breaking ties uniformly is a
//!   uniform shuffle, so with the bias off the order is exactly uniform.
//! - **A compact union-find**: `u32` parents, Rem's algorithm with splicing (see `sets.rs`). The
//!   parents of the edge a few steps ahead are prefetched, which hides most of the cache misses of
//!   a random order, and once the order passes the percolation threshold (half the edges) the
//!   sets are flattened a few times, so the many edges rejected inside the giant set cost one
//!   lookup per side.
//! - **Bit-packed output**: bit `e` of [`GridTree`]'s words is edge `e`.
//!
//! The bias works as in the general Kruskal: an edge's key is `E / w` with `E` exponential and
//! `w = 1 + bias` for horizontal edges, `1 − bias` for vertical ones (sorting such keys draws
//! edges one by one with probability proportional to `w`, the merge the general path does). The
//! bucket is the key's quantile, read from a 4,096-entry table; edges of weight 0 go last.

use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::tree::{GridTree, check, ends};
use crate::error::Error;
use crate::random::shuffle_paired;
use crate::sets::{DisjointSets, PREFETCH_AHEAD};

/// Edges per bucket aimed at: 16 KiB of ids, shuffled inside the L1 cache (measured: 1,024 was
/// 6 % slower at 1000 × 1000, more buckets to fill; 16,384 no faster).
const BUCKET_TARGET: usize = 4096;

/// Most bucket bits (4,096 buckets); larger grids get larger buckets.
const MAX_BUCKET_BITS: u32 = 12;

/// Fewest bucket bits with a bias: within a bucket the two weights mix uniformly, which blurs
/// the bias by about one bucket's width (1/1,024 of the order).
const BIAS_BUCKET_BITS: u32 = 10;

/// Bits of the random draw that index a bias table.
const TABLE_BITS: u32 = 12;

/// Shares of the edge order after which the union-find is flattened (every cell points at its
/// root): past the percolation threshold of the square grid (half the edges) nearly every cell is
/// in one giant set, and most later edges are rejected after a single lookup per side.
const FLATTEN_AT: &[f64] = &[0.45, 0.52, 0.6];

impl GridTree {
    /// Carves a random spanning tree of the grid with a seeded `Pcg64Mcg`.
    ///
    /// `horizontal_bias` in `-1.0..=1.0` favours horizontal (positive) or vertical (negative)
    /// passages; 0 gives Kruskal's tree over a uniformly random edge order.
    ///
    /// # Errors
    /// [`Error::Config`] when a side is 0, the grid has more than [`MAX_NODES`](crate::MAX_NODES) cells, or the
    /// bias is outside `-1.0..=1.0`.
    pub fn carve(width: u32, height: u32, horizontal_bias: f32, seed: u64) -> Result<Self, Error> {
        check(width, height, horizontal_bias)?;
        Ok(Self::carve_with(&mut Pcg64Mcg::seed_from_u64(seed), width, height, horizontal_bias))
    }

    /// The carver proper, for sizes and a bias already checked.
    pub(crate) fn carve_with(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32) -> Self {
        Self::carve_sized(rng, width, height, bias, CAPACITY_SIGMAS)
    }

    /// [`GridTree::carve_with`] with bucket room for `capacity_sigmas` standard deviations (tests
    /// force the overflow path with a negative value).
    fn carve_sized(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32, capacity_sigmas: f64) -> Self {
        let (w, h) = (width as usize, height as usize);
        let n = w * h;
        let mut open = vec![0u64; (2 * n).div_ceil(64)];
        let edge_count = (w - 1) * h + w * (h - 1);
        if edge_count == 0 {
            return Self::from_words(width, height, open);
        }
        // With a bias, edges of both weights share a bucket in uniform order, so the buckets must
        // be narrow whatever the grid's size.
        let bucket_bits =
            if bias == 0.0 { bucket_bits(edge_count) } else { bucket_bits(edge_count).max(BIAS_BUCKET_BITS) };
        let buckets = 1usize << bucket_bits;
        let tables = (bias != 0.0)
            .then(|| [bias_table(f64::from(1.0 + bias), buckets), bias_table(f64::from(1.0 - bias), buckets)]);
        // Bucket `buckets` (one past the last) holds the edges of weight 0 (bias ±1). Buckets get
        // room for their expected size plus `CAPACITY_SIGMAS` standard deviations, so one pass
        // places every edge; should a bucket overflow, an exact count and a replay of the same
        // random stream place them again, in the same order.
        let replay = rng.clone();
        let capacity: Vec<u32> = expected_sizes(w, h, buckets, tables.as_ref())
            .iter()
            .map(|&e| (e + capacity_sigmas * e.sqrt() + 8.0).max(0.0).ceil() as u32)
            .collect();
        let (mut order, slots) = match scatter(rng, w, h, bucket_bits, tables.as_ref(), &capacity) {
            Some(placed) => placed,
            None => {
                let mut counts = vec![0u32; buckets + 1];
                *rng = replay.clone();
                for_each_edge(rng, w, h, bucket_bits, tables.as_ref(), |_, bucket| counts[bucket] += 1);
                *rng = replay;
                scatter(rng, w, h, bucket_bits, tables.as_ref(), &counts).expect("exact counts leave room")
            }
        };

        let mut sets = DisjointSets::new(n);
        let mut joined = 0usize;
        let mut seen = 0usize;
        let mut flattens = FLATTEN_AT.iter().map(|f| (f * edge_count as f64) as usize).peekable();
        for &[begin, end] in &slots {
            if flattens.next_if(|&at| seen >= at).is_some() {
                sets.flatten();
            }
            let bucket = &mut order[begin as usize..end as usize];
            seen += bucket.len();
            shuffle_paired(rng, bucket);
            for k in 0..bucket.len() {
                // A random order misses the cache on nearly every first lookup: ask early.
                if let Some(&ahead) = bucket.get(k + PREFETCH_AHEAD) {
                    let (a, b) = ends(ahead, width);
                    sets.prefetch(a);
                    sets.prefetch(b);
                }
                let edge = bucket[k];
                let (a, b) = ends(edge, width);
                if sets.union(a, b) {
                    open[edge as usize / 64] |= 1 << (edge % 64);
                    joined += 1;
                    if joined + 1 == n {
                        return Self::from_words(width, height, open);
                    }
                }
            }
        }
        debug_assert!(false, "a grid is connected, so Kruskal joins every cell");
        Self::from_words(width, height, open)
    }
}

/// Bucket bits for `edge_count` edges: about [`BUCKET_TARGET`] edges per bucket, at least one bit.
fn bucket_bits(edge_count: usize) -> u32 {
    let mut bits = 1;
    while bits < MAX_BUCKET_BITS && edge_count >> bits > BUCKET_TARGET {
        bits += 1;
    }
    bits
}

/// Room per bucket beyond its expected size, in standard deviations (binomial counts: an
/// overflow, handled by a second pass, has odds of about 1 in 10^9 per bucket).
const CAPACITY_SIGMAS: f64 = 6.0;

/// Expected edges per bucket (`buckets + 1` of them, the last for weight 0).
fn expected_sizes(w: usize, h: usize, buckets: usize, tables: Option<&[Vec<u16>; 2]>) -> Vec<f64> {
    let (horizontal, vertical) = (((w - 1) * h) as f64, (w * (h - 1)) as f64);
    let mut expected = vec![0.0; buckets + 1];
    match tables {
        None => expected[..buckets].fill((horizontal + vertical) / buckets as f64),
        Some([h_table, v_table]) => {
            let cell = 1.0 / h_table.len() as f64;
            for (&hb, &vb) in h_table.iter().zip(v_table) {
                expected[usize::from(hb)] += horizontal * cell;
                expected[usize::from(vb)] += vertical * cell;
            }
        }
    }
    expected
}

/// Places the edges in their buckets, bucket `b` in `order[slots[b][0]..slots[b][1]]` in edge id
/// order, given room for `capacity[b]` edges; `None` if a bucket overflows.
fn scatter(
    rng: &mut Pcg64Mcg,
    w: usize,
    h: usize,
    bucket_bits: u32,
    tables: Option<&[Vec<u16>; 2]>,
    capacity: &[u32],
) -> Option<(Vec<u32>, Vec<[u32; 2]>)> {
    // `slots[b]`: [next free place, end of room].
    let mut slots = Vec::with_capacity(capacity.len());
    let mut total = 0u32;
    for &room in capacity {
        slots.push([total, total + room]);
        total += room;
    }
    let mut order = vec![0u32; total as usize];
    let mut overflow = false;
    for_each_edge(rng, w, h, bucket_bits, tables, |edge, bucket| {
        let [next, end] = &mut slots[bucket];
        if *next < *end {
            order[*next as usize] = edge;
            *next += 1;
        } else {
            overflow = true;
        }
    });
    if overflow {
        return None;
    }
    let mut begin = 0;
    for (slot, &room) in slots.iter_mut().zip(capacity) {
        *slot = [begin, slot[0]];
        begin += room;
    }
    Some((order, slots))
}

/// The bucket of an edge of weight `weight` for each value of a [`TABLE_BITS`]-bit uniform draw
/// `u`: the key `E / weight` with `E = −ln u` has the quantile `1 − u^(1 / weight)` under the
/// unweighted key's distribution; weight 0 goes to the extra bucket `buckets`.
fn bias_table(weight: f64, buckets: usize) -> Vec<u16> {
    let size = 1usize << TABLE_BITS;
    (0..size)
        .map(|i| {
            if weight <= 0.0 {
                return buckets as u16;
            }
            let u = (i as f64 + 0.5) / size as f64;
            let quantile = 1.0 - u.powf(1.0 / weight);
            ((quantile * buckets as f64) as usize).min(buckets - 1) as u16
        })
        .collect()
}

/// Visits every edge of the grid in id order with its random bucket. Each cell takes one 64-bit
/// draw, its right edge the low half and its downward edge the high half (the bucket is the top
/// bits of a half), so replaying the stream gives the same buckets.
#[inline(never)]
fn for_each_edge(
    rng: &mut Pcg64Mcg,
    w: usize,
    h: usize,
    bucket_bits: u32,
    tables: Option<&[Vec<u16>; 2]>,
    mut visit: impl FnMut(u32, usize),
) {
    let mut c = 0u32;
    for y in 0..h {
        let down = y + 1 < h;
        for x in 0..w {
            let r = rng.next_u64();
            let (right_key, down_key) = (r as u32, (r >> 32) as u32);
            let (right_bucket, down_bucket) = match tables {
                None => ((right_key >> (32 - bucket_bits)) as usize, (down_key >> (32 - bucket_bits)) as usize),
                Some([horizontal, vertical]) => (
                    usize::from(horizontal[(right_key >> (32 - TABLE_BITS)) as usize]),
                    usize::from(vertical[(down_key >> (32 - TABLE_BITS)) as usize]),
                ),
            };
            if x + 1 < w {
                visit(2 * c, right_bucket);
            }
            if down {
                visit(2 * c + 1, down_bucket);
            }
            c += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::tree::is_spanning_tree;

    #[test]
    fn every_size_and_bias_gives_a_spanning_tree() {
        for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (9, 7), (64, 33), (300, 200)] {
            for bias in [-1.0, -0.3, 0.0, 0.7, 1.0] {
                let tree = GridTree::carve(w, h, bias, 3).unwrap();
                assert!(is_spanning_tree(&tree), "{w}×{h} bias {bias}");
                assert_eq!(tree, GridTree::carve(w, h, bias, 3).unwrap(), "deterministic");
            }
        }
    }

    #[test]
    fn full_bias_keeps_every_row_whole() {
        let tree = GridTree::carve(9, 7, 1.0, 1).unwrap();
        // Horizontal edges come first, so all 7 × 8 of them are taken, then 6 verticals.
        assert!((0..7).all(|y| (0..8).all(|x| tree.open_right(x, y))));
        let tree = GridTree::carve(9, 7, -1.0, 1).unwrap();
        assert!((0..6).all(|y| (0..9).all(|x| tree.open_down(x, y))));
    }

    #[test]
    fn overflowing_buckets_give_the_same_tree() {
        for bias in [0.0, 0.5, -1.0] {
            let fast = GridTree::carve_sized(&mut Pcg64Mcg::seed_from_u64(8), 70, 50, bias, CAPACITY_SIGMAS);
            let recounted = GridTree::carve_sized(&mut Pcg64Mcg::seed_from_u64(8), 70, 50, bias, -100.0);
            assert_eq!(fast, recounted, "bias {bias}");
        }
    }

    #[test]
    fn unbiased_order_is_a_uniform_shuffle() {
        // Every edge of a 2 × 2 grid closes the 4-cycle equally often: 4 edges, 3 kept.
        let mut dropped = [0u32; 4];
        for seed in 0..4000 {
            let tree = GridTree::carve(2, 2, 0.0, seed).unwrap();
            let kept: Vec<[u32; 2]> = tree.passages().collect();
            let all = [[0, 1], [0, 2], [1, 3], [2, 3]];
            let i = all.iter().position(|e| !kept.contains(e)).unwrap();
            dropped[i] += 1;
        }
        assert!(dropped.iter().all(|&d| (900..1100).contains(&d)), "{dropped:?}");
    }

    #[test]
    fn bias_matches_the_general_kruskal() {
        // Same distribution as the general path's weighted merge: compare the share of
        // horizontal passages over 40 trees of 40 × 40 for each bias.
        let (_, graph) = crate::grid::grid_graph(40, 40);
        let horizontal: Vec<bool> = graph.iter().map(|&[a, b]| b == a + 1).collect();
        for bias in [-0.8f32, -0.3, 0.3, 0.6, 0.9] {
            let (mut general, mut carved) = (0usize, 0usize);
            for seed in 0..40 {
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let tree = crate::spanning::random_tree(
                    &mut rng,
                    1600,
                    &graph,
                    &horizontal,
                    bias,
                    crate::TreeAlgorithm::Kruskal,
                );
                general += tree.iter().filter(|&&e| horizontal[e as usize]).count();
                carved += GridTree::carve(40, 40, bias, 1000 + seed)
                    .unwrap()
                    .passages()
                    .filter(|[a, b]| b == &(a + 1))
                    .count();
            }
            let (general, carved) = (general as f64 / (40.0 * 1599.0), carved as f64 / (40.0 * 1599.0));
            assert!((general - carved).abs() < 0.01, "bias {bias}: general {general:.4} carved {carved:.4}");
        }
    }

    #[test]
    fn bad_sizes_and_biases_are_errors() {
        assert!(GridTree::carve(0, 5, 0.0, 1).is_err());
        assert!(GridTree::carve(1 << 14, 1 << 13, 0.0, 1).is_err());
        assert!(GridTree::carve(5, 5, 1.5, 1).is_err());
        assert!(GridTree::carve(5, 5, f32::NAN, 1).is_err());
    }
}
