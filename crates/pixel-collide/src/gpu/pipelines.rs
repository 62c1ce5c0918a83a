//! Device setup: the stencil target, the bind group layouts and the pipelines of a
//! [`GpuCollider`].

use super::{GpuOptions, SHADER};

/// Pipelines and the collision target; reuse one for every batch.
///
/// Example: one batch, one submission, one read-back.
///
/// ```no_run
/// # fn f(device: &wgpu::Device, queue: &wgpu::Queue, player: &lore_pixel_collide::Sprite,
/// #      rock: &lore_pixel_collide::Sprite) -> Result<(), lore_pixel_collide::Error> {
/// use lore_pixel_collide::{GpuCollider, Pose, QueryBatch, glam::Vec2};
/// let collider = GpuCollider::new(device);
/// let mut batch = QueryBatch::new();
/// let (ps, rs) = (batch.add_sprite(player), batch.add_sprite(rock));
/// let me = batch.add_object(ps, Pose::at(Vec2::new(100.0, 100.0)))?;
/// let rocks: Vec<_> = (0..10)
///     .map(|i| batch.add_object(rs, Pose::at(Vec2::new(40.0 * i as f32, 110.0)).rotated(0.1 * i as f32)))
///     .collect::<Result<_, _>>()?;
/// let all_rocks = batch.add_group(&rocks)?;
/// let hit_any = batch.group(me, all_rocks)?;
/// let exact = batch.area(me, rocks[2])?;
/// let results = collider.run(device, queue, &batch)?;
/// println!("hit: {}, area with rock 2: {:?}", results.overlaps(hit_any), results.area(exact));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct GpuCollider {
    pub(super) options: GpuOptions,
    pub(super) stencil: wgpu::TextureView,
    pub(super) write: wgpu::RenderPipeline,
    pub(super) test: wgpu::RenderPipeline,
    pub(super) mesh_write: wgpu::RenderPipeline,
    pub(super) mesh_test: wgpu::RenderPipeline,
    pub(super) area: wgpu::ComputePipeline,
    pub(super) render_layout: wgpu::BindGroupLayout,
    pub(super) compute_layout: wgpu::BindGroupLayout,
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
}
