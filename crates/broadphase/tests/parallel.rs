//! `pairs` on several threads gives exactly what it gives on one: the same sorted pairs, and
//! for `pairs_unsorted` the same pairs in the same order, frame after frame of moving boxes
//! (moved box by box on one thread, with `update_many` and `update_many_with` on the others),
//! in scenes big enough that every index splits its work (40k boxes and more).
#![cfg(feature = "parallel")]

use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Axis, Error, Grid, ProxyId, SpatialHash, SpatialIndex, Sweep, Tree, World};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

/// Moving boxes in a square sized for about 2.8 overlaps per box (the bench's scene), or
/// gathered into blobs, or with one box in 200 huge.
#[derive(Clone)]
struct Scene {
    centers: Vec<Vec2>,
    halves: Vec<Vec2>,
    vel: Vec<Vec2>,
    side: f32,
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Uniform,
    Clustered,
    Mixed,
}

impl Scene {
    fn new(n: usize, seed: u64, shape: Shape) -> Self {
        let mut rng = Pcg64::seed_from_u64(seed);
        let side = (9.5 * n as f32).sqrt();
        let blobs: Vec<Vec2> =
            (0..n / 20 + 1).map(|_| vec2(rng.random_range(0.0..side), rng.random_range(0.0..side))).collect();
        let mut s = Scene { centers: Vec::new(), halves: Vec::new(), vel: Vec::new(), side };
        for i in 0..n {
            let c = match shape {
                Shape::Clustered => {
                    let blob = blobs[rng.random_range(0..blobs.len())];
                    (blob + vec2(rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0)))
                        .clamp(Vec2::ZERO, Vec2::splat(side))
                }
                _ => vec2(rng.random_range(0.0..side), rng.random_range(0.0..side)),
            };
            let h = if matches!(shape, Shape::Mixed) && i % 200 == 0 {
                vec2(rng.random_range(10.0..40.0), rng.random_range(10.0..40.0))
            } else {
                vec2(rng.random_range(0.5..2.0), rng.random_range(0.5..2.0))
            };
            s.centers.push(c);
            s.halves.push(h);
            // Some fast movers, so boxes change cells every frame.
            let speed = if i % 7 == 0 { 1.5 } else { 0.05 };
            s.vel.push(vec2(rng.random_range(-speed..speed), rng.random_range(-speed..speed)));
        }
        s
    }

    fn step(&mut self) {
        for (c, v) in self.centers.iter_mut().zip(&mut self.vel) {
            *c += *v;
            if c.x < 0.0 || c.x > self.side {
                v.x = -v.x;
            }
            if c.y < 0.0 || c.y > self.side {
                v.y = -v.y;
            }
        }
    }

    fn aabb(&self, i: usize) -> Aabb {
        Aabb::from_center(self.centers[i], self.halves[i]).unwrap()
    }

    fn area(&self) -> Aabb {
        Aabb::new(vec2(-2.0, -2.0), Vec2::splat(self.side + 2.0)).unwrap()
    }
}

/// The indexes that split their pair search, fresh, for `scene`.
fn indexes(scene: &Scene) -> Vec<Box<dyn SpatialIndex>> {
    vec![
        Box::new(Grid::covering(scene.area(), 4.0).unwrap()),
        Box::new(Grid::covering(scene.area(), 2.5).unwrap()),
        Box::new(SpatialHash::new(2.5).unwrap()),
        Box::new(Tree::new()),
        Box::new(Sweep::new(Axis::X)),
    ]
}

/// Runs `frames` frames of `scene` through each index on one thread and, beside it, on each
/// of `threads`: every frame's `pairs` (sorted) and `pairs_unsorted` (in order) must agree,
/// and sorted, the unsorted pairs must be the sorted ones. Removes and re-adds some boxes
/// along the way, so slots are reused.
fn same_on_every_thread_count(start: Scene, frames: usize, threads: &[usize]) {
    let n = start.centers.len();
    for make in 0..indexes(&start).len() {
        let mut scene = start.clone();
        let mut one = indexes(&scene).swap_remove(make);
        one.set_threads(1).unwrap();
        let mut many: Vec<Box<dyn SpatialIndex>> = threads
            .iter()
            .map(|&t| {
                let mut index = indexes(&scene).swap_remove(make);
                index.set_threads(t).unwrap();
                assert_eq!(index.threads(), t);
                index
            })
            .collect();
        let mut ids: Vec<ProxyId> = (0..n).map(|i| one.insert(scene.aabb(i)).unwrap()).collect();
        for index in &mut many {
            let theirs: Vec<ProxyId> = (0..n).map(|i| index.insert(scene.aabb(i)).unwrap()).collect();
            assert_eq!(theirs, ids);
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        let name = one.name();
        for frame in 0..frames {
            scene.step();
            // Every third frame, a few boxes leave and come back under new ids.
            let leaving: Vec<usize> = if frame % 3 == 2 { (frame..n).step_by(97).collect() } else { Vec::new() };
            // One thread moves box by box; the others, in turn, box by box, with
            // `update_many` and with `update_many_with`.
            let boxes: Vec<Aabb> = (0..n).map(|i| scene.aabb(i)).collect();
            for (i, &id) in ids.iter().enumerate() {
                one.update(id, boxes[i]).unwrap();
            }
            for index in &mut many {
                match frame % 3 {
                    0 => ids.iter().zip(&boxes).for_each(|(&id, &b)| index.update(id, b).unwrap()),
                    1 => index.update_many(&ids, &boxes).unwrap(),
                    _ => index.update_many_with(&ids, &|i| scene.aabb(i)).unwrap(),
                }
            }
            for index in std::iter::once(&mut one).chain(many.iter_mut()) {
                for &i in &leaving {
                    index.remove(ids[i]).unwrap();
                }
            }
            for &i in &leaving {
                let id = one.insert(scene.aabb(i)).unwrap();
                for index in &mut many {
                    assert_eq!(index.insert(scene.aabb(i)).unwrap(), id);
                }
                ids[i] = id;
            }
            let unsorted = frame % 2 == 1;
            let want_stats = if unsorted { one.pairs_unsorted(&mut want) } else { one.pairs(&mut want) };
            assert!(n < 1000 || want.len() > n / 2, "{name}: {} pairs of {n} boxes", want.len());
            for (index, &t) in many.iter_mut().zip(threads) {
                let stats = if unsorted { index.pairs_unsorted(&mut got) } else { index.pairs(&mut got) };
                assert!(got == want, "{name}, {t} threads, frame {frame} (unsorted: {unsorted}): pairs differ");
                assert_eq!(stats, want_stats, "{name}, {t} threads, frame {frame}");
            }
            if unsorted {
                want.sort_unstable();
                let mut sorted = Vec::new();
                one.pairs(&mut sorted);
                assert!(want == sorted, "{name}, frame {frame}: pairs_unsorted is not the set of pairs");
            }
        }
    }
}

#[test]
fn forty_thousand_moving_boxes_give_the_same_pairs_on_every_thread_count() {
    same_on_every_thread_count(Scene::new(40_000, 1, Shape::Uniform), 4, &[2, 3, 8]);
}

#[test]
fn clustered_and_mixed_scenes_give_the_same_pairs_on_every_thread_count() {
    same_on_every_thread_count(Scene::new(50_000, 2, Shape::Clustered), 3, &[2, 5]);
    same_on_every_thread_count(Scene::new(45_000, 3, Shape::Mixed), 3, &[2, 4]);
}

/// The long run: `cargo test --release -p lore-broadphase --features parallel -- --ignored`.
#[test]
#[ignore = "long run, release mode: cargo test --release -p lore-broadphase --features parallel -- --ignored"]
fn a_hundred_thousand_boxes_long_run() {
    for (seed, shape) in [(10, Shape::Uniform), (11, Shape::Clustered), (12, Shape::Mixed)] {
        same_on_every_thread_count(Scene::new(100_000, seed, shape), 12, &[2, 3, 16]);
    }
    same_on_every_thread_count(Scene::new(300_000, 13, Shape::Uniform), 4, &[2, 7]);
}

#[test]
fn small_sets_and_every_thread_count_agree() {
    // Too small to split: the same answers, on one thread whatever the setting.
    for n in [0, 1, 2, 50, 3000] {
        same_on_every_thread_count(Scene::new(n.max(1), 4, Shape::Uniform), 2, &[2, 64]);
    }
}

#[test]
fn zero_threads_is_refused_and_changes_nothing() {
    let scene = Scene::new(10, 5, Shape::Uniform);
    for mut index in indexes(&scene) {
        index.set_threads(3).unwrap();
        assert!(matches!(index.set_threads(0), Err(Error::BadConfig(_))), "{}", index.name());
        assert_eq!(index.threads(), 3, "{}", index.name());
    }
    let mut brute = lore_broadphase::BruteForce::new();
    assert!(matches!(brute.set_threads(0), Err(Error::BadConfig(_))));
    brute.set_threads(4).unwrap();
    assert_eq!(brute.threads(), 1);
}

#[test]
fn a_new_index_uses_every_core() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let scene = Scene::new(10, 6, Shape::Uniform);
    for index in indexes(&scene) {
        assert_eq!(index.threads(), cores, "{}", index.name());
    }
}

#[test]
fn a_world_sets_both_indexes() {
    let scene = Scene::new(40_000, 7, Shape::Uniform);
    let make = || World::new(Tree::with_margin(0.0).unwrap(), Grid::covering(scene.area(), 4.0).unwrap());
    let (mut one, mut two) = (make(), make());
    one.set_threads(1).unwrap();
    two.set_threads(2).unwrap();
    assert_eq!((two.statics().threads(), two.movers().threads()), (2, 2));
    assert!(matches!(two.set_threads(0), Err(Error::BadConfig(_))));
    for world in [&mut one, &mut two] {
        for i in 0..2000 {
            let min = vec2((i % 50) as f32, (i / 50) as f32) * 5.0;
            world.statics_mut().insert(Aabb::new(min, min + Vec2::ONE).unwrap()).unwrap();
        }
        for i in 0..scene.centers.len() {
            world.movers_mut().insert(scene.aabb(i)).unwrap();
        }
    }
    let (mut mm1, mut ms1, mut mm2, mut ms2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    one.pairs(&mut mm1, &mut ms1);
    two.pairs(&mut mm2, &mut ms2);
    assert!(!mm1.is_empty() && !ms1.is_empty());
    assert!(mm1 == mm2 && ms1 == ms2);
}
