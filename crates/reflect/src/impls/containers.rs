//! `Vec<T>`, `[T; N]`, `Option<T>`, `Box<T>`, tuples, sets and maps keyed by any value with a
//! text form.
//!
//! None of them needs `T: Default`: reading, writing, paths, text and serde work on the
//! values there are; only creating a new element (growing a list, a new map entry or set
//! element, `None` to `Some`) calls [`Typed::create`], and fails with a typed error
//! ([`Error::NoDefault`]) when the element type cannot make one.

use crate::error::Error;
use crate::info::{EnumInfo, FieldAttrs, FieldInfo, NameTable, StructInfo, StructStyle, VariantInfo, name_table};
use crate::{Enum, List, Map, Reflect, ReflectMut, ReflectRef, Set, Shape, Struct, TypeInfo, Typed};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::any::Any;

const NO_ATTRS: FieldAttrs = FieldAttrs { range: None, step: None, color: false, default: false };

/// A new `T`, or the typed error naming it.
fn create<T: Typed>() -> Result<T, Error> {
    T::create().ok_or(Error::NoDefault { path: String::new(), type_name: T::INFO.name })
}

/// The key whose text form is `text`.
fn parse_key<K: Reflect + Typed>(text: &str) -> Result<K, Error> {
    let mut key = create::<K>()?;
    crate::text::set_text(&mut key, text)?;
    Ok(key)
}

/// The text form the key whose text is `text` has (`"+3"` → `"3"`).
fn canonical_key<K: Reflect + Typed>(text: &str) -> Option<String> {
    if core::any::TypeId::of::<K>() == core::any::TypeId::of::<String>() {
        return Some(String::from(text));
    }
    parse_key::<K>(text).ok().map(|k| k.as_reflect().to_text())
}

/// The text form of a key (borrowed for `String` keys).
fn key_text<K: Reflect>(key: &K) -> Cow<'_, str> {
    match (key as &dyn Any).downcast_ref::<String>() {
        Some(s) => Cow::Borrowed(s.as_str()),
        None => Cow::Owned(key.as_reflect().to_text()),
    }
}

impl<T: Reflect + Typed> Typed for Vec<T> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "Vec",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::List { element: core::any::type_name::<T>, fixed_len: None },
    };
    fn create() -> Option<Self> {
        Some(Vec::new())
    }
}

impl<T: Reflect + Typed> Reflect for Vec<T> {
    reflect_common!(List);
}

impl<T: Reflect + Typed> List for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn get(&self, index: usize) -> Option<&dyn Reflect> {
        <[T]>::get(self, index).map(|v| v as &dyn Reflect)
    }
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        <[T]>::get_mut(self, index).map(|v| v as &mut dyn Reflect)
    }
    fn push_default(&mut self) -> bool {
        match T::create() {
            Some(v) => {
                self.push(v);
                true
            }
            None => false,
        }
    }
    fn truncate(&mut self, len: usize) -> bool {
        Vec::truncate(self, len);
        true
    }
    fn remove(&mut self, index: usize) -> bool {
        if index < Vec::len(self) {
            Vec::remove(self, index);
            true
        } else {
            false
        }
    }
}

impl<T: Reflect + Typed, const N: usize> Typed for [T; N] {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "array",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::List { element: core::any::type_name::<T>, fixed_len: Some(N) },
    };
    fn create() -> Option<Self> {
        let mut v = Vec::with_capacity(N);
        for _ in 0..N {
            v.push(T::create()?);
        }
        v.try_into().ok()
    }
}

impl<T: Reflect + Typed, const N: usize> Reflect for [T; N] {
    reflect_common!(List);
}

impl<T: Reflect + Typed, const N: usize> List for [T; N] {
    fn len(&self) -> usize {
        N
    }
    fn get(&self, index: usize) -> Option<&dyn Reflect> {
        <[T]>::get(self, index).map(|v| v as &dyn Reflect)
    }
    fn get_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        <[T]>::get_mut(self, index).map(|v| v as &mut dyn Reflect)
    }
    fn push_default(&mut self) -> bool {
        false
    }
    fn truncate(&mut self, len: usize) -> bool {
        len == N
    }
    fn remove(&mut self, _index: usize) -> bool {
        false
    }
}

impl<T: Reflect + Typed> Typed for Option<T> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "Option",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::Enum(EnumInfo {
            variants: &[
                VariantInfo {
                    name: "None",
                    docs: "",
                    style: StructStyle::Unit,
                    fields: &[],
                    names: NameTable::new(&[]),
                },
                VariantInfo {
                    name: "Some",
                    docs: "",
                    style: StructStyle::Tuple,
                    fields: &[FieldInfo { name: "0", type_name: core::any::type_name::<T>, docs: "", attrs: NO_ATTRS }],
                    names: NameTable::new(&name_table::<2>(&["0"])),
                },
            ],
            names: NameTable::new(&name_table::<4>(&["None", "Some"])),
        }),
    };
    fn create() -> Option<Self> {
        Some(None)
    }
}

impl<T: Reflect + Typed> Reflect for Option<T> {
    reflect_common!(Enum);
}

impl<T: Reflect + Typed> Enum for Option<T> {
    fn variant_index(&self) -> usize {
        usize::from(self.is_some())
    }
    fn field_at(&self, index: usize) -> Option<&dyn Reflect> {
        match (self, index) {
            (Some(v), 0) => Some(v),
            _ => None,
        }
    }
    fn field_at_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
        match (self, index) {
            (Some(v), 0) => Some(v),
            _ => None,
        }
    }
    fn field_count(&self) -> usize {
        usize::from(self.is_some())
    }
    fn set_variant(&mut self, index: usize) -> bool {
        match index {
            0 => *self = None,
            1 => match T::create() {
                Some(v) => *self = Some(v),
                None => return false,
            },
            _ => return false,
        }
        true
    }
}

/// `Box<T>` is transparent: it has `T`'s type info and shape, and downcasts as a `T`.
impl<T: Reflect + Typed> Typed for Box<T> {
    const INFO: &'static TypeInfo = T::INFO;
    fn create() -> Option<Self> {
        T::create().map(Box::new)
    }
}

impl<T: Reflect + Typed> Reflect for Box<T> {
    #[inline]
    fn type_info(&self) -> &'static TypeInfo {
        T::INFO
    }
    #[inline]
    fn as_any(&self) -> &dyn Any {
        (**self).as_any()
    }
    #[inline]
    fn as_any_mut(&mut self) -> &mut dyn Any {
        (**self).as_any_mut()
    }
    #[inline]
    fn as_reflect(&self) -> &dyn Reflect {
        &**self
    }
    #[inline]
    fn as_reflect_mut(&mut self) -> &mut dyn Reflect {
        &mut **self
    }
    #[inline]
    fn reflect_ref(&self) -> ReflectRef<'_> {
        (**self).reflect_ref()
    }
    #[inline]
    fn reflect_mut(&mut self) -> ReflectMut<'_> {
        (**self).reflect_mut()
    }
    #[inline]
    fn field_by_name(&self, name: &str) -> Option<&dyn Reflect> {
        (**self).field_by_name(name)
    }
    #[inline]
    fn field_by_name_mut(&mut self, name: &str) -> Option<&mut dyn Reflect> {
        (**self).field_by_name_mut(name)
    }
}

/// Tuples are tuple structs named `tuple` with fields `0`, `1`, …
macro_rules! tuple {
    ($table:literal; $(($i:tt, $t:ident)),+) => {
        impl<$($t: Reflect + Typed),+> Typed for ($($t,)+) {
            const INFO: &'static TypeInfo = &TypeInfo {
                name: "tuple",
                type_path: core::any::type_name::<Self>,
                docs: "",
                shape: Shape::Struct(StructInfo {
                    style: StructStyle::Tuple,
                    fields: &[$(FieldInfo {
                        name: stringify!($i),
                        type_name: core::any::type_name::<$t>,
                        docs: "",
                        attrs: NO_ATTRS,
                    }),+],
                    names: NameTable::new(&name_table::<$table>(&[$(stringify!($i)),+])),
                }),
            };
            fn create() -> Option<Self> {
                Some(($($t::create()?,)+))
            }
        }
        impl<$($t: Reflect + Typed),+> Reflect for ($($t,)+) {
            reflect_common!(Struct);
        }
        impl<$($t: Reflect + Typed),+> Struct for ($($t,)+) {
            #[inline]
            fn field_at(&self, index: usize) -> Option<&dyn Reflect> {
                match index {
                    $($i => Some(&self.$i),)+
                    _ => None,
                }
            }
            #[inline]
            fn field_at_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
                match index {
                    $($i => Some(&mut self.$i),)+
                    _ => None,
                }
            }
            #[inline]
            fn field_count(&self) -> usize {
                [$(stringify!($i)),+].len()
            }
        }
    };
}

tuple!(2; (0, A));
tuple!(4; (0, A), (1, B));
tuple!(8; (0, A), (1, B), (2, C));
tuple!(8; (0, A), (1, B), (2, C), (3, D));
tuple!(16; (0, A), (1, B), (2, C), (3, D), (4, E));
tuple!(16; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F));
tuple!(16; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G));
tuple!(16; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G), (7, H));
tuple!(32; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G), (7, H), (8, I));
tuple!(32; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G), (7, H), (8, I), (9, J));
tuple!(32; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G), (7, H), (8, I), (9, J), (10, K));
tuple!(32; (0, A), (1, B), (2, C), (3, D), (4, E), (5, F), (6, G), (7, H), (8, I), (9, J), (10, K), (11, L));

impl<K: Reflect + Typed + Ord, V: Reflect + Typed> Typed for BTreeMap<K, V> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "BTreeMap",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::Map { key: core::any::type_name::<K>, value: core::any::type_name::<V> },
    };
    fn create() -> Option<Self> {
        Some(BTreeMap::new())
    }
}

impl<K: Reflect + Typed + Ord, V: Reflect + Typed> Reflect for BTreeMap<K, V> {
    reflect_common!(Map);
}

impl<K: Reflect + Typed + Ord, V: Reflect + Typed> Map for BTreeMap<K, V> {
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn keys(&self) -> Vec<Cow<'_, str>> {
        BTreeMap::keys(self).map(key_text).collect()
    }
    fn get(&self, key: &str) -> Option<&dyn Reflect> {
        if let Some(map) = (self as &dyn Any).downcast_ref::<BTreeMap<String, V>>() {
            return BTreeMap::get(map, key).map(|v| v as &dyn Reflect);
        }
        BTreeMap::get(self, &parse_key::<K>(key).ok()?).map(|v| v as &dyn Reflect)
    }
    fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect> {
        if core::any::TypeId::of::<K>() == core::any::TypeId::of::<String>() {
            let map = (self as &mut dyn Any).downcast_mut::<BTreeMap<String, V>>()?;
            return BTreeMap::get_mut(map, key).map(|v| v as &mut dyn Reflect);
        }
        BTreeMap::get_mut(self, &parse_key::<K>(key).ok()?).map(|v| v as &mut dyn Reflect)
    }
    fn insert_default(&mut self, key: &str) -> Result<&mut dyn Reflect, Error> {
        let key = parse_key::<K>(key)?;
        let value = create::<V>()?;
        Ok(match self.entry(key) {
            alloc::collections::btree_map::Entry::Occupied(mut o) => {
                o.insert(value);
                o.into_mut()
            }
            alloc::collections::btree_map::Entry::Vacant(v) => v.insert(value),
        })
    }
    fn remove(&mut self, key: &str) -> bool {
        match parse_key::<K>(key) {
            Ok(k) => BTreeMap::remove(self, &k).is_some(),
            Err(_) => false,
        }
    }
    fn clear(&mut self) {
        BTreeMap::clear(self);
    }
    fn key_text(&self, key: &str) -> Option<String> {
        canonical_key::<K>(key)
    }
}

impl<T: Reflect + Typed + Ord> Typed for BTreeSet<T> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "BTreeSet",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::Set { element: core::any::type_name::<T> },
    };
    fn create() -> Option<Self> {
        Some(BTreeSet::new())
    }
}

impl<T: Reflect + Typed + Ord> Reflect for BTreeSet<T> {
    reflect_common!(Set);
}

impl<T: Reflect + Typed + Ord> Set for BTreeSet<T> {
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }
    fn elements(&self) -> Vec<&dyn Reflect> {
        self.iter().map(|e| e as &dyn Reflect).collect()
    }
    fn insert_with(&mut self, fill: &mut dyn FnMut(&mut dyn Reflect) -> Result<(), Error>) -> Result<bool, Error> {
        let mut element = create::<T>()?;
        fill(&mut element)?;
        Ok(self.insert(element))
    }
    fn contains(&self, element: &dyn Reflect) -> bool {
        element.as_any().downcast_ref::<T>().is_some_and(|e| BTreeSet::contains(self, e))
    }
    fn remove(&mut self, element: &dyn Reflect) -> bool {
        element.as_any().downcast_ref::<T>().is_some_and(|e| BTreeSet::remove(self, e))
    }
    fn retain(&mut self, keep: &mut dyn FnMut(&dyn Reflect) -> bool) {
        BTreeSet::retain(self, |e| keep(e));
    }
    fn clear(&mut self) {
        BTreeSet::clear(self);
    }
}

#[cfg(feature = "std")]
mod hashed {
    use super::*;
    use std::collections::{HashMap, HashSet};
    use std::hash::{BuildHasher, Hash};

    impl<K, V, S> Typed for HashMap<K, V, S>
    where
        K: Reflect + Typed + Hash + Eq,
        V: Reflect + Typed,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        const INFO: &'static TypeInfo = &TypeInfo {
            name: "HashMap",
            type_path: core::any::type_name::<Self>,
            docs: "",
            shape: Shape::Map { key: core::any::type_name::<K>, value: core::any::type_name::<V> },
        };
        fn create() -> Option<Self> {
            Some(HashMap::default())
        }
    }

    impl<K, V, S> Reflect for HashMap<K, V, S>
    where
        K: Reflect + Typed + Hash + Eq,
        V: Reflect + Typed,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        reflect_common!(Map);
    }

    impl<K, V, S> Map for HashMap<K, V, S>
    where
        K: Reflect + Typed + Hash + Eq,
        V: Reflect + Typed,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        fn len(&self) -> usize {
            HashMap::len(self)
        }
        fn keys(&self) -> Vec<Cow<'_, str>> {
            let mut keys: Vec<Cow<'_, str>> = HashMap::keys(self).map(key_text).collect();
            keys.sort_unstable();
            keys
        }
        fn get(&self, key: &str) -> Option<&dyn Reflect> {
            if let Some(map) = (self as &dyn Any).downcast_ref::<HashMap<String, V, S>>() {
                return HashMap::get(map, key).map(|v| v as &dyn Reflect);
            }
            HashMap::get(self, &parse_key::<K>(key).ok()?).map(|v| v as &dyn Reflect)
        }
        fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect> {
            if core::any::TypeId::of::<K>() == core::any::TypeId::of::<String>() {
                let map = (self as &mut dyn Any).downcast_mut::<HashMap<String, V, S>>()?;
                return HashMap::get_mut(map, key).map(|v| v as &mut dyn Reflect);
            }
            HashMap::get_mut(self, &parse_key::<K>(key).ok()?).map(|v| v as &mut dyn Reflect)
        }
        fn insert_default(&mut self, key: &str) -> Result<&mut dyn Reflect, Error> {
            let key = parse_key::<K>(key)?;
            let value = create::<V>()?;
            Ok(match self.entry(key) {
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    o.insert(value);
                    o.into_mut()
                }
                std::collections::hash_map::Entry::Vacant(v) => v.insert(value),
            })
        }
        fn remove(&mut self, key: &str) -> bool {
            match parse_key::<K>(key) {
                Ok(k) => HashMap::remove(self, &k).is_some(),
                Err(_) => false,
            }
        }
        fn clear(&mut self) {
            HashMap::clear(self);
        }
        fn key_text(&self, key: &str) -> Option<String> {
            canonical_key::<K>(key)
        }
    }

    impl<T, S> Typed for HashSet<T, S>
    where
        T: Reflect + Typed + Hash + Eq,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        const INFO: &'static TypeInfo = &TypeInfo {
            name: "HashSet",
            type_path: core::any::type_name::<Self>,
            docs: "",
            shape: Shape::Set { element: core::any::type_name::<T> },
        };
        fn create() -> Option<Self> {
            Some(HashSet::default())
        }
    }

    impl<T, S> Reflect for HashSet<T, S>
    where
        T: Reflect + Typed + Hash + Eq,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        reflect_common!(Set);
    }

    impl<T, S> Set for HashSet<T, S>
    where
        T: Reflect + Typed + Hash + Eq,
        S: BuildHasher + Default + Send + Sync + 'static,
    {
        fn len(&self) -> usize {
            HashSet::len(self)
        }
        fn elements(&self) -> Vec<&dyn Reflect> {
            let mut sorted: Vec<(String, &T)> = self.iter().map(|e| (e.as_reflect().to_text(), e)).collect();
            sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            sorted.into_iter().map(|(_, e)| e as &dyn Reflect).collect()
        }
        fn insert_with(&mut self, fill: &mut dyn FnMut(&mut dyn Reflect) -> Result<(), Error>) -> Result<bool, Error> {
            let mut element = create::<T>()?;
            fill(&mut element)?;
            Ok(self.insert(element))
        }
        fn contains(&self, element: &dyn Reflect) -> bool {
            element.as_any().downcast_ref::<T>().is_some_and(|e| HashSet::contains(self, e))
        }
        fn remove(&mut self, element: &dyn Reflect) -> bool {
            element.as_any().downcast_ref::<T>().is_some_and(|e| HashSet::remove(self, e))
        }
        fn retain(&mut self, keep: &mut dyn FnMut(&dyn Reflect) -> bool) {
            HashSet::retain(self, |e| keep(e));
        }
        fn clear(&mut self) {
            HashSet::clear(self);
        }
    }
}
