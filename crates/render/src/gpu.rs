//! Adapter and device selection that also works on machines without a GPU.
//!
//! Order of preference: a discrete GPU, an integrated one, a virtual one, then software
//! rasterizers — Vulkan first (Mesa's lavapipe, Debian package `mesa-vulkan-drivers`), then GL
//! (Mesa's llvmpipe through EGL). `WGPU_BACKEND` (e.g. `gl`, `vulkan`) limits the backends
//! tried and `WGPU_ADAPTER_NAME` picks adapters whose name contains that text, as in wgpu's own
//! helpers.

/// The Debian package that provides a software Vulkan driver.
pub const SOFTWARE_DRIVER_PACKAGE: &str = "mesa-vulkan-drivers";

/// Why no device could be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter was found (or none could present to the window's surface).
    #[error(
        "no graphics adapter found{detail}; on Debian/Ubuntu install the software Vulkan driver \
         with `sudo apt-get install {SOFTWARE_DRIVER_PACKAGE}` (or run scripts/demo.sh, which does)"
    )]
    NoAdapter {
        /// What was looked at, for the message (may be empty).
        detail: String,
    },
    /// The adapter refused to create a device.
    #[error("the graphics adapter refused to create a device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// The window's surface could not be created.
    #[error("could not create a drawing surface for the window: {0}")]
    Surface(#[from] wgpu::CreateSurfaceError),
}

/// An adapter with its device and queue.
#[derive(Debug)]
pub struct Gpu {
    /// The instance the adapter came from.
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A device for offscreen work (no window), chosen as described in the module docs.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] (naming the package to install) or [`GpuError::Device`].
    pub fn headless() -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::from_instance(instance, None)
    }

    /// An offscreen device held to `limits` (each at most what the adapter offers), e.g. a
    /// small `max_buffer_size` to check that work is split within the device's limits.
    ///
    /// # Errors
    /// As [`Gpu::headless`]; [`GpuError::Device`] when the adapter cannot meet `limits`.
    pub fn headless_with_limits(limits: wgpu::Limits) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pick_adapter(&instance, None)?;
        Self::from_adapter(instance, adapter, limits)
    }

    /// A device from `instance`, able to present to `surface` when one is given.
    ///
    /// # Errors
    /// As [`Gpu::headless`].
    pub fn from_instance(instance: wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Result<Self, GpuError> {
        let adapter = pick_adapter(&instance, surface)?;
        let limits = wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits());
        Self::from_adapter(instance, adapter, limits)
    }

    fn from_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter, limits: wgpu::Limits) -> Result<Self, GpuError> {
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("lore device"),
            required_limits: limits,
            ..Default::default()
        }))?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// One line describing the adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    #[must_use]
    pub fn describe(&self) -> String {
        describe(&self.adapter.get_info())
    }
}

/// One line describing an adapter.
#[must_use]
pub fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

/// Rank of an adapter: lower is better.
fn rank(info: &wgpu::AdapterInfo) -> (u8, u8) {
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
}

/// Picks the best adapter of `instance` (see the module docs), able to present to `surface`
/// when one is given.
///
/// # Errors
/// [`GpuError::NoAdapter`] when none qualifies.
pub fn pick_adapter(instance: &wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Result<wgpu::Adapter, GpuError> {
    let wanted_name = std::env::var("WGPU_ADAPTER_NAME").ok().map(|s| s.to_lowercase());
    let all = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let seen: Vec<String> = all.iter().map(|a| describe(&a.get_info())).collect();
    let best = all
        .into_iter()
        .filter(|a| surface.is_none_or(|s| a.is_surface_supported(s)))
        .filter(|a| wanted_name.as_ref().is_none_or(|n| a.get_info().name.to_lowercase().contains(n)))
        .min_by_key(|a| rank(&a.get_info()));
    best.ok_or_else(|| GpuError::NoAdapter {
        detail: if seen.is_empty() { String::new() } else { format!(" that fits (seen: {})", seen.join("; ")) },
    })
}
