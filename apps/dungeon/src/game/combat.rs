//! The pairs of a step: the broadphase world's pairs, enemy–enemy separation, bullet–enemy
//! pixel tests (lore-pixel-collide), enemies hurting the player; then keys and doors.

use lore_render::time::Instant; // std's panics in a browser

use glam::Vec2;
use lore_allocators::Handle;
use lore_allocators::Stack;
use lore_broadphase::{ProxyId, SpatialIndex};
use lore_render::demo::DT;

use super::entities::{Body, Enemy, disk_box};
use super::frame::{ScratchVec, ms};
use super::pixels::Candidate;
use super::{Game, GameError, HURT_FRAMES, setup};
use crate::sound::Effect;

impl Game {
    pub(super) fn broadphase(&mut self) -> Result<(), GameError> {
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

    /// Works through the moving pairs; returns the milliseconds spent in pixel tests.
    ///
    /// The bullet–enemy pairs are decided first, all at once (one GPU batch when a GPU is
    /// present, the CPU twin always, as the fallback and the check), then every pair is applied
    /// in pair order: a bullet or enemy already gone by then is skipped.
    pub(super) fn resolve_pairs(&mut self, scratch: &Stack) -> f32 {
        let t = Instant::now();
        let n = self.moving_pairs.len();
        let mut candidates = ScratchVec::with_capacity_in(n, scratch);
        let mut handles = ScratchVec::with_capacity_in(n, scratch);
        for &(a, b) in &self.moving_pairs {
            if let Some((bullet, enemy)) = self.bullet_enemy(a, b)
                && let (Some(bb), Some(e)) = (self.bullets.get(bullet), self.enemies.get(enemy))
            {
                candidates.push(Candidate { bullet: bb.pos, enemy: e.pos, chaser: e.chaser });
                handles.push((bullet, enemy));
            }
        }
        let mut cpu = ScratchVec::with_capacity_in(candidates.len(), scratch);
        for c in &candidates {
            cpu.push(self.masks.overlaps(&self.space, c.bullet, c.enemy, c.chaser));
        }
        let mut gpu_answers = ScratchVec::with_capacity_in(candidates.len(), scratch);
        let mut gpu_decided = false;
        if let Some(gpu) = self.gpu.as_mut()
            && !candidates.is_empty()
        {
            match gpu.decide(&self.kinds, &self.masks, &self.space, &candidates, &mut gpu_answers) {
                Ok(()) if gpu_answers.len() == cpu.len() => {
                    let agree = cpu.iter().zip(gpu_answers.iter()).filter(|(c, g)| c == g).count() as u64;
                    self.stats.gpu_pairs += cpu.len() as u64;
                    self.stats.gpu_agree += agree;
                    gpu_decided = true;
                }
                Ok(()) => self.gpu_error = Some("the GPU answered a different number of queries".to_owned()),
                Err(e) => self.gpu_error = Some(e),
            }
        }
        self.stats.pixel_pairs += cpu.len() as u64;
        let decided: &[bool] = if gpu_decided { &gpu_answers } else { &cpu };
        let pixel_ms = ms(t);
        let mut next = 0;
        for i in 0..n {
            let (a, b) = self.moving_pairs[i];
            let body = |id: ProxyId| self.bodies.get(id.index() as usize).copied().flatten();
            match (body(a), body(b)) {
                (Some(Body::Enemy(x)), Some(Body::Enemy(y))) => self.separate(x, y),
                (Some(Body::Bullet(bullet)), Some(Body::Enemy(enemy)))
                | (Some(Body::Enemy(enemy)), Some(Body::Bullet(bullet))) => {
                    // The candidates were taken in this order; a pair whose bodies were gone
                    // before the step's pairs began has none.
                    if handles.get(next) != Some(&(bullet, enemy)) {
                        continue;
                    }
                    let hit = decided[next];
                    next += 1;
                    if hit && self.bullets.get(bullet).is_some() && self.enemies.get(enemy).is_some() {
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

    /// The (bullet, enemy) of a moving pair, in either order.
    fn bullet_enemy(&self, a: ProxyId, b: ProxyId) -> Option<(Handle, Handle)> {
        let body = |id: ProxyId| self.bodies.get(id.index() as usize).copied().flatten();
        match (body(a), body(b)) {
            (Some(Body::Bullet(bullet)), Some(Body::Enemy(enemy)))
            | (Some(Body::Enemy(enemy)), Some(Body::Bullet(bullet))) => Some((bullet, enemy)),
            _ => None,
        }
    }

    pub(super) fn radius(&self, e: &Enemy) -> f32 {
        if e.chaser { self.kinds.chaser.radius } else { self.kinds.wanderer.radius }
    }

    pub(super) fn separate(&mut self, x: Handle, y: Handle) {
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

    /// Keys and the exit; returns whether the player reached the exit.
    pub(super) fn pickups_and_exit(&mut self, scratch: &Stack) -> bool {
        let reach = self.kinds.player.radius + self.kinds.key.radius;
        let mut near = ScratchVec::new_in(scratch);
        near.extend(self.pickups.iter().filter(|(_, p)| p.pos.distance(self.player) < reach).map(|(h, _)| h));
        for &h in near.iter() {
            if let Ok(key) = self.pickups.remove(h) {
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
    pub(super) fn open_doors(&mut self, colour: u8) {
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
}
