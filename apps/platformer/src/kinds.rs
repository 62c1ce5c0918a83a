//! The game's entity kinds: reflected types whose values come from `assets/kinds.xml`.
//!
//! Every field has a default (the values of the committed file), so a file may leave any
//! parameter out; anything else wrong with the file (an unknown parameter, a value that does
//! not read, broken XML, a value out of range) refuses the whole file with a message naming the
//! line, and the game keeps the values it had.

use std::path::Path;

use lore_reflect::{FileError, Limits, Reflect, Registry, StrictError, load_strict, read_capped, thing_value};

/// The kinds file shipped with the game, compiled in.
pub const DEFAULT_KINDS_XML: &str = include_str!("../assets/kinds.xml");

/// Largest kinds file read (64 KiB): the file holds a handful of things.
pub const MAX_KINDS_BYTES: u64 = 64 * 1024;

/// Most enemies of one kind a level may ask for.
pub const MAX_ENEMIES_PER_KIND: u32 = 10_000;

/// The player. Its run speed, jump and box are the level's movement limits.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct PlayerKind {
    /// A capsule body (true) or a box (false), both the size of the level's character.
    pub capsule: bool,
    /// Ladder speed in tiles per second.
    pub climb_speed: f32,
    /// Frames between two shots.
    pub fire_interval: u32,
    /// Frames after walking off a ledge during which a jump is still allowed.
    pub coyote_frames: u32,
}

impl Default for PlayerKind {
    fn default() -> Self {
        Self { capsule: false, climb_speed: 4.0, fire_interval: 10, coyote_frames: 4 }
    }
}

/// An enemy kind: it patrols the floor it stands on; one with a sight and a chase speed runs at
/// the player it sees on its floor.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct EnemyKind {
    /// Enemies of this kind per level.
    pub count: u32,
    /// Patrol speed in tiles per second.
    pub speed: f32,
    /// Speed when chasing, tiles per second (0 for kinds that never chase).
    pub chase_speed: f32,
    /// How far it sees the player along its floor, in tiles.
    pub sight: f32,
    /// Collision radius in tiles.
    pub radius: f32,
}

impl Default for EnemyKind {
    fn default() -> Self {
        Self { count: 40, speed: 1.5, chase_speed: 0.0, sight: 0.0, radius: 0.35 }
    }
}

/// A shot.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct ShotKind {
    /// Speed in tiles per second.
    pub speed: f32,
    /// Radius in tiles.
    pub radius: f32,
    /// Frames before it fades.
    pub lifetime: u32,
}

impl Default for ShotKind {
    fn default() -> Self {
        Self { speed: 16.0, radius: 0.12, lifetime: 45 }
    }
}

/// Every kind the game uses, read from one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Kinds {
    /// The thing named `player`.
    pub player: PlayerKind,
    /// The thing named `walker`.
    pub walker: EnemyKind,
    /// The thing named `guard`.
    pub guard: EnemyKind,
    /// The thing named `shot`.
    pub shot: ShotKind,
}

/// Why a kinds file was refused.
#[derive(Debug, thiserror::Error)]
pub enum KindsError {
    /// The file could not be read, or is larger than [`MAX_KINDS_BYTES`].
    #[error("kinds file {0}")]
    File(#[from] FileError),
    /// The document is malformed or lacks a thing.
    #[error("kinds: {0}")]
    Document(#[from] StrictError),
    /// A value is outside the range the game accepts.
    #[error("kinds: {thing}.{field} = {value} is out of range ({range})")]
    OutOfRange {
        /// The thing.
        thing: &'static str,
        /// The parameter.
        field: &'static str,
        /// The value read.
        value: f64,
        /// The accepted range.
        range: &'static str,
    },
}

impl Kinds {
    /// The registry of the kinds' types.
    ///
    /// # Panics
    /// Never: the three types have distinct names (a clash would be a bug caught by every test).
    #[must_use]
    pub fn registry() -> Registry {
        let mut r = Registry::new();
        r.register::<PlayerKind>().expect("distinct kind names");
        r.register::<EnemyKind>().expect("distinct kind names");
        r.register::<ShotKind>().expect("distinct kind names");
        r
    }

    /// The kinds shipped with the game ([`DEFAULT_KINDS_XML`]).
    ///
    /// # Panics
    /// Never in a tested build: the committed file is checked by the tests.
    #[must_use]
    pub fn shipped() -> Self {
        Self::from_xml(DEFAULT_KINDS_XML).expect("assets/kinds.xml is valid")
    }

    /// Reads kinds from XML text, strictly (see the module docs).
    ///
    /// # Errors
    /// [`KindsError::Document`] for malformed text, unknown parameters, unreadable values or a
    /// missing thing; [`KindsError::OutOfRange`] for values the game cannot run with.
    pub fn from_xml(text: &str) -> Result<Self, KindsError> {
        let limits = Limits { max_depth: 4, max_value_len: 256, max_things: 64, ..Limits::default() };
        let doc = load_strict(text, &Self::registry(), &limits)?;
        let kinds = Self {
            player: thing_value(&doc, "player")?,
            walker: thing_value(&doc, "walker")?,
            guard: thing_value(&doc, "guard")?,
            shot: thing_value(&doc, "shot")?,
        };
        kinds.validate()?;
        Ok(kinds)
    }

    /// Reads a kinds file (at most [`MAX_KINDS_BYTES`]).
    ///
    /// # Errors
    /// [`KindsError::File`], or as [`Kinds::from_xml`].
    pub fn load(path: &Path) -> Result<Self, KindsError> {
        let text = read_capped(path, MAX_KINDS_BYTES)?;
        Self::from_xml(&text)
    }

    /// Checks every value against the range the game runs with (the ranges are in the errors).
    ///
    /// # Errors
    /// [`KindsError::OutOfRange`] for the first value outside its range.
    pub fn validate(&self) -> Result<(), KindsError> {
        let range = |thing, field, value: f32, lo: f32, hi: f32, range| {
            if value.is_finite() && (lo..=hi).contains(&value) {
                Ok(())
            } else {
                // The f32 as written (0.9), not its binary expansion (0.8999999761581421).
                let value = value.to_string().parse::<f64>().unwrap_or(f64::from(value));
                Err(KindsError::OutOfRange { thing, field, value, range })
            }
        };
        range("player", "climb_speed", self.player.climb_speed, 0.5, 20.0, "0.5..=20")?;
        range("player", "fire_interval", self.player.fire_interval as f32, 1.0, 600.0, "1..=600")?;
        range("player", "coyote_frames", self.player.coyote_frames as f32, 0.0, 30.0, "0..=30")?;
        for (thing, e) in [("walker", &self.walker), ("guard", &self.guard)] {
            range(thing, "count", e.count as f32, 0.0, MAX_ENEMIES_PER_KIND as f32, "0..=10000")?;
            range(thing, "speed", e.speed, 0.0, 20.0, "0..=20")?;
            range(thing, "chase_speed", e.chase_speed, 0.0, 20.0, "0..=20")?;
            range(thing, "sight", e.sight, 0.0, 100.0, "0..=100")?;
            range(thing, "radius", e.radius, 0.1, 0.5, "0.1..=0.5")?;
        }
        range("shot", "speed", self.shot.speed, 0.1, 60.0, "0.1..=60")?;
        range("shot", "radius", self.shot.radius, 0.02, 0.45, "0.02..=0.45")?;
        range("shot", "lifetime", self.shot.lifetime as f32, 1.0, 3600.0, "1..=3600")?;
        Ok(())
    }
}
