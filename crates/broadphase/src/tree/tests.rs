use super::Tree;
use crate::id::ProxyId;
use crate::index::SpatialIndex;
use alloc::vec::Vec;
use glam::vec2;
use lore_geom::Aabb;

fn unit(x: f32, y: f32) -> Aabb {
    Aabb::from_center(vec2(x, y), vec2(0.5, 0.5)).unwrap()
}

#[test]
fn stays_valid_through_inserts_moves_and_removals() {
    let mut t = Tree::new();
    let mut ids = Vec::new();
    for i in 0..200 {
        ids.push(t.insert(unit((i % 20) as f32 * 1.5, (i / 20) as f32 * 1.5)).unwrap());
        t.validate().unwrap();
    }
    assert!(t.height() <= 2 * 8, "height {}", t.height());
    for (k, &id) in ids.iter().enumerate() {
        t.update(id, unit(k as f32 * 0.37, 3.0 + (k % 7) as f32)).unwrap();
    }
    t.validate().unwrap();
    for &id in ids.iter().step_by(3) {
        t.remove(id).unwrap();
    }
    t.validate().unwrap();
    t.rebuild();
    t.validate().unwrap();
    assert_eq!(t.len(), 200 - 67);
}

#[test]
fn small_moves_keep_the_leaf() {
    let mut t = Tree::with_margin(0.5).unwrap();
    let a = t.insert(unit(0.0, 0.0)).unwrap();
    t.insert(unit(5.0, 0.0)).unwrap();
    let before = t.nodes.clone();
    t.update(a, unit(0.2, -0.3)).unwrap();
    assert!(t.nodes.iter().zip(&before).all(|(x, y)| x.aabb == y.aabb));
    t.update(a, unit(3.0, 0.0)).unwrap();
    t.validate().unwrap();
    assert!(Tree::with_margin(-1.0).is_err());
}

/// `n` boxes of half extent 0.5–2 in a square with about 2.6 overlaps per box, each with a
/// velocity; `step` moves them and bounces them off the walls.
struct Swarm {
    pos: Vec<glam::Vec2>,
    half: Vec<glam::Vec2>,
    vel: Vec<glam::Vec2>,
    side: f32,
}

impl Swarm {
    fn new(n: usize, speed: f32) -> Self {
        let mut next = crate::xorshift_unit(0x9E37_79B9_7F4A_7C15);
        let side = (9.5 * n as f32).sqrt();
        let mut s = Self { pos: Vec::new(), half: Vec::new(), vel: Vec::new(), side };
        for _ in 0..n {
            s.pos.push(vec2(next() * side, next() * side));
            s.half.push(vec2(0.5 + 1.5 * next(), 0.5 + 1.5 * next()));
            s.vel.push(vec2(next() - 0.5, next() - 0.5) * 2.0 * speed);
        }
        s
    }

    fn step(&mut self) {
        for (p, v) in self.pos.iter_mut().zip(&mut self.vel) {
            *p += *v;
            if p.x < 0.0 || p.x > self.side {
                v.x = -v.x;
            }
            if p.y < 0.0 || p.y > self.side {
                v.y = -v.y;
            }
        }
    }

    fn aabb(&self, i: usize) -> Aabb {
        Aabb::from_center(self.pos[i], self.half[i]).unwrap()
    }
}

fn brute_pairs(s: &Swarm, ids: &[ProxyId]) -> Vec<(ProxyId, ProxyId)> {
    let mut want = Vec::new();
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            if s.aabb(i).overlaps(&s.aabb(j)) {
                want.push((ids[i].min(ids[j]), ids[i].max(ids[j])));
            }
        }
    }
    want.sort_unstable();
    want
}

#[test]
fn refit_frames_stay_valid_and_exact() {
    for share in [0.0, 1.0 / 16.0, 1.0] {
        let mut s = Swarm::new(400, 0.3);
        let mut t = Tree::new();
        t.set_reinsert_share(share).unwrap();
        let ids: Vec<ProxyId> = (0..400).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        let mut got = Vec::new();
        for frame in 0..300 {
            s.step();
            for (i, &id) in ids.iter().enumerate() {
                t.update(id, s.aabb(i)).unwrap();
            }
            // Valid between the updates and the refit too: ancestors grow as leaves move.
            t.validate().unwrap();
            if frame % 10 == 0 {
                t.pairs(&mut got);
                assert_eq!(got, brute_pairs(&s, &ids), "share {share}, frame {frame}");
            } else {
                t.refit();
            }
            t.validate().unwrap();
            assert!(t.marked.iter().all(|&m| !m), "marks left after a refit");
        }
    }
}

#[test]
fn quality_stays_bounded_under_refits() {
    // Fast boxes cross the world many times over: without re-optimisation the tree's
    // leaves would end up far from their neighbours in the tree.
    let mut s = Swarm::new(2000, 0.5);
    let mut t = Tree::new();
    t.set_reinsert_share(0.0).unwrap();
    let ids: Vec<ProxyId> = (0..2000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
    t.rebuild();
    let mut worst = 0.0f32;
    for frame in 0..600 {
        s.step();
        for (i, &id) in ids.iter().enumerate() {
            t.update(id, s.aabb(i)).unwrap();
        }
        t.refit();
        if frame % 50 == 49 {
            let mut fresh = t.clone();
            fresh.rebuild();
            let ratio = t.sah_cost() / fresh.sah_cost();
            worst = worst.max(ratio);
            assert!(
                ratio <= Tree::REBUILD_FACTOR * 1.25,
                "frame {frame}: cost {} vs fresh {}",
                t.sah_cost(),
                fresh.sah_cost()
            );
        }
    }
    assert!(worst > 0.0);
    t.validate().unwrap();
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut next = crate::xorshift(seed);
    move || next() >> 11
}

#[test]
fn small_refits_that_scatter_the_tree_end_in_a_rebuild() {
    // Fifty boxes a round take a step of up to one unit in their own direction (never
    // clear of their fat box, so they are refitted in place): over the rounds they cross
    // the world, their ancestors stretch, and the cost check has to rebuild the tree.
    let mut s = Swarm::new(1000, 0.5);
    let mut t = Tree::new();
    let ids: Vec<ProxyId> = (0..1000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
    t.rebuild();
    let start = t.sah_cost();
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    for round in 0..3000 {
        for _ in 0..50 {
            let k = (next() % 1000) as usize;
            let p = s.pos[k] + s.vel[k];
            if p.x < 0.0 || p.x > s.side || p.y < 0.0 || p.y > s.side {
                s.vel[k] = -s.vel[k];
            }
            s.pos[k] = p;
            t.update(ids[k], s.aabb(k)).unwrap();
        }
        t.refit();
        if round % 100 == 99 {
            let mut fresh = t.clone();
            fresh.rebuild();
            assert!(t.sah_cost() <= Tree::REBUILD_FACTOR * 1.25 * fresh.sah_cost().max(start), "round {round}");
        }
    }
    assert!(t.auto_rebuilds() > 0);
    t.validate().unwrap();
    let mut got = Vec::new();
    t.pairs(&mut got);
    assert_eq!(got, brute_pairs(&s, &ids));
}

#[test]
fn jumps_are_reinserted() {
    let s = Swarm::new(1000, 0.0);
    let mut t = Tree::new();
    let ids: Vec<ProxyId> = (0..1000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
    t.rebuild();
    let start = t.sah_cost();
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        // One small move refitted in place (its path marked), then teleports: each is
        // reinserted after the pending refit is finished.
        t.update(ids[0], s.aabb(0)).unwrap();
        let nudged = Aabb::from_center(s.pos[0] + vec2(0.3, 0.0), s.half[0]).unwrap();
        t.update(ids[0], nudged).unwrap();
        assert!(t.marked[t.root as usize]);
        for _ in 0..10 {
            let k = 1 + (next() % 999) as usize;
            let (x, y) = ((next() % 1000) as f32 / 1000.0 * s.side, (next() % 1000) as f32 / 1000.0 * s.side);
            t.update(ids[k], unit(x, y)).unwrap();
            assert!(t.marked.iter().all(|&m| !m));
        }
        t.validate().unwrap();
    }
    // Reinsertion keeps the tree within reach of a fresh build without any rebuild.
    let mut fresh = t.clone();
    fresh.rebuild();
    assert!(t.sah_cost() <= 2.0 * fresh.sah_cost().max(start));
}

#[test]
fn few_movers_are_reinserted_many_are_refitted() {
    let mut s = Swarm::new(320, 0.3);
    let mut t = Tree::new();
    assert_eq!(t.reinsert_share(), 0.0);
    t.set_reinsert_share(1.0 / 16.0).unwrap();
    let ids: Vec<ProxyId> = (0..320).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
    let mut pairs = Vec::new();
    t.pairs(&mut pairs);
    // Steps of 0.4: out of the fat box (margin 0.1) but still touching it.
    let step = |s: &Swarm, i: usize| Aabb::from_center(s.pos[i] + vec2(0.4, 0.0), s.half[i]).unwrap();
    // 20 = 320/16 movers are reinserted: no node is marked for a refit.
    for (i, &id) in ids[..20].iter().enumerate() {
        t.update(id, step(&s, i)).unwrap();
    }
    assert!(t.marked.iter().all(|&m| !m));
    t.validate().unwrap();
    // The 21st is refitted in place: its path to the root is marked.
    t.update(ids[20], step(&s, 20)).unwrap();
    let leaf = t.leaf_of[ids[20].index() as usize];
    assert!(t.marked[t.nodes[leaf as usize].parent as usize] && t.marked[t.root as usize]);
    t.validate().unwrap();
    t.pairs(&mut pairs);
    assert!(t.marked.iter().all(|&m| !m));
    t.validate().unwrap();
    // Share 1: always reinsert, never a mark.
    t.set_reinsert_share(1.0).unwrap();
    s.step();
    for (i, &id) in ids.iter().enumerate() {
        t.update(id, s.aabb(i)).unwrap();
    }
    assert!(t.marked.iter().all(|&m| !m));
    t.validate().unwrap();
    assert!(t.set_reinsert_share(f32::NAN).is_err());
    assert!(t.set_reinsert_share(-0.1).is_err());
    assert!(t.set_reinsert_share(1.5).is_err());
    assert_eq!(t.reinsert_share(), 1.0);
}

#[test]
fn removing_and_inserting_with_refits_pending() {
    let mut s = Swarm::new(200, 0.4);
    let mut t = Tree::new();
    t.set_reinsert_share(0.0).unwrap();
    let mut ids: Vec<ProxyId> = (0..200).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
    for round in 0..20 {
        s.step();
        for (i, &id) in ids.iter().enumerate() {
            t.update(id, s.aabb(i)).unwrap();
        }
        // Pending marks, then a removal and an insertion of the same box.
        let k = (round * 37) % ids.len();
        t.remove(ids[k]).unwrap();
        ids[k] = t.insert(s.aabb(k)).unwrap();
        t.validate().unwrap();
    }
    let mut got = Vec::new();
    t.pairs(&mut got);
    let mut want = brute_pairs(&s, &ids);
    want.sort_unstable();
    assert_eq!(got, want);
}

#[test]
fn a_rebuild_lays_the_nodes_out_depth_first_and_keeps_working() {
    let mut t = Tree::new();
    let mut ids = Vec::new();
    for i in 0..300 {
        ids.push(t.insert(unit((i % 17) as f32 * 1.5, (i / 17) as f32 * 1.5)).unwrap());
    }
    for &id in ids.iter().step_by(4) {
        t.remove(id).unwrap();
    }
    t.rebuild();
    t.validate().unwrap();
    // No free node left, the root first, each internal node's first child right after it, and
    // every subtree one run of the pool.
    assert_eq!(t.nodes.len(), t.node_count());
    assert_eq!(t.root, 0);
    fn run(t: &Tree, i: u32) -> u32 {
        let n = t.nodes[i as usize];
        if n.is_leaf() {
            return 1;
        }
        assert_eq!(n.child1, i + 1, "node {i}");
        let first = run(t, n.child1);
        assert_eq!(n.child2, i + 1 + first, "node {i}");
        1 + first + run(t, n.child2)
    }
    assert_eq!(run(&t, t.root) as usize, t.nodes.len());
    // Inserts, moves (reinserted and refitted in place) and removals go on after it.
    for (k, &id) in ids.iter().enumerate().filter(|(k, _)| k % 4 != 0) {
        t.update(id, unit(k as f32 * 0.31, 2.0 + (k % 5) as f32)).unwrap();
    }
    for i in 0..20 {
        t.insert(unit(i as f32, -3.0)).unwrap();
    }
    t.validate().unwrap();
    let mut pairs = Vec::new();
    t.pairs(&mut pairs);
    t.validate().unwrap();
}
