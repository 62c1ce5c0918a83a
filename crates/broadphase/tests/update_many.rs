//! `update_many` and `update_many_with` move boxes exactly as `update` on each id in turn does
//! (an id listed twice ends at its last box), in any id order, and refuse a stale id or
//! slices of different lengths without moving anything. The big cases (34k ids) run the
//! grid's, the hash's and the sweep's split passes when the `parallel` feature is on.

use lore_broadphase::glam::vec2;
use lore_broadphase::{Aabb, Axis, BruteForce, Error, Grid, ProxyId, SpatialHash, SpatialIndex, Sweep, Tree};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The indexes (brute force only for small sets: its pairs are quadratic).
fn indexes(n: usize) -> Vec<Box<dyn SpatialIndex>> {
    let mut all: Vec<Box<dyn SpatialIndex>> = vec![
        Box::new(Grid::new(vec2(-2.0, -2.0), 4.0, 160, 160).unwrap()),
        Box::new(SpatialHash::new(2.5).unwrap()),
        Box::new(Sweep::new(Axis::X)),
        Box::new(Tree::new()),
    ];
    if n <= 1000 {
        all.push(Box::new(BruteForce::new()));
    }
    all
}

fn random_box(rng: &mut Pcg64) -> Aabb {
    let c = vec2(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0));
    let h = vec2(rng.random_range(0.2..2.0), rng.random_range(0.2..2.0));
    Aabb::from_center(c, h).unwrap()
}

/// Every index's boxes, by id.
fn boxes_of(index: &dyn SpatialIndex, ids: &[ProxyId]) -> Vec<Option<Aabb>> {
    ids.iter().map(|&id| index.aabb(id)).collect()
}

/// `n` boxes in each index, then frames of moves through `update_many`, `update_many_with`
/// and `update` side by side: ids in order, shuffled, a subset, or with repeats.
fn batch_moves_match_single_updates(n: usize, seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let start: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng)).collect();
    for make in 0..indexes(n).len() {
        let (mut one, mut many, mut with) =
            (indexes(n).swap_remove(make), indexes(n).swap_remove(make), indexes(n).swap_remove(make));
        let name = one.name();
        let mut ids = Vec::new();
        for &b in &start {
            let id = one.insert(b).unwrap();
            assert_eq!(many.insert(b).unwrap(), id);
            assert_eq!(with.insert(b).unwrap(), id);
            ids.push(id);
        }
        // Some slots reused, so the ids carry generations.
        for &id in ids.iter().step_by(11) {
            for index in [&mut one, &mut many, &mut with] {
                index.remove(id).unwrap();
            }
        }
        for i in (0..n).step_by(11) {
            let id = one.insert(start[i]).unwrap();
            assert_eq!(many.insert(start[i]).unwrap(), id);
            assert_eq!(with.insert(start[i]).unwrap(), id);
            ids[i] = id;
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        for frame in 0..4 {
            let mut order: Vec<ProxyId> = ids.clone();
            match frame {
                0 => order.sort_unstable(),
                1 => order.shuffle(&mut rng),
                2 => order.truncate(n / 3),
                _ => {
                    // Repeats, far apart: the last box given wins.
                    let repeats: Vec<ProxyId> = order.iter().step_by(5).copied().collect();
                    order.extend(repeats);
                }
            }
            let boxes: Vec<Aabb> = order.iter().map(|_| random_box(&mut rng)).collect();
            for (&id, &b) in order.iter().zip(&boxes) {
                one.update(id, b).unwrap();
            }
            many.update_many(&order, &boxes).unwrap();
            let calls = AtomicUsize::new(0);
            with.update_many_with(&order, &|i| {
                calls.fetch_add(1, Ordering::Relaxed);
                boxes[i]
            })
            .unwrap();
            assert_eq!(calls.load(Ordering::Relaxed), order.len(), "{name}, frame {frame}: one call per id");
            let reference = boxes_of(&*one, &ids);
            assert!(boxes_of(&*many, &ids) == reference, "{name}, frame {frame}: update_many moved other boxes");
            assert!(boxes_of(&*with, &ids) == reference, "{name}, frame {frame}: update_many_with moved other boxes");
            if frame % 2 == 0 {
                continue;
            }
            one.pairs(&mut want);
            for index in [&mut many, &mut with] {
                index.pairs(&mut got);
                assert!(got == want, "{name}, frame {frame}: the pairs differ");
            }
        }
    }
}

#[test]
fn batch_moves_match_single_updates_small() {
    batch_moves_match_single_updates(300, 1);
}

#[test]
fn batch_moves_match_single_updates_big() {
    batch_moves_match_single_updates(34_000, 2);
}

#[test]
fn a_stale_id_or_a_length_mismatch_moves_nothing() {
    let mut rng = Pcg64::seed_from_u64(3);
    for n in [10, 34_000] {
        for mut index in indexes(n) {
            let name = index.name();
            let ids: Vec<ProxyId> = (0..n).map(|_| index.insert(random_box(&mut rng)).unwrap()).collect();
            let (gone, also_gone) = (ids[n / 2], ids[n - 1]);
            index.remove(gone).unwrap();
            index.remove(also_gone).unwrap();
            let before = boxes_of(&*index, &ids);
            let boxes: Vec<Aabb> = ids.iter().map(|_| random_box(&mut rng)).collect();
            // The first stale id in order is named, whatever thread checked it.
            let mut order = ids.clone();
            order.swap(n / 2, n - 1);
            assert_eq!(index.update_many(&ids, &boxes), Err(Error::StaleId(gone)), "{name}");
            assert_eq!(index.update_many(&order, &boxes), Err(Error::StaleId(also_gone)), "{name}");
            let calls = AtomicUsize::new(0);
            let result = index.update_many_with(&ids, &|i| {
                calls.fetch_add(1, Ordering::Relaxed);
                boxes[i]
            });
            assert_eq!(result, Err(Error::StaleId(gone)), "{name}");
            assert_eq!(calls.load(Ordering::Relaxed), 0, "{name}: boxes made for a refused move");
            assert!(matches!(index.update_many(&ids, &boxes[1..]), Err(Error::BadConfig(_))), "{name}");
            assert!(boxes_of(&*index, &ids) == before, "{name}: a refused move moved boxes");
            // Nothing to move is fine.
            index.update_many(&[], &[]).unwrap();
            index.update_many_with(&[], &|_| unreachable!()).unwrap();
        }
    }
}
