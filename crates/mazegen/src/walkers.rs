//! The classic carvers that grow one tree from a start node by walking the graph: recursive
//! backtracker, Prim, hunt-and-kill, Aldous–Broder and growing tree. They run on any
//! [`Walkable`] graph: the general graph of a logic maze (its adjacency lists) and the grid
//! (neighbours computed from the cell index, see `grid/classic.rs`), so both shapes get the same
//! algorithm and the same bias.
//!
//! The bias weighs each step: a horizontal edge has weight `1 + bias`, a vertical one
//! `1 − bias`. Walks (backtracker, hunt-and-kill, Aldous–Broder, growing tree) floor the weights
//! at [`MIN_WEIGHT`], as Wilson's walks do, so a walk can always turn; Prim draws from the
//! frontier by weight and takes weight-0 edges only when nothing else is left.

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

use crate::adjacency::Adjacency;

/// Smallest step weight of a walk.
pub(crate) const MIN_WEIGHT: f64 = 0.01;

/// A connected graph the walkers can grow a tree on. Edge ids are the graph's own (a grid's
/// `2c` / `2c + 1`, a general graph's index into its edge list).
pub(crate) trait Walkable {
    /// Number of nodes.
    fn node_count(&self) -> usize;
    /// Pushes `(neighbour, edge, horizontal)` for every neighbour of `v` onto `out`.
    fn neighbours(&self, v: u32, out: &mut Vec<(u32, u32, bool)>);
    /// An order of all nodes in which every node but the first has a neighbour earlier in the
    /// order (hunt-and-kill scans it: the first unvisited node always touches the tree).
    fn scan_order(&self) -> Vec<u32>;
}

/// A general graph: adjacency lists plus each edge's class for the bias.
pub(crate) struct GeneralGraph<'a> {
    pub(crate) adjacency: Adjacency,
    pub(crate) horizontal: &'a [bool],
}

impl Walkable for GeneralGraph<'_> {
    fn node_count(&self) -> usize {
        self.adjacency.start.len() - 1
    }

    fn neighbours(&self, v: u32, out: &mut Vec<(u32, u32, bool)>) {
        out.extend(self.adjacency.of(v).iter().map(|&(u, e)| (u, e, self.horizontal[e as usize])));
    }

    fn scan_order(&self) -> Vec<u32> {
        // Breadth-first from node 0: each node is found from an earlier one.
        let n = self.node_count();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        if n == 0 {
            return order;
        }
        seen[0] = true;
        order.push(0);
        let mut head = 0;
        while let Some(&v) = order.get(head) {
            head += 1;
            for &(u, _) in self.adjacency.of(v) {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    order.push(u);
                }
            }
        }
        order
    }
}

/// Step weights for a bias: `(horizontal, vertical)`, floored at `floor`.
pub(crate) fn weights(bias: f32, floor: f64) -> (f64, f64) {
    (f64::from(1.0 + bias).max(floor), f64::from(1.0 - bias).max(floor))
}

/// Picks one of `choices` (`(node, edge, horizontal)`, not empty) with probability proportional
/// to its weight; uniformly when the bias is 0.
#[inline]
fn pick(rng: &mut Pcg64Mcg, choices: &[(u32, u32, bool)], unbiased: bool, (wh, wv): (f64, f64)) -> (u32, u32, bool) {
    if unbiased || choices.len() == 1 {
        return choices[rng.random_range(0..choices.len() as u32) as usize];
    }
    let total: f64 = choices.iter().map(|c| if c.2 { wh } else { wv }).sum();
    let mut r = rng.random::<f64>() * total;
    for &c in choices {
        let w = if c.2 { wh } else { wv };
        if r < w {
            return c;
        }
        r -= w;
    }
    choices[choices.len() - 1]
}

/// The walking carvers, named for [`crate::TreeAlgorithm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walker {
    /// Depth-first: always extend the newest branch.
    Backtracker,
    /// Randomised Prim: a random frontier edge each step.
    Prim,
    /// Walk until stuck, then hunt for the first unvisited cell beside the tree.
    HuntAndKill,
    /// A random walk over everything, keeping the first entry into each node (uniform trees).
    AldousBroder,
    /// The active list of the growing-tree family: newest with this percentage, else random.
    GrowingTree(u8),
}

/// Grows a spanning tree of the connected graph `g` from node 0 and returns its edges.
pub(crate) fn carve<G: Walkable>(g: &G, walker: Walker, rng: &mut Pcg64Mcg, bias: f32) -> Vec<u32> {
    let n = g.node_count();
    let mut tree = Vec::with_capacity(n.saturating_sub(1));
    if n <= 1 {
        return tree;
    }
    let mut visited = vec![false; n];
    visited[0] = true;
    match walker {
        Walker::Backtracker => backtracker(g, rng, bias, &mut visited, &mut tree),
        Walker::Prim => prim(g, rng, bias, &mut visited, &mut tree),
        Walker::HuntAndKill => hunt_and_kill(g, rng, bias, &mut visited, &mut tree),
        Walker::AldousBroder => aldous_broder(g, rng, bias, &mut visited, &mut tree),
        Walker::GrowingTree(newest) => growing_tree(g, rng, bias, newest, &mut visited, &mut tree),
    }
    tree
}

/// The unvisited neighbours of `v` into `out` (cleared first).
#[inline]
fn unvisited<G: Walkable>(g: &G, v: u32, visited: &[bool], out: &mut Vec<(u32, u32, bool)>) {
    out.clear();
    g.neighbours(v, out);
    out.retain(|c| !visited[c.0 as usize]);
}

fn backtracker<G: Walkable>(g: &G, rng: &mut Pcg64Mcg, bias: f32, visited: &mut [bool], tree: &mut Vec<u32>) {
    growing_tree(g, rng, bias, 100, visited, tree);
}

fn growing_tree<G: Walkable>(
    g: &G,
    rng: &mut Pcg64Mcg,
    bias: f32,
    newest_percent: u8,
    visited: &mut [bool],
    tree: &mut Vec<u32>,
) {
    let w = weights(bias, MIN_WEIGHT);
    let unbiased = bias == 0.0;
    let mut active = vec![0u32];
    let mut choices = Vec::new();
    while !active.is_empty() {
        let i = if newest_percent >= 100 || rng.random_range(0..100u8) < newest_percent {
            active.len() - 1
        } else {
            rng.random_range(0..active.len() as u32) as usize
        };
        let v = active[i];
        unvisited(g, v, visited, &mut choices);
        if choices.is_empty() {
            // The order of the list is what "newest" means, so keep it.
            if i + 1 == active.len() {
                active.pop();
            } else {
                active.remove(i);
            }
            continue;
        }
        let (u, e, _) = pick(rng, &choices, unbiased, w);
        visited[u as usize] = true;
        tree.push(e);
        active.push(u);
    }
}

fn prim<G: Walkable>(g: &G, rng: &mut Pcg64Mcg, bias: f32, visited: &mut [bool], tree: &mut Vec<u32>) {
    let (wh, wv) = weights(bias, 0.0);
    // Frontier edges `(node outside, edge)`, horizontal and vertical apart so a weighted draw is
    // one comparison and one uniform index.
    let mut frontier: [Vec<(u32, u32)>; 2] = [Vec::new(), Vec::new()];
    let mut around = Vec::new();
    let mut add = |v: u32, frontier: &mut [Vec<(u32, u32)>; 2], visited: &[bool]| {
        around.clear();
        g.neighbours(v, &mut around);
        for &(u, e, horizontal) in &around {
            if !visited[u as usize] {
                frontier[usize::from(!horizontal)].push((u, e));
            }
        }
    };
    add(0, &mut frontier, visited);
    let n = visited.len();
    while tree.len() + 1 < n {
        let (h, v) = (frontier[0].len() as f64 * wh, frontier[1].len() as f64 * wv);
        let side = if frontier[1].is_empty() {
            0
        } else if frontier[0].is_empty() {
            1
        } else if h + v <= 0.0 {
            usize::from(rng.random_range(0..2u8) == 1)
        } else {
            usize::from(rng.random::<f64>() * (h + v) >= h)
        };
        let list = &mut frontier[side];
        if list.is_empty() {
            break; // disconnected graph: nothing more to reach
        }
        let (u, e) = list.swap_remove(rng.random_range(0..list.len() as u32) as usize);
        if visited[u as usize] {
            continue;
        }
        visited[u as usize] = true;
        tree.push(e);
        add(u, &mut frontier, visited);
    }
}

fn hunt_and_kill<G: Walkable>(g: &G, rng: &mut Pcg64Mcg, bias: f32, visited: &mut [bool], tree: &mut Vec<u32>) {
    let w = weights(bias, MIN_WEIGHT);
    let unbiased = bias == 0.0;
    let order = g.scan_order();
    let mut scan = 0usize;
    let mut choices = Vec::new();
    let mut v = 0u32;
    loop {
        // Kill: walk to unvisited neighbours until stuck.
        unvisited(g, v, visited, &mut choices);
        if let Some(&first) = choices.first() {
            let (u, e, _) = if choices.len() == 1 { first } else { pick(rng, &choices, unbiased, w) };
            visited[u as usize] = true;
            tree.push(e);
            v = u;
            continue;
        }
        // Hunt: the first unvisited node of the scan order touches the tree; join it to a
        // visited neighbour and walk on from it.
        while scan < order.len() && visited[order[scan] as usize] {
            scan += 1;
        }
        let Some(&u) = order.get(scan) else { break };
        choices.clear();
        g.neighbours(u, &mut choices);
        choices.retain(|c| visited[c.0 as usize]);
        if choices.is_empty() {
            break; // disconnected graph
        }
        let (_, e, _) = pick(rng, &choices, unbiased, w);
        visited[u as usize] = true;
        tree.push(e);
        v = u;
    }
}

fn aldous_broder<G: Walkable>(g: &G, rng: &mut Pcg64Mcg, bias: f32, visited: &mut [bool], tree: &mut Vec<u32>) {
    let w = weights(bias, MIN_WEIGHT);
    let unbiased = bias == 0.0;
    let n = visited.len();
    let mut around = Vec::new();
    let mut v = 0u32;
    while tree.len() + 1 < n {
        around.clear();
        g.neighbours(v, &mut around);
        if around.is_empty() {
            break; // an isolated node: no walk leaves it
        }
        let (u, e, _) = pick(rng, &around, unbiased, w);
        if !visited[u as usize] {
            visited[u as usize] = true;
            tree.push(e);
        }
        v = u;
    }
}
