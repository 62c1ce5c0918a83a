//! Generation as an explicit sequence of steps, so a viewer can show every intermediate state.
//!
//! [`Generator`] is a state machine and an [`Iterator`] of [`Step`] events. After each step,
//! [`Generator::maze`] is the maze so far. [`crate::generate`] is nothing but "run every step",
//! so stepping and the one-shot call give the same maze bit for bit.

use glam::vec2;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::config::{Config, Shape};
use crate::error::{ConfigError, Error};
use crate::grid::GridTree;
use crate::maze::{Edge, EdgeKind, Key, Layout, Maze, NO_NODE};
use crate::{delaunay, spanning, zones};

/// One generation event. Indices refer to the maze as it stands after the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The base graph exists: nodes placed, planar graph (Delaunay or grid) built.
    Graph {
        /// Nodes.
        nodes: u32,
        /// Edges of the base graph.
        edges: u32,
    },
    /// The random spanning tree exists (all of it in zone 0), rooted at `root`.
    Tree {
        /// Start node.
        root: u32,
    },
    /// A locked door was put on a tree edge, closing a new zone.
    Door {
        /// Index into [`Maze::edges`].
        edge: u32,
        /// Door color (0 is the first a player opens).
        color: u8,
        /// The zone it closes (`color + 1`).
        zone: u16,
        /// Nodes moved into the new zone.
        size: u32,
        /// The subtree size that was aimed at.
        target: f32,
    },
    /// A key was dropped.
    Key {
        /// Its color.
        color: u8,
        /// The node it lies on.
        node: u32,
    },
    /// A cycle edge was added inside one zone.
    Cycle {
        /// Index into [`Maze::edges`].
        edge: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Graph,
    Tree,
    Door,
    Key(u8),
    Cycles,
    Done,
}

/// A spanning tree drawn by the tree step: balance, the rooted tree, its graph edges and the
/// doors the balance check chose.
type Candidate = (f64, spanning::Rooted, Vec<u32>, Vec<(u32, u32)>);

/// The step-by-step maze generator.
///
/// ```
/// use lore_mazegen::{Config, Generator, Step};
/// let mut generator = Generator::new(&Config::points(200).zones(4).cycles(10).seed(7))?;
/// let mut doors = 0;
/// while let Some(step) = generator.next() {
///     if let Step::Door { .. } = step {
///         doors += 1; // generator.maze() shows the maze with this door closed
///     }
/// }
/// assert_eq!(doors, 3);
/// assert_eq!(generator.into_maze(), lore_mazegen::generate(&Config::points(200).zones(4).cycles(10).seed(7))?);
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
#[derive(Debug)]
pub struct Generator {
    config: Config,
    rng: Pcg64Mcg,
    maze: Maze,
    phase: Phase,
    order: Vec<u32>,
    depth: Vec<u32>,
    leaves_by_depth: Vec<u32>,
    tree_edge_of: Vec<u32>,
    /// `in_tree[g]`: graph edge `g` is a tree edge (cycle candidates are the others).
    in_tree: Vec<bool>,
    scratch: Vec<u32>,
    /// The doors the tree step's balance check chose, `(node, subtree size)` in closing order.
    door_plan: Vec<(u32, u32)>,
    doors_placed: u16,
    cycle_candidates: Vec<u32>,
    cycles_added: u32,
}

impl Generator {
    /// Validates the config and builds the base graph (the first step reports it).
    ///
    /// # Errors
    /// [`Error::Config`] for a bad config, [`Error::Triangulation`] if the points cannot
    /// be triangulated.
    pub fn new(config: &Config) -> Result<Self, Error> {
        config.validate()?;
        let mut rng = Pcg64Mcg::seed_from_u64(config.seed);
        let (layout, positions, graph) = match config.shape {
            Shape::Points { count, width, height } => {
                let points = delaunay::random_points(&mut rng, count, width, height);
                let (positions, graph) = delaunay::triangulate(&points)?;
                (Layout::Points, positions, graph)
            }
            Shape::Grid { width, height } => {
                let (positions, graph) = crate::grid::grid_graph(width, height);
                (Layout::Grid { width, height }, positions, graph)
            }
        };
        let n = positions.len();
        if usize::from(config.zones) > n {
            return Err(Error::Config(ConfigError::ZonesOverPoints { zones: config.zones, points: n }));
        }
        let root = match (layout, config.root) {
            (Layout::Grid { .. }, _) => 0,
            (Layout::Points, Some(r)) if (r as usize) < n => r,
            (Layout::Points, Some(r)) => {
                return Err(Error::Config(ConfigError::RootMissing { root: r, points: n }));
            }
            (Layout::Points, None) => {
                let top_left = match config.shape {
                    Shape::Points { height, .. } => vec2(0.0, height),
                    Shape::Grid { .. } => vec2(0.0, 0.0),
                };
                let mut best = 0u32;
                for (i, p) in positions.iter().enumerate() {
                    if p.distance_squared(top_left) < positions[best as usize].distance_squared(top_left) {
                        best = i as u32;
                    }
                }
                best
            }
        };
        let maze = Maze {
            layout,
            positions,
            graph,
            root,
            parent: vec![NO_NODE; n],
            edges: Vec::new(),
            keys: Vec::new(),
            zone: vec![0; n],
            zone_count: config.zones,
        };
        Ok(Self {
            config: *config,
            rng,
            maze,
            phase: Phase::Graph,
            order: Vec::new(),
            depth: Vec::new(),
            leaves_by_depth: Vec::new(),
            tree_edge_of: Vec::new(),
            in_tree: Vec::new(),
            scratch: Vec::new(),
            door_plan: Vec::new(),
            doors_placed: 0,
            cycle_candidates: Vec::new(),
            cycles_added: 0,
        })
    }

    /// The maze as it stands after the last step.
    #[must_use]
    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    /// The finished (or partial) maze, consuming the generator.
    #[must_use]
    pub fn into_maze(self) -> Maze {
        self.maze
    }

    /// True once every step has run.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Runs the remaining steps and returns the finished maze.
    #[must_use]
    pub fn finish(mut self) -> Maze {
        while self.next().is_some() {}
        self.maze
    }

    fn build_tree(&mut self) -> Step {
        let m = &mut self.maze;
        let n = m.positions.len();
        let grid_carver = match m.layout {
            Layout::Grid { width, height } => Some((width, height)),
            Layout::Points => None,
        };
        let horizontal: Vec<bool> = if grid_carver.is_some() {
            Vec::new()
        } else {
            m.graph
                .iter()
                .map(|&[a, b]| {
                    let d = m.positions[b as usize] - m.positions[a as usize];
                    d.x.abs() >= d.y.abs()
                })
                .collect()
        };
        let k = m.zone_count;
        let mut best: Option<Candidate> = None;
        for attempt in 0..self.config.balance_tries {
            let bias = self.config.horizontal_bias;
            let (tree, rooted) = match grid_carver {
                // Same distributions as the general Kruskal and Wilson, several times faster; the
                // walk from the root reads the carver's bits instead of building an adjacency list.
                Some((width, height)) => {
                    let carved = GridTree::carve_by_with(self.config.tree, &mut self.rng, width, height, bias);
                    (carved.graph_edges(&m.graph), carved.orient(m.root))
                }
                None => {
                    let tree = spanning::random_tree(&mut self.rng, n, &m.graph, &horizontal, bias, self.config.tree);
                    let pairs: Vec<(u32, u32)> =
                        tree.iter().map(|&e| (m.graph[e as usize][0], m.graph[e as usize][1])).collect();
                    let rooted = spanning::orient(n, &pairs, m.root);
                    (tree, rooted)
                }
            };
            let last = attempt + 1 == self.config.balance_tries || k <= 1;
            let (balance, doors) =
                if k <= 1 { (0.0, Vec::new()) } else { zones::simulate_balance(&rooted, k, &mut self.scratch) };
            if best.as_ref().is_none_or(|(b, ..)| balance < *b) {
                best = Some((balance, rooted, tree, doors));
            }
            if last || balance <= f64::from(self.config.balance_goal) {
                break;
            }
        }
        let Some((_, rooted, tree, doors)) = best else { unreachable!("balance_tries >= 1 is validated") };
        self.door_plan = doors;
        self.in_tree = vec![false; m.graph.len()];
        for &g in &tree {
            self.in_tree[g as usize] = true;
        }
        debug_assert_eq!(rooted.order.len(), n, "base graphs are connected");
        self.tree_edge_of = vec![NO_NODE; n];
        for &v in &rooted.order[1..] {
            self.tree_edge_of[v as usize] = m.edges.len() as u32;
            m.edges.push(Edge { a: rooted.parent[v as usize], b: v, door: None, kind: EdgeKind::Tree });
        }
        // Only keys need the leaves; a maze without doors skips them.
        self.leaves_by_depth = if k > 1 { zones::leaves_by_depth(&rooted) } else { Vec::new() };
        m.parent = rooted.parent;
        self.order = rooted.order;
        self.depth = rooted.depth;
        Step::Tree { root: m.root }
    }

    fn place_door(&mut self) -> Option<Step> {
        let m = &mut self.maze;
        let zones_left = m.zone_count - self.doors_placed;
        let free = m.zone.iter().filter(|&&z| z == 0).count();
        let target = free as f64 / f64::from(zones_left);
        // The balance check already chose these doors the same way; recompute only if it stopped.
        let (child, size) = match self.door_plan.get(usize::from(self.doors_placed)) {
            Some(&door) => door,
            None => zones::choose_door(&self.order, &m.parent, &m.zone, target, &mut self.scratch)?,
        };
        // Doors are closed in reverse: the first door closed is the last one a player opens.
        let color = (m.zone_count - 2 - self.doors_placed) as u8;
        let zone = u16::from(color) + 1;
        zones::mark_zone(&self.order, &m.parent, &mut m.zone, child, zone);
        let edge = self.tree_edge_of[child as usize];
        m.edges[edge as usize].door = Some(color);
        self.doors_placed += 1;
        Some(Step::Door { edge, color, zone, size, target: target as f32 })
    }

    fn drop_key(&mut self, color: u8) -> Step {
        let m = &mut self.maze;
        let node = zones::choose_key_node(&self.leaves_by_depth, &self.order, &self.depth, &m.zone, &m.keys);
        m.keys.push(Key { color, node });
        Step::Key { color, node }
    }

    fn list_cycle_candidates(&mut self) {
        let m = &self.maze;
        if self.config.cycles == 0 {
            self.cycle_candidates.clear();
            return;
        }
        let mut candidates: Vec<u32> = m
            .graph
            .iter()
            .enumerate()
            .filter(|&(g, &[a, b])| m.zone[a as usize] == m.zone[b as usize] && !self.in_tree[g])
            .map(|(g, _)| g as u32)
            .collect();
        // A partial Fisher-Yates: only as many draws as cycles wanted.
        let want = (self.config.cycles as usize).min(candidates.len());
        for i in 0..want {
            let j = i + rand::RngExt::random_range(&mut self.rng, 0..(candidates.len() - i) as u32) as usize;
            candidates.swap(i, j);
        }
        candidates.truncate(want);
        candidates.reverse();
        self.cycle_candidates = candidates;
    }
}

impl Iterator for Generator {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        loop {
            match self.phase {
                Phase::Graph => {
                    self.phase = Phase::Tree;
                    return Some(Step::Graph {
                        nodes: self.maze.positions.len() as u32,
                        edges: self.maze.graph.len() as u32,
                    });
                }
                Phase::Tree => {
                    self.phase = Phase::Door;
                    return Some(self.build_tree());
                }
                Phase::Door => {
                    if self.doors_placed + 1 >= self.maze.zone_count {
                        self.phase = Phase::Cycles;
                        self.list_cycle_candidates();
                        continue;
                    }
                    match self.place_door() {
                        Some(step) => {
                            if let Step::Door { color, .. } = step {
                                self.phase = Phase::Key(color);
                            }
                            return Some(step);
                        }
                        None => {
                            // Unreachable by the choice of targets (see docs); stop cleanly anyway.
                            self.phase = Phase::Cycles;
                            self.list_cycle_candidates();
                        }
                    }
                }
                Phase::Key(color) => {
                    self.phase = Phase::Door;
                    return Some(self.drop_key(color));
                }
                Phase::Cycles => match self.cycle_candidates.pop() {
                    Some(g) => {
                        let [a, b] = self.maze.graph[g as usize];
                        let edge = self.maze.edges.len() as u32;
                        self.maze.edges.push(Edge { a, b, door: None, kind: EdgeKind::Cycle });
                        self.cycles_added += 1;
                        return Some(Step::Cycle { edge });
                    }
                    None => self.phase = Phase::Done,
                },
                Phase::Done => return None,
            }
        }
    }
}

/// Generates a whole maze in one call (runs every [`Generator`] step).
///
/// # Errors
/// As [`Generator::new`].
pub fn generate(config: &Config) -> Result<Maze, Error> {
    Ok(Generator::new(config)?.finish())
}
