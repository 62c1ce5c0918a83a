//! Static type information: names, fields, docs and editor attributes.
//!
//! Every reflected type has one [`TypeInfo`], built at compile time (by the derive or by the
//! impls in this crate) and reached with [`Typed::INFO`](crate::Typed::INFO) or
//! [`Reflect::type_info`](crate::Reflect::type_info). Field lookup by name goes through a
//! [`NameTable`]: an open-addressing hash table built by a `const fn`, so finding the last of
//! 128 fields costs the same as finding the first.

/// Everything known about a reflected type.
#[derive(Debug)]
pub struct TypeInfo {
    /// The short name: the Rust type name without path or generic arguments, or the
    /// `#[reflect(rename = "...")]` name. It is the kind name in registries and documents.
    pub name: &'static str,
    /// The full Rust path with generic arguments (`core::any::type_name`).
    pub type_path: fn() -> &'static str,
    /// The type's doc comment (`///` lines), or empty.
    pub docs: &'static str,
    /// What the value is made of.
    pub shape: Shape,
}

impl TypeInfo {
    /// The fields of a struct, or `None` for other shapes.
    #[must_use]
    pub fn struct_info(&self) -> Option<&StructInfo> {
        match &self.shape {
            Shape::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The variants of an enum, or `None` for other shapes.
    #[must_use]
    pub fn enum_info(&self) -> Option<&EnumInfo> {
        match &self.shape {
            Shape::Enum(e) => Some(e),
            _ => None,
        }
    }
}

/// The shape of a reflected type.
#[derive(Debug)]
pub enum Shape {
    /// A struct (named, tuple or unit), glam vectors included.
    Struct(StructInfo),
    /// An enum; `Option<T>` is the enum `None | Some(T)`.
    Enum(EnumInfo),
    /// A sequence: `Vec<T>` (`fixed_len: None`) or `[T; N]` (`fixed_len: Some(N)`).
    List {
        /// The element type's Rust path.
        element: fn() -> &'static str,
        /// `Some(N)` for arrays, whose length cannot change.
        fixed_len: Option<usize>,
    },
    /// A map (`HashMap<K, V>`, `BTreeMap<K, V>`); keys are named by their text form.
    Map {
        /// The key type's Rust path.
        key: fn() -> &'static str,
        /// The value type's Rust path.
        value: fn() -> &'static str,
    },
    /// A set (`BTreeSet<T>`, `HashSet<T>`).
    Set {
        /// The element type's Rust path.
        element: fn() -> &'static str,
    },
    /// A leaf value with a text form of its own.
    Value(ValueKind),
}

/// The kind of a leaf value, for editors choosing a widget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `bool`.
    Bool,
    /// A signed integer of this many bits.
    Int(u8),
    /// An unsigned integer of this many bits.
    Uint(u8),
    /// A float of this many bits.
    Float(u8),
    /// `char`.
    Char,
    /// `String`.
    String,
    /// A type with its own text form (`Display` + `FromStr`), reflected with
    /// [`reflect_value!`](crate::reflect_value); editors show a text field.
    Opaque,
}

/// How the fields of a struct or variant are written in Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StructStyle {
    /// `struct S { a: T }`
    Named,
    /// `struct S(T)`
    Tuple,
    /// `struct S;`
    Unit,
}

/// The reflected fields of a struct (skipped fields are not listed).
#[derive(Debug)]
pub struct StructInfo {
    /// Named, tuple or unit.
    pub style: StructStyle,
    /// The fields in declaration order; field `i` here is `Struct::field_at(i)`.
    pub fields: &'static [FieldInfo],
    /// Name → index lookup.
    pub names: NameTable,
}

impl StructInfo {
    /// The index of the field called `name`, in constant time.
    #[inline]
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.find(name, |i| self.fields[i].name)
    }
}

/// The variants of an enum.
#[derive(Debug)]
pub struct EnumInfo {
    /// The variants in declaration order; `Enum::variant_index` indexes this.
    pub variants: &'static [VariantInfo],
    /// Variant name → index lookup.
    pub names: NameTable,
}

impl EnumInfo {
    /// The index of the variant called `name`.
    #[inline]
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.find(name, |i| self.variants[i].name)
    }
}

/// One enum variant.
#[derive(Debug)]
pub struct VariantInfo {
    /// The variant's name (or its rename).
    pub name: &'static str,
    /// Its doc comment.
    pub docs: &'static str,
    /// Named, tuple or unit.
    pub style: StructStyle,
    /// Its reflected fields.
    pub fields: &'static [FieldInfo],
    /// Field name → index lookup.
    pub names: NameTable,
}

impl VariantInfo {
    /// The index of the field called `name` in this variant.
    #[inline]
    #[must_use]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.find(name, |i| self.fields[i].name)
    }
}

/// One reflected field.
#[derive(Debug)]
pub struct FieldInfo {
    /// Its name: the Rust name, `"0"`, `"1"`… for tuple fields, or the rename.
    pub name: &'static str,
    /// The field type's Rust path.
    pub type_name: fn() -> &'static str,
    /// Its doc comment or `#[reflect(doc = "...")]`.
    pub docs: &'static str,
    /// Editor and document attributes.
    pub attrs: FieldAttrs,
}

/// Attributes of a field, for editors and documents.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FieldAttrs {
    /// `#[reflect(range = lo..=hi)]`: the range an editor slider covers.
    pub range: Option<(f64, f64)>,
    /// `#[reflect(step = s)]`: the step of an editor's drag or slider.
    pub step: Option<f64>,
    /// `#[reflect(color)]`: three or four numbers in 0..=1 that an editor shows as a color.
    pub color: bool,
    /// `#[reflect(default)]`: a document may leave this field out without a report.
    pub default: bool,
}

/// An open-addressing hash table from names to indices, built at compile time.
///
/// Slots hold an index or `u16::MAX` (empty); the table size is a power of two at least twice
/// the number of names, so a probe sequence is short. Lookup hashes the name (FNV-1a), probes,
/// and compares the one candidate string: constant time, whatever the field's position.
#[derive(Clone, Copy, Debug)]
pub struct NameTable {
    slots: &'static [u16],
}

const EMPTY: u16 = u16::MAX;

/// FNV-1a, 32 bits: tiny, `const`, good enough for field names.
#[inline]
#[must_use]
pub const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash = 0x811c_9dc5_u32;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

/// Builds the slots of a [`NameTable`] for `names` (used by the derive).
///
/// # Panics
/// At compile time, when `N` is not a power of two larger than the number of names, or when
/// there are 65535 names or more.
#[must_use]
pub const fn name_table<const N: usize>(names: &[&str]) -> [u16; N] {
    assert!(N.is_power_of_two() && names.len() < N && names.len() < EMPTY as usize);
    let mut slots = [EMPTY; N];
    let mut i = 0;
    while i < names.len() {
        let mut slot = fnv1a(names[i].as_bytes()) as usize & (N - 1);
        while slots[slot] != EMPTY {
            slot = (slot + 1) & (N - 1);
        }
        slots[slot] = i as u16;
        i += 1;
    }
    slots
}

impl NameTable {
    /// Wraps slots made by [`name_table`].
    #[must_use]
    pub const fn new(slots: &'static [u16]) -> Self {
        Self { slots }
    }

    /// The index whose name (given by `name_of`) is `name`.
    #[inline]
    pub fn find(&self, name: &str, name_of: impl Fn(usize) -> &'static str) -> Option<usize> {
        let mask = self.slots.len().wrapping_sub(1);
        if self.slots.is_empty() {
            return None;
        }
        let mut slot = fnv1a(name.as_bytes()) as usize & mask;
        loop {
            let index = self.slots[slot];
            if index == EMPTY {
                return None;
            }
            if name_of(index as usize) == name {
                return Some(index as usize);
            }
            slot = (slot + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_finds_every_name_and_rejects_others() {
        const NAMES: [&str; 5] = ["x", "y", "i", "color", "a_long_field_name"];
        static SLOTS: [u16; 16] = name_table::<16>(&NAMES);
        let table = NameTable::new(&SLOTS);
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(table.find(n, |k| NAMES[k]), Some(i));
        }
        assert_eq!(table.find("z", |k| NAMES[k]), None);
        assert_eq!(table.find("", |k| NAMES[k]), None);
    }

    #[test]
    fn fnv_matches_reference_vector() {
        // FNV-1a 32 of "a" is 0xe40c292c (reference value from the FNV authors).
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
    }
}
