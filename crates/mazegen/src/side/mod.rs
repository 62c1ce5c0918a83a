//! Side-scroller levels: a grid maze turned into tiles that a walking, jumping character can
//! traverse, with a reachability check that proves each level beatable in key order.
//!
//! Every maze cell becomes a room of tiles; a horizontal passage opens the wall column between
//! two rooms (a door fills the opening); a vertical passage becomes a way up that the
//! [`Movement`] limits allow: a ladder, a stack of one-way platforms, zig-zag one-way ledges or a
//! moving lift, and a locked vertical passage becomes a hatch on top of a ladder. Rooms with no
//! vertical passage may get a bump with two slopes. Keys, the start and the exit are objects on
//! room floors.
//!
//! [`check_side`] runs a search over standing and climbing positions of the character with jump
//! arcs computed from the movement limits (see [`Movement::gravity`]) and proves the exit
//! reachable, picking up keys as it goes. [`generate_side`] returns a level only when the check
//! passes.

mod build;
mod export;
mod reach;

pub use build::{Climb, SideGenerator, SideStep, generate_side};
pub use export::{TMX_TILE_PIXELS, TMX_TILES};
pub use reach::{RestPos, RouteLeg, RouteStep, SideMove, SideRoute, SideSolution, check_side, route_leg, route_side};

use glam::{Vec2, vec2};

use crate::config::{Config, Shape};
use crate::error::{ConfigError, Error, MovementError, MovementField};

/// What a character can do, in tiles and seconds: the limits a level is built for.
///
/// A jump is a parabola: the character leaves the ground at [`Movement::jump_speed`] upwards,
/// falls back under [`Movement::gravity`], and at full run speed covers `jump_distance` tiles
/// before it is back at its take-off height, `jump_height` tiles above it at the apex.
/// A controller that moves its character with these numbers can follow every arc the checker
/// credits.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(try_from = "MovementFields"))]
pub struct Movement {
    /// Rise of the feet at the apex of a jump, tiles (1.5 to 16).
    pub jump_height: f32,
    /// Horizontal distance of a jump at full run speed landing at take-off height, tiles
    /// (2 to 32).
    pub jump_distance: f32,
    /// Horizontal speed when running, tiles per second (0.5 to 100).
    pub run_speed: f32,
    /// The character's box, tiles: width 0.25 to 1, height 0.25 to 4.
    pub size: Vec2,
}

/// [`Movement`] as read, before [`Movement::validate`] (serde reads this, then checks it).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct MovementFields {
    jump_height: f32,
    jump_distance: f32,
    run_speed: f32,
    size: Vec2,
}

#[cfg(feature = "serde")]
impl TryFrom<MovementFields> for Movement {
    type Error = Error;

    fn try_from(f: MovementFields) -> Result<Self, Error> {
        let movement = Movement {
            jump_height: f.jump_height,
            jump_distance: f.jump_distance,
            run_speed: f.run_speed,
            size: f.size,
        };
        movement.validate()?;
        Ok(movement)
    }
}

impl Default for Movement {
    /// Jumps 3.2 tiles high and 5 far, runs 8 tiles a second, 0.8 × 1.6 tiles.
    fn default() -> Self {
        Self { jump_height: 3.2, jump_distance: 5.0, run_speed: 8.0, size: vec2(0.8, 1.6) }
    }
}

impl Movement {
    /// Checks every field against its documented range.
    ///
    /// # Errors
    /// [`Error::Movement`] naming the first field that is not finite or out of range.
    pub fn validate(&self) -> Result<(), Error> {
        let fields = [
            (MovementField::JumpHeight, self.jump_height, 1.5, 16.0),
            (MovementField::JumpDistance, self.jump_distance, 2.0, 32.0),
            (MovementField::RunSpeed, self.run_speed, 0.5, 100.0),
            (MovementField::Width, self.size.x, 0.25, 1.0),
            (MovementField::Height, self.size.y, 0.25, 4.0),
        ];
        for (field, value, min, max) in fields {
            if !(value.is_finite() && (min..=max).contains(&value)) {
                return Err(Error::Movement(MovementError { field, value, min, max }));
            }
        }
        Ok(())
    }

    /// Seconds from take-off to the apex of a jump: half of `jump_distance / run_speed`.
    #[must_use]
    pub fn apex_time(&self) -> f32 {
        self.jump_distance / (2.0 * self.run_speed)
    }

    /// Gravity, tiles per second squared: `2 · jump_height / apex_time²`.
    #[must_use]
    pub fn gravity(&self) -> f32 {
        2.0 * self.jump_height / (self.apex_time() * self.apex_time())
    }

    /// Upward speed at take-off, tiles per second: `2 · jump_height / apex_time`.
    #[must_use]
    pub fn jump_speed(&self) -> f32 {
        2.0 * self.jump_height / self.apex_time()
    }

    /// The largest whole number of tiles a jump climbs with a margin of 0.3 tile: how far apart
    /// the generator stacks platforms and ledges.
    #[must_use]
    pub fn climb_step(&self) -> u32 {
        ((self.jump_height - 0.3).floor() as u32).max(1)
    }
}

/// One tile of a side-scroller level. Rows run top to bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LevelTile {
    /// Open air.
    #[default]
    Empty,
    /// Solid ground or wall.
    Solid,
    /// A platform the character stands on from above and jumps through from below; it can
    /// drop through it.
    OneWay,
    /// A ladder: climbed up and down; the top of a ladder (a ladder tile with no ladder above)
    /// can be stood on.
    Ladder,
    /// A 45° slope rising to the right: solid below the diagonal from the bottom-left corner to
    /// the top-right one. Walked over; the checker credits no jump that touches it.
    SlopeUp,
    /// A 45° slope falling to the right: solid below the diagonal from the top-left corner to
    /// the bottom-right one.
    SlopeDown,
    /// A locked door of this color: solid until the character holds a key of the color, then
    /// open air.
    Door(u8),
    /// A locked hatch of this color lying in a floor on top of a ladder: solid until the
    /// character holds a key of the color, then a ladder tile.
    Hatch(u8),
}

impl LevelTile {
    /// The ASCII character: space empty, `#` solid, `-` one-way, `H` ladder, `/` and `\`
    /// slopes, `A` to `Z` doors and hatches of colors 0 to 25 (`?` past 25).
    #[must_use]
    pub fn ascii(self) -> char {
        let letter = |c: u8| if c < 26 { char::from(b'A' + c) } else { '?' };
        match self {
            LevelTile::Empty => ' ',
            LevelTile::Solid => '#',
            LevelTile::OneWay => '-',
            LevelTile::Ladder => 'H',
            LevelTile::SlopeUp => '/',
            LevelTile::SlopeDown => '\\',
            LevelTile::Door(c) | LevelTile::Hatch(c) => letter(c),
        }
    }

    /// The door or hatch color, if the tile is one.
    #[must_use]
    pub fn lock_color(self) -> Option<u8> {
        match self {
            LevelTile::Door(c) | LevelTile::Hatch(c) => Some(c),
            _ => None,
        }
    }
}

/// A platform moving up and down a shaft: its top surface spans tiles `x .. x + width` and
/// travels between the top edges of rows `top` and `bottom` (`top < bottom`), there and back
/// once per `period` seconds, resting `dwell` seconds at each end.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Lift {
    /// Leftmost tile column under the platform.
    pub x: u32,
    /// Width in tiles.
    pub width: u32,
    /// Row whose top edge the surface reaches at the upper stop.
    pub top: u32,
    /// Row whose top edge the surface reaches at the lower stop.
    pub bottom: u32,
    /// Seconds for a round trip, rests included.
    pub period: f32,
    /// Seconds resting at each stop.
    pub dwell: f32,
}

impl Lift {
    /// The path of the surface's centre in world units (y-up, one unit per tile, the level's
    /// bottom edge at 0): `[upper stop, lower stop]`.
    #[must_use]
    pub fn path(&self, level_height: u32) -> [Vec2; 2] {
        let cx = self.x as f32 + self.width as f32 / 2.0;
        [vec2(cx, (level_height - self.top) as f32), vec2(cx, (level_height - self.bottom) as f32)]
    }

    /// The surface's row coordinate (y-down, in tiles) at time `t` seconds, starting at the
    /// lower stop: rest, rise, rest, fall.
    #[must_use]
    pub fn surface_at(&self, t: f32) -> f32 {
        let (top, bottom) = (self.top as f32, self.bottom as f32);
        let travel = ((self.period - 2.0 * self.dwell) / 2.0).max(f32::MIN_POSITIVE);
        let t = t.rem_euclid(self.period.max(f32::MIN_POSITIVE));
        if t < self.dwell {
            bottom
        } else if t < self.dwell + travel {
            bottom - (bottom - top) * (t - self.dwell) / travel
        } else if t < 2.0 * self.dwell + travel {
            top
        } else {
            top + (bottom - top) * ((t - 2.0 * self.dwell - travel) / travel).min(1.0)
        }
    }
}

/// A side-scroller level: tiles, objects and the movement limits it was built for.
///
/// Tile `(x, y)` (row 0 at the top) covers world box `[x, x + 1] × [height − y − 1, height − y]`
/// (y-up, one unit per tile). Objects (start, exit, keys) sit on a tile: the character touches
/// one when its box overlaps that tile while standing or climbing.
///
/// Fields are public so tools and tests can build or edit levels by hand; [`check_side`]
/// validates whatever it is given.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideLevel {
    /// Tiles per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Row-major tiles from the top-left, `width × height` of them.
    pub tiles: Vec<LevelTile>,
    /// The start tile (the character stands with its feet on the bottom edge of this tile).
    pub start: (u32, u32),
    /// The exit tile.
    pub exit: (u32, u32),
    /// Keys: color and tile.
    pub keys: Vec<(u8, (u32, u32))>,
    /// Moving lifts.
    pub lifts: Vec<Lift>,
    /// The limits the level is built for and checked against.
    pub movement: Movement,
    /// Tiles per maze cell `(columns, rows)`, walls included (one wall column and one floor
    /// row per cell); `(0, 0)` for a hand-made level.
    pub cell_size: (u32, u32),
    /// The maze zone of each cell (row-major), empty for a hand-made level.
    pub cell_zones: Vec<u16>,
}

impl SideLevel {
    /// An empty (all [`LevelTile::Empty`]) level with no objects, for building by hand.
    #[must_use]
    pub fn new(width: u32, height: u32, movement: Movement) -> Self {
        Self {
            width,
            height,
            tiles: vec![LevelTile::Empty; width as usize * height as usize],
            start: (0, 0),
            exit: (0, 0),
            keys: Vec::new(),
            lifts: Vec::new(),
            movement,
            cell_size: (0, 0),
            cell_zones: Vec::new(),
        }
    }

    /// The tile at `(x, y)`, or `None` outside (or for a level whose tile list is short).
    #[must_use]
    pub fn tile(&self, x: u32, y: u32) -> Option<LevelTile> {
        if x < self.width && y < self.height { self.tiles.get((y * self.width + x) as usize).copied() } else { None }
    }

    /// Sets the tile at `(x, y)`; does nothing outside.
    pub fn set(&mut self, x: u32, y: u32, tile: LevelTile) {
        if x < self.width
            && y < self.height
            && let Some(t) = self.tiles.get_mut((y * self.width + x) as usize)
        {
            *t = tile;
        }
    }

    /// The world-space centre of tile `(x, y)` (y-up).
    #[must_use]
    pub fn tile_center(&self, (x, y): (u32, u32)) -> Vec2 {
        vec2(x as f32 + 0.5, self.height as f32 - y as f32 - 0.5)
    }

    /// Number of zones (one more than the highest door or hatch color, at least 1).
    #[must_use]
    pub fn zone_count(&self) -> u16 {
        self.tiles.iter().filter_map(|t| t.lock_color()).map(|c| u16::from(c) + 2).max().unwrap_or(1)
    }
}

/// What [`generate_side`] builds: a grid maze config and the movement limits.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideConfig {
    /// The grid maze the level is drawn from ([`Shape::Grid`] only).
    pub maze: Config,
    /// The character's limits.
    pub movement: Movement,
}

/// Most tiles a level may have (the same cap as a maze's nodes).
pub const MAX_LEVEL_TILES: u64 = crate::config::MAX_NODES;

impl Default for SideConfig {
    /// A 16 × 8 grid maze, 4 zones, 10 loops, horizontal bias 0.6, seed 0, the default
    /// [`Movement`].
    fn default() -> Self {
        Self::new(Config::grid(16, 8).zones(4).cycles(10).bias(0.6), Movement::default())
    }
}

impl SideConfig {
    /// A side-scroller config from a grid maze config and movement limits.
    #[must_use]
    pub fn new(maze: Config, movement: Movement) -> Self {
        Self { maze, movement }
    }

    /// Sets the maze's seed.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.maze.seed = seed;
        self
    }

    /// Tiles per cell `(columns, rows)` for these movement limits, one wall column and one
    /// floor row included: 11 columns (10 inside); rows enough for the character to stand on a
    /// slope bump and to jump from the last platform of a stack into the room above without
    /// touching its ceiling (5 with the default movement). A level of `w × h` cells is
    /// `w · columns + 1` by `h · rows + 1` tiles.
    #[must_use]
    pub fn cell_size(&self) -> (u32, u32) {
        let m = &self.movement;
        let body = m.size.y.ceil() as u32;
        let step = m.climb_step() as f32;
        let jump_room = (m.jump_height + m.size.y - step).ceil() as u32 + 1;
        (CELL_INTERIOR_WIDTH + 1, body.max(2).max(jump_room).max(body + 2) + 1)
    }

    /// Checks the maze config, the movement limits and the level's size.
    ///
    /// # Errors
    /// [`Error::Config`] for a bad maze config, a maze that is not a grid or a level over
    /// [`MAX_LEVEL_TILES`]; [`Error::Movement`] for bad limits.
    pub fn validate(&self) -> Result<(), Error> {
        self.maze.validate()?;
        self.movement.validate()?;
        let Shape::Grid { width, height } = self.maze.shape else {
            return Err(Error::Config(ConfigError::SideNeedsGrid));
        };
        let (cw, ch) = self.cell_size();
        let tiles = (u64::from(width) * u64::from(cw) + 1) * (u64::from(height) * u64::from(ch) + 1);
        if tiles > MAX_LEVEL_TILES {
            return Err(Error::Config(ConfigError::LevelTooLarge { tiles, limit: MAX_LEVEL_TILES }));
        }
        Ok(())
    }
}

/// Interior columns of a room (between its wall columns).
const CELL_INTERIOR_WIDTH: u32 = 10;
