//! The one error type of the crate.

/// Everything that can go wrong when configuring, generating, checking or exporting a maze or a
/// side-scroller level. Every variant carries a typed reason a caller can match on; the
/// messages name the value at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A configuration value is out of its documented range.
    #[error("invalid configuration: {0}")]
    Config(ConfigError),
    /// The points could not be triangulated (NaN or infinite coordinates, too few distinct points).
    #[error("triangulation failed: {0}")]
    Triangulation(TriangulationError),
    /// A hand-made maze or level refers to something that does not exist.
    #[error("malformed maze: {0}")]
    Malformed(MalformedError),
    /// The maze cannot be completed; the reason says why.
    #[error("unsolvable maze: {0}")]
    Unsolvable(Unsolvable),
    /// An export cannot be made: a bad style, a picture over
    /// [`MAX_PICTURE_SIDE`](crate::MAX_PICTURE_SIDE) pixels a side, too many door colors for
    /// ASCII letters, or an encoder failure.
    #[error("export failed: {0}")]
    Export(ExportError),
    /// A [`Movement`](crate::Movement) field is not finite or out of its range.
    #[error("invalid movement: {0}")]
    Movement(MovementError),
    /// A side-scroller level cannot be beaten; the reason says where it gets stuck.
    #[error("unbeatable level: {0}")]
    Unbeatable(Unbeatable),
}

/// Why a configuration is refused (the message names the field, as in
/// `"zones: must be 1 to 256"`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A grid side is 0.
    #[error("grid: width and height must be at least 1")]
    GridSize,
    /// More nodes than [`MAX_NODES`](crate::MAX_NODES).
    #[error("too many nodes (limit 2^26)")]
    TooManyNodes,
    /// A row-by-row tree algorithm was asked for a logic maze.
    #[error("tree: {tree:?} works row by row and needs a grid (use another algorithm for points)")]
    GridOnlyTree {
        /// The algorithm.
        tree: crate::TreeAlgorithm,
    },
    /// Fewer than 3 points.
    #[error("points: need at least 3")]
    TooFewPoints,
    /// The points' rectangle is empty or not finite.
    #[error("points: width and height must be finite and positive")]
    PointArea,
    /// Zones outside `1..=256`.
    #[error("zones: must be 1 to 256")]
    Zones,
    /// More zones than the shape asks nodes for.
    #[error("zones: more zones than nodes")]
    MoreZonesThanNodes,
    /// More zones than distinct points after the triangulation merged duplicates.
    #[error("zones: {zones} zones but only {points} distinct points")]
    ZonesOverPoints {
        /// Zones asked for.
        zones: u16,
        /// Distinct points.
        points: usize,
    },
    /// The horizontal bias is outside `-1.0..=1.0` or not finite.
    #[error("horizontal_bias: must be in -1.0..=1.0")]
    Bias,
    /// The balance goal is negative or not finite.
    #[error("balance_goal: must be finite and non-negative")]
    BalanceGoal,
    /// `balance_tries` is 0.
    #[error("balance_tries: must be at least 1")]
    BalanceTries,
    /// A growing tree's `newest_percent` is above 100.
    #[error("tree: growing tree newest_percent must be 0 to 100")]
    GrowingTreePercent,
    /// The root is not a node the shape asks for.
    #[error("root: no such node")]
    Root,
    /// The root is not among the distinct points after the triangulation merged duplicates.
    #[error("root: node {root} does not exist ({points} distinct points)")]
    RootMissing {
        /// The root asked for.
        root: u32,
        /// Distinct points.
        points: usize,
    },
    /// A side-scroller level was asked of a logic maze.
    #[error("side-scroller levels need a grid maze (Config::grid)")]
    SideNeedsGrid,
    /// A side-scroller level would have more than [`MAX_LEVEL_TILES`](crate::MAX_LEVEL_TILES)
    /// tiles.
    #[error("side-scroller level of {tiles} tiles is over the limit of {limit}")]
    LevelTooLarge {
        /// Tiles the level would have.
        tiles: u64,
        /// The limit.
        limit: u64,
    },
}

/// Why the points could not be triangulated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TriangulationError {
    /// The triangulation refused the points (non-finite or out-of-range coordinates); the
    /// triangulation library's own words.
    #[error("{reason}")]
    Refused {
        /// What the triangulation library said.
        reason: String,
    },
    /// Fewer than 2 distinct points remained.
    #[error("fewer than 2 distinct points")]
    TooFewDistinct,
}

/// What is wrong with a hand-made maze or level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MalformedError {
    /// A grid export or cell map was asked of a logic maze.
    #[error("not a grid maze")]
    NotGrid,
    /// The zone list is not one zone per grid cell.
    #[error("zone count does not match the grid")]
    ZoneCount,
    /// An edge joins a cell outside the grid.
    #[error("edge {a}-{b} leaves the grid")]
    EdgeLeavesGrid {
        /// Smaller node.
        a: u32,
        /// Larger node.
        b: u32,
    },
    /// An edge joins two cells that are not side by side.
    #[error("edge {a}-{b} joins cells that are not neighbours")]
    NotNeighbours {
        /// Smaller node.
        a: u32,
        /// Larger node.
        b: u32,
    },
    /// A key lies on a node outside the grid.
    #[error("key on node {node}")]
    KeyOffGrid {
        /// The node.
        node: u32,
    },
    /// A path node has no cell in a tile map.
    #[error("path node {node} is outside the {width}x{height}-cell map")]
    PathNode {
        /// The node.
        node: u32,
        /// Cells per row of the map.
        width: u32,
        /// Rows of cells of the map.
        height: u32,
    },
    /// The maze has no nodes.
    #[error("no nodes")]
    NoNodes,
    /// The maze has more nodes than `u32` ids allow.
    #[error("too many nodes")]
    TooManyNodes,
    /// The root is not a node.
    #[error("root {root} does not exist")]
    RootMissing {
        /// The root.
        root: u32,
    },
    /// An edge names a node that does not exist.
    #[error("edge {edge} ({a}-{b}) names a missing node")]
    EdgeNode {
        /// Index into the maze's edges.
        edge: usize,
        /// One end.
        a: u32,
        /// The other end.
        b: u32,
    },
    /// A key lies on a node that does not exist.
    #[error("key of color {color} on missing node {node}")]
    KeyNode {
        /// The key's color.
        color: u8,
        /// The node.
        node: u32,
    },
    /// A picture was asked of a maze without nodes or with its root out of range.
    #[error("no nodes or root out of range")]
    NoNodesOrRoot,
    /// A picture was asked of a maze whose edge names a missing node.
    #[error("an edge names a missing node")]
    MissingEdgeNode,
    /// A picture was asked of a maze whose key lies on a missing node.
    #[error("a key lies on a missing node")]
    MissingKeyNode,
    /// A side-scroller level is empty or over 2^26 tiles.
    #[error("level of {width} × {height} tiles (1 to 2^26 tiles)")]
    LevelSize {
        /// Tiles per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A level's tile list does not match its size.
    #[error("{tiles} tiles for a {width} × {height} level")]
    TileCount {
        /// Tiles in the list.
        tiles: usize,
        /// Tiles per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A level's start, exit or key lies outside it.
    #[error("the start, the exit or a key lies outside the level")]
    ObjectOutside,
    /// A lift lies outside the level, runs upwards, or its period is not longer than its rests.
    #[error("lift {index} lies outside the level or has a bad period")]
    Lift {
        /// Index into the level's lifts.
        index: usize,
    },
    /// A level text is empty.
    #[error("an empty level")]
    EmptyLevel,
    /// A level text has a character with no meaning.
    #[error("unknown level character {ch:?} at {at:?}")]
    LevelChar {
        /// The character.
        ch: char,
        /// Its tile.
        at: (u32, u32),
    },
    /// A level text has a second start or exit.
    #[error("a second `{ch}` at {at:?}")]
    Repeated {
        /// `@` or `!`.
        ch: char,
        /// Its tile.
        at: (u32, u32),
    },
    /// A level text has no start or no exit.
    #[error("no `{ch}` in the level")]
    Missing {
        /// `@` or `!`.
        ch: char,
    },
}

/// Why an export could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The maze uses more door colors than ASCII has letters.
    #[error(
        "ASCII has letters for {letters} door colors (A-Z, keys a-z) and this maze uses {colors}; export JSON, SVG or PNG instead"
    )]
    TooManyColors {
        /// Colors with letters (26).
        letters: usize,
        /// Colors the maze uses.
        colors: usize,
    },
    /// A key lies on the start cell, which the ASCII map shows as `@` only.
    #[error(
        "a key of color {color} lies on the start cell, where the ASCII map shows only `@`; export JSON, SVG or PNG instead"
    )]
    KeyOnStart {
        /// The key's color.
        color: u8,
    },
    /// The picture would be larger than the limit; `max_scale` is the largest scale that fits
    /// (`None` when the margin alone is too wide).
    #[error("the picture would be {width:.0} × {height:.0} pixels, over the limit of {limit} a side ({})", fit_advice(*.max_scale))]
    PictureTooLarge {
        /// Width the picture would have, pixels.
        width: f32,
        /// Height the picture would have, pixels.
        height: f32,
        /// The limit, [`MAX_PICTURE_SIDE`](crate::MAX_PICTURE_SIDE).
        limit: u32,
        /// The largest scale (pixels per unit or tile, rounded down to hundredths) that fits.
        max_scale: Option<f32>,
    },
    /// A maze style's scale is not positive or its margin is negative.
    #[error("style: scale must be positive and margin non-negative")]
    Style,
    /// A level picture's scale is not a positive number.
    #[error("scale {scale}: must be a positive number of pixels per tile")]
    Scale {
        /// The scale given.
        scale: f32,
    },
    /// A node position is NaN or infinite.
    #[error("a node position is not finite")]
    NonFinitePosition,
    /// The PNG encoder failed (its own words).
    #[error("PNG encoding: {message}")]
    Png {
        /// What the encoder said.
        message: String,
    },
}

impl Eq for ExportError {}

fn fit_advice(max_scale: Option<f32>) -> String {
    match max_scale {
        Some(fit) => format!("a scale of at most {fit} fits"),
        None => "the margin alone is too wide".to_owned(),
    }
}

/// Which [`Movement`](crate::Movement) field is bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MovementField {
    /// `jump_height`.
    JumpHeight,
    /// `jump_distance`.
    JumpDistance,
    /// `run_speed`.
    RunSpeed,
    /// `size.x`.
    Width,
    /// `size.y`.
    Height,
}

impl std::fmt::Display for MovementField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::JumpHeight => "jump_height",
            Self::JumpDistance => "jump_distance",
            Self::RunSpeed => "run_speed",
            Self::Width => "size.x (width)",
            Self::Height => "size.y (height)",
        })
    }
}

/// A [`Movement`](crate::Movement) field outside its range (or not finite).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("{field} is {value}, must be {min} to {max} tiles (or tiles per second)")]
pub struct MovementError {
    /// The field.
    pub field: MovementField,
    /// The value given.
    pub value: f32,
    /// Smallest value allowed.
    pub min: f32,
    /// Largest value allowed.
    pub max: f32,
}

impl Eq for MovementError {}

/// Why [`check_side`](crate::check_side) could not beat a level. Positions are tiles `(x, y)`,
/// row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unbeatable {
    /// The character cannot stand at the start: no floor under it, or it is inside a wall.
    #[error("the character cannot stand at the start tile {at:?}")]
    StartBlocked {
        /// The start tile.
        at: (u32, u32),
    },
    /// Every key of this color stays out of reach with the keys that can be had.
    #[error("the key of color {color} at {at:?} cannot be reached (keys held then: {held:?})")]
    KeyUnreachable {
        /// The color.
        color: u8,
        /// One key of that color.
        at: (u32, u32),
        /// The colors held when the search ran out of moves.
        held: Vec<u8>,
    },
    /// A door or hatch of this color blocks the way and the level holds no key for it.
    #[error("no key of color {color} exists")]
    NoKey {
        /// The color.
        color: u8,
    },
    /// Every key was collected and the exit is still out of reach.
    #[error("the exit at {at:?} cannot be reached")]
    ExitUnreachable {
        /// The exit tile.
        at: (u32, u32),
    },
}

/// The name of [`Error`] before 0.2.
#[deprecated(since = "0.2.0", note = "renamed to `Error` (every lore crate's error is `Error`)")]
pub type MazeError = Error;

/// Why the checker could not complete a maze.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unsolvable {
    /// Every key of this color lies behind a door the player cannot open yet
    /// (typically behind a door of its own color).
    #[error("the only key(s) of color {color} lie behind locked doors (first at node {key_node})")]
    KeyLocked {
        /// The door color that stays locked.
        color: u8,
        /// One unreachable node holding a key of that color.
        key_node: u32,
    },
    /// A door has a color for which the maze holds no key at all.
    #[error("no key of color {color} exists")]
    NoKey {
        /// The door color without a key.
        color: u8,
    },
    /// Some node is not connected to the root even with every door open.
    #[error("node {node} is not connected to the root")]
    Disconnected {
        /// The first unreachable node.
        node: u32,
    },
}
