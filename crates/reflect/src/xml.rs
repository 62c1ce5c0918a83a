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
    /// Most problems a load [`Report`] keeps; the rest are only counted
    /// ([`Report::omitted`]). Default [`Report::DEFAULT_MAX_PROBLEMS`].
    pub max_problems: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: 16,
            max_value_len: 1 << 20,
            max_things: 1_000_000,
            max_problems: Report::DEFAULT_MAX_PROBLEMS,
        }
    }
}

/// Why a document could not be read at all. Positions are 1-based; columns count characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not well-formed XML (unclosed or mismatched tags, bad attributes, unknown
    /// entities…).
    #[error("line {line}, column {column}: malformed XML: {message}")]
    Malformed {
        /// Line of the problem.
        line: usize,
        /// Column of the problem.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The file ended inside an element.
    #[error("line {line}, column {column}: element <{name}> is never closed")]
    Unclosed {
        /// Line of the end of the file.
        line: usize,
        /// Column of the end of the file.
        column: usize,
        /// The innermost open element.
        name: String,
    },
    /// Elements nested deeper than [`Limits::max_depth`].
    #[error("line {line}, column {column}: elements nested deeper than {limit}")]
    TooDeep {
        /// Line of the element that went too deep.
        line: usize,
        /// Column of its `<`.
        column: usize,
        /// The limit.
        limit: usize,
    },
    /// An attribute value longer than [`Limits::max_value_len`].
    #[error("line {line}, column {column}: an attribute value of {len} bytes is longer than the limit of {limit}")]
    TooLong {
        /// Line of the attribute.
        line: usize,
        /// Column of the attribute.
        column: usize,
        /// The value's length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// More things than [`Limits::max_things`].
    #[error("line {line}, column {column}: more than {limit} things")]
    TooMany {
        /// Line of the thing past the limit.
        line: usize,
        /// Column of its `<`.
        column: usize,
        /// The limit.
        limit: usize,
    },
    /// A `<!DOCTYPE>` declaration (entity definitions are not supported, so none can expand).
    #[error("line {line}: DOCTYPE declarations are not accepted")]
    Doctype {
        /// 1-based line.
        line: usize,
    },
    /// A character XML 1.0 cannot carry (NUL and most other control characters, U+FFFE,
    /// U+FFFF), written directly or as a character reference.
    #[error("line {line}, column {column}: character U+{code:04X} is not allowed in XML 1.0")]
    InvalidChar {
        /// Line of the character (of the attribute, for a character reference).
        line: usize,
        /// Column of the character (of the attribute, for a character reference).
        column: usize,
        /// The character's code point.
        code: u32,
    },
    /// No root element.
    #[error("the document has no root element")]
    NoRoot,
    /// Content after the root element.
    #[error("line {line}, column {column}: content after the root element")]
    AfterRoot {
        /// Line of the content.
        line: usize,
        /// Column of the content.
        column: usize,
    },
}

/// Why a document could not be written as XML.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// A name or value holds a character XML 1.0 cannot carry (NUL and most other control
    /// characters, U+FFFE, U+FFFF): no file could bring it back.
    #[error("thing {thing:?}{}: character U+{code:04X} cannot be written to XML", in_parameter(.parameter.as_deref()))]
    InvalidChar {
        /// The thing's name (with the character replaced by U+FFFD).
        thing: String,
        /// The parameter holding the character (`None` for the thing's name or kind).
        parameter: Option<String>,
        /// The character's code point.
        code: u32,
    },
}

fn in_parameter(parameter: Option<&str>) -> String {
    parameter.map(|p| std::format!(", parameter `{p}`")).unwrap_or_default()
}

/// Whether XML 1.0 can carry `c` (its `Char` production).
#[must_use]
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The first character of `text` XML 1.0 cannot carry, with its byte offset.
#[must_use]
pub fn find_non_xml_char(text: &str) -> Option<(usize, char)> {
    // Fast path: every byte at or above 0x20 (other than the bytes of U+FFFE / U+FFFF, which
    // start with 0xEF) is a valid character or part of one.
    if text.bytes().all(|b| b >= 0x20 && b != 0xEF || matches!(b, b'\t' | b'\n' | b'\r')) {
        return None;
    }
    text.char_indices().find(|&(_, c)| !is_xml_char(c))
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
    /// things of unknown kinds are written back as they were read. Text is written as it is:
    /// a name or value holding a character XML 1.0 cannot carry (NUL…) makes a file that no
    /// reader accepts, so save users' files with [`try_to_xml`](Self::try_to_xml).
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

    /// The document as XML, refusing text that XML 1.0 cannot carry (which [`to_xml`]
    /// would write as is, giving a file no reader accepts). Use this to save a user's file.
    ///
    /// # Errors
    /// [`SaveError::InvalidChar`] naming the thing and parameter.
    ///
    /// [`to_xml`]: Self::to_xml
    pub fn try_to_xml(&self) -> Result<String, SaveError> {
        let xml = self.to_xml();
        if find_non_xml_char(&xml).is_none() {
            return Ok(xml);
        }
        let error = |thing: &str, parameter: Option<&str>, text: &str| {
            find_non_xml_char(text).map(|(_, c)| SaveError::InvalidChar {
                thing: thing.chars().map(|c| if is_xml_char(c) { c } else { char::REPLACEMENT_CHARACTER }).collect(),
                parameter: parameter.map(ToString::to_string),
                code: u32::from(c),
            })
        };
        let mut found = None;
        for c in &self.comments {
            found = found.or_else(|| error("", Some("<!-- comment -->"), c));
        }
        for thing in &self.things {
            found = found.or_else(|| error(&thing.name, None, &thing.name));
            thing.for_each_param(|name, value| {
                found = found
                    .take()
                    .or_else(|| error(&thing.name, Some(name), name).or_else(|| error(&thing.name, Some(name), value)));
            });
            for p in thing.unknown.iter().chain(&thing.rejected) {
                found = found.or_else(|| {
                    error(&thing.name, Some(&p.name), &p.name).or_else(|| error(&thing.name, Some(&p.name), &p.value))
                });
            }
        }
        for raw in &self.unknown {
            found = found.or_else(|| error(&raw.name, None, &raw.name)).or_else(|| error(&raw.name, None, &raw.kind));
            for p in &raw.params {
                found = found.or_else(|| {
                    error(&raw.name, Some(&p.name), &p.name).or_else(|| error(&raw.name, Some(&p.name), &p.value))
                });
            }
        }
        Err(found.unwrap_or(SaveError::InvalidChar { thing: String::new(), parameter: None, code: 0 }))
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

/// Turns byte offsets into lines and columns incrementally (positions mostly move forward).
struct Lines<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    /// The column of `pos`, in characters.
    column: usize,
}

/// A 1-based line and column.
type At = (usize, usize);

impl Lines<'_> {
    fn at(&mut self, pos: usize) -> At {
        let pos = pos.min(self.text.len());
        if pos >= self.pos {
            for &b in &self.text[self.pos..pos] {
                if b == b'\n' {
                    self.line += 1;
                    self.column = 1;
                } else if b & 0xC0 != 0x80 {
                    self.column += 1;
                }
            }
        } else {
            // Backwards (rare: an error inside an element already passed): count again from
            // the start of the line.
            self.line -= self.text[pos..self.pos].iter().filter(|&&b| b == b'\n').count();
            let line_start = self.text[..pos].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            self.column = 1 + self.text[line_start..pos].iter().filter(|&&b| b & 0xC0 != 0x80).count();
        }
        self.pos = pos;
        (self.line, self.column)
    }

    /// The byte offset of `part` when it is a slice of the text (attribute keys and values
    /// read from a borrowed text are).
    fn offset_of(&self, part: &[u8]) -> Option<usize> {
        let start = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        (at >= start && at <= start + self.text.len()).then(|| at - start)
    }
}

enum Current {
    None,
    Thing { thing: Thing, seen: Vec<bool>, at: At },
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
            lines: Lines { text: text.as_bytes(), pos: 0, line: 1, column: 1 },
            doc: Document::new(),
            report: Report::with_max_problems(limits.max_problems),
            current: Current::None,
            stack: Vec::new(),
            skip_from: None,
            things: 0,
        }
    }

    fn malformed_at(&mut self, pos: usize, e: &quick_xml::Error) -> LoadError {
        let (line, column) = self.lines.at(pos);
        LoadError::Malformed { line, column, message: excerpt(&e.to_string()) }
    }

    fn malformed(&mut self, e: &quick_xml::Error) -> LoadError {
        self.malformed_at(self.reader.error_position() as usize, e)
    }

    fn run(mut self) -> Result<(Document, Report), LoadError> {
        // Characters XML cannot carry are refused wherever they are (names, values, comments).
        if let Some((pos, c)) = find_non_xml_char(core::str::from_utf8(self.lines.text).unwrap_or_default()) {
            let (line, column) = self.lines.at(pos);
            return Err(LoadError::InvalidChar { line, column, code: u32::from(c) });
        }
        let mut root_done = false;
        loop {
            let start = self.reader.buffer_position() as usize;
            let event = match self.reader.read_event() {
                Ok(e) => e,
                Err(e) => return Err(self.malformed(&e)),
            };
            let at @ (line, column) = self.lines.at(start);
            match event {
                Event::Start(_) | Event::Empty(_) if root_done => return Err(LoadError::AfterRoot { line, column }),
                Event::Start(_) | Event::Empty(_) if self.stack.len() >= self.limits.max_depth => {
                    return Err(LoadError::TooDeep { line, column, limit: self.limits.max_depth });
                }
                Event::Start(e) => {
                    let name = e.name().as_ref().to_string();
                    self.open(&e, &name, at, false)?;
                    self.stack.push(name);
                }
                Event::Empty(e) => {
                    let name = e.name().as_ref().to_string();
                    self.open(&e, &name, at, true)?;
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
                        let at @ (line, column) = self.lines.at(start + offset);
                        if self.stack.is_empty() {
                            return Err(if root_done {
                                LoadError::AfterRoot { line, column }
                            } else {
                                LoadError::NoRoot
                            });
                        }
                        self.problem(at, None, ProblemKind::UnexpectedText);
                    }
                }
                Event::CData(_) | Event::GeneralRef(_) => {
                    if self.stack.is_empty() {
                        return Err(LoadError::NoRoot);
                    }
                    self.problem(at, None, ProblemKind::UnexpectedText);
                }
                Event::DocType(_) => return Err(LoadError::Doctype { line }),
                Event::Comment(c) => self.doc.comments.push(AsRef::<str>::as_ref(&c).to_string()),
                Event::Decl(_) | Event::PI(_) => {}
                Event::Eof => {
                    if let Some(name) = self.stack.last() {
                        return Err(LoadError::Unclosed { line, column, name: excerpt(name) });
                    }
                    if !root_done {
                        return Err(LoadError::NoRoot);
                    }
                    return Ok((self.doc, self.report));
                }
            }
        }
    }

    fn problem(&mut self, (line, column): At, parameter: Option<String>, reason: ProblemKind) {
        let (thing, kind) = match &self.current {
            Current::None => (String::new(), String::new()),
            Current::Thing { thing, .. } => (thing.name.clone(), thing.kind().to_string()),
            Current::Raw(raw) => (raw.name.clone(), raw.kind.clone()),
        };
        self.report.push(Problem { line, column, thing, kind, parameter, reason });
    }

    /// The attributes `wanted` of `e` (missing ones `None`), unescaped, with the position of
    /// each; and the names of the others with theirs.
    #[allow(clippy::type_complexity)] // one private call site
    fn attrs<const N: usize>(
        &mut self,
        e: &BytesStart<'_>,
        wanted: [&str; N],
        element: At,
    ) -> Result<([Option<(String, At)>; N], Vec<(String, At)>), LoadError> {
        let mut out: [Option<(String, At)>; N] = std::array::from_fn(|_| None);
        let mut unknown = Vec::new();
        // Positions inside the tag: quick-xml counts from the byte after `<`.
        let tag = self.lines.offset_of(AsRef::<str>::as_ref(&**e).as_bytes());
        for attr in e.attributes() {
            let attr = match attr {
                Ok(attr) => attr,
                Err(err) => {
                    let pos = tag.map_or(self.lines.pos, |t| t + attr_error_offset(&err));
                    return Err(self.malformed_at(pos, &err.into()));
                }
            };
            let at = match self.lines.offset_of(attr.key.as_ref().as_bytes()) {
                Some(pos) if tag.is_some() => self.lines.at(pos),
                _ => element,
            };
            if attr.value.len() > self.limits.max_value_len {
                let (line, column) = at;
                return Err(LoadError::TooLong {
                    line,
                    column,
                    len: attr.value.len(),
                    limit: self.limits.max_value_len,
                });
            }
            let Some(slot) = wanted.iter().position(|w| *w == attr.key.as_ref()) else {
                unknown.push((excerpt(attr.key.as_ref()), at));
                continue;
            };
            let value = attr
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|err| LoadError::Malformed { line: at.0, column: at.1, message: excerpt(&err.to_string()) })?;
            // A character reference (`&#0;`) can name a character XML cannot carry.
            if let Some((_, c)) = find_non_xml_char(&value) {
                return Err(LoadError::InvalidChar { line: at.0, column: at.1, code: u32::from(c) });
            }
            out[slot] = Some((value.into_owned(), at));
        }
        Ok((out, unknown))
    }

    fn report_attributes(&mut self, parameter: Option<&str>, unknown: Vec<(String, At)>) {
        for (name, at) in unknown {
            self.problem(at, parameter.map(str::to_string), ProblemKind::UnknownAttribute(name));
        }
    }

    fn open(&mut self, e: &BytesStart<'_>, name: &str, at: At, empty: bool) -> Result<(), LoadError> {
        let depth = self.stack.len();
        if depth > 1 && name == "thing" {
            // A thing where things have no place: named in the report, skipped with its content.
            let ([kind, thing_name], _) = self.attrs(e, ["kind", "name"], at)?;
            let inside = self.stack.last().map_or_else(String::new, |s| excerpt(s));
            let lost = ProblemKind::LostThing {
                kind: kind.map(|k| excerpt(&k.0)).unwrap_or_default(),
                name: thing_name.map(|n| excerpt(&n.0)).unwrap_or_default(),
                inside,
            };
            self.problem(at, None, lost);
            if !empty && self.skip_from.is_none() {
                self.skip_from = Some(depth);
            }
            return Ok(());
        }
        if self.skip_from.is_some() {
            // Inside a skipped subtree (already reported); attribute limits still apply.
            self.attrs(e, [], at)?;
            return Ok(());
        }
        if depth == 0 {
            // The root element, whatever its name.
            let ([], unknown) = self.attrs(e, [], at)?;
            self.report_attributes(None, unknown);
            return Ok(());
        }
        match (depth, name) {
            (1, "thing") => {
                self.things += 1;
                if self.things > self.limits.max_things {
                    let (line, column) = at;
                    return Err(LoadError::TooMany { line, column, limit: self.limits.max_things });
                }
                let ([kind, thing_name], unknown) = self.attrs(e, ["kind", "name"], at)?;
                let kind = kind.map(|k| k.0);
                let thing_name = thing_name.map(|n| n.0).unwrap_or_default();
                self.current = match kind.as_deref().map(|k| self.registry.create(k)) {
                    Some(Ok(value)) => {
                        let seen = vec![false; param_count(&*value)];
                        Current::Thing { thing: Thing::new(thing_name, value), seen, at }
                    }
                    Some(Err(_)) => {
                        let raw = RawThing { kind: kind.unwrap_or_default(), name: thing_name, params: Vec::new() };
                        self.current = Current::Raw(raw);
                        self.problem(at, None, ProblemKind::UnknownKind);
                        std::mem::replace(&mut self.current, Current::None)
                    }
                    None => {
                        self.current =
                            Current::Raw(RawThing { kind: String::new(), name: thing_name, params: Vec::new() });
                        self.problem(at, None, ProblemKind::MissingAttribute("kind"));
                        std::mem::replace(&mut self.current, Current::None)
                    }
                };
                self.report_attributes(None, unknown);
                if empty {
                    self.finish_thing();
                }
            }
            (2, "parameter" | "rejected") if !matches!(self.current, Current::None) => {
                let ([pname, value], unknown) = self.attrs(e, ["name", "value"], at)?;
                self.report_attributes(pname.as_ref().map(|p| p.0.as_str()), unknown);
                let (Some((pname, _)), Some((value, value_at))) = (pname, value) else {
                    self.problem(at, None, ProblemKind::MissingAttribute("name` or `value"));
                    return Ok(());
                };
                let param = Param { name: pname, value };
                let rejected = name == "rejected";
                match &mut self.current {
                    Current::Thing { thing, seen, .. } => {
                        if rejected {
                            let pname = param.name.clone();
                            thing.rejected.push(param);
                            self.problem(at, Some(pname), ProblemKind::StillRejected);
                        } else {
                            apply_param(thing, seen, param, value_at, &mut self.report);
                        }
                    }
                    Current::Raw(raw) => raw.params.push(param),
                    Current::None => {}
                }
            }
            _ => {
                self.attrs(e, [], at)?;
                self.problem(at, None, ProblemKind::UnexpectedElement(excerpt(name)));
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
            Current::Thing { thing, seen, at } => {
                report_missing(&thing, &seen, at, &mut self.report);
                self.doc.things.push(thing);
            }
            Current::Raw(raw) => self.doc.unknown.push(raw),
            Current::None => {}
        }
    }
}

/// Where in its tag an attribute error is (bytes after the `<`).
fn attr_error_offset(e: &quick_xml::events::attributes::AttrError) -> usize {
    use quick_xml::events::attributes::AttrError;
    match *e {
        AttrError::ExpectedEq(p)
        | AttrError::ExpectedValue(p)
        | AttrError::UnquotedValue(p)
        | AttrError::ExpectedQuote(p, _)
        | AttrError::Duplicated(p, _) => p,
    }
}
