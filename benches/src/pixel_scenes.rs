//! The pixel-collide bench's sprites and poses, shared by the criterion bench
//! (`benches/pixel_collide.rs`) and the batch driver (`src/bin/pixel_collide_batch.rs`), so both
//! measure exactly the same pairs.

use lore_pixel_collide::glam::Vec2;
use lore_pixel_collide::{Pose, Sprite};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

/// A `side`×`side` blob with a wobbly rim and a hole off centre.
///
/// # Panics
/// If `side` is 0 or above the largest sprite side.
#[must_use]
pub fn blob(side: u32, seed: u32) -> Sprite {
    let k = (seed % 5) as f32 + 3.0;
    Sprite::from_fn(side, side, |x, y| {
        let p = Vec2::new((x as f32 + 0.5) / side as f32 - 0.5, (y as f32 + 0.5) / side as f32 - 0.5) * 2.0;
        let r = 0.8 + 0.15 * (k * p.y.atan2(p.x)).sin();
        p.length() < r && (p - Vec2::new(0.3, 0.1)).length() > 0.2
    })
    .expect("a valid sprite side")
}

/// `n` random poses of 64×64 sprites in a 256×256 field (about half the consecutive pairs'
/// rectangles meet); `posed` adds a random rotation and a scale in 0.7..1.3.
#[must_use]
pub fn poses(n: usize, posed: bool) -> Vec<Pose> {
    let mut rng = Pcg32::seed_from_u64(7);
    (0..n)
        .map(|_| {
            let p = Pose::at(Vec2::new(rng.random_range(32.0..160.0), rng.random_range(32.0..160.0)));
            if posed {
                p.rotated(rng.random_range(0.0..std::f32::consts::TAU)).scaled(Vec2::splat(rng.random_range(0.7..1.3)))
            } else {
                p
            }
        })
        .collect()
}
