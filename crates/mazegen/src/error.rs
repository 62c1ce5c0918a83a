//! The one error type of the crate.

/// Everything that can go wrong when configuring, generating, checking or exporting a maze.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A configuration value is out of its documented range (the message names the field).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The points could not be triangulated (NaN or infinite coordinates, too few distinct points).
    #[error("triangulation failed: {0}")]
    Triangulation(String),
    /// A hand-made maze refers to something that does not exist (the message says what).
    #[error("malformed maze: {0}")]
    Malformed(String),
    /// The maze cannot be completed; the reason says why.
    #[error("unsolvable maze: {0}")]
    Unsolvable(Unsolvable),
    /// An export cannot be made: a bad style, a picture over
    /// [`MAX_PICTURE_SIDE`](crate::MAX_PICTURE_SIDE) pixels a side, too many door colors for ASCII letters, or
    /// an encoder failure (the message says which).
    #[error("export failed: {0}")]
    Export(String),
    /// A [`Movement`](crate::Movement) field is not finite or out of its range.
    #[error("invalid movement: {0}")]
    Movement(MovementError),
    /// A side-scroller level cannot be beaten; the reason says where it gets stuck.
    #[error("unbeatable level: {0}")]
    Unbeatable(Unbeatable),
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
