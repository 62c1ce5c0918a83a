//! The bodies of the game (player, enemies, bullets, keys, tile faces) and how a level fills
//! the collision world with them: walls and doors as static faces, movers in the moving grid.

use glam::{Vec2, vec2};
use lore_allocators::{Handle, HandleArray};
use lore_broadphase::{Aabb, Grid, ProxyId, SpatialIndex, Tree, World};
use lore_collide2d::{Segment, tile_outline};
use lore_mazegen::{Tile, TilePos};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

use super::{Game, GameError, setup};

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
    pub(super) push: Vec2,
    pub(super) motion: Vec2,
    pub(super) proxy: ProxyId,
}

/// A bullet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bullet {
    /// Centre.
    pub pos: Vec2,
    /// Velocity in tiles per second.
    pub vel: Vec2,
    pub(super) age: u32,
    pub(super) proxy: ProxyId,
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
pub(super) enum Body {
    Player,
    Enemy(Handle),
    Bullet(Handle),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    pub(super) id: ProxyId,
    pub(super) segment: Segment,
    pub(super) bounds: Aabb,
    pub(super) door: Option<u8>,
}

impl Game {
    /// Sets up entities and collision for `self.level`.
    pub(super) fn enter_level(&mut self) -> Result<(), GameError> {
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
            let bounds = Aabb::new(segment.a.min(segment.b), segment.a.max(segment.b)).map_err(setup)?;
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

    pub(super) fn insert_mover(&mut self, pos: Vec2, radius: f32, body: Body) -> Result<ProxyId, GameError> {
        let id = self.world.movers_mut().insert(disk_box(pos, radius, Vec2::ZERO)).map_err(setup)?;
        let i = id.index() as usize;
        if self.bodies.len() <= i {
            self.bodies.resize(i + 1, None);
        }
        self.bodies[i] = Some(body);
        Ok(id)
    }

    pub(super) fn remove_mover(&mut self, id: ProxyId) {
        if self.world.movers_mut().remove(id).is_ok()
            && let Some(slot) = self.bodies.get_mut(id.index() as usize)
        {
            *slot = None;
        }
    }
}

/// The box a disk sweeps moving by `motion`, grown by a hair so touching faces are included.
pub(super) fn disk_box(pos: Vec2, radius: f32, motion: Vec2) -> Aabb {
    let r = Vec2::splat(radius + 1e-3);
    let (lo, hi) = (pos.min(pos + motion) - r, pos.max(pos + motion) + r);
    Aabb::new(lo, hi).unwrap_or_else(|_| Aabb::new(Vec2::ZERO, Vec2::ZERO).expect("the zero box is valid"))
}
