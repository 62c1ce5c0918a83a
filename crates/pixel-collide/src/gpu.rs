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

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use crate::{Error, Mesh, MeshPlacement, PixelRect, Placement, Pose, Sprite};

const SHADER: &str = include_str!("collide.wgsl");
const SLOTS_PER_PASS: usize = 255;
const SLOTS_PER_SET: usize = wgpu::QUERY_SET_MAX_QUERIES as usize;
const JOBS_PER_DISPATCH: usize = 65_535;

#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuDraw {
    bounds: [i32; 4],
    t0: [i32; 2],
    size: [u32; 2],
    m: [i32; 4],
    origin: [i32; 2],
    sprite: [u32; 2],
    /// First triangle word, triangle count, 1 for a mesh, unused.
    mesh: [u32; 4],
}

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

#[derive(Clone, Copy, Debug)]
enum Obj {
    Sprite(usize, Placement),
    Mesh {
        bounds: PixelRect,
        /// First vertex and vertex count in `mesh_vertices` (for the rasterizer).
        vertices: (u32, u32),
        /// First word and triangle count of the oriented triangles in `alpha_words` (for the
        /// exact-area pass).
        triangles: (u32, u32),
    },
}

impl Obj {
    fn bounds(&self) -> PixelRect {
        match self {
            Obj::Sprite(_, p) => p.bounds,
            Obj::Mesh { bounds, .. } => *bounds,
        }
    }

    fn mesh_range(&self) -> Option<(u32, u32)> {
        match self {
            Obj::Sprite(..) => None,
            Obj::Mesh { vertices, .. } => Some(*vertices),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Against {
    Object(usize),
    Group(usize),
    Area(usize),
}

/// A set of collision objects, groups and queries, built on the CPU and answered by one
/// GPU submission.
#[derive(Clone, Debug, Default)]
pub struct QueryBatch {
    /// Sprite → (first alpha word, index of its CPU copy).
    sprites: Vec<(u32, Sprite)>,
    /// Sprite alpha, four texels a word.
    alpha_words: Vec<u32>,
    /// Oriented mesh triangles for the exact-area pass, eight words each: three vertices in
    /// 1/16 pixel (i32), top-left edge flags, padding. Uploaded after `alpha_words`.
    mesh_words: Vec<u32>,
    objects: Vec<Obj>,
    /// Snapped mesh vertices in pixels relative to their object's anchor.
    mesh_vertices: Vec<[f32; 2]>,
    groups: Vec<Vec<usize>>,
    queries: Vec<(usize, Against)>,
}

impl QueryBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a sprite's alpha (uploaded once per submission, however many objects use it).
    pub fn add_sprite(&mut self, sprite: &Sprite) -> Id {
        let first = self.alpha_words.len() as u32;
        self.alpha_words.extend(sprite.alpha().chunks(4).map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(b)
        }));
        self.sprites.push((first, sprite.clone()));
        Id(self.sprites.len() - 1)
    }

    /// Places sprite `sprite` at `pose` as a collision object.
    ///
    /// # Errors
    /// [`Error::UnknownId`] or the errors of [`Placement::new`].
    pub fn add_object(&mut self, sprite: Id, pose: Pose) -> Result<Id, Error> {
        let s = &self.sprites.get(sprite.0).ok_or(Error::UnknownId { kind: "sprite", id: sprite.0 })?.1;
        let placement = Placement::new(s.width(), s.height(), pose)?;
        self.objects.push(Obj::Sprite(sprite.0, placement));
        Ok(Id(self.objects.len() - 1))
    }

    /// Places a triangle mesh at `pose` as a collision object. For pair and group queries its
    /// covered pixels are decided by the rasterizer (see [`MeshPlacement`] for how far that
    /// agrees with the CPU twin); exact areas ([`QueryBatch::area`]) and confirmed hits
    /// ([`GpuOptions::confirm_hits`]) evaluate the CPU twin's own integer rule per pixel, so
    /// they equal [`MeshPlacement::rasterize`] exactly.
    ///
    /// # Errors
    /// The errors of [`MeshPlacement::new`].
    pub fn add_mesh(&mut self, mesh: &Mesh, pose: Pose) -> Result<Id, Error> {
        let placed = MeshPlacement::new(mesh, pose)?;
        let first = self.mesh_vertices.len() as u32;
        let scale = 1.0 / (1u32 << crate::MESH_SUBPIXEL_BITS) as f32;
        self.mesh_vertices.extend(placed.vertices.iter().map(|v| [v[0] as f32 * scale, v[1] as f32 * scale]));
        let first_word = self.mesh_words.len() as u32;
        let mut count = 0;
        for (v, top_left) in placed.oriented_triangles() {
            // Vertices lie within the placement's bounds (at most MAX_EXTENT · 16 = 2^18): i32.
            self.mesh_words.extend(v.iter().flat_map(|p| [p.0 as i32 as u32, p.1 as i32 as u32]));
            let flags = top_left.iter().enumerate().map(|(i, &tl)| u32::from(tl) << i).sum::<u32>();
            self.mesh_words.extend([flags, 0]);
            count += 1;
        }
        self.objects.push(Obj::Mesh {
            bounds: placed.bounds,
            vertices: (first, placed.vertices.len() as u32),
            triangles: (first_word, count),
        });
        Ok(Id(self.objects.len() - 1))
    }

    /// Makes a group of objects that share one stencil (e.g. all enemies).
    ///
    /// # Errors
    /// [`Error::UnknownId`] for an object not in this batch.
    pub fn add_group(&mut self, members: &[Id]) -> Result<Id, Error> {
        for m in members {
            self.object(*m)?;
        }
        self.groups.push(members.iter().map(|m| m.0).collect());
        Ok(Id(self.groups.len() - 1))
    }

    fn object(&self, id: Id) -> Result<&Obj, Error> {
        self.objects.get(id.0).ok_or(Error::UnknownId { kind: "object", id: id.0 })
    }

    /// Asks whether objects `a` and `b` share a solid pixel.
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn pair(&mut self, a: Id, b: Id) -> Result<Id, Error> {
        self.object(a)?;
        self.object(b)?;
        self.queries.push((a.0, Against::Object(b.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// Asks whether object `a` shares a solid pixel with any member of `group`.
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn group(&mut self, a: Id, group: Id) -> Result<Id, Error> {
        self.object(a)?;
        if group.0 >= self.groups.len() {
            return Err(Error::UnknownId { kind: "group", id: group.0 });
        }
        self.queries.push((a.0, Against::Group(group.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// Asks for the exact number of pixels objects `a` and `b` share (compute path; sprites
    /// and meshes alike, each by the CPU twin's integer rule).
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn area(&mut self, a: Id, b: Id) -> Result<Id, Error> {
        self.object(a)?;
        self.object(b)?;
        self.queries.push((a.0, Against::Area(b.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// Number of queries.
    pub fn query_count(&self) -> usize {
        self.queries.len()
    }

    /// Removes objects, groups and queries but keeps the sprites, so the next frame can reuse
    /// them.
    pub fn clear_objects(&mut self) {
        self.objects.clear();
        self.mesh_words.clear();
        self.mesh_vertices.clear();
        self.groups.clear();
        self.queries.clear();
    }

    fn draw(&self, object: usize, origin: [i32; 2]) -> GpuDraw {
        let (sprite, p) = match &self.objects[object] {
            Obj::Sprite(sprite, p) => (sprite, p),
            Obj::Mesh { bounds: b, triangles, .. } => {
                return GpuDraw {
                    bounds: [b.x0, b.y0, b.x1, b.y1],
                    t0: [0; 2],
                    size: [0; 2],
                    m: [0; 4],
                    origin,
                    sprite: [0; 2],
                    mesh: [self.alpha_words.len() as u32 + triangles.0, triangles.1, 1, 0],
                };
            }
        };
        let (first, s) = &self.sprites[*sprite];
        let b = p.bounds;
        GpuDraw {
            bounds: [b.x0, b.y0, b.x1, b.y1],
            t0: p.t0,
            size: p.size,
            m: p.m,
            origin,
            sprite: [*first, u32::from(s.threshold())],
            mesh: [0; 4],
        }
    }

    /// The members of the query's other side whose bounds meet `a`'s, and the rectangle to test.
    fn candidates(&self, a: usize, against: Against) -> (Vec<usize>, PixelRect) {
        let ab = self.objects[a].bounds();
        let list: Vec<usize> = match against {
            Against::Object(b) | Against::Area(b) => vec![b],
            Against::Group(g) => self.groups[g].clone(),
        };
        let mut rect = PixelRect::default();
        let mut hits = Vec::new();
        for m in list {
            let r = ab.intersect(&self.objects[m].bounds());
            if !r.is_empty() {
                rect = rect.union(&r);
                hits.push(m);
            }
        }
        (hits, rect)
    }
}

/// Pipelines and the collision target; reuse one for every batch.
#[derive(Debug)]
pub struct GpuCollider {
    options: GpuOptions,
    stencil: wgpu::TextureView,
    write: wgpu::RenderPipeline,
    test: wgpu::RenderPipeline,
    mesh_write: wgpu::RenderPipeline,
    mesh_test: wgpu::RenderPipeline,
    area: wgpu::ComputePipeline,
    render_layout: wgpu::BindGroupLayout,
    compute_layout: wgpu::BindGroupLayout,
}

fn storage(binding: u32, visibility: wgpu::ShaderStages, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn uniform(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl GpuCollider {
    /// Builds the pipelines and the collision target on `device`, with hit confirmation turned
    /// on when the device runs on wgpu's GL backend.
    pub fn new(device: &wgpu::Device) -> Self {
        let confirm_hits = device.adapter_info().backend == wgpu::Backend::Gl;
        Self::with_options(device, GpuOptions { confirm_hits, ..GpuOptions::default() })
    }

    /// Builds the pipelines with explicit options (`target_size` is rounded up to a power of
    /// two and clamped to 16..=4096).
    pub fn with_options(device: &wgpu::Device, mut options: GpuOptions) -> Self {
        options.target_size = options.target_size.clamp(16, 4096).next_power_of_two();
        let side = options.target_size;
        let stencil = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("pixel-collide stencil"),
                size: wgpu::Extent3d { width: side, height: side, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Depth24PlusStencil8,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .create_view(&wgpu::TextureViewDescriptor::default());
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("pixel-collide"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let vf = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let render_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("pixel-collide render"),
            entries: &[
                storage(0, vf, true),
                storage(1, wgpu::ShaderStages::FRAGMENT, true),
                uniform(2, wgpu::ShaderStages::VERTEX),
            ],
        });
        let cs = wgpu::ShaderStages::COMPUTE;
        let compute_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("pixel-collide area"),
            entries: &[
                storage(0, cs, true),
                storage(1, cs, true),
                uniform(2, cs),
                storage(3, cs, true),
                storage(4, cs, false),
            ],
        });
        let render_pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("pixel-collide render"),
            bind_group_layouts: &[Some(&render_layout)],
            immediate_size: 0,
        });
        let compute_pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("pixel-collide area"),
            bind_group_layouts: &[Some(&compute_layout)],
            immediate_size: 0,
        });
        let mesh_layout = [Some(wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2],
        })];
        let pipeline = |compare, pass_op, mesh: bool| {
            let face = wgpu::StencilFaceState {
                compare,
                fail_op: wgpu::StencilOperation::Keep,
                depth_fail_op: wgpu::StencilOperation::Keep,
                pass_op,
            };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("pixel-collide"),
                layout: Some(&render_pl),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(if mesh { "vs_mesh" } else { "vs" }),
                    compilation_options: Default::default(),
                    buffers: if mesh { &mesh_layout } else { &[] },
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: wgpu::TextureFormat::Depth24PlusStencil8,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: wgpu::StencilState { front: face, back: face, read_mask: 0xff, write_mask: 0xff },
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                // Meshes: coverage by the rasterizer alone, no fragment stage.
                fragment: (!mesh).then(|| wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs"),
                    compilation_options: Default::default(),
                    targets: &[],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let write = pipeline(wgpu::CompareFunction::Always, wgpu::StencilOperation::Replace, false);
        let test = pipeline(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep, false);
        let mesh_write = pipeline(wgpu::CompareFunction::Always, wgpu::StencilOperation::Replace, true);
        let mesh_test = pipeline(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep, true);
        let area = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("pixel-collide area"),
            layout: Some(&compute_pl),
            module: &module,
            entry_point: Some("area"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { options, stencil, write, test, mesh_write, mesh_test, area, render_layout, compute_layout }
    }

    /// The options in use.
    pub fn options(&self) -> GpuOptions {
        self.options
    }

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

#[derive(Clone, Copy, Debug)]
struct QueryPlan {
    slots: (usize, usize),
    jobs: (usize, usize),
    /// An area query.
    area: bool,
    /// Answered by the exact count (area queries, and every query when confirming hits).
    exact: bool,
}

/// A batch recorded into a caller's encoder, not yet read back.
#[derive(Debug)]
#[must_use = "call read_back after submitting the encoder"]
pub struct Recorded {
    plan: Vec<QueryPlan>,
    slots: usize,
    jobs: usize,
    occlusion: Option<wgpu::Buffer>,
    counts: Option<wgpu::Buffer>,
}

impl Recorded {
    /// Starts mapping the results; call after the encoder it was recorded into was submitted.
    pub fn read_back(self) -> Pending {
        let done = Arc::new(AtomicUsize::new(0));
        let failure = Arc::new(Mutex::new(None));
        for buffer in [&self.occlusion, &self.counts].into_iter().flatten() {
            let (done, failure) = (done.clone(), failure.clone());
            buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                if let Err(e) = r {
                    *failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.to_string());
                }
                done.fetch_add(1, Ordering::Release);
            });
        }
        Pending { recorded: self, done, failure }
    }

    /// Occlusion slots recorded (after the bounding-rectangle prefilter and tiling).
    pub fn slot_count(&self) -> usize {
        self.slots
    }

    /// Exact-area jobs recorded.
    pub fn job_count(&self) -> usize {
        self.jobs
    }
}

/// Results on their way back from the GPU.
#[derive(Debug)]
pub struct Pending {
    recorded: Recorded,
    done: Arc<AtomicUsize>,
    failure: Arc<Mutex<Option<String>>>,
}

impl Pending {
    fn buffers(&self) -> usize {
        usize::from(self.recorded.occlusion.is_some()) + usize::from(self.recorded.counts.is_some())
    }

    /// Blocks until the results are back (same-frame delivery).
    ///
    /// # Errors
    /// [`Error::ReadBack`] when the device is lost or the buffer cannot be mapped.
    pub fn wait(self, device: &wgpu::Device) -> Result<Results, Error> {
        while self.done.load(Ordering::Acquire) < self.buffers() {
            device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| Error::ReadBack(e.to_string()))?;
        }
        self.finish()
    }

    /// The results if they are back, without blocking (one-frame-later delivery: call it next
    /// frame); `Err(self)` hands the pending batch back otherwise.
    ///
    /// # Errors
    /// `Ok(Err(..))` as [`Pending::wait`].
    pub fn try_take(self, device: &wgpu::Device) -> Result<Result<Results, Error>, Self> {
        let _ = device.poll(wgpu::PollType::Poll);
        if self.done.load(Ordering::Acquire) < self.buffers() {
            return Err(self);
        }
        Ok(self.finish())
    }

    fn finish(self) -> Result<Results, Error> {
        if let Some(e) = self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
            return Err(Error::ReadBack(e));
        }
        let read = |b: &Option<wgpu::Buffer>, n: usize, size: usize| -> Result<Vec<u8>, Error> {
            match b {
                None => Ok(Vec::new()),
                Some(b) => {
                    let view = b.slice(..).get_mapped_range().map_err(|e| Error::ReadBack(e.to_string()))?;
                    let bytes = view[..n * size].to_vec();
                    drop(view);
                    b.unmap();
                    Ok(bytes)
                }
            }
        };
        let occ_bytes = read(&self.recorded.occlusion, self.recorded.slots.div_ceil(SLOTS_PER_SET) * SLOTS_PER_SET, 8)?;
        let cnt_bytes = read(&self.recorded.counts, self.recorded.jobs, 4)?;
        let occ: Vec<u64> =
            occ_bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default())).collect();
        let cnt: Vec<u32> =
            cnt_bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default())).collect();
        let answers = self
            .recorded
            .plan
            .iter()
            .map(|p| {
                let occluded = (p.slots.0..p.slots.0 + p.slots.1).any(|s| occ.get(s).is_some_and(|&v| v != 0));
                let area: u64 =
                    (p.jobs.0..p.jobs.0 + p.jobs.1).map(|j| u64::from(cnt.get(j).copied().unwrap_or(0))).sum();
                let overlaps = if p.exact { area > 0 } else { occluded };
                Answer { overlaps, area: p.area.then_some(area) }
            })
            .collect();
        Ok(Results { answers })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    overlaps: bool,
    area: Option<u64>,
}

/// The answers of one batch, indexed by the query ids it handed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    answers: Vec<Answer>,
}

impl Results {
    /// Whether query `q` found a shared solid pixel (false for an id not in the batch).
    pub fn overlaps(&self, q: Id) -> bool {
        self.answers.get(q.0).is_some_and(|a| a.overlaps)
    }

    /// The exact shared pixel count of an [`area`](QueryBatch::area) query (`None` for other
    /// queries).
    pub fn area(&self, q: Id) -> Option<u64> {
        self.answers.get(q.0).and_then(|a| a.area)
    }

    /// Number of answers.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the batch held no query.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }
}
