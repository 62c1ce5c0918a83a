//! The one error type of the crate.

use thiserror::Error;

/// Everything that can go wrong when configuring, generating, checking or exporting a maze.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MazeError {
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
    /// Writing a picture failed.
    #[error("export failed: {0}")]
    Export(String),
}

/// Why the checker could not complete a maze.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unsolvable {
    /// Every key of this colour lies behind a door the player cannot open yet
    /// (typically behind a door of its own colour).
    #[error("the only key(s) of colour {colour} lie behind locked doors (first at node {key_node})")]
    KeyLocked {
        /// The door colour that stays locked.
        colour: u8,
        /// One unreachable node holding a key of that colour.
        key_node: u32,
    },
    /// A door has a colour for which the maze holds no key at all.
    #[error("no key of colour {colour} exists")]
    NoKey {
        /// The door colour without a key.
        colour: u8,
    },
    /// Some node is not connected to the root even with every door open.
    #[error("node {node} is not connected to the root")]
    Disconnected {
        /// The first unreachable node.
        node: u32,
    },
}
