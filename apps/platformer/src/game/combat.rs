//! Enemies patrolling, shots flying, the broadphase's pairs of a step, and what they do:
//! shot–enemy pairs decided pixel-perfectly (lore-pixel-collide), enemies hurting the player,
//! shots stopping at tile faces; then keys, doors and the exit.

use lore_render::time::Instant; // std's panics in a browser

use glam::{Vec2, vec2};
use lore_allocators::{Handle, Stack};
use lore_broadphase::{ProxyId, Ray, SpatialIndex};
use lore_pixel_collide::DiskAt;
use lore_render::demo::DT;

use super::entities::{Body, swept_box};
use super::frame::{ScratchVec, ms};
use super::pixels::{GUARD, SHOT, WALKER};
use super::{Game, GameError, HURT_FRAMES, setup};
use crate::sound::Effect;

impl Game {
    /// Enemies walk their floor, turning at its ends; a guard that sees the player on its
    /// floor runs at it.
    pub(super) fn enemies_step(&mut self) {
        let player = self.player.pos;
        let half_h = self.level.side.movement.size.y / 2.0;
        for (_, e) in self.enemies.iter_mut() {
            let kind = if e.guard { &self.kinds.guard } else { &self.kinds.walker };
            let dx = player.x - e.pos.x;
            let level_with = (player.y - half_h - (e.pos.y - kind.radius)).abs() < 0.5;
            e.sees_player = kind.chase_speed > 0.0 && level_with && dx.abs() <= kind.sight;
            let speed = if e.sees_player {
                e.dir = if dx < 0.0 { -1.0 } else { 1.0 };
                kind.chase_speed
            } else {
                kind.speed
            };
            let start = e.pos.x;
            let mut x = start + e.dir * speed * DT;
            if x <= e.span.0 {
                x = e.span.0;
                e.dir = 1.0;
            } else if x >= e.span.1 {
                x = e.span.1;
                e.dir = -1.0;
            }
            e.pos.x = x;
            e.motion = vec2(x - start, 0.0);
        }
    }

    pub(super) fn broadphase(&mut self) -> Result<(), GameError> {
        let half = self.level.side.movement.size / 2.0;
        let movers = self.world.movers_mut();
        let p = &self.player;
        movers.update(p.proxy, swept_box(p.pos - p.motion, half, p.motion)).map_err(setup)?;
        for (_, e) in self.enemies.iter() {
            let r = if e.guard { self.kinds.guard.radius } else { self.kinds.walker.radius };
            movers.update(e.proxy, swept_box(e.pos - e.motion, Vec2::splat(r), e.motion)).map_err(setup)?;
        }
        for (_, s) in self.shots.iter() {
            movers.update(s.proxy, swept_box(s.pos, Vec2::splat(self.kinds.shot.radius), s.vel * DT)).map_err(setup)?;
        }
        // The moving pairs only: shots ask the static tree for the faces near them themselves
        // (a query each), so no list of every mover's faces is built.
        self.world.movers_mut().pairs(&mut self.moving_pairs);
        Ok(())
    }

    /// Shots fly straight and stop at the first active face they cross (a static tree query
    /// along the flight), or fade.
    pub(super) fn shots_step(&mut self, scratch: &Stack) {
        let mut handles = ScratchVec::new_in(scratch);
        handles.extend(self.shots.iter().map(|(h, _)| h));
        for &h in handles.iter() {
            let Some(s) = self.shots.get(h).copied() else { continue };
            let motion = s.vel * DT;
            let mut stop = false;
            if let Ok(ray) = Ray::segment(s.pos, s.pos + motion) {
                let area = swept_box(s.pos, Vec2::splat(self.kinds.shot.radius), motion);
                self.world.statics_mut().query_aabb(&area, &mut self.found);
                for &face in &self.found {
                    if let Some(Some(f)) = self.faces.get(face.index() as usize)
                        && !f.one_way
                        && f.active(&self.keys_held)
                        && f.bounds.ray_entry(&ray).is_some()
                    {
                        stop = true;
                    }
                }
            }
            let age = s.age + 1;
            if stop || age >= self.kinds.shot.lifetime {
                self.remove_mover(s.proxy);
                let _ = self.shots.remove(h);
            } else if let Some(slot) = self.shots.get_mut(h) {
                slot.pos += motion;
                slot.age = age;
            }
        }
    }

    fn body(&self, id: ProxyId) -> Option<Body> {
        self.bodies.get(id.index() as usize).copied().flatten()
    }

    /// The (shot, enemy) of a moving pair, in either order.
    fn shot_enemy(&self, a: ProxyId, b: ProxyId) -> Option<(Handle, Handle)> {
        match (self.body(a), self.body(b)) {
            (Some(Body::Shot(s)), Some(Body::Enemy(e))) | (Some(Body::Enemy(e)), Some(Body::Shot(s))) => Some((s, e)),
            _ => None,
        }
    }

    /// Works through the moving pairs; returns the milliseconds spent in pixel tests.
    ///
    /// The shot–enemy pairs are decided first, all at once (one GPU batch when a GPU is present,
    /// the CPU twin always, as the fallback and the check), then applied in pair order: a shot
    /// or enemy already gone by then is skipped.
    pub(super) fn resolve_pairs(&mut self, scratch: &Stack) -> f32 {
        let t = Instant::now();
        let n = self.moving_pairs.len();
        let mut candidates = ScratchVec::with_capacity_in(n, scratch);
        let mut handles = ScratchVec::with_capacity_in(n, scratch);
        for &(a, b) in &self.moving_pairs {
            if let Some((shot, enemy)) = self.shot_enemy(a, b)
                && let (Some(s), Some(e)) = (self.shots.get(shot), self.enemies.get(enemy))
            {
                let shape = if e.guard { GUARD } else { WALKER };
                candidates.push((DiskAt { shape: SHOT, center: s.pos }, DiskAt { shape, center: e.pos }));
                handles.push((shot, enemy));
            }
        }
        let mut cpu = ScratchVec::with_capacity_in(candidates.len(), scratch);
        for &(a, b) in candidates.iter() {
            cpu.push(self.disks.overlaps(a, b));
        }
        let mut gpu_answers = ScratchVec::with_capacity_in(candidates.len(), scratch);
        let mut gpu_decided = false;
        if let Some(gpu) = self.gpu.as_mut()
            && !candidates.is_empty()
        {
            match gpu.decide(&self.disks, &candidates, &mut gpu_answers) {
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
        let half = self.level.side.movement.size / 2.0;
        for i in 0..n {
            let (a, b) = self.moving_pairs[i];
            match (self.body(a), self.body(b)) {
                (Some(Body::Shot(shot)), Some(Body::Enemy(enemy)))
                | (Some(Body::Enemy(enemy)), Some(Body::Shot(shot))) => {
                    if handles.get(next) != Some(&(shot, enemy)) {
                        continue;
                    }
                    let hit = decided[next];
                    next += 1;
                    if hit && self.shots.get(shot).is_some() && self.enemies.get(enemy).is_some() {
                        if let Ok(s) = self.shots.remove(shot) {
                            self.remove_mover(s.proxy);
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
                        let r = if e.guard { self.kinds.guard.radius } else { self.kinds.walker.radius };
                        let d = (e.pos - self.player.pos).abs();
                        let touching = d.x < half.x + r && d.y < half.y + r;
                        if self.player.hurt_cooldown == 0 && touching {
                            self.player.hurt_cooldown = HURT_FRAMES;
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

    /// Keys the player's box touches, and the exit; returns whether it reached the exit.
    pub(super) fn pickups_and_exit(&mut self, scratch: &Stack) -> bool {
        let half = self.level.side.movement.size / 2.0 - Vec2::splat(1e-3);
        let (lo, hi) = (self.player.pos - half, self.player.pos + half);
        let touches = |(a, b): (Vec2, Vec2)| lo.x < b.x && hi.x > a.x && lo.y < b.y && hi.y > a.y;
        let mut near = ScratchVec::new_in(scratch);
        near.extend(self.pickups.iter().filter(|(_, k)| touches(self.level.tile_box(k.tile))).map(|(h, _)| h));
        for &h in near.iter() {
            if let Ok(key) = self.pickups.remove(h) {
                self.stats.keys += 1;
                self.events.push(Effect::Key);
                if !self.keys_held[usize::from(key.colour)] {
                    self.keys_held[usize::from(key.colour)] = true;
                    self.events.push(Effect::Door);
                }
            }
        }
        let all_keys = self.pickups.is_empty();
        all_keys && touches(self.level.tile_box(self.level.side.exit))
    }
}
