//! The one error type of reflection, paths, text and registries.

use alloc::string::String;

/// What went wrong, naming the path (from the value the call started at) and the types.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A struct or variant has no field of that name.
    #[error("`{path}`: {type_name} has no field `{field}`")]
    NoField {
        /// Path to the value searched.
        path: String,
        /// Its type.
        type_name: &'static str,
        /// The missing field.
        field: String,
    },
    /// An index past the end of a list (or tuple fields).
    #[error("`{path}`: index {index} is out of range for {type_name} of length {len}")]
    NoIndex {
        /// Path to the list.
        path: String,
        /// Its type.
        type_name: &'static str,
        /// The index asked for.
        index: usize,
        /// The length.
        len: usize,
    },
    /// A map has no such key.
    #[error("`{path}`: {type_name} has no key {key:?}")]
    NoKey {
        /// Path to the map.
        path: String,
        /// Its type.
        type_name: &'static str,
        /// The key asked for.
        key: String,
    },
    /// An enum has no variant of that name.
    #[error("`{path}`: {type_name} has no variant `{variant}`")]
    NoVariant {
        /// Path to the enum.
        path: String,
        /// Its type.
        type_name: &'static str,
        /// The variant asked for.
        variant: String,
    },
    /// The value at the path is not of the type asked for.
    #[error("`{path}`: expected {expected}, found {found}")]
    WrongType {
        /// Path to the value.
        path: String,
        /// The type asked for.
        expected: &'static str,
        /// The type found.
        found: &'static str,
    },
    /// Text could not be read as the expected type.
    #[error("`{path}`: cannot read {text:?} as {expected}: {reason}")]
    Parse {
        /// Path to the value being set.
        path: String,
        /// Its type.
        expected: &'static str,
        /// The text (cut to 64 characters).
        text: String,
        /// Why.
        reason: String,
    },
    /// An array's length cannot change.
    #[error("`{path}`: {type_name} has a fixed length of {len}, found {found} elements")]
    FixedLength {
        /// Path to the array.
        path: String,
        /// Its type.
        type_name: &'static str,
        /// Its length.
        len: usize,
        /// The length the text or call asked for.
        found: usize,
    },
    /// A container needed a new element (growing a list, a new map entry or set element,
    /// switching an `Option` to `Some`) of a type that cannot create one: it has no
    /// `Default` and no `#[reflect(create = path)]` factory ([`Typed::create`](crate::Typed::create)).
    #[error("`{path}`: cannot create a new {type_name} (no `Default` and no `#[reflect(create = ..)]`)")]
    NoDefault {
        /// Path to the container.
        path: String,
        /// The type that could not be created.
        type_name: &'static str,
    },
    /// A serde format could not be read into a value, or a value could not be written.
    #[error("`{path}`: {reason}")]
    Serde {
        /// Path to the value.
        path: String,
        /// The format's message.
        reason: String,
    },
    /// A path string is malformed.
    #[error("bad path {path:?} at byte {at}: {reason}")]
    BadPath {
        /// The path.
        path: String,
        /// Byte offset of the problem.
        at: usize,
        /// Why.
        reason: &'static str,
    },
    /// No kind of that name is registered.
    #[error("unknown kind `{0}`")]
    UnknownKind(String),
    /// Two kinds were registered under one name.
    #[error("kind `{0}` is registered twice")]
    DuplicateKind(&'static str),
}

/// Cuts `text` to at most 64 characters for an error message (hostile inputs can be huge).
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(64) {
        Some((i, _)) => {
            let mut s = String::from(&text[..i]);
            s.push('…');
            s
        }
        None => String::from(text),
    }
}

impl Error {
    /// The same error with `prefix` put in front of its path (`prefix` + `.` + path, or
    /// `prefix` + `[..]` when the path starts with an index).
    #[must_use]
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        if prefix.is_empty() {
            return self;
        }
        let path = match &mut self {
            Error::NoField { path, .. }
            | Error::NoIndex { path, .. }
            | Error::NoKey { path, .. }
            | Error::NoVariant { path, .. }
            | Error::WrongType { path, .. }
            | Error::Parse { path, .. }
            | Error::FixedLength { path, .. }
            | Error::NoDefault { path, .. }
            | Error::Serde { path, .. }
            | Error::BadPath { path, .. } => path,
            Error::UnknownKind(_) | Error::DuplicateKind(_) => return self,
        };
        let mut joined = String::from(prefix);
        if !path.is_empty() && !path.starts_with('[') {
            joined.push('.');
        }
        joined.push_str(path);
        *path = joined;
        self
    }
}
