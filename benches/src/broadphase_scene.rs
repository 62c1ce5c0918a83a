//! The broadphase benches' moving boxes, shared by the criterion bench
//! (benches/benches/broadphase.rs) and the `broadphase_frame_cost` driver, so that both replay
//! exactly the same scenes.

use lore_broadphase::Aabb;
use lore_broadphase::glam::{Vec2, vec2};
use rand::{RngExt as _, SeedableRng};
use rand_pcg::Pcg64;

/// Moving boxes: centres, half extents, velocities, in a square of side `side`.
#[derive(Clone, Debug)]
pub struct Scene {
    pub centers: Vec<Vec2>,
    pub halves: Vec<Vec2>,
    pub vel: Vec<Vec2>,
    pub side: f32,
}

impl Scene {
    /// `n` boxes of half extent 0.5–2.0, uniform over a square sized for about 2.8 overlaps per
    /// box, moving up to 0.05 a frame on each axis.
    #[must_use]
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Pcg64::seed_from_u64(seed);
        // Mean (2h_a + 2h_b)² over h ~ U(0.5, 2) is about 26.5, so area 9.5 n gives ~2.8
        // overlaps per box.
        let side = (9.5 * n as f32).sqrt();
        let mut centers = Vec::with_capacity(n);
        let mut halves = Vec::with_capacity(n);
        let mut vel = Vec::with_capacity(n);
        for _ in 0..n {
            centers.push(vec2(rng.random_range(0.0..side), rng.random_range(0.0..side)));
            halves.push(vec2(rng.random_range(0.5..2.0), rng.random_range(0.5..2.0)));
            vel.push(vec2(rng.random_range(-0.05..0.05), rng.random_range(-0.05..0.05)));
        }
        Self { centers, halves, vel, side }
    }

    /// The uniform scene's boxes gathered into Gaussian blobs: 20 boxes per blob on average,
    /// standard deviation 4 world units, blob centres uniform over the same square (boxes
    /// clamped into it).
    #[must_use]
    pub fn clustered(n: usize, seed: u64) -> Self {
        let mut s = Self::new(n, seed);
        let mut rng = Pcg64::seed_from_u64(seed ^ 0xb10b);
        let blobs: Vec<Vec2> =
            (0..n.div_ceil(20)).map(|_| vec2(rng.random_range(0.0..s.side), rng.random_range(0.0..s.side))).collect();
        for c in &mut s.centers {
            // Box-Muller: two uniform numbers give two independent normal ones.
            let (u, v): (f32, f32) = (rng.random_range(1e-7..1.0), rng.random_range(0.0..std::f32::consts::TAU));
            let r = 4.0 * (-2.0 * u.ln()).sqrt();
            let blob = blobs[rng.random_range(0..blobs.len())];
            *c = (blob + r * Vec2::from_angle(v)).clamp(Vec2::ZERO, Vec2::splat(s.side));
        }
        s
    }

    /// The uniform scene with one box in 200 made huge (half extents 10–40).
    #[must_use]
    pub fn mixed(n: usize, seed: u64) -> Self {
        let mut s = Self::new(n, seed);
        let mut rng = Pcg64::seed_from_u64(seed ^ 0x5123);
        for h in s.halves.iter_mut().step_by(200) {
            *h = vec2(rng.random_range(10.0..40.0), rng.random_range(10.0..40.0));
        }
        s
    }

    /// One frame of motion, bouncing off the world's sides.
    pub fn step(&mut self) {
        for (c, v) in self.centers.iter_mut().zip(&mut self.vel) {
            *c += *v;
            if c.x < 0.0 || c.x > self.side {
                v.x = -v.x;
            }
            if c.y < 0.0 || c.y > self.side {
                v.y = -v.y;
            }
        }
    }

    /// Box `i`.
    #[must_use]
    pub fn aabb(&self, i: usize) -> Aabb {
        Aabb::from_center(self.centers[i], self.halves[i]).expect("half extents are positive")
    }

    /// Whether boxes `a` and `b` overlap.
    #[must_use]
    pub fn overlap(&self, a: usize, b: usize) -> bool {
        self.aabb(a).overlaps(&self.aabb(b))
    }
}
