//! The [`Reflect`] trait and the shape traits a reflected value is seen through.

use crate::info::{EnumInfo, StructInfo, TypeInfo, ValueKind};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::any::Any;

/// A value whose type, fields and text form can be inspected and changed at run time.
///
/// Implement it with `#[derive(Reflect)]` (see the derive's attributes on
/// [`Reflect`](macro@crate::Reflect)); this crate implements it for numbers, `bool`, `char`,
/// `String`, `Box<T>`, tuples (arity 1 to 12), `Vec<T>`, `[T; N]`, `Option<T>`, sets
/// (`BTreeSet<T>`, `HashSet<T>`), maps keyed by any value with a text form (`BTreeMap<K, V>`,
/// `HashMap<K, V>`) and glam vectors.
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

    /// A new value, for containers that must create an element (growing a list from text,
    /// a new map entry, switching an `Option` to `Some`), or `None` when the type has no way
    /// to make one. The default is `None`; this crate's types return their empty or zero
    /// value; the derive calls the `#[reflect(create = path)]` function, or returns
    /// `Default::default()` when a concrete type implements `Default`, and makes a generic
    /// struct field by field (a generic enum needs `create = path`). Containers answer
    /// [`Error::NoDefault`](crate::Error::NoDefault) when it is `None` and a new element is
    /// needed; reading,
    /// writing, paths and serialisation never need it.
    #[must_use]
    fn create() -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// Autoref probe used by the derive and [`reflect_value!`](crate::reflect_value) to find out,
/// for a concrete type, whether it implements `Default`. Not meant to be used directly.
#[doc(hidden)]
#[derive(Debug)]
pub struct CreateProbe<T>(core::marker::PhantomData<T>);

impl<T> CreateProbe<T> {
    /// A probe for `T`.
    #[must_use]
    pub const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<T> Default for CreateProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The `Default` side of [`CreateProbe`] (chosen first by method lookup).
#[doc(hidden)]
pub trait CreateViaDefault<T> {
    /// `Some(T::default())`.
    fn probe_create(&self) -> Option<T>;
}

impl<T: Default> CreateViaDefault<T> for CreateProbe<T> {
    fn probe_create(&self) -> Option<T> {
        Some(T::default())
    }
}

/// The fallback side of [`CreateProbe`] (types without `Default`).
#[doc(hidden)]
pub trait CreateFallback<T> {
    /// `None`.
    fn probe_create(&self) -> Option<T>;
}

impl<T> CreateFallback<T> for &CreateProbe<T> {
    fn probe_create(&self) -> Option<T> {
        None
    }
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
    /// A map (keys read and written through their text forms).
    Map(&'a dyn Map),
    /// A set (`BTreeSet`, `HashSet`).
    Set(&'a dyn Set),
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
    /// A map (keys read and written through their text forms).
    Map(&'a mut dyn Map),
    /// A set (`BTreeSet`, `HashSet`).
    Set(&'a mut dyn Set),
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
    /// Switches to variant `index` with new field values ([`Typed::create`] or `Default`);
    /// returns false (and changes nothing) when there is no such variant or a field cannot be
    /// created.
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
    /// Appends a new element ([`Typed::create`]); false for fixed-length arrays and for
    /// elements that cannot be created (no `Default`, no `#[reflect(create = ..)]`).
    fn push_default(&mut self) -> bool;
    /// Shortens to `len` elements; false for fixed-length arrays (unless `len` is the length).
    fn truncate(&mut self, len: usize) -> bool;
    /// Removes element `index`; false when out of range or fixed-length.
    fn remove(&mut self, index: usize) -> bool;
}

/// A map from keys to values of one type. Keys are named by their text form (see
/// [`crate::text`]): a `String` key is its text, an integer `3` is `"3"`, a unit enum
/// variant its name; a key text that does not read as the key type finds nothing.
pub trait Map: Reflect {
    /// The number of entries.
    fn len(&self) -> usize;
    /// Whether there are no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The text forms of the keys, in the map's order (`BTreeMap`: the key type's order;
    /// `HashMap`: sorted by text, so text and documents are deterministic).
    fn keys(&self) -> Vec<Cow<'_, str>>;
    /// The value at the key whose text form is `key`.
    fn get(&self, key: &str) -> Option<&dyn Reflect>;
    /// The value at `key`, mutably.
    fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect>;
    /// Inserts a new value ([`Typed::create`]) at `key` (replacing any) and returns it.
    ///
    /// # Errors
    /// [`Error::Parse`](crate::Error::Parse) when `key` does not read as the key type,
    /// [`Error::NoDefault`](crate::Error::NoDefault) when a key or value cannot be created;
    /// the map is then unchanged.
    fn insert_default(&mut self, key: &str) -> Result<&mut dyn Reflect, crate::Error>;
    /// Removes `key`; false when absent.
    fn remove(&mut self, key: &str) -> bool;
    /// Removes every entry.
    fn clear(&mut self);
    /// The text form the map gives the key whose text is `key` (`"+3"` → `"3"` for an integer
    /// key: what [`keys`](Map::keys) would list), or `None` when `key` does not read as a key.
    /// The default returns `key` itself (string keys).
    fn key_text(&self, key: &str) -> Option<String> {
        Some(String::from(key))
    }
}

/// A set of values of one type (`BTreeSet<T>`, `HashSet<T>`). Elements cannot be changed in
/// place (that would break the set's order or hashing); they are inserted and removed whole.
pub trait Set: Reflect {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether there are no elements.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements, in the set's order (`BTreeSet`: the element type's order; `HashSet`:
    /// sorted by text form).
    fn elements(&self) -> Vec<&dyn Reflect>;
    /// Creates a new element ([`Typed::create`]), lets `fill` set it, and inserts it.
    /// Returns whether it was new.
    ///
    /// # Errors
    /// [`Error::NoDefault`](crate::Error::NoDefault) when no element can be created, or the
    /// error of `fill`; the set is then unchanged.
    fn insert_with(
        &mut self,
        fill: &mut dyn FnMut(&mut dyn Reflect) -> Result<(), crate::Error>,
    ) -> Result<bool, crate::Error>;
    /// Whether the set holds an element equal to `element` (false for another type).
    fn contains(&self, element: &dyn Reflect) -> bool;
    /// Removes the element equal to `element`; false when absent or of another type.
    fn remove(&mut self, element: &dyn Reflect) -> bool;
    /// Keeps only the elements for which `keep` answers true.
    fn retain(&mut self, keep: &mut dyn FnMut(&dyn Reflect) -> bool);
    /// Removes every element.
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
