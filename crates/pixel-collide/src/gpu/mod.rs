//! The GPU path: pair quads for yes/no, a compute pass for exact areas.
//!
//! Every yes/no query between two sprites becomes one *quad* per candidate member and tile: an
//! instance drawn over the pixels where the two sprites' *footprints* meet (convex polygons
//! around their solid texels, see `footprint`; pairs whose footprints do not meet are answered
//! on the CPU and never drawn), cut into tiles of at most [`GpuOptions::target_size`] pixels on
//! a side and placed in the collision target by a shelf packer that wraps around when the
//! target is full (quads may overlap there: they write nothing into it). Each fragment decides
//! both sprites' coverage with the CPU twin's integer arithmetic and, where both cover its
//! pixel, sets the query's answer word in a storage buffer; a fragment whose query already has
//! its answer returns at once. All quads are one instanced draw in one render pass, so a batch
//! costs the pixels its quads cover, not a command per pair: see [`BatchStats`].
//!
//! Exact areas, members that are triangle meshes, and every answer when
//! [`GpuOptions::confirm_hits`] is on (or where fragment shaders cannot write storage buffers),
//! come from a compute pass instead: one job per (object, member) pair walks the overlap of
//! their bounds and counts the pixels both cover. The fragment stage decides sprites only: on a
//! software rasterizer every fragment pays for every instruction of its shader, taken or not.
//!
//! The path's modules stack one way: `batch` (the CPU-side [`QueryBatch`] and the draw
//! records it turns objects into) → `footprint` (where a pair's shared pixels can be) →
//! `pipelines` (the [`GpuCollider`]: device setup, the target, the pair pipeline and the area
//! compute pipeline) → `readback` (the [`Recorded`] / [`Pending`] / [`Results`] of one
//! submission) → `record` (planning quads and jobs, and recording them into an encoder).

mod batch;
mod footprint;
mod pipelines;
mod readback;
mod record;

pub use batch::QueryBatch;
pub use pipelines::GpuCollider;
pub use readback::{Pending, Recorded, Results};

const SHADER: &str = include_str!("../collide.wgsl");
const JOBS_PER_DISPATCH: usize = 65_535;

/// Settings of a [`GpuCollider`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Side of the square collision target, in pixels (a power of two, 16..=4096). Overlaps
    /// larger than this are split into several quads; the answers do not depend on it.
    pub target_size: u32,
    /// Answer every pair and group query with the exact compute path (one compute job per
    /// candidate member, in the same submission) instead of the pair quads, which are then not
    /// drawn at all. The answers are the same (both use the CPU twin's integer rule); the quads
    /// are faster. [`GpuCollider::new`] turns it on for wgpu's GL backend, where fragment
    /// shaders cannot write storage buffers (there the compute path is used whatever this says).
    pub confirm_hits: bool,
    /// Draw each quad over its tile only (the default). Off, every quad covers the whole
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

/// What one batch cost in GPU commands: every count but `quads`, `jobs` and `dispatches` stays
/// the same whatever the number of queries (the tests check 64 against 4,096 pairs).
/// `dispatches` grows by one per 65,535 exact-area jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct BatchStats {
    /// Queue submissions ([`GpuCollider::record`] makes none: the caller submits; `submit` and
    /// `run` make one).
    pub submissions: u32,
    /// Render passes begun.
    pub render_passes: u32,
    /// Compute passes begun.
    pub compute_passes: u32,
    /// Pipelines set (render and compute).
    pub pipeline_switches: u32,
    /// Buffers created with contents (uploads of CPU data).
    pub buffer_uploads: u32,
    /// Bind groups created.
    pub bind_groups: u32,
    /// Draw calls.
    pub draw_calls: u32,
    /// Compute dispatches.
    pub dispatches: u32,
    /// Buffer copies recorded (the read-back).
    pub copies: u32,
    /// Buffers mapped for reading.
    pub read_backs: u32,
    /// Pair quads drawn (instances of the one draw call): one per candidate member and tile
    /// whose footprints meet.
    pub quads: u64,
    /// Exact-count compute jobs.
    pub jobs: u64,
    /// Pixels the quads cover (fragments the rasterizer runs).
    pub quad_pixels: u64,
}
