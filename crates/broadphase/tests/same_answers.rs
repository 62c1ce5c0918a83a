//! Every index gives exactly the brute-force answers: pairs, box and point queries, first ray
//! hits (with a filter) and all ray hits in order, k-nearest (equal to a brute-force sort by
//! distance) and swept-box casts (equal to brute force over the swept area), through random
//! inserts, moves and removals, including zero-size, huge and far-away (±1e7) boxes and reused
//! ids.

use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{
    Aabb, Axis, BruteForce, CastHit, Grid, Nearest, ProxyId, Ray, SpatialHash, SpatialIndex, Sweep, Tree, World,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

fn indexes() -> Vec<Box<dyn SpatialIndex>> {
    vec![
        Box::new(Sweep::new(Axis::X)),
        Box::new(Sweep::new(Axis::Y)),
        // A small grid: many boxes fall outside and are clamped into the edge cells.
        Box::new(Grid::new(vec2(-16.0, -16.0), 2.0, 16, 16).unwrap()),
        Box::new(Grid::new(vec2(-40.0, -40.0), 0.75, 110, 110).unwrap()),
        // One cell: every box lies in one cell, so batch queries take the single-cell path.
        Box::new(Grid::new(vec2(-30.0, -30.0), 60.0, 1, 1).unwrap()),
        Box::new(SpatialHash::new(1.5).unwrap()),
        // A tiny fixed table: many unrelated cells share buckets.
        Box::new(SpatialHash::with_table_size(3.0, 13).unwrap()),
        Box::new(Tree::new()),
        Box::new(Tree::with_margin(0.0).unwrap()),
        // Every leaf that leaves its fat box is refitted in place (none reinserted).
        Box::new(refit_tree(0.1, 0.0)),
        Box::new(refit_tree(0.0, 0.0)),
        Box::new(refit_tree(0.1, 0.5)),
    ]
}

fn refit_tree(margin: f32, share: f32) -> Tree {
    let mut t = Tree::with_margin(margin).unwrap();
    t.set_reinsert_share(share).unwrap();
    t
}

#[derive(Clone, Debug)]
enum Op {
    Insert(Aabb),
    Remove(usize),
    Update(usize, Aabb),
    Rebuild,
}

fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -25.0f32..25.0,
        1 => prop::sample::select(vec![-1.0e7f32, 1.0e7, 0.0, -16.0, 16.0, 2.0]),
        1 => -1.0e7f32..1.0e7,
    ]
}

fn size() -> impl Strategy<Value = f32> {
    prop_oneof![6 => 0.0f32..4.0, 1 => Just(0.0f32), 1 => 0.0f32..60.0, 1 => Just(2.0e7f32)]
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (coord(), coord(), size(), size()).prop_map(|(x, y, w, h)| Aabb::new(vec2(x, y), vec2(x + w, y + h)).unwrap())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => aabb().prop_map(Op::Insert),
        1 => any::<usize>().prop_map(Op::Remove),
        3 => (any::<usize>(), aabb()).prop_map(|(k, b)| Op::Update(k, b)),
        1 => Just(Op::Rebuild),
    ]
}

fn ray() -> impl Strategy<Value = Ray> {
    let dir = prop_oneof![
        3 => (-1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y)| vec2(x, y)),
        1 => prop::sample::select(vec![Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y, vec2(1.0, 1.0)]),
    ];
    let len = prop_oneof![3 => 0.0f32..80.0, 1 => Just(f32::INFINITY)];
    (coord(), coord(), dir, len).prop_filter_map("zero direction", |(x, y, d, l)| Ray::new(vec2(x, y), d, l).ok())
}

/// A moving box and its motion (sometimes zero, sometimes along an axis, sometimes long).
fn cast() -> impl Strategy<Value = (Aabb, Vec2)> {
    let motion = prop_oneof![
        4 => (-40.0f32..40.0, -40.0f32..40.0).prop_map(|(x, y)| vec2(x, y)),
        1 => (-40.0f32..40.0).prop_map(|x| vec2(x, 0.0)),
        1 => (-40.0f32..40.0).prop_map(|y| vec2(0.0, y)),
        1 => Just(Vec2::ZERO),
        1 => (-2.0e7f32..2.0e7, -2.0e7f32..2.0e7).prop_map(|(x, y)| vec2(x, y)),
    ];
    (aabb(), motion)
}

/// A nearest query: `k` and the distance bound.
fn nearest_args() -> impl Strategy<Value = (usize, f32)> {
    (0usize..7, prop_oneof![2 => Just(f32::INFINITY), 1 => 0.0f32..30.0, 1 => Just(0.0f32)])
}

/// The k nearest by a plain sort of every live box (distance², then id): the property's
/// reference, independent of any index.
fn sorted_nearest(reference: &BruteForce, point: Vec2, k: usize, max: f32, keep: fn(ProxyId) -> bool) -> Vec<Nearest> {
    let mut all: Vec<Nearest> = reference
        .ids()
        .into_iter()
        .filter(|&id| keep(id))
        .map(|id| Nearest { id, distance_squared: reference.aabb(id).unwrap().distance_squared(point) })
        .filter(|n| n.distance_squared <= max * max)
        .collect();
    all.sort_by(|a, b| a.distance_squared.total_cmp(&b.distance_squared).then(a.id.cmp(&b.id)));
    all.truncate(k);
    all
}

/// Every cast hit by brute force over the swept area: the boxes a box query of the area from
/// the start box to the end box finds, each tested with a slab test written here.
fn swept_hits(reference: &mut BruteForce, moving: &Aabb, motion: Vec2, keep: fn(ProxyId) -> bool) -> Vec<CastHit> {
    let swept = Aabb::covering(moving.min().min(moving.min() + motion), moving.max().max(moving.max() + motion));
    let mut candidates = Vec::new();
    // Grown a little: the query is only a filter, the slab test decides.
    reference.query_aabb(&swept.grown(swept.size().max_element() * 1.0e-4 + 1.0e-3), &mut candidates);
    let mut hits: Vec<CastHit> = candidates
        .into_iter()
        .filter(|&id| keep(id))
        .filter_map(|id| {
            let b = reference.aabb(id).unwrap();
            let (mut enter, mut exit) = (0.0f32, 1.0f32);
            for axis in 0..2 {
                let (d, lo, hi) =
                    (motion[axis], b.min()[axis] - moving.max()[axis], b.max()[axis] - moving.min()[axis]);
                if d == 0.0 {
                    if lo > 0.0 || hi < 0.0 {
                        return None;
                    }
                } else {
                    let (a, z) = if d > 0.0 { (lo / d, hi / d) } else { (hi / d, lo / d) };
                    enter = enter.max(a);
                    exit = exit.min(z);
                }
            }
            // A touch at the start is at 0.0, not -0.0, as the crate reports it (hit order sorts
            // with `total_cmp`, where the sign of a zero would decide).
            (enter <= exit).then_some(CastHit { id, t: enter + 0.0 })
        })
        .collect();
    hits.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.id.cmp(&b.id)));
    hits
}

/// Applies `ops` to the reference and every index, checking ids agree.
fn build(ops: &[Op]) -> (BruteForce, Vec<Box<dyn SpatialIndex>>) {
    let mut reference = BruteForce::new();
    let mut others = indexes();
    let mut live: Vec<ProxyId> = Vec::new();
    for op in ops {
        match op {
            Op::Insert(b) => {
                let id = reference.insert(*b).unwrap();
                for ix in &mut others {
                    assert_eq!(ix.insert(*b).unwrap(), id, "{} issued another id", ix.name());
                }
                live.push(id);
            }
            Op::Remove(k) if !live.is_empty() => {
                let id = live.swap_remove(k % live.len());
                let b = reference.remove(id).unwrap();
                for ix in &mut others {
                    assert_eq!(ix.remove(id).unwrap(), b);
                    assert!(ix.remove(id).is_err(), "{}: removed twice", ix.name());
                    assert!(ix.aabb(id).is_none());
                }
            }
            Op::Update(k, b) if !live.is_empty() => {
                let id = live[k % live.len()];
                reference.update(id, *b).unwrap();
                for ix in &mut others {
                    ix.update(id, *b).unwrap();
                }
            }
            Op::Rebuild => {
                // Interleave queries with changes so lazily rebuilt indexes are exercised.
                let mut a = Vec::new();
                reference.pairs(&mut a);
                for ix in &mut others {
                    let mut p = Vec::new();
                    ix.pairs(&mut p);
                    assert_eq!(p, a, "{} pairs mid-run", ix.name());
                    ix.pairs_unsorted(&mut p);
                    assert_eq!(sorted(&p), a, "{} unsorted pairs mid-run", ix.name());
                }
            }
            _ => {}
        }
    }
    (reference, others)
}

/// `pairs` sorted, after checking that each pair is `(a, b)` with `a < b`.
fn sorted(pairs: &[(ProxyId, ProxyId)]) -> Vec<(ProxyId, ProxyId)> {
    assert!(pairs.iter().all(|(a, b)| a < b), "a pair out of order within");
    let mut pairs = pairs.to_vec();
    pairs.sort_unstable();
    pairs
}

fn filter(id: ProxyId) -> bool {
    id.index() % 3 != 1
}

/// The body of the property: every index answers like brute force.
fn check_scene(ops: &[Op], areas: &[Aabb], points: &[(f32, f32)], rays: &[Ray]) -> Result<(), TestCaseError> {
    check_scene_with(ops, areas, points, rays, &[], &[])
}

fn check_scene_with(
    ops: &[Op],
    areas: &[Aabb],
    points: &[(f32, f32)],
    rays: &[Ray],
    near: &[(usize, f32)],
    casts: &[(Aabb, Vec2)],
) -> Result<(), TestCaseError> {
    let (mut reference, mut others) = build(ops);
    // The references for nearest and casts, from plain sorts (not from an index's search).
    let mut want_near = Vec::new();
    for (&(x, y), &(k, max)) in points.iter().zip(near.iter().cycle()) {
        let p = vec2(x, y);
        let expect = sorted_nearest(&reference, p, k, max, filter);
        let mut got = Vec::new();
        reference.k_nearest(p, k, max, &mut filter, &mut got).unwrap();
        prop_assert_eq!(&got, &expect, "brute k-nearest {:?} k {} max {}", p, k, max);
        want_near.push((p, k, max, expect));
    }
    let mut want_casts = Vec::new();
    for (moving, motion) in casts {
        let expect = swept_hits(&mut reference, moving, *motion, filter);
        let mut got = Vec::new();
        reference.cast_aabb_all(moving, *motion, &mut filter, &mut got).unwrap();
        prop_assert_eq!(&got, &expect, "brute cast {:?} by {:?}", moving, motion);
        for hit in &expect {
            // The moving box, moved by t, touches the box (up to rounding).
            let at = moving.translated(*motion * hit.t).grown(1.0e-3 * (1.0 + motion.abs().max_element()));
            prop_assert!(at.overlaps(&reference.aabb(hit.id).unwrap()), "{:?} does not touch at t", hit);
        }
        want_casts.push((moving, *motion, expect));
    }
    let mut want_pairs = Vec::new();
    reference.pairs(&mut want_pairs);
    // Unsorted pairs: the same set, and the same order from indexes given the same calls.
    let (_, mut twins) = build(ops);
    for (ix, twin) in others.iter_mut().zip(&mut twins) {
        let (mut got, mut again) = (Vec::new(), Vec::new());
        ix.pairs_unsorted(&mut got);
        twin.pairs_unsorted(&mut again);
        prop_assert_eq!(&got, &again, "{} unsorted pairs of the same calls", ix.name());
        prop_assert_eq!(sorted(&got), want_pairs.clone(), "{} unsorted pairs", ix.name());
    }
    for ix in &mut others {
        let name = ix.name();
        prop_assert_eq!(ix.len(), reference.len());
        prop_assert_eq!(ix.ids(), reference.ids());
        // Filled beforehand: the call replaces what was there.
        let (mut ids, mut boxes) = (reference.ids(), vec![Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap(); 3]);
        ids.extend(reference.ids());
        ix.ids_and_boxes(&mut ids, &mut boxes);
        prop_assert_eq!(&ids, &reference.ids());
        prop_assert_eq!(boxes, ids.iter().map(|&id| reference.aabb(id).unwrap()).collect::<Vec<_>>());
        let mut got = Vec::new();
        ix.pairs(&mut got);
        prop_assert_eq!(&got, &want_pairs, "{} pairs", name);
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for area in areas {
            reference.query_aabb(area, &mut want);
            ix.query_aabb(area, &mut got);
            prop_assert_eq!(&got, &want, "{} query {:?}", name, area);
        }
        let (mut want_batch, mut got_batch) = (Vec::new(), Vec::new());
        reference.query_aabbs(areas, &mut want_batch);
        ix.query_aabbs(areas, &mut got_batch);
        prop_assert_eq!(&got_batch, &want_batch, "{} batch query", name);
        // The same batch as pairs with made-up outside ids (one id short: the last area is
        // left out).
        let outside: Vec<ProxyId> = (0..areas.len() as u64 - 1).map(|i| ProxyId::from_bits(i * 7 + 3)).collect();
        let (mut want_with, mut got_with) = (
            Vec::new(),
            vec![(outside[..].first().copied().unwrap_or(ProxyId::from_bits(0)), ProxyId::from_bits(1)); 5],
        );
        reference.pairs_with(&outside, areas, &mut want_with);
        ix.pairs_with(&outside, areas, &mut got_with);
        prop_assert_eq!(&got_with, &want_with, "{} pairs with", name);
        let expected: Vec<(ProxyId, ProxyId)> =
            want_batch.iter().filter(|&&(i, _)| i < outside.len()).map(|&(i, id)| (outside[i], id)).collect();
        prop_assert_eq!(&want_with, &expected, "brute pairs with");
        for &(x, y) in points {
            reference.query_point(vec2(x, y), &mut want).unwrap();
            ix.query_point(vec2(x, y), &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{} point", name);
        }
        let (mut want_hits, mut got_hits) = (Vec::new(), Vec::new());
        for r in rays {
            let (a, _) = reference.raycast(r, &mut filter);
            let (b, _) = ix.raycast(r, &mut filter);
            prop_assert_eq!(b, a, "{} first hit {:?}", name, r);
            let (a, _) = reference.raycast(r, &mut |_| true);
            let (b, _) = ix.raycast(r, &mut |_| true);
            prop_assert_eq!(b, a, "{} unfiltered first hit {:?}", name, r);
            reference.raycast_all(r, &mut filter, &mut want_hits);
            ix.raycast_all(r, &mut filter, &mut got_hits);
            prop_assert_eq!(&got_hits, &want_hits, "{} all hits {:?}", name, r);
        }
        let mut got_near = Vec::new();
        for (p, k, max, expect) in &want_near {
            ix.k_nearest(*p, *k, *max, &mut filter, &mut got_near).unwrap();
            prop_assert_eq!(&got_near, expect, "{} k-nearest {:?} k {} max {}", name, p, k, max);
            let (first, _) = ix.nearest(*p, *max, &mut filter).unwrap();
            prop_assert_eq!(
                first,
                sorted_nearest(&reference, *p, 1, *max, filter).first().copied(),
                "{} nearest",
                name
            );
        }
        let mut got_casts = Vec::new();
        for (moving, motion, expect) in &want_casts {
            ix.cast_aabb_all(moving, *motion, &mut filter, &mut got_casts).unwrap();
            prop_assert_eq!(&got_casts, expect, "{} cast all {:?} by {:?}", name, moving, motion);
            let (first, _) = ix.cast_aabb(moving, *motion, &mut filter).unwrap();
            prop_assert_eq!(first, expect.first().copied(), "{} first cast hit {:?} by {:?}", name, moving, motion);
            let (unfiltered, _) = ix.cast_aabb(moving, *motion, &mut |_| true).unwrap();
            let all = swept_hits(&mut reference, moving, *motion, |_| true);
            prop_assert_eq!(unfiltered, all.first().copied(), "{} unfiltered first cast hit", name);
        }
    }
    Ok(())
}

proptest! {
    // The long run: `cargo test --release -p lore-broadphase -- --ignored`.
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long run, release mode: cargo test --release -p lore-broadphase -- --ignored"]
    fn every_index_answers_like_brute_force_long(
        ops in prop::collection::vec(op(), 0..300),
        areas in prop::collection::vec(aabb(), 1..6),
        points in prop::collection::vec((coord(), coord()), 1..6),
        rays in prop::collection::vec(ray(), 1..8),
    ) {
        check_scene(&ops, &areas, &points, &rays)?;
    }
}

proptest! {
    // The long run of the nearest and cast queries (fewer cases: each case checks every index
    // against two plain sorts).
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long run, release mode: cargo test --release -p lore-broadphase -- --ignored"]
    fn nearest_and_casts_answer_like_brute_force_long(
        ops in prop::collection::vec(op(), 0..300),
        area in aabb(),
        points in prop::collection::vec((coord(), coord()), 1..6),
        near in prop::collection::vec(nearest_args(), 1..4),
        casts in prop::collection::vec(cast(), 1..6),
    ) {
        check_scene_with(&ops, &[area], &points, &[], &near, &casts)?;
    }
}

/// Coordinates over the whole supported range: near the origin, past the hash's cell range
/// (cell coordinates saturate beyond ±2^31 cells: ±3e9 at cell 1.5 covers them all) and at the
/// edge (±`Aabb::LIMIT`).
fn wide_coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -25.0f32..25.0,
        1 => prop::sample::select(vec![-Aabb::LIMIT, Aabb::LIMIT, -3.0e9, 3.0e9, -0.99 * Aabb::LIMIT, 0.0]),
        1 => -Aabb::LIMIT..Aabb::LIMIT,
    ]
}

/// Boxes with corners anywhere in the range, boxes covering every cell of the tests' hashes
/// (past ±2^31 cells of 1.5 on both axes) and small boxes at the edge of the range.
fn wide_aabb() -> impl Strategy<Value = Aabb> {
    let limit = Aabb::LIMIT;
    prop_oneof![
        (wide_coord(), wide_coord(), wide_coord(), wide_coord()).prop_map(|(a, b, c, d)| Aabb::new(
            vec2(a.min(c), b.min(d)),
            vec2(a.max(c), b.max(d))
        )
        .unwrap()),
        (-limit..-3.3e9f32, -limit..-3.3e9f32, 3.3e9f32..limit, 3.3e9f32..limit).prop_map(|(a, b, c, d)| Aabb::new(
            vec2(a, b),
            vec2(c, d)
        )
        .unwrap()),
        (prop::sample::select(vec![-limit, limit]), -limit..limit, 0.0f32..1e16).prop_map(move |(x, y, w)| {
            let (x, y) = (x.min(limit - w), y.min(limit - w));
            Aabb::new(vec2(x, y), vec2((x + w).min(limit), (y + w).min(limit))).unwrap()
        }),
    ]
}

fn wide_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => aabb().prop_map(Op::Insert),
        2 => wide_aabb().prop_map(Op::Insert),
        1 => any::<usize>().prop_map(Op::Remove),
        3 => (any::<usize>(), prop_oneof![aabb(), wide_aabb()]).prop_map(|(k, b)| Op::Update(k, b)),
        1 => Just(Op::Rebuild),
    ]
}

proptest! {
    // The long run over the whole range: `cargo test --release -p lore-broadphase -- --ignored`.
    #![proptest_config(ProptestConfig { cases: 5_000, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long run, release mode: cargo test --release -p lore-broadphase -- --ignored"]
    fn boxes_and_areas_over_the_whole_range_answer_like_brute_force_long(
        ops in prop::collection::vec(wide_op(), 0..200),
        areas in prop::collection::vec(prop_oneof![aabb(), wide_aabb()], 1..6),
        points in prop::collection::vec((wide_coord(), wide_coord()), 1..6),
        rays in prop::collection::vec(ray(), 1..6),
    ) {
        check_scene(&ops, &areas, &points, &rays)?;
    }
}

proptest! {
    // Boxes and query areas covering every cell of a hash (whose cell-count product used to
    // overflow: a panic in debug, a walk of 2^64 cells in release) or lying at the edge of the
    // range, mixed with ordinary ones.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn boxes_and_areas_over_the_whole_range_answer_like_brute_force(
        ops in prop::collection::vec(wide_op(), 0..80),
        areas in prop::collection::vec(prop_oneof![aabb(), wide_aabb()], 1..6),
        points in prop::collection::vec((wide_coord(), wide_coord()), 1..6),
        rays in prop::collection::vec(ray(), 1..6),
    ) {
        check_scene(&ops, &areas, &points, &rays)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_index_answers_like_brute_force(
        ops in prop::collection::vec(op(), 0..120),
        areas in prop::collection::vec(aabb(), 1..6),
        points in prop::collection::vec((coord(), coord()), 1..6),
        rays in prop::collection::vec(ray(), 1..8),
    ) {
        check_scene(&ops, &areas, &points, &rays)?;
    }

    /// k-nearest equals a brute-force sort by distance; a cast equals brute force over the
    /// swept area; in every index, first answers and all answers.
    #[test]
    fn nearest_and_casts_answer_like_brute_force(
        ops in prop::collection::vec(op(), 0..120),
        area in aabb(),
        points in prop::collection::vec((coord(), coord()), 1..6),
        near in prop::collection::vec(nearest_args(), 1..4),
        casts in prop::collection::vec(cast(), 1..6),
    ) {
        check_scene_with(&ops, &[area], &points, &[], &near, &casts)?;
    }
}

#[test]
fn pair_order_and_uniqueness() {
    // A dense clump: every pair overlaps, each must come once, sorted.
    let (mut reference, mut others) = build(
        &(0..30)
            .map(|i| Op::Insert(Aabb::from_center(vec2(i as f32 * 0.01, 0.0), Vec2::ONE).unwrap()))
            .collect::<Vec<_>>(),
    );
    let mut want = Vec::new();
    reference.pairs(&mut want);
    assert_eq!(want.len(), 30 * 29 / 2);
    assert!(want.windows(2).all(|w| w[0] < w[1]) && want.iter().all(|(a, b)| a < b));
    for ix in &mut others {
        let mut got = Vec::new();
        ix.pairs(&mut got);
        assert_eq!(got, want, "{}", ix.name());
    }
}

/// Rays that run exactly along cell lines, through cell corners and along tile edges (the
/// tiles' edges lie on the cell lines), starting on them, and the same scene far from the
/// origin: the grid and the hash walk their cells with a margin of a few units in the last
/// place, and every first hit and every list of hits must still be brute force's.
#[test]
fn rays_along_cell_lines_and_through_corners_find_what_brute_force_finds() {
    for base in [0.0f32, -40.0, 1.0e4, 1.0e6] {
        let pitch = 1.25;
        let corner = Vec2::splat(base);
        let mut reference = BruteForce::new();
        let mut others: Vec<Box<dyn SpatialIndex>> = vec![
            Box::new(Grid::new(corner - Vec2::splat(2.5), pitch, 24, 24).unwrap()),
            Box::new(Grid::new(corner, pitch, 20, 20).unwrap()),
            Box::new(SpatialHash::new(pitch).unwrap()),
        ];
        // Unit tiles on the lattice, then a few tiles of the full pitch (touching neighbours)
        // and points on cell corners.
        let mut boxes = Vec::new();
        for y in 0..20 {
            for x in 0..20 {
                let min = corner + vec2(x as f32, y as f32) * pitch;
                let side = if (x * 7 + y * 3) % 11 == 0 { pitch } else { 1.0 };
                if (x + 2 * y) % 3 != 0 {
                    boxes.push(Aabb::new(min, min + Vec2::splat(side)).unwrap());
                }
            }
        }
        boxes.extend((0..6).map(|k| Aabb::point(corner + vec2(k as f32 * 3.0, k as f32 * 2.0) * pitch).unwrap()));
        for b in &boxes {
            let id = reference.insert(*b).unwrap();
            for ix in &mut others {
                assert_eq!(ix.insert(*b).unwrap(), id);
            }
        }
        let dirs = [
            Vec2::X,
            Vec2::NEG_X,
            Vec2::Y,
            Vec2::NEG_Y,
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
            vec2(1.0, -1.0),
            vec2(2.0, 1.0),
            vec2(1.0, -2.0),
            vec2(1.0, 1.0e-3),
            vec2(-1.0e-3, 1.0),
        ];
        let mut rays = 0;
        let mut found = 0;
        for i in -1..22 {
            for j in [-1, 0, 3, 9, 20] {
                // On a cell corner, on a cell line beside a tile's edge, and inside a cell.
                for off in [vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.625, 1.0), vec2(0.0, 0.4)] {
                    let o = corner + vec2(i as f32, j as f32) * pitch + off;
                    for d in dirs {
                        for len in [f32::INFINITY, 3.0 * pitch, 0.0] {
                            let r = Ray::new(o, d, len).unwrap();
                            rays += 1;
                            let (want, _) = reference.raycast(&r, &mut |_| true);
                            let (mut want_all, mut got_all) = (Vec::new(), Vec::new());
                            reference.raycast_all(&r, &mut filter, &mut want_all);
                            found += usize::from(want.is_some());
                            for ix in &mut others {
                                let (got, _) = ix.raycast(&r, &mut |_| true);
                                assert_eq!(got, want, "{} base {base}: {r:?}", ix.name());
                                ix.raycast_all(&r, &mut filter, &mut got_all);
                                assert_eq!(got_all, want_all, "{} base {base}: all hits of {r:?}", ix.name());
                            }
                        }
                    }
                }
            }
        }
        // Most rays hit something: the comparisons above are not of empty answers.
        assert!(found * 2 > rays, "base {base}: {found} of {rays} rays hit");
        // Rays aimed at tile corners from afar, at every angle: where rounding decides which
        // side of a cell line a computed point falls on.
        let mut rng = Pcg64::seed_from_u64(u64::from(base.to_bits()));
        let mut rand = move || rng.random::<f32>();
        for _ in 0..4000 {
            let target = corner + vec2((rand() * 20.0).floor(), (rand() * 20.0).floor()) * pitch;
            let from = target + Vec2::from_angle(rand() * core::f32::consts::TAU) * (5.0 + rand() * 40.0);
            let Ok(r) = Ray::new(from, target - from, f32::INFINITY) else { continue };
            let (want, _) = reference.raycast(&r, &mut |_| true);
            for ix in &mut others {
                let (got, _) = ix.raycast(&r, &mut |_| true);
                assert_eq!(got, want, "{} base {base}: {r:?}", ix.name());
            }
        }
    }
}

#[test]
fn non_finite_input_is_an_error_everywhere() {
    for mut ix in indexes() {
        let id = ix.insert(Aabb::point(Vec2::ZERO).unwrap()).unwrap();
        let mut out = Vec::new();
        assert!(ix.query_point(vec2(f32::NAN, 0.0), &mut out).is_err());
        assert!(ix.query_point(vec2(0.0, f32::INFINITY), &mut out).is_err());
        ix.remove(id).unwrap();
        assert!(ix.update(id, Aabb::point(Vec2::ONE).unwrap()).is_err(), "{}: stale update", ix.name());
        let again = ix.insert(Aabb::point(Vec2::ONE).unwrap()).unwrap();
        assert_eq!(again.index(), id.index());
        assert_ne!(again, id);
        assert!(!ix.is_empty() && ix.aabb(id).is_none());
        ix.clear();
        assert!(ix.is_empty() && ix.aabb(again).is_none());
    }
}

#[test]
fn readme_example_runs() -> Result<(), lore_broadphase::Error> {
    let mut hash = SpatialHash::new(2.0)?;
    let a = hash.insert(Aabb::from_center(vec2(0.0, 0.0), vec2(1.0, 1.0))?)?;
    let b = hash.insert(Aabb::from_center(vec2(1.5, 0.0), vec2(1.0, 1.0))?)?;
    let mut pairs = Vec::new();
    hash.pairs(&mut pairs);
    assert_eq!(pairs, [(a, b)]);
    Ok(())
}

/// `World::pairs` against the brute-force answer: mover×mover pairs and (mover, static) pairs.
fn check_world<S: SpatialIndex, M: SpatialIndex>(
    mut world: World<S, M>,
    statics: &[Aabb],
    movers: &[Aabb],
) -> Result<(), TestCaseError> {
    let st: Vec<ProxyId> = statics.iter().map(|a| world.statics_mut().insert(*a).unwrap()).collect();
    let mv: Vec<ProxyId> = movers.iter().map(|a| world.movers_mut().insert(*a).unwrap()).collect();
    let (mut want_moving, mut want_mixed) = (Vec::new(), Vec::new());
    for (i, a) in movers.iter().enumerate() {
        for (j, b) in movers.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) {
                want_moving.push((mv[i], mv[j]));
            }
        }
        for (j, b) in statics.iter().enumerate() {
            if a.overlaps(b) {
                want_mixed.push((mv[i], st[j]));
            }
        }
    }
    let (mut moving, mut mixed) = (Vec::new(), Vec::new());
    world.pairs(&mut moving, &mut mixed);
    prop_assert_eq!(moving, want_moving, "{} moving", world.movers().name());
    prop_assert_eq!(mixed, want_mixed, "{} statics", world.statics().name());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn world_pairs_are_the_brute_force_pairs(
        statics in prop::collection::vec(aabb(), 0..80),
        movers in prop::collection::vec(aabb(), 0..40),
    ) {
        check_world(World::new(Grid::new(vec2(-16.0, -16.0), 2.0, 16, 16).unwrap(), Grid::new(vec2(-40.0, -40.0), 3.0, 30, 30).unwrap()), &statics, &movers)?;
        check_world(World::new(SpatialHash::new(1.5).unwrap(), Tree::new()), &statics, &movers)?;
        check_world(World::new(Tree::with_margin(0.0).unwrap(), Sweep::new(Axis::X)), &statics, &movers)?;
        check_world(World::new(Sweep::new(Axis::Y), SpatialHash::with_table_size(3.0, 13).unwrap()), &statics, &movers)?;
    }
}

/// One frame's change to the moving boxes of [`world_frames`].
#[derive(Clone, Debug)]
enum MoverOp {
    Move(usize, Aabb),
    Remove(usize),
    Insert(Aabb),
}

fn mover_op() -> impl Strategy<Value = MoverOp> {
    prop_oneof![
        6 => (any::<usize>(), aabb()).prop_map(|(k, b)| MoverOp::Move(k, b)),
        1 => any::<usize>().prop_map(MoverOp::Remove),
        2 => aabb().prop_map(MoverOp::Insert),
    ]
}

/// A static level of tiles, each inside one cell of a 1.25 lattice (jittered, inserted in the
/// given order, some removed and others added again), plus a few arbitrary static boxes.
fn tiles() -> impl Strategy<Value = (Vec<Aabb>, Vec<usize>, Vec<Aabb>)> {
    let tile = (0..32i32, 0..32i32, 0.0f32..0.2, 0.0f32..1.0, 0.0f32..1.0).prop_map(|(x, y, d, w, h)| {
        let min = vec2(x as f32, y as f32) * 1.25 - Vec2::splat(20.0) + Vec2::splat(d);
        Aabb::new(min, min + vec2(w, h)).unwrap()
    });
    let extra = prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(aabb(), 1..4)];
    (prop::collection::vec(tile, 0..120), prop::collection::vec(any::<usize>(), 0..10), extra)
}

/// `World<Grid, Grid>` (the static grid on the tiles' lattice) against `World<BruteForce,
/// BruteForce>` over several frames of moves, removals and inserts: the (mover, static) pairs
/// of the grid's single-cell batch path, its general path (once an arbitrary static box is
/// added) and the moving pairs, with reused ids.
fn world_frames(
    statics: &(Vec<Aabb>, Vec<usize>, Vec<Aabb>),
    movers: &[Aabb],
    frames: &[Vec<MoverOp>],
) -> Result<(), TestCaseError> {
    let (tiles, removals, extra) = statics;
    let mut grid = World::new(
        Grid::new(vec2(-20.0, -20.0), 1.25, 32, 32).unwrap(),
        Grid::new(vec2(-40.0, -40.0), 3.0, 30, 30).unwrap(),
    );
    let mut brute = World::new(BruteForce::new(), BruteForce::new());
    let mut st = Vec::new();
    for t in tiles {
        let id = grid.statics_mut().insert(*t).unwrap();
        prop_assert_eq!(brute.statics_mut().insert(*t).unwrap(), id);
        st.push(id);
    }
    for &k in removals {
        if st.is_empty() {
            break;
        }
        let id = st.swap_remove(k % st.len());
        grid.statics_mut().remove(id).unwrap();
        brute.statics_mut().remove(id).unwrap();
    }
    // Tiles added back into the freed slots (new generations).
    for t in tiles.iter().take(removals.len() / 2) {
        prop_assert_eq!(grid.statics_mut().insert(*t).unwrap(), brute.statics_mut().insert(*t).unwrap());
    }
    let mut mv = Vec::new();
    for m in movers {
        let id = grid.movers_mut().insert(*m).unwrap();
        prop_assert_eq!(brute.movers_mut().insert(*m).unwrap(), id);
        mv.push(id);
    }
    let (mut gm, mut gx, mut bm, mut bx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (f, ops) in frames.iter().enumerate() {
        if f == frames.len() / 2 {
            // Arbitrary static boxes (far, huge, spanning cells) end the single-cell case.
            for e in extra {
                prop_assert_eq!(grid.statics_mut().insert(*e).unwrap(), brute.statics_mut().insert(*e).unwrap());
            }
        }
        for op in ops {
            match op {
                MoverOp::Move(k, b) if !mv.is_empty() => {
                    let id = mv[k % mv.len()];
                    grid.movers_mut().update(id, *b).unwrap();
                    brute.movers_mut().update(id, *b).unwrap();
                }
                MoverOp::Remove(k) if !mv.is_empty() => {
                    let id = mv.swap_remove(k % mv.len());
                    grid.movers_mut().remove(id).unwrap();
                    brute.movers_mut().remove(id).unwrap();
                }
                MoverOp::Insert(b) => {
                    let id = grid.movers_mut().insert(*b).unwrap();
                    prop_assert_eq!(brute.movers_mut().insert(*b).unwrap(), id);
                    mv.push(id);
                }
                _ => {}
            }
        }
        let gs = grid.pairs(&mut gm, &mut gx);
        brute.pairs(&mut bm, &mut bx);
        prop_assert_eq!(&gm, &bm, "frame {} moving pairs", f);
        prop_assert_eq!(&gx, &bx, "frame {} mixed pairs", f);
        prop_assert!(gs.hits as usize >= gx.len());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_tile_world_of_grids_pairs_like_brute_force(
        statics in tiles(),
        movers in prop::collection::vec(aabb(), 0..40),
        frames in prop::collection::vec(prop::collection::vec(mover_op(), 0..12), 1..6),
    ) {
        world_frames(&statics, &movers, &frames)?;
    }
}

proptest! {
    // The long run: `cargo test --release -p lore-broadphase -- --ignored`.
    #![proptest_config(ProptestConfig { cases: 5_000, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long run, release mode: cargo test --release -p lore-broadphase -- --ignored"]
    fn a_tile_world_of_grids_pairs_like_brute_force_long(
        statics in tiles(),
        movers in prop::collection::vec(aabb(), 0..80),
        frames in prop::collection::vec(prop::collection::vec(mover_op(), 0..20), 1..8),
    ) {
        world_frames(&statics, &movers, &frames)?;
    }
}

/// A world too big for the cache (40k boxes: the grid and the hash prefetch the boxes of the
/// buckets ahead there), moving for a few frames: every index pairs like the sweep, sorted
/// and unsorted.
#[test]
fn forty_thousand_moving_boxes_pair_alike_everywhere() {
    let n = 40_000;
    let side = (9.5 * n as f32).sqrt();
    let mut rng = Pcg64::seed_from_u64(40);
    let mut boxes: Vec<(Vec2, Vec2, Vec2)> = (0..n)
        .map(|_| {
            let c = vec2(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let h = vec2(rng.random_range(0.5..2.0), rng.random_range(0.5..2.0));
            let v = vec2(rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5));
            (c, h, v)
        })
        .collect();
    let area = Aabb::new(Vec2::splat(-2.0), Vec2::splat(side + 2.0)).unwrap();
    let mut reference = Sweep::new(Axis::X);
    let mut others: Vec<Box<dyn SpatialIndex>> = vec![
        Box::new(Grid::covering(area, 4.0).unwrap()),
        Box::new(SpatialHash::new(4.0).unwrap()),
        Box::new(Tree::new()),
    ];
    for &(c, h, _) in &boxes {
        let b = Aabb::from_center(c, h).unwrap();
        let id = reference.insert(b).unwrap();
        for ix in &mut others {
            assert_eq!(ix.insert(b).unwrap(), id);
        }
    }
    let ids = reference.ids();
    let (mut want, mut got) = (Vec::new(), Vec::new());
    for frame in 0..4 {
        reference.pairs(&mut want);
        assert!(want.len() > n, "frame {frame}: only {} pairs", want.len());
        for ix in &mut others {
            ix.pairs(&mut got);
            assert_eq!(got, want, "{} pairs, frame {frame}", ix.name());
            ix.pairs_unsorted(&mut got);
            assert_eq!(sorted(&got), want, "{} unsorted pairs, frame {frame}", ix.name());
        }
        for (&id, (c, h, v)) in ids.iter().zip(&mut boxes) {
            *c += *v;
            let b = Aabb::from_center(*c, *h).unwrap();
            reference.update(id, b).unwrap();
            for ix in &mut others {
                ix.update(id, b).unwrap();
            }
        }
    }
}
