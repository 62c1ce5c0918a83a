//! The game core: one [`Game`] value that steps deterministically from [`Input`] with no
//! rendering, so tests and the autopilot drive exactly what a player drives.
//!
//! One step, in order (each stage names the crate doing the work):
//! 1. the player: lore-collide2d's character controller moves its box or capsule by the
//!    controls (run, jump, drop through, ladders) among the tile faces near it (a query of the
//!    static tree, lore-broadphase) and the lifts (moving one-way platforms); shots are fired;
//! 2. enemies patrol their floors (guards chase the player they see);
//! 3. broadphase: every mover's box goes into the moving grid, whose `pairs` gives the moving
//!    pairs; shots fly and stop at the first solid face they cross (a static tree query each);
//! 4. pairs: shot–enemy pairs are decided pixel-perfectly (lore-pixel-collide's CPU twin, the
//!    GPU when present), player–enemy pairs hurt;
//! 5. keys (a key opens its doors and hatches) and the exit, which starts the next level.
//!
//! Entities live in lore-allocators `HandleArray`s; the step's lists come from a `Stack` reset
//! every step, so a warmed-up step allocates nothing.

mod combat;
mod entities;
mod frame;
mod pixels;
mod player;
mod solids;

use lore_render::time::Instant; // std's panics in a browser

use glam::Vec2;
use lore_allocators::{HandleArray, Stack};
use lore_broadphase::{Grid, ProxyId, Tree, World};
use lore_pixel_collide::DiskPairs;
use lore_render::{Input, Key};
use rand::SeedableRng;
use rand_pcg::Pcg32;

use crate::kinds::Kinds;
use crate::level::{Level, LevelConfig, LevelError};
use crate::sound::Effect;

pub use entities::{Enemy, Pickup, Player, Shot};
pub use frame::FrameTimes;
pub use pixels::GpuPixels;

use entities::Body;
use frame::{SCRATCH_BLOCK, ms};
use solids::{Face, LiftBody};

/// Collision pixels per tile for the pixel-perfect shot test.
pub const PIXELS_PER_TILE: f32 = 16.0;

/// Frames the player cannot be hurt again after an enemy touches it.
pub const HURT_FRAMES: u32 = 40;

/// Most shots alive at once (shots past it are not fired).
pub const MAX_SHOTS: usize = 4096;

/// What the player asks for this step, read from an [`Input`] the same way for a person and
/// for the autopilot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    /// Run: -1 left, 1 right, 0 none (arrow keys or A/D).
    pub run: f32,
    /// Ladders: 1 up, -1 down (arrow keys or W/S).
    pub climb: f32,
    /// Jump (space or Z); a jump needs the key released and pressed again.
    pub jump: bool,
    /// Drop through the one-way platform underfoot (down arrow or S).
    pub drop: bool,
    /// Shoot the way the player faces (X or F).
    pub shoot: bool,
}

impl Controls {
    /// The controls an input gives.
    #[must_use]
    pub fn from_input(input: &Input) -> Self {
        let arrows = input.arrows();
        Self {
            run: arrows.x,
            climb: arrows.y,
            jump: input.key_down(Key::Space) || input.key_down(Key::Char('z')),
            drop: arrows.y < 0.0,
            shoot: input.key_down(Key::Char('x')) || input.key_down(Key::Char('f')),
        }
    }
}

/// The counters of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// Level number, from 0.
    pub level: u32,
    /// The level's seed.
    pub seed: u64,
    /// Frames spent in the level.
    pub frames: u64,
    /// Keys picked up.
    pub keys: u32,
    /// Jumps.
    pub jumps: u32,
    /// Enemies hit (each hit removes one).
    pub enemies_hit: u32,
    /// Shots fired.
    pub shots_fired: u32,
    /// Times an enemy touched the player.
    pub player_hurt: u32,
    /// Shot–enemy candidate pairs from the broadphase, each decided pixel-perfectly.
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
    level_frame: u64,
    player: Player,
    keys_held: [bool; 256],
    enemies: HandleArray<Enemy>,
    shots: HandleArray<Shot>,
    pickups: HandleArray<Pickup>,
    world: World<Tree, Grid>,
    faces: Vec<Option<Face>>,
    lifts: Vec<LiftBody>,
    bodies: Vec<Option<Body>>,
    disks: DiskPairs,
    gpu: Option<GpuPixels>,
    gpu_error: Option<String>,
    found: Vec<ProxyId>,
    moving_pairs: Vec<(ProxyId, ProxyId)>,
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
        let capsule = kinds.player.capsule;
        let mut game = Self {
            disks: pixels::disks(&kinds)?,
            gpu: None,
            gpu_error: None,
            scratch: Some(Stack::growable(SCRATCH_BLOCK).map_err(setup)?),
            kinds,
            config,
            stats: LevelStats { seed: config.seed, ..LevelStats::default() },
            done: Vec::new(),
            rng: Pcg32::seed_from_u64(config.seed),
            frame: 0,
            level_frame: 0,
            player: Player {
                pos: Vec2::ZERO,
                vy: 0.0,
                facing: 1.0,
                grounded: false,
                climbing: false,
                capsule,
                air_frames: 0,
                dropping: 0,
                jump_held: false,
                cooldown: 0,
                hurt_cooldown: 0,
                motion: Vec2::ZERO,
                proxy: ProxyId::from_bits(0),
            },
            keys_held: [false; 256],
            enemies: HandleArray::new(),
            shots: HandleArray::new(),
            pickups: HandleArray::new(),
            world: World::new(Tree::new(), Grid::new(Vec2::ZERO, 1.0, 1, 1).map_err(setup)?),
            faces: Vec::new(),
            lifts: Vec::new(),
            bodies: Vec::new(),
            found: Vec::new(),
            moving_pairs: Vec::new(),
            times: FrameTimes::default(),
            events: Vec::new(),
            level,
        };
        game.enter_level()?;
        game.times.level = level_ms;
        Ok(game)
    }

    /// Replaces the kinds while the game runs (a hot reload): speeds, radii and fire rate apply
    /// from the next step, enemy counts from the next level; the body shape (`capsule`) at once.
    ///
    /// # Errors
    /// [`GameError::Setup`] when a radius gives no collision sprite (the old kinds stay).
    pub fn set_kinds(&mut self, kinds: Kinds) -> Result<(), GameError> {
        self.disks = pixels::disks(&kinds)?;
        if kinds.player.capsule != self.kinds.player.capsule {
            self.player.capsule = kinds.player.capsule;
        }
        self.kinds = kinds;
        Ok(())
    }

    /// Switches the player's body between a box and a capsule (same size), at once.
    pub fn set_capsule(&mut self, capsule: bool) {
        self.player.capsule = capsule;
        self.kinds.player.capsule = capsule;
    }

    /// Advances the game by one fixed step of [`DT`](lore_render::demo::DT) seconds.
    ///
    /// # Errors
    /// [`GameError`] when the next level cannot be made (only on reaching an exit).
    pub fn step(&mut self, input: &Input) -> Result<(), GameError> {
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
        let h = self.level.height();
        for l in &mut self.lifts {
            *l = LiftBody::at(l.lift, h, self.level_frame, lore_render::demo::DT);
        }
        let controls = Controls::from_input(input);
        times.game += ms(t);
        let t = Instant::now();
        self.player_step(&controls);
        times.controller += ms(t);
        let t = Instant::now();
        self.enemies_step();
        times.game += ms(t);
        let t = Instant::now();
        self.broadphase()?;
        times.broadphase += ms(t);
        let t = Instant::now();
        self.shots_step(scratch);
        let pixel_ms = self.resolve_pairs(scratch);
        times.pixels += pixel_ms;
        self.frame += 1;
        self.level_frame += 1;
        self.stats.frames += 1;
        let next = self.pickups_and_exit(scratch);
        times.game += ms(t) - pixel_ms;
        if next {
            self.events.push(Effect::Exit);
            let t = Instant::now();
            self.done.push(self.stats);
            let config =
                LevelConfig { seed: self.config.seed.wrapping_add(u64::from(self.stats.level) + 1), ..self.config };
            self.level = Level::generate(config)?;
            self.stats = LevelStats { level: self.stats.level + 1, seed: config.seed, ..LevelStats::default() };
            self.level_frame = 0;
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

    /// Steps taken in the current level (the lifts' clock).
    #[must_use]
    pub fn level_frame(&self) -> u64 {
        self.level_frame
    }

    /// The player.
    #[must_use]
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// The player's box size (the level's character), tiles.
    #[must_use]
    pub fn player_size(&self) -> Vec2 {
        self.level.side.movement.size
    }

    /// Whether the player was hurt in the last [`HURT_FRAMES`] steps.
    #[must_use]
    pub fn player_hurt_recently(&self) -> bool {
        self.player.hurt_cooldown > 0
    }

    /// Whether the player holds the key of `colour` (its doors and hatches are open).
    #[must_use]
    pub fn holds_key(&self, colour: u8) -> bool {
        self.keys_held[usize::from(colour)]
    }

    /// The colours held, in order.
    pub fn keys_held(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&c| self.keys_held[usize::from(c)])
    }

    /// The lift surfaces now: `(left, right, height)` in world units.
    pub fn lift_surfaces(&self) -> impl Iterator<Item = (f32, f32, f32)> + '_ {
        self.lifts.iter().map(|l| (l.lift.x as f32, (l.lift.x + l.lift.width) as f32, l.surface))
    }

    /// The living enemies.
    pub fn enemies(&self) -> impl Iterator<Item = &Enemy> + '_ {
        self.enemies.iter().map(|(_, e)| e)
    }

    /// The radius of an enemy of its kind.
    #[must_use]
    pub fn enemy_radius(&self, e: &Enemy) -> f32 {
        if e.guard { self.kinds.guard.radius } else { self.kinds.walker.radius }
    }

    /// The shots in flight.
    pub fn shots(&self) -> impl Iterator<Item = &Shot> + '_ {
        self.shots.iter().map(|(_, s)| s)
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

    /// Decides shot–enemy pairs on `gpu` from the next step on (the CPU twin still checks
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
