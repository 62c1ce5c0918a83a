//! Shot–enemy pixel tests through lore-pixel-collide's disk pairs: the CPU twin
//! ([`DiskPairs`]) always, and the GPU ([`GpuDiskPairs`], one batch per step) when present,
//! every GPU answer checked against the twin's.

use lore_pixel_collide::{DiskAt, DiskPairs, GpuDiskPairs, PixelSpace};
use lore_render::gpu::{Gpu, GpuError};

use super::{GameError, PIXELS_PER_TILE, setup};
use crate::kinds::Kinds;

/// Shape indices of the disk pairs: walker, guard, shot.
pub(super) const WALKER: usize = 0;
pub(super) const GUARD: usize = 1;
pub(super) const SHOT: usize = 2;

/// The CPU twin for `kinds`' radii.
pub(super) fn disks(kinds: &Kinds) -> Result<DiskPairs, GameError> {
    let space = PixelSpace::new(PIXELS_PER_TILE).map_err(setup)?;
    DiskPairs::new(space, &[kinds.walker.radius, kinds.guard.radius, kinds.shot.radius]).map_err(setup)
}

/// Pixel tests on a GPU: lore-pixel-collide's batch path on a device of its own (lore-render's
/// adapter choice: a hardware adapter first, then Mesa's lavapipe).
pub struct GpuPixels {
    gpu: Gpu,
    pairs: GpuDiskPairs,
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
    /// [`GpuError`] when no adapter or device can be had.
    pub fn new() -> Result<Self, GpuError> {
        Ok(Self::on(Gpu::headless()?))
    }

    /// Uses `gpu`'s device.
    #[must_use]
    pub fn on(gpu: Gpu) -> Self {
        let pairs = GpuDiskPairs::new(&gpu.device);
        Self { gpu, pairs }
    }

    /// The adapter in words.
    #[must_use]
    pub fn describe(&self) -> String {
        self.gpu.describe()
    }

    pub(super) fn decide(
        &mut self,
        disks: &DiskPairs,
        pairs: &[(DiskAt, DiskAt)],
        out: &mut impl Extend<bool>,
    ) -> Result<(), String> {
        self.pairs.decide(&self.gpu.device, &self.gpu.queue, disks, pairs, out).map_err(|e| e.to_string())
    }
}
