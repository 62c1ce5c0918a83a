//! The bodies of the game (the player, enemies, shots, keys) and how a level fills the world
//! with them: the tile faces in the static tree, movers in the moving grid, enemies on the
//! floors they patrol.

use glam::{Vec2, vec2};
use lore_allocators::{Handle, HandleArray};
use lore_broadphase::{Aabb, Grid, ProxyId, SpatialIndex, Tree, World};
use lore_mazegen::LevelTile;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

use super::solids::{self, LiftBody};
use super::{Game, GameError, setup};

/// Shots the lists are sized for at the start of a level.
const SHOTS_RESERVED: usize = 128;

/// Side of the moving grid's cells, tiles.
const MOVER_CELL: f32 = 8.0;

/// The player's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Centre of the body.
    pub pos: Vec2,
    /// Vertical speed, tiles per second (up positive).
    pub vy: f32,
    /// Facing: -1 left, 1 right.
    pub facing: f32,
    /// Standing on something after the last step.
    pub grounded: bool,
    /// On a ladder.
    pub climbing: bool,
    /// A capsule body rather than a box.
    pub capsule: bool,
    pub(super) air_frames: u32,
    pub(super) dropping: u8,
    pub(super) jump_held: bool,
    pub(super) cooldown: u32,
    pub(super) hurt_cooldown: u32,
    pub(super) motion: Vec2,
    pub(super) proxy: ProxyId,
}

/// An enemy patrolling a floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Enemy {
    /// Centre.
    pub pos: Vec2,
    /// Heading: -1 left, 1 right.
    pub dir: f32,
    /// A guard (chases what it sees) rather than a walker.
    pub guard: bool,
    /// Whether it saw the player at its last look.
    pub sees_player: bool,
    /// Leftmost and rightmost centre of its patrol.
    pub span: (f32, f32),
    pub(super) motion: Vec2,
    pub(super) proxy: ProxyId,
}

/// A shot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
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
    /// Its tile.
    pub tile: (u32, u32),
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Body {
    Player,
    Enemy(Handle),
    Shot(Handle),
}

/// The box of a body of half extents `half` at `pos` swept by `motion`, grown by a hair.
pub(super) fn swept_box(pos: Vec2, half: Vec2, motion: Vec2) -> Aabb {
    let r = half + Vec2::splat(1e-3);
    Aabb::covering(pos.min(pos + motion) - r, pos.max(pos + motion) + r)
}

impl Game {
    /// Sets up entities and collision for `self.level`.
    pub(super) fn enter_level(&mut self) -> Result<(), GameError> {
        let (w, h) = (self.level.width(), self.level.height());
        self.rng = Pcg32::seed_from_u64(self.level.config.seed ^ 0x5eed_51de);
        self.keys_held = [false; 256];
        let enemies = (self.kinds.walker.count + self.kinds.guard.count) as usize;
        self.enemies = HandleArray::with_capacity(enemies);
        // Room for what a level usually has in flight, so steps do not grow these lists.
        self.shots = HandleArray::with_capacity(SHOTS_RESERVED);
        self.pickups = HandleArray::new();
        self.bodies.clear();
        self.bodies.reserve(enemies + SHOTS_RESERVED + 1);
        self.found.reserve(256);
        self.moving_pairs.reserve(4 * SHOTS_RESERVED);
        self.events.reserve(32);
        let mut statics = Tree::with_margin(0.0).map_err(setup)?;
        solids::build(&self.level, &mut statics, &mut self.faces)?;
        // A query over the whole level grows the tree's and our found lists to every face, so
        // the controller's and the shots' queries never grow them.
        let all = Aabb::covering(vec2(-1.0, -1.0), vec2(w as f32 + 1.0, h as f32 + 1.0));
        statics.query_aabb(&all, &mut self.found);
        let movers = Grid::new(vec2(-1.0, -1.0), MOVER_CELL, w / MOVER_CELL as u32 + 2, h / MOVER_CELL as u32 + 2)
            .map_err(setup)?;
        self.world = World::new(statics, movers);
        self.grow_mover_lists(2 * (enemies + SHOTS_RESERVED))?;
        self.lifts.clear();
        for &lift in &self.level.side.lifts {
            self.lifts.push(LiftBody::at(lift, h, 0, lore_render::demo::DT));
        }
        // The player stands on the start tile's floor.
        let half = self.level.side.movement.size / 2.0;
        let (lo, _) = self.level.tile_box(self.level.side.start);
        let pos = vec2(lo.x + 0.5, lo.y + half.y + 1e-3);
        let capsule = self.player.capsule;
        self.player = Player {
            pos,
            vy: 0.0,
            facing: 1.0,
            grounded: true,
            climbing: false,
            capsule,
            air_frames: 0,
            dropping: 0,
            jump_held: false,
            cooldown: 0,
            hurt_cooldown: 0,
            motion: Vec2::ZERO,
            proxy: ProxyId::from_bits(0),
        };
        self.player.proxy = self.insert_mover(swept_box(pos, half, Vec2::ZERO), Body::Player)?;
        for &(colour, tile) in &self.level.side.keys {
            self.pickups.insert(Pickup { colour, tile });
        }
        // Enemies on floor runs away from the start.
        let runs = self.floor_runs(pos);
        if !runs.is_empty() {
            for (kind, guard) in [(self.kinds.walker.clone(), false), (self.kinds.guard.clone(), true)] {
                for _ in 0..kind.count {
                    let (x0, x1, floor) = runs[self.rng.random_range(0..runs.len())];
                    let span = (x0 + kind.radius, x1 - kind.radius);
                    let x = if span.1 > span.0 { self.rng.random_range(span.0..=span.1) } else { span.0 };
                    let dir = if self.rng.random_range(0..2u32) == 0 { -1.0 } else { 1.0 };
                    let e_pos = vec2(x, floor + kind.radius);
                    let proxy =
                        self.insert_mover(swept_box(e_pos, Vec2::splat(kind.radius), Vec2::ZERO), Body::Player)?;
                    let handle = self.enemies.insert(Enemy {
                        pos: e_pos,
                        dir,
                        guard,
                        sees_player: false,
                        span,
                        motion: Vec2::ZERO,
                        proxy,
                    });
                    self.bodies[proxy.index() as usize] = Some(Body::Enemy(handle));
                }
            }
        }
        Ok(())
    }

    /// Stretches of floor at least 3 tiles long, more than 8 tiles from `start`: `(left, right,
    /// floor height)` in world units.
    fn floor_runs(&self, start: Vec2) -> Vec<(f32, f32, f32)> {
        let level = &self.level;
        let (w, h) = (i64::from(level.width()), i64::from(level.height()));
        let open = |x: i64, y: i64| matches!(level.tile(x, y), Some(LevelTile::Empty | LevelTile::Ladder));
        let floor = |x: i64, y: i64| matches!(level.tile(x, y + 1), Some(LevelTile::Solid | LevelTile::OneWay));
        let mut runs = Vec::new();
        for y in 1..h - 1 {
            let mut x = 0;
            while x < w {
                if !(open(x, y) && floor(x, y)) {
                    x += 1;
                    continue;
                }
                let x0 = x;
                while x < w && open(x, y) && floor(x, y) {
                    x += 1;
                }
                let fy = (h - y - 1) as f32;
                let (left, right) = (x0 as f32, x as f32);
                let near = start.distance(vec2(left.max(start.x.min(right)), fy)) < 8.0;
                if x - x0 >= 3 && !near {
                    runs.push((left, right, fy));
                }
            }
        }
        runs
    }

    /// Grows the moving grid's cell lists once, at the start of a level, to what `count`
    /// movers straddling cell corners and then all moving to other cells need: the grid keeps
    /// its lists' memory, so the steps of the level do not grow them (lore-broadphase's patched
    /// lists otherwise grow, rarely, whenever the entries reach a new high).
    fn grow_mover_lists(&mut self, count: usize) -> Result<(), GameError> {
        let (w, h) = (self.level.width() as f32, self.level.height() as f32);
        // Boxes on every cell corner (so every cell's list is made), then `count` more spread
        // over the level, moved across cells three times.
        let mut boxes = Vec::new();
        let mut y = -1.0;
        while y <= h + 1.0 {
            let mut x = -1.0;
            while x <= w + 1.0 {
                boxes.push(vec2(x, y));
                x += MOVER_CELL;
            }
            y += MOVER_CELL;
        }
        let corners = boxes.len();
        boxes.extend((0..count).map(|i| vec2((i as f32 * 7.3) % w, (i as f32 * 3.1) % h)));
        let at = |p: Vec2| Aabb::covering(p - Vec2::splat(0.6), p + Vec2::splat(0.6));
        let mut ids = Vec::with_capacity(boxes.len());
        for &p in &boxes {
            ids.push(self.world.movers_mut().insert(at(p)).map_err(setup)?);
        }
        self.world.movers_mut().pairs(&mut self.moving_pairs);
        for shift in [0.5, 1.5, 2.5] {
            for (i, &id) in ids.iter().enumerate().skip(corners) {
                self.world.movers_mut().update(id, at(boxes[i] + Vec2::splat(shift * MOVER_CELL))).map_err(setup)?;
            }
            self.world.movers_mut().pairs(&mut self.moving_pairs);
        }
        for id in ids {
            self.world.movers_mut().remove(id).map_err(setup)?;
        }
        self.world.movers_mut().pairs(&mut self.moving_pairs);
        Ok(())
    }

    pub(super) fn insert_mover(&mut self, bounds: Aabb, body: Body) -> Result<ProxyId, GameError> {
        let id = self.world.movers_mut().insert(bounds).map_err(setup)?;
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
