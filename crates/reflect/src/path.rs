//! Paths (`"transform.position.x"`, `"items[3]"`, `"stats[\"hp\"]"`) and pre-resolved
//! [`TypedPath`]s for hot loops.
//!
//! A path is a chain of segments: `.name` (a struct field, a field of an enum's active variant,
//! or a map key), `[3]` or `.3` (a list element, tuple field, or the integer key 3 of a map),
//! `["key"]` (a map key, by its text form: `ids["7"]` or `ids[7]` for a `u32` key,
//! `colors["Red"]` for a unit enum key). The first segment has no dot.

use crate::error::{Error, excerpt};
use crate::reflect::{Reflect, ReflectMut, ReflectRef};
use crate::text;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::any::TypeId;
use core::marker::PhantomData;

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment<'a> {
    /// `.name`: a field (or map key).
    Field(&'a str),
    /// `[3]` or `.3`: a list element or tuple field.
    Index(usize),
    /// `["key"]`: a map key (quotes removed, `\"` and `\\` unescaped).
    Key(String),
}

/// Splits a path into segments.
///
/// # Errors
/// [`Error::BadPath`] with the byte offset of the problem.
pub fn parse_path(path: &str) -> Result<Vec<PathSegment<'_>>, Error> {
    let bad = |at: usize, reason: &'static str| Error::BadPath { path: excerpt(path), at, reason };
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut first = true;
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                i += 1;
                if bytes.get(i) == Some(&b'"') {
                    i += 1;
                    let mut key = String::new();
                    let mut chars = path[i..].char_indices();
                    let mut closed = false;
                    while let Some((k, c)) = chars.next() {
                        match c {
                            '"' => {
                                i += k + 1;
                                closed = true;
                                break;
                            }
                            '\\' => match chars.next() {
                                Some((_, c @ ('"' | '\\'))) => key.push(c),
                                _ => return Err(bad(i + k, "unknown escape in key")),
                            },
                            c => key.push(c),
                        }
                    }
                    if !closed {
                        return Err(bad(i, "unclosed quote"));
                    }
                    if bytes.get(i) != Some(&b']') {
                        return Err(bad(i, "expected `]`"));
                    }
                    i += 1;
                    out.push(PathSegment::Key(key));
                } else {
                    let start = i;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    let index = path[start..i].parse().map_err(|_| bad(start, "expected an index"))?;
                    if bytes.get(i) != Some(&b']') {
                        return Err(bad(i, "expected `]`"));
                    }
                    i += 1;
                    out.push(PathSegment::Index(index));
                }
            }
            b'.' if !first => {
                i += 1;
                out.push(name_segment(path, &mut i).ok_or_else(|| bad(i, "expected a name after `.`"))?);
            }
            _ if first => {
                out.push(name_segment(path, &mut i).ok_or_else(|| bad(i, "expected a name"))?);
            }
            _ => return Err(bad(i, "expected `.` or `[`")),
        }
        first = false;
    }
    Ok(out)
}

fn name_segment<'a>(path: &'a str, i: &mut usize) -> Option<PathSegment<'a>> {
    let start = *i;
    let bytes = path.as_bytes();
    while *i < bytes.len() && bytes[*i] != b'.' && bytes[*i] != b'[' {
        *i += 1;
    }
    let name = &path[start..*i];
    if name.is_empty() {
        return None;
    }
    Some(match name.parse::<usize>() {
        Ok(n) if name.bytes().all(|b| b.is_ascii_digit()) => PathSegment::Index(n),
        _ => PathSegment::Field(name),
    })
}

fn segment_error(value: &dyn Reflect, segment: &PathSegment<'_>, path: &str) -> Error {
    let type_name = value.type_info().name;
    let path = path.to_string();
    match (segment, value.reflect_ref()) {
        (PathSegment::Index(index), ReflectRef::List(l)) => {
            Error::NoIndex { path, type_name, index: *index, len: l.len() }
        }
        (PathSegment::Index(index), ReflectRef::Struct(s)) => {
            Error::NoIndex { path, type_name, index: *index, len: s.field_count() }
        }
        (PathSegment::Field(k), ReflectRef::Map(_)) => Error::NoKey { path, type_name, key: excerpt(k) },
        (PathSegment::Index(i), ReflectRef::Map(_)) => Error::NoKey { path, type_name, key: i.to_string() },
        (PathSegment::Key(k), _) => Error::NoKey { path, type_name, key: excerpt(k) },
        (PathSegment::Field(f), _) => Error::NoField { path, type_name, field: excerpt(f) },
        (PathSegment::Index(i), _) => Error::NoField { path, type_name, field: i.to_string() },
    }
}

impl dyn Reflect {
    /// Whether the value is a `T`.
    #[must_use]
    pub fn is<T: Reflect>(&self) -> bool {
        self.as_any().type_id() == TypeId::of::<T>()
    }

    /// The value as a `T`, if it is one.
    #[must_use]
    pub fn downcast_ref<T: Reflect>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }

    /// The value as a `T`, if it is one.
    #[must_use]
    pub fn downcast_mut<T: Reflect>(&mut self) -> Option<&mut T> {
        self.as_any_mut().downcast_mut()
    }

    /// The field called `name` of a struct (or of an enum's active variant), or the value at
    /// key `name` of a map. Derived structs test the first field first (its length and one
    /// compare), then answer with a decision tree over the name's bytes (its length, then the
    /// bytes that tell the names of that length apart) and one comparison, so the last of 128
    /// fields costs a few compares more than the first; enums use a
    /// [`NameTable`](crate::NameTable).
    #[inline]
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&dyn Reflect> {
        self.field_by_name(name)
    }

    /// The field called `name`, mutably (see [`field`](#method.field)).
    #[inline]
    #[must_use]
    pub fn field_mut(&mut self, name: &str) -> Option<&mut dyn Reflect> {
        self.field_by_name_mut(name)
    }

    /// One step down.
    #[must_use]
    pub fn child(&self, segment: &PathSegment<'_>) -> Option<&dyn Reflect> {
        match (segment, self.reflect_ref()) {
            (PathSegment::Field(name), _) => self.field(name),
            (PathSegment::Index(i), ReflectRef::List(l)) => l.get(*i),
            (PathSegment::Index(i), ReflectRef::Struct(s)) => s.field_at(*i),
            (PathSegment::Index(i), ReflectRef::Enum(e)) => e.field_at(*i),
            (PathSegment::Key(k), ReflectRef::Map(m)) => m.get(k),
            (PathSegment::Index(i), ReflectRef::Map(m)) => m.get(&i.to_string()),
            _ => None,
        }
    }

    /// One step down, mutably.
    #[must_use]
    pub fn child_mut(&mut self, segment: &PathSegment<'_>) -> Option<&mut dyn Reflect> {
        match segment {
            PathSegment::Field(name) => self.field_mut(name),
            PathSegment::Index(i) => match self.reflect_mut() {
                ReflectMut::List(l) => l.get_mut(*i),
                ReflectMut::Struct(s) => s.field_at_mut(*i),
                ReflectMut::Enum(e) => e.field_at_mut(*i),
                ReflectMut::Map(m) => m.get_mut(&i.to_string()),
                _ => None,
            },
            PathSegment::Key(k) => match self.reflect_mut() {
                ReflectMut::Map(m) => m.get_mut(k),
                _ => None,
            },
        }
    }

    /// The value at `path` (`""` is the value itself).
    ///
    /// # Errors
    /// [`Error::BadPath`], or the error of the first segment that does not exist.
    pub fn path(&self, path: &str) -> Result<&dyn Reflect, Error> {
        if is_plain_name(path) {
            return self.field(path).ok_or_else(|| segment_error(self, &PathSegment::Field(path), ""));
        }
        let mut value = self;
        for (n, segment) in parse_path(path)?.into_iter().enumerate() {
            value = value.child(&segment).ok_or_else(|| segment_error(value, &segment, prefix(path, n)))?;
        }
        Ok(value)
    }

    /// The value at `path`, mutably.
    ///
    /// # Errors
    /// As [`path`](#method.path).
    pub fn path_mut(&mut self, path: &str) -> Result<&mut dyn Reflect, Error> {
        if is_plain_name(path) {
            // Checked first with a shared borrow: returning the error after a failed mutable
            // lookup does not pass today's borrow checker.
            if self.field(path).is_none() {
                return Err(segment_error(self, &PathSegment::Field(path), ""));
            }
            return self.field_mut(path).ok_or(Error::BadPath { path: excerpt(path), at: 0, reason: "vanished" });
        }
        let mut value = self;
        for (n, segment) in parse_path(path)?.into_iter().enumerate() {
            if value.child(&segment).is_none() {
                let shown = prefix(path, n);
                return Err(segment_error(value, &segment, shown));
            }
            value =
                value.child_mut(&segment).ok_or(Error::BadPath { path: excerpt(path), at: 0, reason: "vanished" })?;
        }
        Ok(value)
    }

    /// The `T` at `path`.
    ///
    /// # Errors
    /// As [`path`](#method.path), or [`Error::WrongType`].
    pub fn get<T: Reflect + crate::Typed>(&self, path: &str) -> Result<&T, Error> {
        let value = self.path(path)?;
        let found = value.type_info().name;
        value.downcast_ref().ok_or_else(|| Error::WrongType { path: path.to_string(), expected: T::INFO.name, found })
    }

    /// The `T` at `path`, mutably.
    ///
    /// # Errors
    /// As [`get`](#method.get).
    pub fn get_mut<T: Reflect + crate::Typed>(&mut self, path: &str) -> Result<&mut T, Error> {
        let value = self.path_mut(path)?;
        let found = value.type_info().name;
        value.downcast_mut().ok_or_else(|| Error::WrongType { path: path.to_string(), expected: T::INFO.name, found })
    }

    /// Stores `new` at `path`.
    ///
    /// # Errors
    /// As [`get`](#method.get).
    pub fn set<T: Reflect + crate::Typed>(&mut self, path: &str, new: T) -> Result<(), Error> {
        *self.get_mut::<T>(path)? = new;
        Ok(())
    }

    /// Reads `text` into the value at `path` (see [`crate::text`] for the text form).
    ///
    /// # Errors
    /// As [`path`](#method.path), or the text error with the full path and the expected type.
    #[inline]
    pub fn set_text(&mut self, path: &str, text: &str) -> Result<(), Error> {
        if is_plain_name(path) {
            // One lookup; a miss goes the long way, which reports it.
            if let Some(target) = self.field_mut(path) {
                return match text::set_text(target, text) {
                    Ok(()) => Ok(()),
                    Err(e) => Err(with_prefix(e, path)),
                };
            }
        }
        self.set_text_at_path(path, text)
    }

    /// [`set_text`](#method.set_text) through a full path (or a plain name that is missing).
    #[inline(never)]
    fn set_text_at_path(&mut self, path: &str, text: &str) -> Result<(), Error> {
        let target = self.path_mut(path)?;
        text::set_text(target, text).map_err(|e| e.with_prefix(path))
    }

    /// The text form of the value at `path`.
    ///
    /// # Errors
    /// As [`path`](#method.path).
    pub fn text(&self, path: &str) -> Result<String, Error> {
        Ok(self.path(path)?.to_text())
    }

    /// The text form of the whole value.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        text::write_text(self, &mut out);
        out
    }

    /// Copies `other` into `self` part by part: struct fields by name, enum variants by name,
    /// list elements by index (the list is resized), map entries by key, and leaves directly
    /// when their types match or through their text forms when they do not (so a `f32` can
    /// be applied to a `f64`, or a struct to another struct with the same field names).
    ///
    /// # Errors
    /// When the shapes differ, a field of `other` is missing from `self`, or a leaf's text
    /// does not fit; `self` is then left exactly as it was.
    pub fn apply(&mut self, other: &dyn Reflect) -> Result<(), Error> {
        crate::snapshot::all_or_nothing(self, |target| crate::apply::apply(target, other))
    }
}

#[cold]
#[inline(never)]
fn with_prefix(e: Error, path: &str) -> Error {
    e.with_prefix(path)
}

/// A single field name (no `.`, no `[`, not an index): the common case, looked up without
/// parsing.
#[inline]
fn is_plain_name(path: &str) -> bool {
    let mut digits = true;
    for &b in path.as_bytes() {
        if b == b'.' || b == b'[' {
            return false;
        }
        digits &= b.is_ascii_digit();
    }
    !digits
}

/// Byte length of the first `n` segments of `path` (for error messages).
fn prefix(path: &str, n: usize) -> &str {
    let mut end = 0;
    for _ in 0..n {
        end = advance(path, end);
    }
    &path[..end]
}

/// Byte offset just past the segment starting at `start`.
fn advance(path: &str, start: usize) -> usize {
    let bytes = path.as_bytes();
    let mut i = start;
    if i < bytes.len() && bytes[i] == b'[' {
        let mut in_quote = false;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' if in_quote => i += 1,
                b'"' => in_quote = !in_quote,
                b']' if !in_quote => return i + 1,
                _ => {}
            }
            i += 1;
        }
        return bytes.len();
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
    }
    while i < bytes.len() && bytes[i] != b'.' && bytes[i] != b'[' {
        i += 1;
    }
    i
}

/// One resolved step of a [`TypedPath`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// Struct field or tuple field by index.
    Field(usize),
    /// Field of an enum, valid only while this variant is active.
    Variant { variant: usize, field: usize },
    /// List element.
    Index(usize),
    /// Map key.
    Key(String),
}

/// A path resolved once to field indices, for reading or writing a `T` in many values of the
/// same type in a hot loop: no string hashing, no path parsing.
///
/// ```
/// use lore_reflect::{TypedPath, Reflect};
///
/// #[derive(Reflect, Default)]
/// struct Ball { position: glam::Vec2, radius: f32 }
///
/// # fn main() -> Result<(), lore_reflect::Error> {
/// let mut balls: Vec<Ball> = (0..3).map(|_| Ball::default()).collect();
/// let x = TypedPath::<f32>::resolve(&balls[0], "position.x")?;
/// for (i, ball) in balls.iter_mut().enumerate() {
///     *x.get_mut(ball)? = i as f32;
/// }
/// assert_eq!(balls[2].position.x, 2.0);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct TypedPath<T> {
    root: TypeId,
    root_name: &'static str,
    steps: Vec<Step>,
    /// The type name of the value each step starts from, for errors. The root's type fixes
    /// the type at every step, so the names found at resolve time hold for every value the
    /// typed path accepts (and the walk need not ask each value for them).
    step_types: Vec<&'static str>,
    path: String,
    target: PhantomData<fn() -> T>,
}

impl<T> Clone for TypedPath<T> {
    fn clone(&self) -> Self {
        Self {
            root: self.root,
            root_name: self.root_name,
            steps: self.steps.clone(),
            step_types: self.step_types.clone(),
            path: self.path.clone(),
            target: PhantomData,
        }
    }
}

impl<T: Reflect + crate::Typed> TypedPath<T> {
    /// Resolves `path` against `value` (any value of the type the typed path will be used on).
    ///
    /// # Errors
    /// As [`path`](trait.Reflect.html#method.path), or [`Error::WrongType`] when the value
    /// at the path is not a `T`.
    pub fn resolve(value: &dyn Reflect, path: &str) -> Result<Self, Error> {
        let mut steps = Vec::new();
        let mut step_types = Vec::new();
        let mut current = value;
        for segment in parse_path(path)? {
            let step = match (&segment, current.reflect_ref()) {
                (PathSegment::Field(name), ReflectRef::Struct(s)) => s.info().index_of(name).map(Step::Field),
                (PathSegment::Index(i), ReflectRef::Struct(_)) => Some(Step::Field(*i)),
                (PathSegment::Field(name), ReflectRef::Enum(e)) => e
                    .info()
                    .variants
                    .get(e.variant_index())
                    .and_then(|v| v.index_of(name))
                    .map(|field| Step::Variant { variant: e.variant_index(), field }),
                (PathSegment::Index(i), ReflectRef::Enum(e)) => {
                    Some(Step::Variant { variant: e.variant_index(), field: *i })
                }
                (PathSegment::Index(i), ReflectRef::List(_)) => Some(Step::Index(*i)),
                (PathSegment::Field(k), ReflectRef::Map(_)) => Some(Step::Key(k.to_string())),
                (PathSegment::Key(k), ReflectRef::Map(_)) => Some(Step::Key(k.clone())),
                (PathSegment::Index(i), ReflectRef::Map(_)) => Some(Step::Key(i.to_string())),
                _ => None,
            };
            let next = current.child(&segment);
            match (step, next) {
                (Some(step), Some(next)) => {
                    steps.push(step);
                    step_types.push(current.type_info().name);
                    current = next;
                }
                _ => return Err(segment_error(current, &segment, path)),
            }
        }
        if !current.is::<T>() {
            return Err(Error::WrongType {
                path: path.to_string(),
                expected: T::INFO.name,
                found: current.type_info().name,
            });
        }
        Ok(Self {
            root: value.as_any().type_id(),
            root_name: value.type_info().name,
            steps,
            step_types,
            path: path.to_string(),
            target: PhantomData,
        })
    }

    /// The path this typed path was resolved from.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    #[cold]
    fn mismatch(&self, value: &dyn Reflect) -> Error {
        Error::WrongType { path: self.path.clone(), expected: self.root_name, found: value.type_info().name }
    }

    /// The `T` in `value`.
    ///
    /// # Errors
    /// [`Error::WrongType`] when `value` is not of the type the typed path was resolved on;
    /// [`Error::NoField`]/[`Error::NoIndex`]/[`Error::NoKey`] when a list became shorter, a
    /// key vanished or an enum changed variant since.
    #[inline]
    pub fn get<'v>(&self, value: &'v dyn Reflect) -> Result<&'v T, Error> {
        if value.as_any().type_id() != self.root {
            return Err(self.mismatch(value));
        }
        let mut current = value;
        for (n, step) in self.steps.iter().enumerate() {
            let next = match (step, current.reflect_ref()) {
                (Step::Field(i), ReflectRef::Struct(s)) => s.field_at(*i),
                (Step::Variant { variant, field }, ReflectRef::Enum(e)) if e.variant_index() == *variant => {
                    e.field_at(*field)
                }
                (Step::Index(i), ReflectRef::List(l)) => l.get(*i),
                (Step::Key(k), ReflectRef::Map(m)) => m.get(k),
                _ => None,
            };
            current = next.ok_or_else(|| self.stale_at(n))?;
        }
        current.downcast_ref().ok_or_else(|| self.mismatch(value))
    }

    /// The `T` in `value`, mutably.
    ///
    /// # Errors
    /// As [`get`](#method.get).
    #[inline]
    pub fn get_mut<'v>(&self, value: &'v mut dyn Reflect) -> Result<&'v mut T, Error> {
        if value.as_any().type_id() != self.root {
            return Err(self.mismatch(value));
        }
        let mut current = value;
        for (n, step) in self.steps.iter().enumerate() {
            let next = match (step, current.reflect_mut()) {
                (Step::Field(i), ReflectMut::Struct(s)) => s.field_at_mut(*i),
                (Step::Variant { variant, field }, ReflectMut::Enum(e)) if e.variant_index() == *variant => {
                    e.field_at_mut(*field)
                }
                (Step::Index(i), ReflectMut::List(l)) => l.get_mut(*i),
                (Step::Key(k), ReflectMut::Map(m)) => m.get_mut(k),
                _ => None,
            };
            current = next.ok_or_else(|| self.stale_at(n))?;
        }
        // `resolve` saw a `T` here, and the root's type fixes the type at the end of the path.
        current.downcast_mut().ok_or_else(|| self.not_target())
    }

    /// Step `n` found nothing (a list became shorter, a key vanished, an enum changed variant).
    #[cold]
    fn stale_at(&self, n: usize) -> Error {
        let type_name = self.step_types.get(n).copied().unwrap_or(self.root_name);
        Error::NoField { path: self.path.clone(), type_name, field: self.path.clone() }
    }

    #[cold]
    fn not_target(&self) -> Error {
        Error::WrongType { path: self.path.clone(), expected: T::INFO.name, found: "another type" }
    }
}
