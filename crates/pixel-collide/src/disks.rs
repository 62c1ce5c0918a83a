//! Pixel tests between disks of a few sizes at world positions, the way a game decides its
//! bullet–enemy pairs: [`DiskPairs`] is the CPU twin (one [`Mask`] per size, placed on the
//! [`PixelSpace`] grid for each test), [`GpuDiskPairs`] (feature `gpu`) decides a whole list of
//! pairs in one [`QueryBatch`] submission with the same placements, so its answers equal the
//! twin's.
//!
//! ```
//! use lore_pixel_collide::{DiskAt, DiskPairs, PixelSpace, glam::vec2};
//! let mut disks = DiskPairs::new(PixelSpace::new(16.0)?, &[0.4, 0.1])?;
//! let enemy = DiskAt { shape: 0, center: vec2(5.0, 2.0) };
//! assert!(disks.overlaps(enemy, DiskAt { shape: 1, center: vec2(5.45, 2.0) }));
//! assert!(!disks.overlaps(enemy, DiskAt { shape: 1, center: vec2(5.6, 2.0) }));
//! # Ok::<(), lore_pixel_collide::Error>(())
//! ```

use glam::Vec2;

use crate::{Error, Mask, PixelSpace, Pose, Sprite};

/// A disk of one of the sizes of a [`DiskPairs`] (index into its radii) centred at a world
/// position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiskAt {
    /// Index of the radius.
    pub shape: usize,
    /// Centre in world units.
    pub center: Vec2,
}

/// The CPU twin of disk pair tests: two masks per radius (so a pair of the same size can be
/// tested), moved to each test's positions.
#[derive(Clone, Debug)]
pub struct DiskPairs {
    space: PixelSpace,
    radii: Vec<f32>,
    sprites: Vec<Sprite>,
    masks: Vec<[Mask; 2]>,
}

impl DiskPairs {
    /// Disks of `radii` (world units) in `space`.
    ///
    /// # Errors
    /// [`Error`] for a radius that gives no sprite (not finite, not positive, too large).
    pub fn new(space: PixelSpace, radii: &[f32]) -> Result<Self, Error> {
        let mut sprites = Vec::with_capacity(radii.len());
        let mut masks = Vec::with_capacity(radii.len());
        for &r in radii {
            let sprite = Sprite::disk(r * space.pixels_per_unit())?;
            let mask = Mask::from_sprite(&sprite, 0, 0);
            masks.push([mask.clone(), mask]);
            sprites.push(sprite);
        }
        Ok(Self { space, radii: radii.to_vec(), sprites, masks })
    }

    /// The radii, in world units.
    #[must_use]
    pub fn radii(&self) -> &[f32] {
        &self.radii
    }

    /// The pixel space.
    #[must_use]
    pub fn space(&self) -> PixelSpace {
        self.space
    }

    /// The sprite of radius `shape`.
    #[must_use]
    pub fn sprite(&self, shape: usize) -> Option<&Sprite> {
        self.sprites.get(shape)
    }

    /// Where the sprite of `disk` goes: its pose (positions snap to whole pixels); `None` for
    /// a shape index out of range.
    #[must_use]
    pub fn pose(&self, disk: DiskAt) -> Option<Pose> {
        let r = self.masks.get(disk.shape)?[0].bounds();
        let (w, h) = (r.width(), r.height());
        let (x, y) = self.space.top_left(disk.center, w, h);
        Some(Pose::top_left(x, y, w, h))
    }

    /// Whether the two disks share a pixel (false for a shape index out of range).
    pub fn overlaps(&mut self, a: DiskAt, b: DiskAt) -> bool {
        let space = self.space;
        let place = |mask: &mut Mask, p: Vec2| {
            let r = mask.bounds();
            let (x, y) = space.top_left(p, r.width(), r.height());
            mask.set_position(x, y);
        };
        if a.shape >= self.masks.len() || b.shape >= self.masks.len() {
            return false;
        }
        if a.shape == b.shape {
            let [ma, mb] = &mut self.masks[a.shape];
            place(ma, a.center);
            place(mb, b.center);
            return ma.overlaps(mb);
        }
        let (lo, hi) = (a.shape.min(b.shape), a.shape.max(b.shape));
        let (head, tail) = self.masks.split_at_mut(hi);
        let (m_lo, m_hi) = (&mut head[lo][0], &mut tail[0][0]);
        let (ma, mb) = if a.shape == lo { (m_lo, m_hi) } else { (m_hi, m_lo) };
        place(ma, a.center);
        place(mb, b.center);
        ma.overlaps(mb)
    }
}

/// Disk pair tests on a GPU: one [`QueryBatch`](crate::QueryBatch) of pair queries per call,
/// one submission, one read-back; the sprites are uploaded again only when the radii change.
#[cfg(feature = "gpu")]
#[cfg_attr(docsrs, doc(cfg(feature = "gpu")))]
#[derive(Debug)]
pub struct GpuDiskPairs {
    collider: crate::GpuCollider,
    batch: crate::QueryBatch,
    sprites: Vec<crate::Id>,
    radii: Vec<f32>,
    queries: Vec<crate::Id>,
}

#[cfg(feature = "gpu")]
impl GpuDiskPairs {
    /// The pipelines on `device`.
    #[must_use]
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            collider: crate::GpuCollider::new(device),
            batch: crate::QueryBatch::new(),
            sprites: Vec::new(),
            radii: Vec::new(),
            queries: Vec::new(),
        }
    }

    /// Decides every pair on the GPU into `out` (one answer per pair, in order), with the
    /// sprites and placements of `disks`.
    ///
    /// # Errors
    /// [`Error`] for a shape index out of range, a pose out of range or a failed GPU run.
    pub fn decide(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        disks: &DiskPairs,
        pairs: &[(DiskAt, DiskAt)],
        out: &mut impl Extend<bool>,
    ) -> Result<(), Error> {
        if disks.radii() != self.radii.as_slice() {
            self.batch = crate::QueryBatch::new();
            self.sprites.clear();
            for sprite in &disks.sprites {
                self.sprites.push(self.batch.add_sprite(sprite));
            }
            self.radii = disks.radii().to_vec();
        }
        self.batch.clear_objects();
        self.queries.clear();
        for &(a, b) in pairs {
            let mut object = |d: DiskAt| -> Result<crate::Id, Error> {
                let (Some(&sprite), Some(pose)) = (self.sprites.get(d.shape), disks.pose(d)) else {
                    return Err(Error::UnknownId { kind: "sprite", id: d.shape });
                };
                self.batch.add_object(sprite, pose)
            };
            let (ia, ib) = (object(a)?, object(b)?);
            self.queries.push(self.batch.pair(ia, ib)?);
        }
        let results = self.collider.run(device, queue, &self.batch)?;
        out.extend(self.queries.iter().map(|&q| results.overlaps(q)));
        Ok(())
    }
}
