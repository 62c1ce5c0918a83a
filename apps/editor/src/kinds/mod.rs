//! The editor's thing kinds, one per file. Each registers itself with
//! `#[reflect(register)]`: adding a kind is adding a file, with no list to edit.
//!
//! Nothing here draws: the editor draws any thing from the fields it finds (see
//! [`crate::draw`]), so a new kind with a `position` and a `radius` is a disk without further
//! code.

mod block;
mod disk;
mod marker;
mod path;
mod star;

pub use block::Block;
pub use disk::Disk;
pub use marker::{Marker, Role};
pub use path::Path;
pub use star::Star;
