//! The flags every demo app shares, and the decision between a window and headless frames.

use std::ffi::OsString;
use std::path::PathBuf;

/// Shared command-line flags; apps flatten them into their own parser (feature `clap`, on by
/// default):
///
/// ```
/// # #[cfg(feature = "clap")] {
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
/// # }
/// ```
///
/// Without the `clap` feature it is a plain struct to fill in (or take
/// [`RunArgs::default`]).
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunArgs {
    /// Render offscreen and write PNGs instead of opening a window (chosen automatically on
    /// Linux and the BSDs when neither DISPLAY nor WAYLAND_DISPLAY is set).
    #[cfg_attr(feature = "clap", arg(long))]
    pub headless: bool,
    /// Steps to run [default: 120]: headless, the PNG shows the frame after this many steps;
    /// in a window, the window closes after this many frames when the flag is given (an
    /// interactive run without it stays open until closed).
    #[cfg_attr(feature = "clap", arg(long))]
    pub frames: Option<u32>,
    /// Folder the headless PNGs are written to (created when missing).
    #[cfg_attr(feature = "clap", arg(long, default_value = "target/lore-shots"))]
    pub out: PathBuf,
    /// Seed passed to every demo's `reset`.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = 1))]
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

    /// Whether this run is headless: asked for, or on Linux/BSD with no display to open a
    /// window on ([`headless_wanted`] for this process's OS and environment).
    #[must_use]
    pub fn is_headless(&self) -> bool {
        headless_wanted(self.headless, std::env::consts::OS, |key| std::env::var_os(key))
    }
}

/// Whether a run should be headless, given whether it was asked for (`--headless`), the
/// operating system (as [`std::env::consts::OS`] names it) and the environment (`env(key)`,
/// as [`std::env::var_os`]).
///
/// The window opens on every desktop: macOS, Windows and every other system have their own
/// window system and always get one unless asked. Only on Linux and the BSDs, where windows go
/// through an X11 or Wayland server, does a missing display mean headless: neither `DISPLAY`
/// nor `WAYLAND_DISPLAY` set to a non-empty value (a server, a CI runner, an SSH session).
///
/// ```
/// use lore_render::args::headless_wanted;
/// let no_env = |_: &str| None;
/// assert!(!headless_wanted(false, "macos", no_env));
/// assert!(headless_wanted(false, "linux", no_env));
/// assert!(!headless_wanted(false, "linux", |k: &str| (k == "DISPLAY").then(|| ":0".into())));
/// assert!(headless_wanted(true, "windows", no_env));
/// ```
#[must_use]
pub fn headless_wanted(asked: bool, os: &str, env: impl Fn(&str) -> Option<OsString>) -> bool {
    asked || (uses_display_server(os) && !display_named(env))
}

/// Whether windows on `os` go through an X11 or Wayland display server.
fn uses_display_server(os: &str) -> bool {
    matches!(os, "linux" | "freebsd" | "openbsd" | "netbsd" | "dragonfly" | "illumos" | "solaris")
}

/// Whether `env` names an X11 or Wayland display.
fn display_named(env: impl Fn(&str) -> Option<OsString>) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    set("DISPLAY") || set("WAYLAND_DISPLAY")
}

/// Whether this process's environment names an X11 or Wayland display (`DISPLAY` or
/// `WAYLAND_DISPLAY`). It matters on Linux and the BSDs only; see [`headless_wanted`].
#[must_use]
pub fn display_available() -> bool {
    display_named(|key| std::env::var_os(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| OsString::from(*v))
    }

    #[test]
    fn macos_and_windows_open_a_window_whatever_the_environment() {
        for os in ["macos", "windows", "ios", "android"] {
            assert!(!headless_wanted(false, os, env(&[])), "{os}");
            assert!(!headless_wanted(false, os, env(&[("DISPLAY", "")])), "{os}");
            assert!(headless_wanted(true, os, env(&[])), "{os}: asked");
        }
    }

    #[test]
    fn linux_and_the_bsds_need_a_display() {
        for os in ["linux", "freebsd", "openbsd", "netbsd", "dragonfly"] {
            assert!(headless_wanted(false, os, env(&[])), "{os}: no display");
            assert!(headless_wanted(false, os, env(&[("DISPLAY", ""), ("WAYLAND_DISPLAY", "")])), "{os}: empty");
            assert!(!headless_wanted(false, os, env(&[("DISPLAY", ":0")])), "{os}: X11");
            assert!(!headless_wanted(false, os, env(&[("WAYLAND_DISPLAY", "wayland-0")])), "{os}: Wayland");
            assert!(headless_wanted(true, os, env(&[("DISPLAY", ":0")])), "{os}: asked");
        }
    }
}
