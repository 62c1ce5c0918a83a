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
    /// In a browser (wasm32) there is no offscreen device to block on: this returns
    /// [`GpuError::NoAdapter`] saying so, and callers take their CPU path (the web runner gets
    /// its device asynchronously, with the page's canvas, through [`Gpu::from_instance_async`]).
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] (naming the package to install) or [`GpuError::Device`].
    pub fn headless() -> Result<Self, GpuError> {
        if cfg!(target_arch = "wasm32") {
            return Err(GpuError::NoAdapter { detail: NO_BLOCKING_DEVICE_IN_A_BROWSER.to_string() });
        }
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::from_instance(instance, None)
    }

    /// An offscreen device held to `limits` (each at most what the adapter offers), e.g. a
    /// small `max_buffer_size` to check that work is split within the device's limits.
    ///
    /// # Errors
    /// As [`Gpu::headless`]; [`GpuError::Device`] when the adapter cannot meet `limits`.
    pub fn headless_with_limits(limits: wgpu::Limits) -> Result<Self, GpuError> {
        if cfg!(target_arch = "wasm32") {
            return Err(GpuError::NoAdapter { detail: NO_BLOCKING_DEVICE_IN_A_BROWSER.to_string() });
        }
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pick_adapter(&instance, None)?;
        pollster::block_on(Self::from_adapter(instance, adapter, limits))
    }

    /// A device from `instance`, able to present to `surface` when one is given (blocking:
    /// on the desktop only; in a browser use [`Gpu::from_instance_async`]).
    ///
    /// # Errors
    /// As [`Gpu::headless`].
    pub fn from_instance(instance: wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Result<Self, GpuError> {
        pollster::block_on(Self::from_instance_async(instance, surface))
    }

    /// [`Gpu::from_instance`] without blocking: what the web runner awaits. In a browser the
    /// adapter is the one the browser offers for `surface` (WebGPU when the instance has it,
    /// otherwise WebGL2, whose limits the device is held to).
    ///
    /// # Errors
    /// As [`Gpu::headless`].
    pub async fn from_instance_async(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, GpuError> {
        let adapter = pick_adapter_async(&instance, surface).await?;
        let base = if cfg!(target_arch = "wasm32") {
            wgpu::Limits::downlevel_webgl2_defaults()
        } else {
            wgpu::Limits::downlevel_defaults()
        };
        let limits = base.using_resolution(adapter.limits());
        Self::from_adapter(instance, adapter, limits).await
    }

    async fn from_adapter(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        limits: wgpu::Limits,
    ) -> Result<Self, GpuError> {
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("lore device"),
                required_limits: limits,
                ..Default::default()
            })
            .await?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// One line describing the adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    #[must_use]
    pub fn describe(&self) -> String {
        describe(&self.adapter.get_info())
    }
}

/// Why [`Gpu::headless`] finds nothing in a browser.
const NO_BLOCKING_DEVICE_IN_A_BROWSER: &str = " (in a browser a device comes only asynchronously, with the page's \
     canvas; a second, blocking one cannot be had, so the CPU path runs)";

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
    pollster::block_on(pick_adapter_async(instance, surface))
}

/// [`pick_adapter`] without blocking. In a browser, the adapter the browser offers for
/// `surface` (WebGL2 has one only with a canvas).
///
/// # Errors
/// [`GpuError::NoAdapter`] when none qualifies.
pub async fn pick_adapter_async(
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter, GpuError> {
    if cfg!(target_arch = "wasm32") {
        return instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                compatible_surface: surface,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::NoAdapter { detail: format!(" in this browser ({e})") });
    }
    let wanted_name = std::env::var("WGPU_ADAPTER_NAME").ok().map(|s| s.to_lowercase());
    let all = instance.enumerate_adapters(wgpu::Backends::all()).await;
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
