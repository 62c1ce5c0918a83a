//! Structural copy between reflected values (`dyn Reflect::apply`).

use crate::error::{Error, excerpt};
use crate::reflect::{Reflect, ReflectMut, ReflectRef};
use crate::text;
use alloc::string::{String, ToString};

fn mismatch(target: &dyn Reflect, other: &dyn Reflect) -> Error {
    Error::WrongType { path: String::new(), expected: target.type_info().name, found: other.type_info().name }
}

/// Paths in errors are built only when an error travels back up (each level puts its
/// segment in front), so a successful copy allocates nothing.
pub(crate) fn apply(target: &mut dyn Reflect, other: &dyn Reflect) -> Result<(), Error> {
    let type_name = target.type_info().name;
    match (target.reflect_mut(), other.reflect_ref()) {
        (ReflectMut::Value(v), ReflectRef::Value(o)) => {
            if v.copy_from(o.as_reflect()) {
                return Ok(());
            }
            let mut buf = String::new();
            o.write_text(&mut buf);
            v.parse_text(&buf).map_err(|e| Error::Parse {
                path: String::new(),
                expected: e.expected,
                text: excerpt(&buf),
                reason: e.reason,
            })
        }
        (ReflectMut::Struct(s), ReflectRef::Struct(o)) => {
            let same_type = s.as_any().type_id() == o.as_any().type_id();
            let (info, other_info) = (<dyn crate::Struct>::info(s), o.info());
            for (j, field) in other_info.fields.iter().enumerate() {
                // Same type: same indices. Otherwise match fields by name.
                let index = if same_type { Some(j) } else { info.index_of(field.name) };
                let Some(index) = index else {
                    return Err(Error::NoField { path: String::new(), type_name, field: field.name.to_string() });
                };
                if let (Some(dst), Some(src)) = (s.field_at_mut(index), o.field_at(j)) {
                    apply(dst, src).map_err(|e| e.with_prefix(field.name))?;
                }
            }
            Ok(())
        }
        (ReflectMut::Enum(e), ReflectRef::Enum(o)) => {
            let info = <dyn crate::Enum>::info(e);
            let name = o.variant_name();
            let index = info.index_of(name).ok_or_else(|| Error::NoVariant {
                path: String::new(),
                type_name,
                variant: name.to_string(),
            })?;
            if e.variant_index() != index && !e.set_variant(index) {
                return Err(Error::NoDefault { path: String::new(), type_name });
            }
            let fields = info.variants[index].fields;
            for i in 0..o.field_count() {
                if let (Some(dst), Some(src)) = (e.field_at_mut(i), o.field_at(i)) {
                    apply(dst, src).map_err(|e| e.with_prefix(fields.get(i).map_or("?", |f| f.name)))?;
                }
            }
            Ok(())
        }
        (ReflectMut::List(l), ReflectRef::List(o)) => {
            // Elements are changed and added first and the list is cut last, so that putting
            // it back after a failure never needs an element re-created.
            let (len, want) = (l.len(), o.len());
            if want < len && matches!(l.type_info().shape, crate::Shape::List { fixed_len: Some(_), .. }) {
                return Err(Error::FixedLength { path: String::new(), type_name, len, found: want });
            }
            while l.len() < want {
                if !l.push_default() {
                    return Err(text::grow_error(l.type_info(), "", len, want));
                }
            }
            for i in 0..want {
                if let (Some(dst), Some(src)) = (l.get_mut(i), o.get(i)) {
                    apply(dst, src).map_err(|e| e.with_prefix(&alloc::format!("[{i}]")))?;
                }
            }
            l.truncate(want);
            Ok(())
        }
        (ReflectMut::Map(m), ReflectRef::Map(o)) => {
            // Entries are changed and added first and the others removed last (as lists).
            let keys = o.keys();
            for key in &keys {
                if let Some(src) = o.get(key) {
                    let prefix = || alloc::format!("[{key:?}]");
                    let dst = if m.get(key).is_some() {
                        m.get_mut(key)
                    } else {
                        Some(m.insert_default(key).map_err(|e| e.with_prefix(&prefix()))?)
                    };
                    if let Some(dst) = dst {
                        apply(dst, src).map_err(|e| e.with_prefix(&prefix()))?;
                    }
                }
            }
            crate::snapshot::remove_stale_entries(m, keys.iter().map(|k| &**k));
            Ok(())
        }
        (ReflectMut::Set(set), ReflectRef::Set(o)) => {
            let mut wanted = alloc::vec::Vec::with_capacity(o.len());
            for (i, element) in o.elements().into_iter().enumerate() {
                set.insert_with(&mut |dst| {
                    apply(dst, element)?;
                    wanted.push(dst.to_text());
                    Ok(())
                })
                .map_err(|e| e.with_prefix(&alloc::format!("[{i}]")))?;
            }
            set.retain(&mut |e| wanted.contains(&e.to_text()));
            Ok(())
        }
        // Different shapes: the text form may still fit (a newtype from its field, …).
        _ => text::set_text(target, &other.to_text()).map_err(|_| mismatch(target, other)),
    }
}
