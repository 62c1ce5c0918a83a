//! Recording a batch: the footprint prefilter, pair quads packed over the collision target,
//! compute jobs for exact counts, and the one render pass and one compute pass that answer them.

use wgpu::util::DeviceExt;

use super::batch::{Against, GpuDraw, Obj};
use super::footprint::{Clip, MARGIN, footprint, pixels};
use super::readback::{Pending, QueryPlan, Recorded, Results};
use super::{BatchStats, GpuCollider, JOBS_PER_DISPATCH, QueryBatch};
use crate::{Error, PixelRect};

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuParams {
    /// Target side in pixels, 1.0 when pieces cover the whole target, -, -.
    target_size: [f32; 4],
    /// First area job of the dispatch, -, -, -.
    job_base: [u32; 4],
    pad: [u32; 56],
}

/// An exact-area job: draw a, draw b, -, -; `rect` is the collision pixels it counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuJob {
    ab: [u32; 4],
    rect: [i32; 4],
}

/// A pair quad ("piece": one per pair and tile): a rectangle of the target, and what its
/// fragments need (handed to them flat by the vertex stage).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuPiece {
    /// Place in the target: x | y << 16, width | height << 16, -, -.
    place: [u32; 4],
    /// Answer word; collision pixel of target pixel (0, 0) less the pair rectangle's corner
    /// (x, y); the rectangle's width | height << 16.
    job: [i32; 4],
    /// Each sprite's map from a pixel's offset in the pair rectangle to its texel, as
    /// [`sprite_map`] builds it.
    a: [i32; 8],
    b: [i32; 8],
}

/// One sprite's map for the fragment stage: `t0` moved to the pair rectangle's corner (same
/// wrapping i32 arithmetic, so every texel is the one [`Placement::texel`](crate::Placement::texel)
/// gives), the 16.16 steps, width | height << 16, first word of its solid bits.
fn sprite_map(batch: &QueryBatch, object: usize, r: &PixelRect) -> [i32; 8] {
    let Obj::Sprite(sprite, p) = &batch.objects[object] else { return [0; 8] };
    let (ox, oy) = (r.x0.wrapping_sub(p.bounds.x0), r.y0.wrapping_sub(p.bounds.y0));
    let m = p.m;
    let t0x = p.t0[0].wrapping_add(m[0].wrapping_mul(ox)).wrapping_add(m[1].wrapping_mul(oy));
    let t0y = p.t0[1].wrapping_add(m[2].wrapping_mul(ox)).wrapping_add(m[3].wrapping_mul(oy));
    let size = (p.size[0] | p.size[1] << 16) as i32;
    [t0x, t0y, m[0], m[1], m[2], m[3], size, batch.sprites[*sprite].0 as i32]
}

/// Places pieces in rows over the target, left to right, top to bottom, and starts again at
/// the top when the target is full: pieces write nothing into the target, so overlapping ones
/// are only drawn over the same pixels (spreading them keeps the rasterizer's tiles busy).
struct Shelf {
    side: i32,
    x: i32,
    y: i32,
    row: i32,
}

impl Shelf {
    fn place(&mut self, w: i32, h: i32) -> (i32, i32) {
        if self.x + w > self.side {
            self.x = 0;
            self.y += self.row;
            self.row = 0;
        }
        if self.y + h > self.side {
            self.y = 0;
        }
        let at = (self.x, self.y);
        self.x += w;
        self.row = self.row.max(h);
        at
    }
}

/// The pair pieces of one batch.
struct Pieces {
    side: i32,
    shelf: Shelf,
    pieces: Vec<GpuPiece>,
    /// Each object's footprint as a range of `points` once computed (empty: no solid pixel).
    footprints: Vec<Option<(u32, u32)>>,
    points: Vec<[f64; 2]>,
    pair: Clip,
    tile: Clip,
}

impl Pieces {
    fn footprint(&mut self, batch: &QueryBatch, object: usize) -> (usize, usize) {
        let (start, end) = *self.footprints[object].get_or_insert_with(|| {
            let start = self.points.len();
            if let Obj::Sprite(sprite, p) = &batch.objects[object] {
                footprint(&batch.sprites[*sprite].2, p, &mut self.points);
            }
            (start as u32, self.points.len() as u32)
        });
        (start as usize, end as usize)
    }

    /// Adds the pieces of sprite pair (a, b) for answer word `word`: the rectangles of pixels
    /// where their footprints meet within `r` (their bounds' intersection), cut into tiles of at
    /// most the target's side. False when there are none: the two cannot share a pixel.
    fn add_pair(
        &mut self,
        batch: &QueryBatch,
        stats: &mut BatchStats,
        word: u32,
        a: usize,
        b: usize,
        r: PixelRect,
    ) -> bool {
        let (fa, fb) = (self.footprint(batch, a), self.footprint(batch, b));
        if fa.0 == fa.1 || fb.0 == fb.1 {
            return false;
        }
        // Pixel indices as points: the pixels of r lie in [r.x0, r.x1 - 1] × [r.y0, r.y1 - 1].
        let e = MARGIN;
        let (x0, y0) = (f64::from(r.x0) - e, f64::from(r.y0) - e);
        let (x1, y1) = (f64::from(r.x1 - 1) + e, f64::from(r.y1 - 1) + e);
        self.pair.start(&self.points[fa.0..fa.1]).rect(x0, y0, x1, y1).inside(&self.points[fb.0..fb.1]);
        let all = pixels(self.pair.vertices(), &r);
        if all.is_empty() {
            return false;
        }
        let (ma, mb) = (sprite_map(batch, a, &r), sprite_map(batch, b, &r));
        let side = self.side;
        let mut drawn = false;
        for ty in (all.y0..all.y1).step_by(side as usize) {
            for tx in (all.x0..all.x1).step_by(side as usize) {
                let tile = PixelRect { x0: tx, y0: ty, x1: (tx + side).min(all.x1), y1: (ty + side).min(all.y1) };
                let px = if tile == all {
                    all
                } else {
                    // The part of the footprints' intersection in this tile.
                    let (x0, y0) = (f64::from(tile.x0) - e, f64::from(tile.y0) - e);
                    let (x1, y1) = (f64::from(tile.x1 - 1) + e, f64::from(tile.y1 - 1) + e);
                    pixels(self.tile.start(self.pair.vertices()).rect(x0, y0, x1, y1).vertices(), &tile)
                };
                if px.is_empty() {
                    continue;
                }
                let (w, h) = (px.x1 - px.x0, px.y1 - px.y0);
                let (plx, ply) = self.shelf.place(w, h);
                self.pieces.push(GpuPiece {
                    place: [plx as u32 | (ply as u32) << 16, w as u32 | (h as u32) << 16, 0, 0],
                    job: [word as i32, px.x0 - plx - r.x0, px.y0 - ply - r.y0, (r.width() | r.height() << 16) as i32],
                    a: ma,
                    b: mb,
                });
                stats.quad_pixels += (w as u64) * (h as u64);
                drawn = true;
            }
        }
        drawn
    }
}

impl GpuCollider {
    /// Records the whole batch into `encoder` (e.g. the encoder of a frame being drawn). After
    /// submitting it, call [`Recorded::read_back`] to start the read-back.
    pub fn record(&self, device: &wgpu::Device, batch: &QueryBatch, encoder: &mut wgpu::CommandEncoder) -> Recorded {
        let side = self.options.target_size as i32;
        let mut stats = BatchStats::default();
        let mut jobs: Vec<GpuJob> = Vec::new();
        let mut plan = Vec::with_capacity(batch.queries.len());
        let mut pieces = Pieces {
            side,
            shelf: Shelf { side, x: 0, y: 0, row: 0 },
            pieces: Vec::new(),
            footprints: vec![None; batch.objects.len()],
            points: Vec::new(),
            pair: Clip::default(),
            tile: Clip::default(),
        };
        let draw_pairs = self.draws_pairs();
        for (qi, (a, against)) in batch.queries.iter().enumerate() {
            let a = *a;
            let area = matches!(against, Against::Area(_));
            let mut entry = QueryPlan { quads: false, jobs: (jobs.len(), 0), area };
            let ab = batch.objects[a].bounds();
            for &m in batch.members(against) {
                let r = ab.intersection(&batch.objects[m].bounds());
                if r.is_empty() {
                    continue;
                }
                let sprites = matches!((&batch.objects[a], &batch.objects[m]), (Obj::Sprite(..), Obj::Sprite(..)));
                if area || !draw_pairs || !sprites {
                    // Exact counts; pairs with a mesh too (the fragment stage decides sprites only).
                    jobs.push(GpuJob { ab: [a as u32, m as u32, 0, 0], rect: [r.x0, r.y0, r.x1, r.y1] });
                    continue;
                }
                // Answer word fixed below (after the jobs' counts).
                entry.quads |= pieces.add_pair(batch, &mut stats, qi as u32, a, m, r);
            }
            entry.jobs.1 = jobs.len() - entry.jobs.0;
            plan.push(entry);
        }
        let Pieces { pieces: mut quads, .. } = pieces;
        if !self.options.scissor {
            // Every piece over the whole target: the same answers, more fragments.
            stats.quad_pixels = quads.len() as u64 * (side as u64).pow(2);
        }
        stats.quads = quads.len() as u64;
        stats.jobs = jobs.len() as u64;
        let words = jobs.len() + batch.queries.len();
        if jobs.is_empty() && quads.is_empty() {
            return Recorded { plan, quads: 0, jobs: 0, read: None, words, stats: Box::new(stats) };
        }
        let (job_count, quad_count) = (jobs.len(), quads.len());
        for q in &mut quads {
            q.job[0] += job_count as i32;
        }

        let upload = |stats: &mut BatchStats, label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            stats.buffer_uploads += 1;
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        // Only the compute pass reads the objects' draws: without jobs, one placeholder.
        let mut draws: Vec<GpuDraw> = Vec::new();
        if job_count > 0 {
            draws.extend((0..batch.objects.len()).map(|o| batch.draw(o)));
        }
        if draws.is_empty() {
            draws.push(bytemuck::Zeroable::zeroed());
        }
        let draw_buf =
            upload(&mut stats, "pixel-collide draws", bytemuck::cast_slice(&draws), wgpu::BufferUsages::STORAGE);
        let mut solid = batch.solid_words.clone();
        solid.extend(&batch.mesh_words);
        solid.push(0);
        let solid_buf =
            upload(&mut stats, "pixel-collide solid", bytemuck::cast_slice(&solid), wgpu::BufferUsages::STORAGE);
        if jobs.is_empty() {
            jobs.push(GpuJob { ab: [0; 4], rect: [0; 4] });
        }
        let job_buf =
            upload(&mut stats, "pixel-collide jobs", bytemuck::cast_slice(&jobs), wgpu::BufferUsages::STORAGE);
        if quads.is_empty() {
            quads.push(bytemuck::Zeroable::zeroed());
        }
        let piece_buf =
            upload(&mut stats, "pixel-collide pieces", bytemuck::cast_slice(&quads), wgpu::BufferUsages::STORAGE);
        let bytes = (words * 4) as u64;
        // Zeroed by wgpu before first use.
        let count_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pixel-collide counts"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pixel-collide read"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let unscissored = if self.options.scissor { 0.0 } else { 1.0 };
        let bind_group = |stats: &mut BatchStats, job_base: u32| {
            let params = GpuParams {
                target_size: [side as f32, unscissored, 0.0, 0.0],
                job_base: [job_base, 0, 0, 0],
                pad: [0; 56],
            };
            let params_buf =
                upload(stats, "pixel-collide params", bytemuck::bytes_of(&params), wgpu::BufferUsages::UNIFORM);
            stats.bind_groups += 1;
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("pixel-collide"),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: draw_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: solid_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: params_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: job_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: count_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 5, resource: piece_buf.as_entire_binding() },
                ],
            })
        };
        let first = bind_group(&mut stats, 0);

        if let (Some(pipeline), true) = (&self.pair, quad_count > 0) {
            let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("pixel-collide pairs"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.target,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            stats.render_passes += 1;
            rp.set_pipeline(pipeline);
            stats.pipeline_switches += 1;
            rp.set_bind_group(0, &first, &[]);
            rp.draw(0..6, 0..quad_count as u32);
            stats.draw_calls += 1;
        }

        if job_count > 0 {
            let (mut max_w, mut max_h) = (1u32, 1u32);
            for j in &jobs[..job_count] {
                max_w = max_w.max((j.rect[2] - j.rect[0]).max(0) as u32);
                max_h = max_h.max((j.rect[3] - j.rect[1]).max(0) as u32);
            }
            let (gx, gy) = (max_w.div_ceil(8).min(64), max_h.div_ceil(8).min(64));
            let groups: Vec<(u32, wgpu::BindGroup)> = (0..job_count)
                .step_by(JOBS_PER_DISPATCH)
                .map(|base| {
                    let n = (job_count - base).min(JOBS_PER_DISPATCH) as u32;
                    (n, if base == 0 { first.clone() } else { bind_group(&mut stats, base as u32) })
                })
                .collect();
            let mut cp = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("pixel-collide area"),
                timestamp_writes: None,
            });
            stats.compute_passes += 1;
            cp.set_pipeline(&self.area);
            stats.pipeline_switches += 1;
            for (n, bind) in &groups {
                cp.set_bind_group(0, bind, &[]);
                cp.dispatch_workgroups(gx, gy, *n);
                stats.dispatches += 1;
            }
        }
        encoder.copy_buffer_to_buffer(&count_buf, 0, &read, 0, bytes);
        stats.copies += 1;
        stats.read_backs += 1;
        Recorded { plan, quads: quad_count, jobs: job_count, read: Some(read), words, stats: Box::new(stats) }
    }

    /// Records `batch` in its own encoder, submits it, and starts the read-back: one
    /// submission, one read-back for the whole batch.
    pub fn submit(&self, device: &wgpu::Device, queue: &wgpu::Queue, batch: &QueryBatch) -> Pending {
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("pixel-collide") });
        let mut recorded = self.record(device, batch, &mut encoder);
        queue.submit([encoder.finish()]);
        recorded.stats.submissions += 1;
        recorded.read_back()
    }

    /// [`submit`](GpuCollider::submit) and [`Pending::wait`] in one call.
    ///
    /// # Errors
    /// [`Error::ReadBack`].
    pub fn run(&self, device: &wgpu::Device, queue: &wgpu::Queue, batch: &QueryBatch) -> Result<Results, Error> {
        self.submit(device, queue, batch).wait(device)
    }
}
