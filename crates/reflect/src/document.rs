//! Thing documents: named things of registered kinds, as the world editor post keeps them.
//!
//! A [`Document`] is a list of [`Thing`]s, each a boxed reflected value of a registered kind
//! with a name. Its parameters are the value's top-level fields, each stored as its text form
//! (see [`crate::text`]). Saving and loading go through XML (feature `xml`, module
//! [`crate::xml`]) or any serde format (feature `serde`, [`DocumentData`]).
//!
//! Nothing a user wrote is dropped: parameters the kind does not have are kept in
//! [`Thing::unknown`], values that could not be read are kept in [`Thing::rejected`], things
//! of unknown kinds are kept whole in [`Document::unknown`], comments in
//! [`Document::comments`], and all of them are written back on save (and listed in the load
//! [`Report`]). A document read from XML also keeps its source text (see
//! [`Thing::has_source`]): elements and attributes the format does not have, comments,
//! whitespace and the way each value was written are written back in place, so that opening
//! and saving a file with no edit writes back exactly what was read, and an edit changes only
//! the bytes of what it edited.

use crate::error::Error;
use crate::info::Shape;
use crate::registry::Registry;
use crate::{Reflect, text};
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

pub(crate) mod source;

pub(crate) use source::{DocSource, Piece, ThingSource};

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
    /// Parameters found in a file whose values could not be read, written back on save (in
    /// place as they were written when the thing came from a file, otherwise as `<rejected>`)
    /// until the parameter is set again with [`Thing::set_text`].
    pub rejected: Vec<Param>,
    /// How the thing was written in its file (`None` for a thing made in code).
    pub(crate) source: Option<Box<ThingSource>>,
}

/// Something a file held that the loader kept without understanding it: listed by
/// [`Thing::kept`], for an inspector to show as read-only text with its problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The parameter's name, or the element's name for an element the format does not have.
    pub name: String,
    /// The text as written: the value of a parameter, the whole element otherwise.
    pub text: String,
    /// Why it was not understood.
    pub problem: String,
}

impl Thing {
    /// A thing holding `value`.
    pub fn new(name: impl Into<String>, value: Box<dyn Reflect>) -> Self {
        Self { name: name.into(), value, unknown: Vec::new(), rejected: Vec::new(), source: None }
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
        self.forget_rejected(path);
        Ok(())
    }

    /// Forgets the rejected text of the parameter `path` is in (its first segment), once its
    /// value was set another way (an inspector editing [`value`](Self::value) directly): a save
    /// then writes the value instead of the text.
    pub fn forget_rejected(&mut self, path: &str) {
        let top = path.split(['.', '[']).next().unwrap_or(path);
        let top = if top.is_empty() { VALUE_PARAM } else { top };
        self.rejected.retain(|p| p.name != top);
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

    /// Writes the text form of parameter `index` (see [`params`](Self::params)) into `out`.
    #[cfg_attr(not(feature = "xml"), allow(dead_code))] // used by the XML loader and writer
    pub(crate) fn param_text(&self, index: usize, out: &mut String) {
        out.clear();
        match self.value.reflect_ref() {
            crate::ReflectRef::Struct(s) => {
                if let Some(v) = s.field_at(index) {
                    text::write_text(v, out);
                }
            }
            _ => text::write_text(&*self.value, out),
        }
    }

    /// A copy made by creating a new value of the same kind and copying the parameters; the
    /// copy keeps the source text too, so it saves exactly as the original would (an undo
    /// step). Call [`forget_source`](Self::forget_source) on a copy meant as a new thing.
    ///
    /// # Errors
    /// [`Error::UnknownKind`] when the kind is not in `registry`.
    pub fn duplicate(&self, registry: &Registry) -> Result<Self, Error> {
        let mut value = registry.create(self.kind())?;
        value.apply(&*self.value)?;
        Ok(Self {
            name: self.name.clone(),
            value,
            unknown: self.unknown.clone(),
            rejected: self.rejected.clone(),
            source: self.source.clone(),
        })
    }

    /// Whether the thing keeps the text it was read from (it came from an XML file): saving
    /// then writes that text back, changing only what was edited since.
    #[must_use]
    pub fn has_source(&self) -> bool {
        self.source.is_some()
    }

    /// Forgets the text the thing was read from: it then saves in the canonical form, and
    /// elements inside it that the format does not have (kept only in that text) are dropped.
    /// Its unknown and rejected parameters stay.
    pub fn forget_source(&mut self) {
        self.source = None;
    }

    /// What the thing holds without understanding it, in file order: values that did not
    /// read, parameters its kind does not have, and elements the format does not have.
    #[must_use]
    pub fn kept(&self) -> Vec<Kept> {
        let mut out = Vec::new();
        let mut listed_rejected = Vec::new();
        if let Some(src) = &self.source {
            for piece in &src.pieces {
                match piece {
                    Piece::Element { name, text } => out.push(Kept {
                        name: name.clone(),
                        text: src.at(text).into(),
                        problem: String::from("an element this format does not have; kept as written"),
                    }),
                    Piece::Param { rejected: Some((param, why)), .. } if self.rejected.contains(param) => {
                        listed_rejected.push(param.clone());
                        out.push(Kept { name: param.name.clone(), text: param.value.clone(), problem: why.clone() });
                    }
                    _ => {}
                }
            }
        }
        for p in &self.rejected {
            if let Some(i) = listed_rejected.iter().position(|q| q == p) {
                listed_rejected.swap_remove(i);
                continue;
            }
            out.push(Kept {
                name: p.name.clone(),
                text: p.value.clone(),
                problem: String::from("did not read in an earlier load; kept as written"),
            });
        }
        for p in &self.unknown {
            out.push(Kept {
                name: p.name.clone(),
                text: p.value.clone(),
                problem: alloc::format!("{} has no parameter `{}`; kept as written", self.kind(), p.name),
            });
        }
        out
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
    /// Things of unknown kinds, kept whole: written back in place when the document was read
    /// from XML, after the others otherwise (and for those added since).
    pub unknown: Vec<RawThing>,
    /// Comments found in the file. A document read from XML writes those back in place; the
    /// others (a document made in code, comments pushed after the load) are written at the top.
    pub comments: Vec<String>,
    /// How the document was written around its things (`None` for one made in code).
    pub(crate) source: Option<Box<DocSource>>,
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

    /// Whether the document keeps the text it was read from (see [`Thing::has_source`]).
    #[must_use]
    pub fn has_source(&self) -> bool {
        self.source.is_some()
    }

    /// Forgets the text the document and its things were read from: it then saves in the
    /// canonical form (comments at the top, things of unknown kinds last), dropping what only
    /// that text held (elements the format does not have, whitespace).
    pub fn forget_source(&mut self) {
        self.source = None;
        for t in &mut self.things {
            t.forget_source();
        }
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
    /// The parameter is missing; the field keeps its default value. Not a problem of the
    /// file (a file from an older version lacks the fields added since): it goes to
    /// [`Report::notes`], not [`Report::problems`].
    MissingParameter,
    /// The parameter appears twice; the last value wins.
    DuplicateParameter,
    /// The value could not be read; the field keeps its default value, untouched (reading is
    /// all or nothing), and the text is kept in [`Thing::rejected`].
    BadValue(Error),
    /// A `<rejected>` parameter saved from an earlier load, kept again.
    StillRejected,
    /// An element that has no place here: not read, kept as written (with its content).
    UnexpectedElement(String),
    /// A required attribute (`kind`, `name`, `value`) is missing.
    MissingAttribute(&'static str),
    /// Text content where only elements belong: not read, kept as written.
    UnexpectedText,
    /// An attribute the format does not have: not read, kept as written.
    UnknownAttribute(String),
    /// A thing written where things have no place (inside an unexpected element or inside
    /// another thing): not loaded but kept as written with everything around it, and named
    /// here so that the user can move it to the top level of the file.
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
            ProblemKind::UnexpectedElement(name) => {
                write!(f, ": unexpected element <{name}> not read, kept as written")
            }
            ProblemKind::MissingAttribute(a) => write!(f, ": missing attribute `{a}`, element kept as written"),
            ProblemKind::UnexpectedText => write!(f, ": unexpected text not read, kept as written"),
            ProblemKind::UnknownAttribute(a) => write!(f, ": unknown attribute `{a}` not read, kept as written"),
            ProblemKind::LostThing { kind, name, inside } => write!(
                f,
                ": thing {name:?} ({kind}) inside <{inside}> not loaded, kept as written (things belong at the top level)"
            ),
        }
    }
}

/// The problems of one load, in file order: the first [`Report::max_problems`] are kept,
/// the rest only counted (a hostile file cannot make the report grow without bound).
///
/// Missing parameters are not problems of the file: they are [`notes`](Self::notes)
/// (information), capped the same way.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The problems kept.
    pub problems: Vec<Problem>,
    /// Problems found after [`problems`](Self::problems) was full: counted, not kept.
    pub omitted: usize,
    /// Information: parameters missing from the file, whose fields kept their defaults
    /// ([`ProblemKind::MissingParameter`]).
    pub notes: Vec<Problem>,
    /// Notes found after [`notes`](Self::notes) was full: counted, not kept.
    pub notes_omitted: usize,
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
        Self { problems: Vec::new(), omitted: 0, notes: Vec::new(), notes_omitted: 0, max_problems }
    }

    /// The most problems this report keeps.
    #[must_use]
    pub fn max_problems(&self) -> usize {
        self.max_problems
    }

    /// Adds a problem, or counts it in [`omitted`](Self::omitted) when the report is full. A
    /// [`ProblemKind::MissingParameter`] goes to [`notes`](Self::notes) instead.
    pub fn push(&mut self, problem: Problem) {
        if problem.reason == ProblemKind::MissingParameter {
            if self.notes.len() < self.max_problems {
                self.notes.push(problem);
            } else {
                self.notes_omitted = self.notes_omitted.saturating_add(1);
            }
        } else if self.problems.len() < self.max_problems {
            self.problems.push(problem);
        } else {
            self.omitted = self.omitted.saturating_add(1);
        }
    }

    /// The number of problems found, kept or not (notes not counted).
    #[must_use]
    pub fn total(&self) -> usize {
        self.problems.len().saturating_add(self.omitted)
    }

    /// The number of notes (missing parameters), kept or not.
    #[must_use]
    pub fn notes_total(&self) -> usize {
        self.notes.len().saturating_add(self.notes_omitted)
    }

    /// Whether the file had no problem: everything in it was understood (parameters may be
    /// missing; see [`notes`](Self::notes)).
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

/// What [`apply_param`] did with a parameter.
#[cfg_attr(not(any(feature = "xml", feature = "serde")), allow(dead_code))] // used by the loaders
pub(crate) enum Applied {
    /// The kind has no such parameter: pushed to [`Thing::unknown`].
    Unknown,
    /// Parameter `index` was set.
    Set(usize),
    /// Parameter `index` did not read (the message says why): pushed to [`Thing::rejected`].
    Rejected(usize, String),
}

/// Applies one parameter to a thing, recording problems. Shared by the XML and serde loaders.
#[cfg_attr(not(any(feature = "xml", feature = "serde")), allow(dead_code))] // used by the loaders
pub(crate) fn apply_param(
    thing: &mut Thing,
    seen: &mut [bool],
    param: Param,
    (line, column): (usize, usize),
    report: &mut Report,
) -> Applied {
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
        return Applied::Unknown;
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
    match text::set_text(target, &param.value) {
        Ok(()) => Applied::Set(index),
        Err(e) => {
            let e = e.with_prefix(&param.name);
            let why = e.to_string();
            report.push(problem(thing, &param.name, ProblemKind::BadValue(e)));
            thing.rejected.push(param);
            Applied::Rejected(index, why)
        }
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
