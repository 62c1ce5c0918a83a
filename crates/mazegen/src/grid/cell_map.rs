//! `CellMap`: per cell, is there a wall to the left and above?

use crate::error::{Error, MalformedError};
use crate::maze::Maze;

/// One grid cell, as in the post: `connected_left` / `connected_up` say there is no wall on that
/// side. Doors and keys are added so the map tells the whole story.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cell {
    /// Open to the cell on the left.
    pub connected_left: bool,
    /// Open to the cell above.
    pub connected_up: bool,
    /// Color of the door on the left side, if any.
    pub door_left: Option<u8>,
    /// Color of the door on the upper side, if any.
    pub door_up: Option<u8>,
    /// Color of a key lying in the cell (the first one, if several share it).
    pub key: Option<u8>,
    /// The cell's zone.
    pub zone: u16,
}

/// A `width × height` matrix of [`Cell`]s, row 0 at the top; the bidirectional map between
/// grid-graph edges and walls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMap {
    width: u32,
    height: u32,
    cells: Vec<Cell>,
    root: u32,
}

impl CellMap {
    /// Reads the walls, doors and keys of a grid maze.
    ///
    /// # Errors
    /// [`Error::Malformed`] if the maze is not a grid maze or an edge or key is not between
    /// or on grid cells.
    pub fn from_maze(maze: &Maze) -> Result<Self, Error> {
        let (width, height) = maze.grid_size().ok_or(Error::Malformed(MalformedError::NotGrid))?;
        let n = width as usize * height as usize;
        if maze.zone.len() != n {
            return Err(Error::Malformed(MalformedError::ZoneCount));
        }
        let mut cells: Vec<Cell> = maze.zone.iter().map(|&zone| Cell { zone, ..Cell::default() }).collect();
        for e in &maze.edges {
            let (a, b) = (e.a.min(e.b), e.a.max(e.b));
            if b as usize >= n {
                return Err(Error::Malformed(MalformedError::EdgeLeavesGrid { a, b }));
            }
            let cell = &mut cells[b as usize];
            if b == a + 1 && b % width != 0 {
                cell.connected_left = true;
                cell.door_left = e.door;
            } else if b == a + width {
                cell.connected_up = true;
                cell.door_up = e.door;
            } else {
                return Err(Error::Malformed(MalformedError::NotNeighbours { a, b }));
            }
        }
        for k in maze.keys.iter().rev() {
            let cell =
                cells.get_mut(k.node as usize).ok_or(Error::Malformed(MalformedError::KeyOffGrid { node: k.node }))?;
            cell.key = Some(k.color);
        }
        Ok(Self { width, height, cells, root: maze.root })
    }

    /// Cells per row.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The start cell's node id (`y * width + x`).
    #[must_use]
    pub fn root(&self) -> u32 {
        self.root
    }

    /// The cell at `(x, y)` (row 0 at the top), or `None` outside.
    #[must_use]
    pub fn cell(&self, x: u32, y: u32) -> Option<&Cell> {
        if x < self.width && y < self.height { self.cells.get((y * self.width + x) as usize) } else { None }
    }

    /// All cells, row-major from the top-left.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}
