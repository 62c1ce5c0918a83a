//! The page the web runner draws in (wasm32 only): the backends it allows, its console, and
//! the status it reports on its `<body>` after each frame (see [`crate::web`]). Below the
//! window runner, which reports through it; [`crate::web`] starts the runner above both.

use crate::RunError;
use std::cell::Cell;

thread_local! {
    static BACKENDS: Cell<wgpu::Backends> = const { Cell::new(wgpu::Backends::BROWSER_WEBGPU.union(wgpu::Backends::GL)) };
}

/// Sets the backends the runner's instance may use (the page address's `backend`).
pub(crate) fn set_backends(backends: wgpu::Backends) {
    BACKENDS.with(|b| b.set(backends));
}

/// The instance the runner asks for its device: the backends the page allows.
pub(crate) fn instance_descriptor() -> wgpu::InstanceDescriptor {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = BACKENDS.with(Cell::get);
    desc
}

/// One line in the browser's console.
pub(crate) fn console_log(line: &str) {
    web_sys::console::log_1(&line.into());
}

/// One warning in the browser's console.
pub fn console_warn(line: &str) {
    web_sys::console::warn_1(&line.into());
}

fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

fn set(name: &str, value: &str) {
    if let Some(body) = body() {
        // Setting an attribute on the body fails only for an invalid name; ours are fixed.
        let _ = body.set_attribute(name, value);
    }
}

/// What the page reports after each frame.
#[derive(Debug)]
pub(crate) struct Status<'a> {
    pub frames: u32,
    pub demo: &'a str,
    pub stats: &'a str,
    pub fps: f32,
    pub work_ms: f32,
    pub keys: u32,
}

pub(crate) fn report(s: &Status<'_>) {
    set("data-frames", &s.frames.to_string());
    set("data-demo", s.demo);
    set("data-stats", s.stats);
    set("data-fps", &format!("{:.1}", s.fps));
    set("data-work-ms", &format!("{:.3}", s.work_ms));
    set("data-keys", &s.keys.to_string());
}

pub(crate) fn report_adapter(describe: &str) {
    set("data-adapter", describe);
}

pub(crate) fn report_error(e: &RunError) {
    web_sys::console::error_1(&format!("lore: {e}").into());
    set("data-error", &e.to_string());
}
