//! `Vec<T>`, `[T; N]`, `Option<T>` and maps with `String` keys.

use crate::info::{EnumInfo, FieldAttrs, FieldInfo, NameTable, StructStyle, VariantInfo, name_table};
use crate::{Enum, List, Map, Reflect, Shape, TypeInfo, Typed};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

impl<T: Reflect + Default> Typed for Vec<T> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "Vec",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::List { element: core::any::type_name::<T>, fixed_len: None },
    };
}

impl<T: Reflect + Default> Reflect for Vec<T> {
    reflect_common!(List);
}

impl<T: Reflect + Default> List for Vec<T> {
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
        self.push(T::default());
        true
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

impl<T: Reflect, const N: usize> Typed for [T; N] {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "array",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::List { element: core::any::type_name::<T>, fixed_len: Some(N) },
    };
}

impl<T: Reflect, const N: usize> Reflect for [T; N] {
    reflect_common!(List);
}

impl<T: Reflect, const N: usize> List for [T; N] {
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

impl<T: Reflect + Default> Typed for Option<T> {
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
                    fields: &[FieldInfo {
                        name: "0",
                        type_name: core::any::type_name::<T>,
                        docs: "",
                        attrs: FieldAttrs { range: None, step: None, color: false, default: false },
                    }],
                    names: NameTable::new(&name_table::<2>(&["0"])),
                },
            ],
            names: NameTable::new(&name_table::<4>(&["None", "Some"])),
        }),
    };
}

impl<T: Reflect + Default> Reflect for Option<T> {
    reflect_common!(Enum);
}

impl<T: Reflect + Default> Enum for Option<T> {
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
            1 => *self = Some(T::default()),
            _ => return false,
        }
        true
    }
}

impl<V: Reflect + Default> Typed for BTreeMap<String, V> {
    const INFO: &'static TypeInfo = &TypeInfo {
        name: "BTreeMap",
        type_path: core::any::type_name::<Self>,
        docs: "",
        shape: Shape::Map { value: core::any::type_name::<V> },
    };
}

impl<V: Reflect + Default> Reflect for BTreeMap<String, V> {
    reflect_common!(Map);
}

impl<V: Reflect + Default> Map for BTreeMap<String, V> {
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn keys(&self) -> Vec<&str> {
        BTreeMap::keys(self).map(String::as_str).collect()
    }
    fn get(&self, key: &str) -> Option<&dyn Reflect> {
        BTreeMap::get(self, key).map(|v| v as &dyn Reflect)
    }
    fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect> {
        BTreeMap::get_mut(self, key).map(|v| v as &mut dyn Reflect)
    }
    fn insert_default(&mut self, key: &str) -> &mut dyn Reflect {
        let slot = self.entry(String::from(key)).or_default();
        *slot = V::default();
        slot
    }
    fn remove(&mut self, key: &str) -> bool {
        BTreeMap::remove(self, key).is_some()
    }
    fn clear(&mut self) {
        BTreeMap::clear(self);
    }
}

#[cfg(feature = "std")]
mod hash_map {
    use super::*;
    use std::collections::HashMap;
    use std::hash::BuildHasher;

    impl<V: Reflect + Default, S: BuildHasher + Default + Send + Sync + 'static> Typed for HashMap<String, V, S> {
        const INFO: &'static TypeInfo = &TypeInfo {
            name: "HashMap",
            type_path: core::any::type_name::<Self>,
            docs: "",
            shape: Shape::Map { value: core::any::type_name::<V> },
        };
    }

    impl<V: Reflect + Default, S: BuildHasher + Default + Send + Sync + 'static> Reflect for HashMap<String, V, S> {
        reflect_common!(Map);
    }

    impl<V: Reflect + Default, S: BuildHasher + Default + Send + Sync + 'static> Map for HashMap<String, V, S> {
        fn len(&self) -> usize {
            HashMap::len(self)
        }
        fn keys(&self) -> Vec<&str> {
            let mut keys: Vec<&str> = HashMap::keys(self).map(String::as_str).collect();
            keys.sort_unstable();
            keys
        }
        fn get(&self, key: &str) -> Option<&dyn Reflect> {
            HashMap::get(self, key).map(|v| v as &dyn Reflect)
        }
        fn get_mut(&mut self, key: &str) -> Option<&mut dyn Reflect> {
            HashMap::get_mut(self, key).map(|v| v as &mut dyn Reflect)
        }
        fn insert_default(&mut self, key: &str) -> &mut dyn Reflect {
            let slot = self.entry(String::from(key)).or_default();
            *slot = V::default();
            slot
        }
        fn remove(&mut self, key: &str) -> bool {
            HashMap::remove(self, key).is_some()
        }
        fn clear(&mut self) {
            HashMap::clear(self);
        }
    }
}
