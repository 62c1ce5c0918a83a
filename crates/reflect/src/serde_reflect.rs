//! A serde bridge for any reflected value (feature `serde`): write any `&dyn Reflect` with any
//! self-describing serde format, and read into a value of a known type, all or nothing, as
//! bevy_reflect's `TypedReflectSerializer` / `TypedReflectDeserializer` and
//! `ReflectSerializer` / `ReflectDeserializer` do.
//!
//! | reflected shape | serde data model |
//! | --- | --- |
//! | struct with named fields | struct (a map of field names in JSON) |
//! | tuple struct / tuple | tuple struct / tuple (an array); one field: newtype struct |
//! | unit struct | unit struct |
//! | enum | unit, newtype, tuple or struct variant, by name |
//! | `Option<T>` | option (`null` or the value in JSON) |
//! | list, set | sequence |
//! | map | map whose keys are the keys' text forms (strings) |
//! | leaf | `bool`, the integer or float of its type, `char`, string; a
//! | | [`reflect_value!`](crate::reflect_value) type as its text |
//!
//! Reading fills a value in place ([`TypedReflectDeserializer`], [`deserialize_into`]):
//! struct fields a document leaves out keep their values, unknown fields are errors, lists
//! and maps take exactly the elements read. On any error the value is left exactly as it
//! was, and the error message starts with the path of the part that failed (`` `items[2].hp`:
//! invalid type: string "x", expected i32 ``). Formats that need the field names up front
//! (bincode, postcard: not self-describing) are not supported; JSON, CBOR, RON, TOML and
//! other self-describing formats are.

use crate::info::{Shape, StructStyle};
use crate::reflect::{Reflect, ReflectMut, ReflectRef};
use crate::registry::Registry;
use crate::snapshot::Snapshot;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde::ser::{
    Error as _, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use serde::{Deserialize, Serialize};

/// Serializes a reflected value as its own data, untagged (the reader must know its type).
///
/// ```
/// use lore_reflect::{Reflect, TypedReflectSerializer, TypedReflectDeserializer};
/// use serde::de::DeserializeSeed;
///
/// #[derive(Reflect, Default, Debug, PartialEq)]
/// struct Ball { radius: f32, tags: Vec<String>, spin: Option<(i8, i8)> }
///
/// let ball = Ball { radius: 0.5, tags: vec!["red".into()], spin: Some((1, -1)) };
/// let json = serde_json::to_string(&TypedReflectSerializer::new(&ball)).unwrap();
/// assert_eq!(json, r#"{"radius":0.5,"tags":["red"],"spin":[1,-1]}"#);
///
/// let mut back = Ball::default();
/// let mut de = serde_json::Deserializer::from_str(&json);
/// TypedReflectDeserializer::new(&mut back).deserialize(&mut de).unwrap();
/// assert_eq!(back, ball);
/// ```
#[derive(Clone, Copy)]
pub struct TypedReflectSerializer<'a> {
    value: &'a dyn Reflect,
}

impl fmt::Debug for TypedReflectSerializer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TypedReflectSerializer").field(&self.value).finish()
    }
}

impl<'a> TypedReflectSerializer<'a> {
    /// A serializer for `value`.
    #[must_use]
    pub fn new(value: &'a dyn Reflect) -> Self {
        Self { value }
    }
}

/// Serializes a reflected value tagged with its kind name, as a map of one entry
/// (`{"Ball": {...}}`), for [`ReflectDeserializer`] to read back through a [`Registry`].
#[derive(Clone, Copy)]
pub struct ReflectSerializer<'a> {
    value: &'a dyn Reflect,
}

impl fmt::Debug for ReflectSerializer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ReflectSerializer").field(&self.value).finish()
    }
}

impl<'a> ReflectSerializer<'a> {
    /// A serializer for `value`.
    #[must_use]
    pub fn new(value: &'a dyn Reflect) -> Self {
        Self { value }
    }
}

impl Serialize for ReflectSerializer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.value.type_info().name, &TypedReflectSerializer::new(self.value))?;
        map.end()
    }
}

fn is_option(value: &dyn Reflect) -> bool {
    let path = (value.type_info().type_path)();
    path.starts_with("core::option::Option<") && matches!(value.type_info().shape, Shape::Enum(_))
}

fn is_tuple(value: &dyn Reflect) -> bool {
    value.type_info().name == "tuple" && (value.type_info().type_path)().starts_with('(')
}

impl Serialize for TypedReflectSerializer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = self.value;
        let name = value.type_info().name;
        let ser = TypedReflectSerializer::new;
        match value.reflect_ref() {
            ReflectRef::Value(v) => serialize_leaf(v, serializer),
            ReflectRef::Struct(s) => {
                let info = s.info();
                let count = s.field_count();
                let field = |i: usize| s.field_at(i).ok_or_else(|| S::Error::custom("a field vanished"));
                match info.style {
                    StructStyle::Unit => serializer.serialize_unit_struct(name),
                    StructStyle::Named => {
                        let mut out = serializer.serialize_struct(name, count)?;
                        for (i, f) in info.fields.iter().enumerate().take(count) {
                            out.serialize_field(f.name, &ser(field(i)?))?;
                        }
                        out.end()
                    }
                    StructStyle::Tuple if is_tuple(value) => {
                        let mut out = serializer.serialize_tuple(count)?;
                        for i in 0..count {
                            out.serialize_element(&ser(field(i)?))?;
                        }
                        out.end()
                    }
                    StructStyle::Tuple if count == 1 => serializer.serialize_newtype_struct(name, &ser(field(0)?)),
                    StructStyle::Tuple => {
                        let mut out = serializer.serialize_tuple_struct(name, count)?;
                        for i in 0..count {
                            out.serialize_field(&ser(field(i)?))?;
                        }
                        out.end()
                    }
                }
            }
            ReflectRef::Enum(e) if is_option(value) => match e.field_at(0) {
                Some(inner) => serializer.serialize_some(&ser(inner)),
                None => serializer.serialize_none(),
            },
            ReflectRef::Enum(e) => {
                let index = e.variant_index();
                let variant = e.info().variants.get(index).ok_or_else(|| S::Error::custom("no active variant"))?;
                let vname = variant.name;
                let vi = u32::try_from(index).map_err(S::Error::custom)?;
                let count = e.field_count();
                let field = |i: usize| e.field_at(i).ok_or_else(|| S::Error::custom("a field vanished"));
                match variant.style {
                    StructStyle::Unit => serializer.serialize_unit_variant(name, vi, vname),
                    StructStyle::Tuple if count == 1 => {
                        serializer.serialize_newtype_variant(name, vi, vname, &ser(field(0)?))
                    }
                    StructStyle::Tuple => {
                        let mut out = serializer.serialize_tuple_variant(name, vi, vname, count)?;
                        for i in 0..count {
                            out.serialize_field(&ser(field(i)?))?;
                        }
                        out.end()
                    }
                    StructStyle::Named => {
                        let mut out = serializer.serialize_struct_variant(name, vi, vname, count)?;
                        for (i, f) in variant.fields.iter().enumerate().take(count) {
                            out.serialize_field(f.name, &ser(field(i)?))?;
                        }
                        out.end()
                    }
                }
            }
            ReflectRef::List(l) => {
                let mut out = serializer.serialize_seq(Some(l.len()))?;
                for i in 0..l.len() {
                    if let Some(element) = l.get(i) {
                        out.serialize_element(&ser(element))?;
                    }
                }
                out.end()
            }
            ReflectRef::Set(set) => {
                let elements = set.elements();
                let mut out = serializer.serialize_seq(Some(elements.len()))?;
                for element in elements {
                    out.serialize_element(&ser(element))?;
                }
                out.end()
            }
            ReflectRef::Map(m) => {
                let keys = m.keys();
                let mut out = serializer.serialize_map(Some(keys.len()))?;
                for key in &keys {
                    if let Some(v) = m.get(key) {
                        out.serialize_entry(&**key, &ser(v))?;
                    }
                }
                out.end()
            }
        }
    }
}

/// Runs `$body` with `$x` bound to the leaf as each of the listed types, the first that fits.
macro_rules! with_leaf {
    ($value:expr, $x:ident => $body:expr, $($t:ty),+ ; $otherwise:expr) => {{
        let any = $value;
        $(if let Some($x) = any.downcast_ref::<$t>() { $body } else)+ { $otherwise }
    }};
}

fn serialize_leaf<S: Serializer>(v: &dyn crate::Value, serializer: S) -> Result<S::Ok, S::Error> {
    let any = v.as_any();
    with_leaf!(any, x => return x.serialize(serializer),
        bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, char, String; {});
    if let Some(x) = any.downcast_ref::<isize>() {
        return serializer.serialize_i64(*x as i64);
    }
    if let Some(x) = any.downcast_ref::<usize>() {
        return serializer.serialize_u64(*x as u64);
    }
    let mut text = String::new();
    v.write_text(&mut text);
    serializer.serialize_str(&text)
}

/// Shared state of one deserialization: whether the error travelling up already names its
/// path (the innermost part that failed names it; the parts around it pass it on).
struct Ctx {
    named: Cell<bool>,
}

fn name_error<E: de::Error>(ctx: &Ctx, path: &str, e: E) -> E {
    if ctx.named.get() {
        e
    } else {
        ctx.named.set(true);
        E::custom(format_args!("`{path}`: {e}"))
    }
}

fn reflect_error<E: de::Error>(ctx: &Ctx, path: &str, e: &crate::Error) -> E {
    ctx.named.set(true);
    E::custom(e.clone().with_prefix(path))
}

/// Reads serde data into an existing value, all or nothing: on error the value is put back
/// exactly as it was and the error names the path of the part that failed. `Value = ()`.
///
/// See [`TypedReflectSerializer`] for an example, and [`deserialize_into`] for a function.
pub struct TypedReflectDeserializer<'a> {
    target: &'a mut dyn Reflect,
}

impl fmt::Debug for TypedReflectDeserializer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedReflectDeserializer").field("type", &self.target.type_info().name).finish()
    }
}

impl<'a> TypedReflectDeserializer<'a> {
    /// A deserializer that fills `target`.
    #[must_use]
    pub fn new(target: &'a mut dyn Reflect) -> Self {
        Self { target }
    }
}

impl<'de> DeserializeSeed<'de> for TypedReflectDeserializer<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let before = Snapshot::take(self.target);
        let ctx = Ctx { named: Cell::new(false) };
        let result = Seed { target: &mut *self.target, path: String::new(), ctx: &ctx }.deserialize(deserializer);
        if result.is_err() {
            before.restore(self.target);
        }
        result
    }
}

/// Reads serde data from `deserializer` into `target`, all or nothing.
///
/// # Errors
/// The format's error, its message starting with the path of the part that failed; `target`
/// is then unchanged.
pub fn deserialize_into<'de, D: Deserializer<'de>>(target: &mut dyn Reflect, deserializer: D) -> Result<(), D::Error> {
    TypedReflectDeserializer::new(target).deserialize(deserializer)
}

/// Reads a value tagged with its kind name (`{"Ball": {...}}`, as [`ReflectSerializer`]
/// writes) into a new value of that kind from the registry. `Value = Box<dyn Reflect>`.
///
/// ```
/// use lore_reflect::{Reflect, Registry, ReflectDeserializer, ReflectSerializer};
/// use serde::de::DeserializeSeed;
///
/// #[derive(Reflect, Default, Debug, PartialEq)]
/// struct Lamp { power: f32 }
///
/// let mut registry = Registry::new();
/// registry.register::<Lamp>().unwrap();
/// let json = serde_json::to_string(&ReflectSerializer::new(&Lamp { power: 2.0 })).unwrap();
/// assert_eq!(json, r#"{"Lamp":{"power":2.0}}"#);
/// let mut de = serde_json::Deserializer::from_str(&json);
/// let lamp = ReflectDeserializer::new(&registry).deserialize(&mut de).unwrap();
/// assert_eq!(lamp.downcast_ref::<Lamp>(), Some(&Lamp { power: 2.0 }));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ReflectDeserializer<'a> {
    registry: &'a Registry,
}

impl<'a> ReflectDeserializer<'a> {
    /// A deserializer creating values from `registry`.
    #[must_use]
    pub fn new(registry: &'a Registry) -> Self {
        Self { registry }
    }
}

impl<'de> DeserializeSeed<'de> for ReflectDeserializer<'_> {
    type Value = Box<dyn Reflect>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Box<dyn Reflect>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ReflectDeserializer<'_> {
    type Value = Box<dyn Reflect>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of one entry, a kind name to its value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Box<dyn Reflect>, A::Error> {
        let kind: String = map.next_key()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let mut value = self.registry.create(&kind).map_err(de::Error::custom)?;
        map.next_value_seed(TypedReflectDeserializer::new(&mut *value))?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(2, &self));
        }
        Ok(value)
    }
}

impl Registry {
    /// A new value of the kind called `kind`, read from `deserializer` (untagged: the data
    /// of the value itself, as [`TypedReflectSerializer`] writes it). Loads kinds from JSON,
    /// RON, CBOR or any self-describing serde format as well as from XML.
    ///
    /// # Errors
    /// The format's error: an unknown kind, or the error of [`deserialize_into`].
    pub fn deserialize_kind<'de, D: Deserializer<'de>>(
        &self,
        kind: &str,
        deserializer: D,
    ) -> Result<Box<dyn Reflect>, D::Error> {
        let mut value = self.create(kind).map_err(de::Error::custom)?;
        deserialize_into(&mut *value, deserializer)?;
        Ok(value)
    }
}

/// One part being read: where it is and what it is.
struct Seed<'a, 'c> {
    target: &'a mut dyn Reflect,
    path: String,
    ctx: &'c Ctx,
}

fn join(path: &str, part: &str) -> String {
    if path.is_empty() || part.starts_with('[') { format!("{path}{part}") } else { format!("{path}.{part}") }
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let (ctx, path) = (self.ctx, self.path.clone());
        self.read(deserializer).map_err(|e| name_error(ctx, &path, e))
    }
}

macro_rules! read_leaf {
    ($target:expr, $d:expr, $($t:ty),+) => {{
        let any = $target.as_any_mut();
        $(if let Some(x) = any.downcast_mut::<$t>() {
            *x = <$t>::deserialize($d)?;
            return Ok(());
        })+
    }};
}

impl Seed<'_, '_> {
    fn read<'de, D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let name = self.target.type_info().name;
        let option = is_option(self.target);
        let tuple = is_tuple(self.target);
        match self.target.reflect_mut() {
            ReflectMut::Value(v) => {
                read_leaf!(v, d, bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, char, String);
                if let Some(x) = v.as_any_mut().downcast_mut::<isize>() {
                    *x = isize::try_from(i64::deserialize(d)?).map_err(de::Error::custom)?;
                    return Ok(());
                }
                if let Some(x) = v.as_any_mut().downcast_mut::<usize>() {
                    *x = usize::try_from(u64::deserialize(d)?).map_err(de::Error::custom)?;
                    return Ok(());
                }
                let text = String::deserialize(d)?;
                v.parse_text(&text).map_err(|e| {
                    de::Error::custom(format_args!(
                        "cannot read {:?} as {}: {}",
                        crate::error::excerpt(&text),
                        e.expected,
                        e.reason
                    ))
                })
            }
            ReflectMut::Struct(s) => {
                let style = <dyn crate::Struct>::info(s).style;
                let count = s.field_count();
                let seed = Seed { target: s.as_reflect_mut(), path: self.path, ctx: self.ctx };
                match style {
                    StructStyle::Unit => d.deserialize_unit_struct(name, StructVisitor(seed)),
                    StructStyle::Named => d.deserialize_struct(name, &[], StructVisitor(seed)),
                    StructStyle::Tuple if tuple => d.deserialize_tuple(count, StructVisitor(seed)),
                    StructStyle::Tuple if count == 1 => d.deserialize_newtype_struct(name, StructVisitor(seed)),
                    StructStyle::Tuple => d.deserialize_tuple_struct(name, count, StructVisitor(seed)),
                }
            }
            ReflectMut::Enum(e) => {
                let seed = Seed { target: e.as_reflect_mut(), path: self.path, ctx: self.ctx };
                if option {
                    d.deserialize_option(OptionVisitor(seed))
                } else {
                    d.deserialize_enum(name, &[], EnumVisitor(seed))
                }
            }
            ReflectMut::List(l) => {
                d.deserialize_seq(ListVisitor(Seed { target: l.as_reflect_mut(), path: self.path, ctx: self.ctx }))
            }
            ReflectMut::Set(s) => {
                d.deserialize_seq(SetVisitor(Seed { target: s.as_reflect_mut(), path: self.path, ctx: self.ctx }))
            }
            ReflectMut::Map(m) => {
                d.deserialize_map(MapVisitor(Seed { target: m.as_reflect_mut(), path: self.path, ctx: self.ctx }))
            }
        }
    }
}

struct StructVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for StructVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}", self.0.target.type_info().name)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        let ReflectMut::Struct(s) = self.0.target.reflect_mut() else { return Err(E::custom("not a struct")) };
        if s.field_count() == 0 { Ok(()) } else { Err(E::invalid_type(de::Unexpected::Unit, &self)) }
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let Seed { target, path, ctx } = self.0;
        let ReflectMut::Struct(s) = target.reflect_mut() else { return Err(de::Error::custom("not a struct")) };
        let name = <dyn crate::Struct>::info(s).fields.first().map_or("0", |f| f.name);
        let field = s.field_at_mut(0).ok_or_else(|| de::Error::custom("no field 0"))?;
        Seed { target: field, path: join(&path, name), ctx }.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let type_name = target.type_info().name;
        let ReflectMut::Struct(s) = target.reflect_mut() else { return Err(de::Error::custom("not a struct")) };
        let info = <dyn crate::Struct>::info(s);
        let count = s.field_count();
        for i in 0..count {
            let name = info.fields.get(i).map_or("?", |f| f.name);
            let field = s.field_at_mut(i).ok_or_else(|| de::Error::custom("a field vanished"))?;
            let seed = Seed { target: field, path: join(&path, name), ctx };
            if seq.next_element_seed(seed)?.is_none() {
                return Err(de::Error::custom(format_args!("expected {count} fields of {type_name}, found {i}")));
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format_args!("more than {count} fields for {type_name}")));
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let type_name = target.type_info().name;
        let ReflectMut::Struct(s) = target.reflect_mut() else { return Err(de::Error::custom("not a struct")) };
        let info = <dyn crate::Struct>::info(s);
        while let Some(key) = map.next_key::<String>()? {
            let Some(field) = info.index_of(&key).and_then(|i| s.field_at_mut(i)) else {
                let e = crate::Error::NoField { path: String::new(), type_name, field: crate::error::excerpt(&key) };
                return Err(reflect_error(ctx, &path, &e));
            };
            map.next_value_seed(Seed { target: field, path: join(&path, &key), ctx })?;
        }
        Ok(())
    }
}

struct OptionVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for OptionVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an option")
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        let ReflectMut::Enum(e) = self.0.target.reflect_mut() else { return Err(E::custom("not an option")) };
        e.set_variant(0);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.visit_none()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let Seed { target, path, ctx } = self.0;
        let type_name = target.type_info().name;
        let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(de::Error::custom("not an option")) };
        if e.variant_index() != 1 && !e.set_variant(1) {
            return Err(reflect_error(ctx, &path, &crate::Error::NoDefault { path: String::new(), type_name }));
        }
        let inner = e.field_at_mut(0).ok_or_else(|| de::Error::custom("no value in Some"))?;
        Seed { target: inner, path, ctx }.deserialize(d)
    }
}

struct EnumVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for EnumVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a variant of {}", self.0.target.type_info().name)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let type_name = target.type_info().name;
        let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(de::Error::custom("not an enum")) };
        let info = <dyn crate::Enum>::info(e);
        let (vname, variant) = data.variant::<String>()?;
        let Some(index) = info.index_of(&vname) else {
            let err =
                crate::Error::NoVariant { path: String::new(), type_name, variant: crate::error::excerpt(&vname) };
            return Err(reflect_error(ctx, &path, &err));
        };
        if e.variant_index() != index && !e.set_variant(index) {
            return Err(reflect_error(ctx, &path, &crate::Error::NoDefault { path: String::new(), type_name }));
        }
        let v = &info.variants[index];
        let count = e.field_count();
        let seed = Seed { target: e.as_reflect_mut(), path, ctx };
        match v.style {
            StructStyle::Unit => variant.unit_variant(),
            StructStyle::Tuple if count == 1 => {
                let Seed { target, path, ctx } = seed;
                let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(de::Error::custom("not an enum")) };
                let field = e.field_at_mut(0).ok_or_else(|| de::Error::custom("no field 0"))?;
                variant.newtype_variant_seed(Seed { target: field, path: join(&path, "0"), ctx })
            }
            StructStyle::Tuple => variant.tuple_variant(count, VariantFields(seed)),
            StructStyle::Named => variant.struct_variant(&[], VariantFields(seed)),
        }
    }
}

/// The fields of the active variant of an enum.
struct VariantFields<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for VariantFields<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the fields of a variant")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(de::Error::custom("not an enum")) };
        let fields = <dyn crate::Enum>::info(e).variants.get(e.variant_index()).map_or(&[][..], |v| v.fields);
        let count = e.field_count();
        for i in 0..count {
            let name = fields.get(i).map_or("?", |f| f.name);
            let field = e.field_at_mut(i).ok_or_else(|| de::Error::custom("a field vanished"))?;
            if seq.next_element_seed(Seed { target: field, path: join(&path, name), ctx })?.is_none() {
                return Err(de::Error::custom(format_args!("expected {count} fields, found {i}")));
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format_args!("more than {count} fields")));
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let type_name = target.type_info().name;
        let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(de::Error::custom("not an enum")) };
        let variant = <dyn crate::Enum>::info(e).variants.get(e.variant_index());
        while let Some(key) = map.next_key::<String>()? {
            let Some(field) = variant.and_then(|v| v.index_of(&key)).and_then(|i| e.field_at_mut(i)) else {
                let err = crate::Error::NoField { path: String::new(), type_name, field: crate::error::excerpt(&key) };
                return Err(reflect_error(ctx, &path, &err));
            };
            map.next_value_seed(Seed { target: field, path: join(&path, &key), ctx })?;
        }
        Ok(())
    }
}

struct ListVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for ListVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let info = target.type_info();
        let ReflectMut::List(l) = target.reflect_mut() else { return Err(de::Error::custom("not a list")) };
        let len = l.len();
        let fixed = matches!(info.shape, Shape::List { fixed_len: Some(_), .. });
        let mut i = 0;
        loop {
            if i == l.len() {
                // The list must grow: only when there is another element.
                if !l.push_default() {
                    if seq.next_element::<IgnoredAny>()?.is_none() {
                        break;
                    }
                    let err = crate::text::grow_error(info, "", len, i + 1);
                    return Err(reflect_error(ctx, &path, &err));
                }
                let element = l.get_mut(i).ok_or_else(|| de::Error::custom("an element vanished"))?;
                if seq.next_element_seed(Seed { target: element, path: join(&path, &format!("[{i}]")), ctx })?.is_none()
                {
                    l.truncate(i);
                    break;
                }
            } else {
                let element = l.get_mut(i).ok_or_else(|| de::Error::custom("an element vanished"))?;
                if seq.next_element_seed(Seed { target: element, path: join(&path, &format!("[{i}]")), ctx })?.is_none()
                {
                    break;
                }
            }
            i += 1;
        }
        if i < l.len() {
            if fixed {
                let err = crate::Error::FixedLength { path: String::new(), type_name: info.name, len, found: i };
                return Err(reflect_error(ctx, &path, &err));
            }
            l.truncate(i);
        }
        Ok(())
    }
}

struct SetVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for SetVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let ReflectMut::Set(set) = target.reflect_mut() else { return Err(de::Error::custom("not a set")) };
        let mut wanted: Vec<String> = Vec::new();
        let mut format_error: Option<A::Error> = None;
        let mut ended = false;
        for i in 0.. {
            let element_path = join(&path, &format!("[{i}]"));
            let inserted = set.insert_with(&mut |element| match seq.next_element_seed(Seed {
                target: &mut *element,
                path: element_path.clone(),
                ctx,
            }) {
                Ok(Some(())) => {
                    wanted.push(element.to_text());
                    Ok(())
                }
                Ok(None) => {
                    ended = true;
                    Err(crate::Error::Serde { path: String::new(), reason: String::from("end") })
                }
                Err(e) => {
                    format_error = Some(e);
                    Err(crate::Error::Serde { path: String::new(), reason: String::from("format") })
                }
            });
            match inserted {
                Ok(_) => {}
                Err(_) if ended => break,
                Err(_) if format_error.is_some() => {
                    return Err(format_error.take().unwrap_or_else(|| de::Error::custom("?")));
                }
                Err(crate::Error::NoDefault { type_name, .. }) => {
                    // No element can be made: fine only if there is none to read.
                    if seq.next_element::<IgnoredAny>()?.is_none() {
                        break;
                    }
                    let err = crate::Error::NoDefault { path: String::new(), type_name };
                    return Err(reflect_error(ctx, &element_path, &err));
                }
                Err(e) => return Err(reflect_error(ctx, &element_path, &e)),
            }
        }
        set.retain(&mut |e| wanted.contains(&e.to_text()));
        Ok(())
    }
}

struct MapVisitor<'a, 'c>(Seed<'a, 'c>);

impl<'de> Visitor<'de> for MapVisitor<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Seed { target, path, ctx } = self.0;
        let ReflectMut::Map(m) = target.reflect_mut() else { return Err(de::Error::custom("not a map")) };
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let entry_path = join(&path, &format!("[{key:?}]"));
            let value = if m.get(&key).is_some() {
                m.get_mut(&key)
            } else {
                Some(m.insert_default(&key).map_err(|e| reflect_error::<A::Error>(ctx, &entry_path, &e))?)
            };
            let value = value.ok_or_else(|| de::Error::custom("an entry vanished"))?;
            map.next_value_seed(Seed { target: value, path: entry_path, ctx })?;
            keys.push(key);
        }
        crate::snapshot::remove_stale_entries(m, keys.iter().map(String::as_str));
        Ok(())
    }
}

impl fmt::Debug for Seed<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seed").field("path", &self.path).finish()
    }
}
