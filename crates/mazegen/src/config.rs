//! What to generate: the base graph, zones, cycles, bias and seed.

use crate::error::{ConfigError, Error};
use crate::tree_algorithm::TreeAlgorithm;

/// Largest node count accepted (keeps `u32` ids and memory sane for untrusted sizes).
pub const MAX_NODES: u64 = 1 << 26;

/// Most zones a maze can have: door colors are `u8`, so 255 doors.
pub const MAX_ZONES: u16 = 256;

/// The base graph the maze is dug from.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// `count` random points in a `width × height` rectangle, Delaunay-triangulated (a logic maze).
    Points {
        /// How many random points (duplicates are merged by the triangulation).
        count: u32,
        /// Rectangle width, world units.
        width: f32,
        /// Rectangle height, world units.
        height: f32,
    },
    /// A grid of cells, 4-connected (a grid maze; root at the top-left cell).
    Grid {
        /// Cells per row.
        width: u32,
        /// Rows.
        height: u32,
    },
}

impl TreeAlgorithm {
    /// Checks the algorithm's parameter.
    ///
    /// # Errors
    /// [`Error::Config`] when a growing tree's `newest_percent` is above 100.
    pub fn validate(self) -> Result<(), Error> {
        match self {
            Self::GrowingTree { newest_percent } if newest_percent > 100 => {
                Err(Error::Config(ConfigError::GrowingTreePercent))
            }
            _ => Ok(()),
        }
    }
}

/// Everything a generator needs. Build one with [`Config::points`] or [`Config::grid`] and the
/// builder methods; every field is checked by [`Config::validate`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impls::ConfigRecord")
)]
pub struct Config {
    /// Base graph.
    pub shape: Shape,
    /// Number of zones (`zones - 1` locked doors), 1 to [`MAX_ZONES`] and at most the node count.
    pub zones: u16,
    /// How many extra edges to add inside zones (fewer if the graph has fewer candidates).
    pub cycles: u32,
    /// Preference for horizontal edges in the tree, `-1.0..=1.0` (0 = none, 1 = horizontal first).
    pub horizontal_bias: f32,
    /// Start node for point mazes; `None` picks the point nearest the top-left corner.
    /// Grid mazes always start at the top-left cell.
    pub root: Option<u32>,
    /// Spanning tree algorithm.
    pub tree: TreeAlgorithm,
    /// Zone balance to aim for: max over zones of `|size − N/K| / (N/K)` (default 0.25).
    pub balance_goal: f32,
    /// How many spanning trees to draw at most while the zones miss `balance_goal`; the best
    /// one is kept (default 128, at least 1). 1 means the first tree, as in the post.
    pub balance_tries: u16,
    /// Seed: the same seed and config give the same maze on every platform.
    pub seed: u64,
}

impl Config {
    /// A logic maze over `count` random points in a 100 × 100 square, 4 zones, no cycles.
    #[must_use]
    pub fn points(count: u32) -> Self {
        Self::with_shape(Shape::Points { count, width: 100.0, height: 100.0 })
    }

    /// A grid maze of `width × height` cells, 4 zones, no cycles, no bias, and an exactly
    /// uniform spanning tree ([`TreeAlgorithm::Wilson`], which [`crate::GridTree::carve_uniform`]
    /// draws faster on a grid than Kruskal's does).
    #[must_use]
    pub fn grid(width: u32, height: u32) -> Self {
        Self { tree: TreeAlgorithm::Wilson, ..Self::with_shape(Shape::Grid { width, height }) }
    }

    fn with_shape(shape: Shape) -> Self {
        Self {
            shape,
            zones: 4,
            cycles: 0,
            horizontal_bias: 0.0,
            root: None,
            tree: TreeAlgorithm::Kruskal,
            balance_goal: 0.25,
            balance_tries: 128,
            seed: 0,
        }
    }

    /// Sets the number of zones.
    #[must_use]
    pub fn zones(mut self, zones: u16) -> Self {
        self.zones = zones;
        self
    }

    /// Sets the number of cycle edges.
    #[must_use]
    pub fn cycles(mut self, cycles: u32) -> Self {
        self.cycles = cycles;
        self
    }

    /// Sets the horizontal bias.
    #[must_use]
    pub fn bias(mut self, bias: f32) -> Self {
        self.horizontal_bias = bias;
        self
    }

    /// Sets the seed.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the spanning tree algorithm.
    #[must_use]
    pub fn tree(mut self, tree: TreeAlgorithm) -> Self {
        self.tree = tree;
        self
    }

    /// Sets the zone balance goal and how many trees may be drawn to reach it.
    #[must_use]
    pub fn balance(mut self, goal: f32, tries: u16) -> Self {
        self.balance_goal = goal;
        self.balance_tries = tries;
        self
    }

    /// Sets the root node of a point maze.
    #[must_use]
    pub fn root(mut self, root: u32) -> Self {
        self.root = Some(root);
        self
    }

    /// Number of nodes the shape asks for (before duplicate points are merged).
    #[must_use]
    pub fn requested_nodes(&self) -> u64 {
        match self.shape {
            Shape::Points { count, .. } => u64::from(count),
            Shape::Grid { width, height } => u64::from(width) * u64::from(height),
        }
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::Config`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |e: ConfigError| Err(Error::Config(e));
        match self.shape {
            Shape::Points { count, width, height } => {
                if self.tree.grid_only() {
                    return bad(ConfigError::GridOnlyTree { tree: self.tree });
                }
                if count < 3 {
                    return bad(ConfigError::TooFewPoints);
                }
                if !(width.is_finite() && height.is_finite() && width > 0.0 && height > 0.0) {
                    return bad(ConfigError::PointArea);
                }
            }
            Shape::Grid { width, height } => {
                if width == 0 || height == 0 {
                    return bad(ConfigError::GridSize);
                }
            }
        }
        let n = self.requested_nodes();
        if n > MAX_NODES {
            return bad(ConfigError::TooManyNodes);
        }
        if self.zones == 0 || self.zones > MAX_ZONES {
            return bad(ConfigError::Zones);
        }
        if u64::from(self.zones) > n {
            return bad(ConfigError::MoreZonesThanNodes);
        }
        if !(self.horizontal_bias.is_finite() && (-1.0..=1.0).contains(&self.horizontal_bias)) {
            return bad(ConfigError::Bias);
        }
        if !(self.balance_goal.is_finite() && self.balance_goal >= 0.0) {
            return bad(ConfigError::BalanceGoal);
        }
        self.tree.validate()?;
        if self.balance_tries == 0 {
            return bad(ConfigError::BalanceTries);
        }
        if let Some(root) = self.root
            && u64::from(root) >= n
        {
            return bad(ConfigError::Root);
        }
        Ok(())
    }
}
