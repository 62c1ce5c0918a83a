//! A level: a lock-and-key grid maze from lore-mazegen as a tile map, with the exit and the
//! solver's route through every key to it.

use lore_mazegen::{CellMap, Config, Maze, Solution, Tile, TileMap, TilePos, check, generate};

/// Largest maze side in cells the game accepts.
pub const MAX_CELLS_SIDE: u32 = 256;

/// What a level is made from (`--seed`, `--size WxH`, `--zones K`, `--cycles N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    /// Seed of the first level; level `n` uses `seed + n`.
    pub seed: u64,
    /// Maze width in cells (the tile map is `2w + 1` tiles wide).
    pub width: u32,
    /// Maze height in cells.
    pub height: u32,
    /// Zones, i.e. one more than the number of coloured doors.
    pub zones: u16,
    /// Extra loops.
    pub cycles: u32,
}

impl Default for LevelConfig {
    fn default() -> Self {
        Self { seed: 1, width: 16, height: 8, zones: 4, cycles: 12 }
    }
}

/// Why a level could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// The maze generator refused the configuration.
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
    /// No walk from the last door to the exit (the generator's guarantee broken).
    #[error("level: no route to the exit")]
    NoRoute,
}

/// One generated level.
#[derive(Clone, Debug)]
pub struct Level {
    /// What it was made from (with this level's own seed).
    pub config: LevelConfig,
    /// The maze graph.
    pub maze: Maze,
    /// The solver's answer: key order and walk.
    pub solution: Solution,
    /// The tiles.
    pub map: TileMap,
    /// The start tile.
    pub start: TilePos,
    /// The exit tile: the cell of the last zone farthest from where the player enters it.
    pub exit: TilePos,
    /// Keys: colour and tile.
    pub keys: Vec<(u8, TilePos)>,
    /// Doors: colour and tile.
    pub doors: Vec<(u8, TilePos)>,
    /// The solver's walk through every key, then on to the exit, as adjacent tiles.
    pub route: Vec<TilePos>,
}

impl Level {
    /// Generates the level.
    ///
    /// # Errors
    /// [`LevelError`] for a size out of range or a configuration the generator refuses.
    pub fn generate(config: LevelConfig) -> Result<Self, LevelError> {
        let side = 2..=MAX_CELLS_SIDE;
        if !side.contains(&config.width) || !side.contains(&config.height) {
            return Err(LevelError::Size { width: config.width, height: config.height });
        }
        let maze = generate(
            &Config::grid(config.width, config.height).zones(config.zones).cycles(config.cycles).seed(config.seed),
        )?;
        let solution = check(&maze)?;
        let map = TileMap::from_cells(&CellMap::from_maze(&maze)?);
        let start = map.node_tile(maze.root).ok_or(LevelError::NoRoute)?;
        let mut keys = Vec::new();
        let mut doors = Vec::new();
        for y in 0..map.height() {
            for x in 0..map.width() {
                match map.tile(x, y) {
                    Some(Tile::Key(c)) => keys.push((c, (x, y))),
                    Some(Tile::Door(c)) => doors.push((c, (x, y))),
                    _ => {}
                }
            }
        }
        let mut route = map.path_tiles(&solution.path)?;
        let open = |t: Tile| t != Tile::Wall;
        let entry = *route.last().ok_or(LevelError::NoRoute)?;
        // The exit: in the zone entered last, the cell farthest from where the walk ends.
        let last_zone = solution.zone.iter().copied().max().unwrap_or(0);
        let dist = map.tile_distances(entry, open);
        let w = map.width();
        let exit = (0..maze.node_count() as u32)
            .filter(|&n| solution.zone[n as usize] == last_zone)
            .filter_map(|n| map.node_tile(n))
            .filter(|&(x, y)| dist[(y * w + x) as usize] != u32::MAX)
            .max_by_key(|&(x, y)| (dist[(y * w + x) as usize], std::cmp::Reverse((y, x))))
            .ok_or(LevelError::NoRoute)?;
        let leg = map.tile_path(entry, exit, open).ok_or(LevelError::NoRoute)?;
        route.extend(leg.into_iter().skip(1));
        Ok(Self { config, maze, solution, map, start, exit, keys, doors, route })
    }

    /// Whether tile `(x, y)` is a wall (outside the map counts as wall).
    #[must_use]
    pub fn is_wall(&self, (x, y): TilePos) -> bool {
        self.map.tile(x, y).is_none_or(|t| t == Tile::Wall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_starts_at_the_start_visits_every_key_and_ends_at_the_exit() {
        for seed in 0..8 {
            let level = Level::generate(LevelConfig { seed, ..LevelConfig::default() }).unwrap();
            assert_eq!(level.route[0], level.start);
            assert_eq!(*level.route.last().unwrap(), level.exit);
            assert_eq!(level.keys.len(), usize::from(level.config.zones) - 1);
            for (_, key) in &level.keys {
                assert!(level.route.contains(key), "seed {seed}: key at {key:?} off the route");
            }
            assert!(level.route.iter().all(|&t| !level.is_wall(t)));
            assert_ne!(level.exit, level.start);
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        let too_big = LevelConfig { width: MAX_CELLS_SIDE + 1, ..LevelConfig::default() };
        assert!(matches!(Level::generate(too_big), Err(LevelError::Size { .. })));
        let too_small = LevelConfig { height: 1, ..LevelConfig::default() };
        assert!(Level::generate(too_small).is_err());
        let zones = LevelConfig { zones: 0, ..LevelConfig::default() };
        assert!(Level::generate(zones).is_err());
    }
}
