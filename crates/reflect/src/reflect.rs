//! The [`Reflect`] trait and the shape traits a reflected value is seen through.

use crate::info::{EnumInfo, StructInfo, TypeInfo, ValueKind};
use alloc::string::String;
use core::any::Any;

/// A value whose type, fields and text form can be inspected and changed at run time.
///
/// Implement it with `#[derive(Reflect)]` (see the derive's attributes on
/// [`Reflect`](macro@crate::Reflect)); this crate implements it for numbers, `bool`, `char`,
/// `String`, `Vec<T>`, `[T; N]`, `Option<T>`, maps with `String` keys and glam vectors.
///
/// Most users call the methods on `dyn Reflect` instead: [`field`](trait.Reflect.html#method.field),
/// [`path`](trait.Reflect.html#method.path), [`get`](trait.Reflect.html#method.get),
/// [`set_text`](trait.Reflect.html#method.set_text), [`to_text`](trait.Reflect.html#method.to_text).
pub trait Reflect: Any + Send + Sync {
    /// The static description of the value's type.
    fn type_info(&self) -> &'static TypeInfo;
    /// Upcast for downcasting.
    fn as_any(&self) -> &dyn Any;
    /// Upcast for downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Upcast to `dyn Reflect` (for generic code holding a `T: Reflect`).
    fn as_reflect(&self) -> &dyn Reflect;
    /// Upcast to `dyn Reflect`.
    fn as_reflect_mut(&mut self) -> &mut dyn Reflect;
    /// The value seen through its shape.
    fn reflect_ref(&self) -> ReflectRef<'_>;
    /// The value seen through its shape, mutably.
    fn reflect_mut(&mut self) -> ReflectMut<'_>;

    /// The field called `name` (call [`field`](trait.Reflect.html#method.field) instead).
    ///
    /// The default looks the name up in the type's [`NameTable`](crate::NameTable) (struct
    /// fields, the active variant's fields) or in the map; the derive overrides it for structs
    /// with a test of the first field, then a decision tree over the name's bytes (a `match` on
    /// its length, then on the bytes that tell the names of that length apart) and one
    /// comparison, so the last field costs a few compares more than the first.
    #[inline]
    fn field_by_name(&self, name: &str) -> Option<&dyn Reflect> {
        match self.reflect_ref() {
            ReflectRef::Struct(s) => s.field_at(s.info().index_of(name)?),
            ReflectRef::Enum(e) => {
                let variant = e.info().variants.get(e.variant_index())?;
                e.field_at(variant.index_of(name)?)
            }
            ReflectRef::Map(m) => m.get(name),
            _ => None,
        }
    }

    /// The field called `name`, mutably (call [`field_mut`](trait.Reflect.html#method.field_mut)).
    #[inline]
    fn field_by_name_mut(&mut self, name: &str) -> Option<&mut dyn Reflect> {
        match self.reflect_mut() {
            ReflectMut::Struct(s) => {
                let index = <dyn Struct>::info(s).index_of(name)?;
                s.field_at_mut(index)
            }
            ReflectMut::Enum(e) => {
                let info = <dyn Enum>::info(e);
                let variant = info.variants.get(e.variant_index())?;
                e.field_at_mut(variant.index_of(name)?)
            }
            ReflectMut::Map(m) => m.get_mut(name),
            _ => None,
        }
    }
}

impl core::fmt::Debug for dyn Reflect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}({})", self.type_info().name, self.to_text())
    }
}

/// Types whose [`TypeInfo`] is known without a value (every `Reflect` type of this crate and
/// of the derive). Kept apart from [`Reflect`] so that `dyn Reflect` exists.
pub trait Typed {
    /// The type's description.
    const INFO: &'static TypeInfo;
}

/// A shared view of a reflected value by shape.
#[derive(Clone, Copy)]
#[allow(missing_debug_implementations)] // the views are trait objects; `dyn Reflect` is Debug
pub enum ReflectRef<'a> {
    /// A struct or glam vector.
    Struct(&'a dyn Struct),
    /// An enum or `Option`.
    Enum(&'a dyn Enum),
    /// A `Vec` or array.
    List(&'a dyn List),
    /// A map with string keys.
    Map(&'a dyn Map),
    /// A leaf value.
    Value(&'a dyn Value),
}

/// A mutable view of a reflected value by shape.
#[allow(missing_debug_implementations)] // as ReflectRef
pub enum ReflectMut<'a> {
    /// A struct or glam vector.
    Struct(&'a mut dyn Struct),
    /// An enum or `Option`.
    Enum(&'a mut dyn Enum),
    /// A `Vec` or array.
    List(&'a mut dyn List),
    /// A map with string keys.
    Map(&'a mut dyn Map),
    /// A leaf value.
    Value(&'a mut dyn Value),
}

/// A struct: a fixed list of fields described by its [`StructInfo`].
pub trait Struct: Reflect {
    /// Field `index` (declaration order, skipped fields not counted).
    fn field_at(&self, index: usize) -> Option<&dyn Reflect>;
    /// Field `index`, mutably.
    fn field_at_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// The number of reflected fields.
    fn field_count(&self) -> usize;
}

impl dyn Struct {
    /// The struct's field descriptions.
    #[must_use]
    pub fn info(&self) -> &'static StructInfo {
        match &self.type_info().shape {
            crate::Shape::Struct(s) => s,
            _ => &EMPTY_STRUCT,
        }
    }
}

static EMPTY_STRUCT: StructInfo =
    StructInfo { style: crate::StructStyle::Unit, fields: &[], names: crate::NameTable::new(&[]) };

/// An enum: one active variant and its fields.
pub trait Enum: Reflect {
    /// The index of the active variant in [`EnumInfo::variants`].
    fn variant_index(&self) -> usize;
    /// Field `index` of the active variant.
    fn field_at(&self, index: usize) -> Option<&dyn Reflect>;
    /// Field `index` of the active variant, mutably.
    fn field_at_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// The number of reflected fields of the active variant.
    fn field_count(&self) -> usize;
    /// Switches to variant `index` with default field values; returns false (and changes
    /// nothing) when there is no such variant.
    fn set_variant(&mut self, index: usize) -> bool;
}

impl dyn Enum {
    /// The enum's variant descriptions.
    #[must_use]
    pub fn info(&self) -> &'static EnumInfo {
        match &self.type_info().shape {
            crate::Shape::Enum(e) => e,
            _ => &EMPTY_ENUM,
        }
    }

    /// The name of the active variant.
    #[must_use]
    pub fn variant_name(&self) -> &'static str {
        self.info().variants.get(self.variant_index()).map_or("", |v| v.name)
    }
}

static EMPTY_ENUM: EnumInfo = EnumInfo { variants: &[], names: crate::NameTable::new(&[]) };

/// A sequence of values of one type.
pub trait List: Reflect {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `index`.
    fn get(&self, index: usize) -> Option<&dyn Reflect>;
    /// Element `index`, mutably.
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect>;
    /// Appends a default element; false for fixed-length arrays.
    fn push_default(&mut self) -> bool;
    /// Shortens to `len` elements; false for fixed-length arrays (unless `len` is the length).
    fn truncate(&mut self, len: usize) -> bool;
    /// Removes element `index`; false when out of range or fixed-length.
    fn remove(&mut self, index: usize) -> bool;
}

/// A map from strings to values of one type.
pub trait Map: Reflect {
    /// The number of entries.
    fn len(&self) -> usize;
    /// Whether there are no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The keys in sorted order (so text and documents are deterministic).
    fn keys(&self) -> alloc::vec::Vec<&str>;
    /// The value at `key`.
    fn get(&self, key: &str) -> Option<&dyn Reflect>;
    /// The value at `key`, mutably.
    fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect>;
    /// Inserts a default value at `key` (replacing any) and returns it.
    fn insert_default(&mut self, key: &str) -> &mut dyn Reflect;
    /// Removes `key`; false when absent.
    fn remove(&mut self, key: &str) -> bool;
    /// Removes every entry.
    fn clear(&mut self);
}

/// Why text could not be read as a value (the caller adds the path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The expected type, e.g. `"f32"`.
    pub expected: &'static str,
    /// What is wrong, e.g. `"invalid float literal"`.
    pub reason: String,
}

/// A leaf value with a text form: numbers, `bool`, `char`, `String`.
pub trait Value: Reflect {
    /// What kind of leaf this is.
    fn kind(&self) -> ValueKind;
    /// Appends the text form. Floats are written so that reading them back gives the exact
    /// same bits (shortest round-trip digits; exponent form beyond 1e16 and below 1e-5).
    fn write_text(&self, out: &mut String);
    /// Reads the text form (surrounding whitespace ignored for all but strings). Numbers
    /// accept C spellings such as `1e+20`, `-1e-20`, `+3`.
    ///
    /// # Errors
    /// [`ParseError`] when the text is not a value of this type; the value is unchanged.
    fn parse_text(&mut self, text: &str) -> Result<(), ParseError>;
    /// The value as a number (numbers and `bool`), for sliders.
    fn as_f64(&self) -> Option<f64> {
        None
    }
    /// Sets a number from `f64` (rounded and clamped for integers); false for non-numbers.
    fn set_f64(&mut self, value: f64) -> bool {
        let _ = value;
        false
    }
    /// Copies `other` into `self` when it is a value of the same type; false otherwise.
    fn copy_from(&mut self, other: &dyn Reflect) -> bool;
    /// A copy of the value, used to put it back bit for bit when a composite text fails to
    /// parse part-way. Every leaf of this crate (and of [`reflect_value!`](crate::reflect_value))
    /// returns one; the default returns `None`, and such a value is put back from its text
    /// form instead.
    fn clone_value(&self) -> Option<alloc::boxed::Box<dyn Reflect>> {
        None
    }
}
