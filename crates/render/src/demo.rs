//! The contract between a demo and the runner.
//!
//! A demo is a small simulation that advances in fixed steps of [`DT`] seconds, draws itself
//! into a [`Batch`], and may show an egui side panel and one line of statistics. The same demo
//! runs in a window (with input) and headless (stepping `--frames` times with no input, then
//! writing one PNG), so a demo must look meaningful after its steps without anyone touching it.
//!
//! ```
//! use lore_render::{Batch, Camera, Color, Input, demo::{Demo, DT}, glam::{Vec2, vec2}};
//!
//! #[derive(Debug, Default)]
//! struct Orbit { angle: f32 }
//!
//! impl Demo for Orbit {
//!     fn name(&self) -> &'static str { "orbit" }
//!     fn reset(&mut self, _seed: u64) { self.angle = 0.0; }
//!     fn step(&mut self, _input: &Input) { self.angle += DT; }
//!     fn draw(&self, batch: &mut Batch) {
//!         batch.disk(5.0 * Vec2::from_angle(self.angle), 1.0, Color::YELLOW);
//!     }
//!     fn stats(&self) -> String { format!("angle {:.2} rad", self.angle) }
//! }
//!
//! let mut demo = Orbit::default();
//! demo.reset(1);
//! for _ in 0..60 { demo.step(&Input::default()); }
//! assert!((demo.angle - 1.0).abs() < 1e-4);
//! ```

use crate::batch::Batch;
use crate::camera::Camera;
use crate::input::Input;

/// The fixed time step, in seconds, of every demo (60 steps per second).
pub const DT: f32 = 1.0 / 60.0;

/// A demo the runner can show in a window or render headless.
///
/// Call order: [`reset`](Demo::reset) once with the run's seed (and again whenever the user
/// asks for a reset), then for every frame zero or more [`step`](Demo::step)s followed by one
/// [`draw`](Demo::draw), [`ui`](Demo::ui) (windowed only) and [`stats`](Demo::stats).
pub trait Demo {
    /// Short lowercase name: the menu entry, the `--demo` value and the PNG file name.
    fn name(&self) -> &'static str;

    /// One sentence shown in the menu and the window's side panel.
    fn description(&self) -> &'static str {
        ""
    }

    /// Restarts from scratch with `seed`; the same seed must give the same run.
    fn reset(&mut self, seed: u64);

    /// Advances the simulation by [`DT`] seconds.
    fn step(&mut self, input: &Input);

    /// Draws the current state.
    fn draw(&self, batch: &mut Batch);

    /// The camera to start from after a reset. The user may then pan and zoom (right or middle
    /// drag, wheel); `Camera::fit` frames a world rectangle.
    fn camera(&self) -> Camera {
        Camera::default()
    }

    /// Whether the demo uses the mouse wheel itself; when false, the wheel zooms the camera.
    fn wants_wheel(&self) -> bool {
        false
    }

    /// The demo's own keys and mouse actions, as (input, what it does) pairs, e.g.
    /// `&[("left click", "drop a ball"), ("S", "show the solution")]`. The window's help overlay
    /// (open on the first frame, F1 toggles it) lists them under the controls every demo shares
    /// (pan, zoom, reset, pause). Use characters the bundled font has ([`crate::glyphs`]).
    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Whether the scene changes on its own between inputs. A window redraws continuously only
    /// while this is true (or the run is frame-limited, or egui animates); a demo that changes
    /// only in answer to input (an editor) returns false, and its window then sleeps until the
    /// next event instead of using the CPU while idle.
    fn animating(&self) -> bool {
        true
    }

    /// Controls for the side panel (windowed runs only).
    fn ui(&mut self, ui: &mut egui::Ui) {
        let _ = ui;
    }

    /// One line of statistics, shown under the scene and printed after a headless run.
    fn stats(&self) -> String {
        String::new()
    }

    /// Why the demo's configuration is invalid (e.g. a maze of 0 points), or `None` when it is
    /// fine. A demo given bad settings keeps running (so a window can show the problem and let
    /// the user fix it) but reports it here after [`reset`](Demo::reset): a headless run then
    /// fails with [`RunError::Config`](crate::RunError::Config) and writes no PNG, so the app
    /// exits non-zero; a window shows the message in red in the side panel.
    fn config_error(&self) -> Option<String> {
        None
    }
}
