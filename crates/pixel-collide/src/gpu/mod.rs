//! The GPU path: stencil + occlusion queries for yes/no, a compute pass for exact areas.
//!
//! Every query becomes one or more *slots*: a square of the collision target (the stencil
//! buffer, [`GpuOptions::target_size`] pixels on a side) mapped onto part of the overlap of the
//! two bounding rectangles. A slot writes the stencil objects with reference `k`, then draws the
//! tested object with stencil test `EQUAL k` inside occlusion query `k`; the scissor is the
//! slot's rectangle. Up to 255 slots share one render pass (references 1..=255, so no clear is
//! needed between them), up to 4,096 share one query set, and the whole batch is one
//! submission and one read-back.
//!
//! Exact areas, and every answer when [`GpuOptions::confirm_hits`] is on, come from a compute
//! pass instead: one job per (object, member) pair walks the overlap of their bounds and counts
//! the pixels both cover, coverage decided by the CPU twin's integer arithmetic (the fixed-point
//! texel map for sprites, the snapped edge functions and top-left rule for meshes).
//!
//! The path's modules stack one way: `batch` (the CPU-side [`QueryBatch`] and the draw
//! records it turns objects into) → `pipelines` (the [`GpuCollider`]: device setup, the
//! stencil target and the four render pipelines plus the area compute pipeline) →
//! `readback` (the [`Recorded`] / [`Pending`] / [`Results`] of one submission) →
//! `record` (planning slots and jobs, and recording them into an encoder).

mod batch;
mod pipelines;
mod readback;
mod record;

pub use batch::QueryBatch;
pub use pipelines::GpuCollider;
pub use readback::{Pending, Recorded, Results};

const SHADER: &str = include_str!("../collide.wgsl");
const SLOTS_PER_PASS: usize = 255;
const SLOTS_PER_SET: usize = wgpu::QUERY_SET_MAX_QUERIES as usize;
const JOBS_PER_DISPATCH: usize = 65_535;

/// Settings of a [`GpuCollider`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Side of the square collision target, in pixels (a power of two, 16..=4096). Overlaps
    /// larger than this are split into several slots; the answers do not depend on it.
    pub target_size: u32,
    /// Confirm hits with the exact compute path: every pair and group query is answered by the
    /// exact shared-pixel count (one compute job per candidate member, in the same submission)
    /// instead of the occlusion query, which is then not drawn at all. Needed where the occlusion
    /// query may be conservative (wgpu's GL backend uses `ANY_SAMPLES_PASSED_CONSERVATIVE`):
    /// there it could only add hits that the count would remove. The answers equal the CPU twin
    /// on every pixel, meshes' on-edge pixel centres included. [`GpuCollider::new`] turns it on
    /// for GL.
    pub confirm_hits: bool,
    /// Set the scissor to each slot's rectangle (the default). Off, every draw covers the whole
    /// target: the answers are the same (the tests check it), only slower.
    pub scissor: bool,
}

impl Default for GpuOptions {
    fn default() -> Self {
        Self { target_size: 512, confirm_hits: false, scissor: true }
    }
}

/// Identifies a sprite, object, group or query inside one [`QueryBatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub usize);
