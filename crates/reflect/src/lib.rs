//! Runtime reflection for game data, a kind registry with pluggable factories, and thing
//! documents saved to and loaded from XML: the model of a small level editor.
//!
//! - `#[derive(Reflect)]` describes a struct or enum (generic or not): its fields with names,
//!   types, docs and editor attributes ([`TypeInfo`]).
//! - Values are read and written by name ([`field`](trait.Reflect.html#method.field): a
//!   derived decision tree over the name's bytes, the first field tested first), by path (`"transform.position.x"`, `"items[3]"`,
//!   [`path`](trait.Reflect.html#method.path)), through pre-resolved [`TypedPath`]s in hot loops,
//!   or as text ([`set_text`](trait.Reflect.html#method.set_text) /
//!   [`to_text`](trait.Reflect.html#method.to_text)): every supported type has a text form that
//!   reads back to the exact same value, floats included, and reading is all or nothing (on
//!   error the value is left exactly as it was).
//! - A [`Registry`] creates values by kind name; kinds register themselves from their own
//!   files (`#[reflect(register)]`, link-time collection) or by hand on targets without it.
//! - A [`Document`] is a list of named things; it round-trips through XML in the shape of the
//!   world editor post, and loading reports (line, thing, parameter, reason) what it could not
//!   take while keeping everything the user wrote.
//!
//! # Example
//!
//! ```
//! use lore_reflect::{Document, Reflect, Registry};
//!
//! /// A thing from the world editor post.
//! #[derive(Reflect, Default)]
//! struct Thing1 {
//!     x: f32,
//!     y: f32,
//!     i: i32,
//!     /// Red, green, blue, alpha.
//!     #[reflect(color)]
//!     color: [f32; 4],
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut registry = Registry::new();
//! registry.register::<Thing1>()?;
//!
//! let mut thing = registry.create("Thing1")?;
//! thing.set_text("x", "1e+20")?;
//! thing.set_text("color", "1 , 0 , 0.5 , 1")?;
//! assert_eq!(*thing.get::<f32>("x")?, 1e20);
//! assert_eq!(thing.text("color")?, "1 , 0 , 0.5 , 1");
//!
//! let xml = r#"<things>
//!   <thing kind="Thing1" name="item 2">
//!     <parameter name="x" value="-1e-20"/>
//!     <parameter name="y" value="0"/>
//!     <parameter name="i" value="0"/>
//!     <parameter name="color" value="1 , 0 , 0.5 , 1"/>
//!   </thing>
//! </things>"#;
//! let (doc, report) = Document::from_xml(xml, &registry)?;
//! assert!(report.is_clean());
//! assert_eq!(*doc.things[0].value.get::<f32>("x")?, -1e-20);
//! # Ok(()) }
//! ```
//!
//! # The model
//!
//! A reflected value is seen through one of six shapes ([`ReflectRef`]): a struct (fields by
//! index and name; tuples are tuple structs, glam vectors are structs `x, y`), an enum (the
//! active variant and its fields; `Option` is `None | Some(T)`), a list (`Vec`, arrays), a map
//! (keys of any type with a text form), a set, or a leaf value with a text form (numbers,
//! `bool`, `char`, `String`). `Box<T>` is transparent. Everything else (paths, text, documents,
//! serde, editors) is built on those six, so a new container needs one impl. Containers need
//! no `Default` of their elements except to make new ones ([`Typed::create`]).
//! See `docs/reflect.md` in the repository for the design and its trade-offs.
//!
//! # Feature flags
//!
//! - `std` (default): `HashMap` support, `std::error::Error`. Without it the core
//!   (reflection, paths, text, registry, documents) builds on `core` + `alloc`.
//! - `derive` (default): `#[derive(Reflect)]`.
//! - `xml` (default): [`Document::to_xml`] / [`Document::from_xml`] (quick-xml).
//! - `inventory` (default): link-time registration (`#[reflect(register)]`,
//!   [`register_kind!`], [`Registry::linked`]).
//! - `glam` (default): glam vectors (without `std`, also enable glam's `libm` feature).
//! - `serde`: the serde bridge ([`TypedReflectSerializer`], [`TypedReflectDeserializer`],
//!   [`ReflectSerializer`], [`ReflectDeserializer`], [`deserialize_into`],
//!   `Registry::deserialize_kind`): any reflected value through any self-describing serde
//!   format; and `DocumentData`, a plain mirror of a document.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod apply;
mod document;
mod error;
mod impls;
mod info;
mod path;
mod reflect;
mod registry;
#[cfg(feature = "serde")]
mod serde_doc;
#[cfg(feature = "serde")]
mod serde_reflect;
mod snapshot;
#[cfg(feature = "xml")]
mod strict;
pub mod text;
#[cfg(feature = "xml")]
pub mod xml;

pub use document::{Document, Kept, Param, Problem, ProblemKind, RawThing, Report, Thing, VALUE_PARAM};
pub use error::Error;
pub use impls::write_float;
pub use info::{
    EnumInfo, FieldAttrs, FieldInfo, NameTable, Shape, StructInfo, StructStyle, TypeInfo, ValueKind, VariantInfo,
    fnv1a, name_table,
};
pub use path::{PathSegment, TypedPath, parse_path};

/// The old name of [`PathSegment`] (one step of a path), renamed so that it does not clash
/// with lore-geom's line `Segment`.
#[deprecated(since = "0.2.0", note = "renamed to `PathSegment`; lore-geom's `Segment` is a line segment")]
pub type Segment<'a> = PathSegment<'a>;

/// The old name of [`TypedPath`] (a path resolved once for a type), renamed so that it does
/// not clash with lore-allocators' `Handle`.
#[deprecated(since = "0.2.0", note = "renamed to `TypedPath`; lore-allocators' `Handle` is a generational key")]
pub type Handle<T> = TypedPath<T>;
pub use reflect::{Enum, List, Map, ParseError, Reflect, ReflectMut, ReflectRef, Set, Struct, Typed, Value};
pub use registry::{Kind, Registry};
#[cfg(feature = "serde")]
pub use serde_doc::{DocumentData, ThingData};
#[cfg(feature = "serde")]
pub use serde_reflect::{
    ReflectDeserializer, ReflectSerializer, TypedReflectDeserializer, TypedReflectSerializer, deserialize_into,
};
#[cfg(feature = "xml")]
pub use strict::{FileError, StrictError, load_strict, read_capped, thing_value};
#[cfg(feature = "xml")]
pub use xml::{Limits, LoadError, SaveError};

/// Derives [`Reflect`](trait@Reflect) and [`Typed`] for a struct (named, tuple or unit) or an
/// enum (unit, tuple and struct variants), generic or not.
///
/// Generic parameters get `Reflect` and `Typed` bounds (used when switching variants and
/// making a generic struct: fields are made with [`Typed::create`]). Unions, types with
/// lifetimes and fields holding references are refused with a compile error. The type need
/// not be `Default`: the derive's [`Typed::create`] returns `Default::default()` when a
/// concrete type has it and `None` otherwise (containers then cannot grow with new values of
/// it, and say so with [`Error::NoDefault`]).
///
/// # Container attributes
///
/// - `#[reflect(rename = "Name")]`: the name in type info, documents and the registry.
/// - `#[reflect(register)]`: register the type as a kind at link time (feature `inventory`;
///   the type must be `Default`, or have `create = path`, and not be generic).
/// - `#[reflect(create = path)]`: `path()` makes a new value ([`Typed::create`]) instead of
///   `Default`: for types without `Default`, and generic enums (generic structs are
///   otherwise made field by field).
///
/// # Field attributes
///
/// - `#[reflect(rename = "name")]`: the field's name for paths and documents.
/// - `#[reflect(skip)]`: not reflected (not listed, not saved); enum variants rebuild it with
///   `Default`.
/// - `#[reflect(default)]`: a document may leave it out without a report.
/// - `#[reflect(doc = "...")]`: doc text (otherwise the `///` comment is used).
/// - `#[reflect(range = 0.0..=10.0)]`, `#[reflect(step = 0.5)]`: slider range and step.
/// - `#[reflect(color)]`: an editor shows three or four numbers in `0..=1` as a color.
///
/// ```
/// use lore_reflect::{Reflect, Typed};
///
/// /// A ball.
/// #[derive(Reflect, Default)]
/// #[reflect(rename = "ball")]
/// struct Ball {
///     /// Radius in metres.
///     #[reflect(range = 0.1..=5.0, step = 0.1)]
///     radius: f32,
///     #[reflect(skip)]
///     cache: u32,
/// }
///
/// let info = <Ball as Typed>::INFO;
/// assert_eq!(info.name, "ball");
/// let fields = info.struct_info().unwrap().fields;
/// assert_eq!(fields.len(), 1);
/// assert_eq!(fields[0].docs, "Radius in metres.");
/// assert_eq!(fields[0].attrs.range, Some((0.1, 5.0)));
/// ```
#[cfg(feature = "derive")]
pub use lore_reflect_derive::Reflect;

/// The guide's examples (docs/reflect.md), run as doc tests.
#[cfg(all(doctest, feature = "derive", feature = "xml", feature = "inventory"))]
#[doc = include_str!("../../../docs/reflect.md")]
struct GuideDoctests;

/// Paths the derive's generated code names. Not meant to be used directly.
#[doc(hidden)]
pub mod __private {
    pub use crate::info::{
        EnumInfo, FieldAttrs, FieldInfo, NameTable, Shape, StructInfo, StructStyle, TypeInfo, VariantInfo, fnv1a,
        name_table,
    };
    pub use crate::reflect::{
        CreateFallback, CreateProbe, CreateViaDefault, Enum, Reflect, ReflectMut, ReflectRef, Struct, Typed,
    };
    pub use crate::registry::{Kind, Registration};
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use core::any::{Any, type_name};
    #[cfg(feature = "inventory")]
    pub use inventory;
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
