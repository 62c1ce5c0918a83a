//! Edits as data, and applying them all or nothing: the half of the inspector that needs no UI.
//!
//! The widgets only read the value and describe what the user asked for as [`Edit`]s, each
//! naming its target by a lore-reflect path (`"speed"`, `"color[2]"`, `"spawn.position.x"`).
//! [`apply`] then writes them; if one fails, or the caller's check refuses the result
//! ([`apply_checked`]), every edit of the batch is undone and the value is left exactly as it
//! was.

use lore_reflect::{Error as ReflectError, Reflect, ReflectMut, ValueKind};

/// One change the user asked for, addressed by a lore-reflect path from the inspected value
/// (`""` is the value itself).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Edit {
    /// Set a number (integers are rounded and clamped to their type by lore-reflect).
    Number {
        /// Path to the number.
        path: String,
        /// The new value.
        value: f64,
    },
    /// Set a `bool`.
    Bool {
        /// Path to the flag.
        path: String,
        /// The new value.
        value: bool,
    },
    /// Read text into the value (strings, `char`s, and types with a text form of their own;
    /// any value with a lore-reflect text form works).
    Text {
        /// Path to the value.
        path: String,
        /// The text the user typed.
        text: String,
    },
    /// Switch an enum to another variant (its fields take their defaults).
    Variant {
        /// Path to the enum.
        path: String,
        /// The variant's index in the enum's type info.
        index: usize,
    },
    /// Append a default element to a list.
    Push {
        /// Path to the list.
        path: String,
    },
    /// Remove a list's last element.
    Pop {
        /// Path to the list.
        path: String,
    },
}

impl Edit {
    /// The path of the value the edit changes.
    #[must_use]
    pub fn path(&self) -> &str {
        match self {
            Edit::Number { path, .. }
            | Edit::Bool { path, .. }
            | Edit::Text { path, .. }
            | Edit::Variant { path, .. }
            | Edit::Push { path }
            | Edit::Pop { path } => path,
        }
    }
}

/// Why an edit was refused. The value is unchanged whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The path does not lead to a value, or the text does not read as the value's type (the
    /// message names the path and the type).
    #[error("{source}")]
    Reflect {
        /// Path of the edit.
        path: String,
        /// What lore-reflect said.
        source: ReflectError,
    },
    /// The edit does not fit the value at its path (a number edit on a string, a variant index
    /// past the end, removing from an empty or fixed-length list).
    #[error("`{path}`: {reason}")]
    Unsupported {
        /// Path to the value.
        path: String,
        /// What does not fit.
        reason: &'static str,
    },
    /// The caller's check refused the edited value ([`apply_checked`]).
    #[error("{reason}")]
    Refused {
        /// Path of the (first) edit of the refused batch.
        path: String,
        /// The check's message.
        reason: String,
    },
}

impl EditError {
    /// The path of the edit that was refused (for [`EditError::Refused`], the first edit of
    /// the batch).
    #[must_use]
    pub fn path(&self) -> &str {
        match self {
            EditError::Reflect { path, .. } | EditError::Unsupported { path, .. } | EditError::Refused { path, .. } => {
                path
            }
        }
    }
}

/// The paths of the values an inspector frame (or an [`apply`]) changed, in edit order.
///
/// An edit that leaves the stored value as it was (a slider snapping back to the same `f32`) is
/// not listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    paths: Vec<String>,
    refused: Option<EditError>,
}

impl Changes {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Whether anything changed.
    #[must_use]
    pub fn any(&self) -> bool {
        !self.paths.is_empty()
    }

    /// The changed paths, in edit order (a path appears once).
    #[must_use]
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Whether the value at `path` changed.
    #[must_use]
    pub fn contains(&self, path: &str) -> bool {
        self.paths.iter().any(|p| p == path)
    }

    /// The edit refused this frame, if any (the inspector also shows it beside the field).
    #[must_use]
    pub fn refused(&self) -> Option<&EditError> {
        self.refused.as_ref()
    }

    pub(crate) fn with_refused(refused: EditError) -> Self {
        Self { paths: Vec::new(), refused: Some(refused) }
    }

    pub(crate) fn push(&mut self, path: &str) {
        if !self.contains(path) {
            self.paths.push(path.to_owned());
        }
    }
}

/// Applies `edits` to `value` in order, all or nothing.
///
/// # Errors
/// The first edit that fails ([`EditError::Reflect`] for a bad path or text that does not read,
/// [`EditError::Unsupported`] for an edit that does not fit its value); the edits before it are
/// then undone, so `value` is exactly as it was.
pub fn apply(value: &mut dyn Reflect, edits: &[Edit]) -> Result<Changes, EditError> {
    apply_checked(value, edits, |_| Ok(()))
}

/// Applies `edits` like [`apply`], then asks `check` about the result; when it refuses, every
/// edit is undone and its message comes back as [`EditError::Refused`]. `check` is only called
/// when an edit changed something.
///
/// # Errors
/// As [`apply`], or [`EditError::Refused`].
pub fn apply_checked(
    value: &mut dyn Reflect,
    edits: &[Edit],
    check: impl FnOnce(&dyn Reflect) -> Result<(), String>,
) -> Result<Changes, EditError> {
    let mut changes = Changes::default();
    // The text form of each target before its edit: lore-reflect's text reads back to the exact
    // same value, so putting these back in reverse order restores the value bit for bit.
    let mut undo: Vec<(&str, String)> = Vec::with_capacity(edits.len());
    let mut result = Ok(());
    for edit in edits {
        let before = match value.text(edit.path()) {
            Ok(text) => text,
            Err(source) => {
                result = Err(EditError::Reflect { path: edit.path().to_owned(), source });
                break;
            }
        };
        undo.push((edit.path(), before));
        match apply_one(value, edit) {
            Ok(true) => changes.push(edit.path()),
            Ok(false) => {}
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    if result.is_ok()
        && changes.any()
        && let Err(reason) = check(&*value)
    {
        let path = changes.paths[0].clone();
        result = Err(EditError::Refused { path, reason });
    }
    match result {
        Ok(()) => Ok(changes),
        Err(e) => {
            for (path, text) in undo.iter().rev() {
                // Text written by lore-reflect reads back; a failure here would be a lore-reflect
                // bug, and leaves the remaining targets restored all the same.
                let restored = value.set_text(path, text);
                debug_assert!(restored.is_ok(), "restoring `{path}` from {text:?}: {restored:?}");
            }
            Err(e)
        }
    }
}

/// Applies one edit; whether the stored value changed.
fn apply_one(root: &mut dyn Reflect, edit: &Edit) -> Result<bool, EditError> {
    let path = edit.path();
    let unsupported = |reason| EditError::Unsupported { path: path.to_owned(), reason };
    let reflect = |source| EditError::Reflect { path: path.to_owned(), source };
    let target = root.path_mut(path).map_err(reflect)?;
    match edit {
        Edit::Number { value, .. } => {
            let ReflectMut::Value(v) = target.reflect_mut() else { return Err(unsupported("not a number")) };
            let old = v.as_f64();
            if old.is_none() || v.kind() == ValueKind::Bool {
                return Err(unsupported("not a number"));
            }
            if !value.is_finite() && !matches!(v.kind(), ValueKind::Float(_)) {
                return Err(unsupported("an integer cannot hold a non-finite number"));
            }
            if !v.set_f64(*value) {
                return Err(unsupported("not a number"));
            }
            // A widget may report a value the type cannot hold apart from the old one
            // (2.0000000000000004 as f32): only a different stored value is a change.
            Ok(v.as_f64().map(f64::to_bits) != old.map(f64::to_bits))
        }
        Edit::Bool { value, .. } => {
            let ReflectMut::Value(v) = target.reflect_mut() else { return Err(unsupported("not a bool")) };
            if v.kind() != ValueKind::Bool {
                return Err(unsupported("not a bool"));
            }
            let old = v.as_f64();
            v.set_f64(f64::from(u8::from(*value)));
            Ok(v.as_f64() != old)
        }
        Edit::Text { text, .. } => {
            let old = target.to_text();
            lore_reflect::text::set_text(target, text).map_err(|e| reflect(e.with_prefix(path)))?;
            Ok(target.to_text() != old)
        }
        Edit::Variant { index, .. } => {
            let ReflectMut::Enum(e) = target.reflect_mut() else { return Err(unsupported("not an enum")) };
            if *index == e.variant_index() {
                return Ok(false);
            }
            if e.set_variant(*index) { Ok(true) } else { Err(unsupported("no variant with that index")) }
        }
        Edit::Push { .. } => {
            let ReflectMut::List(l) = target.reflect_mut() else { return Err(unsupported("not a list")) };
            if l.push_default() { Ok(true) } else { Err(unsupported("the list cannot grow")) }
        }
        Edit::Pop { .. } => {
            let ReflectMut::List(l) = target.reflect_mut() else { return Err(unsupported("not a list")) };
            if l.is_empty() {
                return Err(unsupported("the list is empty"));
            }
            let last = l.len() - 1;
            if l.remove(last) { Ok(true) } else { Err(unsupported("the list cannot shrink")) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_reflect::Reflect;

    #[derive(Reflect, Default, Debug, Clone, PartialEq)]
    enum Shape {
        #[default]
        Dot,
        Circle {
            radius: f32,
        },
    }

    #[derive(Reflect, Default, Debug, Clone, PartialEq)]
    struct Thing {
        speed: f32,
        count: u32,
        alive: bool,
        name: String,
        initial: char,
        tags: Vec<String>,
        color: [f32; 4],
        shape: Shape,
    }

    fn thing() -> Thing {
        Thing {
            speed: 1.5,
            count: 3,
            alive: true,
            name: "crate".into(),
            initial: 'c',
            tags: vec!["wood".into()],
            color: [1.0, 0.5, 0.25, 1.0],
            shape: Shape::Circle { radius: 2.0 },
        }
    }

    fn number(path: &str, value: f64) -> Edit {
        Edit::Number { path: path.into(), value }
    }

    #[test]
    fn each_kind_of_edit_changes_its_value_and_is_reported() {
        let mut t = thing();
        let edits = [
            number("speed", 2.25),
            number("count", 7.4),
            Edit::Bool { path: "alive".into(), value: false },
            Edit::Text { path: "name".into(), text: "barrel".into() },
            Edit::Text { path: "initial".into(), text: "b".into() },
            Edit::Push { path: "tags".into() },
            Edit::Text { path: "tags[1]".into(), text: "heavy".into() },
            number("color[1]", 0.75),
            number("shape.radius", 3.0),
        ];
        let changes = apply(&mut t, &edits).unwrap();
        assert_eq!(
            t,
            Thing {
                speed: 2.25,
                count: 7,
                alive: false,
                name: "barrel".into(),
                initial: 'b',
                tags: vec!["wood".into(), "heavy".into()],
                color: [1.0, 0.75, 0.25, 1.0],
                shape: Shape::Circle { radius: 3.0 },
            }
        );
        assert_eq!(changes.paths().len(), edits.len());
        assert!(changes.contains("shape.radius") && changes.refused().is_none());
        // Back to a dot, and the list shrinks again.
        let changes =
            apply(&mut t, &[Edit::Variant { path: "shape".into(), index: 0 }, Edit::Pop { path: "tags".into() }])
                .unwrap();
        assert_eq!((t.shape.clone(), t.tags.len()), (Shape::Dot, 1));
        assert_eq!(changes.paths(), ["shape", "tags"]);
    }

    #[test]
    fn an_edit_that_keeps_the_stored_value_is_no_change() {
        let mut t = thing();
        // 2.0000000000000004 is 2.0 as an f32; 3.2 rounds to the count's 3.
        let changes = apply(&mut t, &[number("shape.radius", 2.000_000_000_000_000_4), number("count", 3.2)]).unwrap();
        assert!(changes.is_empty(), "{changes:?}");
        assert_eq!(t, thing());
    }

    #[test]
    fn a_bad_edit_is_refused_and_undoes_the_whole_batch() {
        let cases = [
            // Text that does not read as the type: the earlier edits are undone too.
            vec![number("speed", 9.0), Edit::Text { path: "initial".into(), text: "two".into() }],
            vec![Edit::Push { path: "tags".into() }, number("count", f64::NAN)],
            vec![number("speed", 9.0), number("name", 1.0)],
            vec![Edit::Variant { path: "shape".into(), index: 0 }, Edit::Variant { path: "shape".into(), index: 9 }],
            vec![number("speed", 9.0), number("no_such_field", 1.0)],
            vec![number("speed", 9.0), Edit::Pop { path: "color".into() }],
            vec![Edit::Pop { path: "tags".into() }, Edit::Pop { path: "tags".into() }],
        ];
        for edits in cases {
            let mut t = thing();
            let err = apply(&mut t, &edits).unwrap_err();
            assert!(!err.to_string().is_empty());
            assert_eq!(t, thing(), "{edits:?} -> {err}");
        }
        let mut t = thing();
        let err = apply(&mut t, &[Edit::Text { path: "count".into(), text: "many".into() }]).unwrap_err();
        assert!(err.to_string().contains("count") && err.to_string().contains("many"), "{err}");
    }

    #[test]
    fn a_check_that_refuses_undoes_the_edits_and_says_why() {
        let mut t = thing();
        let fast = |v: &dyn Reflect| match v.downcast_ref::<Thing>() {
            Some(t) if t.speed > 5.0 => Err(format!("speed {} is over 5", t.speed)),
            _ => Ok(()),
        };
        let err = apply_checked(&mut t, &[number("count", 9.0), number("speed", 6.0)], fast).unwrap_err();
        assert_eq!(err, EditError::Refused { path: "count".into(), reason: "speed 6 is over 5".into() });
        assert_eq!(err.path(), "count");
        assert_eq!(t, thing());
        let changes = apply_checked(&mut t, &[number("speed", 4.0)], fast).unwrap();
        assert_eq!(changes.paths(), ["speed"]);
        assert_eq!(t.speed, 4.0);
    }
}
