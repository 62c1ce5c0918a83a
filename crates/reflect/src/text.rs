//! The text form of any reflected value: what `set_text` reads and `to_text` writes.
//!
//! Leaves write their own text (`111.11`, `true`, `hello`). Composite values are lists of
//! their parts separated by `" , "`, as in the color `1 , 0 , 0.5 , 1` of the world editor
//! post; nested parts are bracketed:
//!
//! | value | text |
//! | --- | --- |
//! | struct `{ x: 1.5, y: 2 }`, `Vec2`, `[f32; 4]` | `1.5 , 2` (nested: `(1.5 , 2)`) |
//! | `Vec<T>` | `1 , 2 , 3` (nested: `[1 , 2 , 3]`) |
//! | enum / `Option` | `None`, `Some(3)`, `Circle(1 , 2)` (reading `Circle` alone switches to it with default fields) |
//! | tuple `(1, 2.5)` | `1 , 2.5` (nested: `(1 , 2.5)`): a tuple is a tuple struct |
//! | set | `1 , 2 , 3` (nested: `[1 , 2 , 3]`), in the set's order |
//! | map | `"a": 1 , "b": 2` (nested: `{"a": 1 , "b": 2}`), keys in the map's order; a key is the key's text form, quoted (`"3": x` for an integer key) |
//! | nested `String` / `char` | `"quoted \"like\" this"` |
//!
//! When reading, structs also accept their fields by name (`x: 1.5 , y: 2`), a struct with one
//! field accepts its field's text alone, and whitespace around parts is ignored. Reading stops
//! with an [`Error`] naming the path and the expected type. Reading is all or nothing: when
//! any part is wrong, the value is left exactly as it was (a copy is taken first and put back).

use crate::error::{Error, excerpt};
use crate::info::ValueKind;
use crate::reflect::{Reflect, ReflectMut, ReflectRef};
use crate::snapshot::all_or_nothing;
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Nesting deeper than this is refused (a hostile value cannot exhaust the stack).
pub const MAX_DEPTH: usize = 64;

/// Appends the text form of `value` to `out`.
pub fn write_text(value: &dyn Reflect, out: &mut String) {
    write(value, out, false);
}

fn write_quoted(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write(value: &dyn Reflect, out: &mut String, nested: bool) {
    match value.reflect_ref() {
        ReflectRef::Value(v) => {
            if nested && matches!(v.kind(), ValueKind::String | ValueKind::Char | ValueKind::Opaque) {
                let mut raw = String::new();
                v.write_text(&mut raw);
                write_quoted(&raw, out);
            } else {
                v.write_text(out);
            }
        }
        ReflectRef::Struct(s) => {
            if nested {
                out.push('(');
            }
            for i in 0..s.field_count() {
                if i > 0 {
                    out.push_str(" , ");
                }
                if let Some(f) = s.field_at(i) {
                    write(f, out, true);
                }
            }
            if nested {
                out.push(')');
            }
        }
        ReflectRef::Enum(e) => {
            out.push_str(e.variant_name());
            if e.field_count() > 0 {
                out.push('(');
                for i in 0..e.field_count() {
                    if i > 0 {
                        out.push_str(" , ");
                    }
                    if let Some(f) = e.field_at(i) {
                        write(f, out, true);
                    }
                }
                out.push(')');
            }
        }
        ReflectRef::List(l) => {
            if nested {
                out.push('[');
            }
            for i in 0..l.len() {
                if i > 0 {
                    out.push_str(" , ");
                }
                if let Some(f) = l.get(i) {
                    write(f, out, true);
                }
            }
            if nested {
                out.push(']');
            }
        }
        ReflectRef::Map(m) => {
            if nested {
                out.push('{');
            }
            for (i, key) in m.keys().into_iter().enumerate() {
                if i > 0 {
                    out.push_str(" , ");
                }
                write_quoted(&key, out);
                out.push_str(": ");
                if let Some(v) = m.get(&key) {
                    write(v, out, true);
                }
            }
            if nested {
                out.push('}');
            }
        }
        ReflectRef::Set(set) => {
            if nested {
                out.push('[');
            }
            for (i, element) in set.elements().into_iter().enumerate() {
                if i > 0 {
                    out.push_str(" , ");
                }
                write(element, out, true);
            }
            if nested {
                out.push(']');
            }
        }
    }
}

/// A parsed piece of text.
#[derive(Debug, PartialEq)]
enum Node<'a> {
    /// A bare token or a quoted string (unescaped).
    Atom(Cow<'a, str>),
    /// `( .. )` or `[ .. ]`, or the top level.
    List(Vec<Item<'a>>),
    /// `Name( .. )`.
    Call(&'a str, Vec<Item<'a>>),
}

/// One part of a list, optionally `key: value`.
#[derive(Debug, PartialEq)]
struct Item<'a> {
    key: Option<Cow<'a, str>>,
    value: Node<'a>,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

type PResult<T> = Result<T, (usize, &'static str)>;

const DELIMS: &[u8] = b",()[]{}\":";

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.pos < self.text.len() && self.text.as_bytes()[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.text.as_bytes().get(self.pos).copied()
    }

    fn quoted(&mut self) -> PResult<Cow<'a, str>> {
        let start = self.pos;
        self.pos += 1; // the opening quote
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(Cow::Owned(out));
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => out.push('"'),
                    Some((_, '\\')) => out.push('\\'),
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, 't')) => out.push('\t'),
                    _ => return Err((self.pos + i, "unknown escape (expected \\\" \\\\ \\n \\r \\t)")),
                },
                c => out.push(c),
            }
        }
        Err((start, "unclosed quote"))
    }

    fn bare(&mut self) -> &'a str {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && !DELIMS.contains(&bytes[self.pos]) {
            self.pos += 1;
        }
        self.text[start..self.pos].trim_end()
    }

    /// Items up to `close` (or the end of text when `close` is `None`).
    fn items(&mut self, close: Option<u8>, depth: usize) -> PResult<Vec<Item<'a>>> {
        if depth > MAX_DEPTH {
            return Err((self.pos, "nested too deeply"));
        }
        let mut items = Vec::new();
        if self.peek() == close {
            if close.is_some() {
                self.pos += 1;
            }
            return Ok(items);
        }
        loop {
            let mut value = self.value(depth)?;
            let mut key = None;
            if self.peek() == Some(b':') {
                self.pos += 1;
                key = match value {
                    Node::Atom(k) => Some(k),
                    _ => return Err((self.pos, "a key must be a name or a quoted string")),
                };
                value = self.value(depth)?;
            }
            items.push(Item { key, value });
            match self.peek() {
                Some(b',') => self.pos += 1,
                c if c == close => {
                    if close.is_some() {
                        self.pos += 1;
                    }
                    return Ok(items);
                }
                None => return Err((self.pos, "missing closing bracket")),
                Some(_) => return Err((self.pos, "expected `,` or a closing bracket")),
            }
        }
    }

    fn value(&mut self, depth: usize) -> PResult<Node<'a>> {
        match self.peek() {
            Some(b'"') => Ok(Node::Atom(self.quoted()?)),
            Some(b'(') => {
                self.pos += 1;
                Ok(Node::List(self.items(Some(b')'), depth + 1)?))
            }
            Some(b'[') => {
                self.pos += 1;
                Ok(Node::List(self.items(Some(b']'), depth + 1)?))
            }
            Some(b'{') => {
                self.pos += 1;
                Ok(Node::List(self.items(Some(b'}'), depth + 1)?))
            }
            Some(b',' | b')' | b']' | b'}' | b':') | None => Err((self.pos, "expected a value")),
            Some(_) => {
                let token = self.bare();
                if self.text.as_bytes().get(self.pos) == Some(&b'(') {
                    self.pos += 1;
                    Ok(Node::Call(token, self.items(Some(b')'), depth + 1)?))
                } else {
                    Ok(Node::Atom(Cow::Borrowed(token)))
                }
            }
        }
    }
}

fn parse_error(path: &str, expected: &'static str, text: &str, reason: impl Into<String>) -> Error {
    Error::Parse { path: path.to_string(), expected, text: excerpt(text), reason: reason.into() }
}

/// Reads `text` into `target` (see the module docs for the grammar).
///
/// # Errors
/// [`Error::Parse`], [`Error::NoField`], [`Error::NoVariant`], [`Error::FixedLength`], with
/// paths relative to `target`.
#[inline]
pub fn set_text(target: &mut dyn Reflect, text: &str) -> Result<(), Error> {
    if let ReflectMut::Value(v) = target.reflect_mut() {
        return match v.parse_text(text) {
            Ok(()) => Ok(()),
            Err(e) => Err(value_error(text, e)),
        };
    }
    set_composite(target, text)
}

#[cold]
#[inline(never)]
fn value_error(text: &str, e: crate::ParseError) -> Error {
    parse_error("", e.expected, text, e.reason)
}

/// [`set_text`] for everything but a leaf: parse the text into items, then apply them all or
/// nothing.
#[inline(never)]
fn set_composite(target: &mut dyn Reflect, text: &str) -> Result<(), Error> {
    let mut parser = Parser { text, pos: 0 };
    let items = parser
        .items(None, 0)
        .map_err(|(at, reason)| parse_error("", target.type_info().name, text, format!("{reason} at byte {at}")))?;
    let mut path = String::new();
    // A top-level enum is one item (`Some(3)`), not a list of one.
    let single_enum =
        matches!(target.reflect_mut(), ReflectMut::Enum(_)) && matches!(items.as_slice(), [Item { key: None, .. }]);
    let node = match items.into_iter() {
        mut one if single_enum => match one.next() {
            Some(item) => item.value,
            None => return Ok(()),
        },
        all => Node::List(all.collect()),
    };
    all_or_nothing(target, |target| apply(&node, target, &mut path))
}

fn describe(node: &Node<'_>) -> String {
    match node {
        Node::Atom(a) => excerpt(a),
        Node::List(items) => format!("a list of {}", items.len()),
        Node::Call(name, _) => format!("{name}(..)"),
    }
}

fn with_path<R>(path: &mut String, part: core::fmt::Arguments<'_>, f: impl FnOnce(&mut String) -> R) -> R {
    let len = path.len();
    if !path.is_empty() && !part.to_string().starts_with('[') {
        path.push('.');
    }
    path.push_str(&part.to_string());
    let r = f(path);
    path.truncate(len);
    r
}

fn apply(node: &Node<'_>, target: &mut dyn Reflect, path: &mut String) -> Result<(), Error> {
    let type_name = target.type_info().name;
    match target.reflect_mut() {
        ReflectMut::Value(v) => match node {
            Node::Atom(text) => v.parse_text(text).map_err(|e| parse_error(path, e.expected, text, e.reason)),
            other => Err(parse_error(path, type_name, &describe(other), "expected a single value")),
        },
        ReflectMut::Struct(s) => {
            let info = <dyn crate::Struct>::info(s);
            let count = s.field_count();
            let items: &[Item<'_>] = match node {
                Node::List(items) => items,
                atom @ Node::Atom(_) if count == 1 => {
                    let name = info.fields.first().map_or("0", |f| f.name);
                    let field = s.field_at_mut(0).ok_or_else(|| no_field(path, type_name, name))?;
                    return with_path(path, format_args!("{name}"), |p| apply(atom, field, p));
                }
                other => {
                    return Err(parse_error(path, type_name, &describe(other), format!("expected {count} fields")));
                }
            };
            if items.iter().all(|i| i.key.is_some()) && !items.is_empty() {
                for item in items {
                    let key = item.key.as_deref().unwrap_or_default();
                    let index = info.index_of(key).ok_or_else(|| no_field(path, type_name, key))?;
                    let field = s.field_at_mut(index).ok_or_else(|| no_field(path, type_name, key))?;
                    with_path(path, format_args!("{key}"), |p| apply(&item.value, field, p))?;
                }
                return Ok(());
            }
            if items.len() != count || items.iter().any(|i| i.key.is_some()) {
                return Err(parse_error(
                    path,
                    type_name,
                    &describe(node),
                    format!("expected {count} fields, in order or all by name"),
                ));
            }
            for (i, item) in items.iter().enumerate() {
                let name = info.fields.get(i).map_or("?", |f| f.name);
                let field = s.field_at_mut(i).ok_or_else(|| no_field(path, type_name, name))?;
                with_path(path, format_args!("{name}"), |p| apply(&item.value, field, p))?;
            }
            Ok(())
        }
        ReflectMut::Enum(e) => {
            let info = <dyn crate::Enum>::info(e);
            let (name, items): (&str, &[Item<'_>]) = match node {
                Node::Atom(name) => (name, &[]),
                Node::Call(name, items) => (name, items),
                Node::List(_) => return Err(parse_error(path, type_name, &describe(node), "expected a variant")),
            };
            let index = info.index_of(name).ok_or_else(|| Error::NoVariant {
                path: path.clone(),
                type_name,
                variant: excerpt(name),
            })?;
            if e.variant_index() != index && !e.set_variant(index) {
                return Err(Error::NoDefault { path: path.clone(), type_name });
            }
            let count = e.field_count();
            if matches!(node, Node::Call(..)) && items.len() != count {
                return Err(parse_error(path, type_name, &describe(node), format!("`{name}` has {count} fields")));
            }
            let fields = info.variants[index].fields;
            for (i, item) in items.iter().enumerate() {
                let fname = fields.get(i).map_or("?", |f| f.name);
                let field = e.field_at_mut(i).ok_or_else(|| no_field(path, type_name, fname))?;
                with_path(path, format_args!("{fname}"), |p| apply(&item.value, field, p))?;
            }
            Ok(())
        }
        ReflectMut::List(l) => {
            let Node::List(items) = node else {
                return Err(parse_error(path, type_name, &describe(node), "expected a list"));
            };
            if items.iter().any(|i| i.key.is_some()) {
                return Err(parse_error(path, type_name, &describe(node), "a list has no keys"));
            }
            // Elements are changed and added first and the list is cut last, so that a failure
            // never needs an element re-created to put the list back.
            let len = l.len();
            if items.len() < len && matches!(l.type_info().shape, crate::Shape::List { fixed_len: Some(_), .. }) {
                return Err(Error::FixedLength { path: path.clone(), type_name, len, found: items.len() });
            }
            while l.len() < items.len() {
                if !l.push_default() {
                    return Err(grow_error(l.type_info(), path, len, items.len()));
                }
            }
            for (i, item) in items.iter().enumerate() {
                let element = l.get_mut(i).ok_or_else(|| Error::NoIndex {
                    path: path.clone(),
                    type_name,
                    index: i,
                    len: items.len(),
                })?;
                with_path(path, format_args!("[{i}]"), |p| apply(&item.value, element, p))?;
            }
            l.truncate(items.len());
            Ok(())
        }
        ReflectMut::Map(m) => {
            let Node::List(items) = node else {
                return Err(parse_error(path, type_name, &describe(node), "expected `\"key\": value` entries"));
            };
            // Entries are changed and added first and the others removed last (see lists).
            for item in items {
                let Some(key) = item.key.as_deref() else {
                    return Err(parse_error(path, type_name, &describe(&item.value), "expected `\"key\": value`"));
                };
                let value = if m.get(key).is_some() {
                    m.get_mut(key)
                } else {
                    Some(m.insert_default(key).map_err(|e| e.with_prefix(&format!("{path}[{key:?}]")))?)
                };
                let Some(value) = value else { return Err(no_key(path, type_name, key)) };
                with_path(path, format_args!("[{key:?}]"), |p| apply(&item.value, value, p))?;
            }
            let keys = items.iter().filter_map(|i| i.key.as_deref());
            crate::snapshot::remove_stale_entries(m, keys);
            Ok(())
        }
        ReflectMut::Set(set) => {
            let Node::List(items) = node else {
                return Err(parse_error(path, type_name, &describe(node), "expected a list of elements"));
            };
            if items.iter().any(|i| i.key.is_some()) {
                return Err(parse_error(path, type_name, &describe(node), "a set has no keys"));
            }
            // Elements are added first and the others removed last (see lists).
            let mut wanted: Vec<String> = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                with_path(path, format_args!("[{i}]"), |p| {
                    set.insert_with(&mut |element| {
                        apply(&item.value, element, p)?;
                        wanted.push(element.to_text());
                        Ok(())
                    })
                    .map_err(|e| match e {
                        Error::NoDefault { type_name, .. } => Error::NoDefault { path: p.clone(), type_name },
                        e => e,
                    })
                })?;
            }
            set.retain(&mut |e| wanted.contains(&e.to_text()));
            Ok(())
        }
    }
}

fn no_key(path: &str, type_name: &'static str, key: &str) -> Error {
    Error::NoKey { path: path.to_string(), type_name, key: excerpt(key) }
}

impl dyn crate::Set {
    /// Inserts the element whose text form is `text`; returns whether it was new.
    ///
    /// # Errors
    /// As [`Set::insert_with`](crate::Set::insert_with), or the text error.
    pub fn insert_text(&mut self, text: &str) -> Result<bool, Error> {
        self.insert_with(&mut |e| set_text(e, text))
    }
}

/// Why a list could not grow: it has a fixed length, or its elements cannot be created.
pub(crate) fn grow_error(info: &'static crate::TypeInfo, path: &str, len: usize, found: usize) -> Error {
    match info.shape {
        crate::Shape::List { fixed_len: Some(_), .. } => {
            Error::FixedLength { path: path.to_string(), type_name: info.name, len, found }
        }
        crate::Shape::List { element, .. } => {
            Error::NoDefault { path: path.to_string(), type_name: short_name(element()) }
        }
        _ => Error::FixedLength { path: path.to_string(), type_name: info.name, len, found },
    }
}

/// `a::b::C<d::E>` → `C<d::E>`: the last path segment of a Rust type name (the element
/// types of containers are known only by their Rust paths).
pub(crate) fn short_name(type_path: &'static str) -> &'static str {
    let end = type_path.find('<').unwrap_or(type_path.len());
    match type_path[..end].rfind("::") {
        Some(i) => &type_path[i + 2..],
        None => type_path,
    }
}

fn no_field(path: &str, type_name: &'static str, field: &str) -> Error {
    Error::NoField { path: path.to_string(), type_name, field: excerpt(field) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_reads_nested_lists_calls_and_keys() {
        let mut p = Parser { text: r#"1 , (2, 3) , Some("a,b") , "k": [ ]"#, pos: 0 };
        let items = p.items(None, 0).unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(items[0].value, Node::Atom(Cow::Borrowed("1")));
        assert!(matches!(&items[1].value, Node::List(v) if v.len() == 2));
        assert!(matches!(&items[2].value, Node::Call("Some", v) if v[0].value == Node::Atom(Cow::Borrowed("a,b"))));
        assert_eq!(items[3].key.as_deref(), Some("k"));
    }

    #[test]
    fn parser_refuses_deep_nesting_and_unclosed_brackets() {
        let deep = "(".repeat(10_000);
        assert!(Parser { text: &deep, pos: 0 }.items(None, 0).is_err());
        assert!(Parser { text: "(1 , 2", pos: 0 }.items(None, 0).is_err());
        assert!(Parser { text: "\"abc", pos: 0 }.items(None, 0).is_err());
        assert!(Parser { text: "1 , , 2", pos: 0 }.items(None, 0).is_err());
    }
}
