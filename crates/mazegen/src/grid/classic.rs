//! The classic grid carvers beside Kruskal's and Wilson's: the row-by-row ones that need a grid
//! (Eller, Sidewinder, binary tree) and the walkers of `walkers.rs` on the grid's neighbours.
//!
//! Every carver's bias reads the same way: positive favours horizontal passages, negative
//! vertical ones. The row carvers use it as a probability: binary tree opens left rather than
//! up, Sidewinder extends a run rather than closing it, and Eller joins neighbours in a row,
//! each with probability `(1 + bias) / 2`; Eller carries a set down an extra time with
//! probability `(1 − bias) / 2`. With bias 0 each is the textbook algorithm.
//!
//! The root is the top-left cell, so "north" of the textbooks is up (row `y − 1`) and "west" is
//! left: binary tree and Sidewinder keep the top row (and binary tree the left column) whole.

use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::tree::{GridTree, check};
use crate::error::Error;
use crate::tree_algorithm::TreeAlgorithm;
use crate::walkers::{self, Walkable, Walker};

/// The grid as a [`Walkable`] graph: cell `c = y * width + x`, edge `2c` to the right and
/// `2c + 1` downwards, as in [`GridTree`].
pub(crate) struct GridGraph {
    pub(crate) width: u32,
    pub(crate) height: u32,
}

impl Walkable for GridGraph {
    fn node_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    #[inline]
    fn neighbours(&self, v: u32, out: &mut Vec<(u32, u32, bool)>) {
        let w = self.width;
        let (x, y) = (v % w, v / w);
        if y > 0 {
            out.push((v - w, 2 * (v - w) + 1, false));
        }
        if x > 0 {
            out.push((v - 1, 2 * (v - 1), true));
        }
        if x + 1 < w {
            out.push((v + 1, 2 * v, true));
        }
        if y + 1 < self.height {
            out.push((v + w, 2 * v + 1, false));
        }
    }

    fn scan_order(&self) -> Vec<u32> {
        // Raster order: every cell but the first has its left or upper neighbour before it.
        (0..self.node_count() as u32).collect()
    }
}

impl GridTree {
    /// Carves a spanning tree of the grid (a perfect maze) with any [`TreeAlgorithm`] and a
    /// seeded `Pcg64Mcg`: the same tree [`crate::generate`] keeps for
    /// `Config::grid(width, height).tree(algorithm).bias(bias).seed(seed)` when it keeps its
    /// first tree (one zone, or `balance(_, 1)`). Kruskal and Wilson are
    /// [`GridTree::carve`] and [`GridTree::carve_uniform`].
    ///
    /// ```
    /// use lore_mazegen::{GridTree, TreeAlgorithm};
    ///
    /// for algorithm in TreeAlgorithm::ALL {
    ///     let tree = GridTree::carve_by(algorithm, 30, 20, 0.0, 7)?;
    ///     assert_eq!(tree.passage_count(), 30 * 20 - 1, "{algorithm:?}");
    /// }
    /// // Binary tree keeps the top row and the left column open.
    /// let tree = GridTree::carve_by(TreeAlgorithm::BinaryTree, 8, 8, 0.0, 1)?;
    /// assert!((0..7).all(|x| tree.open_right(x, 0)) && (0..7).all(|y| tree.open_down(0, y)));
    /// # Ok::<(), lore_mazegen::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Config`] when a side is 0, the grid has more than
    /// [`MAX_NODES`](crate::MAX_NODES) cells, the bias is outside `-1.0..=1.0`, or the
    /// algorithm's parameter is out of range ([`TreeAlgorithm::validate`]).
    pub fn carve_by(algorithm: TreeAlgorithm, width: u32, height: u32, bias: f32, seed: u64) -> Result<Self, Error> {
        check(width, height, bias)?;
        algorithm.validate()?;
        Ok(Self::carve_by_with(algorithm, &mut Pcg64Mcg::seed_from_u64(seed), width, height, bias))
    }

    /// [`GridTree::carve_by`] for checked arguments.
    pub(crate) fn carve_by_with(
        algorithm: TreeAlgorithm,
        rng: &mut Pcg64Mcg,
        width: u32,
        height: u32,
        bias: f32,
    ) -> Self {
        let walker = match algorithm {
            TreeAlgorithm::Kruskal => return Self::carve_with(rng, width, height, bias),
            TreeAlgorithm::Wilson => return Self::carve_uniform_with(rng, width, height, bias),
            TreeAlgorithm::Eller => return eller(rng, width, height, bias),
            TreeAlgorithm::Sidewinder => return sidewinder(rng, width, height, bias),
            TreeAlgorithm::BinaryTree => return binary_tree(rng, width, height, bias),
            TreeAlgorithm::RecursiveBacktracker => Walker::Backtracker,
            TreeAlgorithm::Prim => Walker::Prim,
            TreeAlgorithm::HuntAndKill => Walker::HuntAndKill,
            TreeAlgorithm::AldousBroder => Walker::AldousBroder,
            TreeAlgorithm::GrowingTree { newest_percent } => Walker::GrowingTree(newest_percent),
        };
        let mut tree = empty(width, height);
        for e in walkers::carve(&GridGraph { width, height }, walker, rng, bias) {
            tree.open_edge(e as usize);
        }
        tree
    }
}

fn empty(width: u32, height: u32) -> GridTree {
    GridTree::from_words(width, height, vec![0; (2 * width as usize * height as usize).div_ceil(64)])
}

/// A coin that lands true with probability `p` (0 and 1 exactly included).
#[derive(Clone, Copy)]
struct Coin(u64);

impl Coin {
    fn new(p: f32) -> Self {
        Self((f64::from(p.clamp(0.0, 1.0)) * 4_294_967_296.0) as u64)
    }

    #[inline]
    fn flip(self, rng: &mut Pcg64Mcg) -> bool {
        u64::from(rng.next_u32()) < self.0
    }
}

/// Binary tree: every cell but the root opens left or up (left with probability
/// `(1 + bias) / 2`); the top row can only go left and the left column only up.
fn binary_tree(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32) -> GridTree {
    let mut tree = empty(width, height);
    let left = Coin::new((1.0 + bias) / 2.0);
    let w = width as usize;
    for c in 1..w {
        tree.open_edge(2 * (c - 1));
    }
    for y in 1..height as usize {
        let row = y * w;
        tree.open_edge(2 * (row - w) + 1);
        for c in row + 1..row + w {
            if left.flip(rng) {
                tree.open_edge(2 * (c - 1));
            } else {
                tree.open_edge(2 * (c - w) + 1);
            }
        }
    }
    tree
}

/// Sidewinder: the top row is one corridor; below it each row is cut into runs (a run goes on
/// to the right with probability `(1 + bias) / 2`), and each run opens up from one random cell.
fn sidewinder(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32) -> GridTree {
    let mut tree = empty(width, height);
    let go_on = Coin::new((1.0 + bias) / 2.0);
    let w = width as usize;
    for c in 1..w {
        tree.open_edge(2 * (c - 1));
    }
    for y in 1..height as usize {
        let row = y * w;
        let mut run_start = 0u32;
        for x in 0..width {
            if x + 1 < width && go_on.flip(rng) {
                tree.open_edge(2 * (row + x as usize));
            } else {
                let up = row + rng.random_range(run_start..=x) as usize;
                tree.open_edge(2 * (up - w) + 1);
                run_start = x + 1;
            }
        }
    }
    tree
}

/// Eller's algorithm: one row of set labels at a time. Neighbours in different sets join with
/// probability `(1 + bias) / 2` (always in the last row); then each set opens down from every
/// cell with probability `(1 − bias) / 2`, and from one random cell if none did.
fn eller(rng: &mut Pcg64Mcg, width: u32, height: u32, bias: f32) -> GridTree {
    const NONE: u32 = u32::MAX;
    let mut tree = empty(width, height);
    let join = Coin::new((1.0 + bias) / 2.0);
    let down_coin = Coin::new((1.0 - bias) / 2.0);
    let w = width as usize;
    // Labels are below `w`: a row holds at most `w` sets. `parent` is a union-find over them.
    let mut label: Vec<u32> = (0..width).collect();
    let mut parent: Vec<u32> = (0..width).collect();
    let mut members = vec![0u32; w];
    let mut chosen = vec![NONE; w];
    let mut has_down = vec![false; w];
    let mut remap = vec![NONE; w];
    let mut down = vec![false; w];
    let find = |parent: &mut Vec<u32>, mut a: u32| {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    };
    for y in 0..height as usize {
        let row = y * w;
        let last = y + 1 == height as usize;
        for x in 0..w.saturating_sub(1) {
            let (a, b) = (find(&mut parent, label[x]), find(&mut parent, label[x + 1]));
            if a != b && (last || join.flip(rng)) {
                parent[b as usize] = a;
                tree.open_edge(2 * (row + x));
            }
        }
        if last {
            break;
        }
        for l in &mut label {
            let r = find(&mut parent, *l);
            *l = r;
            members[r as usize] = 0;
            chosen[r as usize] = NONE;
            has_down[r as usize] = false;
            remap[r as usize] = NONE;
        }
        for x in 0..w {
            let r = label[x] as usize;
            members[r] += 1;
            // Reservoir sampling: each member ends up chosen with probability 1 / members.
            if rng.random_range(0..members[r]) == 0 {
                chosen[r] = x as u32;
            }
            down[x] = down_coin.flip(rng);
            has_down[r] |= down[x];
        }
        for x in 0..w {
            let r = label[x] as usize;
            if !has_down[r] && chosen[r] == x as u32 {
                down[x] = true;
            }
        }
        // The next row: cells below a down passage keep their set (renumbered compactly), the
        // others start sets of their own.
        let mut next = 0u32;
        for x in 0..w {
            if down[x] {
                tree.open_edge(2 * (row + x) + 1);
                let r = label[x] as usize;
                if remap[r] == NONE {
                    remap[r] = next;
                    next += 1;
                }
            }
        }
        for x in 0..w {
            label[x] = if down[x] {
                remap[label[x] as usize]
            } else {
                next += 1;
                next - 1
            };
        }
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u32;
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::tree::is_spanning_tree;

    #[test]
    fn every_algorithm_size_and_bias_gives_a_spanning_tree() {
        for algorithm in TreeAlgorithm::ALL {
            for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (9, 7), (31, 17)] {
                for bias in [-1.0, -0.3, 0.0, 0.7, 1.0] {
                    let tree = GridTree::carve_by(algorithm, w, h, bias, 3).unwrap();
                    assert!(is_spanning_tree(&tree), "{algorithm:?} {w}×{h} bias {bias}");
                    assert_eq!(tree, GridTree::carve_by(algorithm, w, h, bias, 3).unwrap(), "deterministic");
                }
            }
        }
    }

    #[test]
    fn full_bias_shapes_the_row_carvers() {
        // Bias 1: binary tree and Sidewinder open every row whole; Eller joins whole rows too.
        for algorithm in [TreeAlgorithm::BinaryTree, TreeAlgorithm::Sidewinder, TreeAlgorithm::Eller] {
            let tree = GridTree::carve_by(algorithm, 9, 7, 1.0, 5).unwrap();
            assert!((0..7).all(|y| (0..8).all(|x| tree.open_right(x, y))), "{algorithm:?}");
        }
        // Bias −1: binary tree opens every column whole.
        let tree = GridTree::carve_by(TreeAlgorithm::BinaryTree, 9, 7, -1.0, 5).unwrap();
        assert!((0..9).all(|x| (0..6).all(|y| tree.open_down(x, y))));
    }

    #[test]
    fn unbiased_binary_tree_and_sidewinder_flip_fair_coins() {
        // About half the inner cells of an unbiased binary tree open left.
        let tree = GridTree::carve_by(TreeAlgorithm::BinaryTree, 200, 200, 0.0, 9).unwrap();
        let left =
            (1..200).flat_map(|y| (1..200).map(move |x| (x, y))).filter(|&(x, y)| tree.connected_left(x, y)).count();
        let share = left as f64 / (199.0 * 199.0);
        assert!((share - 0.5).abs() < 0.02, "{share}");
        // Sidewinder's runs average two cells: about half the passages below row 0 go right.
        let tree = GridTree::carve_by(TreeAlgorithm::Sidewinder, 200, 200, 0.0, 9).unwrap();
        let right =
            (1..200).flat_map(|y| (0..199).map(move |x| (x, y))).filter(|&(x, y)| tree.open_right(x, y)).count();
        let share = right as f64 / (199.0 * 199.0);
        assert!((share - 0.5).abs() < 0.02, "{share}");
    }

    #[test]
    fn the_backtracker_makes_long_corridors_and_prim_many_dead_ends() {
        // The textures people choose these algorithms for: dead ends (cells with one passage).
        let dead_ends = |algorithm| {
            let tree = GridTree::carve_by(algorithm, 100, 100, 0.0, 4).unwrap();
            let mut degree = vec![0u8; 100 * 100];
            for [a, b] in tree.passages() {
                degree[a as usize] += 1;
                degree[b as usize] += 1;
            }
            degree.iter().filter(|&&d| d == 1).count() as f64 / 10_000.0
        };
        let backtracker = dead_ends(TreeAlgorithm::RecursiveBacktracker);
        let prim = dead_ends(TreeAlgorithm::Prim);
        let uniform = dead_ends(TreeAlgorithm::AldousBroder);
        assert!(backtracker < 0.15, "backtracker {backtracker}");
        assert!(prim > 0.3, "prim {prim}");
        assert!((uniform - 0.29).abs() < 0.03, "Aldous–Broder (uniform) {uniform}");
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(GridTree::carve_by(TreeAlgorithm::Eller, 0, 5, 0.0, 1).is_err());
        assert!(GridTree::carve_by(TreeAlgorithm::Prim, 5, 5, 1.5, 1).is_err());
        assert!(GridTree::carve_by(TreeAlgorithm::GrowingTree { newest_percent: 101 }, 5, 5, 0.0, 1).is_err());
    }
}
