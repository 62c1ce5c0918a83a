//! Random points and their Delaunay triangulation (spade).

use glam::{Vec2, vec2};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use spade::{DelaunayTriangulation, Point2, Triangulation};

use crate::error::{Error, TriangulationError};

/// `count` uniform random points in `[0, width] × [0, height]`.
pub(crate) fn random_points(rng: &mut Pcg64Mcg, count: u32, width: f32, height: f32) -> Vec<Vec2> {
    (0..count).map(|_| vec2(rng.random::<f32>() * width, rng.random::<f32>() * height)).collect()
}

/// Triangulates `points`; returns the vertex positions (duplicates merged, in spade's vertex
/// order) and the undirected edges `(a, b)` with `a < b`, sorted.
///
/// `bulk_load`, not `bulk_load_stable`: the stable variant keeps the input order at the price of
/// 5 % more instructions and 70 % more L1 misses in spade (100k points, cachegrind), and spade's
/// own order is spatial, so neighbours get nearby ids and the tree, zone and key passes after it
/// miss the cache less (the whole 100k-point pipeline: 3.7 % fewer instructions, 32 % fewer L1
/// misses). Node ids are therefore spade's, not the order in which the points were drawn.
pub(crate) fn triangulate(points: &[Vec2]) -> Result<(Vec<Vec2>, Vec<[u32; 2]>), Error> {
    let mut input: Vec<Point2<f64>> = points.iter().map(|p| Point2::new(f64::from(p.x), f64::from(p.y))).collect();
    in_bulk_load_order(&mut input);
    let t = DelaunayTriangulation::<Point2<f64>>::bulk_load(input)
        .map_err(|e| Error::Triangulation(TriangulationError::Refused { reason: format!("{e:?}") }))?;
    if t.num_vertices() < 2 {
        return Err(Error::Triangulation(TriangulationError::TooFewDistinct));
    }
    // Positions were f32 before the widening, so narrowing them back is exact.
    #[allow(clippy::cast_possible_truncation)]
    let positions = t.vertices().map(|v| vec2(v.position().x as f32, v.position().y as f32)).collect();
    let mut edges: Vec<[u32; 2]> = t
        .undirected_edges()
        .map(|e| {
            let [a, b] = e.vertices();
            let (a, b) = (a.fix().index() as u32, b.fix().index() as u32);
            [a.min(b), a.max(b)]
        })
        .collect();
    sort_pairs(&mut edges, t.num_vertices());
    Ok((positions, edges))
}

/// Puts the points in the order spade's `bulk_load` sorts them into before it inserts them:
/// farthest from their mean first, ties by `x`, then `y`.
///
/// spade sorts with `sort_unstable_by_key` and a key that recomputes both distances at every
/// comparison: about a fifth of the 100k-point pipeline's instructions. Here each key is
/// computed once, with spade's own arithmetic (the mean as a running sum times `1 / n`, the
/// squared distance as `dx·dx + dy·dy` from `center − point`), and spade's sort then finds the
/// points in order in one pass. The triangulation is the same either way: spade's order is the
/// unique order of the keys (points with equal keys are the same point).
fn in_bulk_load_order(points: &mut [Point2<f64>]) {
    if points.is_empty() {
        return;
    }
    let (mut sx, mut sy) = (0.0f64, 0.0f64);
    for p in points.iter() {
        sx += p.x;
        sy += p.y;
    }
    let inv = 1.0 / points.len() as f64;
    let (cx, cy) = (sx * inv, sy * inv);
    // Finite floats as integers in the same order (negative ones flipped, positive ones offset).
    let ordered = |v: f64| {
        let bits = v.to_bits();
        if bits >> 63 == 1 { !bits } else { bits | 1 << 63 }
    };
    // The distance as the primary key (farthest first), sorted by a least-significant-digit
    // radix sort of 11-bit digits that skips the digits every key shares (the high bits of
    // nearby distances); the rare runs of equal distances are then ordered by `x`, then `y`.
    let mut keyed: Vec<(u64, u32)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (dx, dy) = (cx - p.x, cy - p.y);
            (!ordered(dx * dx + dy * dy), i as u32)
        })
        .collect();
    radix_sort(&mut keyed);
    let tie_key = |i: u32| (ordered(points[i as usize].x), ordered(points[i as usize].y));
    let mut start = 0;
    while start < keyed.len() {
        let end = start + keyed[start..].iter().take_while(|&&(k, _)| k == keyed[start].0).count();
        if end - start > 1 {
            keyed[start..end].sort_unstable_by_key(|&(_, i)| tie_key(i));
        }
        start = end;
    }
    let sorted: Vec<Point2<f64>> = keyed.iter().map(|&(_, i)| points[i as usize]).collect();
    points.copy_from_slice(&sorted);
}

/// Sorts `(key, index)` pairs by key: least-significant digit first, 11 bits a pass, skipping
/// the passes whose digit is the same in every key.
fn radix_sort(items: &mut Vec<(u64, u32)>) {
    const DIGIT: u32 = 11;
    let mut other = vec![(0u64, 0u32); items.len()];
    let mut counts = vec![0u32; 1 << DIGIT];
    for shift in (0..64).step_by(DIGIT as usize) {
        let digit = |k: u64| ((k >> shift) & ((1 << DIGIT) - 1)) as usize;
        counts.fill(0);
        for &(k, _) in items.iter() {
            counts[digit(k)] += 1;
        }
        if counts[digit(items[0].0)] as usize == items.len() {
            continue;
        }
        let mut sum = 0;
        for c in &mut counts {
            (*c, sum) = (sum, sum + *c);
        }
        for &item in items.iter() {
            let slot = &mut counts[digit(item.0)];
            other[*slot as usize] = item;
            *slot += 1;
        }
        std::mem::swap(items, &mut other);
    }
}

/// Sorts pairs of ids below `n` by `(a, b)`: two stable counting sorts (by `b`, then by `a`),
/// linear where a comparison sort of the ~3n edges was a tenth of the logic pipeline.
fn sort_pairs(pairs: &mut Vec<[u32; 2]>, n: usize) {
    let mut sorted = vec![[0u32; 2]; pairs.len()];
    let mut start = vec![0u32; n + 1];
    for key in [1, 0] {
        start.fill(0);
        for p in pairs.iter() {
            start[p[key] as usize + 1] += 1;
        }
        for i in 1..=n {
            start[i] += start[i - 1];
        }
        for &p in pairs.iter() {
            let slot = &mut start[p[key] as usize];
            sorted[*slot as usize] = p;
            *slot += 1;
        }
        std::mem::swap(pairs, &mut sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points handed to spade are already in its order, and the triangulation is the one
    /// spade makes of the points as drawn.
    #[test]
    fn presorted_points_triangulate_the_same() {
        use rand::SeedableRng;
        // A lattice last: many points at equal distances from the mean, ordered by x, then y.
        let lattice: Vec<Vec2> = (0..21 * 13).map(|i| vec2((i % 21) as f32, (i / 21) as f32)).collect();
        for (seed, count) in [(1u64, 3u32), (2, 50), (3, 2000), (4, 20_000), (5, 0)] {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let points = if count == 0 { lattice.clone() } else { random_points(&mut rng, count, 100.0, 60.0) };
            let mut input: Vec<Point2<f64>> =
                points.iter().map(|p| Point2::new(f64::from(p.x), f64::from(p.y))).collect();
            let plain = DelaunayTriangulation::<Point2<f64>>::bulk_load(input.clone()).unwrap();
            in_bulk_load_order(&mut input);
            // spade's key: farther from the mean first, then x, then y.
            let n = input.len() as f64;
            let (cx, cy) = input.iter().fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
            let (cx, cy) = (cx * (1.0 / n), cy * (1.0 / n));
            let key = |p: &Point2<f64>| ((cx - p.x) * (cx - p.x) + (cy - p.y) * (cy - p.y), p.x, p.y);
            for w in input.windows(2) {
                let (a, b) = (key(&w[0]), key(&w[1]));
                assert!(a.0 > b.0 || (a.0 == b.0 && (a.1, a.2) <= (b.1, b.2)), "seed {seed}: out of order");
            }
            let sorted = DelaunayTriangulation::<Point2<f64>>::bulk_load(input).unwrap();
            let vertices =
                |t: &DelaunayTriangulation<Point2<f64>>| t.vertices().map(|v| v.position()).collect::<Vec<_>>();
            assert_eq!(vertices(&plain), vertices(&sorted), "seed {seed}: vertex order");
            let edges = |t: &DelaunayTriangulation<Point2<f64>>| {
                t.undirected_edges().map(|e| e.vertices().map(|v| v.fix().index())).collect::<Vec<_>>()
            };
            assert_eq!(edges(&plain), edges(&sorted), "seed {seed}: edges");
        }
    }

    #[test]
    fn pairs_sort_like_a_comparison_sort() {
        let mut pairs = vec![[3, 4], [0, 2], [3, 1], [0, 1], [2, 4], [3, 0], [1, 4], [0, 2]];
        let mut expected = pairs.clone();
        expected.sort_unstable();
        sort_pairs(&mut pairs, 5);
        assert_eq!(pairs, expected);
        let mut none: Vec<[u32; 2]> = Vec::new();
        sort_pairs(&mut none, 0);
        assert!(none.is_empty());
    }
}
