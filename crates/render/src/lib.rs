//! The small wgpu layer lore's demo apps share.
//!
//! - [`Demo`]: the contract every demo implements — a fixed time step
//!   ([`demo::DT`]), a seed, drawing into a [`Batch`], an optional egui side panel and one line
//!   of statistics;
//! - [`Batch`]: a 2D batch of lines, disks, circles, rectangles, polygons, sprites and text
//!   labels in world coordinates (y up), seen through a [`Camera`] (pan, zoom);
//! - [`run()`]: the shared runner — a window (feature `window`: winit + wgpu surface + egui) on
//!   every desktop or, with `--headless` or on Linux/BSD without a display
//!   ([`args::headless_wanted`]), 1280×720 offscreen frames written atomically as PNGs, through
//!   the same draw code;
//! - [`RunArgs`]: the shared flags (`--headless`, `--frames N`, `--out DIR`, `--seed S`) as a
//!   clap struct apps flatten into their own parsers (feature `clap`);
//! - [`glyphs`]: which characters the bundled fonts draw, so labels never show empty boxes;
//! - [`web`]: the same runner in a browser page (wasm32 with `window`: winit's web backend,
//!   WebGPU or WebGL2), the page's address choosing the demo, seed and frames;
//! - [`gpu`]: adapter selection that works without a GPU (Vulkan lavapipe first, GL llvmpipe
//!   as fallback) and says which Debian package to install when nothing is found.
//!
//! # Example: a demo rendered headless
//!
//! ```no_run
//! use lore_render::{Batch, Color, Input, demo::Demo, headless::Headless, glam::vec2};
//!
//! struct Dot;
//! impl Demo for Dot {
//!     fn name(&self) -> &'static str { "dot" }
//!     fn reset(&mut self, _seed: u64) {}
//!     fn step(&mut self, _input: &Input) {}
//!     fn draw(&self, batch: &mut Batch) { batch.disk(vec2(0.0, 0.0), 2.0, Color::RED); }
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut headless = Headless::new()?;
//! let frame = headless.run(&mut Dot, 1, 10)?;
//! assert!(lore_render::headless::close(frame.pixel(640, 360).unwrap(), Color::RED, 2));
//! frame.save_png(std::path::Path::new("dot.png"))?;
//! # Ok(()) }
//! ```
//!
//! # Conventions
//!
//! World space is y-up in world units; pixels (origin top left, y down) appear only in
//! [`Camera::screen_to_world`] / [`Camera::world_to_screen`] and screen-space labels. Colors
//! are sRGB bytes ([`Color`]) and blending happens in sRGB space, like egui.
//!
//! # Feature flags
//!
//! - `clap` (default): [`RunArgs`] derives `clap::Args`; without it, it is a plain struct.
//! - `window`: the windowed runner (winit, egui-winit). Without it [`run()`] is headless only
//!   and returns [`RunError::NoWindowSupport`] when a window is asked for.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod args;
pub mod batch;
pub mod camera;
pub mod color;
pub mod demo;
pub mod error;
pub mod file;
mod frame;
pub mod glyphs;
pub mod gpu;
pub mod headless;
#[cfg_attr(not(feature = "window"), allow(dead_code))] // the window shows it
mod help;
pub mod input;
#[cfg(all(target_arch = "wasm32", feature = "window"))]
mod page;
pub mod renderer;
pub mod run;
mod split;
pub mod texture;
pub mod web;
#[cfg(feature = "window")]
mod window;

/// Clocks for demos that time their work: `Instant` is std's on the desktop and the page's
/// `performance.now()` in a browser, where std's panics (wasm32-unknown-unknown has no clock).
pub mod time {
    pub use web_time::Instant;
}

pub use args::RunArgs;
pub use batch::{Anchor, Batch};
pub use camera::Camera;
pub use color::Color;
pub use demo::Demo;
/// The egui version the side panels use, re-exported so apps match it.
pub use egui;
pub use error::RunError;
/// The glam version of every lore API, re-exported for convenience.
pub use glam;
pub use input::{Input, Key, MouseButton};
pub use run::{Shot, run};
pub use texture::Texture;

/// The guide's examples (docs/render.md), compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/render.md")]
struct GuideDoctests;
