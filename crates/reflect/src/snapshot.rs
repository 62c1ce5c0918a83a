//! Copies of reflected values taken before a change that may fail part-way, so that the value
//! can be put back exactly: what makes text parsing and `apply` all or nothing.

use crate::reflect::{Reflect, ReflectMut, ReflectRef};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A copy of a value, by shape.
pub(crate) enum Snapshot {
    /// A leaf's own copy ([`Value::clone_value`](crate::Value::clone_value)).
    Copy(Box<dyn Reflect>),
    /// A leaf without a copy: its text form.
    Text(String),
    /// A struct's fields.
    Struct(Vec<Snapshot>),
    /// An enum's variant and its fields.
    Enum(usize, Vec<Snapshot>),
    /// A list's elements.
    List(Vec<Snapshot>),
    /// A map's entries.
    Map(Vec<(String, Snapshot)>),
    /// A set's elements.
    Set(Vec<Snapshot>),
}

impl Snapshot {
    /// A copy of `value`.
    pub(crate) fn take(value: &dyn Reflect) -> Self {
        match value.reflect_ref() {
            ReflectRef::Value(v) => match v.clone_value() {
                Some(copy) => Snapshot::Copy(copy),
                None => {
                    let mut text = String::new();
                    v.write_text(&mut text);
                    Snapshot::Text(text)
                }
            },
            ReflectRef::Struct(s) => {
                Snapshot::Struct((0..s.field_count()).filter_map(|i| s.field_at(i)).map(Snapshot::take).collect())
            }
            ReflectRef::Enum(e) => Snapshot::Enum(
                e.variant_index(),
                (0..e.field_count()).filter_map(|i| e.field_at(i)).map(Snapshot::take).collect(),
            ),
            ReflectRef::List(l) => Snapshot::List((0..l.len()).filter_map(|i| l.get(i)).map(Snapshot::take).collect()),
            ReflectRef::Map(m) => Snapshot::Map(
                m.keys().into_iter().filter_map(|k| Some((k.to_string(), Snapshot::take(m.get(&k)?)))).collect(),
            ),
            ReflectRef::Set(set) => Snapshot::Set(set.elements().into_iter().map(Snapshot::take).collect()),
        }
    }

    /// Puts the copy back into `value` (the value it was taken from, possibly changed since).
    pub(crate) fn restore(&self, value: &mut dyn Reflect) {
        match (self, value.reflect_mut()) {
            (Snapshot::Copy(copy), ReflectMut::Value(v)) => {
                let copied = v.copy_from(&**copy);
                debug_assert!(copied, "a leaf's copy has the leaf's type");
            }
            (Snapshot::Text(text), ReflectMut::Value(v)) => {
                // The text was written by this value; its text form reads back.
                let _ = v.parse_text(text);
            }
            (Snapshot::Struct(fields), ReflectMut::Struct(s)) => {
                for (i, field) in fields.iter().enumerate() {
                    if let Some(target) = s.field_at_mut(i) {
                        field.restore(target);
                    }
                }
            }
            (Snapshot::Enum(variant, fields), ReflectMut::Enum(e)) => {
                if e.variant_index() != *variant {
                    e.set_variant(*variant);
                }
                for (i, field) in fields.iter().enumerate() {
                    if let Some(target) = e.field_at_mut(i) {
                        field.restore(target);
                    }
                }
            }
            (Snapshot::List(elements), ReflectMut::List(l)) => {
                if l.len() > elements.len() {
                    l.truncate(elements.len());
                }
                while l.len() < elements.len() && l.push_default() {}
                for (i, element) in elements.iter().enumerate() {
                    if let Some(target) = l.get_mut(i) {
                        element.restore(target);
                    }
                }
            }
            (Snapshot::Map(entries), ReflectMut::Map(m)) => {
                // Entries added since go; the others are put back in place. Changes remove
                // entries only once nothing can fail, so no entry needs making again (which
                // a value without `Default` could not be).
                remove_stale_entries(m, entries.iter().map(|(k, _)| k.as_str()));
                for (key, entry) in entries {
                    let target = match m.get_mut(key) {
                        Some(target) => Some(target),
                        None => m.insert_default(key).ok(),
                    };
                    if let Some(target) = target {
                        entry.restore(target);
                    }
                }
            }
            (Snapshot::Set(elements), ReflectMut::Set(set)) => {
                set.retain(&mut |e| elements.iter().any(|s| s.matches(e)));
                for element in elements {
                    if !set.elements().into_iter().any(|e| element.matches(e)) {
                        // Changes remove elements only once nothing can fail, so this runs
                        // only for elements a failed change could not have removed.
                        let _ = set.insert_with(&mut |e| {
                            element.restore(e);
                            Ok(())
                        });
                    }
                }
            }
            _ => debug_assert!(false, "a snapshot is restored into the value it was taken from"),
        }
    }
}

impl Snapshot {
    /// Whether `value` is equal to the value this copy was taken from: same shape, same
    /// leaves (compared by text form, which is exact for every leaf).
    pub(crate) fn matches(&self, value: &dyn Reflect) -> bool {
        let leaf_text = |v: &dyn crate::Value| {
            let mut text = String::new();
            v.write_text(&mut text);
            text
        };
        match (self, value.reflect_ref()) {
            (Snapshot::Copy(copy), ReflectRef::Value(v)) => match copy.reflect_ref() {
                ReflectRef::Value(c) => leaf_text(c) == leaf_text(v),
                _ => false,
            },
            (Snapshot::Text(text), ReflectRef::Value(v)) => *text == leaf_text(v),
            (Snapshot::Struct(fields), ReflectRef::Struct(s)) => {
                fields.len() == s.field_count()
                    && fields.iter().enumerate().all(|(i, f)| s.field_at(i).is_some_and(|v| f.matches(v)))
            }
            (Snapshot::Enum(variant, fields), ReflectRef::Enum(e)) => {
                *variant == e.variant_index()
                    && fields.len() == e.field_count()
                    && fields.iter().enumerate().all(|(i, f)| e.field_at(i).is_some_and(|v| f.matches(v)))
            }
            (Snapshot::List(elements), ReflectRef::List(l)) => {
                elements.len() == l.len()
                    && elements.iter().enumerate().all(|(i, f)| l.get(i).is_some_and(|v| f.matches(v)))
            }
            (Snapshot::Map(entries), ReflectRef::Map(m)) => {
                entries.len() == m.len() && entries.iter().all(|(k, f)| m.get(k).is_some_and(|v| f.matches(v)))
            }
            (Snapshot::Set(elements), ReflectRef::Set(s)) => {
                elements.len() == s.len() && s.elements().into_iter().all(|v| elements.iter().any(|f| f.matches(v)))
            }
            _ => false,
        }
    }
}

/// Removes the entries of `m` that none of `wanted` names. Keys are compared by the text the
/// map gives them, so that `"+3"` and `"3"` name one integer key (text forms read back to the
/// same value, so two keys never share one).
pub(crate) fn remove_stale_entries<'k>(m: &mut dyn crate::Map, wanted: impl Iterator<Item = &'k str>) {
    let mut kept: Vec<String> = wanted.filter_map(|k| m.key_text(k)).collect();
    kept.sort_unstable();
    let stale: Vec<String> = m
        .keys()
        .into_iter()
        .filter(|k| kept.binary_search_by(|w| w.as_str().cmp(k)).is_err())
        .map(Cow::into_owned)
        .collect();
    for key in stale {
        m.remove(&key);
    }
}

/// Runs `change` on `target`; when it fails, puts `target` back as it was before.
pub(crate) fn all_or_nothing<E>(
    target: &mut dyn Reflect,
    change: impl FnOnce(&mut dyn Reflect) -> Result<(), E>,
) -> Result<(), E> {
    let before = Snapshot::take(target);
    let result = change(target);
    if result.is_err() {
        before.restore(target);
    }
    result
}
