//! The maze itself: nodes, passable edges, doors, keys and zones.

use glam::Vec2;
use petgraph::graph::NodeIndex;

/// Marker for "no node" in [`Maze::parent`] (the root's parent).
pub const NO_NODE: u32 = u32::MAX;

/// Why an edge is passable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EdgeKind {
    /// An edge of the random spanning tree.
    Tree,
    /// An extra edge from the base graph, added after the zones to make a loop inside one zone.
    Cycle,
}

/// A passable connection between two nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Edge {
    /// One end (the parent, for tree edges).
    pub a: u32,
    /// The other end (the child, for tree edges).
    pub b: u32,
    /// `Some(color)` when a locked door sits on the edge; any key of that color opens it.
    pub door: Option<u8>,
    /// Tree or cycle edge.
    pub kind: EdgeKind,
}

/// A key lying on a node. Keys are never consumed: one key opens every door of its color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Key {
    /// The color of the doors it opens.
    pub color: u8,
    /// The node it lies on.
    pub node: u32,
}

/// The shape of the base graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Layout {
    /// Delaunay triangulation of random points ("logic maze").
    Points,
    /// A `width × height` grid of cells, node id `y * width + x`, row 0 at the top.
    Grid {
        /// Cells per row.
        width: u32,
        /// Rows.
        height: u32,
    },
}

/// A generated (or hand-made) maze.
///
/// Node `i` sits at `positions[i]` (y-up world units). The player starts at `root` holding no
/// key; color 0 is the first door a player opens, color `zone_count - 2` the last, and zone
/// `c + 1` is the zone behind the doors of color `c` (zone 0 holds the root).
///
/// Fields are public so tools can build mazes by hand; [`crate::check`] validates whatever it is
/// given and never trusts the generator.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Maze {
    /// Base graph shape.
    pub layout: Layout,
    /// Node positions (y-up; grid cell `(x, y)` is centred at `(x + 0.5, height - y - 0.5)`).
    pub positions: Vec<Vec2>,
    /// The planar base graph the tree and cycles were taken from, `(a, b)` with `a < b`.
    pub graph: Vec<[u32; 2]>,
    /// Start node.
    pub root: u32,
    /// Tree parent of each node ([`NO_NODE`] for the root and before the tree exists).
    pub parent: Vec<u32>,
    /// Passable edges: the tree edges (in tree order), then the cycle edges in the order added.
    pub edges: Vec<Edge>,
    /// Keys in the order they were dropped (the reverse of the order a player picks them up).
    pub keys: Vec<Key>,
    /// Zone of each node as generated.
    pub zone: Vec<u16>,
    /// Number of zones asked for (`doors + 1`).
    pub zone_count: u16,
}

impl Maze {
    /// Number of nodes.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.positions.len()
    }

    /// The edges holding a door, with their index in [`Maze::edges`].
    pub fn doors(&self) -> impl Iterator<Item = (usize, &Edge)> + '_ {
        self.edges.iter().enumerate().filter(|(_, e)| e.door.is_some())
    }

    /// How many nodes each zone holds, indexed by zone.
    #[must_use]
    pub fn zone_sizes(&self) -> Vec<u32> {
        let mut sizes = vec![0u32; usize::from(self.zone_count.max(1))];
        for &z in &self.zone {
            if let Some(s) = sizes.get_mut(usize::from(z)) {
                *s += 1;
            }
        }
        sizes
    }

    /// Grid size when the maze was built on a grid.
    #[must_use]
    pub fn grid_size(&self) -> Option<(u32, u32)> {
        match self.layout {
            Layout::Grid { width, height } => Some((width, height)),
            Layout::Points => None,
        }
    }

    /// The maze as a petgraph graph: node weights are positions, edge weights the [`Edge`]s.
    #[must_use]
    pub fn to_petgraph(&self) -> petgraph::graph::UnGraph<Vec2, Edge> {
        let mut g = petgraph::graph::UnGraph::with_capacity(self.positions.len(), self.edges.len());
        for &p in &self.positions {
            g.add_node(p);
        }
        for e in &self.edges {
            g.add_edge(NodeIndex::new(e.a as usize), NodeIndex::new(e.b as usize), *e);
        }
        g
    }
}
