//! Bullet–enemy pixel tests: the candidate pairs of a step, decided by lore-pixel-collide's
//! GPU path (one [`QueryBatch`] of pair queries, one submission, one read-back) when a GPU is
//! present, and always by the CPU twin ([`Mask::overlaps`]), which is the fallback and the
//! check: every GPU answer is compared with the twin's and the agreement is counted.

use lore_pixel_collide::{GpuCollider, Id, Mask, PixelSpace, Pose, QueryBatch, Sprite};
use lore_render::gpu::{Gpu, GpuError};

use super::{GameError, PIXELS_PER_TILE, setup};
use crate::kinds::Kinds;

/// A solid disk of `radius` tiles as a collision sprite.
pub(super) fn disk_sprite(radius: f32) -> Result<Sprite, GameError> {
    Sprite::disk(radius * PIXELS_PER_TILE).map_err(setup)
}

/// The three collision shapes of a step's pixel tests, as CPU masks at the origin.
#[derive(Debug)]
pub(super) struct Masks {
    pub(super) wanderer: Mask,
    pub(super) chaser: Mask,
    pub(super) bullet: Mask,
}

impl Masks {
    pub(super) fn new(kinds: &Kinds) -> Result<Self, GameError> {
        let mask = |r: f32| disk_sprite(r).map(|s| Mask::from_sprite(&s, 0, 0));
        Ok(Self {
            wanderer: mask(kinds.wanderer.radius)?,
            chaser: mask(kinds.chaser.radius)?,
            bullet: mask(kinds.bullet.radius)?,
        })
    }

    /// The CPU twin's answer: does the bullet centred at `bullet` share a pixel with the enemy
    /// (a chaser or not) centred at `enemy`? Positions snap to whole collision pixels.
    pub(super) fn overlaps(&mut self, space: &PixelSpace, bullet: glam::Vec2, enemy: glam::Vec2, chaser: bool) -> bool {
        place(&mut self.bullet, space, bullet);
        let e = if chaser { &mut self.chaser } else { &mut self.wanderer };
        place(e, space, enemy);
        e.overlaps(&self.bullet)
    }

    /// Where the mask of a chaser or wanderer (or the bullet) goes for a centre: its pose.
    fn pose(&self, space: &PixelSpace, p: glam::Vec2, which: Shape) -> Pose {
        let r = match which {
            Shape::Wanderer => self.wanderer.bounds(),
            Shape::Chaser => self.chaser.bounds(),
            Shape::Bullet => self.bullet.bounds(),
        };
        let (w, h) = (r.width(), r.height());
        let (x, y) = space.top_left(p, w, h);
        Pose::top_left(x, y, w, h)
    }
}

fn place(mask: &mut Mask, space: &PixelSpace, p: glam::Vec2) {
    let r = mask.bounds();
    let (x, y) = space.top_left(p, r.width(), r.height());
    mask.set_position(x, y);
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Wanderer,
    Chaser,
    Bullet,
}

/// One candidate pair to decide: the bullet's centre, the enemy's centre and kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Candidate {
    pub(super) bullet: glam::Vec2,
    pub(super) enemy: glam::Vec2,
    pub(super) chaser: bool,
}

/// Pixel tests on a GPU: lore-pixel-collide's batch path on a device of its own
/// (lore-render's adapter choice: a hardware adapter first, then Mesa's lavapipe).
pub struct GpuPixels {
    gpu: Gpu,
    collider: GpuCollider,
    batch: QueryBatch,
    /// Sprites in `batch`: wanderer, chaser, bullet.
    sprites: [Id; 3],
    /// The radii those sprites were made for.
    radii: [f32; 3],
    queries: Vec<Id>,
}

impl std::fmt::Debug for GpuPixels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuPixels").field("adapter", &self.gpu.describe()).finish_non_exhaustive()
    }
}

impl GpuPixels {
    /// Opens a device on lore-render's choice of adapter.
    ///
    /// # Errors
    /// [`GpuError`] when no adapter or device can be had (on a machine without a GPU, Debian's
    /// `mesa-vulkan-drivers` provides lavapipe).
    pub fn new() -> Result<Self, GpuError> {
        Ok(Self::on(Gpu::headless()?))
    }

    /// Uses `gpu`'s device.
    #[must_use]
    pub fn on(gpu: Gpu) -> Self {
        let collider = GpuCollider::new(&gpu.device);
        Self { gpu, collider, batch: QueryBatch::new(), sprites: [Id(0); 3], radii: [f32::NAN; 3], queries: Vec::new() }
    }

    /// The adapter in words.
    #[must_use]
    pub fn describe(&self) -> String {
        self.gpu.describe()
    }

    /// Decides every candidate on the GPU into `out` (one answer per candidate, in order).
    pub(super) fn decide(
        &mut self,
        kinds: &Kinds,
        masks: &Masks,
        space: &PixelSpace,
        candidates: &[Candidate],
        out: &mut impl Extend<bool>,
    ) -> Result<(), String> {
        let radii = [kinds.wanderer.radius, kinds.chaser.radius, kinds.bullet.radius];
        if radii != self.radii {
            self.batch = QueryBatch::new();
            for (i, r) in radii.into_iter().enumerate() {
                let sprite = disk_sprite(r).map_err(|e| e.to_string())?;
                self.sprites[i] = self.batch.add_sprite(&sprite);
            }
            self.radii = radii;
        }
        self.batch.clear_objects();
        self.queries.clear();
        for c in candidates {
            let which = if c.chaser { Shape::Chaser } else { Shape::Wanderer };
            let sprite = if c.chaser { self.sprites[1] } else { self.sprites[0] };
            let e = self.batch.add_object(sprite, masks.pose(space, c.enemy, which)).map_err(|e| e.to_string())?;
            let b = self
                .batch
                .add_object(self.sprites[2], masks.pose(space, c.bullet, Shape::Bullet))
                .map_err(|e| e.to_string())?;
            self.queries.push(self.batch.pair(b, e).map_err(|e| e.to_string())?);
        }
        let results = self.collider.run(&self.gpu.device, &self.gpu.queue, &self.batch).map_err(|e| e.to_string())?;
        out.extend(self.queries.iter().map(|&q| results.overlaps(q)));
        Ok(())
    }
}
