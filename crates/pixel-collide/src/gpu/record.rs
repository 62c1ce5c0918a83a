//! Recording a batch: the bounding-rectangle prefilter, pair quads packed over the collision
//! target, compute jobs for exact counts, and the one render pass and one compute pass that
//! answer them.

use wgpu::util::DeviceExt;

use super::batch::{Against, GpuDraw, Obj};
use super::readback::{Pending, QueryPlan, Recorded, Results};
use super::{BatchStats, GpuCollider, JOBS_PER_DISPATCH, QueryBatch};
use crate::{Error, PixelRect};

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuParams {
    /// Target side in pixels, 1.0 when quads cover the whole target, -, -.
    target_size: [f32; 4],
    job_base: [u32; 4],
    pad: [u32; 56],
}

/// An exact-area job (`ab` = draw a, draw b, -, -) or a pair quad (`ab` = draw a, draw b,
/// answer word, place `x | y << 16`); `rect` is the collision pixels it covers.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuJob {
    ab: [u32; 4],
    rect: [i32; 4],
}

/// Places quads in rows over the target, left to right, top to bottom, and starts again at
/// the top when the target is full: quads write nothing into the target, so overlapping ones
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

/// The pixels a posed sprite may cover, as a parallelogram in collision pixels: the texel
/// rectangle mapped back through its placement, grown by one pixel step on every side (so
/// rounding in this `f64` arithmetic cannot lose a pixel). `None` for a mesh or a degenerate map.
fn footprint(obj: &Obj) -> Option<[[f64; 2]; 4]> {
    let Obj::Sprite(_, p) = obj else { return None };
    let m = p.m.map(f64::from);
    let det = m[0] * m[3] - m[1] * m[2];
    if det == 0.0 {
        return None;
    }
    // 16.16 texel coordinates of pixel q (relative to the bounds' corner): t0 + M q.
    let (du, dv) = (m[0].abs() + m[1].abs(), m[2].abs() + m[3].abs());
    let (u0, u1) = (-du, f64::from(p.size[0]) * 65536.0 + du);
    let (v0, v1) = (-dv, f64::from(p.size[1]) * 65536.0 + dv);
    let (tx, ty) = (f64::from(p.t0[0]), f64::from(p.t0[1]));
    let corner = |u: f64, v: f64| {
        let (a, b) = (u - tx, v - ty);
        [(m[3] * a - m[1] * b) / det + f64::from(p.bounds.x0), (m[0] * b - m[2] * a) / det + f64::from(p.bounds.y0)]
    };
    Some([corner(u0, v0), corner(u1, v0), corner(u1, v1), corner(u0, v1)])
}

/// `r` shrunk to the bounding box of the two objects' footprints' intersection (convex
/// clipping); empty when they cannot share a pixel.
fn tighten(a: &Obj, b: &Obj, r: PixelRect) -> PixelRect {
    let (Some(pa), Some(pb)) = (footprint(a), footprint(b)) else { return r };
    let mut poly: Vec<[f64; 2]> = pa.to_vec();
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let orient = if cross(pb[0], pb[1], pb[2]) >= 0.0 { 1.0 } else { -1.0 };
    for i in 0..4 {
        let (e0, e1) = (pb[i], pb[(i + 1) % 4]);
        let inside = |p: [f64; 2]| orient * cross(e0, e1, p) >= 0.0;
        let mut out = Vec::with_capacity(poly.len() + 2);
        for k in 0..poly.len() {
            let (c, n) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ci, ni) = (inside(c), inside(n));
            if ci {
                out.push(c);
            }
            if ci != ni {
                let (dc, dn) = (cross(e0, e1, c), cross(e0, e1, n));
                let t = dc / (dc - dn);
                out.push([c[0] + t * (n[0] - c[0]), c[1] + t * (n[1] - c[1])]);
            }
        }
        poly = out;
        if poly.is_empty() {
            return PixelRect::default();
        }
    }
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in &poly {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    // Pixels q with lo <= q <= hi (a pixel's index is where its centre maps from).
    let clamp = |v: f64| v.clamp(f64::from(i32::MIN / 2), f64::from(i32::MAX / 2)) as i32;
    let tight = PixelRect {
        x0: clamp(lo[0].floor()),
        y0: clamp(lo[1].floor()),
        x1: clamp(hi[0].floor()) + 1,
        y1: clamp(hi[1].floor()) + 1,
    };
    r.intersect(&tight)
}

impl GpuCollider {
    /// Records the whole batch into `encoder` (e.g. the encoder of a frame being drawn). After
    /// submitting it, call [`Recorded::read_back`] to start the read-back.
    pub fn record(&self, device: &wgpu::Device, batch: &QueryBatch, encoder: &mut wgpu::CommandEncoder) -> Recorded {
        let side = self.options.target_size as i32;
        let mut stats = BatchStats::default();
        let mut jobs: Vec<GpuJob> = Vec::new();
        let mut quads: Vec<GpuJob> = Vec::new();
        let mut plan = Vec::with_capacity(batch.queries.len());
        let mut shelf = Shelf { side, x: 0, y: 0, row: 0 };
        for (qi, (a, against)) in batch.queries.iter().enumerate() {
            let a = *a;
            let area = matches!(against, Against::Area(_));
            let exact = area || self.options.confirm_hits || self.pair.is_none();
            let mut entry = QueryPlan { quads: false, jobs: (jobs.len(), 0), area, exact };
            let ab = batch.objects[a].bounds();
            for &m in batch.members(against) {
                let r = ab.intersect(&batch.objects[m].bounds());
                if r.is_empty() {
                    continue;
                }
                let draws = [a as u32, m as u32];
                if exact {
                    jobs.push(GpuJob { ab: [draws[0], draws[1], 0, 0], rect: [r.x0, r.y0, r.x1, r.y1] });
                    continue;
                }
                let r = tighten(&batch.objects[a], &batch.objects[m], r);
                if r.is_empty() {
                    continue;
                }
                entry.quads = true;
                // Tiles of at most the target's size; answer word fixed below (after the jobs).
                let mut y = r.y0;
                while y < r.y1 {
                    let mut x = r.x0;
                    while x < r.x1 {
                        let (w, h) = ((r.x1 - x).min(side), (r.y1 - y).min(side));
                        let (px, py) = shelf.place(w, h);
                        quads.push(GpuJob {
                            ab: [draws[0], draws[1], qi as u32, px as u32 | (py as u32) << 16],
                            rect: [x, y, x + w, y + h],
                        });
                        stats.quad_pixels +=
                            if self.options.scissor { (w as u64) * (h as u64) } else { (side as u64).pow(2) };
                        x += side;
                    }
                    y += side;
                }
            }
            entry.jobs.1 = jobs.len() - entry.jobs.0;
            plan.push(entry);
        }
        stats.quads = quads.len() as u64;
        stats.jobs = jobs.len() as u64;
        let words = jobs.len() + batch.queries.len();
        if jobs.is_empty() && quads.is_empty() {
            return Recorded { plan, quads: 0, jobs: 0, read: None, words, stats: Box::new(stats) };
        }
        let (job_count, quad_count) = (jobs.len(), quads.len());
        // Answer words follow the jobs' counts; quads follow the jobs in one buffer.
        for q in &mut quads {
            q.ab[2] += job_count as u32;
        }
        jobs.append(&mut quads);

        let upload = |stats: &mut BatchStats, label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            stats.buffer_uploads += 1;
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        let draws: Vec<GpuDraw> = (0..batch.objects.len()).map(|o| batch.draw(o, [0, 0])).collect();
        let draw_buf =
            upload(&mut stats, "pixel-collide draws", bytemuck::cast_slice(&draws), wgpu::BufferUsages::STORAGE);
        let mut alpha = batch.alpha_words.clone();
        alpha.extend(&batch.mesh_words);
        if alpha.is_empty() {
            alpha.push(0);
        }
        let alpha_buf =
            upload(&mut stats, "pixel-collide alpha", bytemuck::cast_slice(&alpha), wgpu::BufferUsages::STORAGE);
        let job_buf =
            upload(&mut stats, "pixel-collide jobs", bytemuck::cast_slice(&jobs), wgpu::BufferUsages::STORAGE);
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
                    wgpu::BindGroupEntry { binding: 1, resource: alpha_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: params_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: job_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: count_buf.as_entire_binding() },
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
            rp.draw(0..6, job_count as u32..(job_count + quad_count) as u32);
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
