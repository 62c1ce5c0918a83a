//! The GPU side of a [`Batch`]: one pipeline, growing vertex/index buffers, textures uploaded
//! on first use, and egui (panels and text labels) drawn on top in the same pass.
//!
//! A batch whose vertices or indices do not fit in one buffer of the device's
//! `max_buffer_size` is split into pieces that do (see `split`), each drawn from its own pair
//! of buffers: any batch size draws.

use crate::batch::{Anchor, Batch, Label, Vertex};
use crate::split::{Piece, split};
use crate::texture::Texture;
use std::collections::HashMap;
use wgpu::util::DeviceExt;

/// A texture uploaded to the GPU with its bind group.
#[derive(Debug)]
struct GpuTexture {
    bind_group: wgpu::BindGroup,
    last_used: u64,
}

/// Draws [`Batch`]es (and egui output) into a color target of one format.
pub struct Renderer {
    format: wgpu::TextureFormat,
    samples: u32,
    pipeline: wgpu::RenderPipeline,
    texture_layout: wgpu::BindGroupLayout,
    globals: wgpu::Buffer,
    globals_bind: wgpu::BindGroup,
    nearest: wgpu::Sampler,
    linear: wgpu::Sampler,
    white: wgpu::BindGroup,
    textures: HashMap<u64, GpuTexture>,
    /// One vertex and one index buffer per piece of the last batch prepared.
    buffers: Vec<PieceBuffers>,
    /// The pieces of the last batch prepared.
    pieces: Vec<Piece>,
    /// The largest buffer made, in bytes: the device's `max_buffer_size`.
    max_buffer_size: u64,
    frame: u64,
    /// egui's renderer, shared by panels and labels.
    pub egui: egui_wgpu::Renderer,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("format", &self.format)
            .field("samples", &self.samples)
            .field("textures", &self.textures.len())
            .field("frame", &self.frame)
            .finish_non_exhaustive()
    }
}

/// The vertex and index buffer of one piece of a batch.
#[derive(Debug)]
struct PieceBuffers {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
}

/// Textures unused for this many frames are dropped from the GPU.
const TEXTURE_TTL_FRAMES: u64 = 300;

impl Renderer {
    /// A renderer for targets of `format` with `samples` samples per pixel (1 or 4).
    #[must_use]
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, format: wgpu::TextureFormat, samples: u32) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("lore batch shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
        });
        let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lore globals layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let texture_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lore texture layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lore batch layout"),
            bind_group_layouts: &[Some(&globals_layout), Some(&texture_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("lore batch pipeline"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<crate::batch::Vertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Unorm8x4],
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lore globals"),
            size: 64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let globals_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lore globals"),
            layout: &globals_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });
        let sampler = |filter| {
            device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("lore sampler"),
                mag_filter: filter,
                min_filter: filter,
                ..Default::default()
            })
        };
        let nearest = sampler(wgpu::FilterMode::Nearest);
        let linear = sampler(wgpu::FilterMode::Linear);
        let white_tex = device.create_texture_with_data(
            queue,
            &texture_desc(1, 1),
            wgpu::util::TextureDataOrder::LayerMajor,
            &[255; 4],
        );
        let white = texture_bind(device, &texture_layout, &white_tex, &nearest);
        let egui = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions { msaa_samples: samples, ..Default::default() },
        );
        Self {
            format,
            samples,
            pipeline,
            texture_layout,
            globals,
            globals_bind,
            nearest,
            linear,
            white,
            textures: HashMap::new(),
            buffers: Vec::new(),
            pieces: Vec::new(),
            max_buffer_size: device.limits().max_buffer_size,
            frame: 0,
            egui,
        }
    }

    /// The color format this renderer draws into.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Samples per pixel of the targets it draws into.
    #[must_use]
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// The largest GPU buffer this renderer makes, in bytes (the device's `max_buffer_size`);
    /// bigger batches are drawn in pieces.
    #[must_use]
    pub fn max_buffer_size(&self) -> u64 {
        self.max_buffer_size
    }

    /// Uploads the batch's geometry, camera and new textures. Call once per frame before
    /// [`Renderer::draw`].
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, batch: &Batch) {
        self.frame += 1;
        let vp = batch.camera().view_projection(batch.viewport());
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&vp));
        self.upload_geometry(device, queue, batch);
        for texture in batch.commands().iter().filter_map(|c| c.texture.as_ref()) {
            let frame = self.frame;
            if let Some(t) = self.textures.get_mut(&texture.id()) {
                t.last_used = frame;
                continue;
            }
            let gpu = upload_texture(device, queue, texture);
            let sampler = if texture.is_smooth() { &self.linear } else { &self.nearest };
            let bind_group = texture_bind(device, &self.texture_layout, &gpu, sampler);
            self.textures.insert(texture.id(), GpuTexture { bind_group, last_used: frame });
        }
        let frame = self.frame;
        self.textures.retain(|_, t| frame - t.last_used < TEXTURE_TTL_FRAMES);
    }

    /// Splits the batch's triangles into pieces that fit the device's buffers and uploads each
    /// piece into its own vertex and index buffer (grown as needed, never beyond the limit).
    fn upload_geometry(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, batch: &Batch) {
        const VERTEX: u64 = std::mem::size_of::<Vertex>() as u64;
        let max_vertices = (self.max_buffer_size / VERTEX).min(u64::from(u32::MAX)) as u32;
        let max_indices = (self.max_buffer_size / 4).min(u64::from(u32::MAX)) as u32;
        let (vertices, indices) = (batch.vertices(), batch.indices());
        self.pieces = split(indices, vertices.len(), max_vertices, max_indices);
        // Buffers of pieces no longer needed are freed; missing ones are made below.
        self.buffers.truncate(self.pieces.len());
        for (k, piece) in self.pieces.iter().enumerate() {
            let r = piece.indices();
            let part = &indices[r.start as usize..r.end as usize];
            let (piece_vertices, piece_indices): (std::borrow::Cow<'_, [Vertex]>, std::borrow::Cow<'_, [u32]>) =
                match piece {
                    Piece::Span { first_vertex: 0, vertex_count, .. } => {
                        (vertices[..*vertex_count as usize].into(), part.into())
                    }
                    Piece::Span { first_vertex, vertex_count, .. } => {
                        let first = *first_vertex as usize;
                        let range = &vertices[first..first + *vertex_count as usize];
                        (range.into(), part.iter().map(|i| i - first_vertex).collect::<Vec<_>>().into())
                    }
                    Piece::Loose { .. } => (
                        part.iter().map(|&i| vertices[i as usize]).collect::<Vec<_>>().into(),
                        (0..part.len() as u32).collect::<Vec<_>>().into(),
                    ),
                };
            if k == self.buffers.len() {
                let empty = |usage| make_buffer(device, usage, (1 << 16).min(self.max_buffer_size));
                self.buffers.push(PieceBuffers {
                    vertices: empty(wgpu::BufferUsages::VERTEX),
                    indices: empty(wgpu::BufferUsages::INDEX),
                });
            }
            let buffers = &mut self.buffers[k];
            let limit = self.max_buffer_size;
            let bytes: &[u8] = bytemuck::cast_slice(&piece_vertices);
            ensure_buffer(device, queue, &mut buffers.vertices, bytes, wgpu::BufferUsages::VERTEX, limit);
            let bytes: &[u8] = bytemuck::cast_slice(&piece_indices);
            ensure_buffer(device, queue, &mut buffers.indices, bytes, wgpu::BufferUsages::INDEX, limit);
        }
    }

    /// Number of pieces (each with its own vertex and index buffer) the last batch prepared was
    /// drawn in: 1 unless it did not fit in one buffer of the device's limit (0 when empty).
    #[must_use]
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// Records the batch's draw calls into `pass` (whose viewport the caller has set). `batch`
    /// must be the one last given to [`Renderer::prepare`].
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, batch: &Batch) {
        if batch.indices().is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.globals_bind, &[]);
        let commands = batch.commands();
        for (piece, buffers) in self.pieces.iter().zip(&self.buffers) {
            let r = piece.indices();
            pass.set_vertex_buffer(0, buffers.vertices.slice(..));
            pass.set_index_buffer(buffers.indices.slice(..), wgpu::IndexFormat::Uint32);
            // Commands are in index order: start at the first one ending after the piece starts.
            let first = commands.partition_point(|c| c.first_index + c.index_count <= r.start);
            for cmd in commands[first..].iter().take_while(|c| c.first_index < r.end) {
                let (start, end) = (cmd.first_index.max(r.start), (cmd.first_index + cmd.index_count).min(r.end));
                if start >= end {
                    continue;
                }
                let bind = match &cmd.texture {
                    Some(t) => self.textures.get(&t.id()).map_or(&self.white, |g| &g.bind_group),
                    None => &self.white,
                };
                pass.set_bind_group(1, bind, &[]);
                pass.draw_indexed(start - r.start..end - r.start, 0, 0..1);
            }
        }
    }
}

fn make_buffer(device: &wgpu::Device, usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: buffer_label(usage),
        size,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Writes `data` into `buffer`, replacing it with a larger one when needed: the next power of
/// two, but never more than `limit` bytes (`data` itself is at most `limit` bytes: the pieces
/// are cut so).
fn ensure_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &mut wgpu::Buffer,
    data: &[u8],
    usage: wgpu::BufferUsages,
    limit: u64,
) {
    if data.is_empty() {
        return;
    }
    // wgpu wants copy sizes in multiples of 4; vertices and u32 indices always are.
    let len = data.len() as u64;
    debug_assert!(len <= limit, "a piece of {len} bytes over the {limit}-byte limit");
    if buffer.size() < len {
        *buffer = make_buffer(device, usage, len.next_power_of_two().min(limit).max(len));
    }
    queue.write_buffer(buffer, 0, data);
}

fn buffer_label(usage: wgpu::BufferUsages) -> Option<&'static str> {
    Some(if usage.contains(wgpu::BufferUsages::VERTEX) { "lore vertices" } else { "lore indices" })
}

fn texture_desc(width: u32, height: u32) -> wgpu::TextureDescriptor<'static> {
    wgpu::TextureDescriptor {
        label: Some("lore sprite texture"),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    }
}

fn upload_texture(device: &wgpu::Device, queue: &wgpu::Queue, texture: &Texture) -> wgpu::Texture {
    device.create_texture_with_data(
        queue,
        &texture_desc(texture.width(), texture.height()),
        wgpu::util::TextureDataOrder::LayerMajor,
        texture.rgba(),
    )
}

fn texture_bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    texture: &wgpu::Texture,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("lore texture"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    })
}

/// Paints the batch's text labels with egui into `rect` (the scene's area, in points);
/// label positions and sizes are in pixels, hence `pixels_per_point`.
pub fn paint_labels(painter: &egui::Painter, batch: &Batch, rect: egui::Rect, pixels_per_point: f32) {
    for label in batch.labels() {
        let Label { pos, text, size, color, anchor, screen } = label;
        let px = if *screen { *pos } else { batch.camera().world_to_screen(*pos, batch.viewport()) };
        let at = rect.min + egui::vec2(px.x, px.y) / pixels_per_point;
        let align = match anchor {
            Anchor::Center => egui::Align2::CENTER_CENTER,
            Anchor::Left => egui::Align2::LEFT_CENTER,
            Anchor::Right => egui::Align2::RIGHT_CENTER,
        };
        painter.text(at, align, text, egui::FontId::proportional(*size / pixels_per_point), (*color).into());
    }
}
