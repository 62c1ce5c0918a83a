//! A device for the GPU tests, chosen as lore-render's `gpu` module chooses one (a hardware
//! adapter first, then Mesa's lavapipe on Vulkan, then llvmpipe on GL). It is repeated here, in
//! a few lines, rather than taken from lore-render so that the crate's dependency tree without
//! its `gpu` feature holds no wgpu, dev-dependencies included.
#![allow(dead_code)] // each test file uses part of it

/// An adapter with its device and queue.
pub struct Gpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// The best adapter of the backends `WGPU_BACKEND` allows (all by default).
    pub fn headless() -> Result<Self, String> {
        Self::from_instance(wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env()), None)
    }

    /// The best adapter of `instance` (`surface` is always `None` here, as in lore-render's call).
    pub fn from_instance(instance: wgpu::Instance, surface: Option<()>) -> Result<Self, String> {
        let _ = surface;
        let rank = |info: &wgpu::AdapterInfo| {
            let kind = match info.device_type {
                wgpu::DeviceType::DiscreteGpu => 0,
                wgpu::DeviceType::IntegratedGpu => 1,
                wgpu::DeviceType::VirtualGpu => 2,
                wgpu::DeviceType::Other => 3,
                wgpu::DeviceType::Cpu => 4,
            };
            let backend = match info.backend {
                wgpu::Backend::Vulkan => 0,
                wgpu::Backend::Metal => 1,
                wgpu::Backend::Dx12 => 2,
                wgpu::Backend::Gl => 3,
                _ => 4,
            };
            (kind, backend)
        };
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let adapter = adapters.into_iter().min_by_key(|a| rank(&a.get_info())).ok_or_else(|| {
            "no graphics adapter found; on Debian/Ubuntu install the software Vulkan driver with \
             `sudo apt-get install mesa-vulkan-drivers`"
                .to_string()
        })?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("pixel-collide tests"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| e.to_string())?;
        Ok(Self { adapter, device, queue })
    }

    /// One line describing the adapter.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }
}
