//! Files: JSON for any maze, ASCII for grid mazes, SVG and PNG pictures (feature `pictures`).

mod json;
#[cfg(feature = "pictures")]
mod picture;

pub use json::to_json;
#[cfg(feature = "pictures")]
pub use picture::{MAX_PICTURE_SIDE, Style, to_png, to_rgba, to_svg};

use crate::error::{Error, ExportError};
use crate::grid::{ASCII_COLORS, CellMap, TileMap};
use crate::maze::Maze;

/// The ASCII tile map of a grid maze (`#` wall, `@` start, `A` to `Z` doors, `a` to `z` keys):
/// the text of [`TileMap::to_ascii`], checked to say everything the maze holds.
///
/// # Errors
/// [`Error::Malformed`] if the maze is not a well-formed grid maze; [`Error::Export`] when the
/// text could not show the maze unambiguously: a door or key of a color past 25 (more than 27
/// zones; the letters would run out) or a key on the start cell (the `@` would hide it).
/// JSON, SVG and PNG show every maze.
pub fn to_ascii(maze: &Maze) -> Result<String, Error> {
    if let Some(c) = maze.edges.iter().filter_map(|e| e.door).chain(maze.keys.iter().map(|k| k.color)).max()
        && usize::from(c) >= ASCII_COLORS
    {
        return Err(Error::Export(ExportError::TooManyColors { letters: ASCII_COLORS, colors: usize::from(c) + 1 }));
    }
    let tiles = TileMap::from_cells(&CellMap::from_maze(maze)?);
    if let Some(c) = tiles.start_key() {
        return Err(Error::Export(ExportError::KeyOnStart { color: c }));
    }
    Ok(tiles.to_ascii())
}

/// RGB of door/key color `c` (a fixed palette of 12 distinct hues, repeating).
#[must_use]
pub fn color_rgb(c: u8) -> [u8; 3] {
    const PALETTE: [[u8; 3]; 12] = [
        [230, 60, 60],
        [60, 110, 235],
        [60, 190, 80],
        [245, 190, 40],
        [190, 70, 210],
        [40, 200, 210],
        [245, 130, 40],
        [140, 90, 50],
        [240, 110, 180],
        [120, 200, 40],
        [90, 60, 180],
        [20, 140, 130],
    ];
    PALETTE[usize::from(c) % PALETTE.len()]
}

/// The name of [`color_rgb`] before 0.2.
#[deprecated(since = "0.2.0", note = "renamed to `color_rgb` (lore spells it `color` everywhere)")]
#[must_use]
pub fn colour_rgb(c: u8) -> [u8; 3] {
    color_rgb(c)
}

/// RGB fill of zone `z`: zone 0 (the start) is light grey, zone `c + 1` a light tint of door color `c`.
#[must_use]
pub fn zone_rgb(z: u16) -> [u8; 3] {
    if z == 0 {
        return [215, 215, 215];
    }
    let c = color_rgb(((z - 1) % 256) as u8);
    c.map(|v| (u16::from(v) + 2 * 235).div_ceil(3).min(255) as u8)
}
