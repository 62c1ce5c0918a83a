//! The web runner: the same demos, behind the same [`Demo`](crate::Demo) trait, in a page.
//!
//! Built for `wasm32-unknown-unknown` with the `window` feature, `start` (wasm32 only) runs the
//! windowed runner in a canvas appended to the page: winit's web backend for events, wgpu on WebGPU
//! where the browser has it and on WebGL2 otherwise (`?backend=webgl` forces WebGL2). The
//! page's address chooses what runs ([`PageArgs`]):
//!
//! - `?demo=NAME` shows that demo first (default: the first one);
//! - `?seed=S` seeds every reset (default 1);
//! - `?frames=N` stops after N frames, one fixed step each (the last frame stays on screen);
//! - `?shot` frames it as a headless PNG: a 1280×720 canvas, no panels, the caption in the
//!   corner, so that a screenshot of the page after `frames=N` can be compared with
//!   `--headless --frames N` on the desktop.
//!
//! The runner reports on the page's `<body>` after each frame, for tests and tools:
//! `data-frames`, `data-demo`, `data-stats`, `data-fps`, `data-work-ms` (milliseconds of
//! stepping, drawing and encoding per frame, smoothed), `data-keys` (key presses handed to the
//! demo) and `data-adapter`; a failure sets `data-error` and goes to the console as an error,
//! as does a panic.
//!
//! [`PageArgs`] is plain Rust and builds everywhere; the rest exists on wasm32 only.

use std::fmt;

/// What the page's address (its query string) asks for; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageArgs {
    /// `demo=NAME`: the demo shown first.
    pub demo: Option<String>,
    /// `seed=S`: the seed of every reset.
    pub seed: u64,
    /// `frames=N`: stop after N frames of one step each.
    pub frames: Option<u32>,
    /// `shot`: the headless frame (1280×720, no panels, a caption).
    pub shot: bool,
    /// `backend=webgl` or `backend=webgpu`: only that graphics backend (default: WebGPU when
    /// the browser has it, WebGL2 otherwise).
    pub backend: Option<WebBackend>,
}

impl Default for PageArgs {
    fn default() -> Self {
        Self { demo: None, seed: 1, frames: None, shot: false, backend: None }
    }
}

/// A browser's graphics API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebBackend {
    /// WebGL2 (wgpu's GL backend).
    WebGl,
    /// WebGPU.
    WebGpu,
}

/// Why a page address was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PageArgsError {
    /// A number that does not parse (or is out of range).
    #[error("`{key}={value}` in the page address: not a number in range")]
    BadNumber {
        /// The parameter.
        key: String,
        /// Its value.
        value: String,
    },
    /// An unknown `backend=` value.
    #[error("`backend={0}` in the page address: expected `webgl` or `webgpu`")]
    BadBackend(String),
    /// A parameter the runner does not know.
    #[error("unknown parameter `{0}` in the page address (known: demo, seed, frames, shot, backend)")]
    Unknown(String),
}

impl PageArgs {
    /// Parses a query string, with or without its leading `?` (`demo=maze&seed=3&shot`).
    ///
    /// # Errors
    /// [`PageArgsError`] naming the parameter at fault.
    pub fn parse(query: &str) -> Result<Self, PageArgsError> {
        let mut args = Self::default();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let number = || PageArgsError::BadNumber { key: key.to_string(), value: value.to_string() };
            match key {
                "demo" => args.demo = Some(value.to_string()),
                "seed" => args.seed = value.parse().map_err(|_| number())?,
                "frames" => args.frames = Some(value.parse().map_err(|_| number())?),
                "shot" => args.shot = true,
                "backend" => {
                    args.backend = Some(match value {
                        "webgl" => WebBackend::WebGl,
                        "webgpu" => WebBackend::WebGpu,
                        _ => return Err(PageArgsError::BadBackend(value.to_string())),
                    });
                }
                _ => return Err(PageArgsError::Unknown(key.to_string())),
            }
        }
        Ok(args)
    }
}

impl fmt::Display for WebBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::WebGl => "webgl",
            Self::WebGpu => "webgpu",
        })
    }
}

#[cfg(all(target_arch = "wasm32", feature = "window"))]
pub use page::*;

#[cfg(all(target_arch = "wasm32", feature = "window"))]
mod page {
    use super::{PageArgs, WebBackend};
    use crate::page::{report_error, set_backends};
    use crate::{Demo, RunArgs, RunError};

    /// Runs `demos` in the page, as its address asks ([`PageArgs`]), and returns at once: the
    /// browser drives the frames. Panics go to the console as errors.
    ///
    /// # Errors
    /// [`RunError::Page`] for a bad address or an unknown demo, [`RunError::NoDemos`], or
    /// [`RunError::Window`]; each is also reported on the page (see the module docs).
    pub fn start(demos: Vec<Box<dyn Demo>>) -> Result<(), RunError> {
        std::panic::set_hook(Box::new(|info| {
            web_sys::console::error_1(&format!("lore panicked: {info}").into());
        }));
        let result = start_inner(demos);
        if let Err(e) = &result {
            report_error(e);
        }
        result
    }

    fn start_inner(demos: Vec<Box<dyn Demo>>) -> Result<(), RunError> {
        if demos.is_empty() {
            return Err(RunError::NoDemos);
        }
        let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        let page = PageArgs::parse(&query).map_err(|e| RunError::Page(e.to_string()))?;
        let start = match &page.demo {
            None => 0,
            Some(name) => demos.iter().position(|d| d.name() == name).ok_or_else(|| {
                let known: Vec<&str> = demos.iter().map(|d| d.name()).collect();
                RunError::Page(format!("unknown demo `{name}`; known demos: {}", known.join(", ")))
            })?,
        };
        set_backends(match page.backend {
            None => wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL,
            Some(WebBackend::WebGl) => wgpu::Backends::GL,
            Some(WebBackend::WebGpu) => wgpu::Backends::BROWSER_WEBGPU,
        });
        let args = RunArgs { frames: page.frames, seed: page.seed, ..RunArgs::default() };
        crate::window::spawn(demos, &args, crate::window::Options { start, shot: page.shot })
    }

    pub use crate::page::console_warn;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_address_parses_into_its_parts() {
        assert_eq!(PageArgs::parse("").unwrap(), PageArgs::default());
        let args = PageArgs::parse("?demo=maze&seed=7&frames=30&shot&backend=webgl").unwrap();
        assert_eq!(
            args,
            PageArgs {
                demo: Some("maze".into()),
                seed: 7,
                frames: Some(30),
                shot: true,
                backend: Some(WebBackend::WebGl)
            }
        );
    }

    #[test]
    fn a_bad_page_address_names_the_parameter() {
        let e = PageArgs::parse("frames=-1").unwrap_err();
        assert_eq!(e, PageArgsError::BadNumber { key: "frames".into(), value: "-1".into() });
        assert!(e.to_string().contains("frames=-1"), "{e}");
        assert_eq!(
            PageArgs::parse("seed=x").unwrap_err().to_string(),
            "`seed=x` in the page address: not a number in range"
        );
        assert_eq!(PageArgs::parse("backend=gl").unwrap_err(), PageArgsError::BadBackend("gl".into()));
        assert_eq!(PageArgs::parse("demo=maze&zoom=2").unwrap_err(), PageArgsError::Unknown("zoom".into()));
    }

    proptest::proptest! {
        #[test]
        fn any_query_parses_or_is_refused_without_panicking(q in ".{0,40}") {
            let _ = PageArgs::parse(&q);
        }

        #[test]
        fn numbers_round_trip(seed: u64, frames: u32) {
            let args = PageArgs::parse(&format!("seed={seed}&frames={frames}")).unwrap();
            proptest::prop_assert_eq!((args.seed, args.frames), (seed, Some(frames)));
        }
    }
}
