//! Thing documents: named things of registered kinds, as the world editor post keeps them.
//!
//! A [`Document`] is a list of [`Thing`]s, each a boxed reflected value of a registered kind
//! with a name. Its parameters are the value's top-level fields, each stored as its text form
//! (see [`crate::text`]). Saving and loading go through XML (feature `xml`, module
//! [`crate::xml`]) or any serde format (feature `serde`, [`DocumentData`]).
//!
//! Nothing a user wrote is dropped silently: parameters the kind does not have are kept in
//! [`Thing::unknown`], values that could not be read are kept in [`Thing::rejected`], things
//! of unknown kinds are kept whole in [`Document::unknown`], comments in
//! [`Document::comments`], and all of them are written back on save (and listed in the load
//! [`Report`]). What has no place in the format (unknown elements, attributes and text) is
//! skipped and listed in the report.

use crate::error::Error;
use crate::info::Shape;
use crate::registry::Registry;
use crate::{Reflect, text};
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// A parameter as written in a file: a name and a text value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Param {
    /// The parameter (field) name.
    pub name: String,
    /// Its text form.
    pub value: String,
}

impl Param {
    /// A parameter.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self { name: name.into(), value: value.into() }
    }
}

/// The parameter name used for a thing whose kind is not a struct (its whole value).
pub const VALUE_PARAM: &str = "value";

/// One named thing of a registered kind.
#[derive(Debug)]
pub struct Thing {
    /// The thing's name (may be empty, need not be unique).
    pub name: String,
    /// Its value; its type info names its kind.
    pub value: Box<dyn Reflect>,
    /// Parameters found in a file that the kind does not have, written back on save.
    pub unknown: Vec<Param>,
    /// Parameters found in a file whose values could not be read, written back on save (as
    /// `<rejected>`) until the parameter is set again with [`Thing::set_text`].
    pub rejected: Vec<Param>,
}

impl Thing {
    /// A thing holding `value`.
    pub fn new(name: impl Into<String>, value: Box<dyn Reflect>) -> Self {
        Self { name: name.into(), value, unknown: Vec::new(), rejected: Vec::new() }
    }

    /// A new thing of the kind called `kind` with default values.
    ///
    /// # Errors
    /// [`Error::UnknownKind`].
    pub fn create(registry: &Registry, kind: &str, name: impl Into<String>) -> Result<Self, Error> {
        Ok(Self::new(name, registry.create(kind)?))
    }

    /// The thing's kind name.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        self.value.type_info().name
    }

    /// Sets the value at `path` from text (see [`crate::text`]), and forgets any rejected text
    /// of that parameter.
    ///
    /// # Errors
    /// As `dyn Reflect::set_text`.
    pub fn set_text(&mut self, path: &str, text: &str) -> Result<(), Error> {
        self.value.set_text(path, text)?;
        let top = path.split(['.', '[']).next().unwrap_or(path);
        self.rejected.retain(|p| p.name != top);
        Ok(())
    }

    /// The thing's parameters: one per top-level field of a struct kind (in declaration
    /// order), or one called [`VALUE_PARAM`] for other kinds.
    #[must_use]
    pub fn params(&self) -> Vec<Param> {
        let mut out = Vec::new();
        self.for_each_param(|name, value| out.push(Param::new(name, value)));
        out
    }

    /// Calls `f(name, text)` for each parameter, reusing one text buffer.
    pub fn for_each_param(&self, mut f: impl FnMut(&str, &str)) {
        let mut buf = String::new();
        match self.value.reflect_ref() {
            crate::ReflectRef::Struct(s) => {
                let info = s.info();
                for (i, field) in info.fields.iter().enumerate() {
                    buf.clear();
                    if let Some(v) = s.field_at(i) {
                        text::write_text(v, &mut buf);
                    }
                    f(field.name, &buf);
                }
            }
            _ => {
                text::write_text(&*self.value, &mut buf);
                f(VALUE_PARAM, &buf);
            }
        }
    }

    /// A copy made by creating a new value of the same kind and copying the parameters.
    ///
    /// # Errors
    /// [`Error::UnknownKind`] when the kind is not in `registry`.
    pub fn duplicate(&self, registry: &Registry) -> Result<Self, Error> {
        let mut value = registry.create(self.kind())?;
        value.apply(&*self.value)?;
        Ok(Self { name: self.name.clone(), value, unknown: self.unknown.clone(), rejected: self.rejected.clone() })
    }
}

/// A thing whose kind was not registered when it was loaded, kept as written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawThing {
    /// The kind name as written.
    pub kind: String,
    /// The thing's name.
    pub name: String,
    /// Its parameters as written.
    pub params: Vec<Param>,
}

/// A list of things.
#[derive(Debug, Default)]
pub struct Document {
    /// The things, in file order.
    pub things: Vec<Thing>,
    /// Things of unknown kinds, kept whole and written back after the others.
    pub unknown: Vec<RawThing>,
    /// Comments found in the file, written back at the top of the document.
    pub comments: Vec<String>,
}

impl Document {
    /// An empty document.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The first thing called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Thing> {
        self.things.iter().find(|t| t.name == name)
    }

    /// The first thing called `name`, mutably.
    #[must_use]
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Thing> {
        self.things.iter_mut().find(|t| t.name == name)
    }
}

/// What a load could not take as written; everything else was loaded.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// No kind of that name is registered; the thing is kept in [`Document::unknown`].
    UnknownKind,
    /// The kind has no such parameter; it is kept in [`Thing::unknown`].
    UnknownParameter,
    /// The parameter is missing; the field keeps its default value.
    MissingParameter,
    /// The parameter appears twice; the last value wins.
    DuplicateParameter,
    /// The value could not be read; the field keeps its default value, untouched (reading is
    /// all or nothing), and the text is kept in [`Thing::rejected`].
    BadValue(Error),
    /// A `<rejected>` parameter saved from an earlier load, kept again.
    StillRejected,
    /// An element that has no place here (its content is skipped).
    UnexpectedElement(String),
    /// A required attribute (`kind`, `name`, `value`) is missing.
    MissingAttribute(&'static str),
    /// Text content where only elements belong.
    UnexpectedText,
    /// An attribute the format does not have (ignored).
    UnknownAttribute(String),
    /// A thing written where things have no place (inside an unexpected element or inside
    /// another thing): it is skipped with everything in it, and named here so that the user
    /// can move it to the top level of the file.
    LostThing {
        /// The skipped thing's kind as written.
        kind: String,
        /// The skipped thing's name.
        name: String,
        /// The element it was found in.
        inside: String,
    },
}

/// One problem found while loading.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// 1-based line of the element or attribute (0 for data without lines, such as serde).
    pub line: usize,
    /// 1-based column, in characters, of the element or attribute (0 when unknown).
    pub column: usize,
    /// The thing's name (empty outside things).
    pub thing: String,
    /// The thing's kind as written (empty outside things).
    pub kind: String,
    /// The parameter, when the problem is about one.
    pub parameter: Option<String>,
    /// What is wrong.
    pub reason: ProblemKind,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if self.column > 0 {
            write!(f, ", column {}", self.column)?;
        }
        if !self.kind.is_empty() || !self.thing.is_empty() {
            write!(f, ", thing {:?} ({})", self.thing, self.kind)?;
        }
        if let Some(p) = &self.parameter {
            write!(f, ", parameter `{p}`")?;
        }
        match &self.reason {
            ProblemKind::UnknownKind => write!(f, ": unknown kind, thing kept as written"),
            ProblemKind::UnknownParameter => write!(f, ": unknown parameter, kept as written"),
            ProblemKind::MissingParameter => write!(f, ": missing, default value used"),
            ProblemKind::DuplicateParameter => write!(f, ": given twice, last value used"),
            ProblemKind::BadValue(e) => write!(f, ": {e}; value left at its default, text kept"),
            ProblemKind::StillRejected => write!(f, ": rejected in an earlier load, text kept"),
            ProblemKind::UnexpectedElement(name) => write!(f, ": unexpected element <{name}> skipped"),
            ProblemKind::MissingAttribute(a) => write!(f, ": missing attribute `{a}`"),
            ProblemKind::UnexpectedText => write!(f, ": unexpected text skipped"),
            ProblemKind::UnknownAttribute(a) => write!(f, ": unknown attribute `{a}` ignored"),
            ProblemKind::LostThing { kind, name, inside } => {
                write!(f, ": thing {name:?} ({kind}) inside <{inside}> skipped (things belong at the top level)")
            }
        }
    }
}

/// The problems of one load, in file order: the first [`Report::max_problems`] are kept,
/// the rest only counted (a hostile file cannot make the report grow without bound).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The problems kept.
    pub problems: Vec<Problem>,
    /// Problems found after [`problems`](Self::problems) was full: counted, not kept.
    pub omitted: usize,
    max_problems: usize,
}

impl Default for Report {
    fn default() -> Self {
        Self::with_max_problems(Self::DEFAULT_MAX_PROBLEMS)
    }
}

impl Report {
    /// How many problems a report keeps unless told otherwise.
    pub const DEFAULT_MAX_PROBLEMS: usize = 10_000;

    /// An empty report that keeps at most `max_problems` problems.
    #[must_use]
    pub fn with_max_problems(max_problems: usize) -> Self {
        Self { problems: Vec::new(), omitted: 0, max_problems }
    }

    /// The most problems this report keeps.
    #[must_use]
    pub fn max_problems(&self) -> usize {
        self.max_problems
    }

    /// Adds a problem, or counts it in [`omitted`](Self::omitted) when the report is full.
    pub fn push(&mut self, problem: Problem) {
        if self.problems.len() < self.max_problems {
            self.problems.push(problem);
        } else {
            self.omitted = self.omitted.saturating_add(1);
        }
    }

    /// The number of problems found, kept or not.
    #[must_use]
    pub fn total(&self) -> usize {
        self.problems.len().saturating_add(self.omitted)
    }

    /// Whether the file loaded exactly as written.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.total() == 0
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.problems {
            writeln!(f, "{p}")?;
        }
        if self.omitted > 0 {
            writeln!(f, "… and {} more problems not listed", self.omitted)?;
        }
        Ok(())
    }
}

/// Applies one parameter to a thing, recording problems. Shared by the XML and serde loaders.
#[cfg_attr(not(any(feature = "xml", feature = "serde")), allow(dead_code))] // used by the loaders
pub(crate) fn apply_param(
    thing: &mut Thing,
    seen: &mut [bool],
    param: Param,
    (line, column): (usize, usize),
    report: &mut Report,
) {
    let problem = |thing: &Thing, parameter: &str, reason| Problem {
        line,
        column,
        thing: thing.name.clone(),
        kind: thing.kind().to_string(),
        parameter: Some(parameter.to_string()),
        reason,
    };
    let index = match &thing.value.type_info().shape {
        Shape::Struct(s) => s.index_of(&param.name),
        _ => (param.name == VALUE_PARAM).then_some(0),
    };
    let Some(index) = index else {
        report.push(problem(thing, &param.name, ProblemKind::UnknownParameter));
        thing.unknown.push(param);
        return;
    };
    if seen.get(index).copied().unwrap_or(false) {
        report.push(problem(thing, &param.name, ProblemKind::DuplicateParameter));
        thing.rejected.retain(|p| p.name != param.name);
    }
    if let Some(s) = seen.get_mut(index) {
        *s = true;
    }
    let target: Option<&mut dyn Reflect> = match thing.value.reflect_mut() {
        crate::ReflectMut::Struct(s) => s.field_at_mut(index),
        _ => None,
    };
    let target = match target {
        Some(t) => t,
        None => &mut *thing.value,
    };
    if let Err(e) = text::set_text(target, &param.value) {
        report.push(problem(thing, &param.name, ProblemKind::BadValue(e.with_prefix(&param.name))));
        thing.rejected.push(param);
    }
}

/// The number of parameters a thing of this value's kind has.
#[cfg_attr(not(any(feature = "xml", feature = "serde")), allow(dead_code))] // used by the loaders
pub(crate) fn param_count(value: &dyn Reflect) -> usize {
    match &value.type_info().shape {
        Shape::Struct(s) => s.fields.len(),
        _ => 1,
    }
}

/// Reports the parameters not seen (unless marked `#[reflect(default)]`).
#[cfg_attr(not(any(feature = "xml", feature = "serde")), allow(dead_code))] // used by the loaders
pub(crate) fn report_missing(thing: &Thing, seen: &[bool], (line, column): (usize, usize), report: &mut Report) {
    let fields = match &thing.value.type_info().shape {
        Shape::Struct(s) => s.fields,
        _ => &[],
    };
    for (i, was_seen) in seen.iter().enumerate() {
        if *was_seen {
            continue;
        }
        let (name, optional) = fields.get(i).map_or((VALUE_PARAM, false), |f| (f.name, f.attrs.default));
        if !optional {
            report.push(Problem {
                line,
                column,
                thing: thing.name.clone(),
                kind: thing.kind().to_string(),
                parameter: Some(name.to_string()),
                reason: ProblemKind::MissingParameter,
            });
        }
    }
}
