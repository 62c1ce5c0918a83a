//! Copies of reflected values taken before a change that may fail part-way, so that the value
//! can be put back exactly: what makes text parsing and `apply` all or nothing.

use crate::reflect::{Reflect, ReflectMut, ReflectRef};
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
    /// A set's elements, by text form.
    Set(Vec<String>),
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
            ReflectRef::Set(set) => Snapshot::Set(set.elements().into_iter().map(|e| e.to_text()).collect()),
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
                crate::text::remove_stale_entries(m, entries.iter().map(|(k, _)| k.as_str()));
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
                set.retain(&mut |e| elements.contains(&e.to_text()));
                for text in elements {
                    // The text was written by an element of this set; it reads back. Present
                    // elements are left as they are (no new element is made for them).
                    let _ = set.insert_with(&mut |e| crate::text::set_text(e, text));
                }
            }
            _ => debug_assert!(false, "a snapshot is restored into the value it was taken from"),
        }
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
