//! The game's entity kinds: reflected types whose values come from `assets/kinds.xml`.
//!
//! Every field has a default (the values of the committed file), so a file may leave any
//! parameter out; anything else wrong with the file (an unknown parameter, a value that does
//! not read, broken XML, a value out of range) refuses the whole file with a message naming the
//! line, and the game keeps the values it had.

use std::path::Path;

use lore_reflect::{Limits, Reflect, Registry};

use lore_reflect::{FileError, StrictError, load_strict, read_capped, thing_value};

/// The kinds file shipped with the game, compiled in.
pub const DEFAULT_KINDS_XML: &str = include_str!("../assets/kinds.xml");

/// Largest kinds file read (64 KiB): the file holds a handful of things.
pub const MAX_KINDS_BYTES: u64 = 64 * 1024;

/// Most enemies of one kind a level may ask for.
pub const MAX_ENEMIES_PER_KIND: u32 = 10_000;

/// The player.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct PlayerKind {
    /// Speed in tiles per second.
    pub speed: f32,
    /// Collision radius in tiles.
    pub radius: f32,
    /// Frames between two shots.
    pub fire_interval: u32,
}

impl Default for PlayerKind {
    fn default() -> Self {
        Self { speed: 4.0, radius: 0.3, fire_interval: 8 }
    }
}

/// An enemy kind: wanderers never chase; chasers run at the player they can see.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct EnemyKind {
    /// Enemies of this kind per level.
    pub count: u32,
    /// Wandering speed in tiles per second.
    pub speed: f32,
    /// Speed when chasing, tiles per second (0 for kinds that never chase).
    pub chase_speed: f32,
    /// How far it sees the player, in tiles (line of sight through the tiles).
    pub sight: f32,
    /// Collision radius in tiles.
    pub radius: f32,
}

impl Default for EnemyKind {
    fn default() -> Self {
        Self { count: 120, speed: 1.2, chase_speed: 0.0, sight: 0.0, radius: 0.22 }
    }
}

/// A bullet.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct BulletKind {
    /// Speed in tiles per second.
    pub speed: f32,
    /// Radius in tiles.
    pub radius: f32,
    /// Frames before it fades.
    pub lifetime: u32,
}

impl Default for BulletKind {
    fn default() -> Self {
        Self { speed: 14.0, radius: 0.08, lifetime: 90 }
    }
}

/// A pickup (the keys).
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct PickupKind {
    /// Pick-up radius in tiles.
    pub radius: f32,
}

impl Default for PickupKind {
    fn default() -> Self {
        Self { radius: 0.3 }
    }
}

/// Every kind the game uses, read from one document.
#[derive(Clone, Debug, PartialEq)]
pub struct Kinds {
    /// The thing named `player`.
    pub player: PlayerKind,
    /// The thing named `wanderer`.
    pub wanderer: EnemyKind,
    /// The thing named `chaser`.
    pub chaser: EnemyKind,
    /// The thing named `bullet`.
    pub bullet: BulletKind,
    /// The thing named `key`.
    pub key: PickupKind,
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
    /// Never: the four types have distinct names (a clash would be a bug caught by every test).
    #[must_use]
    pub fn registry() -> Registry {
        let mut r = Registry::new();
        r.register::<PlayerKind>().expect("distinct kind names");
        r.register::<EnemyKind>().expect("distinct kind names");
        r.register::<BulletKind>().expect("distinct kind names");
        r.register::<PickupKind>().expect("distinct kind names");
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
            wanderer: thing_value(&doc, "wanderer")?,
            chaser: thing_value(&doc, "chaser")?,
            bullet: thing_value(&doc, "bullet")?,
            key: thing_value(&doc, "key")?,
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
        range("player", "speed", self.player.speed, 0.0, 20.0, "0..=20")?;
        range("player", "radius", self.player.radius, 0.05, 0.45, "0.05..=0.45")?;
        range("player", "fire_interval", self.player.fire_interval as f32, 1.0, 600.0, "1..=600")?;
        for (thing, e) in [("wanderer", &self.wanderer), ("chaser", &self.chaser)] {
            range(thing, "count", e.count as f32, 0.0, MAX_ENEMIES_PER_KIND as f32, "0..=10000")?;
            range(thing, "speed", e.speed, 0.0, 20.0, "0..=20")?;
            range(thing, "chase_speed", e.chase_speed, 0.0, 20.0, "0..=20")?;
            range(thing, "sight", e.sight, 0.0, 100.0, "0..=100")?;
            range(thing, "radius", e.radius, 0.05, 0.45, "0.05..=0.45")?;
        }
        range("bullet", "speed", self.bullet.speed, 0.1, 60.0, "0.1..=60")?;
        range("bullet", "radius", self.bullet.radius, 0.02, 0.45, "0.02..=0.45")?;
        range("bullet", "lifetime", self.bullet.lifetime as f32, 1.0, 3600.0, "1..=3600")?;
        range("key", "radius", self.key.radius, 0.05, 1.0, "0.05..=1")?;
        Ok(())
    }
}
