//! The shared runner: a window when there is a display, PNGs when there is not.

use crate::args::RunArgs;
use crate::demo::Demo;
pub use crate::error::RunError;
use crate::frame::caption;
use crate::headless::Headless;
use std::path::PathBuf;

/// What a headless run produced, one entry per demo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// The demo's name.
    pub name: String,
    /// Where its PNG was written.
    pub path: PathBuf,
    /// Its statistics line after the last step.
    pub stats: String,
}

/// Runs `demos`: windowed when a display is available and `--headless` is not given (one
/// window, a menu to switch demos), otherwise headless: each demo is reset with `--seed`,
/// stepped `--frames` times and written to `<out>/<name>.png` (atomically: a failed write
/// leaves any earlier PNG as it was), with one line printed per demo. A demo that reports a
/// [`config_error`](Demo::config_error) stops a headless run with [`RunError::Config`].
///
/// # Errors
/// [`RunError`]; apps print it on one line and exit non-zero.
pub fn run(demos: Vec<Box<dyn Demo>>, args: &RunArgs) -> Result<Vec<Shot>, RunError> {
    if demos.is_empty() {
        return Err(RunError::NoDemos);
    }
    if args.is_headless() { run_headless(demos, args) } else { run_windowed(demos, args).map(|()| Vec::new()) }
}

/// The headless half of [`run`].
///
/// # Errors
/// [`RunError::Config`], [`RunError::Gpu`], [`RunError::Frame`] or [`RunError::Io`].
pub fn run_headless(mut demos: Vec<Box<dyn Demo>>, args: &RunArgs) -> Result<Vec<Shot>, RunError> {
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |source| RunError::Io { path, source }
    };
    // Configuration first: a bad setting is reported before any GPU or file work.
    for demo in &mut demos {
        demo.reset(args.seed);
        if let Some(message) = demo.config_error() {
            return Err(RunError::Config { demo: demo.name().to_string(), message });
        }
    }
    std::fs::create_dir_all(&args.out).map_err(io(&args.out))?;
    let mut headless = Headless::new()?;
    println!("rendering {} demo(s) headless on {} into {}", demos.len(), headless.gpu().describe(), args.out.display());
    let mut shots = Vec::new();
    for demo in &mut demos {
        let frame = headless.run(demo.as_mut(), args.seed, args.frames())?;
        let path = args.out.join(format!("{}.png", demo.name()));
        frame.save_png(&path).map_err(io(&path))?;
        println!("  {}  -> {}", caption(demo.as_ref()), path.display());
        shots.push(Shot { name: demo.name().to_string(), path, stats: demo.stats() });
    }
    Ok(shots)
}

#[cfg(all(feature = "window", not(target_arch = "wasm32")))]
fn run_windowed(demos: Vec<Box<dyn Demo>>, args: &RunArgs) -> Result<(), RunError> {
    crate::window::run(demos, args)
}

/// In a browser the page drives the frames and `run` cannot block until they end.
#[cfg(all(feature = "window", target_arch = "wasm32"))]
fn run_windowed(_demos: Vec<Box<dyn Demo>>, _args: &RunArgs) -> Result<(), RunError> {
    Err(RunError::Window("in a browser the runner starts with lore_render::web::start, which returns at once".into()))
}

#[cfg(not(feature = "window"))]
fn run_windowed(_demos: Vec<Box<dyn Demo>>, _args: &RunArgs) -> Result<(), RunError> {
    Err(RunError::NoWindowSupport)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Batch, Input};

    struct Points(u32);

    impl Demo for Points {
        fn name(&self) -> &'static str {
            "points"
        }
        fn reset(&mut self, _seed: u64) {}
        fn step(&mut self, _input: &Input) {}
        fn draw(&self, _batch: &mut Batch) {}
        fn config_error(&self) -> Option<String> {
            (self.0 == 0).then(|| "--points must be at least 1".to_string())
        }
    }

    #[test]
    fn a_demo_with_an_invalid_configuration_fails_a_headless_run_before_any_output() {
        let out = std::env::temp_dir().join(format!("lore-render-config-{}", std::process::id()));
        let args = RunArgs { headless: true, out: out.clone(), ..RunArgs::default() };
        let err = run_headless(vec![Box::new(Points(5)), Box::new(Points(0))], &args).unwrap_err();
        assert!(matches!(&err, RunError::Config { demo, .. } if demo == "points"), "{err}");
        assert_eq!(err.to_string(), "demo points: --points must be at least 1");
        assert!(!out.exists(), "nothing written");
    }
}
