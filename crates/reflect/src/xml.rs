//! Thing documents in XML, in the shape of the world editor post:
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <things>
//!   <thing kind="Thing2" name="item 1">
//!     <parameter name="x" value="111.11"/>
//!   </thing>
//! </things>
//! ```
//!
//! Reading accepts any root element name and processing instructions, keeps comments (written
//! back after the root's start tag), reports attributes it does not know, and refuses
//! what could make a small file expensive: `<!DOCTYPE>` (so no entity can expand), nesting
//! deeper than [`Limits::max_depth`], attribute values longer than [`Limits::max_value_len`],
//! more than [`Limits::max_things`] things. Malformed XML is a [`LoadError`] with its line;
//! well-formed XML with content problems loads everything valid and lists the rest in the
//! [`Report`].

use crate::document::{
    Document, Param, Problem, ProblemKind, RawThing, Report, Thing, apply_param, param_count, report_missing,
};
use crate::error::excerpt;
use crate::registry::Registry;
use quick_xml::events::{BytesStart, Event};
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// Bounds on what a document may ask of the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest element nesting accepted (root = 1). Default 16.
    pub max_depth: usize,
    /// Longest attribute value in bytes. Default 1 MiB.
    pub max_value_len: usize,
    /// Most things in one document. Default 1,000,000.
    pub max_things: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_depth: 16, max_value_len: 1 << 20, max_things: 1_000_000 }
    }
}

/// Why a document could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not well-formed XML (unclosed or mismatched tags, bad attributes, unknown
    /// entities…).
    #[error("line {line}: malformed XML: {message}")]
    Malformed {
        /// 1-based line.
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// The file ended inside an element.
    #[error("line {line}: element <{name}> is never closed")]
    Unclosed {
        /// Line of the end of the file.
        line: usize,
        /// The innermost open element.
        name: String,
    },
    /// Elements nested deeper than [`Limits::max_depth`].
    #[error("line {line}: elements nested deeper than {limit}")]
    TooDeep {
        /// Line of the element that went too deep.
        line: usize,
        /// The limit.
        limit: usize,
    },
    /// An attribute value longer than [`Limits::max_value_len`].
    #[error("line {line}: an attribute value of {len} bytes is longer than the limit of {limit}")]
    TooLong {
        /// Line of the element.
        line: usize,
        /// The value's length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// More things than [`Limits::max_things`].
    #[error("line {line}: more than {limit} things")]
    TooMany {
        /// Line of the thing past the limit.
        line: usize,
        /// The limit.
        limit: usize,
    },
    /// A `<!DOCTYPE>` declaration (entity definitions are not supported, so none can expand).
    #[error("line {line}: DOCTYPE declarations are not accepted")]
    Doctype {
        /// 1-based line.
        line: usize,
    },
    /// No root element.
    #[error("the document has no root element")]
    NoRoot,
    /// Content after the root element.
    #[error("line {line}: content after the root element")]
    AfterRoot {
        /// 1-based line.
        line: usize,
    },
}

/// Appends `text` to `out` as an attribute value: `& < > "` and the whitespace characters that
/// attribute normalisation would turn into spaces are escaped, so every string reads back the
/// same.
pub fn escape_attr(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\n' => "&#10;",
            b'\r' => "&#13;",
            b'\t' => "&#9;",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        out.push_str(rep);
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

fn write_param(out: &mut String, element: &str, name: &str, value: &str) {
    out.push_str("    <");
    out.push_str(element);
    out.push_str(" name=\"");
    escape_attr(name, out);
    out.push_str("\" value=\"");
    escape_attr(value, out);
    out.push_str("\"/>\n");
}

fn write_thing_start(out: &mut String, kind: &str, name: &str) {
    out.push_str("  <thing kind=\"");
    escape_attr(kind, out);
    out.push_str("\" name=\"");
    escape_attr(name, out);
    out.push_str("\">\n");
}

impl Document {
    /// The document as XML (root element `things`). Unknown parameters, rejected values and
    /// things of unknown kinds are written back as they were read.
    #[must_use]
    pub fn to_xml(&self) -> String {
        let mut out = String::with_capacity(64 + self.things.len() * 160);
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n");
        for c in &self.comments {
            out.push_str("  <!--");
            out.push_str(c);
            out.push_str("-->\n");
        }
        for thing in &self.things {
            write_thing_start(&mut out, thing.kind(), &thing.name);
            thing.for_each_param(|name, value| write_param(&mut out, "parameter", name, value));
            for p in &thing.unknown {
                write_param(&mut out, "parameter", &p.name, &p.value);
            }
            for p in &thing.rejected {
                write_param(&mut out, "rejected", &p.name, &p.value);
            }
            out.push_str("  </thing>\n");
        }
        for raw in &self.unknown {
            write_thing_start(&mut out, &raw.kind, &raw.name);
            for p in &raw.params {
                write_param(&mut out, "parameter", &p.name, &p.value);
            }
            out.push_str("  </thing>\n");
        }
        out.push_str("</things>\n");
        out
    }

    /// Reads a document with the default [`Limits`].
    ///
    /// # Errors
    /// [`LoadError`] when the text is not well-formed XML or breaks a limit. Content problems
    /// (unknown kinds or parameters, missing parameters, bad values) are not errors: they are
    /// in the [`Report`], and everything valid is loaded.
    pub fn from_xml(text: &str, registry: &Registry) -> Result<(Self, Report), LoadError> {
        Self::from_xml_with(text, registry, &Limits::default())
    }

    /// Reads a document with the given limits.
    ///
    /// # Errors
    /// As [`from_xml`](Self::from_xml).
    pub fn from_xml_with(text: &str, registry: &Registry, limits: &Limits) -> Result<(Self, Report), LoadError> {
        Loader::new(text, registry, limits).run()
    }
}

/// Counts lines incrementally (positions only move forward).
struct Lines<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl Lines<'_> {
    fn at(&mut self, pos: usize) -> usize {
        let pos = pos.min(self.text.len());
        if pos >= self.pos {
            self.line += self.text[self.pos..pos].iter().filter(|&&b| b == b'\n').count();
        } else {
            self.line -= self.text[pos..self.pos].iter().filter(|&&b| b == b'\n').count();
        }
        self.pos = pos;
        self.line
    }
}

enum Current {
    None,
    Thing { thing: Thing, seen: Vec<bool>, line: usize },
    Raw(RawThing),
}

struct Loader<'a> {
    reader: quick_xml::Reader<&'a [u8]>,
    registry: &'a Registry,
    limits: &'a Limits,
    lines: Lines<'a>,
    doc: Document,
    report: Report,
    current: Current,
    /// Names of the open elements (the root is `stack[0]`).
    stack: Vec<String>,
    /// Depth at which an unexpected element's subtree is being skipped.
    skip_from: Option<usize>,
    things: usize,
}

impl<'a> Loader<'a> {
    fn new(text: &'a str, registry: &'a Registry, limits: &'a Limits) -> Self {
        let mut reader = quick_xml::Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        Self {
            reader,
            registry,
            limits,
            lines: Lines { text: text.as_bytes(), pos: 0, line: 1 },
            doc: Document::new(),
            report: Report::default(),
            current: Current::None,
            stack: Vec::new(),
            skip_from: None,
            things: 0,
        }
    }

    fn malformed(&mut self, e: &quick_xml::Error) -> LoadError {
        let line = self.lines.at(self.reader.error_position() as usize);
        LoadError::Malformed { line, message: excerpt(&e.to_string()) }
    }

    fn run(mut self) -> Result<(Document, Report), LoadError> {
        let mut root_done = false;
        loop {
            let start = self.reader.buffer_position() as usize;
            let event = match self.reader.read_event() {
                Ok(e) => e,
                Err(e) => return Err(self.malformed(&e)),
            };
            let line = self.lines.at(start);
            match event {
                Event::Start(_) | Event::Empty(_) if root_done => return Err(LoadError::AfterRoot { line }),
                Event::Start(e) => {
                    if self.stack.len() >= self.limits.max_depth {
                        return Err(LoadError::TooDeep { line, limit: self.limits.max_depth });
                    }
                    let name = e.name().as_ref().to_string();
                    self.open(&e, &name, line, false)?;
                    self.stack.push(name);
                }
                Event::Empty(e) => {
                    if self.stack.len() >= self.limits.max_depth {
                        return Err(LoadError::TooDeep { line, limit: self.limits.max_depth });
                    }
                    let name = e.name().as_ref().to_string();
                    self.open(&e, &name, line, true)?;
                    if self.stack.is_empty() {
                        root_done = true;
                    }
                }
                Event::End(_) => {
                    self.stack.pop();
                    self.close();
                    if self.stack.is_empty() {
                        root_done = true;
                    }
                }
                Event::Text(t) => {
                    let text: &str = t.as_ref();
                    if let Some(offset) = text.find(|c: char| !c.is_whitespace()) {
                        let line = self.lines.at(start + offset);
                        if self.stack.is_empty() {
                            return Err(if root_done { LoadError::AfterRoot { line } } else { LoadError::NoRoot });
                        }
                        self.problem(line, None, ProblemKind::UnexpectedText);
                    }
                }
                Event::CData(_) | Event::GeneralRef(_) => {
                    if self.stack.is_empty() {
                        return Err(LoadError::NoRoot);
                    }
                    self.problem(line, None, ProblemKind::UnexpectedText);
                }
                Event::DocType(_) => return Err(LoadError::Doctype { line }),
                Event::Comment(c) => self.doc.comments.push(AsRef::<str>::as_ref(&c).to_string()),
                Event::Decl(_) | Event::PI(_) => {}
                Event::Eof => {
                    if let Some(name) = self.stack.last() {
                        return Err(LoadError::Unclosed { line, name: excerpt(name) });
                    }
                    if !root_done {
                        return Err(LoadError::NoRoot);
                    }
                    return Ok((self.doc, self.report));
                }
            }
        }
    }

    fn problem(&mut self, line: usize, parameter: Option<String>, reason: ProblemKind) {
        let (thing, kind) = match &self.current {
            Current::None => (String::new(), String::new()),
            Current::Thing { thing, .. } => (thing.name.clone(), thing.kind().to_string()),
            Current::Raw(raw) => (raw.name.clone(), raw.kind.clone()),
        };
        self.report.problems.push(Problem { line, thing, kind, parameter, reason });
    }

    /// The attributes `wanted` of `e` (missing ones `None`), unescaped.
    fn attrs<const N: usize>(
        &mut self,
        e: &BytesStart<'_>,
        wanted: [&str; N],
        line: usize,
    ) -> Result<([Option<String>; N], Vec<String>), LoadError> {
        let mut out: [Option<String>; N] = std::array::from_fn(|_| None);
        let mut unknown = Vec::new();
        for attr in e.attributes() {
            let attr = attr.map_err(|err| self.malformed(&err.into()))?;
            if attr.value.len() > self.limits.max_value_len {
                return Err(LoadError::TooLong { line, len: attr.value.len(), limit: self.limits.max_value_len });
            }
            let Some(slot) = wanted.iter().position(|w| *w == attr.key.as_ref()) else {
                unknown.push(excerpt(attr.key.as_ref()));
                continue;
            };
            let value =
                attr.normalized_value(quick_xml::XmlVersion::Implicit1_0).map_err(|err| self.malformed(&err))?;
            out[slot] = Some(value.into_owned());
        }
        Ok((out, unknown))
    }

    fn report_attributes(&mut self, line: usize, parameter: Option<&str>, unknown: Vec<String>) {
        for name in unknown {
            self.problem(line, parameter.map(str::to_string), ProblemKind::UnknownAttribute(name));
        }
    }

    fn open(&mut self, e: &BytesStart<'_>, name: &str, line: usize, empty: bool) -> Result<(), LoadError> {
        let depth = self.stack.len();
        if self.skip_from.is_some() {
            // Inside a skipped subtree (already reported); attribute limits still apply.
            self.attrs(e, [], line)?;
            return Ok(());
        }
        if depth == 0 {
            // The root element, whatever its name.
            let ([], unknown) = self.attrs(e, [], line)?;
            self.report_attributes(line, None, unknown);
            return Ok(());
        }
        match (depth, name) {
            (1, "thing") => {
                self.things += 1;
                if self.things > self.limits.max_things {
                    return Err(LoadError::TooMany { line, limit: self.limits.max_things });
                }
                let ([kind, thing_name], unknown) = self.attrs(e, ["kind", "name"], line)?;
                let thing_name = thing_name.unwrap_or_default();
                self.current = match kind.as_deref().map(|k| self.registry.create(k)) {
                    Some(Ok(value)) => {
                        let seen = vec![false; param_count(&*value)];
                        Current::Thing { thing: Thing::new(thing_name, value), seen, line }
                    }
                    Some(Err(_)) => {
                        let raw = RawThing { kind: kind.unwrap_or_default(), name: thing_name, params: Vec::new() };
                        self.current = Current::Raw(raw);
                        self.problem(line, None, ProblemKind::UnknownKind);
                        std::mem::replace(&mut self.current, Current::None)
                    }
                    None => {
                        self.current =
                            Current::Raw(RawThing { kind: String::new(), name: thing_name, params: Vec::new() });
                        self.problem(line, None, ProblemKind::MissingAttribute("kind"));
                        std::mem::replace(&mut self.current, Current::None)
                    }
                };
                self.report_attributes(line, None, unknown);
                if empty {
                    self.finish_thing();
                }
            }
            (2, "parameter" | "rejected") if !matches!(self.current, Current::None) => {
                let ([pname, value], unknown) = self.attrs(e, ["name", "value"], line)?;
                self.report_attributes(line, pname.as_deref(), unknown);
                let (Some(pname), Some(value)) = (pname, value) else {
                    self.problem(line, None, ProblemKind::MissingAttribute("name` or `value"));
                    return Ok(());
                };
                let param = Param { name: pname, value };
                let rejected = name == "rejected";
                match &mut self.current {
                    Current::Thing { thing, seen, .. } => {
                        if rejected {
                            let pname = param.name.clone();
                            thing.rejected.push(param);
                            self.problem(line, Some(pname), ProblemKind::StillRejected);
                        } else {
                            apply_param(thing, seen, param, line, &mut self.report);
                        }
                    }
                    Current::Raw(raw) => raw.params.push(param),
                    Current::None => {}
                }
            }
            _ => {
                self.attrs(e, [], line)?;
                self.problem(line, None, ProblemKind::UnexpectedElement(excerpt(name)));
                if !empty {
                    self.skip_from = Some(depth);
                }
            }
        }
        Ok(())
    }

    fn close(&mut self) {
        let depth = self.stack.len();
        if let Some(from) = self.skip_from {
            if depth <= from {
                self.skip_from = None;
            }
            return;
        }
        if depth == 1 {
            self.finish_thing();
        }
    }

    fn finish_thing(&mut self) {
        match std::mem::replace(&mut self.current, Current::None) {
            // Missing parameters are reported at the thing's start tag.
            Current::Thing { thing, seen, line: start } => {
                report_missing(&thing, &seen, start, &mut self.report);
                self.doc.things.push(thing);
            }
            Current::Raw(raw) => self.doc.unknown.push(raw),
            Current::None => {}
        }
    }
}
