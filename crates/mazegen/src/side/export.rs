//! Side-scroller level files: ASCII, JSON, SVG and PNG pictures, and Tiled's TMX.

use super::{LevelTile, SideLevel};

impl SideLevel {
    /// The level as text, one line per row, each ending in `\n`: the tiles as
    /// [`LevelTile::ascii`] shows them, with objects over them: `@` start, `!` exit, `a` to `z`
    /// keys of colors 0 to 25 (`?` past 25); a lift's stops show as `=`. The start shows over a
    /// key on the same tile.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut grid: Vec<char> = (0..w * h).map(|i| self.tiles.get(i).map_or('#', |t| t.ascii())).collect();
        let mut put = |(x, y): (u32, u32), c: char| {
            if (x as usize) < w && (y as usize) < h {
                grid[y as usize * w + x as usize] = c;
            }
        };
        for lift in &self.lifts {
            for x in lift.x..lift.x + lift.width {
                for y in [lift.top, lift.bottom.saturating_sub(1)] {
                    put((x, y), '=');
                }
            }
        }
        for &(color, at) in &self.keys {
            put(at, if color < 26 { char::from(b'a' + color) } else { '?' });
        }
        put(self.exit, '!');
        put(self.start, '@');
        let mut s = String::with_capacity((w + 1) * h);
        for row in grid.chunks(w.max(1)) {
            s.extend(row);
            s.push('\n');
        }
        s
    }
}

impl SideLevel {
    /// Reads a level drawn in the characters of [`SideLevel::to_ascii`] (for hand-made levels
    /// and tests): `#` solid, space empty, `-` one-way, `H` ladder, `/` and `\` slopes, `A` to
    /// `Z` doors, `@` start, `!` exit, `a` to `z` keys (objects lie on empty tiles). Lines may
    /// differ in length (short ones are padded with empty tiles). Hatches and lifts have no
    /// character of their own here: set them on the result.
    ///
    /// # Errors
    /// [`Error::Malformed`] for an unknown character, a missing or repeated start or exit, or
    /// an empty text.
    pub fn from_ascii(text: &str, movement: super::Movement) -> Result<Self, crate::Error> {
        use crate::Error;
        let lines: Vec<&str> = text.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if width == 0 || lines.is_empty() {
            return Err(Error::Malformed("an empty level".to_owned()));
        }
        let mut level = SideLevel::new(width as u32, lines.len() as u32, movement);
        let (mut start, mut exit) = (None, None);
        for (y, line) in lines.iter().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                let at = (x as u32, y as u32);
                let tile = match ch {
                    ' ' => LevelTile::Empty,
                    '#' => LevelTile::Solid,
                    '-' => LevelTile::OneWay,
                    'H' => LevelTile::Ladder,
                    '/' => LevelTile::SlopeUp,
                    '\\' => LevelTile::SlopeDown,
                    'A'..='Z' => LevelTile::Door(ch as u8 - b'A'),
                    'a'..='z' => {
                        level.keys.push((ch as u8 - b'a', at));
                        LevelTile::Empty
                    }
                    '@' | '!' => {
                        let slot = if ch == '@' { &mut start } else { &mut exit };
                        if slot.replace(at).is_some() {
                            return Err(Error::Malformed(format!("a second `{ch}` at {at:?}")));
                        }
                        LevelTile::Empty
                    }
                    other => return Err(Error::Malformed(format!("unknown level character {other:?} at {at:?}"))),
                };
                level.set(at.0, at.1, tile);
            }
        }
        level.start = start.ok_or_else(|| Error::Malformed("no start `@`".to_owned()))?;
        level.exit = exit.ok_or_else(|| Error::Malformed("no exit `!`".to_owned()))?;
        Ok(level)
    }
}
