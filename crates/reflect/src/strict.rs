//! Typed values from an XML thing document, strictly: a document is taken whole or refused
//! with its first problem, missing parameters keep the kind's defaults, and each named thing
//! comes out as its Rust type. Game configuration (enemy kinds, weapon tables) wants this.
//!
//! [`Document::from_xml`] is forgiving: an editor keeps everything the user wrote and reports
//! what it could not take. A game's configuration wants the opposite: a typo must stop the load
//! with a clear message (line, thing, parameter) instead of silently running on defaults.
//!
//! ```
//! use lore_reflect::{Limits, Reflect, Registry, StrictError, load_strict, thing_value};
//!
//! #[derive(Reflect, Clone, Debug, PartialEq)]
//! struct Enemy {
//!     speed: f32,
//!     hp: u32,
//! }
//!
//! impl Default for Enemy {
//!     fn default() -> Self {
//!         Self { speed: 1.0, hp: 3 }
//!     }
//! }
//!
//! # fn main() -> Result<(), StrictError> {
//! let mut registry = Registry::new();
//! registry.register::<Enemy>().expect("a new kind");
//! let xml = r#"<things>
//!   <thing kind="Enemy" name="bat"><parameter name="speed" value="4.5"/></thing>
//! </things>"#;
//! let doc = load_strict(xml, &registry, &Limits::default())?;
//! // `hp` is missing from the file: it keeps the default.
//! assert_eq!(thing_value::<Enemy>(&doc, "bat")?, Enemy { speed: 4.5, hp: 3 });
//!
//! // A misspelt parameter refuses the whole document, naming the line.
//! let typo = r#"<things>
//!   <thing kind="Enemy" name="bat"><parameter name="sped" value="4.5"/></thing>
//! </things>"#;
//! let err = load_strict(typo, &registry, &Limits::default()).unwrap_err();
//! assert!(err.to_string().contains("line 2"), "{err}");
//! # Ok(())
//! # }
//! ```

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::string::String;

use crate::{Document, Limits, LoadError, Problem, ProblemKind, Reflect, Registry};

/// Why a strict load refused a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StrictError {
    /// The text is not a well-formed document.
    #[error("not a thing document: {0}")]
    Load(#[from] LoadError),
    /// The document has a problem other than a missing parameter.
    #[error("{0}")]
    Problem(Box<Problem>),
    /// More problems than [`Limits::max_problems`] were found, so the ones past it could not
    /// be checked: raise the limit (missing parameters are notes, they do not count).
    #[error("{omitted} problems past the report's limit of {kept} could not be checked")]
    Unchecked {
        /// Problems counted but not kept.
        omitted: usize,
        /// Problems kept (the limit).
        kept: usize,
    },
    /// No thing of that name.
    #[error("no thing named {name:?} (of kind {kind})")]
    MissingThing {
        /// The name looked for.
        name: String,
        /// The kind expected.
        kind: &'static str,
    },
    /// The thing exists but is of another kind.
    #[error("thing {name:?} is a {found}, expected a {expected}")]
    WrongKind {
        /// The thing's name.
        name: String,
        /// The kind expected.
        expected: &'static str,
        /// The kind found.
        found: &'static str,
    },
}

/// Reads `text` as a thing document and refuses it on the first problem the forgiving loader
/// reports, except [`ProblemKind::MissingParameter`]: a missing parameter keeps its default.
///
/// # Errors
/// [`StrictError::Load`] for text that is not a document or breaks `limits`,
/// [`StrictError::Problem`] for the first problem (unknown kind or parameter, unreadable value,
/// duplicate, stray element...), [`StrictError::Unchecked`] when the report kept none of the
/// problems it found ([`Limits::max_problems`] is 0).
pub fn load_strict(text: &str, registry: &Registry, limits: &Limits) -> Result<Document, StrictError> {
    let (doc, report) = Document::from_xml_with(text, registry, limits)?;
    let kept = report.problems.len();
    match report.problems.into_iter().find(|p| p.reason != ProblemKind::MissingParameter) {
        Some(problem) => Err(StrictError::Problem(Box::new(problem))),
        None if report.omitted > 0 => Err(StrictError::Unchecked { omitted: report.omitted, kept }),
        None => Ok(doc),
    }
}

/// A copy of the value of the thing called `name`, as its Rust type `T`.
///
/// # Errors
/// [`StrictError::MissingThing`] when no thing has that name, [`StrictError::WrongKind`] when
/// it is not a `T`.
pub fn thing_value<T: Reflect + Clone + 'static>(doc: &Document, name: &str) -> Result<T, StrictError> {
    let expected = core::any::type_name::<T>().rsplit("::").next().unwrap_or("?");
    let Some(thing) = doc.get(name) else {
        return Err(StrictError::MissingThing { name: name.to_owned(), kind: expected });
    };
    thing.value.as_any().downcast_ref::<T>().cloned().ok_or_else(|| StrictError::WrongKind {
        name: name.to_owned(),
        expected,
        found: thing.kind(),
    })
}

/// Why a document file could not be read ([`read_capped`]).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file, as shown to a user.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is larger than the cap.
    #[error("{path}: {len} bytes, more than the {max} allowed")]
    TooLarge {
        /// The file, as shown to a user.
        path: String,
        /// Its size.
        len: u64,
        /// The cap.
        max: u64,
    },
}

/// Reads a document file (a game's kinds, a level) whole as text, refusing one larger than
/// `max_bytes` before reading it: a file a user hands the program cannot make it read
/// gigabytes. Hand the text to [`load_strict`].
///
/// # Errors
/// [`FileError::TooLarge`] past the cap, [`FileError::Io`] for a missing or unreadable file or
/// one that is not UTF-8.
pub fn read_capped(path: &std::path::Path, max_bytes: u64) -> Result<String, FileError> {
    let shown = || alloc::string::ToString::to_string(&path.display());
    let len = std::fs::metadata(path).map_err(|source| FileError::Io { path: shown(), source })?.len();
    if len > max_bytes {
        return Err(FileError::TooLarge { path: shown(), len, max: max_bytes });
    }
    std::fs::read_to_string(path).map_err(|source| FileError::Io { path: shown(), source })
}
