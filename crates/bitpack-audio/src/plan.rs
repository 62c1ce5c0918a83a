//! Which files a batch of inputs is written to, checked before anything is written (std only).
//!
//! The `bitpack` CLI encodes or decodes many files at once; the house rules ask that two inputs
//! never map to one output and that no input is written over, and that this is refused before
//! the first file is touched. [`files_of`] expands folders into their files, [`plan`] maps each
//! input to its target (and sidecar) and refuses collisions, comparing paths by
//! [`identity`] so that two spellings of one file (`a/../x.wav`, a link) are one file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::vec::Vec;

/// Why a batch cannot be planned; nothing has been written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// A folder (or one of its entries) could not be listed.
    #[error("{}: cannot list the folder: {source}", folder.display())]
    List {
        /// The folder.
        folder: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The inputs hold no file with one of the extensions asked for.
    #[error("no .{} input files", extensions.join(" or ."))]
    NoInputs {
        /// The extensions asked for, without dots.
        extensions: Vec<String>,
    },
    /// An input path has no file name to derive a target from (`..`, `/`).
    #[error("{}: not a file name", input.display())]
    NotAFileName {
        /// The input.
        input: PathBuf,
    },
    /// Two inputs would be written to one file.
    #[error(
        "{} and {} would both be written to {}; nothing was written",
        first.display(), second.display(), target.display()
    )]
    SameTarget {
        /// The input listed first.
        first: PathBuf,
        /// The input listed later.
        second: PathBuf,
        /// The file both map to.
        target: PathBuf,
    },
    /// An output would replace one of the inputs.
    #[error("{} would be written over the input {}; nothing was written", target.display(), input.display())]
    OverInput {
        /// The output.
        target: PathBuf,
        /// The input it names.
        input: PathBuf,
    },
}

/// The files named in `inputs`, each folder replaced by its files with one of the extensions
/// `exts` (compared without case, sorted), in the order given (a file named twice is listed
/// twice: [`plan`] refuses two inputs onto one output).
///
/// # Errors
/// [`PlanError::List`] when a folder or one of its entries cannot be read (a silently shorter
/// list would look like a complete one); [`PlanError::NoInputs`] when nothing is left.
pub fn files_of(inputs: &[PathBuf], exts: &[&str]) -> Result<Vec<PathBuf>, PlanError> {
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let list = |source| PlanError::List { folder: p.clone(), source };
            let mut v = Vec::new();
            for e in std::fs::read_dir(p).map_err(list)? {
                let f = e.map_err(list)?.path();
                if f.extension().is_some_and(|x| exts.iter().any(|ext| x.eq_ignore_ascii_case(ext))) {
                    v.push(f);
                }
            }
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        return Err(PlanError::NoInputs { extensions: exts.iter().map(|e| (*e).into()).collect() });
    }
    Ok(out)
}

/// `p` in a form two spellings of one path share: the canonical folder and the file name (for
/// a link, the canonical path). `folders` keeps the canonical folders found, so that a folder
/// of many files is resolved once (each resolution reads every component of the path). A path
/// that does not exist yet keeps its folder's canonical form, so planned targets compare too.
pub fn identity(p: &Path, folders: &mut HashMap<PathBuf, PathBuf>) -> PathBuf {
    // A link (or a path without a file name) resolves whole; anything else by its folder.
    if (p.file_name().is_none() || p.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()))
        && let Ok(c) = p.canonicalize()
    {
        return c;
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let canonical = folders.entry(dir.to_path_buf()).or_insert_with(|| {
        dir.canonicalize().or_else(|_| std::path::absolute(dir)).unwrap_or_else(|_| dir.to_path_buf())
    });
    canonical.join(p.file_name().unwrap_or_default())
}

/// One input and the files it will be written to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The input file.
    pub input: PathBuf,
    /// The output file.
    pub target: PathBuf,
    /// A second output beside it (the classic stream's sidecar), if any.
    pub sidecar: Option<PathBuf>,
}

/// The targets of `inputs`: each input with the extension `ext`, in the folder `out` when
/// given (else beside the input), with a second output `sidecar(target)` when asked. Checked
/// before anything is written: no two inputs onto one file, no input written over. Whether a
/// target already exists is the caller's check (it decides what `--force` means).
///
/// # Errors
/// [`PlanError::NotAFileName`], [`PlanError::SameTarget`], [`PlanError::OverInput`].
pub fn plan(
    inputs: &[PathBuf],
    out: Option<&Path>,
    ext: &str,
    sidecar: Option<&dyn Fn(&Path) -> PathBuf>,
) -> Result<Vec<Job>, PlanError> {
    let mut jobs = Vec::new();
    for input in inputs {
        let name = input.with_extension(ext);
        let name = name.file_name().ok_or_else(|| PlanError::NotAFileName { input: input.clone() })?;
        let target = match out {
            Some(dir) => dir.join(name),
            None => input.with_extension(ext),
        };
        let sidecar = sidecar.map(|path_for| path_for(&target));
        jobs.push(Job { input: input.clone(), target, sidecar });
    }
    let mut folders = HashMap::new();
    let sources: HashMap<PathBuf, &Path> = inputs.iter().map(|i| (identity(i, &mut folders), i.as_path())).collect();
    let mut claimed: HashMap<PathBuf, &Path> = HashMap::new();
    for job in &jobs {
        for t in std::iter::once(&job.target).chain(&job.sidecar) {
            let id = identity(t, &mut folders);
            if let Some(first) = claimed.insert(id.clone(), &job.input) {
                return Err(PlanError::SameTarget {
                    first: first.to_path_buf(),
                    second: job.input.clone(),
                    target: t.clone(),
                });
            }
            if let Some(src) = sources.get(&id) {
                return Err(PlanError::OverInput { target: t.clone(), input: src.to_path_buf() });
            }
        }
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lore-bitpack-plan-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn folders_expand_sorted_by_extension_without_case() {
        let dir = scratch("files");
        for f in ["b.wav", "a.WAV", "c.bpk", "d.txt"] {
            fs::write(dir.join(f), b"x").unwrap();
        }
        let got = files_of(std::slice::from_ref(&dir), &["wav"]).unwrap();
        assert_eq!(got, vec![dir.join("a.WAV"), dir.join("b.wav")]);
        let both = files_of(&[dir.clone(), dir.join("b.wav")], &["wav", "bpk"]).unwrap();
        assert_eq!(both.len(), 4);
        let none = files_of(std::slice::from_ref(&dir), &["flac"]).unwrap_err();
        assert_eq!(none.to_string(), "no .flac input files");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_spellings_of_one_target_are_refused() {
        let dir = scratch("same");
        fs::create_dir_all(dir.join("sub")).unwrap();
        let a = dir.join("x.wav");
        let b = dir.join("sub/../x.wav");
        let e = plan(&[a.clone(), b.clone()], None, "bpk", None).unwrap_err();
        assert!(matches!(&e, PlanError::SameTarget { first, second, .. } if *first == a && *second == b), "{e}");
        // Distinct names in one output folder are fine, with their sidecars.
        let jobs = plan(
            &[a.clone(), dir.join("y.wav")],
            Some(&dir.join("out")),
            "bits",
            Some(&|t: &Path| t.with_extension("meta")),
        )
        .unwrap();
        assert_eq!(jobs[1].target, dir.join("out/y.bits"));
        assert_eq!(jobs[1].sidecar.as_deref(), Some(dir.join("out/y.meta").as_path()));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_over_an_input_is_refused() {
        let dir = scratch("over");
        let wav = dir.join("x.wav");
        let bpk = dir.join("x.bpk");
        let e = plan(&[wav, bpk.clone()], None, "bpk", None).unwrap_err();
        assert!(matches!(&e, PlanError::OverInput { target, input } if *target == bpk && *input == bpk), "{e}");
        assert!(matches!(plan(&[PathBuf::from("..")], None, "bpk", None), Err(PlanError::NotAFileName { .. })));
        fs::remove_dir_all(&dir).unwrap();
    }
}
