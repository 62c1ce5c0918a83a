//! A tile map for a 2D side-scroller: walls, floors, doors and keys as tiles, with ASCII output.

use std::fmt;

use super::CellMap;

/// Door colors the ASCII map has letters for (`A` to `Z`, keys `a` to `z`).
pub const ASCII_COLORS: usize = 26;

/// One tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Solid wall.
    Wall,
    /// Open floor.
    Floor,
    /// Where the player starts.
    Start,
    /// A locked door of this color.
    Door(u8),
    /// A key of this color.
    Key(u8),
}

impl Tile {
    /// The ASCII character: `#` wall, space floor, `@` start, `A` to `Z` doors of colors 0 to
    /// 25, `a` to `z` their keys, and `?` for a door or key of a color past 25 (letters never
    /// wrap, so two colors never share one).
    #[must_use]
    pub fn ascii(self) -> char {
        let letter = |first: u8, c: u8| if usize::from(c) < ASCII_COLORS { char::from(first + c) } else { '?' };
        match self {
            Tile::Wall => '#',
            Tile::Floor => ' ',
            Tile::Start => '@',
            Tile::Door(c) => letter(b'A', c),
            Tile::Key(c) => letter(b'a', c),
        }
    }
}

/// A `(2 w + 1) × (2 h + 1)` tile grid: cell `(x, y)` is tile `(2x + 1, 2y + 1)`, the wall between
/// it and its left neighbour tile `(2x, 2y + 1)`, the wall above it tile `(2x + 1, 2y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileMap {
    width: u32,
    height: u32,
    tiles: Vec<Tile>,
    start_key: Option<u8>,
}

impl TileMap {
    /// Lays out the tiles of a cell map.
    #[must_use]
    pub fn from_cells(cells: &CellMap) -> Self {
        let (width, height) = (2 * cells.width() + 1, 2 * cells.height() + 1);
        let mut tiles = vec![Tile::Wall; width as usize * height as usize];
        let root = cells.root();
        let start_key =
            root.checked_rem(cells.width()).and_then(|x| cells.cell(x, root / cells.width())).and_then(|c| c.key);
        let mut set = |x: u32, y: u32, t: Tile| tiles[(y * width + x) as usize] = t;
        for y in 0..cells.height() {
            for x in 0..cells.width() {
                let Some(c) = cells.cell(x, y) else { continue };
                let here = if y * cells.width() + x == cells.root() {
                    Tile::Start
                } else {
                    c.key.map_or(Tile::Floor, Tile::Key)
                };
                set(2 * x + 1, 2 * y + 1, here);
                if c.connected_left {
                    set(2 * x, 2 * y + 1, c.door_left.map_or(Tile::Floor, Tile::Door));
                }
                if c.connected_up {
                    set(2 * x + 1, 2 * y, c.door_up.map_or(Tile::Floor, Tile::Door));
                }
            }
        }
        Self { width, height, tiles, start_key }
    }

    /// Tiles per row.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows of tiles.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The tile at `(x, y)` (row 0 at the top), or `None` outside.
    #[must_use]
    pub fn tile(&self, x: u32, y: u32) -> Option<Tile> {
        if x < self.width && y < self.height { Some(self.tiles[(y * self.width + x) as usize]) } else { None }
    }

    /// The color of a key lying on the start cell, which the [`Tile::Start`] tile covers (the
    /// generator drops a key there only when the start zone has no other room for it).
    #[must_use]
    pub fn start_key(&self) -> Option<u8> {
        self.start_key
    }

    /// The map as text, one line per row, each ending in `\n`. It shows what [`Tile::ascii`]
    /// shows: `?` for colors past 25 and `@` over a key on the start cell (see
    /// [`TileMap::start_key`]); [`crate::to_ascii`] refuses such maps instead.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for TileMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.tiles.chunks(self.width as usize) {
            for t in row {
                write!(f, "{}", t.ascii())?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
