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

use std::time::Instant;

use glam::{Vec2, vec2};
use lore_allocators::{Handle, HandleArray};
use lore_broadphase::{Aabb as BoxBp, Grid, ProxyId, Ray, SpatialIndex, Tree, World};
use lore_collide2d::{Segment, SlideOptions, slide_disk_swept};
use lore_mazegen::{Tile, TilePos};
use lore_pixel_collide::{Mask, PixelSpace, Sprite};
use lore_render::demo::DT;
use lore_render::{Input, Key, MouseButton};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

use crate::kinds::{EnemyKind, Kinds};
use crate::level::{Level, LevelConfig, LevelError};
use crate::sound::Effect;
use crate::staging::collide2d::tile_outline;

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
}

/// Where the last step's time went, in milliseconds, by the crate doing the work.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// lore-mazegen: generating levels (only on a level change).
    pub level: f32,
    /// lore-collide2d: slide moves.
    pub movement: f32,
    /// lore-broadphase: index updates, pairs and ray queries.
    pub broadphase: f32,
    /// lore-pixel-collide: bullet–enemy pixel tests.
    pub pixels: f32,
    /// Everything else (intents, pairs bookkeeping, pickups).
    pub game: f32,
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

/// An enemy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Enemy {
    /// Centre.
    pub pos: Vec2,
    /// Heading (unit) while wandering or chasing.
    pub dir: Vec2,
    /// Chaser (true) or wanderer.
    pub chaser: bool,
    /// Whether it saw the player at its last look.
    pub sees_player: bool,
    push: Vec2,
    motion: Vec2,
    proxy: ProxyId,
}

/// A bullet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bullet {
    /// Centre.
    pub pos: Vec2,
    /// Velocity in tiles per second.
    pub vel: Vec2,
    age: u32,
    proxy: ProxyId,
}

/// A key lying in the level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pickup {
    /// Door colour it opens.
    pub colour: u8,
    /// Centre.
    pub pos: Vec2,
}

#[derive(Clone, Copy, Debug)]
enum Body {
    Player,
    Enemy(Handle),
    Bullet(Handle),
}

#[derive(Clone, Copy, Debug)]
struct Face {
    id: ProxyId,
    segment: Segment,
    bounds: BoxBp,
    door: Option<u8>,
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
    wanderer_mask: Mask,
    chaser_mask: Mask,
    bullet_mask: Mask,
    // Per-step scratch, kept to reuse its memory.
    moving_pairs: Vec<(ProxyId, ProxyId)>,
    mixed_pairs: Vec<(ProxyId, ProxyId)>,
    ranges: Vec<(u32, u32)>,
    segments: Vec<Segment>,
    handles: Vec<Handle>,
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
            wanderer_mask: disk_mask(kinds.wanderer.radius)?,
            chaser_mask: disk_mask(kinds.chaser.radius)?,
            bullet_mask: disk_mask(kinds.bullet.radius)?,
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
            segments: Vec::new(),
            handles: Vec::new(),
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
        let (w, c, b) =
            (disk_mask(kinds.wanderer.radius)?, disk_mask(kinds.chaser.radius)?, disk_mask(kinds.bullet.radius)?);
        (self.wanderer_mask, self.chaser_mask, self.bullet_mask) = (w, c, b);
        self.kinds = kinds;
        Ok(())
    }

    /// Sets up entities and collision for `self.level`.
    fn enter_level(&mut self) -> Result<(), GameError> {
        let level = &self.level;
        let (w, h) = (level.map.width(), level.map.height());
        self.rng = Pcg32::seed_from_u64(level.config.seed ^ 0xd00d_5eed);
        self.keys_held = [false; 256];
        self.enemies = HandleArray::new();
        self.bullets = HandleArray::new();
        self.pickups = HandleArray::new();
        self.faces.clear();
        self.bodies.clear();
        self.cooldown = 0;
        self.hurt_cooldown = 0;
        // Static index: the wall outline, then each door's four faces.
        let mut statics = Tree::with_margin(0.0).map_err(setup)?;
        let walls = tile_outline(w, h, Vec2::ZERO, 1.0, |x, y| level.is_wall((x, h - 1 - y))).map_err(setup)?;
        let mut add = |statics: &mut Tree, segment: Segment, door: Option<u8>| -> Result<(), GameError> {
            let bounds = BoxBp::new(segment.a.min(segment.b), segment.a.max(segment.b)).map_err(setup)?;
            let id = statics.insert(bounds).map_err(setup)?;
            let i = id.index() as usize;
            if self.faces.len() <= i {
                self.faces.resize(i + 1, None);
            }
            self.faces[i] = Some(Face { id, segment, bounds, door });
            Ok(())
        };
        for s in walls {
            add(&mut statics, s, None)?;
        }
        for &(colour, (x, y)) in &level.doors {
            let corner = vec2(x as f32, (h - 1 - y) as f32);
            for s in tile_outline(1, 1, corner, 1.0, |_, _| true).map_err(setup)? {
                add(&mut statics, s, Some(colour))?;
            }
        }
        statics.rebuild();
        let movers = Grid::new(vec2(-1.0, -1.0), 1.0, w + 2, h + 2).map_err(setup)?;
        self.world = World::new(statics, movers);
        // Player and keys.
        self.player = level.map.tile_center(level.start);
        self.player_motion = Vec2::ZERO;
        self.player_proxy = self.insert_mover(self.player, self.kinds.player.radius, Body::Player)?;
        for &(colour, tile) in &self.level.keys {
            self.pickups.insert(Pickup { colour, pos: self.level.map.tile_center(tile) });
        }
        // Enemies on floor tiles away from the start.
        let start = self.level.map.tile_center(self.level.start);
        let floor: Vec<TilePos> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| self.level.map.tile(x, y) == Some(Tile::Floor))
            .filter(|&t| self.level.map.tile_center(t).distance(start) > 4.0)
            .collect();
        if !floor.is_empty() {
            for (kind, chaser) in [(self.kinds.wanderer.clone(), false), (self.kinds.chaser.clone(), true)] {
                for _ in 0..kind.count {
                    let tile = floor[self.rng.random_range(0..floor.len())];
                    let room = (0.5 - kind.radius - 0.02).max(0.0);
                    let offset = vec2(self.rng.random_range(-room..=room), self.rng.random_range(-room..=room));
                    let pos = self.level.map.tile_center(tile) + offset;
                    let dir = Vec2::from_angle(self.rng.random_range(0.0..std::f32::consts::TAU));
                    let proxy = self.insert_mover(pos, kind.radius, Body::Player)?;
                    let handle = self.enemies.insert(Enemy {
                        pos,
                        dir,
                        chaser,
                        sees_player: false,
                        push: Vec2::ZERO,
                        motion: Vec2::ZERO,
                        proxy,
                    });
                    self.bodies[proxy.index() as usize] = Some(Body::Enemy(handle));
                }
            }
        }
        Ok(())
    }

    fn insert_mover(&mut self, pos: Vec2, radius: f32, body: Body) -> Result<ProxyId, GameError> {
        let id = self.world.movers_mut().insert(disk_box(pos, radius, Vec2::ZERO)).map_err(setup)?;
        let i = id.index() as usize;
        if self.bodies.len() <= i {
            self.bodies.resize(i + 1, None);
        }
        self.bodies[i] = Some(body);
        Ok(id)
    }

    fn remove_mover(&mut self, id: ProxyId) {
        if self.world.movers_mut().remove(id).is_ok()
            && let Some(slot) = self.bodies.get_mut(id.index() as usize)
        {
            *slot = None;
        }
    }

    /// Advances the game by one fixed step of [`DT`] seconds.
    ///
    /// # Errors
    /// [`GameError`] when the next level cannot be made (only on reaching an exit).
    pub fn step(&mut self, input: &Input) -> Result<(), GameError> {
        let mut times = FrameTimes::default();
        self.events.clear();
        let t = Instant::now();
        let controls = Controls::from_input(input);
        self.player_intent(&controls);
        times.game += ms(t);
        let t = Instant::now();
        self.enemy_intents();
        times.broadphase += ms(t); // mostly line-of-sight rays
        let t = Instant::now();
        self.broadphase()?;
        times.broadphase += ms(t);
        let t = Instant::now();
        self.movement();
        times.movement += ms(t);
        let t = Instant::now();
        let pixel_ms = self.resolve_pairs();
        times.pixels += pixel_ms;
        times.game += ms(t) - pixel_ms;
        let t = Instant::now();
        self.frame += 1;
        self.stats.frames += 1;
        let next = self.pickups_and_exit();
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

    fn player_intent(&mut self, controls: &Controls) {
        self.player_motion = controls.movement * self.kinds.player.speed * DT;
        if controls.movement != Vec2::ZERO {
            self.facing = controls.movement.normalize_or(self.facing);
        }
        self.cooldown = self.cooldown.saturating_sub(1);
        self.hurt_cooldown = self.hurt_cooldown.saturating_sub(1);
        let dir = match controls.aim {
            Some(target) => (target - self.player).try_normalize(),
            None => controls.fire_facing.then_some(self.facing),
        };
        if let Some(dir) = dir
            && self.cooldown == 0
            && self.bullets.len() < MAX_BULLETS
        {
            let pos = self.player + dir * (self.kinds.player.radius * 0.5);
            if let Ok(proxy) = self.insert_mover(pos, self.kinds.bullet.radius, Body::Player) {
                let handle = self.bullets.insert(Bullet { pos, vel: dir * self.kinds.bullet.speed, age: 0, proxy });
                self.bodies[proxy.index() as usize] = Some(Body::Bullet(handle));
                self.cooldown = self.kinds.player.fire_interval;
                self.stats.bullets_fired += 1;
                self.events.push(Effect::Shot);
            }
        }
    }

    fn enemy_intents(&mut self) {
        let player = self.player;
        let frame = self.frame;
        self.handles.clear();
        self.handles.extend(self.enemies.iter().map(|(h, _)| h));
        for i in 0..self.handles.len() {
            let h = self.handles[i];
            let Some(mut e) = self.enemies.get(h).copied() else { continue };
            let kind = if e.chaser { &self.kinds.chaser } else { &self.kinds.wanderer };
            let (speed, chase, sight) = (kind.speed, kind.chase_speed, kind.sight);
            // Chasers look every fourth step (staggered), through the tiles.
            if e.chaser && (u64::from(h.index()) + frame).is_multiple_of(4) {
                e.sees_player = e.pos.distance(player) <= sight && self.clear_line(e.pos, player);
            }
            let v = if e.sees_player && chase > 0.0 {
                e.dir = (player - e.pos).normalize_or(e.dir);
                chase
            } else {
                if self.rng.random_range(0..120u32) == 0 {
                    e.dir = Vec2::from_angle(self.rng.random_range(0.0..std::f32::consts::TAU));
                }
                speed
            };
            // An enemy is never pushed faster than it can move itself.
            let max = speed.max(chase) * DT;
            e.motion = (e.dir * v * DT + e.push).clamp_length_max(max);
            e.push = Vec2::ZERO;
            if let Some(slot) = self.enemies.get_mut(h) {
                *slot = e;
            }
        }
    }

    /// Whether the straight line from `a` to `b` crosses no solid tile face (closed doors
    /// included): a ray query against the static index.
    pub fn clear_line(&mut self, a: Vec2, b: Vec2) -> bool {
        let Ok(ray) = Ray::segment(a, b) else { return true };
        let (hit, _) = self.world.statics_mut().raycast(&ray, &mut |_| true);
        hit.is_none()
    }

    fn broadphase(&mut self) -> Result<(), GameError> {
        let movers = self.world.movers_mut();
        movers
            .update(self.player_proxy, disk_box(self.player, self.kinds.player.radius, self.player_motion))
            .map_err(setup)?;
        for (_, e) in self.enemies.iter() {
            let r = if e.chaser { self.kinds.chaser.radius } else { self.kinds.wanderer.radius };
            movers.update(e.proxy, disk_box(e.pos, r, e.motion)).map_err(setup)?;
        }
        for (_, b) in self.bullets.iter() {
            movers.update(b.proxy, disk_box(b.pos, self.kinds.bullet.radius, b.vel * DT)).map_err(setup)?;
        }
        self.world.pairs(&mut self.moving_pairs, &mut self.mixed_pairs);
        // Each mover's run of (mover, face) pairs: the list is grouped by mover id.
        self.ranges.clear();
        self.ranges.resize(self.bodies.len(), (0, 0));
        let mut start = 0;
        while start < self.mixed_pairs.len() {
            let id = self.mixed_pairs[start].0;
            let mut end = start + 1;
            while end < self.mixed_pairs.len() && self.mixed_pairs[end].0 == id {
                end += 1;
            }
            if let Some(r) = self.ranges.get_mut(id.index() as usize) {
                *r = (start as u32, end as u32);
            }
            start = end;
        }
        Ok(())
    }

    fn faces_of(&mut self, id: ProxyId) {
        self.segments.clear();
        let (a, b) = self.ranges.get(id.index() as usize).copied().unwrap_or((0, 0));
        for &(_, face) in &self.mixed_pairs[a as usize..b as usize] {
            if let Some(Some(f)) = self.faces.get(face.index() as usize) {
                self.segments.push(f.segment);
            }
        }
    }

    fn movement(&mut self) {
        let options = SlideOptions::default();
        self.faces_of(self.player_proxy);
        if let Ok(out) =
            slide_disk_swept(self.player, self.kinds.player.radius, self.player_motion, &self.segments, &options)
        {
            self.player = out.position;
        }
        self.handles.clear();
        self.handles.extend(self.enemies.iter().map(|(h, _)| h));
        for i in 0..self.handles.len() {
            let h = self.handles[i];
            let Some(e) = self.enemies.get(h).copied() else { continue };
            if e.motion == Vec2::ZERO {
                continue;
            }
            let r = if e.chaser { self.kinds.chaser.radius } else { self.kinds.wanderer.radius };
            self.faces_of(e.proxy);
            if let Ok(out) = slide_disk_swept(e.pos, r, e.motion, &self.segments, &options)
                && let Some(slot) = self.enemies.get_mut(h)
            {
                slot.pos = out.position;
                // A wanderer that meets a wall turns somewhere else.
                if out.contacts > 0 && !slot.sees_player {
                    slot.dir = Vec2::from_angle(self.rng.random_range(0.0..std::f32::consts::TAU));
                }
            }
        }
        // Bullets fly straight and stop at the first face they cross.
        self.handles.clear();
        self.handles.extend(self.bullets.iter().map(|(h, _)| h));
        for i in 0..self.handles.len() {
            let h = self.handles[i];
            let Some(b) = self.bullets.get(h).copied() else { continue };
            let motion = b.vel * DT;
            let mut stop = None;
            if let Ok(ray) = Ray::segment(b.pos, b.pos + motion) {
                let (s, e) = self.ranges.get(b.proxy.index() as usize).copied().unwrap_or((0, 0));
                for &(_, face) in &self.mixed_pairs[s as usize..e as usize] {
                    if let Some(Some(f)) = self.faces.get(face.index() as usize)
                        && let Some(t) = f.bounds.ray_entry(&ray)
                    {
                        stop = Some(stop.map_or(t, |s: f32| s.min(t)));
                    }
                }
            }
            let age = b.age + 1;
            if stop.is_some() || age >= self.kinds.bullet.lifetime {
                self.remove_mover(b.proxy);
                let _ = self.bullets.remove(h);
            } else if let Some(slot) = self.bullets.get_mut(h) {
                slot.pos += motion;
                slot.age = age;
            }
        }
    }

    /// Works through the moving pairs; returns the milliseconds spent in pixel tests.
    fn resolve_pairs(&mut self) -> f32 {
        let mut pixel_ms = 0.0;
        for i in 0..self.moving_pairs.len() {
            let (a, b) = self.moving_pairs[i];
            let body = |id: ProxyId| self.bodies.get(id.index() as usize).copied().flatten();
            match (body(a), body(b)) {
                (Some(Body::Enemy(x)), Some(Body::Enemy(y))) => self.separate(x, y),
                (Some(Body::Bullet(bullet)), Some(Body::Enemy(enemy)))
                | (Some(Body::Enemy(enemy)), Some(Body::Bullet(bullet))) => {
                    let t = Instant::now();
                    let hit = self.bullet_hits(bullet, enemy);
                    pixel_ms += ms(t);
                    if hit {
                        if let Ok(b) = self.bullets.remove(bullet) {
                            self.remove_mover(b.proxy);
                        }
                        if let Ok(e) = self.enemies.remove(enemy) {
                            self.remove_mover(e.proxy);
                            self.stats.enemies_hit += 1;
                            self.events.push(Effect::Hit);
                        }
                    }
                }
                (Some(Body::Player), Some(Body::Enemy(enemy))) | (Some(Body::Enemy(enemy)), Some(Body::Player)) => {
                    if let Some(e) = self.enemies.get(enemy) {
                        let r = self.radius(e) + self.kinds.player.radius;
                        if self.hurt_cooldown == 0 && e.pos.distance(self.player) < r {
                            self.hurt_cooldown = HURT_FRAMES;
                            self.stats.player_hurt += 1;
                            self.events.push(Effect::Hurt);
                        }
                    }
                }
                _ => {}
            }
        }
        pixel_ms
    }

    fn radius(&self, e: &Enemy) -> f32 {
        if e.chaser { self.kinds.chaser.radius } else { self.kinds.wanderer.radius }
    }

    fn separate(&mut self, x: Handle, y: Handle) {
        let (Some(a), Some(b)) = (self.enemies.get(x).copied(), self.enemies.get(y).copied()) else { return };
        let reach = self.radius(&a) + self.radius(&b);
        let d = b.pos - a.pos;
        let dist = d.length();
        if dist >= reach {
            return;
        }
        // Coincident centres part along a direction fixed by the handles (deterministic).
        let n = if dist > 1e-6 { d / dist } else { Vec2::from_angle((x.index() ^ y.index()) as f32) };
        let half = 0.5 * (reach - dist) * n;
        if let Some(e) = self.enemies.get_mut(x) {
            e.push -= half;
        }
        if let Some(e) = self.enemies.get_mut(y) {
            e.push += half;
        }
    }

    /// The pixel-perfect test of one candidate pair (lore-pixel-collide's CPU twin): each
    /// kind's disk mask is built once and moved to the pair's pixels, so a test allocates
    /// nothing (positions snap to whole collision pixels, 1/16 tile).
    fn bullet_hits(&mut self, bullet: Handle, enemy: Handle) -> bool {
        let (Some(b), Some(e)) = (self.bullets.get(bullet).copied(), self.enemies.get(enemy).copied()) else {
            return false;
        };
        let space = self.space;
        let place = |mask: &mut Mask, p: Vec2| {
            let r = mask.bounds();
            let (x, y) = space.top_left(p, r.width(), r.height());
            mask.set_position(x, y);
        };
        place(&mut self.bullet_mask, b.pos);
        let enemy_mask = if e.chaser { &mut self.chaser_mask } else { &mut self.wanderer_mask };
        place(enemy_mask, e.pos);
        enemy_mask.overlaps(&self.bullet_mask)
    }

    /// Keys and the exit; returns whether the player reached the exit.
    fn pickups_and_exit(&mut self) -> bool {
        let reach = self.kinds.player.radius + self.kinds.key.radius;
        self.handles.clear();
        self.handles.extend(self.pickups.iter().filter(|(_, p)| p.pos.distance(self.player) < reach).map(|(h, _)| h));
        for i in 0..self.handles.len() {
            if let Ok(key) = self.pickups.remove(self.handles[i]) {
                self.stats.keys += 1;
                self.events.push(Effect::Key);
                if self.level.doors.iter().any(|&(c, _)| c == key.colour) {
                    self.events.push(Effect::Door);
                }
                self.open_doors(key.colour);
            }
        }
        self.level.map.tile_at(self.player) == Some(self.level.exit)
    }

    /// Takes every door of `colour` out of the static index.
    fn open_doors(&mut self, colour: u8) {
        self.keys_held[usize::from(colour)] = true;
        for i in 0..self.faces.len() {
            if let Some(face) = self.faces[i]
                && face.door == Some(colour)
                && self.world.statics_mut().remove(face.id).is_ok()
            {
                self.faces[i] = None;
            }
        }
    }

    /// A hash of the whole simulated state (positions bit for bit, entities, counters): two
    /// runs of the same seed and input give the same hash every step.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::default();
        h.u64(self.frame);
        h.u64(u64::from(self.stats.level));
        h.vec(self.player);
        h.vec(self.facing);
        h.u64(u64::from(self.cooldown) << 32 | u64::from(self.hurt_cooldown));
        for (handle, e) in self.enemies.iter() {
            h.u64(handle.to_bits());
            h.vec(e.pos);
            h.vec(e.dir);
            h.vec(e.push);
        }
        for (handle, b) in self.bullets.iter() {
            h.u64(handle.to_bits());
            h.vec(b.pos);
            h.u64(u64::from(b.age));
        }
        for (_, p) in self.pickups.iter() {
            h.u64(u64::from(p.colour));
        }
        let s = self.stats;
        for v in [
            s.frames,
            u64::from(s.keys),
            u64::from(s.enemies_hit),
            u64::from(s.bullets_fired),
            u64::from(s.player_hurt),
        ] {
            h.u64(v);
        }
        h.0
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

    /// Where the last step's time went.
    #[must_use]
    pub fn times(&self) -> FrameTimes {
        self.times
    }
}

/// The box a disk sweeps moving by `motion`, grown by a hair so touching faces are included.
fn disk_box(pos: Vec2, radius: f32, motion: Vec2) -> BoxBp {
    let r = Vec2::splat(radius + 1e-3);
    let (lo, hi) = (pos.min(pos + motion) - r, pos.max(pos + motion) + r);
    BoxBp::new(lo, hi).unwrap_or_else(|_| BoxBp::new(Vec2::ZERO, Vec2::ZERO).expect("the zero box is valid"))
}

/// A solid disk of `radius` tiles as a collision mask at the origin.
fn disk_mask(radius: f32) -> Result<Mask, GameError> {
    let sprite = Sprite::disk(radius * PIXELS_PER_TILE).map_err(setup)?;
    Ok(Mask::from_sprite(&sprite, 0, 0))
}

fn ms(t: Instant) -> f32 {
    t.elapsed().as_secs_f32() * 1e3
}

/// FNV-1a over 64-bit words.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn vec(&mut self, v: Vec2) {
        self.u64(u64::from(v.x.to_bits()) << 32 | u64::from(v.y.to_bits()));
    }
}
