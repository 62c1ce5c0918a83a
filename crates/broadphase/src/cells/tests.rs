use super::grid::GridMap;
use super::hash::PRIMES;
use super::lists::Cells;
use super::map::{CellMap, cells_in, floor_i32};
use super::{Grid, SpatialHash};
use crate::id::ProxyId;
use crate::index::SpatialIndex;
use alloc::vec::Vec;
use glam::{Vec2, vec2};
use lore_geom::{Aabb, Ray};

#[test]
fn floor_is_monotone_and_saturates() {
    assert_eq!(floor_i32(-3.5), -4);
    assert_eq!(floor_i32(-3.0), -3);
    assert_eq!(floor_i32(2.9), 2);
    assert_eq!(floor_i32(1e30), i32::MAX);
    assert_eq!(floor_i32(-1e30), i32::MIN);
}

#[test]
fn fast_grid_coordinates_match_floor_then_clamp() {
    let map = GridMap::new(vec2(-3.25, 7.5), 1.25, 40, 17);
    assert!(map.exact);
    let slow = |v: f32, axis: usize| {
        let (lo, hi) = map.limits(axis);
        floor_i32((v - map.origin[axis]) * map.inv).clamp(lo, hi)
    };
    let mut v = -80.0f32;
    while v < 80.0 {
        for axis in 0..2 {
            assert_eq!(map.coord(v, axis), slow(v, axis), "v = {v}, axis {axis}");
        }
        let b = Aabb::new(vec2(v, v * 0.5), vec2(v + 3.0, v * 0.5 + 1.0)).unwrap();
        assert_eq!(map.range(&b), [slow(b.min().x, 0), slow(b.min().y, 1), slow(b.max().x, 0), slow(b.max().y, 1)]);
        v += 0.0625;
    }
    for v in [-1e18, 1e18, -0.0, 0.0, f32::NAN] {
        assert_eq!(map.coord(v, 0), slow(v, 0));
    }
    // Past 2^24 cells on an axis the float clamp would round: the slow path is kept.
    assert!(!GridMap::new(Vec2::ZERO, 1.0, (1 << 24) + 3, 1).exact);
}

#[test]
fn a_very_wide_grid_gives_the_brute_force_pairs() {
    let mut g = Grid::new(Vec2::ZERO, 1.0, (1 << 24) + 3, 1).unwrap();
    let mut brute = crate::BruteForce::default();
    for x in [0.0f32, 0.5, 16_777_215.5, 16_777_216.0, 16_777_217.5, 3e7] {
        let b = Aabb::new(vec2(x, 0.25), vec2(x + 1.0, 1.5)).unwrap();
        g.insert(b).unwrap();
        brute.insert(b).unwrap();
    }
    let (mut want, mut got) = (Vec::new(), Vec::new());
    brute.pairs(&mut want);
    g.pairs(&mut got);
    assert_eq!(got, want);
    assert!(!want.is_empty());
}

#[test]
fn a_sparse_grid_pairs_without_its_bucket_table_and_queries_rebuild_it() {
    let mut g = Grid::new(vec2(-50.0, -50.0), 1.0, 400, 400).unwrap();
    let mut brute = crate::BruteForce::default();
    let mut ids = Vec::new();
    for i in 0..60 {
        let (x, y) = ((i * 37 % 97) as f32, (i * 53 % 89) as f32 * 0.5);
        let b = Aabb::new(vec2(x, y), vec2(x + 1.5 + (i % 3) as f32, y + 2.0)).unwrap();
        ids.push((g.insert(b).unwrap(), brute.insert(b).unwrap()));
    }
    let (mut want, mut got) = (Vec::new(), Vec::new());
    for frame in 0..4 {
        brute.pairs(&mut want);
        g.pairs(&mut got);
        assert_eq!(got, want, "frame {frame}");
        // 160,000 cells for about 200 entries: `pairs` builds sparsely.
        assert!(!g.0.is_dense());
        let area = Aabb::new(vec2(10.0, 5.0), vec2(40.0, 30.0)).unwrap();
        let (mut want_q, mut got_q) = (Vec::new(), Vec::new());
        brute.query_aabb(&area, &mut want_q);
        g.query_aabb(&area, &mut got_q);
        assert_eq!(got_q, want_q);
        assert!(!want_q.is_empty());
        assert!(g.0.is_dense());
        for (k, &(gi, bi)) in ids.iter().enumerate() {
            let b = g.aabb(gi).unwrap();
            let d = vec2(((k + frame) % 5) as f32 * 0.3 - 0.6, 0.25);
            let moved = Aabb::new(b.min() + d, b.max() + d).unwrap();
            g.update(gi, moved).unwrap();
            brute.update(bi, moved).unwrap();
        }
    }
    // A big box sends `pairs` back to the dense build (it pairs through box queries).
    let huge = Aabb::new(vec2(0.0, 0.0), vec2(60.0, 60.0)).unwrap();
    g.insert(huge).unwrap();
    brute.insert(huge).unwrap();
    brute.pairs(&mut want);
    g.pairs(&mut got);
    assert_eq!(got, want);
    assert!(g.0.is_dense());
    assert!(g.0.counts.iter().all(|&c| c == 0));
}

/// A moving scene driven for `frames` frames against brute force: small moves (a box
/// crosses a cell line now and then), a few inserts and removals, queries and rays
/// between some `pairs` calls. Returns how many `pairs` calls patched the lists.
fn drive_patched<I: SpatialIndex, M: CellMap>(index: &mut I, cells: fn(&I) -> &Cells<M>, frames: usize) -> usize {
    let mut brute = crate::BruteForce::default();
    let mut rand = crate::xorshift_unit(0x2545_f491_4f6c_dd1d);
    let mut ids = Vec::new();
    let mut boxes = Vec::new();
    for _ in 0..300 {
        let (c, h) = (vec2(rand() * 60.0, rand() * 60.0), vec2(0.2 + rand() * 1.5, 0.2 + rand() * 1.5));
        let b = Aabb::from_center(c, h).unwrap();
        ids.push((index.insert(b).unwrap(), brute.insert(b).unwrap()));
        boxes.push(b);
    }
    let (mut want, mut got, mut patched, mut answered) = (Vec::new(), Vec::new(), 0, 0);
    for frame in 0..frames {
        for (k, b) in boxes.iter_mut().enumerate() {
            // Every box drifts; one in eight of them towards a pile at (30, 30), so some
            // buckets outgrow their room.
            let d = if k % 8 == 0 {
                (vec2(30.0, 30.0) - b.center()).clamp_length_max(0.3)
            } else {
                vec2(rand() - 0.5, rand() - 0.5) * 0.4
            };
            *b = Aabb::new(b.min() + d, b.max() + d).unwrap();
            index.update(ids[k].0, *b).unwrap();
            brute.update(ids[k].1, *b).unwrap();
        }
        if frame % 5 == 2 {
            let k = (rand() * ids.len() as f32) as usize % ids.len();
            let (a, b) = ids.swap_remove(k);
            boxes.swap_remove(k);
            assert_eq!(index.remove(a).unwrap(), brute.remove(b).unwrap());
            let nb = Aabb::from_center(vec2(rand() * 60.0, rand() * 60.0), vec2(0.5, 0.7)).unwrap();
            let id = index.insert(nb).unwrap();
            assert_eq!(id, brute.insert(nb).unwrap());
            ids.push((id, id));
            boxes.push(nb);
        }
        let before = cells(index).patches;
        brute.pairs(&mut want);
        index.pairs(&mut got);
        assert_eq!(got, want, "frame {frame}");
        patched += cells(index).patches - before;
        if frame % 3 == 0 {
            let area = Aabb::new(vec2(rand() * 50.0, rand() * 50.0), vec2(55.0, 58.0)).unwrap();
            let (mut want_q, mut got_q) = (Vec::new(), Vec::new());
            brute.query_aabb(&area, &mut want_q);
            index.query_aabb(&area, &mut got_q);
            assert_eq!(got_q, want_q, "frame {frame}: query");
            let ray = Ray::new(vec2(-1.0, rand() * 60.0), vec2(1.0, rand() - 0.5), f32::INFINITY).unwrap();
            let (mut want_r, mut got_r) = (Vec::new(), Vec::new());
            brute.raycast_all(&ray, &mut |_| true, &mut want_r);
            index.raycast_all(&ray, &mut |_| true, &mut got_r);
            assert_eq!(got_r, want_r, "frame {frame}: ray");
            let areas = [area, Aabb::from_center(vec2(rand() * 60.0, rand() * 60.0), vec2(3.0, 2.0)).unwrap()];
            let outside = [ProxyId::from_bits(7), ProxyId::from_bits(9)];
            let (mut want_w, mut got_w) = (Vec::new(), Vec::new());
            brute.pairs_with(&outside, &areas, &mut want_w);
            index.pairs_with(&outside, &areas, &mut got_w);
            assert_eq!(got_w, want_w, "frame {frame}: pairs with");
            answered += usize::from(!want_q.is_empty() && !want_r.is_empty() && !want_w.is_empty());
            // The queries read the patchable layout as it is, with no dense rebuild (from
            // the second `pairs` on: the first one, with no count of entries yet, builds
            // a grid sparsely).
            assert!(frame == 0 || (cells(index).is_patchable() && !cells(index).is_dense()), "frame {frame}");
        }
    }
    // Most query frames found something (the checks above compared real answers).
    assert!(answered > frames / 6, "{answered} query frames with answers");
    patched
}

#[test]
fn patched_lists_give_the_brute_force_answers() {
    let mut grid = Grid::new(Vec2::ZERO, 2.0, 32, 32).unwrap();
    let patched = drive_patched(&mut grid, |g| &g.0, 120);
    // Most frames patch; the rest build afresh (the first, and after the pile-up has moved
    // enough buckets to the end of the items).
    assert!(patched > 90, "{patched} patches");
    assert!(grid.0.is_patchable());
    let mut hash = SpatialHash::new(2.0).unwrap();
    let patched = drive_patched(&mut hash, |h| &h.0, 120);
    assert!(patched > 90, "{patched} patches");
}

#[test]
fn buckets_that_outgrow_their_room_move_and_a_drifting_crowd_is_built_again() {
    // A crowd drifting steadily to the right across a grid, wrapping around: every bucket
    // fills and empties in turn, full buckets move to the end of the items, and once the
    // items pass twice their built size a build tidies them up.
    let mut g = Grid::new(Vec2::ZERO, 4.0, 24, 24).unwrap();
    let mut brute = crate::BruteForce::default();
    let mut ids = Vec::new();
    for i in 0..500u32 {
        let c = vec2((i * 37 % 96) as f32 + 0.3, (i * 11 % 90) as f32 * 1.05);
        let b = Aabb::from_center(c, vec2(0.4 + (i % 5) as f32 * 0.3, 0.6)).unwrap();
        ids.push((g.insert(b).unwrap(), brute.insert(b).unwrap(), b));
    }
    let (mut want, mut got) = (Vec::new(), Vec::new());
    let (mut grew, mut built) = (false, 0);
    for frame in 0..500 {
        for (k, (a, b, aabb)) in ids.iter_mut().enumerate() {
            let mut d = vec2(0.05 + (k % 7) as f32 * 0.04, 0.0);
            if aabb.min().x > 92.0 {
                d.x -= 90.0;
            }
            *aabb = Aabb::new(aabb.min() + d, aabb.max() + d).unwrap();
            g.update(*a, *aabb).unwrap();
            brute.update(*b, *aabb).unwrap();
        }
        let patches = g.0.patches;
        g.pairs(&mut got);
        brute.pairs(&mut want);
        assert_eq!(got, want, "frame {frame}");
        grew |= g.0.items.len() > g.0.built_len;
        built += usize::from(g.0.patches == patches);
    }
    assert!(grew, "no bucket outgrew its room");
    assert!(g.0.outgrown > 0, "the items never outgrew twice their built size");
    assert!(built < 10, "{built} builds in 500 frames");
}

#[test]
fn table_sizes_are_prime() {
    for p in PRIMES {
        assert!((2..).take_while(|d| d * d <= p).all(|d| p % d != 0), "{p} is not prime");
    }
    assert!(PRIMES.windows(2).all(|w| w[1] > w[0]));
}

#[test]
fn bad_configs_are_refused() {
    assert!(Grid::new(Vec2::ZERO, 0.0, 4, 4).is_err());
    assert!(Grid::new(Vec2::ZERO, f32::NAN, 4, 4).is_err());
    assert!(Grid::new(Vec2::ZERO, 1.0, 0, 4).is_err());
    assert!(Grid::new(Vec2::ZERO, 1.0, 1 << 14, 1 << 14).is_err());
    assert!(SpatialHash::new(-1.0).is_err());
    assert!(SpatialHash::new(1e-45).is_err());
    assert!(SpatialHash::with_table_size(1.0, 0).is_err());
    assert!(SpatialHash::new(1.0).unwrap().set_table_factor(f32::NAN).is_err());
}

#[test]
fn each_bucket_lists_slots_ascending_and_big_boxes_stay_out() {
    let mut g = Grid::new(Vec2::ZERO, 1.0, 100, 100).unwrap();
    for i in 0..10 {
        g.insert(Aabb::new(vec2(i as f32 * 0.1, 0.0), vec2(2.0, 2.0)).unwrap()).unwrap();
    }
    let huge = g.insert(Aabb::new(vec2(-50.0, -50.0), vec2(500.0, 500.0)).unwrap()).unwrap();
    g.0.reindex();
    assert_eq!(g.0.big, [huge.index()]);
    let items = g.0.bucket_items(1, 1);
    assert_eq!(items.len(), 10);
    assert!(items.windows(2).all(|w| w[0].slot < w[1].slot));
    let mut pairs = Vec::new();
    g.pairs(&mut pairs);
    assert_eq!(pairs.len(), 45 + 10);
}

#[test]
fn a_range_over_every_cell_counts_past_every_bound() {
    // 2^32 × 2^32 cells: one more than a u64 holds (the product used to wrap to 0).
    assert_eq!(cells_in(&[i32::MIN, i32::MIN, i32::MAX, i32::MAX]), u64::MAX);
    assert_eq!(cells_in(&[i32::MIN, 7, i32::MAX, 7]), 1 << 32);
    assert_eq!(cells_in(&[-3, 2, -1, 5]), 12);
}

/// Every answer of `index` against brute force, for boxes at `at` and boxes and query areas
/// covering the whole cell range (through inserts, a move of the huge box in and out, and a
/// removal), so that the lists are built, patched and queried with them. Returns the number
/// of non-empty answers compared.
fn check_whole_range(index: &mut dyn SpatialIndex, at: Vec2, spread: f32) -> usize {
    let mut brute = crate::BruteForce::default();
    let whole = Aabb::new(vec2(-3e9, -3e9), vec2(3e9, 3e9)).unwrap();
    let edge = Aabb::new(Vec2::splat(-Aabb::LIMIT), Vec2::splat(Aabb::LIMIT)).unwrap();
    let mut ids = Vec::new();
    for k in 0..40 {
        let c = at + vec2((k % 7) as f32, (k / 7) as f32) * spread;
        let b = Aabb::from_center(c, Vec2::splat(0.6 * spread)).unwrap();
        ids.push(index.insert(b).unwrap());
        assert_eq!(brute.insert(b).unwrap(), *ids.last().unwrap());
    }
    let huge = index.insert(whole).unwrap();
    assert_eq!(brute.insert(whole).unwrap(), huge);
    let mut answers = 0;
    let (mut want, mut got) = (Vec::new(), Vec::new());
    let near = Aabb::from_center(at, Vec2::splat(2.0 * spread)).unwrap();
    let moves = [whole, near, edge, Aabb::from_center(at, Vec2::splat(0.1 * spread)).unwrap(), whole];
    for (frame, &b) in moves.iter().enumerate() {
        index.update(huge, b).unwrap();
        brute.update(huge, b).unwrap();
        index.update(ids[frame], b).unwrap();
        brute.update(ids[frame], b).unwrap();
        brute.pairs(&mut want);
        index.pairs(&mut got);
        assert_eq!(got, want, "{} frame {frame}: pairs", index.name());
        index.pairs_unsorted(&mut got);
        got.sort_unstable();
        assert_eq!(got, want, "{} frame {frame}: unsorted pairs", index.name());
        answers += usize::from(!want.is_empty());
        let areas = [whole, edge, near, Aabb::point(at).unwrap()];
        for area in &areas {
            let (mut want_q, mut got_q) = (Vec::new(), Vec::new());
            brute.query_aabb(area, &mut want_q);
            index.query_aabb(area, &mut got_q);
            assert_eq!(got_q, want_q, "{} frame {frame}: query {area:?}", index.name());
            answers += usize::from(!want_q.is_empty());
        }
        let (mut want_b, mut got_b) = (Vec::new(), Vec::new());
        brute.query_aabbs(&areas, &mut want_b);
        index.query_aabbs(&areas, &mut got_b);
        assert_eq!(got_b, want_b, "{} frame {frame}: batch", index.name());
        let outside = [ProxyId::from_bits(3), ProxyId::from_bits(5), ProxyId::from_bits(8), ProxyId::from_bits(13)];
        let (mut want_w, mut got_w) = (Vec::new(), Vec::new());
        brute.pairs_with(&outside, &areas, &mut want_w);
        index.pairs_with(&outside, &areas, &mut got_w);
        assert_eq!(got_w, want_w, "{} frame {frame}: pairs with", index.name());
        for dir in [vec2(1.0, 0.25), vec2(-1.0, 0.0), vec2(0.3, -1.0)] {
            let ray = Ray::new(at - dir * 5.0 * spread, dir, f32::INFINITY).unwrap();
            assert_eq!(index.raycast(&ray, &mut |_| true).0, brute.raycast(&ray, &mut |_| true).0);
            let (mut want_r, mut got_r) = (Vec::new(), Vec::new());
            brute.raycast_all(&ray, &mut |_| true, &mut want_r);
            index.raycast_all(&ray, &mut |_| true, &mut got_r);
            assert_eq!(got_r, want_r, "{} frame {frame}: ray {ray:?}", index.name());
            answers += usize::from(!want_r.is_empty());
        }
        let mut cells = 0;
        index.debug_view(&mut |_, _| cells += 1);
        // (A grid of 16 × 16 cells lists the huge box in each: at most 256 cells then.)
        assert!(cells <= 1024, "{} frame {frame}: {cells} cells shown", index.name());
    }
    let (a, b) = (index.remove(huge).unwrap(), brute.remove(huge).unwrap());
    assert_eq!(a, b);
    brute.pairs(&mut want);
    index.pairs(&mut got);
    assert_eq!(got, want, "{}: pairs after the removal", index.name());
    answers
}

#[test]
fn boxes_and_areas_over_the_whole_cell_range_answer_like_brute_force_at_the_origin_and_the_edge() {
    // Cell 1 and a ±3e9 box: the box and the areas cover every cell coordinate on both axes.
    // At the origin the small boxes sit on a lattice of cells; at the edge of the range
    // (within 1 % of `Aabb::LIMIT`) the cell coordinates saturate and every box shares one
    // cell with the others.
    for (at, spread) in
        [(Vec2::ZERO, 1.5), (Vec2::splat(0.99 * Aabb::LIMIT), 1e14), (vec2(-0.99 * Aabb::LIMIT, 0.0), 1e14)]
    {
        let indexes: [Box<dyn SpatialIndex>; 4] = [
            Box::new(SpatialHash::new(1.0).unwrap()),
            Box::new(SpatialHash::with_table_size(1.0, 13).unwrap()),
            Box::new(Grid::new(at - Vec2::splat(8.0 * spread), spread, 16, 16).unwrap()),
            Box::new(Grid::new(Vec2::splat(-Aabb::LIMIT), Aabb::LIMIT / 64.0, 128, 128).unwrap()),
        ];
        for mut index in indexes {
            let answers = check_whole_range(index.as_mut(), at, spread);
            assert!(answers > 20, "{} at {at}: {answers} non-empty answers", index.name());
        }
    }
}

/// The patch's moves on several threads leave exactly the lists one thread leaves (the same
/// items in the same places, the same buckets moved to the end in the same order), with many
/// boxes changing cells every frame and buckets filling up.
#[cfg(feature = "parallel")]
#[test]
fn moves_on_several_threads_leave_the_lists_of_one() {
    let n = 40_000u32;
    let side = (9.5 * n as f32).sqrt();
    let mut unit = crate::xorshift_unit(21);
    let mut centers: Vec<Vec2> = (0..n).map(|_| vec2(unit(), unit()) * side).collect();
    let vel: Vec<Vec2> = (0..n).map(|i| (vec2(unit(), unit()) - 0.5) * if i % 5 == 0 { 3.0 } else { 0.1 }).collect();
    let area = Aabb::new(vec2(-2.0, -2.0), Vec2::splat(side + 2.0)).unwrap();
    let box_of = |c: Vec2| Aabb::from_center(c, vec2(1.2, 0.9)).unwrap();
    let (mut grids, mut hashes) = (Vec::new(), Vec::new());
    for threads in [1, 2, 3] {
        let mut g = Grid::covering(area, 2.5).unwrap();
        let mut h = SpatialHash::new(2.5).unwrap();
        g.set_threads(threads).unwrap();
        h.set_threads(threads).unwrap();
        grids.push(g);
        hashes.push(h);
    }
    let mut ids = Vec::new();
    for &c in &centers {
        let id = grids[0].insert(box_of(c)).unwrap();
        for other in &mut grids[1..] {
            assert_eq!(other.insert(box_of(c)).unwrap(), id);
        }
        for h in &mut hashes {
            assert_eq!(h.insert(box_of(c)).unwrap(), id);
        }
        ids.push(id);
    }
    let mut pairs = Vec::new();
    for _ in 0..6 {
        for (c, v) in centers.iter_mut().zip(&vel) {
            *c = (*c + *v).clamp(Vec2::ZERO, Vec2::splat(side));
        }
        let boxes: Vec<Aabb> = centers.iter().map(|&c| box_of(c)).collect();
        for g in &mut grids {
            g.update_many(&ids, &boxes).unwrap();
            g.pairs(&mut pairs);
        }
        for h in &mut hashes {
            h.update_many(&ids, &boxes).unwrap();
            h.pairs(&mut pairs);
        }
        for (one, other) in [(&grids[0].0, &grids[1].0), (&grids[0].0, &grids[2].0)] {
            assert_same_lists(one, other);
        }
        for (one, other) in [(&hashes[0].0, &hashes[1].0), (&hashes[0].0, &hashes[2].0)] {
            assert_same_lists(one, other);
        }
    }
    for cells in [&grids[1].0.split_moves, &grids[2].0.split_moves, &hashes[1].0.split_moves] {
        assert!(cells.0 >= 4, "{cells:?}: the moves never split");
        assert!(cells.1 > 0, "{cells:?}: no move was left to the calling thread");
    }
    assert_eq!(grids[0].0.split_moves, (0, 0));
}

#[cfg(feature = "parallel")]
fn assert_same_lists<M: CellMap>(one: &Cells<M>, other: &Cells<M>) {
    assert_eq!(one.patches, other.patches);
    assert_eq!(one.region_list, other.region_list);
    assert_eq!(one.items.len(), other.items.len());
    for (&b, _) in one.region_list.iter().zip(0..) {
        let (r, q) = (one.regions[b as usize], other.regions[b as usize]);
        assert_eq!((r.start, r.len, r.cap), (q.start, q.len, q.cap), "bucket {b}");
        let (a, z) = (r.start as usize, (r.start + r.len) as usize);
        assert!(
            one.items[a..z]
                .iter()
                .zip(&other.items[a..z])
                .all(|(x, y)| x.slot == y.slot && x.first == y.first && x.cell == y.cell),
            "bucket {b}"
        );
    }
}
