//! Output files that never destroy what was there: each is written to a temporary file in the
//! target's folder and renamed over the target only when complete, so a full disk, a killed
//! process or a decoding error leaves the old file (or no file) in place, never a cut-off one.
//! An existing target is replaced only when the user asked (`--force`).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What an output file is written through: a [`File`], or in tests a file that fails on demand.
pub trait Sink: Write {
    /// Makes the written bytes durable (`fsync`).
    fn sync(&mut self) -> io::Result<()>;
}

impl Sink for File {
    fn sync(&mut self) -> io::Result<()> {
        self.sync_all()
    }
}

/// An output file being written: bytes go to a temporary file next to `target`, which
/// [`Output::commit`] renames over it. Dropped without a commit, the temporary file is removed.
pub struct Output<S: Sink = File> {
    target: PathBuf,
    tmp: PathBuf,
    sink: Option<BufWriter<S>>,
    existed: bool,
    force: bool,
}

/// Whether something (a file, a folder, a dangling link) is at `p`.
pub fn occupied(p: &Path) -> bool {
    p.symlink_metadata().is_ok()
}

/// The message for a target that exists when `--force` was not given.
pub fn exists_message(target: &Path) -> String {
    format!("{} already exists; nothing was written (use --force to replace it)", target.display())
}

impl Output<File> {
    /// Starts writing `target`; refuses an existing target unless `force`.
    pub fn create(target: &Path, force: bool) -> Result<Output<File>, String> {
        Self::create_with(target, force, Ok)
    }
}

impl<S: Sink> Output<S> {
    /// [`Output::create`] with the temporary file wrapped by `wrap` (tests inject failures here).
    pub fn create_with(
        target: &Path,
        force: bool,
        wrap: impl FnOnce(File) -> io::Result<S>,
    ) -> Result<Output<S>, String> {
        let existed = occupied(target);
        if existed && !force {
            return Err(exists_message(target));
        }
        if target.is_dir() {
            return Err(format!("{} is a folder; nothing was written", target.display()));
        }
        let name = target.file_name().ok_or_else(|| format!("{}: not a file name", target.display()))?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let untouched = if existed { "the original is untouched" } else { "nothing was written" };
        let mut attempt = 0u32;
        let (tmp, file) = loop {
            let tmp = dir.join(format!(".{}.{}-{attempt}.tmp", name.to_string_lossy(), std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => break (tmp, f),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => {
                    return Err(format!(
                        "{}: cannot create a temporary file in {}: {e}; {untouched}",
                        target.display(),
                        dir.display()
                    ));
                }
            }
        };
        let mut out = Output { target: target.to_path_buf(), tmp, sink: None, existed, force };
        let sink = wrap(file).map_err(|e| out.failure(&e))?;
        out.sink = Some(BufWriter::with_capacity(1 << 16, sink));
        Ok(out)
    }

    /// The message for error `e` while writing: it names the target and says that the original
    /// file (if any) is untouched.
    pub fn failure(&self, e: &dyn std::fmt::Display) -> String {
        if self.existed {
            format!("{}: {e}; the original file is untouched", self.target.display())
        } else {
            format!("{}: {e}; nothing was written", self.target.display())
        }
    }

    /// Appends bytes.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), String> {
        let r = match self.sink.as_mut() {
            Some(s) => s.write_all(bytes),
            None => Err(io::Error::other("output already closed")),
        };
        r.map_err(|e| self.failure(&e))
    }

    /// Flushes, syncs and renames the temporary file over the target.
    pub fn commit(mut self) -> Result<(), String> {
        let sink = self.sink.take().ok_or_else(|| self.failure(&"output already closed"))?;
        let mut inner = sink.into_inner().map_err(|e| self.failure(e.error()))?;
        inner.sync().map_err(|e| self.failure(&e))?;
        drop(inner);
        // Someone may have created the target while we wrote: still no overwriting unasked.
        if !self.force && !self.existed && occupied(&self.target) {
            return Err(exists_message(&self.target));
        }
        std::fs::rename(&self.tmp, &self.target).map_err(|e| self.failure(&e))?;
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl<S: Sink> Drop for Output<S> {
    fn drop(&mut self) {
        self.sink = None;
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("lore-bitpack-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A file that reports a full disk once `room` bytes have been written.
    struct Full {
        file: File,
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "no space left on device"));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.file.write(&buf[..n])
        }

        fn flush(&mut self) -> io::Result<()> {
            self.file.flush()
        }
    }

    impl Sink for Full {
        fn sync(&mut self) -> io::Result<()> {
            self.file.sync_all()
        }
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_full_disk_leaves_the_original_untouched_and_no_temporary_file() {
        let dir = scratch("full");
        let target = dir.join("song.bpk");
        std::fs::write(&target, b"the user's file").unwrap();
        let mut out = Output::create_with(&target, true, |file| Ok(Full { file, room: 100_000 })).unwrap();
        let big = vec![7u8; 300_000];
        let err = out.write_all(&big).and_then(|()| out.commit()).unwrap_err();
        assert!(err.contains("no space left on device") && err.ends_with("the original file is untouched"), "{err}");
        assert_eq!(std::fs::read(&target).unwrap(), b"the user's file");
        assert_eq!(leftovers(&dir), ["song.bpk"]);
        // The error can also come at the final flush.
        let out = Output::create_with(&target, true, |file| Ok(Full { file, room: 10 }));
        let mut out = out.unwrap();
        out.write_all(&[1; 20]).unwrap();
        assert!(out.commit().unwrap_err().ends_with("the original file is untouched"));
        assert_eq!(std::fs::read(&target).unwrap(), b"the user's file");
        assert_eq!(leftovers(&dir), ["song.bpk"]);
        let new = dir.join("new.bpk");
        let mut out = Output::create_with(&new, false, |file| Ok(Full { file, room: 0 })).unwrap();
        out.write_all(&[1; 1 << 17]).unwrap_err();
        drop(out);
        assert!(!occupied(&new));
        assert_eq!(leftovers(&dir), ["song.bpk"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_existing_target_needs_force_and_a_commit_replaces_it_whole() {
        let dir = scratch("force");
        let target = dir.join("a.wav");
        std::fs::write(&target, b"old").unwrap();
        let err = Output::create(&target, false).err().unwrap();
        assert!(err.contains("already exists") && err.contains("--force"), "{err}");
        let mut out = Output::create(&target, true).unwrap();
        out.write_all(b"new contents").unwrap();
        // Until the commit, the old file is what a reader sees.
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        out.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new contents");
        assert_eq!(leftovers(&dir), ["a.wav"]);
        // A target that appears while writing is not overwritten without --force.
        let late = dir.join("late.wav");
        let mut out = Output::create(&late, false).unwrap();
        out.write_all(b"mine").unwrap();
        std::fs::write(&late, b"someone else's").unwrap();
        assert!(out.commit().unwrap_err().contains("already exists"));
        assert_eq!(std::fs::read(&late).unwrap(), b"someone else's");
        assert_eq!(leftovers(&dir), ["a.wav", "late.wav"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
