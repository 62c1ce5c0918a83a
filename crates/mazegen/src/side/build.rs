//! The side-scroller generator: a grid maze, then rooms, passages, slopes and objects as
//! steps, then the reachability check.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::reach::{SideSolution, check_side};
use super::{CELL_INTERIOR_WIDTH, LevelTile, Lift, SideConfig, SideLevel};
use crate::error::Error;
use crate::maze::{Maze, NO_NODE};
use crate::steps::{Generator, Step};

/// How a maze passage is built in tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Climb {
    /// A horizontal passage: the wall column between two rooms is opened.
    Walk,
    /// A horizontal passage closed by a door of this color filling the opening.
    Door(u8),
    /// A vertical passage: a ladder from the lower room's floor to the top of the hole in the
    /// upper room's floor.
    Ladder,
    /// A vertical passage: one-way platforms stacked straight up at most
    /// [`Movement::climb_step`](super::Movement::climb_step) apart, the top one filling the hole.
    Platforms,
    /// A vertical passage: one-way ledges zig-zagging up, the top one filling the hole.
    Ledges,
    /// A vertical passage: a lift shuttling between the lower floor and the hole, which is open
    /// (two tiles wide, within the jump distance).
    Lift,
    /// A vertical passage closed by a hatch of this color on top of a ladder.
    Hatch(u8),
}

/// One generation event; [`SideGenerator::level`] shows the level after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SideStep {
    /// A step of the grid maze underneath (the level is still empty).
    Maze(Step),
    /// Every room is laid out: solid rock with an empty interior per cell.
    Rooms {
        /// Tiles per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A maze passage between cells `a` and `b` (`a < b`) is built.
    Passage {
        /// The upper or left cell.
        a: u32,
        /// The lower or right cell.
        b: u32,
        /// How.
        climb: Climb,
    },
    /// A bump with two slopes is raised in a room with no vertical passage.
    Slope {
        /// The cell.
        cell: u32,
    },
    /// The start is placed.
    Start {
        /// Its tile.
        at: (u32, u32),
    },
    /// A key is placed.
    Key {
        /// Its color.
        color: u8,
        /// Its tile.
        at: (u32, u32),
    },
    /// The exit is placed in the deepest room of the last zone.
    Exit {
        /// Its tile.
        at: (u32, u32),
    },
    /// The check failed, so every platform, ledge and lift passage was rebuilt as a ladder.
    Fallback,
    /// The check proved the level beatable.
    Checked {
        /// Keys picked up on the way.
        keys: u32,
    },
    /// The check failed even with ladders; [`SideGenerator::finish`] returns the reason.
    Unbeatable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Maze,
    Plan,
    Apply,
    Check,
    Done,
}

/// Tiles per cell and where things go inside a room.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    /// Tiles per cell, walls included.
    pitch: (u32, u32),
    /// Cells per row.
    cells_wide: u32,
    /// Platform and ledge spacing.
    step: u32,
}

/// Which side of a room a vertical passage uses: its shaft, its ladder column, its
/// wall-side column and the band of columns further in.
struct Side {
    shaft: [u32; 2],
    ladder: u32,
    wall: u32,
    far: [u32; 2],
}

impl Geometry {
    fn cell(&self, node: u32) -> (u32, u32) {
        (node % self.cells_wide, node / self.cells_wide)
    }

    /// True when cells `a < b` are side by side (else `b` is below `a`).
    fn horizontal(&self, a: u32, b: u32) -> bool {
        b == a + 1 && !b.is_multiple_of(self.cells_wide)
    }

    /// Column of interior index `i` of the rooms in cell column `x`.
    fn column(&self, x: u32, i: u32) -> u32 {
        x * self.pitch.0 + 1 + i
    }

    /// Row of the floor under the rooms in cell row `y`.
    fn floor(&self, y: u32) -> u32 {
        (y + 1) * self.pitch.1
    }

    /// The side of the passage below cell row `y` (alternating, so a room's way up and its hole
    /// down are on opposite sides).
    fn side(&self, x: u32, y: u32) -> Side {
        let w = CELL_INTERIOR_WIDTH;
        let c = |i| self.column(x, i);
        if y.is_multiple_of(2) {
            Side { shaft: [c(1), c(2)], ladder: c(2), wall: c(0), far: [c(3), c(4)] }
        } else {
            Side { shaft: [c(w - 3), c(w - 2)], ladder: c(w - 3), wall: c(w - 1), far: [c(w - 5), c(w - 4)] }
        }
    }
}

/// The step-by-step side-scroller generator: the grid maze's own steps, then the level's, then
/// the check. Like [`Generator`], it is an [`Iterator`] and [`generate_side`] runs it to the end.
///
/// ```
/// use lore_mazegen::{SideConfig, SideGenerator, SideStep};
/// let mut generator = SideGenerator::new(&SideConfig::default().seed(5))?;
/// let mut passages = 0;
/// while let Some(step) = generator.next() {
///     if let SideStep::Passage { .. } = step {
///         passages += 1; // generator.level() shows the level with this passage built
///     }
/// }
/// let level = generator.finish()?;
/// assert!(passages >= 16 * 8 - 1);
/// assert_eq!(level, lore_mazegen::generate_side(&SideConfig::default().seed(5))?);
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
#[derive(Debug)]
pub struct SideGenerator {
    config: SideConfig,
    maze: Generator,
    rng: Pcg64Mcg,
    geometry: Geometry,
    level: SideLevel,
    phase: Phase,
    /// Steps planned and not yet applied, in reverse.
    plan: Vec<SideStep>,
    /// Steps applied so far (a fallback replays them).
    applied: Vec<SideStep>,
    fell_back: bool,
    outcome: Option<Result<SideSolution, Error>>,
}

/// A distinct stream for the level's own choices, so the maze stays the maze `generate` makes.
const LEVEL_STREAM: u64 = 0x51de_5c20_11e4_0001;

impl SideGenerator {
    /// Validates the config and starts the maze generator.
    ///
    /// # Errors
    /// As [`SideConfig::validate`] and [`Generator::new`].
    pub fn new(config: &SideConfig) -> Result<Self, Error> {
        config.validate()?;
        let maze = Generator::new(&config.maze)?;
        let (cells_wide, _) = maze.maze().grid_size().unwrap_or((1, 1));
        let geometry = Geometry { pitch: config.cell_size(), cells_wide, step: config.movement.climb_step() };
        Ok(Self {
            config: *config,
            maze,
            rng: Pcg64Mcg::seed_from_u64(config.maze.seed ^ LEVEL_STREAM),
            geometry,
            level: SideLevel::new(0, 0, config.movement),
            phase: Phase::Maze,
            plan: Vec::new(),
            applied: Vec::new(),
            fell_back: false,
            outcome: None,
        })
    }

    /// The grid maze underneath (finished once the first [`SideStep::Rooms`] is out).
    #[must_use]
    pub fn maze(&self) -> &Maze {
        self.maze.maze()
    }

    /// The level as it stands after the last step.
    #[must_use]
    pub fn level(&self) -> &SideLevel {
        &self.level
    }

    /// True once every step has run.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Runs the remaining steps and returns the checked level.
    ///
    /// # Errors
    /// [`Error::Unbeatable`] if the check fails even with ladders for every way up (no
    /// generated level is known to: the property tests check thousands of seeds), or what the
    /// check reports for a level it cannot read.
    pub fn finish(mut self) -> Result<SideLevel, Error> {
        while self.next().is_some() {}
        // The last step always checks; should it not have, check here.
        let outcome = self.outcome.take().unwrap_or_else(|| check_side(&self.level));
        outcome.map(|_| self.level)
    }

    /// The check's answer once it has run.
    #[must_use]
    pub fn solution(&self) -> Option<&SideSolution> {
        self.outcome.as_ref().and_then(|o| o.as_ref().ok())
    }

    /// Plans every level step from the finished maze.
    fn make_plan(&mut self) -> SideStep {
        let maze = self.maze.maze().clone();
        let g = self.geometry;
        let (cw, chh) = maze.grid_size().unwrap_or((1, 1));
        let (width, height) = (cw * g.pitch.0 + 1, chh * g.pitch.1 + 1);
        let m = self.config.movement;
        let climbs = calibrate(m, g.pitch, g.step);
        let mut steps = Vec::new();
        let mut vertical = vec![false; maze.node_count()];
        for e in &maze.edges {
            let (a, b) = (e.a.min(e.b), e.a.max(e.b));
            let climb = if g.horizontal(a, b) {
                e.door.map_or(Climb::Walk, Climb::Door)
            } else {
                vertical[a as usize] = true;
                vertical[b as usize] = true;
                match e.door {
                    Some(c) => Climb::Hatch(c),
                    None => climbs[self.rng.random_range(0..climbs.len())],
                }
            };
            steps.push(SideStep::Passage { a, b, climb });
        }
        for cell in 0..maze.node_count() as u32 {
            if !vertical[cell as usize] && self.rng.random_range(0..2u32) == 0 {
                steps.push(SideStep::Slope { cell });
            }
        }
        // Objects go on the floors as they stand after the passages and slopes.
        let mut scratch = SideLevel::new(0, 0, m);
        rooms(&mut scratch, &maze.zone, g, width, height);
        for s in &steps {
            apply(&mut scratch, g, *s);
        }
        let mut used = Vec::new();
        let mut spot = |level: &SideLevel, node: u32| {
            let at = free_spot(level, g, node, &used);
            used.push(at);
            at
        };
        let start = spot(&scratch, maze.root);
        steps.push(SideStep::Start { at: start });
        for k in maze.keys.iter().rev() {
            steps.push(SideStep::Key { color: k.color, at: spot(&scratch, k.node) });
        }
        steps.push(SideStep::Exit { at: spot(&scratch, exit_node(&maze)) });
        steps.reverse();
        self.plan = steps;
        SideStep::Rooms { width, height }
    }
}

/// The vertical climbs that work for these movement limits, with their weights (a climb
/// listed twice is drawn twice as often): each candidate is built in a level of two rooms, one
/// above the other, and kept only when the checker gets the character both up and down. A
/// ladder is always kept; a lift only when its two-tile hole is within the jump, so that no
/// gap is wider than the jump.
fn calibrate(m: super::Movement, pitch: (u32, u32), step: u32) -> Vec<Climb> {
    let g = Geometry { pitch, cells_wide: 1, step };
    let mut climbs = vec![Climb::Ladder];
    let lift_ok = m.jump_distance >= 2.0 + m.size.x + 0.5;
    for (climb, weight) in [(Climb::Platforms, 2), (Climb::Ledges, 2), (Climb::Lift, 1)] {
        if climb == Climb::Lift && !lift_ok {
            continue;
        }
        let mut level = SideLevel::new(0, 0, m);
        rooms(&mut level, &[0, 0], g, pitch.0 + 1, 2 * pitch.1 + 1);
        apply(&mut level, g, SideStep::Passage { a: 0, b: 1, climb });
        let (upper, lower) = (free_spot(&level, g, 0, &[]), free_spot(&level, g, 1, &[]));
        let works = [(upper, lower), (lower, upper)].into_iter().all(|(start, exit)| {
            level.start = start;
            level.exit = exit;
            check_side(&level).is_ok()
        });
        if works {
            climbs.extend(std::iter::repeat_n(climb, weight));
        }
    }
    climbs
}

/// The deepest cell (tree depth) of the last zone.
fn exit_node(maze: &Maze) -> u32 {
    let n = maze.node_count();
    let mut depth = vec![u32::MAX; n];
    let last = maze.zone.iter().copied().max().unwrap_or(0);
    let mut best = (0u32, maze.root);
    for v in 0..n {
        // Walk up to a node of known depth, then fill the walk in.
        let mut chain = Vec::new();
        let mut u = v;
        while depth[u] == u32::MAX {
            chain.push(u);
            let p = maze.parent[u];
            if p == NO_NODE || p as usize >= n || chain.len() > n {
                depth[u] = 0;
                chain.pop();
                break;
            }
            u = p as usize;
        }
        let mut d = depth[u];
        for &c in chain.iter().rev() {
            d += 1;
            depth[c] = d;
        }
        if maze.zone[v] == last && (depth[v], v as u32) > best {
            best = (depth[v], v as u32);
        }
    }
    if maze.zone[best.1 as usize] == last { best.1 } else { maze.root }
}

/// Solid rock everywhere, each cell's interior empty.
fn rooms(level: &mut SideLevel, zones: &[u16], g: Geometry, width: u32, height: u32) {
    *level = SideLevel::new(width, height, level.movement);
    level.tiles.fill(LevelTile::Solid);
    level.cell_size = g.pitch;
    level.cell_zones = zones.to_vec();
    let (cw, ch) = (g.cells_wide, zones.len() as u32 / g.cells_wide.max(1));
    for cy in 0..ch {
        for cx in 0..cw {
            for row in cy * g.pitch.1 + 1..g.floor(cy) {
                for i in 0..CELL_INTERIOR_WIDTH {
                    level.set(g.column(cx, i), row, LevelTile::Empty);
                }
            }
        }
    }
}

/// The standing tile for an object in a cell: middle columns first, on solid floor or on a
/// bump, not on a column already used.
fn free_spot(level: &SideLevel, g: Geometry, node: u32, used: &[(u32, u32)]) -> (u32, u32) {
    let (x, y) = g.cell(node);
    let floor = g.floor(y);
    let order = [4, 5, 3, 6, 2, 7, 1, 8, 0, 9];
    let mut first = None;
    for i in order {
        let col = g.column(x, i);
        let at = match level.tile(col, floor - 1) {
            Some(LevelTile::Solid) => (col, floor - 2),
            Some(LevelTile::Empty | LevelTile::OneWay | LevelTile::Ladder) => (col, floor - 1),
            _ => continue,
        };
        let on_floor = at.1 + 1 < floor || level.tile(col, floor) == Some(LevelTile::Solid);
        if !on_floor {
            continue;
        }
        first.get_or_insert(at);
        if !used.contains(&at) {
            return at;
        }
    }
    first.unwrap_or((g.column(x, 4), floor - 1))
}

/// Applies one planned step to a level.
fn apply(level: &mut SideLevel, g: Geometry, step: SideStep) {
    match step {
        SideStep::Passage { a, b, climb } => passage(level, g, a, b, climb),
        SideStep::Slope { cell } => {
            let (x, y) = g.cell(cell);
            let row = g.floor(y) - 1;
            level.set(g.column(x, 3), row, LevelTile::SlopeUp);
            level.set(g.column(x, 4), row, LevelTile::Solid);
            level.set(g.column(x, 5), row, LevelTile::Solid);
            level.set(g.column(x, 6), row, LevelTile::SlopeDown);
        }
        SideStep::Start { at } => level.start = at,
        SideStep::Key { color, at } => level.keys.push((color, at)),
        SideStep::Exit { at } => level.exit = at,
        SideStep::Maze(_)
        | SideStep::Rooms { .. }
        | SideStep::Fallback
        | SideStep::Checked { .. }
        | SideStep::Unbeatable => {}
    }
}

/// Builds the passage between cells `a` and `b`.
fn passage(level: &mut SideLevel, g: Geometry, a: u32, b: u32, climb: Climb) {
    let (x, y) = g.cell(b);
    if g.horizontal(a, b) {
        let tile = match climb {
            Climb::Door(c) => LevelTile::Door(c),
            _ => LevelTile::Empty,
        };
        for row in y * g.pitch.1 + 1..g.floor(y) {
            level.set(x * g.pitch.0, row, tile);
        }
        return;
    }
    // `a` is the upper room, `b` the lower one; the hole is in the upper room's floor.
    let (_, upper) = g.cell(a);
    let side = g.side(x, upper);
    let hole = g.floor(upper);
    let floor = g.floor(y);
    let rise = floor - hole;
    let step = g.step;
    match climb {
        Climb::Ladder | Climb::Hatch(_) => {
            for row in hole..floor {
                level.set(side.ladder, row, LevelTile::Ladder);
            }
            if let Climb::Hatch(c) = climb {
                level.set(side.ladder, hole, LevelTile::Hatch(c));
            }
        }
        Climb::Platforms => {
            for col in side.shaft {
                level.set(col, hole, LevelTile::OneWay);
            }
            let mut up = rise;
            while up > step {
                up -= step;
                for col in [side.wall, side.shaft[0], side.shaft[1]] {
                    level.set(col, floor - up, LevelTile::OneWay);
                }
            }
        }
        Climb::Ledges => {
            for col in side.shaft {
                level.set(col, hole, LevelTile::OneWay);
            }
            let (mut up, mut k) = (rise, 0);
            while up > step {
                up -= step;
                k += 1;
                let band = if k % 2 == 1 { side.shaft } else { side.far };
                for col in band {
                    level.set(col, floor - up, LevelTile::OneWay);
                }
            }
        }
        Climb::Lift => {
            for col in side.shaft {
                level.set(col, hole, LevelTile::Empty);
            }
            let speed = level.movement.run_speed / 2.0;
            let dwell = 1.0;
            let travel = rise as f32 / speed;
            level.lifts.push(Lift {
                x: side.shaft[0],
                width: 2,
                top: hole,
                bottom: floor,
                period: 2.0 * (travel + dwell),
                dwell,
            });
        }
        Climb::Walk | Climb::Door(_) => {}
    }
}

/// The climb a fallback uses instead of `climb`.
fn fallback(climb: Climb) -> Climb {
    match climb {
        Climb::Platforms | Climb::Ledges | Climb::Lift => Climb::Ladder,
        other => other,
    }
}

impl Iterator for SideGenerator {
    type Item = SideStep;

    fn next(&mut self) -> Option<SideStep> {
        match self.phase {
            Phase::Maze => match self.maze.next() {
                Some(step) => Some(SideStep::Maze(step)),
                None => {
                    self.phase = Phase::Plan;
                    self.next()
                }
            },
            Phase::Plan => {
                let step = self.make_plan();
                if let SideStep::Rooms { width, height } = step {
                    let maze = self.maze.maze().clone();
                    rooms(&mut self.level, &maze.zone, self.geometry, width, height);
                }
                self.applied.push(step);
                self.phase = Phase::Apply;
                Some(step)
            }
            Phase::Apply => match self.plan.pop() {
                Some(step) => {
                    apply(&mut self.level, self.geometry, step);
                    self.applied.push(step);
                    Some(step)
                }
                None => {
                    self.phase = Phase::Check;
                    self.next()
                }
            },
            Phase::Check => match check_side(&self.level) {
                Ok(solution) => {
                    let keys = solution.key_order.len() as u32;
                    self.outcome = Some(Ok(solution));
                    self.phase = Phase::Done;
                    Some(SideStep::Checked { keys })
                }
                Err(e) if self.fell_back => {
                    self.outcome = Some(Err(e));
                    self.phase = Phase::Done;
                    Some(SideStep::Unbeatable)
                }
                Err(_) => {
                    self.fell_back = true;
                    let maze = self.maze.maze().clone();
                    let steps = std::mem::take(&mut self.applied);
                    for step in &steps {
                        let step = match *step {
                            SideStep::Passage { a, b, climb } => SideStep::Passage { a, b, climb: fallback(climb) },
                            SideStep::Rooms { width, height } => {
                                rooms(&mut self.level, &maze.zone, self.geometry, width, height);
                                continue;
                            }
                            other => other,
                        };
                        apply(&mut self.level, self.geometry, step);
                        self.applied.push(step);
                    }
                    Some(SideStep::Fallback)
                }
            },
            Phase::Done => None,
        }
    }
}

/// Generates and checks a whole side-scroller level (runs every [`SideGenerator`] step).
///
/// ```
/// use lore_mazegen::{Config, Movement, SideConfig, generate_side};
/// let config = SideConfig::new(Config::grid(12, 6).zones(3).cycles(6).bias(0.6).seed(9), Movement::default());
/// let level = generate_side(&config)?;
/// assert_eq!((level.width, level.height), (12 * 11 + 1, 6 * level.cell_size.1 + 1));
/// assert_eq!(level.keys.len(), 2);
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
///
/// # Errors
/// As [`SideGenerator::new`] and [`SideGenerator::finish`].
pub fn generate_side(config: &SideConfig) -> Result<SideLevel, Error> {
    SideGenerator::new(config)?.finish()
}
