//! Per-frame bookkeeping: where the time went, and the state hash that proves determinism.

use lore_render::time::Instant; // std's panics in a browser

use glam::Vec2;
use lore_allocators::Stack;

use super::Game;

/// A list in the frame's scratch [`Stack`]: its memory is handed out by bumping a pointer and
/// taken back all at once when the stack is reset at the start of the next step.
pub(super) type ScratchVec<'a, T> = allocator_api2::vec::Vec<T, &'a Stack>;

/// Bytes of each block of the frame's scratch stack (it chains more when a step needs them and
/// keeps them).
pub(super) const SCRATCH_BLOCK: usize = 64 * 1024;

/// Where the last step's time went, in milliseconds, by the crate doing the work.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// lore-mazegen: generating levels and their routes (only on a level change).
    pub level: f32,
    /// lore-collide2d: the character controller's move.
    pub controller: f32,
    /// lore-broadphase: index updates and pairs.
    pub broadphase: f32,
    /// lore-pixel-collide: shot–enemy pixel tests.
    pub pixels: f32,
    /// Everything else (enemies patrolling, shots flying, pickups, bookkeeping).
    pub game: f32,
}

pub(super) fn ms(t: Instant) -> f32 {
    t.elapsed().as_secs_f32() * 1e3
}

/// FNV-1a over 64-bit words.
struct Fnv(u64);

impl Fnv {
    fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn f32(&mut self, v: f32) {
        self.u64(u64::from(v.to_bits()));
    }
    fn vec(&mut self, v: Vec2) {
        self.u64(u64::from(v.x.to_bits()) << 32 | u64::from(v.y.to_bits()));
    }
}

impl Game {
    /// A hash of the whole simulated state (positions bit for bit, entities, counters): two
    /// runs of the same seed and inputs give the same hash every step.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.u64(self.frame);
        h.u64(u64::from(self.stats.level));
        let p = &self.player;
        h.vec(p.pos);
        h.f32(p.vy);
        h.f32(p.facing);
        h.u64(u64::from(p.grounded) | u64::from(p.climbing) << 1 | u64::from(p.capsule) << 2);
        h.u64(u64::from(p.air_frames) << 32 | u64::from(p.dropping));
        h.u64(u64::from(p.cooldown) << 32 | u64::from(p.hurt_cooldown));
        for (handle, e) in self.enemies.iter() {
            h.u64(handle.to_bits());
            h.vec(e.pos);
            h.f32(e.dir);
        }
        for (handle, s) in self.shots.iter() {
            h.u64(handle.to_bits());
            h.vec(s.pos);
            h.u64(u64::from(s.age));
        }
        for (_, k) in self.pickups.iter() {
            h.u64(u64::from(k.colour));
        }
        for (i, &held) in self.keys_held.iter().enumerate() {
            if held {
                h.u64(i as u64);
            }
        }
        let s = self.stats;
        for v in [s.frames, u64::from(s.keys), u64::from(s.enemies_hit), u64::from(s.shots_fired), u64::from(s.jumps)] {
            h.u64(v);
        }
        h.u64(u64::from(s.player_hurt));
        h.0
    }
}
