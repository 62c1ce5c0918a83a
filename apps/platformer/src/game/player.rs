//! The player: lore-collide2d's character controller (a box or a capsule the size of the
//! level's character) moved by the controls, with the level's gravity and jump, ladders,
//! dropping through one-way platforms and riding lifts; and its shots.

use glam::{Vec2, vec2};
use lore_collide2d::{CharacterController, CharacterShape};
use lore_mazegen::LevelTile;
use lore_render::demo::DT;

use super::entities::{Body, Shot, swept_box};
use super::solids::Obstacles;
use super::{Controls, Game, MAX_SHOTS};
use crate::sound::Effect;

/// Frames a drop through a one-way platform ignores one-way obstacles.
const DROP_FRAMES: u8 = 2;

impl Game {
    /// The controller for the player's current shape.
    pub(super) fn controller(&self) -> CharacterController {
        let half = self.level.side.movement.size / 2.0;
        let shape = if self.player.capsule {
            CharacterShape::Capsule { half_height: (half.y - half.x).max(0.0), radius: half.x }
        } else {
            CharacterShape::Aabb { half_extents: half }
        };
        // The shapes are the level's character's, which lore-mazegen checked positive.
        CharacterController::with_shape(shape).unwrap_or_else(|_| {
            CharacterController::with_shape(CharacterShape::Aabb { half_extents: Vec2::splat(0.4) })
                .expect("a positive box")
        })
    }

    /// Whether the tile holding world point `p` is a ladder (an open hatch is one).
    fn ladder_at(&self, p: Vec2) -> bool {
        match self.level.tile_of(p).and_then(|(x, y)| self.level.side.tile(x, y)) {
            Some(LevelTile::Ladder) => true,
            Some(LevelTile::Hatch(c)) => self.keys_held[usize::from(c)],
            _ => false,
        }
    }

    pub(super) fn player_step(&mut self, c: &Controls) {
        let m = self.level.side.movement;
        let (g, half) = (m.gravity(), m.size / 2.0);
        let mut p = self.player;
        p.cooldown = p.cooldown.saturating_sub(1);
        p.hurt_cooldown = p.hurt_cooldown.saturating_sub(1);
        if c.run != 0.0 {
            p.facing = c.run.signum();
        }
        let feet = p.pos.y - half.y;
        let here = self.ladder_at(vec2(p.pos.x, feet + 0.05));
        let below = self.ladder_at(vec2(p.pos.x, feet - 0.05));
        if !p.climbing && ((c.climb > 0.0 && here) || (c.climb < 0.0 && p.grounded && below && !here)) {
            p.climbing = true;
            p.pos.x = p.pos.x.floor() + 0.5;
            p.vy = 0.0;
        }
        if p.climbing && c.run != 0.0 {
            // Letting go sideways: a fall from here.
            p.climbing = false;
            p.vy = 0.0;
        }
        let (velocity, drop_through) = if p.climbing {
            (vec2(0.0, c.climb * self.kinds.player.climb_speed), true)
        } else {
            if p.grounded {
                p.air_frames = 0;
            } else {
                p.air_frames = p.air_frames.saturating_add(1);
            }
            let may_jump = p.grounded || p.air_frames <= self.kinds.player.coyote_frames;
            if c.jump && !p.jump_held && may_jump && p.vy <= 0.0 {
                p.vy = m.jump_speed();
                p.grounded = false;
                p.air_frames = u32::MAX / 2;
                self.stats.jumps += 1;
                self.events.push(Effect::Jump);
            }
            let on_one_way =
                self.level.tile_of(vec2(p.pos.x, feet - 0.05)).and_then(|(x, y)| self.level.side.tile(x, y))
                    == Some(LevelTile::OneWay);
            if c.drop && p.grounded && on_one_way {
                p.dropping = DROP_FRAMES;
            }
            let dropping = p.dropping > 0;
            p.dropping = p.dropping.saturating_sub(1);
            (vec2(c.run * m.run_speed, p.vy - 0.5 * g * DT), dropping)
        };
        p.jump_held = c.jump;
        let ctl = self.controller();
        let obstacles = Obstacles {
            tree: self.world.statics_mut(),
            faces: &self.faces,
            lifts: &self.lifts,
            held: &self.keys_held,
            found: &mut self.found,
        };
        let start = p.pos;
        match ctl.move_and_slide_with(p.pos, velocity, DT, obstacles, drop_through, |_| true) {
            Ok(mv) => {
                p.pos = mv.position;
                if p.climbing {
                    let feet = p.pos.y - half.y;
                    let over_top = c.climb > 0.0 && !self.ladder_at(vec2(p.pos.x, feet + 0.05));
                    let at_bottom = c.climb < 0.0 && mv.on_floor();
                    let off =
                        !self.ladder_at(vec2(p.pos.x, feet + 0.05)) && !self.ladder_at(vec2(p.pos.x, feet - 0.05));
                    if over_top || at_bottom || off {
                        p.climbing = false;
                    }
                    p.grounded = mv.on_floor();
                    p.vy = 0.0;
                } else {
                    p.vy -= g * DT;
                    p.grounded = mv.on_floor() && p.vy <= 0.0;
                    if p.grounded {
                        p.vy = 0.0;
                    }
                    if mv.on_ceiling() && p.vy > 0.0 {
                        p.vy = 0.0;
                    }
                }
            }
            Err(_) => {
                // Only non-finite input fails, which the controls never give; stand still.
                p.vy = 0.0;
            }
        }
        p.motion = p.pos - start;
        self.player = p;
        if c.shoot && p.cooldown == 0 && self.shots.len() < MAX_SHOTS {
            let dir = vec2(p.facing, 0.0);
            let at = p.pos + vec2(p.facing * half.x, 0.1);
            if self.spawn_shot(at, dir) {
                self.player.cooldown = self.kinds.player.fire_interval;
                self.stats.shots_fired += 1;
                self.events.push(Effect::Shot);
            }
        }
    }

    /// Puts a shot at `pos` flying along `dir` (unit) at the shot kind's speed, as the player's
    /// shot does (without the cooldown, the counters or the sound): for scripted scenes and
    /// benches. Returns false when [`MAX_SHOTS`] are in flight or the input is not finite.
    pub fn spawn_shot(&mut self, pos: Vec2, dir: Vec2) -> bool {
        if self.shots.len() >= MAX_SHOTS || !pos.is_finite() || !dir.is_finite() {
            return false;
        }
        let r = Vec2::splat(self.kinds.shot.radius);
        let Ok(proxy) = self.insert_mover(swept_box(pos, r, Vec2::ZERO), Body::Player) else { return false };
        let handle = self.shots.insert(Shot { pos, vel: dir * self.kinds.shot.speed, age: 0, proxy });
        self.bodies[proxy.index() as usize] = Some(Body::Shot(handle));
        true
    }
}
