//! The runner's error: what [`run`](crate::run()) returns when a run cannot go on.

use crate::gpu::GpuError;
use crate::headless::FrameError;
use std::path::PathBuf;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// No adapter or device (the message names the package to install).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A rendered frame could not be read back (the GPU device was lost).
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// A PNG or its folder could not be written (a PNG already there is left as it was).
    #[error("could not write {path} (any file already there is left as it was): {source}")]
    Io {
        /// The path being written.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The window could not be opened or the event loop failed.
    #[error("window: {0}")]
    Window(String),
    /// A windowed run was asked of a build without the `window` feature.
    #[error("this build has no window support (lore-render's `window` feature); use --headless")]
    NoWindowSupport,
    /// The page's address asks for something the web runner cannot do (a bad parameter, an
    /// unknown demo): see [`crate::web`].
    #[error("page: {0}")]
    Page(String),
    /// `run` was given no demos.
    #[error("no demos to run")]
    NoDemos,
    /// A demo reported an invalid configuration ([`Demo::config_error`](crate::Demo::config_error)).
    #[error("demo {demo}: {message}")]
    Config {
        /// The demo's name.
        demo: String,
        /// What is wrong, from the demo.
        message: String,
    },
}
