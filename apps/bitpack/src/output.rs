//! Output files that never destroy what was there: each is written to a temporary file in the
//! target's folder, made durable, and renamed over the target only when complete, so a full disk,
//! a killed process or a decoding error leaves the old file (or no file) in place, never a cut-off
//! one. An existing target is replaced only when the user asked (`--force`).
//!
//! Many small outputs are committed together in a [`Batch`]: all their temporary files are
//! written first, then made durable, renamed in order, and each folder synced once. Syncing file
//! by file costs a wait, an inode write and a device flush per file, all in this process (the
//! kernel's delayed allocation and writeback included), which for a folder of small samples is
//! more CPU time than encoding them. So where one `syncfs` makes them durable (Linux 5.8 or later
//! on ext4, XFS or Btrfs) a folder's outputs share one: the kernel's flusher writes them, with one
//! device flush. Elsewhere each output is synced by itself at the commit (on Linux, its
//! writeback is started as soon as it is complete).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What an output file is written through: a [`File`], or in tests a file that fails on demand.
pub trait Sink: Write {
    /// Whether [`Sink::sync_filesystem`] makes this file durable.
    fn syncs_with_filesystem(&self) -> bool {
        false
    }

    /// Makes every file of this file's filesystem durable, and reports an error if writing any
    /// of them back failed since this file was opened.
    fn sync_filesystem(&mut self) -> io::Result<()> {
        self.sync()
    }

    /// Starts writing the bytes to storage without waiting for them: a hint, whose errors
    /// [`Sink::sync`] reports.
    fn start_sync(&mut self) {}

    /// Makes the written bytes durable (`fdatasync`: the contents and the size).
    fn sync(&mut self) -> io::Result<()>;
}

impl Sink for File {
    fn syncs_with_filesystem(&self) -> bool {
        sys::syncfs_is_durable(self)
    }

    fn sync_filesystem(&mut self) -> io::Result<()> {
        sys::syncfs(self)
    }

    fn start_sync(&mut self) {
        sys::start_writeback(self);
    }

    fn sync(&mut self) -> io::Result<()> {
        self.sync_data()
    }
}

/// The Linux calls: `syncfs`, and `sync_file_range` to start writing a file back.
#[cfg(target_os = "linux")]
mod sys {
    use std::fs::File;
    use std::io;
    use std::mem::MaybeUninit;
    use std::os::fd::AsRawFd;
    use std::sync::OnceLock;

    /// Whether `syncfs` on `file` makes it durable and reports its writeback errors: the kernel
    /// is 5.8 or later (older ones report success even when writing back failed) and the
    /// filesystem is ext4, XFS or Btrfs, whose `syncfs` commits and flushes the device (FUSE and
    /// network filesystems may not pass it on to their storage).
    pub fn syncfs_is_durable(file: &File) -> bool {
        static REPORTS_ERRORS: OnceLock<bool> = OnceLock::new();
        *REPORTS_ERRORS.get_or_init(|| {
            std::fs::read_to_string("/proc/sys/kernel/osrelease").is_ok_and(|r| release_at_least(&r, (5, 8)))
        }) && local_journaled(file)
    }

    // f_type and the magic numbers are 64-bit on x86_64, 32-bit on s390x and 32-bit targets.
    #[allow(clippy::useless_conversion)]
    fn local_journaled(file: &File) -> bool {
        let mut st = MaybeUninit::<libc::statfs>::uninit();
        // SAFETY: fstatfs writes one statfs into the buffer it is given, which is that size; the
        // descriptor stays open for the call because `file` is borrowed.
        if unsafe { libc::fstatfs(file.as_raw_fd(), st.as_mut_ptr()) } != 0 {
            return false;
        }
        // SAFETY: fstatfs returned 0, so it filled the struct.
        let kind = i64::from(unsafe { st.assume_init() }.f_type);
        [libc::EXT4_SUPER_MAGIC, libc::XFS_SUPER_MAGIC, libc::BTRFS_SUPER_MAGIC]
            .into_iter()
            .any(|m| i64::from(m) == kind)
    }

    /// Whether a kernel release string (`6.1.0-18-amd64`) is at least `min` (major, minor).
    pub fn release_at_least(release: &str, min: (u32, u32)) -> bool {
        let mut parts = release.trim().split(['.', '-']).map(|p| p.parse::<u32>());
        match (parts.next(), parts.next()) {
            (Some(Ok(major)), Some(Ok(minor))) => (major, minor) >= min,
            _ => false,
        }
    }

    /// `syncfs`, then `fdatasync` of `file` for one more device flush: ext4 without a journal
    /// writes its inode tables back after the flush that `syncfs` issues.
    pub fn syncfs(file: &File) -> io::Result<()> {
        // SAFETY: syncfs reads only its integer argument; the descriptor stays open for the call
        // because `file` is borrowed.
        if unsafe { libc::syncfs(file.as_raw_fd()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        file.sync_data()
    }

    /// Queues the dirty pages of `file` for writing (`sync_file_range(SYNC_FILE_RANGE_WRITE)`),
    /// so that the syncs of a batch wait on writes already under way.
    pub fn start_writeback(file: &File) {
        // SAFETY: sync_file_range reads only its integer arguments; the descriptor stays open for
        // the call because `file` is borrowed. Its result is ignored: the sync that follows
        // reports errors.
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
}

/// Elsewhere each file is synced by itself, which also starts its writes.
#[cfg(not(target_os = "linux"))]
mod sys {
    use std::fs::File;
    use std::io;

    pub fn syncfs_is_durable(_: &File) -> bool {
        false
    }

    pub fn syncfs(file: &File) -> io::Result<()> {
        file.sync_data()
    }

    pub fn start_writeback(_: &File) {}
}

/// Makes the names in `dir` durable (the renames into it).
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Windows opens no folder as a file to flush; NTFS journals the renames.
#[cfg(not(unix))]
fn sync_dir(_: &Path) -> io::Result<()> {
    Ok(())
}

/// An output file being written: bytes go to a temporary file next to `target`, which
/// [`Output::commit`] (or a [`Batch`]) renames over it. Dropped without a commit, the temporary
/// file is removed.
pub struct Output<S: Sink = File> {
    target: PathBuf,
    tmp: PathBuf,
    sink: Option<BufWriter<S>>,
    written: u64,
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

/// The folder a path's file lies in (`.` for a bare name).
fn folder(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
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
        if existed && target.is_dir() {
            return Err(format!("{} is a folder; nothing was written", target.display()));
        }
        let name = target.file_name().ok_or_else(|| format!("{}: not a file name", target.display()))?;
        let dir = folder(target);
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
        let mut out = Output { target: target.to_path_buf(), tmp, sink: None, written: 0, existed, force };
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
        self.written += bytes.len() as u64;
        r.map_err(|e| self.failure(&e))
    }

    /// Flushes, syncs and renames the temporary file over the target, then syncs its folder.
    pub fn commit(self) -> Result<(), String> {
        let mut one = Batch::new();
        one.push(self, ())?;
        match one.commit().error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Flushes the buffered bytes into the temporary file: complete, not yet durable nor in place.
    fn finish(mut self) -> Result<Finished<S>, String> {
        let sink = self.sink.take().ok_or_else(|| self.failure(&"output already closed"))?;
        let file = sink.into_inner().map_err(|e| self.failure(e.error()))?;
        Ok(Finished { shared: file.syncs_with_filesystem(), file, out: self })
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

/// A complete temporary file waiting for its sync and rename. Dropped, it is removed (`file` is
/// declared first so that it is closed before `out` removes it).
struct Finished<S: Sink> {
    file: S,
    out: Output<S>,
    /// Whether a filesystem sync makes it durable.
    shared: bool,
}

impl<S: Sink> Finished<S> {
    fn sync(&mut self) -> Result<(), String> {
        self.file.sync().map_err(|e| self.out.failure(&e))
    }

    fn sync_filesystem(&mut self) -> Result<(), String> {
        self.file.sync_filesystem().map_err(|e| self.out.failure(&e))
    }

    /// Renames the synced temporary file over the target.
    fn rename(self) -> Result<(), String> {
        let Finished { file, mut out, .. } = self;
        drop(file);
        // Someone may have created the target while we wrote: still no overwriting unasked.
        if !out.force && !out.existed && occupied(&out.target) {
            return Err(exists_message(&out.target));
        }
        std::fs::rename(&out.tmp, &out.target).map_err(|e| out.failure(&e))?;
        out.tmp = PathBuf::new();
        Ok(())
    }
}

/// Most outputs one batch holds open (macOS allows a process 256 open files by default).
pub const BATCH_FILES: usize = 64;

/// Most bytes one batch holds before its commit.
pub const BATCH_BYTES: u64 = 64 << 20;

/// Complete outputs committed together, each with a tag (what to report once it is in place).
/// Dropped without a commit, its temporary files are removed and no target is touched.
pub struct Batch<T, S: Sink = File> {
    done: Vec<(Finished<S>, T)>,
    bytes: u64,
}

/// What [`Batch::commit`] did: the tags of the outputs now in place, in the order pushed, and
/// the failure that stopped it, if any.
#[derive(Debug)]
pub struct Committed<T> {
    pub done: Vec<T>,
    pub error: Option<String>,
}

impl<T, S: Sink> Batch<T, S> {
    pub fn new() -> Self {
        Batch { done: Vec::new(), bytes: 0 }
    }

    /// Adds a complete output: flushes it and, unless its filesystem is synced whole, starts
    /// its writeback. On error the output is removed (its target untouched) and the batch keeps
    /// what it had. Outputs are pushed in the order they were created: a folder's first one
    /// was opened before the others were written, so its filesystem sync reports their errors.
    pub fn push(&mut self, out: Output<S>, tag: T) -> Result<(), String> {
        let bytes = out.written;
        let mut f = out.finish()?;
        if !f.shared {
            f.file.start_sync();
        }
        self.done.push((f, tag));
        self.bytes += bytes;
        Ok(())
    }

    /// Whether the batch should be committed before another output is added.
    pub fn is_full(&self) -> bool {
        self.done.len() >= BATCH_FILES || self.bytes >= BATCH_BYTES
    }

    /// Makes every output durable (one filesystem sync for the outputs of a folder that share
    /// it, where there are several), renames each over its target in the order pushed, then
    /// syncs each folder once. A failure stops it there, as if the outputs had been committed
    /// one by one: those before it are in place, it and those after it are removed (their
    /// targets untouched). The batch is empty afterwards.
    pub fn commit(&mut self) -> Committed<T> {
        let mut items = std::mem::take(&mut self.done);
        self.bytes = 0;
        let mut error = None;
        let folders: Vec<PathBuf> = items.iter().map(|(f, _)| folder(&f.out.target).to_path_buf()).collect();
        // Per folder, its outputs that one filesystem sync makes durable; 0 once it has run.
        let mut sharing: HashMap<&Path, usize> = HashMap::new();
        for ((f, _), dir) in items.iter().zip(&folders) {
            if f.shared {
                *sharing.entry(dir).or_default() += 1;
            }
        }
        for (i, ((f, _), dir)) in items.iter_mut().zip(&folders).enumerate() {
            let r = match sharing.get_mut(dir.as_path()).filter(|_| f.shared) {
                // The first output of the folder syncs its filesystem, for all of them.
                Some(n) if *n > 1 => {
                    *n = 0;
                    f.sync_filesystem()
                }
                Some(0) => Ok(()),
                _ => f.sync(),
            };
            if let Err(e) = r {
                error = Some(e);
                items.truncate(i);
                break;
            }
        }
        let mut done = Vec::with_capacity(items.len());
        let mut renamed_into: Vec<&Path> = Vec::new();
        for ((f, tag), dir) in items.into_iter().zip(&folders) {
            if let Err(e) = f.rename() {
                // The items not yet renamed drop with the loop: their temporary files go.
                error = Some(e);
                break;
            }
            if !renamed_into.contains(&dir.as_path()) {
                renamed_into.push(dir);
            }
            done.push(tag);
        }
        for dir in renamed_into {
            if let Err(e) = sync_dir(dir) {
                error.get_or_insert_with(|| {
                    format!("{}: {e} (syncing the folder after renaming into it)", dir.display())
                });
            }
        }
        Committed { done, error }
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

    /// The syncs the test files were asked for, in order: ("sync" or "syncfs", the file's name).
    type Log = std::rc::Rc<std::cell::RefCell<Vec<(&'static str, String)>>>;

    /// A file whose syncs fail when `fail` is set, that says whether a filesystem sync makes it
    /// durable (`shared`), and logs its syncs.
    struct Flaky {
        file: File,
        name: String,
        fail: bool,
        shared: bool,
        log: Log,
    }

    impl Write for Flaky {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.file.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.file.flush()
        }
    }

    impl Flaky {
        fn outcome(&self) -> io::Result<()> {
            if self.fail { Err(io::Error::other("input/output error")) } else { self.file.sync_data() }
        }
    }

    impl Sink for Flaky {
        fn syncs_with_filesystem(&self) -> bool {
            self.shared
        }

        fn sync_filesystem(&mut self) -> io::Result<()> {
            self.log.borrow_mut().push(("syncfs", self.name.clone()));
            self.outcome()
        }

        fn sync(&mut self) -> io::Result<()> {
            self.log.borrow_mut().push(("sync", self.name.clone()));
            self.outcome()
        }
    }

    /// An output `name` in `dir` holding `new contents NAME`, written through a [`Flaky`].
    fn flaky(dir: &Path, name: &str, fail: bool, shared: bool, log: &Log) -> Output<Flaky> {
        let log = log.clone();
        let name = name.to_string();
        let target = dir.join(&name);
        let mut out = Output::create_with(&target, true, |file| Ok(Flaky { file, name, fail, shared, log })).unwrap();
        out.write_all(format!("new contents {}", target.file_name().unwrap().to_string_lossy()).as_bytes()).unwrap();
        out
    }

    /// Five outputs `0.bpk`..`4.bpk` in one batch, the one at `bad` failing its sync; `3.bpk`
    /// exists beforehand (written with force).
    fn batch_with_failure_at(dir: &Path, bad: Option<usize>) -> Committed<usize> {
        batch_of_five(dir, bad, false, &Log::default())
    }

    /// [`batch_with_failure_at`], the outputs sharing a filesystem sync if `shared`.
    fn batch_of_five(dir: &Path, bad: Option<usize>, shared: bool, log: &Log) -> Committed<usize> {
        std::fs::write(dir.join("3.bpk"), b"the user's file").unwrap();
        let mut batch = Batch::new();
        for i in 0..5 {
            let fail = bad == Some(i);
            let out = flaky(dir, &format!("{i}.bpk"), fail, shared, log);
            batch.push(out, i).unwrap();
        }
        // Nothing is in place before the commit.
        assert_eq!(std::fs::read(dir.join("3.bpk")).unwrap(), b"the user's file");
        assert!(!occupied(&dir.join("0.bpk")));
        batch.commit()
    }

    #[test]
    fn a_batch_commits_in_order_and_stops_whole_at_a_failure() {
        let dir = scratch("batch");
        let c = batch_with_failure_at(&dir, None);
        assert_eq!((c.done, c.error), (vec![0, 1, 2, 3, 4], None));
        for i in 0..5 {
            assert_eq!(
                std::fs::read(dir.join(format!("{i}.bpk"))).unwrap(),
                format!("new contents {i}.bpk").as_bytes()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        // A failing sync in the middle: what came before is in place, the rest is not, and no
        // temporary file is left.
        for bad in 0..5 {
            let dir = scratch(&format!("batch-{bad}"));
            let c = batch_with_failure_at(&dir, Some(bad));
            assert_eq!(c.done, (0..bad).collect::<Vec<_>>());
            let err = c.error.unwrap();
            assert!(err.starts_with(&dir.join(format!("{bad}.bpk")).display().to_string()), "{err}");
            assert!(err.contains("input/output error"), "{err}");
            for i in 0..5 {
                let got = std::fs::read(dir.join(format!("{i}.bpk")));
                if i < bad {
                    assert_eq!(got.unwrap(), format!("new contents {i}.bpk").as_bytes());
                } else if i == 3 {
                    assert_eq!(got.unwrap(), b"the user's file");
                } else {
                    assert!(got.is_err(), "{i}.bpk written after a failure at {bad}");
                }
            }
            let mut want: Vec<String> = (0..bad).map(|i| format!("{i}.bpk")).collect();
            if bad <= 3 {
                want.push("3.bpk".into());
            }
            assert_eq!(leftovers(&dir), want);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn outputs_sharing_a_filesystem_sync_are_synced_once_per_folder_and_fail_together() {
        let dir = scratch("batch-shared");
        let log = Log::default();
        let c = batch_of_five(&dir, None, true, &log);
        assert_eq!((c.done, c.error), (vec![0, 1, 2, 3, 4], None));
        assert_eq!(*log.borrow(), [("syncfs", "0.bpk".to_string())]);
        for i in 0..5 {
            assert_eq!(
                std::fs::read(dir.join(format!("{i}.bpk"))).unwrap(),
                format!("new contents {i}.bpk").as_bytes()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        // The filesystem sync fails: none of the folder's outputs is durable, none is renamed.
        let dir = scratch("batch-shared-fails");
        let c = batch_of_five(&dir, Some(0), true, &Log::default());
        assert!(c.done.is_empty());
        let err = c.error.unwrap();
        assert!(err.ends_with("0.bpk: input/output error; nothing was written"), "{err}");
        assert_eq!(std::fs::read(dir.join("3.bpk")).unwrap(), b"the user's file");
        assert_eq!(leftovers(&dir), ["3.bpk"]);
        let _ = std::fs::remove_dir_all(&dir);
        // Each folder syncs its filesystem once; an output alone in its folder syncs itself, as
        // does one whose filesystem is not synced whole.
        let (a, b, c) = (scratch("batch-shared-a"), scratch("batch-shared-b"), scratch("batch-shared-c"));
        let log = Log::default();
        let mut batch = Batch::new();
        for (dir, name, shared) in
            [(&a, "1", true), (&b, "2", true), (&a, "3", true), (&c, "4", true), (&b, "5", true), (&a, "6", false)]
        {
            batch.push(flaky(dir, name, false, shared, &log), name).unwrap();
        }
        let done = batch.commit();
        assert_eq!((done.done, done.error), (vec!["1", "2", "3", "4", "5", "6"], None));
        let want = [("syncfs", "1"), ("syncfs", "2"), ("sync", "4"), ("sync", "6")];
        assert_eq!(*log.borrow(), want.map(|(k, n)| (k, n.to_string())));
        assert_eq!(leftovers(&a), ["1", "3", "6"]);
        assert_eq!(leftovers(&b), ["2", "5"]);
        assert_eq!(leftovers(&c), ["4"]);
        for d in [a, b, c] {
            let _ = std::fs::remove_dir_all(&d);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn kernel_releases_from_5_8_report_syncfs_errors() {
        for (release, yes) in
            [("6.1.0-18-amd64", true), ("5.8.0", true), ("5.10.209", true), ("5.7.19", false), ("4.19.0-26", false)]
        {
            assert_eq!(sys::release_at_least(release, (5, 8)), yes, "{release}");
        }
        assert!(sys::release_at_least("6.18.44-fc-v669\n", (5, 8)));
        assert!(!sys::release_at_least("garbage", (5, 8)));
    }

    #[test]
    fn a_batch_stops_at_a_target_that_appeared_and_a_dropped_batch_leaves_nothing() {
        let dir = scratch("batch-late");
        let mut batch = Batch::new();
        for name in ["a", "b", "c"] {
            let mut out = Output::create(&dir.join(name), false).unwrap();
            out.write_all(name.as_bytes()).unwrap();
            batch.push(out, name).unwrap();
        }
        std::fs::write(dir.join("b"), b"someone else's").unwrap();
        let c = batch.commit();
        assert_eq!(c.done, ["a"]);
        assert!(c.error.unwrap().contains("b already exists"));
        assert_eq!(std::fs::read(dir.join("b")).unwrap(), b"someone else's");
        assert_eq!(leftovers(&dir), ["a", "b"]);
        // The batch is empty after a commit; a batch dropped uncommitted removes its files.
        assert!(batch.commit().done.is_empty());
        let mut out = Output::create(&dir.join("d"), false).unwrap();
        out.write_all(b"d").unwrap();
        batch.push(out, "d").unwrap();
        drop(batch);
        assert_eq!(leftovers(&dir), ["a", "b"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_batch_is_full_at_its_file_or_byte_cap() {
        let dir = scratch("batch-cap");
        let mut batch = Batch::new();
        for i in 0..BATCH_FILES {
            assert!(!batch.is_full());
            let out = Output::create(&dir.join(format!("{i}")), false).unwrap();
            batch.push(out, ()).unwrap();
        }
        assert!(batch.is_full());
        assert_eq!(batch.commit().done.len(), BATCH_FILES);
        assert!(!batch.is_full());
        let mut out = Output::create(&dir.join("big"), true).unwrap();
        out.write_all(&vec![0; BATCH_BYTES as usize]).unwrap();
        batch.push(out, ()).unwrap();
        assert!(batch.is_full());
        assert!(batch.commit().error.is_none());
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
