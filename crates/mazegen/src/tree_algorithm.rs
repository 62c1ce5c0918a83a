//! The spanning-tree algorithms a maze is carved with (below the error type, which names them).

/// How the random spanning tree is drawn: the algorithm sets the maze's texture (corridor
/// length, dead ends, a visible grain), the same choice knossos and the textbooks offer.
///
/// Every algorithm takes the horizontal bias (positive favours horizontal passages) and gives a
/// perfect maze (a spanning tree) for the same seed on every platform. [`Eller`](Self::Eller),
/// [`Sidewinder`](Self::Sidewinder) and [`BinaryTree`](Self::BinaryTree) work row by row and
/// need a grid; the others run on logic mazes too.
///
/// | algorithm | texture |
/// | --- | --- |
/// | `Kruskal` | many short dead ends, no grain |
/// | `Wilson`, `AldousBroder` | uniform among all spanning trees (unbiased) |
/// | `RecursiveBacktracker` | long winding corridors, few dead ends |
/// | `Prim` | many short dead ends radiating from the start |
/// | `HuntAndKill` | long corridors like the backtracker, a little more branching |
/// | `GrowingTree` | between the backtracker (100 % newest) and Prim (0 %) |
/// | `Eller` | rows of runs, any height in constant memory per row |
/// | `Sidewinder` | an open top row, vertical grain |
/// | `BinaryTree` | an open top row and left column, a diagonal grain |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TreeAlgorithm {
    /// Kruskal over a random edge order (horizontal and vertical edges drawn with weights
    /// `1 + bias` and `1 - bias`). Fast; with bias 0 the order is a uniform shuffle.
    #[default]
    Kruskal,
    /// Wilson's loop-erased random walks: with bias 0 the tree is exactly uniform among all
    /// spanning trees; with a bias, walks step horizontally with weight `1 + bias` and vertically
    /// with `1 - bias`, each at least 0.01 so a walk can always leave its row or column.
    Wilson,
    /// Depth-first search from the start with a stack: step to a random unvisited neighbour
    /// (weighted by the bias as Wilson's walks are), back up when there is none.
    RecursiveBacktracker,
    /// Randomised Prim: grow the tree by a random frontier edge (drawn with weight `1 + bias`
    /// for horizontal edges and `1 − bias` for vertical ones).
    Prim,
    /// Walk to random unvisited neighbours until stuck, then hunt for the first unvisited node
    /// (raster order on a grid, breadth-first order on a logic maze) and join it to the tree.
    HuntAndKill,
    /// A random walk over the whole graph that keeps the first entry into each node: uniform
    /// spanning trees like Wilson's, slower (the walk must cover the graph).
    AldousBroder,
    /// The growing-tree family: a list of active nodes, extended from the newest one with
    /// probability `newest_percent` / 100 and from a random one otherwise (100 is the
    /// backtracker's texture, 0 close to Prim's).
    GrowingTree {
        /// Percentage (0 to 100) of steps taken from the newest active node.
        newest_percent: u8,
    },
    /// Eller's row-by-row algorithm (grids only): neighbours in a row join with probability
    /// `(1 + bias) / 2`, each set carries down at least once.
    Eller,
    /// Sidewinder (grids only): runs along each row (continued with probability
    /// `(1 + bias) / 2`), each opening up from one random cell; the top row is one corridor.
    Sidewinder,
    /// Binary tree (grids only): every cell opens left (probability `(1 + bias) / 2`) or up.
    BinaryTree,
}

impl TreeAlgorithm {
    /// Every algorithm, growing tree at 50 % newest.
    pub const ALL: [TreeAlgorithm; 10] = [
        TreeAlgorithm::Kruskal,
        TreeAlgorithm::Wilson,
        TreeAlgorithm::RecursiveBacktracker,
        TreeAlgorithm::Prim,
        TreeAlgorithm::HuntAndKill,
        TreeAlgorithm::AldousBroder,
        TreeAlgorithm::GrowingTree { newest_percent: 50 },
        TreeAlgorithm::Eller,
        TreeAlgorithm::Sidewinder,
        TreeAlgorithm::BinaryTree,
    ];

    /// True for the algorithms that work row by row and so need a grid.
    #[must_use]
    pub fn grid_only(self) -> bool {
        matches!(self, Self::Eller | Self::Sidewinder | Self::BinaryTree)
    }
}
