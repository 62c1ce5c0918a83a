//! Offscreen rendering: demos drawn into a texture and read back as RGBA pixels or PNGs.

use crate::batch::Batch;
use crate::camera::Camera;
use crate::color::Color;
use crate::demo::Demo;
use crate::frame::{self, Target};
use crate::gpu::{Gpu, GpuError};
use crate::input::Input;
use crate::renderer::Renderer;
use std::path::Path;

/// Width of a headless frame, in pixels.
pub const WIDTH: u32 = 1280;
/// Height of a headless frame, in pixels.
pub const HEIGHT: u32 = 720;

/// The color format of headless frames: sRGB-encoded bytes, blended as egui does.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Why a rendered frame could not be read back from the GPU (a lost device, typically: a driver
/// reset or an out-of-memory on the GPU).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// Waiting for the GPU to finish the frame failed.
    #[error("waiting for the GPU to finish the frame failed: {0}")]
    Poll(#[from] wgpu::PollError),
    /// The readback buffer could not be mapped.
    #[error("the frame's readback buffer could not be mapped (the GPU device was probably lost)")]
    Map(#[from] wgpu::BufferAsyncError),
    /// The mapped range of the readback buffer could not be had.
    #[error("the frame's readback buffer could not be read: {0}")]
    Range(#[from] wgpu::MapRangeError),
}

/// Pixels read back from the GPU: RGBA8, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

impl Frame {
    /// The color at pixel `(x, y)` (origin top left), or `None` outside the frame.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<Color> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        Some(Color::from([self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]))
    }

    /// How many pixels in the rectangle `x0..x1, y0..y1` (clamped to the frame) satisfy `pred`.
    #[must_use]
    pub fn count_in(&self, x0: u32, y0: u32, x1: u32, y1: u32, pred: impl Fn(Color) -> bool) -> usize {
        let (x1, y1) = (x1.min(self.width), y1.min(self.height));
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| self.pixel(x, y).is_some_and(&pred))
            .count()
    }

    /// How many pixels of the whole frame satisfy `pred`.
    #[must_use]
    pub fn count(&self, pred: impl Fn(Color) -> bool) -> usize {
        self.count_in(0, 0, self.width, self.height, pred)
    }

    /// Writes the frame as an 8-bit RGBA PNG, atomically: into a temporary file in the same
    /// folder, renamed over `path` only once complete, so a failure (a full disk, say) leaves
    /// any file already at `path` as it was and no partial PNG behind.
    ///
    /// # Errors
    /// Any I/O or encoding error; the file at `path`, if any, is then unchanged.
    pub fn save_png(&self, path: &Path) -> std::io::Result<()> {
        crate::file::write_atomic_with(path, |out| {
            let mut encoder = png::Encoder::new(out, self.width, self.height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
            writer.write_image_data(&self.rgba).map_err(std::io::Error::other)?;
            writer.finish().map_err(std::io::Error::other)
        })
        .map_err(|e| std::io::Error::new(e.source.kind(), e.to_string()))
    }
}

/// Whether two colors are within `tolerance` on every channel (alpha ignored): for tests that
/// look for a demo's colors in a frame, where blending and anti-aliasing move edges a little.
#[must_use]
pub fn close(a: Color, b: Color, tolerance: u8) -> bool {
    a.r.abs_diff(b.r) <= tolerance && a.g.abs_diff(b.g) <= tolerance && a.b.abs_diff(b.b) <= tolerance
}

/// An offscreen renderer of [`WIDTH`]×[`HEIGHT`] frames (or any size given).
#[derive(Debug)]
pub struct Headless {
    gpu: Gpu,
    renderer: Renderer,
    ctx: egui::Context,
    size: [u32; 2],
    color: wgpu::Texture,
    msaa: Option<wgpu::Texture>,
    readback: wgpu::Buffer,
    batch: Batch,
}

impl Headless {
    /// A 1280×720 offscreen renderer on the best adapter (see [`crate::gpu`]).
    ///
    /// # Errors
    /// [`GpuError`] when no adapter or device can be had.
    pub fn new() -> Result<Self, GpuError> {
        Self::with_size(WIDTH, HEIGHT)
    }

    /// An offscreen renderer of `width`×`height` pixels (each side clamped to 1..=8192).
    ///
    /// # Errors
    /// [`GpuError`] when no adapter or device can be had.
    pub fn with_size(width: u32, height: u32) -> Result<Self, GpuError> {
        Ok(Self::from_gpu(Gpu::headless()?, width, height))
    }

    /// An offscreen renderer on a device you already have.
    #[must_use]
    pub fn from_gpu(gpu: Gpu, width: u32, height: u32) -> Self {
        let size = [width.clamp(1, 8192), height.clamp(1, 8192)];
        let flags = gpu.adapter.get_texture_format_features(FORMAT).flags;
        let samples = if flags.sample_count_supported(4) { 4 } else { 1 };
        let renderer = Renderer::new(&gpu.device, &gpu.queue, FORMAT, samples);
        let texture = |samples: u32, usage| {
            gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some("lore headless target"),
                size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format: FORMAT,
                usage,
                view_formats: &[],
            })
        };
        let color = texture(1, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC);
        let msaa = (samples > 1).then(|| texture(samples, wgpu::TextureUsages::RENDER_ATTACHMENT));
        let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lore readback"),
            size: u64::from(padded_row(size[0])) * u64::from(size[1]),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let batch = Batch::new(Camera::default(), glam::vec2(size[0] as f32, size[1] as f32));
        Self { gpu, renderer, ctx: egui::Context::default(), size, color, msaa, readback, batch }
    }

    /// The device in use.
    #[must_use]
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The renderer in use (e.g. to see in how many pieces the last batch was drawn).
    #[must_use]
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// Resets `demo` with `seed`, steps it `frames` times with no input, and renders the result
    /// through the demo's own camera.
    ///
    /// # Errors
    /// [`FrameError`] when the frame cannot be read back (the GPU device was lost).
    pub fn run(&mut self, demo: &mut dyn Demo, seed: u64, frames: u32) -> Result<Frame, FrameError> {
        demo.reset(seed);
        let input = Input::default();
        for _ in 0..frames {
            demo.step(&input);
        }
        let camera = demo.camera();
        self.render(demo, &camera)
    }

    /// Renders the demo's current state through `camera`, with a caption (name and statistics)
    /// in the bottom-left corner.
    ///
    /// # Errors
    /// [`FrameError`] when the frame cannot be read back (the GPU device was lost).
    pub fn render(&mut self, demo: &mut dyn Demo, camera: &Camera) -> Result<Frame, FrameError> {
        self.render_with(demo, camera, None)
    }

    /// [`Headless::render`] with the window's panels (`Some`) instead of the caption: the
    /// window's frames, offscreen, for tests.
    pub(crate) fn render_with(
        &mut self,
        demo: &mut dyn Demo,
        camera: &Camera,
        panels: Option<frame::Panels<'_>>,
    ) -> Result<Frame, FrameError> {
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(self.size[0] as f32, self.size[1] as f32),
            )),
            ..Default::default()
        };
        let (output, scene) = frame::layout(&self.ctx, raw, demo, camera, &mut self.batch, 1.0, panels);
        let color_view = self.color.create_view(&wgpu::TextureViewDescriptor::default());
        let msaa_view = self.msaa.as_ref().map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()));
        let target = match &msaa_view {
            Some(v) => Target { view: v, resolve: Some(&color_view), size: self.size },
            None => Target { view: &color_view, resolve: None, size: self.size },
        };
        let device = &self.gpu.device;
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lore headless") });
        frame::encode(
            device,
            &self.gpu.queue,
            &mut self.renderer,
            &mut encoder,
            &target,
            &self.batch,
            scene,
            &self.ctx,
            output,
        );
        let row = padded_row(self.size[0]);
        encoder.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(self.size[1]),
                },
            },
            self.color.size(),
        );
        self.gpu.queue.submit([encoder.finish()]);
        self.read_back(row)
    }

    fn read_back(&self, row: u32) -> Result<Frame, FrameError> {
        let slice = self.readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            // The receiver lives until after the poll below; a failed send cannot happen.
            let _ = tx.send(r);
        });
        self.gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
        // A callback that never ran (the device was lost before it could) counts as a failed map.
        rx.try_recv().unwrap_or(Err(wgpu::BufferAsyncError))?;
        let [w, h] = self.size;
        let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
        {
            let data = slice.get_mapped_range()?;
            for y in 0..h as usize {
                let start = y * row as usize;
                rgba.extend_from_slice(&data[start..start + w as usize * 4]);
            }
        }
        self.readback.unmap();
        Ok(Frame { width: w, height: h, rgba })
    }
}

/// Bytes per row of a readback, padded to wgpu's copy alignment.
fn padded_row(width: u32) -> u32 {
    let unpadded = width * 4;
    unpadded.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::test_dirs::{entries, scratch as temp_dir};

    #[test]
    fn a_complete_write_replaces_the_file() {
        let dir = temp_dir("complete-write");
        let path = dir.join("shot.png");
        std::fs::write(&path, b"the old picture").unwrap();
        let frame = Frame { width: 2, height: 1, rgba: vec![255, 0, 0, 255, 0, 0, 255, 255] };
        frame.save_png(&path).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (2, 1));
        assert_eq!(&buf[..info.buffer_size()], &frame.rgba[..]);
        assert_eq!(entries(&dir), ["shot.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error_and_writes_nothing() {
        let dir = temp_dir("missing-folder");
        let frame = Frame { width: 1, height: 1, rgba: vec![0; 4] };
        assert!(frame.save_png(&dir.join("nope").join("shot.png")).is_err());
        assert!(entries(&dir).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
