//! Device setup: the render target, the bind group layout and the two pipelines of a
//! [`GpuCollider`].

use super::{GpuOptions, SHADER};

/// The pair quads' render target: depth only, never tested or written.
const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth16Unorm;

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
    /// The render target the pair quads are drawn over (its contents are never used: the
    /// fragments write their answers to a storage buffer).
    pub(super) target: wgpu::TextureView,
    /// Pair quads; `None` where fragment shaders cannot write storage buffers (wgpu's GL
    /// backend), and every query then takes the exact compute path.
    pub(super) pair: Option<wgpu::RenderPipeline>,
    pub(super) area: wgpu::ComputePipeline,
    pub(super) layout: wgpu::BindGroupLayout,
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
        let target = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("pixel-collide target"),
                size: wgpu::Extent3d { width: side, height: side, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: TARGET_FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
            .create_view(&wgpu::TextureViewDescriptor::default());
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("pixel-collide"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        // Fragment-stage writable storage (the pair answers) is not on wgpu's GL backend.
        let quads = device.adapter_info().backend != wgpu::Backend::Gl;
        let (v, f, c) = (wgpu::ShaderStages::VERTEX, wgpu::ShaderStages::FRAGMENT, wgpu::ShaderStages::COMPUTE);
        let f = if quads { f } else { wgpu::ShaderStages::NONE };
        let v = if quads { v } else { wgpu::ShaderStages::NONE };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("pixel-collide"),
            entries: &[
                storage(0, c, true),
                storage(1, f | c, true),
                uniform(2, v | c),
                storage(3, c, true),
                storage(4, f | c, false),
                storage(5, v, true),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("pixel-collide"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pair = quads.then(|| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("pixel-collide pairs"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_pair"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: TARGET_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_pair"),
                    compilation_options: Default::default(),
                    targets: &[],
                }),
                multiview_mask: None,
                cache: None,
            })
        });
        let area = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("pixel-collide area"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("area"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { options, target, pair, area, layout }
    }

    /// The options in use.
    pub fn options(&self) -> GpuOptions {
        self.options
    }

    /// Whether sprite pairs are drawn as quads in the render pass. When not (wgpu's GL backend,
    /// which has no writable storage in the fragment stage, or `confirm_hits`), every pair is
    /// an exact-area job of the compute pass: the same answers, one dispatch instead of one draw.
    pub fn draws_pairs(&self) -> bool {
        self.pair.is_some() && !self.options.confirm_hits
    }
}
