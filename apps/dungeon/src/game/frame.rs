//! Per-frame bookkeeping: where the time went, and the state hash that proves determinism.

use lore_render::time::Instant; // std's panics in a browser

use glam::Vec2;
use lore_allocators::Stack;

use super::Game;

/// A list in the frame's scratch [`Stack`]: its memory is handed out by bumping a pointer and
/// taken back all at once when the stack is reset at the start of the next step, so the step's
/// candidate lists and handle lists cost no heap allocation once the stack's blocks have grown
/// to the game's size.
pub(super) type ScratchVec<'a, T> = allocator_api2::vec::Vec<T, &'a Stack>;

/// Bytes of each block of the frame's scratch stack (it chains more when a step needs them and
/// keeps them).
pub(super) const SCRATCH_BLOCK: usize = 256 * 1024;

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

pub(super) fn ms(t: Instant) -> f32 {
    t.elapsed().as_secs_f32() * 1e3
}

/// FNV-1a over 64-bit words.
pub(super) struct Fnv(pub(super) u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub(super) fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub(super) fn vec(&mut self, v: Vec2) {
        self.u64(u64::from(v.x.to_bits()) << 32 | u64::from(v.y.to_bits()));
    }
}

impl Game {
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
}
