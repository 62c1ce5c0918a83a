//! The game core: one [`Game`] value that steps deterministically from [`Input`] with no
//! rendering, so tests and the autopilot drive exactly what a player drives.
//!
//! One step, in order (each stage names the crate doing the work):
//! 1. intents: the player's move and shots from the input; enemies wander or, when they see the
//!    player (ray queries against the tiles, lore-broadphase), chase;
//! 2. broadphase: every mover's box (swept over its motion) goes into the moving index, and one
//!    `World::pairs` call gives the moving pairs and the (mover, tile face) pairs;
//! 3. movement: the player and the enemies slide along the tile faces their pairs name
//!    (lore-collide2d's swept slide move, so nothing tunnels); bullets stop at the first face;
//! 4. pairs: enemy–enemy pairs push enemies apart (applied next step), bullet–enemy pairs are
//!    decided pixel-perfectly (lore-pixel-collide's CPU twin), player–enemy pairs hurt;
//! 5. pickups and the exit: a key opens its doors (their faces leave the static index); the
//!    exit starts the next level.

//!
//! The step's stages live in submodules by concept: `entities` (the kinds of bodies and how a
//! level fills the world with them), `movement` (intents and slide moves), `combat` (pairs:
//! separation, bullets, hurting; pickups and doors), `frame` (timing and the state hash).

mod combat;
mod entities;
mod frame;
mod movement;
mod pixels;

use lore_render::time::Instant; // std's panics in a browser

use glam::Vec2;
use lore_allocators::{HandleArray, Stack};
use lore_broadphase::{Grid, ProxyId, Tree, World};
use lore_mazegen::{Tile, TilePos};
use lore_pixel_collide::PixelSpace;
use lore_render::{Input, Key, MouseButton};
use rand::SeedableRng;
use rand_pcg::Pcg32;

use crate::kinds::{EnemyKind, Kinds};
use crate::level::{Level, LevelConfig, LevelError};
use crate::sound::Effect;

pub use entities::{Bullet, Enemy, Pickup};
pub use frame::FrameTimes;
pub use pixels::GpuPixels;

use entities::{Body, Face};
use frame::{SCRATCH_BLOCK, ms};
use pixels::Masks;

/// Collision pixels per tile for the pixel-perfect bullet test.
pub const PIXELS_PER_TILE: f32 = 16.0;

/// Frames the player cannot be hurt again after an enemy touches it.
pub const HURT_FRAMES: u32 = 30;

/// Most bullets alive at once (shots past it are not fired).
pub const MAX_BULLETS: usize = 4096;

/// What the player asks for this step, read from an [`Input`] the same way for a person and
/// for the autopilot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    /// Move direction, length at most 1 (arrow keys or WASD).
    pub movement: Vec2,
    /// Fire towards this world point (left mouse button over the scene).
    pub aim: Option<Vec2>,
    /// Fire the way the player faces (space).
    pub fire_facing: bool,
}

impl Controls {
    /// The controls an input gives.
    #[must_use]
    pub fn from_input(input: &Input) -> Self {
        let movement = input.arrows().clamp_length_max(1.0);
        let aim = (input.mouse_in_view && input.button_down(MouseButton::Left)).then_some(input.mouse);
        Self { movement, aim, fire_facing: input.key_down(Key::Space) }
    }
}

/// The counters of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// Level number, from 0.
    pub level: u32,
    /// The level's maze seed.
    pub seed: u64,
    /// Frames spent in the level.
    pub frames: u64,
    /// Keys picked up.
    pub keys: u32,
    /// Enemies hit (each hit removes one).
    pub enemies_hit: u32,
    /// Bullets fired.
    pub bullets_fired: u32,
    /// Times an enemy touched the player.
    pub player_hurt: u32,
    /// Bullet–enemy candidate pairs from the broadphase, each decided pixel-perfectly.
    pub pixel_pairs: u64,
    /// Of those, the pairs the GPU decided (0 without a GPU: the CPU twin decided them).
    pub gpu_pairs: u64,
    /// Of the GPU's answers, those equal to the CPU twin's.
    pub gpu_agree: u64,
}

/// Why a game could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The level could not be made.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// A collision structure refused the level's geometry.
    #[error("collision setup: {0}")]
    Setup(String),
}

fn setup<E: std::fmt::Display>(e: E) -> GameError {
    GameError::Setup(e.to_string())
}

/// The whole game state.
#[derive(Debug)]
pub struct Game {
    kinds: Kinds,
    config: LevelConfig,
    level: Level,
    stats: LevelStats,
    done: Vec<LevelStats>,
    rng: Pcg32,
    frame: u64,
    // Player.
    player: Vec2,
    facing: Vec2,
    cooldown: u32,
    hurt_cooldown: u32,
    player_motion: Vec2,
    player_proxy: ProxyId,
    keys_held: [bool; 256],
    // Entities.
    enemies: HandleArray<Enemy>,
    bullets: HandleArray<Bullet>,
    pickups: HandleArray<Pickup>,
    // Collision.
    world: World<Tree, Grid>,
    faces: Vec<Option<Face>>,
    bodies: Vec<Option<Body>>,
    space: PixelSpace,
    masks: Masks,
    gpu: Option<GpuPixels>,
    gpu_error: Option<String>,
    // Per-step lists the broadphase fills, kept to reuse their memory.
    moving_pairs: Vec<(ProxyId, ProxyId)>,
    mixed_pairs: Vec<(ProxyId, ProxyId)>,
    ranges: Vec<(u32, u32)>,
    /// The frame's scratch: reset at the start of every step (`None` only during a step).
    scratch: Option<Stack>,
    times: FrameTimes,
    events: Vec<Effect>,
}

impl Game {
    /// A game at the first level of `config` with `kinds`.
    ///
    /// # Errors
    /// [`GameError`] when the level cannot be made.
    pub fn new(config: LevelConfig, kinds: Kinds) -> Result<Self, GameError> {
        let t = Instant::now();
        let level = Level::generate(config)?;
        let level_ms = ms(t);
        let mut game = Self {
            masks: Masks::new(&kinds)?,
            gpu: None,
            gpu_error: None,
            scratch: Some(Stack::growable(SCRATCH_BLOCK).map_err(setup)?),
            kinds,
            config,
            stats: LevelStats { seed: config.seed, ..LevelStats::default() },
            done: Vec::new(),
            rng: Pcg32::seed_from_u64(config.seed),
            frame: 0,
            player: Vec2::ZERO,
            facing: Vec2::X,
            cooldown: 0,
            hurt_cooldown: 0,
            player_motion: Vec2::ZERO,
            player_proxy: ProxyId::from_bits(0),
            keys_held: [false; 256],
            enemies: HandleArray::new(),
            bullets: HandleArray::new(),
            pickups: HandleArray::new(),
            world: World::new(Tree::new(), Grid::new(Vec2::ZERO, 1.0, 1, 1).map_err(setup)?),
            faces: Vec::new(),
            bodies: Vec::new(),
            space: PixelSpace::new(PIXELS_PER_TILE).map_err(setup)?,
            moving_pairs: Vec::new(),
            mixed_pairs: Vec::new(),
            ranges: Vec::new(),
            times: FrameTimes::default(),
            events: Vec::new(),
            level,
        };
        game.enter_level()?;
        game.times.level = level_ms;
        Ok(game)
    }

    /// Replaces the kinds while the game runs (a hot reload): speeds, radii, fire rate and
    /// bullet values apply from the next step, enemy counts from the next level.
    ///
    /// # Errors
    /// [`GameError::Setup`] when a radius gives no collision sprite (the old kinds stay).
    pub fn set_kinds(&mut self, kinds: Kinds) -> Result<(), GameError> {
        self.masks = Masks::new(&kinds)?;
        self.kinds = kinds;
        Ok(())
    }

    /// Advances the game by one fixed step of [`DT`](lore_render::demo::DT) seconds.
    ///
    /// # Errors
    /// [`GameError`] when the next level cannot be made (only on reaching an exit).
    pub fn step(&mut self, input: &Input) -> Result<(), GameError> {
        // The scratch stack leaves `self` for the step, so the stages can borrow both.
        let mut scratch = match self.scratch.take() {
            Some(s) => s,
            None => Stack::growable(SCRATCH_BLOCK).map_err(setup)?,
        };
        scratch.reset();
        let result = self.step_with(input, &scratch);
        self.scratch = Some(scratch);
        result
    }

    fn step_with(&mut self, input: &Input, scratch: &Stack) -> Result<(), GameError> {
        let mut times = FrameTimes::default();
        self.events.clear();
        let t = Instant::now();
        let controls = Controls::from_input(input);
        self.player_intent(&controls);
        times.game += ms(t);
        let t = Instant::now();
        self.enemy_intents(scratch);
        times.broadphase += ms(t); // mostly line-of-sight rays
        let t = Instant::now();
        self.broadphase()?;
        times.broadphase += ms(t);
        let t = Instant::now();
        self.movement(scratch);
        times.movement += ms(t);
        let t = Instant::now();
        let pixel_ms = self.resolve_pairs(scratch);
        times.pixels += pixel_ms;
        times.game += ms(t) - pixel_ms;
        let t = Instant::now();
        self.frame += 1;
        self.stats.frames += 1;
        let next = self.pickups_and_exit(scratch);
        times.game += ms(t);
        if next {
            self.events.push(Effect::Exit);
            let t = Instant::now();
            self.done.push(self.stats);
            let config =
                LevelConfig { seed: self.config.seed.wrapping_add(u64::from(self.stats.level) + 1), ..self.config };
            self.level = Level::generate(config)?;
            self.stats = LevelStats { level: self.stats.level + 1, seed: config.seed, ..LevelStats::default() };
            self.enter_level()?;
            times.level += ms(t);
        }
        self.times = times;
        Ok(())
    }

    /// The current level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The kinds in use.
    #[must_use]
    pub fn kinds(&self) -> &Kinds {
        &self.kinds
    }

    /// Counters of the current level.
    #[must_use]
    pub fn stats(&self) -> LevelStats {
        self.stats
    }

    /// Counters of every finished level, in order.
    #[must_use]
    pub fn finished(&self) -> &[LevelStats] {
        &self.done
    }

    /// Steps taken since the start.
    #[must_use]
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The player's centre.
    #[must_use]
    pub fn player(&self) -> Vec2 {
        self.player
    }

    /// The way the player faces (unit).
    #[must_use]
    pub fn facing(&self) -> Vec2 {
        self.facing
    }

    /// Whether the player was hurt in the last [`HURT_FRAMES`] steps.
    #[must_use]
    pub fn player_hurt_recently(&self) -> bool {
        self.hurt_cooldown > 0
    }

    /// Whether the player holds the key of `colour` (its doors are open).
    #[must_use]
    pub fn holds_key(&self, colour: u8) -> bool {
        self.keys_held[usize::from(colour)]
    }

    /// Whether tile `t` is solid now: a wall, or a door whose key the player lacks.
    #[must_use]
    pub fn is_solid(&self, t: TilePos) -> bool {
        match self.level.map.tile(t.0, t.1) {
            None | Some(Tile::Wall) => true,
            Some(Tile::Door(c)) => !self.holds_key(c),
            _ => false,
        }
    }

    /// The living enemies.
    pub fn enemies(&self) -> impl Iterator<Item = &Enemy> + '_ {
        self.enemies.iter().map(|(_, e)| e)
    }

    /// The radius of an enemy of its kind.
    #[must_use]
    pub fn enemy_kind(&self, e: &Enemy) -> &EnemyKind {
        if e.chaser { &self.kinds.chaser } else { &self.kinds.wanderer }
    }

    /// The bullets in flight.
    pub fn bullets(&self) -> impl Iterator<Item = &Bullet> + '_ {
        self.bullets.iter().map(|(_, b)| b)
    }

    /// The keys still lying in the level.
    pub fn pickups(&self) -> impl Iterator<Item = &Pickup> + '_ {
        self.pickups.iter().map(|(_, p)| p)
    }

    /// What happened in the last step, by the sound it makes, in order.
    #[must_use]
    pub fn events(&self) -> &[Effect] {
        &self.events
    }

    /// Decides bullet–enemy pairs on `gpu` from the next step on (the CPU twin still checks
    /// every answer; see [`LevelStats::gpu_agree`]).
    pub fn use_gpu(&mut self, gpu: GpuPixels) {
        self.gpu = Some(gpu);
        self.gpu_error = None;
    }

    /// Takes the GPU back (the CPU twin decides from the next step on).
    pub fn take_gpu(&mut self) -> Option<GpuPixels> {
        self.gpu.take()
    }

    /// Whether a GPU decides the pixel tests.
    #[must_use]
    pub fn has_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// The last error of the GPU path, if a step fell back to the CPU twin.
    #[must_use]
    pub fn gpu_error(&self) -> Option<&str> {
        self.gpu_error.as_deref()
    }

    /// Where the last step's time went.
    #[must_use]
    pub fn times(&self) -> FrameTimes {
        self.times
    }
}
