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

use crate::document::source::Chunk;
use crate::document::{
    Applied, DocSource, Document, Param, Piece, Problem, ProblemKind, RawThing, Report, Thing, ThingSource,
    VALUE_PARAM, apply_param, param_count, report_missing,
};
use crate::error::excerpt;
use crate::registry::Registry;
use quick_xml::events::{BytesStart, Event};
use std::boxed::Box;
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

/// A parameter element (`<parameter …/>` or `<rejected …/>`), without indentation.
fn write_param(out: &mut String, element: &str, name: &str, value: &str) {
    out.push('<');
    out.push_str(element);
    out.push_str(" name=\"");
    escape_attr(name, out);
    out.push_str("\" value=\"");
    escape_attr(value, out);
    out.push_str("\"/>");
}

fn write_thing_start(out: &mut String, kind: &str, name: &str) {
    out.push_str("\n  <thing kind=\"");
    escape_attr(kind, out);
    out.push_str("\" name=\"");
    escape_attr(name, out);
    out.push_str("\">");
}

/// Marks the first entry of `list` equal to `item` and not yet marked; false when none is left.
fn take<T: PartialEq>(list: &[T], left: &mut [bool], item: &T) -> bool {
    match list.iter().zip(left.iter()).position(|(x, &l)| l && x == item) {
        Some(i) => {
            left[i] = false;
            true
        }
        None => false,
    }
}

/// The name of parameter `index` of `thing`.
fn param_name(thing: &Thing, index: usize) -> &'static str {
    match &thing.value.type_info().shape {
        crate::info::Shape::Struct(s) => s.fields.get(index).map_or(VALUE_PARAM, |f| f.name),
        _ => VALUE_PARAM,
    }
}

/// The whitespace that starts the last line of `text` (`"\n    "` for `"…\n    "`), if
/// `text` ends with a line break and blanks.
fn line_indent(text: &str) -> Option<&str> {
    let nl = text.rfind('\n')?;
    let blanks = text[nl + 1..].chars().all(|c| c == ' ' || c == '\t');
    // A line break written `\r\n` is copied whole.
    let from = if text[..nl].ends_with('\r') { nl - 1 } else { nl };
    blanks.then_some(&text[from..])
}

/// The indentation before a thing's start tag (`"  "`), from the text before it.
fn thing_indent(src: &ThingSource) -> &str {
    let lead = match src.before.last() {
        _ if !src.lead.is_empty() => src.at(&src.lead),
        Some(Chunk::Text(t)) => t,
        _ => "",
    };
    line_indent(lead).map_or("  ", |s| s.trim_start_matches(['\r', '\n']))
}

/// A parameter element as written with its value replaced by `value` (and `<rejected>`
/// renamed `<parameter>`, since the new value reads).
fn edited_param(out: &mut String, text: &str, span: Option<&core::ops::Range<usize>>, name: &str, value: &str) {
    let Some(span) =
        span.filter(|s| s.end <= text.len() && text.is_char_boundary(s.start) && text.is_char_boundary(s.end))
    else {
        write_param(out, "parameter", name, value);
        return;
    };
    let mut element = String::with_capacity(text.len() + value.len());
    element.push_str(&text[..span.start]);
    escape_attr(value, &mut element);
    element.push_str(&text[span.end..]);
    if let Some(rest) = element.strip_prefix("<rejected") {
        out.push_str("<parameter");
        match rest.strip_suffix("</rejected>") {
            Some(inner) => {
                out.push_str(inner);
                out.push_str("</parameter>");
            }
            None => out.push_str(rest),
        }
    } else {
        out.push_str(&element);
    }
}

/// Writes a thing made in code (or whose source was forgotten) in the canonical form.
fn write_canonical_thing(out: &mut String, thing: &Thing) {
    write_thing_start(out, thing.kind(), &thing.name);
    thing.for_each_param(|name, value| {
        out.push_str("\n    ");
        write_param(out, "parameter", name, value);
    });
    for p in &thing.unknown {
        out.push_str("\n    ");
        write_param(out, "parameter", &p.name, &p.value);
    }
    for p in &thing.rejected {
        out.push_str("\n    ");
        write_param(out, "rejected", &p.name, &p.value);
    }
    out.push_str("\n  </thing>");
}

/// Writes chunks of text around things; things of unknown kinds only while `raws` holds them.
fn write_chunks(out: &mut String, chunks: &[Chunk], raws: &[RawThing], raws_left: &mut [bool]) {
    for chunk in chunks {
        match chunk {
            Chunk::Text(t) => out.push_str(t),
            Chunk::Raw { raw, text } => {
                if take(raws, raws_left, raw) {
                    out.push_str(text);
                }
            }
        }
    }
}

/// Writes a thing read from a file: its text as written, with what was edited since replaced.
/// `current` is a scratch buffer.
fn write_sourced_thing(
    out: &mut String,
    thing: &Thing,
    src: &ThingSource,
    (raws, raws_left): (&[RawThing], &mut [bool]),
    current: &mut String,
) {
    write_chunks(out, &src.before, raws, raws_left);
    out.push_str(src.at(&src.lead));
    // The start tag, with the name replaced when it was edited.
    let tag = src.at(&src.start_tag);
    if thing.name == src.name_read {
        out.push_str(tag);
    } else if let Some(span) = src
        .name_value
        .as_ref()
        .and_then(|s| Some(s.start.checked_sub(src.start_tag.start)?..s.end.checked_sub(src.start_tag.start)?))
        .filter(|s| tag.get(s.clone()).is_some())
    {
        out.push_str(&tag[..span.start]);
        escape_attr(&thing.name, out);
        out.push_str(&tag[span.end..]);
    } else {
        let at = if tag.ends_with("/>") { tag.len() - 2 } else { tag.len().saturating_sub(1) };
        out.push_str(&tag[..at]);
        out.push_str(" name=\"");
        escape_attr(&thing.name, out);
        out.push('"');
        out.push_str(&tag[at..]);
    }

    // The content, each parameter as written unless it changed.
    let mut unknown_left = vec![true; thing.unknown.len()];
    let mut rejected_left = vec![true; thing.rejected.len()];
    // Where new elements go: before the whitespace that ends the content, indented as the
    // last element is.
    let mut indent: Option<&str> = None;
    let mut last_text_at = None;
    for (i, piece) in src.pieces.iter().enumerate() {
        match piece {
            Piece::Text(t) => {
                let t = src.at(t);
                if i + 1 == src.pieces.len() && t.trim().is_empty() {
                    last_text_at = Some(out.len());
                }
                out.push_str(t);
                continue;
            }
            Piece::Element { text, .. } => out.push_str(src.at(text)),
            Piece::Unknown { param, text } => {
                if take(&thing.unknown, &mut unknown_left, param) {
                    out.push_str(src.at(text));
                }
            }
            Piece::Param { index, text, value, read, rejected } => {
                let still_rejected =
                    rejected.as_ref().is_some_and(|(p, _)| take(&thing.rejected, &mut rejected_left, p));
                match index {
                    _ if still_rejected => out.push_str(src.at(text)),
                    None => {} // a `<rejected>` element of no parameter, no longer held
                    Some(index) => {
                        thing.param_text(*index, current);
                        let as_read = match (read, value) {
                            (Some(read), _) => read.as_str(),
                            (None, Some(value)) => src.at(value),
                            (None, None) => "",
                        };
                        if rejected.is_none() && *current == *as_read {
                            out.push_str(src.at(text));
                        } else {
                            let element = src.at(text);
                            let span = value.as_ref().map(|v| v.start - text.start..v.end - text.start);
                            edited_param(out, element, span.as_ref(), param_name(thing, *index), current);
                        }
                    }
                }
            }
        }
        if let Some(Piece::Text(t)) = i.checked_sub(1).and_then(|j| src.pieces.get(j)) {
            indent = line_indent(src.at(t)).or(indent);
        }
    }

    // What the text does not hold: parameters that were missing and have been set since,
    // unknown and rejected parameters added in code.
    let thing_indent = thing_indent(src);
    let fallback;
    let new_line = match indent {
        Some(i) => i,
        None => {
            fallback = std::format!("\n{thing_indent}  ");
            &fallback
        }
    };
    let mut added = String::new();
    for (index, read) in &src.absent {
        thing.param_text(*index, current);
        if *current != *read {
            added.push_str(new_line);
            write_param(&mut added, "parameter", param_name(thing, *index), current);
        }
    }
    for (p, _) in thing.unknown.iter().zip(&unknown_left).filter(|(_, l)| **l) {
        added.push_str(new_line);
        write_param(&mut added, "parameter", &p.name, &p.value);
    }
    for (p, _) in thing.rejected.iter().zip(&rejected_left).filter(|(_, l)| **l) {
        added.push_str(new_line);
        write_param(&mut added, "rejected", &p.name, &p.value);
    }

    if src.end_tag.is_empty() {
        // Written `<thing …/>`: opened when something must go inside.
        if !added.is_empty() {
            if out.ends_with("/>") {
                out.truncate(out.len() - 2);
            }
            out.push('>');
            out.push_str(&added);
            out.push('\n');
            out.push_str(thing_indent);
            out.push_str("</thing>");
        }
        return;
    }
    if !added.is_empty() {
        match last_text_at {
            Some(at) => out.insert_str(at, &added),
            None => out.push_str(&added),
        }
    }
    out.push_str(src.at(&src.end_tag));
}

impl Document {
    /// The document as XML. A document read from XML is written back as it was read, with
    /// what was edited since replaced: comments, whitespace, elements and attributes the
    /// format does not have, things of unknown kinds and values that did not read stay in
    /// place, byte for byte. Other documents (and things added since) are written in the
    /// canonical form (root element `things`, comments at the top, things of unknown kinds
    /// last). Text is written as it is: a name or value holding a character XML 1.0 cannot
    /// carry (NUL…) makes a file that no reader accepts, so save users' files with
    /// [`try_to_xml`](Self::try_to_xml).
    #[must_use]
    pub fn to_xml(&self) -> String {
        let mut out = String::with_capacity(64 + self.things.len() * 160);
        match &self.source {
            // An empty root (`<things/>`) is opened, and closed again if nothing goes inside.
            Some(src) if src.root_empty => {
                out.push_str(src.head.strip_suffix("/>").unwrap_or(&src.head));
                out.push('>');
            }
            Some(src) => out.push_str(&src.head),
            None => out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>"),
        }
        let body_at = out.len();
        let mut raws_left = vec![true; self.unknown.len()];
        let mut current = String::new();
        let comments_from = self.source.as_ref().map_or(0, |s| s.comments_read.min(self.comments.len()));
        for c in &self.comments[comments_from..] {
            out.push_str("\n  <!--");
            out.push_str(c);
            out.push_str("-->");
        }
        for thing in &self.things {
            match &thing.source {
                Some(src) => write_sourced_thing(&mut out, thing, src, (&self.unknown, &mut raws_left), &mut current),
                None => write_canonical_thing(&mut out, thing),
            }
        }
        let mut tail = String::new();
        if let Some(src) = &self.source {
            write_chunks(&mut tail, &src.tail, &self.unknown, &mut raws_left);
        }
        for (raw, _) in self.unknown.iter().zip(&raws_left).filter(|(_, l)| **l) {
            write_thing_start(&mut out, &raw.kind, &raw.name);
            for p in &raw.params {
                out.push_str("\n    ");
                write_param(&mut out, "parameter", &p.name, &p.value);
            }
            out.push_str("\n  </thing>");
        }
        match &self.source {
            Some(src) if src.root_empty && out.len() == body_at => {
                out.truncate(body_at - 1);
                out.push_str("/>");
            }
            Some(src) if src.root_empty => {
                out.push_str("\n</");
                out.push_str(&src.root);
                out.push('>');
            }
            Some(_) => {}
            None => out.push_str("\n</things>\n"),
        }
        out.push_str(&tail);
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
    Thing {
        thing: Thing,
        seen: Vec<bool>,
        at: At,
        /// Its source; ranges are offsets in the document until the thing ends.
        src: Box<ThingSource>,
        /// The element directly inside the thing being read: where it starts and what it is.
        element: Option<(usize, Element)>,
    },
    /// A thing of an unknown kind and where its start tag begins.
    Raw(RawThing, usize),
}

/// What an element directly inside a thing is, for its [`Piece`].
enum Element {
    /// Not a parameter of the format (or one lacking its attributes).
    Other(String),
    /// A parameter the kind does not have.
    Unknown(Param),
    /// A parameter element (`index: None` for a `<rejected>` naming no parameter).
    Param { index: Option<usize>, value: Option<core::ops::Range<usize>>, rejected: Option<(Param, String)> },
}

/// An attribute's value: unescaped, its position, and where its raw text is in the document.
struct AttrValue {
    text: String,
    at: At,
    span: Option<core::ops::Range<usize>>,
}

struct Loader<'a> {
    reader: quick_xml::Reader<&'a [u8]>,
    registry: &'a Registry,
    limits: &'a Limits,
    text: &'a str,
    lines: Lines<'a>,
    doc: Document,
    report: Report,
    current: Current,
    /// Names of the open elements (the root is `stack[0]`).
    stack: Vec<String>,
    /// Depth at which an unexpected element's subtree is being skipped.
    skip_from: Option<usize>,
    things: usize,
    /// The byte range of the event being handled.
    event: (usize, usize),
    /// Where the text not yet given to a chunk or piece starts.
    mark: usize,
    /// Chunks since the last thing (text and things of unknown kinds).
    pending: Vec<Chunk>,
    /// Everything up to the end of the root's start tag, its name, and whether it is empty.
    head: Option<(String, String, bool)>,
}

impl<'a> Loader<'a> {
    fn new(text: &'a str, registry: &'a Registry, limits: &'a Limits) -> Self {
        let mut reader = quick_xml::Reader::from_str(text);
        reader.config_mut().check_end_names = true;
        Self {
            reader,
            registry,
            limits,
            text,
            lines: Lines { text: text.as_bytes(), pos: 0, line: 1, column: 1 },
            doc: Document::new(),
            report: Report::with_max_problems(limits.max_problems),
            current: Current::None,
            stack: Vec::new(),
            skip_from: None,
            things: 0,
            event: (0, 0),
            mark: 0,
            pending: Vec::new(),
            head: None,
        }
    }

    /// The source text from `from` to `to` (empty when out of range).
    fn slice(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or_default()
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
        if let Some((pos, c)) = find_non_xml_char(self.text) {
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
            self.event = (start, self.reader.buffer_position() as usize);
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
                        // Text inside an element already reported is part of that element.
                        if self.skip_from.is_none() {
                            self.problem(at, None, ProblemKind::UnexpectedText);
                        }
                    }
                }
                Event::CData(_) | Event::GeneralRef(_) => {
                    if self.stack.is_empty() {
                        return Err(LoadError::NoRoot);
                    }
                    if self.skip_from.is_none() {
                        self.problem(at, None, ProblemKind::UnexpectedText);
                    }
                }
                Event::DocType(_) => return Err(LoadError::Doctype { line }),
                Event::Comment(c) => self.doc.comments.push(AsRef::<str>::as_ref(&c).to_string()),
                Event::Decl(_) | Event::PI(_) => {}
                Event::Eof => {
                    if let Some(name) = self.stack.last() {
                        return Err(LoadError::Unclosed { line, column, name: excerpt(name) });
                    }
                    let Some((head, root, root_empty)) = self.head.take().filter(|_| root_done) else {
                        return Err(LoadError::NoRoot);
                    };
                    let mut tail = core::mem::take(&mut self.pending);
                    tail.push(Chunk::Text(self.slice(self.mark, self.text.len()).to_string()));
                    let comments_read = self.doc.comments.len();
                    self.doc.source = Some(Box::new(DocSource { head, root, root_empty, tail, comments_read }));
                    return Ok((self.doc, self.report));
                }
            }
        }
    }

    fn problem(&mut self, (line, column): At, parameter: Option<String>, reason: ProblemKind) {
        let (thing, kind) = match &self.current {
            Current::None => (String::new(), String::new()),
            Current::Thing { thing, .. } => (thing.name.clone(), thing.kind().to_string()),
            Current::Raw(raw, _) => (raw.name.clone(), raw.kind.clone()),
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
    ) -> Result<([Option<AttrValue>; N], Vec<(String, At)>), LoadError> {
        let mut out: [Option<AttrValue>; N] = std::array::from_fn(|_| None);
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
            // The raw value is a slice of the text (the reader borrows it).
            let span = match &attr.value {
                std::borrow::Cow::Borrowed(raw) => self.lines.offset_of(raw.as_bytes()).map(|s| s..s + raw.len()),
                std::borrow::Cow::Owned(_) => None,
            };
            let value = attr
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|err| LoadError::Malformed { line: at.0, column: at.1, message: excerpt(&err.to_string()) })?;
            // A character reference (`&#0;`) can name a character XML cannot carry.
            if let Some((_, c)) = find_non_xml_char(&value) {
                return Err(LoadError::InvalidChar { line: at.0, column: at.1, code: u32::from(c) });
            }
            out[slot] = Some(AttrValue { text: value.into_owned(), at, span });
        }
        Ok((out, unknown))
    }

    fn report_attributes(&mut self, parameter: Option<&str>, unknown: Vec<(String, At)>) {
        for (name, at) in unknown {
            self.problem(at, parameter.map(str::to_string), ProblemKind::UnknownAttribute(name));
        }
    }

    /// Gives the text since the last piece to the thing being read, as a piece.
    fn flush_piece_text(&mut self, to: usize) {
        let text = self.slice(self.mark, to);
        if let Current::Thing { src, .. } = &mut self.current
            && !text.is_empty()
        {
            src.pieces.push(Piece::Text(self.mark..to));
        }
        self.mark = to.max(self.mark);
    }

    /// Gives the text since the last chunk to the chunks before the next thing.
    fn flush_chunk_text(&mut self, to: usize) {
        let text = self.slice(self.mark, to);
        if !text.is_empty() {
            self.pending.push(Chunk::Text(text.to_string()));
        }
        self.mark = to.max(self.mark);
    }

    fn open(&mut self, e: &BytesStart<'_>, name: &str, at: At, empty: bool) -> Result<(), LoadError> {
        let depth = self.stack.len();
        let start = self.event.0;
        // An element directly inside a thing becomes a piece of its source.
        let piece = depth == 2 && self.skip_from.is_none() && matches!(self.current, Current::Thing { .. });
        if piece {
            self.flush_piece_text(start);
            // (A parameter element's kind is set when its attributes are read.)
            let other = if matches!(name, "parameter" | "rejected") { String::new() } else { excerpt(name) };
            if let Current::Thing { element, .. } = &mut self.current {
                *element = Some((start, Element::Other(other)));
            }
        }
        self.open_element(e, name, at, empty)?;
        if piece && empty {
            self.finish_element();
        }
        Ok(())
    }

    fn open_element(&mut self, e: &BytesStart<'_>, name: &str, at: At, empty: bool) -> Result<(), LoadError> {
        let depth = self.stack.len();
        let (start, end) = self.event;
        if depth > 1 && name == "thing" {
            // A thing where things have no place: named in the report, kept as written.
            let ([kind, thing_name], _) = self.attrs(e, ["kind", "name"], at)?;
            let inside = self.stack.last().map_or_else(String::new, |s| excerpt(s));
            let lost = ProblemKind::LostThing {
                kind: kind.map(|k| excerpt(&k.text)).unwrap_or_default(),
                name: thing_name.map(|n| excerpt(&n.text)).unwrap_or_default(),
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
            self.head = Some((self.slice(0, end).to_string(), name.to_string(), empty));
            self.mark = end;
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
                let kind = kind.map(|k| k.text);
                let (thing_name, name_value) = thing_name.map_or((String::new(), None), |n| (n.text, n.span));
                self.current = match kind.as_deref().map(|k| self.registry.create(k)) {
                    Some(Ok(value)) => {
                        let params = param_count(&*value);
                        let src = Box::new(ThingSource {
                            before: core::mem::take(&mut self.pending),
                            lead: self.mark..start,
                            start_tag: start..end,
                            name_value,
                            name_read: thing_name.clone(),
                            // An element and the text before it per parameter, and the end.
                            pieces: Vec::with_capacity(2 * params + 1),
                            ..ThingSource::default()
                        });
                        self.mark = end;
                        let seen = vec![false; params];
                        Current::Thing { thing: Thing::new(thing_name, value), seen, at, src, element: None }
                    }
                    Some(Err(_)) => {
                        self.flush_chunk_text(start);
                        let raw = RawThing { kind: kind.unwrap_or_default(), name: thing_name, params: Vec::new() };
                        self.current = Current::Raw(raw, start);
                        self.problem(at, None, ProblemKind::UnknownKind);
                        std::mem::replace(&mut self.current, Current::None)
                    }
                    None => {
                        // Without a kind it cannot be loaded: kept as text around the things.
                        self.current =
                            Current::Raw(RawThing { kind: String::new(), name: thing_name, params: Vec::new() }, start);
                        self.problem(at, None, ProblemKind::MissingAttribute("kind"));
                        Current::None
                    }
                };
                self.report_attributes(None, unknown);
                if empty {
                    self.finish_thing();
                }
            }
            (2, "parameter" | "rejected") if !matches!(self.current, Current::None) => {
                let ([pname, value], unknown) = self.attrs(e, ["name", "value"], at)?;
                self.report_attributes(pname.as_ref().map(|p| p.text.as_str()), unknown);
                let (Some(pname), Some(value)) = (pname, value) else {
                    self.problem(at, None, ProblemKind::MissingAttribute("name` or `value"));
                    if let Current::Thing { element: Some((_, slot)), .. } = &mut self.current {
                        *slot = Element::Other(name.to_string());
                    }
                    return Ok(());
                };
                let param = Param { name: pname.text, value: value.text };
                let span = value.span;
                let rejected = name == "rejected";
                let kind = match &mut self.current {
                    Current::Thing { thing, seen, .. } => {
                        if rejected {
                            let pname = param.name.clone();
                            let index = match &thing.value.type_info().shape {
                                crate::info::Shape::Struct(s) => s.index_of(&param.name),
                                _ => (param.name == VALUE_PARAM).then_some(0),
                            };
                            thing.rejected.push(param.clone());
                            let why = String::from("did not read in an earlier load; kept as written");
                            self.problem(at, Some(pname), ProblemKind::StillRejected);
                            Some(Element::Param { index, value: span, rejected: Some((param, why)) })
                        } else {
                            // The parameter is copied only when it is kept (unknown or unread).
                            Some(match apply_param(thing, seen, param, value.at, &mut self.report) {
                                Applied::Unknown => Element::Unknown(thing.unknown.last().cloned().unwrap_or_default()),
                                Applied::Set(index) => {
                                    Element::Param { index: Some(index), value: span, rejected: None }
                                }
                                Applied::Rejected(index, why) => Element::Param {
                                    index: Some(index),
                                    value: span,
                                    rejected: Some((thing.rejected.last().cloned().unwrap_or_default(), why)),
                                },
                            })
                        }
                    }
                    Current::Raw(raw, _) => {
                        raw.params.push(param);
                        None
                    }
                    Current::None => None,
                };
                if let (Some(kind), Current::Thing { element: Some((_, slot)), .. }) = (kind, &mut self.current) {
                    *slot = kind;
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
            if depth > from {
                return;
            }
            self.skip_from = None;
            if depth == 2 {
                self.finish_element();
            }
            return;
        }
        if depth == 2 {
            self.finish_element();
        } else if depth == 1 {
            self.finish_thing();
        }
    }

    /// The element directly inside a thing has ended: it becomes a piece.
    fn finish_element(&mut self) {
        let end = self.event.1;
        let Current::Thing { src, element, .. } = &mut self.current else { return };
        let Some((start, kind)) = element.take() else { return };
        let text = start..end;
        let piece = match kind {
            Element::Other(name) => Piece::Element { name, text },
            Element::Unknown(param) => Piece::Unknown { param, text },
            Element::Param { index, value, rejected } => {
                // Given again: the earlier element is no longer the parameter's, it stays as text.
                // (`Thing::rejected` is rebuilt from the pieces left when the thing ends.)
                if index.is_some() {
                    for p in &mut src.pieces {
                        if let Piece::Param { index: i, text, .. } = p
                            && *i == index
                        {
                            *p = Piece::Text(text.clone());
                        }
                    }
                }
                Piece::Param { index, text, value, read: None, rejected }
            }
        };
        src.pieces.push(piece);
        self.mark = end;
    }

    fn finish_thing(&mut self) {
        let (start, end) = self.event;
        match std::mem::replace(&mut self.current, Current::None) {
            // Missing parameters are reported at the thing's start tag.
            Current::Thing { thing, seen, at, mut src, element: _ } => {
                let origin = src.lead.start;
                if start >= self.mark {
                    // `</thing>`: the text before it is the content's last piece.
                    if start > self.mark {
                        src.pieces.push(Piece::Text(self.mark..start));
                    }
                    src.end_tag = start..end;
                }
                // What did not read is what the parameter elements still in use hold (an
                // element given again later is only text now).
                let mut thing = thing;
                thing.rejected = src
                    .pieces
                    .iter()
                    .filter_map(|p| match p {
                        Piece::Param { rejected: Some((param, _)), .. } => Some(param.clone()),
                        _ => None,
                    })
                    .collect();
                let mut covered = vec![false; seen.len()];
                let mut buf = String::new();
                for piece in &mut src.pieces {
                    if let Piece::Param { index: Some(i), read, rejected, value, .. } = piece {
                        if let Some(c) = covered.get_mut(*i) {
                            *c = true;
                        }
                        if rejected.is_none() {
                            // The text form once loaded; kept only where it is not the value
                            // as written (`1.50`, an escaped character).
                            thing.param_text(*i, &mut buf);
                            let written = value.as_ref().map(|v| self.slice(v.start, v.end));
                            let same = written.is_some_and(|w| w == buf && !w.contains(['&', '\t', '\n', '\r']));
                            *read = (!same).then(|| buf.clone());
                        }
                    }
                }
                for (i, _) in covered.iter().enumerate().filter(|(i, c)| !**c && !seen[*i]) {
                    thing.param_text(i, &mut buf);
                    src.absent.push((i, buf.clone()));
                }
                // Ranges from here on are offsets in the thing's own text.
                let shift = |r: &mut core::ops::Range<usize>| *r = r.start - origin..r.end - origin;
                src.text = self.slice(origin, end).to_string();
                shift(&mut src.start_tag);
                shift(&mut src.lead);
                if let Some(r) = &mut src.name_value {
                    shift(r);
                }
                if src.end_tag.is_empty() {
                    src.end_tag = 0..0;
                } else {
                    shift(&mut src.end_tag);
                }
                for piece in &mut src.pieces {
                    match piece {
                        Piece::Text(r) | Piece::Element { text: r, .. } | Piece::Unknown { text: r, .. } => shift(r),
                        Piece::Param { text, value, .. } => {
                            shift(text);
                            if let Some(v) = value {
                                shift(v);
                            }
                        }
                    }
                }
                report_missing(&thing, &seen, at, &mut self.report);
                thing.source = Some(src);
                self.doc.things.push(thing);
                self.mark = end;
            }
            Current::Raw(raw, raw_start) => {
                let text = self.slice(raw_start, end).to_string();
                self.pending.push(Chunk::Raw { raw: raw.clone(), text });
                self.doc.unknown.push(raw);
                self.mark = end;
            }
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
