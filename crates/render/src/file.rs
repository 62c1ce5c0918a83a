//! Writing a file without ever losing the one it replaces: the project's atomic write, shared by
//! every app that saves (headless PNGs, maze exports, editor levels, the dungeon's WAV).
//!
//! The bytes go to a new temporary file in the target's directory (created with `create_new`,
//! so nothing else is ever opened for truncation), are flushed to disk, and the temporary file
//! is renamed over the target only when all of it is there. Any failure (a full disk, a
//! read-only directory, an encoder error) removes the temporary file and leaves the target as
//! it was: absent, or the old file, whole.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an export could not be written; its message says what happened to the target.
#[derive(Debug, thiserror::Error)]
#[error("could not write {}: {source}; {}", path.display(), if *existed { "the existing file is untouched" } else { "no file was created" })]
pub struct WriteError {
    /// The file that was to be written.
    pub path: PathBuf,
    /// Whether a file was there before (it still is, unchanged).
    pub existed: bool,
    /// What failed.
    pub source: io::Error,
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
///
/// # Errors
/// [`WriteError`] when the temporary file cannot be created or written, or the rename fails;
/// the target is then as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// [`write_atomic`] with the bytes produced by `write` into a buffered writer (an encoder
/// streams straight into it; tests inject failures here).
///
/// # Errors
/// As [`write_atomic`], and whatever `write` returns.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), WriteError> {
    let existed = path.exists();
    let fail = |source| WriteError { path: path.to_path_buf(), existed, source };
    let name = path.file_name().ok_or_else(|| fail(io::Error::other("the path names no file")))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let (temp, temp_path) = create_temp(dir, name).map_err(fail)?;
    let mut out = BufWriter::new(temp);
    let written = write(&mut out)
        .and_then(|()| out.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(|file| file.sync_all());
    let renamed = written.and_then(|()| std::fs::rename(&temp_path, path));
    if let Err(e) = renamed {
        // Best effort: the temporary file is ours, and the error that matters is `e`.
        let _ = std::fs::remove_file(&temp_path);
        return Err(fail(e));
    }
    // The rename is in the directory's metadata: flush it too where the system allows
    // (opening a directory for sync is not possible everywhere; the data itself is synced).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A new file `.<name>.<pid>.<n>.tmp` in `dir`, never one that exists.
fn create_temp(dir: &Path, name: &std::ffi::OsStr) -> io::Result<(File, PathBuf)> {
    let mut last = None;
    for n in 0..100u32 {
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.{n}.tmp", std::process::id()));
        let temp_path = dir.join(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp_path) {
            Ok(file) => return Ok((file, temp_path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Scratch folders for the tests of the modules that write files.
#[cfg(test)]
pub(crate) mod test_dirs {
    use std::path::{Path, PathBuf};

    /// A fresh, empty folder `lore-render-<name>-<pid>` in the system's temporary folder.
    pub(crate) fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lore-render-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    pub(crate) fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::test_dirs::{entries, scratch as scratch_in};
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        scratch_in(&format!("file-{name}"))
    }

    #[test]
    fn a_complete_write_replaces_the_file() {
        let dir = scratch("complete");
        let path = dir.join("maze.json");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new contents").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
        assert_eq!(entries(&dir), ["maze.json"], "no temporary file left");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A writer failing half way (as on a full disk) leaves the old file whole and says so.
    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = scratch("failed");
        let path = dir.join("maze.json");
        std::fs::write(&path, b"{\"the\":\"old maze\"}").unwrap();
        let err = write_atomic_with(&path, |file| {
            file.write_all(b"{\"half\":")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left on device"))
        })
        .unwrap_err();
        assert_eq!(std::fs::read(&path).unwrap(), b"{\"the\":\"old maze\"}");
        assert_eq!(entries(&dir), ["maze.json"], "the temporary file is removed");
        let message = err.to_string();
        assert!(message.contains("no space left") && message.contains("the existing file is untouched"), "{message}");
        // Nothing there before: the message says no file was created.
        let err = write_atomic_with(&dir.join("new.png"), |_| Err(io::Error::other("encoder failed"))).unwrap_err();
        assert!(err.to_string().contains("no file was created"), "{err}");
        assert_eq!(entries(&dir), ["maze.json"]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A directory that cannot take the temporary file (here a path through a regular file)
    /// fails before anything is touched.
    #[test]
    fn an_unwritable_directory_fails_cleanly() {
        let dir = scratch("unwritable");
        let not_a_dir = dir.join("plain");
        std::fs::write(&not_a_dir, b"x").unwrap();
        let err = write_atomic(&not_a_dir.join("maze.svg"), b"<svg/>").unwrap_err();
        assert!(err.to_string().starts_with("could not write"), "{err}");
        assert_eq!(std::fs::read(&not_a_dir).unwrap(), b"x");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A file polled for changes, for hot reload: [`FileWatch::changed`] says whether its
/// modification time or length differs from the last look (a file that appears, disappears or
/// cannot be read counts as a change once). Polling, not an OS notification, so it works the
/// same everywhere and costs one `stat` a look.
#[derive(Clone, Debug)]
pub struct FileWatch {
    path: PathBuf,
    seen: Option<(std::time::SystemTime, u64)>,
}

impl FileWatch {
    /// Watches `path`, taking its present state as seen.
    #[must_use]
    pub fn new(path: PathBuf) -> Self {
        let seen = stamp(&path);
        Self { path, seen }
    }

    /// The watched file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file changed since the last look (and remembers it as seen).
    pub fn changed(&mut self) -> bool {
        let now = stamp(&self.path);
        if now == self.seen {
            return false;
        }
        self.seen = now;
        true
    }
}

fn stamp(path: &Path) -> Option<(std::time::SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}
