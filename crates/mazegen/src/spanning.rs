//! Random spanning trees (biased Kruskal, weighted Wilson) and their orientation from a root.

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use crate::adjacency::Adjacency;
use crate::maze::NO_NODE;
use crate::random::shuffle;
use crate::sets::{DisjointSets, PREFETCH_AHEAD};
use crate::tree_algorithm::TreeAlgorithm;
use crate::walkers::{self, GeneralGraph, Walker};

/// Picks the tree edges (indices into `graph`). `horizontal[i]` classes edge `i` for the bias.
pub(crate) fn random_tree(
    rng: &mut Pcg64Mcg,
    n: usize,
    graph: &[[u32; 2]],
    horizontal: &[bool],
    bias: f32,
    algorithm: TreeAlgorithm,
) -> Vec<u32> {
    let walker = match algorithm {
        TreeAlgorithm::Kruskal => return kruskal(rng, n, graph, horizontal, bias),
        TreeAlgorithm::Wilson => return wilson(rng, n, graph, horizontal, bias),
        TreeAlgorithm::RecursiveBacktracker => Walker::Backtracker,
        TreeAlgorithm::Prim => Walker::Prim,
        TreeAlgorithm::HuntAndKill => Walker::HuntAndKill,
        TreeAlgorithm::AldousBroder => Walker::AldousBroder,
        TreeAlgorithm::GrowingTree { newest_percent } => Walker::GrowingTree(newest_percent),
        TreeAlgorithm::Eller | TreeAlgorithm::Sidewinder | TreeAlgorithm::BinaryTree => {
            unreachable!("Config::validate refuses the row carvers on general graphs")
        }
    };
    let g = GeneralGraph { adjacency: Adjacency::new(n, graph.iter().map(|e| (e[0], e[1]))), horizontal };
    walkers::carve(&g, walker, rng, bias)
}

/// Kruskal over a random order. Horizontal and vertical edges are shuffled apart and merged,
/// taking the next horizontal one with probability `h (1 + bias) / (h (1 + bias) + v (1 - bias))`
/// where `h` and `v` count the edges left: with bias 0 this is a uniform shuffle of all edges.
fn kruskal(rng: &mut Pcg64Mcg, n: usize, graph: &[[u32; 2]], horizontal: &[bool], bias: f32) -> Vec<u32> {
    if bias == 0.0 {
        // Equal weights: the merge below would be a uniform shuffle; do one directly.
        let mut order: Vec<u32> = (0..graph.len() as u32).collect();
        shuffle(rng, &mut order);
        let mut sets = DisjointSets::new(n);
        let mut tree = Vec::with_capacity(n.saturating_sub(1));
        for (k, &e) in order.iter().enumerate() {
            if let Some(&ahead) = order.get(k + PREFETCH_AHEAD) {
                let [a, b] = graph[ahead as usize];
                sets.prefetch(a);
                sets.prefetch(b);
            }
            let [a, b] = graph[e as usize];
            if sets.union(a, b) {
                tree.push(e);
                if tree.len() + 1 >= n {
                    break;
                }
            }
        }
        return tree;
    }
    let (mut hs, mut vs): (Vec<u32>, Vec<u32>) = (0..graph.len() as u32).partition(|&i| horizontal[i as usize]);
    shuffle(rng, &mut hs);
    shuffle(rng, &mut vs);
    let (wh, wv) = (f64::from(1.0 + bias), f64::from(1.0 - bias));
    let mut sets = DisjointSets::new(n);
    let mut tree = Vec::with_capacity(n.saturating_sub(1));
    let (mut ih, mut iv) = (0usize, 0usize);
    while tree.len() + 1 < n && (ih < hs.len() || iv < vs.len()) {
        let (rh, rv) = ((hs.len() - ih) as f64 * wh, (vs.len() - iv) as f64 * wv);
        let take_h = if iv == vs.len() {
            true
        } else if ih == hs.len() {
            false
        } else {
            rng.random::<f64>() * (rh + rv) < rh
        };
        let e = if take_h {
            ih += 1;
            hs[ih - 1]
        } else {
            iv += 1;
            vs[iv - 1]
        };
        let [a, b] = graph[e as usize];
        if sets.union(a, b) {
            tree.push(e);
        }
    }
    tree
}

/// Smallest step weight of a Wilson walk.
const WILSON_MIN_WEIGHT: f64 = 0.01;

/// Wilson's algorithm with loop-erased random walks (weighted by the bias).
/// Walk weights are floored at [`WILSON_MIN_WEIGHT`]: a zero weight would trap a walk in one row
/// (bias 1) or column (bias −1) forever.
fn wilson(rng: &mut Pcg64Mcg, n: usize, graph: &[[u32; 2]], horizontal: &[bool], bias: f32) -> Vec<u32> {
    let adj = Adjacency::new(n, graph.iter().map(|e| (e[0], e[1])));
    let (wh, wv) = (f64::from(1.0 + bias).max(WILSON_MIN_WEIGHT), f64::from(1.0 - bias).max(WILSON_MIN_WEIGHT));
    let mut in_tree = vec![false; n];
    // `next[v]`: the edge the latest walk left `v` by (loop erasure keeps only the last exit).
    let mut next = vec![(NO_NODE, NO_NODE); n];
    let mut tree = Vec::with_capacity(n.saturating_sub(1));
    if n == 0 {
        return tree;
    }
    in_tree[0] = true;
    for start in 1..n as u32 {
        let mut v = start;
        while !in_tree[v as usize] {
            let nb = adj.of(v);
            if nb.is_empty() {
                break;
            }
            let step = if bias == 0.0 {
                nb[rng.random_range(0..nb.len() as u32) as usize]
            } else {
                let total: f64 = nb.iter().map(|&(_, e)| if horizontal[e as usize] { wh } else { wv }).sum();
                let mut r = rng.random::<f64>() * total;
                let mut pick = nb[nb.len() - 1];
                for &(u, e) in nb {
                    let w = if horizontal[e as usize] { wh } else { wv };
                    if r < w {
                        pick = (u, e);
                        break;
                    }
                    r -= w;
                }
                pick
            };
            next[v as usize] = step;
            v = step.0;
        }
        let mut v = start;
        while !in_tree[v as usize] {
            in_tree[v as usize] = true;
            let (u, e) = next[v as usize];
            if u == NO_NODE {
                break;
            }
            tree.push(e);
            v = u;
        }
    }
    tree
}

/// The tree seen from `root`: parent of every node, breadth-first order and depth.
#[derive(Debug)]
pub(crate) struct Rooted {
    pub(crate) parent: Vec<u32>,
    pub(crate) order: Vec<u32>,
    pub(crate) depth: Vec<u32>,
    pub(crate) children: Vec<u32>,
}

pub(crate) fn orient(n: usize, tree: &[(u32, u32)], root: u32) -> Rooted {
    let adj = Adjacency::new(n, tree.iter().copied());
    orient_by(n, root, |v, bfs| {
        for &(u, _) in adj.of(v) {
            bfs.offer(v, u);
        }
    })
}

/// Breadth-first orientation of a tree from `root`: `neighbours(v, bfs)` offers each neighbour
/// `u` of `v` with `bfs.offer(v, u)`, in the order the caller wants them taken (the general
/// graph's adjacency lists, or a grid's open walls).
pub(crate) fn orient_by(n: usize, root: u32, neighbours: impl Fn(u32, &mut Bfs)) -> Rooted {
    let mut bfs = Bfs {
        rooted: Rooted {
            parent: vec![NO_NODE; n],
            order: Vec::with_capacity(n),
            depth: vec![0u32; n],
            children: vec![0u32; n],
        },
        seen: vec![false; n],
    };
    bfs.seen[root as usize] = true;
    bfs.rooted.order.push(root);
    let mut head = 0;
    while let Some(&v) = bfs.rooted.order.get(head) {
        head += 1;
        neighbours(v, &mut bfs);
    }
    bfs.rooted
}

/// The state of [`orient_by`]'s walk.
pub(crate) struct Bfs {
    rooted: Rooted,
    seen: Vec<bool>,
}

impl Bfs {
    /// Takes `u` as a child of `v` unless it was reached before.
    #[inline]
    pub(crate) fn offer(&mut self, v: u32, u: u32) {
        if !self.seen[u as usize] {
            self.seen[u as usize] = true;
            let r = &mut self.rooted;
            r.parent[u as usize] = v;
            r.depth[u as usize] = r.depth[v as usize] + 1;
            r.children[v as usize] += 1;
            r.order.push(u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn is_spanning_tree(n: usize, graph: &[[u32; 2]], tree: &[u32]) -> bool {
        let mut sets = DisjointSets::new(n);
        tree.len() + 1 == n && tree.iter().all(|&e| sets.union(graph[e as usize][0], graph[e as usize][1]))
    }

    #[test]
    fn both_algorithms_give_spanning_trees() {
        let (_, graph) = crate::grid::grid_graph(9, 7);
        let horizontal: Vec<bool> = graph.iter().map(|&[a, b]| b == a + 1).collect();
        for algorithm in TreeAlgorithm::ALL.into_iter().filter(|a| !a.grid_only()) {
            for bias in [-1.0, -0.3, 0.0, 0.7, 1.0] {
                let mut rng = Pcg64Mcg::seed_from_u64(3);
                let tree = random_tree(&mut rng, 63, &graph, &horizontal, bias, algorithm);
                assert!(is_spanning_tree(63, &graph, &tree), "{algorithm:?} {bias}");
            }
        }
    }

    #[test]
    fn full_bias_keeps_every_row_whole() {
        let (_, graph) = crate::grid::grid_graph(9, 7);
        let horizontal: Vec<bool> = graph.iter().map(|&[a, b]| b == a + 1).collect();
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let tree = random_tree(&mut rng, 63, &graph, &horizontal, 1.0, TreeAlgorithm::Kruskal);
        // Horizontal edges come first, so all 7 × 8 of them are taken, then 6 verticals.
        assert_eq!(tree.iter().filter(|&&e| horizontal[e as usize]).count(), 56);
    }

    #[test]
    fn orient_gives_parents_and_depths() {
        let r = orient(4, &[(2, 1), (1, 0), (1, 3)], 0);
        assert_eq!(r.parent, vec![NO_NODE, 0, 1, 1]);
        assert_eq!(r.depth, vec![0, 1, 2, 2]);
        assert_eq!(r.order[0], 0);
        assert_eq!(r.children, vec![1, 2, 0, 0]);
    }
}
