//! The flags every demo app shares.

use std::path::PathBuf;

/// Shared command-line flags; apps flatten them into their own parser:
///
/// ```
/// use clap::Parser;
/// #[derive(Parser, Debug)]
/// struct Cli {
///     #[command(flatten)]
///     run: lore_render::RunArgs,
///     /// An app-specific flag beside the shared ones.
///     #[arg(long)]
///     export: Option<std::path::PathBuf>,
/// }
/// let cli = Cli::parse_from(["app", "--headless", "--frames", "10"]);
/// assert!(cli.run.headless && cli.run.frames() == 10);
/// ```
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
pub struct RunArgs {
    /// Render offscreen and write PNGs instead of opening a window (chosen automatically when
    /// neither DISPLAY nor WAYLAND_DISPLAY is set).
    #[arg(long)]
    pub headless: bool,
    /// Steps to run [default: 120]: headless, the PNG shows the frame after this many steps;
    /// in a window, the window closes after this many frames when the flag is given (an
    /// interactive run without it stays open until closed).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Folder the headless PNGs are written to (created when missing).
    #[arg(long, default_value = "target/lore-shots")]
    pub out: PathBuf,
    /// Seed passed to every demo's `reset`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl Default for RunArgs {
    fn default() -> Self {
        Self { headless: false, frames: None, out: PathBuf::from("target/lore-shots"), seed: 1 }
    }
}

/// Steps a headless run takes when `--frames` is not given.
pub const DEFAULT_FRAMES: u32 = 120;

impl RunArgs {
    /// The number of steps to run (`--frames`, or [`DEFAULT_FRAMES`]).
    #[must_use]
    pub fn frames(&self) -> u32 {
        self.frames.unwrap_or(DEFAULT_FRAMES)
    }

    /// Whether this run is headless: asked for, or no display to open a window on.
    #[must_use]
    pub fn is_headless(&self) -> bool {
        self.headless || !display_available()
    }
}

/// Whether a display server is reachable through the environment (X11 or Wayland).
#[must_use]
pub fn display_available() -> bool {
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    set("DISPLAY") || set("WAYLAND_DISPLAY")
}
