//! [`GridTree`], the grid carvers' output: a spanning tree of the grid as two bits per cell, and
//! what both carvers share (the size checks, the edge numbering, the orientation from a root).

use crate::config::MAX_NODES;
use crate::error::{ConfigError, Error};
use crate::spanning::{Rooted, orient_by};

/// A perfect maze on a grid: a spanning tree of the `width × height` grid-graph, stored as two
/// bits per cell (open to the right, open downwards). Row 0 is the top; cell `(x, y)` is
/// `y * width + x`, as in grid [`crate::Maze`]s.
///
/// This is the fast path for people who want only the maze's walls: no zones, doors, keys or
/// positions. Two carvers make one: [`GridTree::carve_uniform`] (Wilson's algorithm, exactly
/// uniform trees, the faster of the two: about 2× at 1000 × 1000, 4× at 3000 × 3000) and
/// [`GridTree::carve`] (Kruskal's, a random minimum spanning tree, slightly more dead ends).
/// [`crate::generate`] uses them for grid mazes with [`crate::TreeAlgorithm::Wilson`] and
/// [`crate::TreeAlgorithm::Kruskal`], so `GridTree::carve(w, h, bias, seed)` is the tree of
/// `generate(&Config::grid(w, h).bias(bias).seed(seed))` whenever that keeps its first tree
/// (one zone, or `balance(_, 1)`), and likewise for the uniform carver with `.tree(Wilson)`.
///
/// ```
/// use lore_mazegen::GridTree;
/// let tree = GridTree::carve(1000, 1000, 0.0, 7)?;
/// assert_eq!(tree.passage_count(), 1000 * 1000 - 1);
/// assert!(!tree.connected_left(0, 5)); // the outer wall
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GridTree {
    width: u32,
    height: u32,
    /// Bit `e` (word `e / 64`, bit `e % 64`) is set when edge `e` is a passage: `e = 2c` is the
    /// edge from cell `c` to the right, `e = 2c + 1` the edge downwards.
    open: Vec<u64>,
}

impl GridTree {
    /// A tree from its passage bits (see [`GridTree::words`]).
    pub(super) fn from_words(width: u32, height: u32, open: Vec<u64>) -> Self {
        debug_assert_eq!(open.len(), (2 * width as usize * height as usize).div_ceil(64));
        Self { width, height, open }
    }

    /// Opens edge `edge` (see [`GridTree::words`]).
    pub(super) fn open_edge(&mut self, edge: usize) {
        self.open[edge / 64] |= 1 << (edge % 64);
    }

    /// Cells per row.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of passages (`width × height − 1` for a spanning tree).
    #[must_use]
    pub fn passage_count(&self) -> usize {
        self.open.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn bit(&self, edge: usize) -> bool {
        self.open[edge / 64] >> (edge % 64) & 1 == 1
    }

    fn inside(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height
    }

    /// True when cell `(x, y)` is open to the cell on its right (false outside the grid).
    #[must_use]
    pub fn open_right(&self, x: u32, y: u32) -> bool {
        self.inside(x, y) && self.bit(2 * (y as usize * self.width as usize + x as usize))
    }

    /// True when cell `(x, y)` is open to the cell below it (false outside the grid).
    #[must_use]
    pub fn open_down(&self, x: u32, y: u32) -> bool {
        self.inside(x, y) && self.bit(2 * (y as usize * self.width as usize + x as usize) + 1)
    }

    /// True when cell `(x, y)` is open to the cell on its left, as [`crate::Cell::connected_left`].
    #[must_use]
    pub fn connected_left(&self, x: u32, y: u32) -> bool {
        x > 0 && self.inside(x, y) && self.open_right(x - 1, y)
    }

    /// True when cell `(x, y)` is open to the cell above, as [`crate::Cell::connected_up`].
    #[must_use]
    pub fn connected_up(&self, x: u32, y: u32) -> bool {
        y > 0 && self.inside(x, y) && self.open_down(x, y - 1)
    }

    /// The passages as node pairs `[a, b]` (`a < b`, node `y * width + x`), in raster order of `a`,
    /// the right passage before the downward one.
    pub fn passages(&self) -> impl Iterator<Item = [u32; 2]> + '_ {
        let width = self.width;
        self.open.iter().enumerate().flat_map(move |(i, &word)| {
            BitIter(word).map(move |bit| {
                let edge = (i * 64 + bit as usize) as u32;
                let (a, b) = ends(edge, width);
                [a, b]
            })
        })
    }

    /// The tree's edges as indices into a grid-graph's edge list (`graph[i]` is `[a, a + 1]` or
    /// `[a, a + width]`), in the list's order.
    pub(crate) fn graph_edges(&self, graph: &[[u32; 2]]) -> Vec<u32> {
        let mut tree = Vec::with_capacity((self.width as usize * self.height as usize).saturating_sub(1));
        for (i, &[a, b]) in graph.iter().enumerate() {
            // `b == a + width` first: in a one-cell-wide grid `a + 1` is the cell below.
            let edge = 2 * a as usize + usize::from(b == a + self.width);
            if self.bit(edge) {
                tree.push(i as u32);
            }
        }
        tree
    }

    /// The tree seen from `root`, exactly as [`crate::spanning::orient`] gives it for the
    /// same passages in grid-graph order: breadth-first, each cell's neighbours taken up, left,
    /// right, down (the order of their edges in the grid-graph's list).
    pub(crate) fn orient(&self, root: u32) -> Rooted {
        let (w, n) = (self.width as usize, self.width as usize * self.height as usize);
        orient_by(n, root, |v, bfs| {
            let c = v as usize;
            // A right edge is never open from the last column, nor a downward one from the last
            // row, so the bits alone say which neighbours exist.
            if c >= w && self.bit(2 * (c - w) + 1) {
                bfs.offer(v, v - self.width);
            }
            if c > 0 && self.bit(2 * (c - 1)) {
                bfs.offer(v, v - 1);
            }
            if self.bit(2 * c) {
                bfs.offer(v, v + 1);
            }
            if self.bit(2 * c + 1) {
                bfs.offer(v, v + self.width);
            }
        })
    }

    /// The raw bits: bit `e % 64` of word `e / 64` is set when edge `e` is open, where edge
    /// `2c` leads from cell `c` to the right and `2c + 1` downwards.
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.open
    }
}

/// Set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// The two cells of edge `edge`.
pub(super) fn ends(edge: u32, width: u32) -> (u32, u32) {
    let a = edge >> 1;
    // Branch-free: `a + 1` for a right edge, `a + width` for a downward one.
    (a, a + 1 + (edge & 1) * (width - 1))
}

/// The checks shared by both carvers.
pub(super) fn check(width: u32, height: u32, horizontal_bias: f32) -> Result<(), Error> {
    if width == 0 || height == 0 {
        return Err(Error::Config(ConfigError::GridSize));
    }
    if u64::from(width) * u64::from(height) > MAX_NODES {
        return Err(Error::Config(ConfigError::TooManyNodes));
    }
    if !(horizontal_bias.is_finite() && (-1.0..=1.0).contains(&horizontal_bias)) {
        return Err(Error::Config(ConfigError::Bias));
    }
    Ok(())
}

#[cfg(test)]
/// True when the passages join every cell with no loop (shared by both carvers' tests).
pub(super) fn is_spanning_tree(tree: &GridTree) -> bool {
    let n = (tree.width * tree.height) as usize;
    let mut sets = crate::sets::DisjointSets::new(n);
    let mut edges = 0;
    for [a, b] in tree.passages() {
        edges += 1;
        if !sets.union(a, b) {
            return false;
        }
    }
    edges + 1 == n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_edges_name_the_same_passages() {
        for (w, h) in [(1, 6), (6, 1), (5, 4)] {
            let (_, graph) = crate::grid::grid_graph(w, h);
            let tree = GridTree::carve(w, h, 0.4, 9).unwrap();
            let mut from_graph: Vec<[u32; 2]> = tree.graph_edges(&graph).iter().map(|&g| graph[g as usize]).collect();
            let mut passages: Vec<[u32; 2]> = tree.passages().collect();
            from_graph.sort_unstable();
            passages.sort_unstable();
            assert_eq!(from_graph, passages, "{w}×{h}");
            assert_eq!(passages.len() as u32, w * h - 1);
        }
    }

    #[test]
    fn orient_matches_the_general_one() {
        for (w, h, root) in [(1, 1, 0), (1, 6, 2), (6, 1, 5), (9, 7, 0), (9, 7, 31), (40, 30, 611)] {
            let (_, graph) = crate::grid::grid_graph(w, h);
            let tree = GridTree::carve(w, h, 0.1, 4).unwrap();
            let pairs: Vec<(u32, u32)> =
                tree.graph_edges(&graph).iter().map(|&g| (graph[g as usize][0], graph[g as usize][1])).collect();
            let general = crate::spanning::orient((w * h) as usize, &pairs, root);
            let grid = tree.orient(root);
            assert_eq!(
                (grid.parent, grid.order, grid.depth, grid.children),
                (general.parent, general.order, general.depth, general.children),
                "{w}×{h} from {root}"
            );
        }
    }

    #[test]
    fn walls_read_the_same_from_both_sides() {
        let tree = GridTree::carve(20, 10, 0.2, 5).unwrap();
        for y in 0..10 {
            for x in 0..19 {
                assert_eq!(tree.open_right(x, y), tree.connected_left(x + 1, y));
            }
            assert!(!tree.open_right(19, y) && !tree.connected_left(0, y));
        }
        for x in 0..20 {
            for y in 0..9 {
                assert_eq!(tree.open_down(x, y), tree.connected_up(x, y + 1));
            }
            assert!(!tree.open_down(x, 9) && !tree.connected_up(x, 0));
        }
    }
}
