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
