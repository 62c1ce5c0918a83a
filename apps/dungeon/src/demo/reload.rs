//! Hot reload of the kinds file: polled every [`KINDS_POLL_STEPS`] steps; a file that does not
//! load keeps the last good kinds.

use super::Dungeon;
use crate::kinds::Kinds;

/// A kinds file polled for changes (lore-render's [`FileWatch`](lore_render::file::FileWatch)).
#[derive(Debug)]
pub(super) struct KindsWatch {
    file: lore_render::file::FileWatch,
    error: Option<String>,
}

/// Steps between two looks at the kinds file (half a second).
pub const KINDS_POLL_STEPS: u64 = 30;

impl Dungeon {
    /// Reloads the kinds from `path` whenever the file changes (its modification time or length,
    /// looked at every [`KINDS_POLL_STEPS`] steps). A file that does not load leaves the last
    /// good kinds in place and shows the error in the HUD until it is fixed.
    #[must_use]
    pub fn watching_kinds(mut self, path: std::path::PathBuf) -> Self {
        self.watch = Some(KindsWatch { file: lore_render::file::FileWatch::new(path), error: None });
        self
    }

    /// The last kinds reload error, if the file is broken now.
    #[must_use]
    pub fn kinds_error(&self) -> Option<&str> {
        self.watch.as_ref().and_then(|w| w.error.as_deref())
    }

    /// Looks at the kinds file and reloads it when it changed.
    pub(super) fn poll_kinds(&mut self) {
        let Some(watch) = self.watch.as_mut() else { return };
        if !watch.file.changed() {
            return;
        }
        match Kinds::load(watch.file.path()) {
            Ok(kinds) => {
                let applied = self.game.as_mut().map_or(Ok(()), |g| g.set_kinds(kinds.clone()));
                match applied {
                    Ok(()) => {
                        self.kinds = kinds;
                        watch.error = None;
                    }
                    Err(e) => watch.error = Some(format!("{e}; last good kinds kept")),
                }
            }
            Err(e) => watch.error = Some(format!("{e}; last good kinds kept")),
        }
    }
}
