//! Shared helpers for lore's criterion benches: seeded random data so every bench (ours and
//! the peers') runs on exactly the same input.

use rand::SeedableRng;

pub mod broadphase_scene;
pub mod heap_ops;
pub mod pixel_scenes;
pub mod reflect_types;

/// A portable seeded generator: the same seed gives the same data on every machine.
#[must_use]
pub fn rng(seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::seed_from_u64(seed)
}
