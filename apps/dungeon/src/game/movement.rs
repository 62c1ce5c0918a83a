//! Intents and motion: the player's move and shots from the controls, enemies wandering or
//! chasing what they see (ray queries, lore-broadphase), and the slide moves along the tile
//! faces (lore-collide2d's swept move, so nothing tunnels); bullets stop at the first face.

use glam::Vec2;
use lore_allocators::Stack;
use lore_broadphase::{ProxyId, Ray, SpatialIndex};
use lore_collide2d::{Segment, SlideOptions, slide_disk_swept};
use lore_render::demo::DT;
use rand::RngExt;

use super::entities::{Body, Bullet};
use super::frame::ScratchVec;
use super::{Controls, Game, MAX_BULLETS};
use crate::sound::Effect;

impl Game {
    pub(super) fn player_intent(&mut self, controls: &Controls) {
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
            if self.spawn_bullet(pos, dir) {
                self.cooldown = self.kinds.player.fire_interval;
                self.stats.bullets_fired += 1;
                self.events.push(Effect::Shot);
            }
        }
    }

    /// Puts a bullet at `pos` flying along `dir` (unit) at the bullet kind's speed, as a shot
    /// of the player does (without the cooldown, the counters or the sound): for scripted
    /// scenes and benches. Returns false when [`MAX_BULLETS`] are already in flight or the
    /// position is not finite.
    pub fn spawn_bullet(&mut self, pos: Vec2, dir: Vec2) -> bool {
        if self.bullets.len() >= MAX_BULLETS || !pos.is_finite() || !dir.is_finite() {
            return false;
        }
        let Ok(proxy) = self.insert_mover(pos, self.kinds.bullet.radius, Body::Player) else { return false };
        let handle = self.bullets.insert(Bullet { pos, vel: dir * self.kinds.bullet.speed, age: 0, proxy });
        self.bodies[proxy.index() as usize] = Some(Body::Bullet(handle));
        true
    }

    pub(super) fn enemy_intents(&mut self, scratch: &Stack) {
        let player = self.player;
        let frame = self.frame;
        let mut handles = ScratchVec::new_in(scratch);
        handles.extend(self.enemies.iter().map(|(h, _)| h));
        for &h in handles.iter() {
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

    /// The tile faces the broadphase paired with mover `id` this step, into `out`.
    fn faces_of(&self, id: ProxyId, out: &mut ScratchVec<'_, Segment>) {
        out.clear();
        let (a, b) = self.ranges.get(id.index() as usize).copied().unwrap_or((0, 0));
        for &(_, face) in &self.mixed_pairs[a as usize..b as usize] {
            if let Some(Some(f)) = self.faces.get(face.index() as usize) {
                out.push(f.segment);
            }
        }
    }

    pub(super) fn movement(&mut self, scratch: &Stack) {
        let options = SlideOptions::default();
        let mut segments = ScratchVec::with_capacity_in(64, scratch);
        self.faces_of(self.player_proxy, &mut segments);
        if let Ok(out) =
            slide_disk_swept(self.player, self.kinds.player.radius, self.player_motion, &segments, &options)
        {
            self.player = out.position;
        }
        let mut handles = ScratchVec::new_in(scratch);
        handles.extend(self.enemies.iter().map(|(h, _)| h));
        for &h in handles.iter() {
            let Some(e) = self.enemies.get(h).copied() else { continue };
            if e.motion == Vec2::ZERO {
                continue;
            }
            let r = if e.chaser { self.kinds.chaser.radius } else { self.kinds.wanderer.radius };
            self.faces_of(e.proxy, &mut segments);
            if let Ok(out) = slide_disk_swept(e.pos, r, e.motion, &segments, &options)
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
        let mut handles = ScratchVec::new_in(scratch);
        handles.extend(self.bullets.iter().map(|(h, _)| h));
        for &h in handles.iter() {
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
}
