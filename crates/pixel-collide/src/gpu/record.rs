//! Recording a batch: the bounding-rectangle prefilter, slots tiled over the collision target,
//! compute jobs for exact counts, and the render and compute passes that answer them.

use wgpu::util::DeviceExt;

use super::batch::{Against, GpuDraw};
use super::readback::{Pending, QueryPlan, Recorded, Results};
use super::{GpuCollider, JOBS_PER_DISPATCH, QueryBatch, SLOTS_PER_PASS, SLOTS_PER_SET};
use crate::Error;

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuParams {
    target_size: [f32; 4],
    job_base: [u32; 4],
    pad: [u32; 56],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuJob {
    ab: [u32; 4],
    rect: [i32; 4],
}

impl GpuCollider {
    /// Records the whole batch into `encoder` (e.g. the encoder of a frame being drawn). After
    /// submitting it, call [`Recorded::read_back`] to start the read-back.
    pub fn record(&self, device: &wgpu::Device, batch: &QueryBatch, encoder: &mut wgpu::CommandEncoder) -> Recorded {
        let side = self.options.target_size as i32;
        let mut draws: Vec<GpuDraw> = Vec::new();
        let mut draw_objects: Vec<usize> = Vec::new();
        // Per slot: first stencil draw, count, tested draw, scissor size.
        let mut slots: Vec<(u32, u32, u32, [u32; 2])> = Vec::new();
        let mut jobs: Vec<GpuJob> = Vec::new();
        let mut plan = Vec::with_capacity(batch.queries.len());
        for &(a, against) in &batch.queries {
            let (members, rect) = batch.candidates(a, against);
            let area = matches!(against, Against::Area(_));
            let exact = area || self.options.confirm_hits;
            let mut entry = QueryPlan { slots: (slots.len(), 0), jobs: (jobs.len(), 0), area, exact };
            if members.is_empty() || rect.is_empty() {
                plan.push(entry);
                continue;
            }
            // Occlusion slots, or compute jobs for exact areas and confirmed queries (answered by
            // the exact count alone, see `GpuOptions::confirm_hits`).
            if !exact {
                let mut y = rect.y0;
                while y < rect.y1 {
                    let mut x = rect.x0;
                    while x < rect.x1 {
                        let origin = [x, y];
                        let first = draws.len() as u32;
                        draws.extend(members.iter().map(|&m| batch.draw(m, origin)));
                        draw_objects.extend(&members);
                        let tested = draws.len() as u32;
                        draws.push(batch.draw(a, origin));
                        draw_objects.push(a);
                        let size = [(rect.x1 - x).min(side) as u32, (rect.y1 - y).min(side) as u32];
                        slots.push((first, members.len() as u32, tested, size));
                        x += side;
                    }
                    y += side;
                }
                entry.slots.1 = slots.len() - entry.slots.0;
            } else {
                for &m in &members {
                    let r = batch.objects[a].bounds().intersect(&batch.objects[m].bounds());
                    let da = draws.len() as u32;
                    draws.push(batch.draw(a, [0, 0]));
                    draws.push(batch.draw(m, [0, 0]));
                    draw_objects.extend([a, m]);
                    jobs.push(GpuJob { ab: [da, da + 1, 0, 0], rect: [r.x0, r.y0, r.x1, r.y1] });
                }
                entry.jobs.1 = jobs.len() - entry.jobs.0;
            }
            plan.push(entry);
        }
        if draws.is_empty() {
            return Recorded { plan, slots: 0, jobs: 0, occlusion: None, counts: None };
        }
        let draw_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("pixel-collide draws"),
            contents: bytemuck::cast_slice(&draws),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let mut alpha = batch.alpha_words.clone();
        alpha.extend(&batch.mesh_words);
        if alpha.is_empty() {
            alpha.push(0);
        }
        let alpha_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("pixel-collide alpha"),
            contents: bytemuck::cast_slice(&alpha),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let params = |job_base: u32| GpuParams {
            target_size: [side as f32, 0.0, 0.0, 0.0],
            job_base: [job_base, 0, 0, 0],
            pad: [0; 56],
        };
        let make_params = |job_base: u32| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("pixel-collide params"),
                contents: bytemuck::bytes_of(&params(job_base)),
                usage: wgpu::BufferUsages::UNIFORM,
            })
        };

        let draw_mesh: Vec<Option<(u32, u32)>> = draw_objects.iter().map(|&o| batch.objects[o].mesh_range()).collect();
        let vertex_buf = (!batch.mesh_vertices.is_empty()).then(|| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("pixel-collide mesh vertices"),
                contents: bytemuck::cast_slice(&batch.mesh_vertices),
                usage: wgpu::BufferUsages::VERTEX,
            })
        });
        let occlusion = (!slots.is_empty()).then(|| {
            let params_buf = make_params(0);
            let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("pixel-collide render"),
                layout: &self.render_layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: draw_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: alpha_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: params_buf.as_entire_binding() },
                ],
            });
            let sets = slots.len().div_ceil(SLOTS_PER_SET);
            let bytes = (sets * SLOTS_PER_SET * 8) as u64;
            let resolve = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("pixel-collide resolve"),
                size: bytes,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let read = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("pixel-collide occlusion read"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            for (set_index, set_slots) in slots.chunks(SLOTS_PER_SET).enumerate() {
                let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("pixel-collide occlusion"),
                    ty: wgpu::QueryType::Occlusion,
                    count: set_slots.len() as u32,
                });
                for (pass_index, pass_slots) in set_slots.chunks(SLOTS_PER_PASS).enumerate() {
                    let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                        label: Some("pixel-collide"),
                        color_attachments: &[],
                        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                            view: &self.stencil,
                            depth_ops: Some(wgpu::Operations {
                                load: wgpu::LoadOp::Clear(1.0),
                                store: wgpu::StoreOp::Discard,
                            }),
                            stencil_ops: Some(wgpu::Operations {
                                load: wgpu::LoadOp::Clear(0),
                                store: wgpu::StoreOp::Discard,
                            }),
                        }),
                        timestamp_writes: None,
                        occlusion_query_set: Some(&set),
                        multiview_mask: None,
                    });
                    rp.set_bind_group(0, &bind, &[]);
                    if let Some(v) = &vertex_buf {
                        rp.set_vertex_buffer(0, v.slice(..));
                    }
                    for (k, &(first, count, tested, size)) in pass_slots.iter().enumerate() {
                        let query = (pass_index * SLOTS_PER_PASS + k) as u32;
                        rp.set_stencil_reference(k as u32 + 1);
                        if self.options.scissor {
                            rp.set_scissor_rect(0, 0, size[0], size[1]);
                        } else {
                            rp.set_scissor_rect(0, 0, side as u32, side as u32);
                        }
                        for i in first..first + count {
                            match draw_mesh[i as usize] {
                                None => {
                                    rp.set_pipeline(&self.write);
                                    rp.draw(0..6, i..i + 1);
                                }
                                Some((v, n)) => {
                                    rp.set_pipeline(&self.mesh_write);
                                    rp.draw(v..v + n, i..i + 1);
                                }
                            }
                        }
                        rp.begin_occlusion_query(query);
                        match draw_mesh[tested as usize] {
                            None => {
                                rp.set_pipeline(&self.test);
                                rp.draw(0..6, tested..tested + 1);
                            }
                            Some((v, n)) => {
                                rp.set_pipeline(&self.mesh_test);
                                rp.draw(v..v + n, tested..tested + 1);
                            }
                        }
                        rp.end_occlusion_query();
                    }
                }
                let offset = (set_index * SLOTS_PER_SET * 8) as u64;
                encoder.resolve_query_set(&set, 0..set_slots.len() as u32, &resolve, offset);
            }
            encoder.copy_buffer_to_buffer(&resolve, 0, &read, 0, bytes);
            read
        });

        let counts = (!jobs.is_empty()).then(|| {
            let job_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("pixel-collide jobs"),
                contents: bytemuck::cast_slice(&jobs),
                usage: wgpu::BufferUsages::STORAGE,
            });
            let bytes = (jobs.len() * 4) as u64;
            let count_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("pixel-collide counts"),
                contents: &vec![0u8; bytes as usize],
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            });
            let read = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("pixel-collide counts read"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let (mut max_w, mut max_h) = (1u32, 1u32);
            for j in &jobs {
                max_w = max_w.max((j.rect[2] - j.rect[0]).max(0) as u32);
                max_h = max_h.max((j.rect[3] - j.rect[1]).max(0) as u32);
            }
            let (gx, gy) = (max_w.div_ceil(8).min(64), max_h.div_ceil(8).min(64));
            let mut cp = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("pixel-collide area"),
                timestamp_writes: None,
            });
            cp.set_pipeline(&self.area);
            for base in (0..jobs.len()).step_by(JOBS_PER_DISPATCH) {
                let n = (jobs.len() - base).min(JOBS_PER_DISPATCH) as u32;
                let params_buf = make_params(base as u32);
                let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("pixel-collide area"),
                    layout: &self.compute_layout,
                    entries: &[
                        wgpu::BindGroupEntry { binding: 0, resource: draw_buf.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 1, resource: alpha_buf.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 2, resource: params_buf.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 3, resource: job_buf.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 4, resource: count_buf.as_entire_binding() },
                    ],
                });
                cp.set_bind_group(0, &bind, &[]);
                cp.dispatch_workgroups(gx, gy, n);
            }
            drop(cp);
            encoder.copy_buffer_to_buffer(&count_buf, 0, &read, 0, bytes);
            read
        });
        Recorded { plan, slots: slots.len(), jobs: jobs.len(), occlusion, counts }
    }

    /// Records `batch` in its own encoder, submits it, and starts the read-back: one
    /// submission, one read-back for the whole batch.
    pub fn submit(&self, device: &wgpu::Device, queue: &wgpu::Queue, batch: &QueryBatch) -> Pending {
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("pixel-collide") });
        let recorded = self.record(device, batch, &mut encoder);
        queue.submit([encoder.finish()]);
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
