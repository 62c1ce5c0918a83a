//! A level: lore-mazegen's side-scroller level for the default movement limits, with the route
//! its reachability check's moves give through every key in key order to the exit.

use lore_mazegen::{Config, LevelTile, Movement, SideConfig, SideLevel, SideRoute, generate_side, route_side};

/// Largest maze side in cells the game accepts.
pub const MAX_CELLS_SIDE: u32 = 64;

/// What a level is made from (`--seed`, `--size WxH`, `--zones K`, `--cycles N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    /// Seed of the first level; level `n` uses `seed + n`.
    pub seed: u64,
    /// Maze width in cells (each cell is a room of 11 × 5 tiles).
    pub width: u32,
    /// Maze height in cells.
    pub height: u32,
    /// Zones, i.e. one more than the number of coloured doors.
    pub zones: u16,
    /// Extra loops.
    pub cycles: u32,
}

impl Default for LevelConfig {
    /// lore-mazegen's default side-scroller size: 16 × 8 cells, 4 zones, 10 loops.
    fn default() -> Self {
        Self { seed: 1, width: 16, height: 8, zones: 4, cycles: 10 }
    }
}

/// Why a level could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// The generator refused the configuration (or found no beatable level).
    #[error("level: {0}")]
    Maze(#[from] lore_mazegen::Error),
    /// The size is outside what the game accepts.
    #[error("level: size {width}x{height} cells is outside 2..={MAX_CELLS_SIDE} per side")]
    Size {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
}

/// One generated level.
#[derive(Clone, Debug)]
pub struct Level {
    /// What it was made from (with this level's own seed).
    pub config: LevelConfig,
    /// The tiles, objects, lifts and movement limits.
    pub side: SideLevel,
    /// The route through every key to the exit, in the moves the check credits.
    pub route: SideRoute,
}

impl Level {
    /// Generates the level (lore-mazegen checks it beatable) and its route.
    ///
    /// # Errors
    /// [`LevelError`] for a size out of range or a configuration the generator refuses.
    pub fn generate(config: LevelConfig) -> Result<Self, LevelError> {
        let side = 2..=MAX_CELLS_SIDE;
        if !side.contains(&config.width) || !side.contains(&config.height) {
            return Err(LevelError::Size { width: config.width, height: config.height });
        }
        let maze = Config::grid(config.width, config.height)
            .zones(config.zones)
            .cycles(config.cycles)
            .bias(0.6)
            .seed(config.seed);
        let side = generate_side(&SideConfig::new(maze, Movement::default()))?;
        let route = route_side(&side)?;
        Ok(Self { config, side, route })
    }

    /// Tiles per row.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.side.width
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.side.height
    }

    /// The tile at `(x, y)` (row 0 at the top), `None` outside.
    #[must_use]
    pub fn tile(&self, x: i64, y: i64) -> Option<LevelTile> {
        if x < 0 || y < 0 { None } else { self.side.tile(x as u32, y as u32) }
    }

    /// The tile holding world point `p` (y up), if inside.
    #[must_use]
    pub fn tile_of(&self, p: glam::Vec2) -> Option<(u32, u32)> {
        let (x, y) = (p.x.floor(), self.side.height as f32 - 1.0 - p.y.floor());
        (x >= 0.0 && y >= 0.0 && x < self.side.width as f32 && y < self.side.height as f32)
            .then_some((x as u32, y as u32))
    }

    /// The world box `(min, max)` of tile `(x, y)`.
    #[must_use]
    pub fn tile_box(&self, (x, y): (u32, u32)) -> (glam::Vec2, glam::Vec2) {
        let lo = glam::vec2(x as f32, (self.side.height - y - 1) as f32);
        (lo, lo + glam::Vec2::ONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_ends_at_the_exit_after_every_key() {
        let level = Level::generate(LevelConfig { seed: 2, ..LevelConfig::default() }).unwrap();
        let legs = &level.route.legs;
        assert_eq!(legs.last().unwrap().target, level.side.exit);
        let mut keys: Vec<u8> = legs.iter().filter_map(|l| l.key).collect();
        keys.sort_unstable();
        let mut all: Vec<u8> = level.side.keys.iter().map(|k| k.0).collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(keys, all);
        assert!(legs.iter().map(|l| l.steps.len()).sum::<usize>() > 20);
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        let big = LevelConfig { width: MAX_CELLS_SIDE + 1, ..LevelConfig::default() };
        assert!(matches!(Level::generate(big), Err(LevelError::Size { .. })));
        let zones = LevelConfig { zones: 0, ..LevelConfig::default() };
        assert!(matches!(Level::generate(zones), Err(LevelError::Maze(_))));
    }
}
