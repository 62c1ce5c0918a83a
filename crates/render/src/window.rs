//! The windowed runner (feature `window`): winit + a wgpu surface + egui panels.
//!
//! Controls: the side panel switches demos, resets (with a seed), pauses and single-steps;
//! right or middle drag pans, the wheel zooms (unless the demo wants it), `Home` in the panel
//! resets the camera. A help overlay listing these and the demo's own controls
//! ([`Demo::help`]) is open on the first frame; F1 or the panel's Help button toggles it.
//!
//! Built for wasm32 the same runner draws into a canvas of the page (winit's web backend): the
//! device comes asynchronously (WebGPU where the browser has it, WebGL2 otherwise) and arrives
//! as a user event; see [`crate::web`].

use crate::args::RunArgs;
use crate::batch::Batch;
use crate::camera::Camera;
use crate::demo::{DT, Demo};
use crate::error::RunError;
use crate::frame::{self, Target};
use crate::gpu::Gpu;
use crate::input::{Input, Key, MouseButton};
use crate::renderer::Renderer;
use glam::{Vec2, vec2};
use std::sync::Arc;
use web_time::Instant;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop, EventLoopProxy};
use winit::keyboard::{Key as WKey, NamedKey};
use winit::window::{Window, WindowId};

/// Most simulation steps taken in one frame when the window falls behind.
const MAX_STEPS_PER_FRAME: u32 = 4;

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn run(demos: Vec<Box<dyn Demo>>, args: &RunArgs) -> Result<(), RunError> {
    let event_loop = EventLoop::with_user_event().build().map_err(|e| RunError::Window(e.to_string()))?;
    let mut app = App::new(demos, args, Options::default(), event_loop.create_proxy());
    event_loop.run_app(&mut app).map_err(|e| RunError::Window(e.to_string()))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Starts the runner in the page and returns at once (the browser drives the event loop).
#[cfg(target_arch = "wasm32")]
pub(crate) fn spawn(demos: Vec<Box<dyn Demo>>, args: &RunArgs, options: Options) -> Result<(), RunError> {
    use winit::platform::web::EventLoopExtWebSys;
    let event_loop = EventLoop::with_user_event().build().map_err(|e| RunError::Window(e.to_string()))?;
    let app = App::new(demos, args, options, event_loop.create_proxy());
    event_loop.spawn_app(app);
    Ok(())
}

/// How the runner frames its demos.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    /// The demo shown first (an index into the demos).
    pub start: usize,
    /// A headless-style frame: no panels, the caption in the corner, the scene filling a
    /// 1280×720 canvas, so that it can be compared with [`crate::headless`]'s frame.
    pub shot: bool,
}

/// What the runner sends itself: the device, which a browser gives asynchronously.
pub(crate) enum UserEvent {
    /// The surface and device for the window, or why there is none.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the desktop gets its device at once
    Ready(Box<Result<(wgpu::Surface<'static>, Gpu), RunError>>),
}

/// One line for the user: stdout on the desktop, the browser's console on the web.
fn say(line: &str) {
    #[cfg(target_arch = "wasm32")]
    crate::page::console_log(line);
    #[cfg(not(target_arch = "wasm32"))]
    println!("{line}");
}

struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    gpu: Gpu,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    msaa: Option<wgpu::Texture>,
    egui_state: egui_winit::State,
}

/// State of the controls in the side panel.
struct Controls {
    current: usize,
    seed: u64,
    paused: bool,
    single_step: bool,
    reset: bool,
    reset_camera: bool,
    switch_to: Option<usize>,
    /// Whether the help overlay is shown (it is on the first frame).
    show_help: bool,
}

impl Controls {
    fn new(current: usize, seed: u64) -> Self {
        Self {
            current,
            seed,
            paused: false,
            single_step: false,
            reset: false,
            reset_camera: false,
            switch_to: None,
            show_help: true,
        }
    }
}

struct App {
    demos: Vec<Box<dyn Demo>>,
    options: Options,
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the desktop gets its device at once
    proxy: EventLoopProxy<UserEvent>,
    /// The window while its device is on the way (web).
    pending: Option<Arc<Window>>,
    /// Whether the pointer has been seen over the window (until then it is not in the view).
    cursor_seen: bool,
    /// Milliseconds of work per frame (stepping, drawing, encoding), smoothed.
    work_ms: f32,
    /// Key presses handed to the demo so far.
    keys: u32,
    controls: Controls,
    frame_limit: Option<u32>,
    frames: u32,
    gfx: Option<Gfx>,
    ctx: egui::Context,
    batch: Batch,
    camera: Camera,
    input: Input,
    cursor_px: Vec2,
    scene_px: egui::Rect,
    drag_from: Option<Vec2>,
    last: Instant,
    accumulator: f32,
    fps: f32,
    error: Option<RunError>,
}

impl App {
    fn new(mut demos: Vec<Box<dyn Demo>>, args: &RunArgs, options: Options, proxy: EventLoopProxy<UserEvent>) -> Self {
        let start = options.start.min(demos.len() - 1);
        demos[start].reset(args.seed);
        let camera = demos[start].camera();
        Self {
            demos,
            options: Options { start, ..options },
            proxy,
            pending: None,
            cursor_seen: false,
            work_ms: 0.0,
            keys: 0,
            controls: Controls::new(start, args.seed),
            frame_limit: args.frames,
            frames: 0,
            gfx: None,
            ctx: egui::Context::default(),
            batch: Batch::new(camera, vec2(1.0, 1.0)),
            camera,
            input: Input::default(),
            cursor_px: Vec2::ZERO,
            scene_px: egui::Rect::NOTHING,
            drag_from: None,
            last: Instant::now(),
            accumulator: 0.0,
            fps: 0.0,
            error: None,
        }
    }

    fn fail(&mut self, el: &ActiveEventLoop, e: RunError) {
        #[cfg(target_arch = "wasm32")]
        crate::page::report_error(&e);
        self.error = Some(e);
        el.exit();
    }

    /// Opens the window and asks for its device: at once on the desktop, asynchronously in a
    /// browser (the answer comes back as [`UserEvent::Ready`]).
    fn init(&mut self, el: &ActiveEventLoop) -> Result<(), RunError> {
        let window = Arc::new(el.create_window(self.window_attributes()).map_err(|e| RunError::Window(e.to_string()))?);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
                el.owned_display_handle(),
            )));
            let surface = instance.create_surface(window.clone()).map_err(crate::gpu::GpuError::from)?;
            let gpu = Gpu::from_instance(instance, Some(&surface))?;
            self.finish_init(window, surface, gpu)?;
        }
        #[cfg(target_arch = "wasm32")]
        {
            let proxy = self.proxy.clone();
            let for_surface = window.clone();
            self.pending = Some(window);
            wasm_bindgen_futures::spawn_local(async move {
                let desc = crate::page::instance_descriptor();
                let instance = wgpu::util::new_instance_with_webgpu_detection(desc).await;
                let ready = match instance.create_surface(for_surface) {
                    Ok(surface) => match Gpu::from_instance_async(instance, Some(&surface)).await {
                        Ok(gpu) => Ok((surface, gpu)),
                        Err(e) => Err(e.into()),
                    },
                    Err(e) => Err(crate::gpu::GpuError::from(e).into()),
                };
                // The loop outlives the page's tasks; a closed loop has nothing left to draw.
                let _ = proxy.send_event(UserEvent::Ready(Box::new(ready)));
            });
        }
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn window_attributes(&self) -> winit::window::WindowAttributes {
        Window::default_attributes().with_title("lore").with_inner_size(winit::dpi::LogicalSize::new(1280.0, 760.0))
    }

    /// In a browser: a canvas appended to the page, sized by the page's CSS (or 1280×720 for
    /// a shot, the headless frame's size).
    #[cfg(target_arch = "wasm32")]
    fn window_attributes(&self) -> winit::window::WindowAttributes {
        use winit::platform::web::WindowAttributesExtWebSys;
        let attrs = Window::default_attributes().with_title("lore").with_append(true);
        if self.options.shot {
            attrs.with_inner_size(winit::dpi::PhysicalSize::new(crate::headless::WIDTH, crate::headless::HEIGHT))
        } else {
            attrs
        }
    }

    /// The rest of [`App::init`], once the device is there.
    fn finish_init(&mut self, window: Arc<Window>, surface: wgpu::Surface<'static>, gpu: Gpu) -> Result<(), RunError> {
        say(&format!("window on {}", gpu.describe()));
        #[cfg(target_arch = "wasm32")]
        crate::page::report_adapter(&gpu.describe());
        let size = window.inner_size();
        let caps = surface.get_capabilities(&gpu.adapter);
        // egui and lore blend in sRGB space: prefer a plain (non-sRGB) target format.
        let format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(caps.formats[0]);
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| RunError::Window("the adapter cannot present to this window".into()))?;
        config.format = format;
        config.present_mode = wgpu::PresentMode::AutoVsync;
        surface.configure(&gpu.device, &config);
        let samples =
            if gpu.adapter.get_texture_format_features(format).flags.sample_count_supported(4) { 4 } else { 1 };
        let renderer = Renderer::new(&gpu.device, &gpu.queue, format, samples);
        let egui_state = egui_winit::State::new(
            self.ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            None,
        );
        let mut gfx = Gfx { window, surface, gpu, config, renderer, msaa: None, egui_state };
        gfx.make_msaa();
        gfx.window.request_redraw();
        self.gfx = Some(gfx);
        self.last = Instant::now();
        Ok(())
    }

    /// Applies the panel's requests (switch demo, reset) before stepping.
    fn apply_controls(&mut self) {
        if let Some(i) = self.controls.switch_to.take() {
            self.controls.current = i;
            self.controls.reset = true;
            self.controls.reset_camera = true;
        }
        let demo = &mut self.demos[self.controls.current];
        if std::mem::take(&mut self.controls.reset) {
            demo.reset(self.controls.seed);
        }
        if std::mem::take(&mut self.controls.reset_camera) {
            self.camera = demo.camera();
        }
    }

    fn scene_size(&self) -> Vec2 {
        vec2(self.scene_px.width(), self.scene_px.height()).max(Vec2::ONE)
    }

    fn redraw(&mut self, el: &ActiveEventLoop) {
        if self.frame_limit.is_some_and(|n| self.frames >= n) {
            return; // a finished run in a page (the desktop's window has closed by now)
        }
        let work = Instant::now();
        self.apply_controls();
        // Fixed steps: in real time, or exactly one per frame when the run is frame-limited
        // (so `--frames N` steps every demo the same number of times as headless).
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f32();
        self.last = now;
        self.fps = if self.fps == 0.0 { 1.0 / elapsed.max(1e-3) } else { 0.95 * self.fps + 0.05 / elapsed.max(1e-3) };
        let steps = if self.controls.paused {
            u32::from(std::mem::take(&mut self.controls.single_step))
        } else if self.frame_limit.is_some() {
            1
        } else {
            self.accumulator = (self.accumulator + elapsed).min(MAX_STEPS_PER_FRAME as f32 * DT);
            let n = (self.accumulator / DT) as u32;
            self.accumulator -= n as f32 * DT;
            n
        };
        let scene = self.scene_size();
        let over_ui = self.ctx.is_pointer_over_egui();
        let local = self.cursor_px - vec2(self.scene_px.min.x, self.scene_px.min.y);
        // Until the pointer is seen the demo gets a headless run's input (the world origin, not
        // in view), so that a page's `?shot` frame matches `--headless`.
        if self.cursor_seen {
            self.input.mouse = self.camera.screen_to_world(local, scene);
        }
        self.input.mouse_in_view =
            self.cursor_seen && !over_ui && self.scene_px.contains(egui::pos2(self.cursor_px.x, self.cursor_px.y));
        let demo_index = self.controls.current;
        if !self.demos[demo_index].wants_wheel() && self.input.wheel != 0.0 && self.input.mouse_in_view {
            self.camera.zoom_at(1.15f32.powf(self.input.wheel), local, scene);
            self.input.wheel = 0.0;
        }
        for _ in 0..steps {
            self.demos[demo_index].step(&self.input);
            self.input.end_step();
        }

        let Some(gfx) = self.gfx.as_mut() else { return };
        let surface_texture = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                gfx.surface.configure(&gfx.gpu.device, &gfx.config);
                gfx.window.request_redraw();
                return;
            }
            _ => {
                gfx.window.request_redraw();
                return;
            }
        };
        let ppp = gfx.window.scale_factor() as f32;
        let raw = gfx.egui_state.take_egui_input(&gfx.window);
        let names: Vec<(&'static str, &'static str)> = self.demos.iter().map(|d| (d.name(), d.description())).collect();
        let controls = &mut self.controls;
        let fps = self.fps;
        let frame_info = (self.frames, self.frame_limit);
        let mut panels =
            |ui: &mut egui::Ui, demo: &mut dyn Demo| side_panels(ui, demo, &names, controls, fps, frame_info);
        let demo = self.demos[demo_index].as_mut();
        let panels: Option<frame::Panels<'_>> = if self.options.shot { None } else { Some(&mut panels) };
        let (output, scene_pt) = frame::layout(&self.ctx, raw, demo, &self.camera, &mut self.batch, ppp, panels);
        let egui_animates = output.viewport_output.values().any(|v| v.repaint_delay.is_zero());
        let animating = self.demos[demo_index].animating() && !self.controls.paused;
        self.scene_px = egui::Rect::from_min_max(
            (scene_pt.min.to_vec2() * ppp).to_pos2(),
            (scene_pt.max.to_vec2() * ppp).to_pos2(),
        );
        gfx.egui_state.handle_platform_output(&gfx.window, output.platform_output.clone());

        let view = surface_texture.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let msaa_view = gfx.msaa.as_ref().map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()));
        let size = [gfx.config.width, gfx.config.height];
        let target = match &msaa_view {
            Some(v) => Target { view: v, resolve: Some(&view), size },
            None => Target { view: &view, resolve: None, size },
        };
        let mut encoder =
            gfx.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lore window frame") });
        frame::encode(
            &gfx.gpu.device,
            &gfx.gpu.queue,
            &mut gfx.renderer,
            &mut encoder,
            &target,
            &self.batch,
            self.scene_px,
            &self.ctx,
            output,
        );
        gfx.gpu.queue.submit([encoder.finish()]);
        gfx.window.pre_present_notify();
        gfx.gpu.queue.present(surface_texture);

        self.frames += 1;
        let ms = work.elapsed().as_secs_f32() * 1000.0;
        self.work_ms = if self.frames == 1 { ms } else { 0.95 * self.work_ms + 0.05 * ms };
        #[cfg(target_arch = "wasm32")]
        crate::page::report(&crate::page::Status {
            frames: self.frames,
            demo: self.demos[demo_index].name(),
            stats: &self.demos[demo_index].stats(),
            fps: self.fps,
            work_ms: self.work_ms,
            keys: self.keys,
        });
        if self.frame_limit.is_some_and(|n| self.frames >= n) {
            say(&format!("{} frames presented", self.frames));
            // In a page the last frame stays on the canvas; the loop just stops asking.
            #[cfg(not(target_arch = "wasm32"))]
            el.exit();
            #[cfg(target_arch = "wasm32")]
            let _ = el;
        } else if keep_redrawing(animating, self.frame_limit.is_some(), egui_animates) {
            gfx.window.request_redraw();
        }
    }
}

impl Gfx {
    fn make_msaa(&mut self) {
        let samples = self.renderer.samples();
        self.msaa = (samples > 1).then(|| {
            self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some("lore window msaa"),
                size: wgpu::Extent3d { width: self.config.width, height: self.config.height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format: self.config.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
        });
    }

    fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.make_msaa();
    }
}

/// The side panel (menu, description, controls, the demo's own UI) and the statistics bar.
fn side_panels(
    ui: &mut egui::Ui,
    demo: &mut dyn Demo,
    names: &[(&'static str, &'static str)],
    controls: &mut Controls,
    fps: f32,
    (frames, limit): (u32, Option<u32>),
) {
    egui::Panel::bottom("lore-stats").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.monospace(format!("{:5.1} fps", fps));
            if let Some(limit) = limit {
                ui.monospace(format!("frame {frames}/{limit}"));
            }
            ui.separator();
            ui.label(demo.stats());
        });
    });
    egui::Panel::left("lore-menu").default_size(260.0).show(ui, |ui| {
        ui.heading("lore");
        if names.len() > 1 {
            for (i, (name, description)) in names.iter().enumerate() {
                let selected = i == controls.current;
                if ui.selectable_label(selected, *name).on_hover_text(*description).clicked() && !selected {
                    controls.switch_to = Some(i);
                }
            }
            ui.separator();
        }
        ui.strong(demo.name());
        if !demo.description().is_empty() {
            ui.label(demo.description());
        }
        if let Some(problem) = demo.config_error() {
            ui.colored_label(egui::Color32::from_rgb(240, 90, 90), format!("invalid configuration: {problem}"));
        }
        ui.horizontal(|ui| {
            if ui.button("Reset").clicked() {
                controls.reset = true;
            }
            let label = if controls.paused { "Run" } else { "Pause" };
            if ui.button(label).clicked() {
                controls.paused = !controls.paused;
            }
            if ui.add_enabled(controls.paused, egui::Button::new("Step")).clicked() {
                controls.single_step = true;
            }
            if ui.button("Home").on_hover_text("reset the camera").clicked() {
                controls.reset_camera = true;
            }
            if ui.button("Help").on_hover_text("keys and mouse (F1)").clicked() {
                controls.show_help = !controls.show_help;
            }
        });
        ui.horizontal(|ui| {
            ui.label("seed");
            if ui.add(egui::DragValue::new(&mut controls.seed)).changed() {
                controls.reset = true;
            }
        });
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| demo.ui(ui));
    });
    crate::help::show(ui.ctx(), demo, &mut controls.show_help);
}

fn map_key(key: &WKey) -> Option<Key> {
    Some(match key {
        WKey::Named(NamedKey::ArrowLeft) => Key::Left,
        WKey::Named(NamedKey::ArrowRight) => Key::Right,
        WKey::Named(NamedKey::ArrowUp) => Key::Up,
        WKey::Named(NamedKey::ArrowDown) => Key::Down,
        WKey::Named(NamedKey::Space) => Key::Space,
        WKey::Named(NamedKey::Enter) => Key::Enter,
        WKey::Named(NamedKey::Escape) => Key::Escape,
        WKey::Named(NamedKey::Tab) => Key::Tab,
        WKey::Named(NamedKey::Backspace) => Key::Backspace,
        WKey::Named(NamedKey::Shift) => Key::Shift,
        WKey::Named(NamedKey::Control) => Key::Control,
        WKey::Character(s) => {
            let c = s.chars().next()?.to_ascii_lowercase();
            if c == ' ' { Key::Space } else { Key::Char(c) }
        }
        _ => return None,
    })
}

impl ApplicationHandler<UserEvent> for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_none()
            && self.pending.is_none()
            && let Err(e) = self.init(el)
        {
            self.fail(el, e);
        }
    }

    fn user_event(&mut self, el: &ActiveEventLoop, event: UserEvent) {
        match event {
            UserEvent::Ready(ready) => {
                let Some(window) = self.pending.take() else { return };
                match *ready {
                    Ok((surface, gpu)) => {
                        if let Err(e) = self.finish_init(window, surface, gpu) {
                            self.fail(el, e);
                        }
                    }
                    Err(e) => self.fail(el, e),
                }
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gfx) = self.gfx.as_mut() else { return };
        let consumed = gfx.egui_state.on_window_event(&gfx.window, &event).consumed;
        if !matches!(event, WindowEvent::RedrawRequested) {
            // Any input may change the scene or the panels: draw again (an idle window that
            // is not animating sleeps until the next event).
            gfx.window.request_redraw();
        }
        match event {
            WindowEvent::CloseRequested => el.exit(),
            WindowEvent::Resized(size) => gfx.resize(size.width, size.height),
            WindowEvent::RedrawRequested => self.redraw(el),
            WindowEvent::Focused(false) => self.input.release_all(),
            WindowEvent::KeyboardInput { event, .. } => {
                if event.state == ElementState::Pressed
                    && !event.repeat
                    && event.logical_key == WKey::Named(NamedKey::F1)
                {
                    self.controls.show_help = !self.controls.show_help;
                }
                if let Some(key) = map_key(&event.logical_key) {
                    match event.state {
                        ElementState::Pressed if !consumed => {
                            self.input.press_key(key);
                            self.keys += 1;
                        }
                        ElementState::Released => self.input.release_key(key),
                        ElementState::Pressed => {}
                    }
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor_seen = true;
                let p = vec2(position.x as f32, position.y as f32);
                if let Some(from) = self.drag_from {
                    self.camera.pan_pixels(p - from, self.scene_size());
                    self.drag_from = Some(p);
                }
                self.cursor_px = p;
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let in_scene = !self.ctx.is_pointer_over_egui();
                let button = match button {
                    winit::event::MouseButton::Left => MouseButton::Left,
                    winit::event::MouseButton::Right => MouseButton::Right,
                    winit::event::MouseButton::Middle => MouseButton::Middle,
                    _ => return,
                };
                match state {
                    ElementState::Pressed if in_scene => {
                        self.input.press_button(button);
                        if button != MouseButton::Left {
                            self.drag_from = Some(self.cursor_px);
                        }
                    }
                    ElementState::Pressed => {}
                    ElementState::Released => {
                        self.input.release_button(button);
                        if button != MouseButton::Left {
                            self.drag_from = None;
                        }
                    }
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !consumed => {
                self.input.wheel += match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headless::{Headless, close};

    struct Ball;

    impl Demo for Ball {
        fn name(&self) -> &'static str {
            "ball"
        }
        fn reset(&mut self, _seed: u64) {}
        fn step(&mut self, _input: &Input) {}
        fn draw(&self, batch: &mut Batch) {
            batch.disk(Vec2::ZERO, 3.0, crate::Color::RED);
        }
        fn help(&self) -> &'static [(&'static str, &'static str)] {
            &[("left click", "drop a ball")]
        }
    }

    /// The window's frame with its panels, rendered offscreen.
    fn window_frame(h: &mut Headless, controls: &mut Controls) -> crate::headless::Frame {
        let names = [("ball", "")];
        let mut panels =
            |ui: &mut egui::Ui, demo: &mut dyn Demo| side_panels(ui, demo, &names, controls, 60.0, (0, None));
        let mut demo = Ball;
        // Three frames: egui sizes a new window over its first frames.
        for _ in 0..2 {
            h.render_with(&mut demo, &Camera::default(), Some(&mut panels)).expect("frame read back");
        }
        h.render_with(&mut demo, &Camera::default(), Some(&mut panels)).expect("frame read back")
    }

    #[test]
    fn the_first_frame_shows_the_help_overlay_over_the_scene() {
        let mut h = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
        let mut controls = Controls::new(0, RunArgs::default().seed);
        assert!(controls.show_help, "open on the first frame");
        let with_help = window_frame(&mut h, &mut controls);
        controls.show_help = false;
        let without = window_frame(&mut h, &mut controls);
        // The overlay sits in the middle of the frame, over the red ball in the middle of the
        // scene (right of the side panel).
        let red = |f: &crate::headless::Frame| f.count_in(700, 270, 860, 420, |c| close(c, crate::Color::RED, 10));
        assert!(red(&without) > 10_000, "the ball shows without the overlay");
        assert!(red(&with_help) < red(&without) / 2, "the overlay covers the ball");
    }
}

/// Whether the window asks for the next frame right away: while the demo animates, while a
/// frame-limited run counts its frames, or while egui animates (a fading tooltip). Otherwise it
/// waits for the next event, using no CPU while idle.
fn keep_redrawing(animating: bool, frame_limited: bool, egui_animates: bool) -> bool {
    animating || frame_limited || egui_animates
}

#[cfg(test)]
mod redraw_tests {
    use super::keep_redrawing;

    #[test]
    fn an_idle_window_sleeps_unless_something_moves() {
        assert!(!keep_redrawing(false, false, false));
        assert!(keep_redrawing(true, false, false));
        assert!(keep_redrawing(false, true, false));
        assert!(keep_redrawing(false, false, true));
    }
}
