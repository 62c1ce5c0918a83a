//! An [egui](https://docs.rs/egui) inspector for [`lore_reflect`] values: point it at any
//! reflected value and it lays out the value's fields from its type info with typed widgets,
//! edits them in place, and tells you which fields changed.
//!
//! | value | widget |
//! | --- | --- |
//! | `f32`, `i32`, … | a drag value, or a slider over `#[reflect(range = lo..=hi, step = s)]` |
//! | `bool` | a checkbox |
//! | `String`, `char`, `reflect_value!` types | a text field |
//! | `#[reflect(color)]` three or four numbers | a color button |
//! | glam vectors, small structs of numbers | one line of drag values |
//! | enums, `Option` | a variant picker, then the variant's fields |
//! | structs | a collapsible block of rows |
//! | `Vec`, arrays, string-keyed maps | a row per element, `+` / `−` for growable lists |
//!
//! Doc comments of fields and variants show as hover text.
//!
//! # Edits are all or nothing
//!
//! The widgets only read the value; what the user does becomes a list of [`Edit`]s (a path and
//! the new number, text, variant…), applied after the frame is laid out by [`edit::apply`]. An
//! edit that fails (text that does not read as a `char`, say) is undone together with every
//! other edit of the frame, the field shows the error and keeps the typed text so it can be
//! fixed, and the value stays exactly as it was. [`Inspector::show_checked`] adds the caller's
//! own rule (a speed limit, a radius the game can draw): a refused result is undone the same
//! way, and its message shows beside the edited field.
//!
//! # What a file held that was not understood
//!
//! [`Inspector::show_thing`] lays out a [`lore_reflect::Thing`] of a document: its value as
//! above, and what its file held that the loader kept without understanding it
//! ([`lore_reflect::Thing::kept`]) as read-only text with the problem. A value that did not read
//! shows its text in place of the field's widget until the user presses `edit` (the text is
//! then dropped and the widget edits the value the thing holds); unknown parameters and
//! elements are listed below the fields, as they will be saved.
//!
//! ```
//! use lore_reflect::Reflect;
//! use lore_reflect_egui::Inspector;
//!
//! #[derive(Reflect, Default)]
//! struct Enemy {
//!     /// Tiles per second.
//!     #[reflect(range = 0.0..=10.0)]
//!     speed: f32,
//!     name: String,
//! }
//!
//! let mut enemy = Enemy { speed: 1.5, name: "bat".into() };
//! let ctx = egui::Context::default();
//! let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
//!     let changes = Inspector::new("enemy").show_checked(ui, &mut enemy, |value| {
//!         match value.downcast_ref::<Enemy>() {
//!             Some(e) if e.name.is_empty() => Err("an enemy needs a name".to_owned()),
//!             _ => Ok(()),
//!         }
//!     });
//!     if changes.any() {
//!         // changes.paths() lists what the user edited: "speed", "name".
//!     }
//! });
//! output.textures_delta.clear(); // a renderer would upload the font texture
//! ```
//!
//! The edit logic works without a UI, for tests and scripted edits:
//!
//! ```
//! use lore_reflect::Reflect;
//! use lore_reflect_egui::edit::{Edit, apply};
//!
//! #[derive(Reflect, Default)]
//! struct Enemy { speed: f32, initial: char }
//!
//! let mut enemy = Enemy { speed: 1.5, initial: 'b' };
//! let edits = [
//!     Edit::Number { path: "speed".into(), value: 3.0 },
//!     Edit::Text { path: "initial".into(), text: "two letters".into() },
//! ];
//! let err = apply(&mut enemy, &edits).unwrap_err();
//! assert!(err.to_string().contains("initial"));
//! assert_eq!((enemy.speed, enemy.initial), (1.5, 'b')); // nothing applied
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod edit;
mod widgets;

pub use edit::{Changes, Edit, EditError};
/// The egui this crate draws with, re-exported so callers match its version.
pub use egui;

use lore_reflect::{Reflect, Registry, Thing};
use widgets::{FieldState, Pass};

/// An inspector: a name for the widgets' state (text being typed, the last refusal of each
/// field) kept in the egui context between frames. It is a small `Copy` value; make one per
/// inspected value, each with its own id salt, every frame.
#[derive(Clone, Copy, Debug)]
pub struct Inspector {
    id: egui::Id,
}

impl Inspector {
    /// An inspector whose state lives under `id_salt` (distinct for each value shown at once).
    #[must_use]
    pub fn new(id_salt: impl std::hash::Hash + std::fmt::Debug) -> Self {
        Self { id: egui::Id::unique(("lore-reflect-egui", id_salt)) }
    }

    /// The egui id of the text field editing the value at `path` (lore-reflect path syntax
    /// from the inspected value, e.g. `"name"` or `"tags[2]"`), to give it focus.
    #[must_use]
    pub fn field_id(&self, path: &str) -> egui::Id {
        self.id.with(path)
    }

    /// The last refusal of an edit of the value at `path`, while it is shown.
    #[must_use]
    pub fn error(&self, ctx: &egui::Context, path: &str) -> Option<String> {
        self.state(ctx, path).error
    }

    /// Lays out `value`'s fields and returns the edits the user made this frame, without
    /// applying them: apply them with [`edit::apply`] (to this value or a copy), then pass the
    /// result to [`report`](Self::report) so a refusal shows under its field.
    /// [`show`](Self::show) does all three.
    pub fn edits(&self, ui: &mut egui::Ui, value: &dyn Reflect) -> Vec<Edit> {
        let mut pass = Pass { inspector: self, edits: Vec::new(), held: &[], released: Vec::new() };
        ui.push_id(self.id, |ui| pass.root(ui, value));
        pass.edits
    }

    /// Lays out a thing of a document as [`show`](Self::show) does its value, and what the
    /// thing holds without understanding it ([`Thing::kept`]) as read-only text with its
    /// problem: a parameter whose text in the file did not read shows that text in place of its
    /// widget (an `edit` button drops the text and gives the widget back, holding the value
    /// the editor has), and unknown parameters and elements are listed below the fields, as
    /// they will be saved. Edits of a parameter forget its unread text, as
    /// [`Thing::set_text`] does; the returned changes list a released parameter too.
    pub fn show_thing(&self, ui: &mut egui::Ui, thing: &mut Thing) -> Changes {
        let kept = thing.kept();
        let (held, others): (Vec<_>, Vec<_>) =
            kept.into_iter().partition(|k| thing.rejected.iter().any(|p| p.name == k.name && p.value == k.text));
        let held: Vec<_> = held.into_iter().filter(|k| is_param(thing, &k.name)).collect();
        let mut pass = Pass { inspector: self, edits: Vec::new(), held: &held, released: Vec::new() };
        ui.push_id(self.id, |ui| pass.root(ui, &*thing.value));
        let others: Vec<_> =
            others.into_iter().chain(held.iter().filter(|k| !is_param(thing, &k.name)).cloned()).collect();
        if !others.is_empty() {
            ui.push_id((self.id, "kept"), |ui| {
                ui.separator();
                ui.label("Not understood, kept as written:");
                for (i, k) in others.iter().enumerate() {
                    ui.push_id(i, |ui| widgets::kept_row(ui, k));
                }
            });
        }
        let (edits, released) = (pass.edits, pass.released);
        let mut changes = if edits.is_empty() {
            Changes::default()
        } else {
            let result = edit::apply(&mut *thing.value, &edits);
            self.report(ui.ctx(), &edits, &result);
            match result {
                Ok(changes) => changes,
                Err(err) => Changes::with_refused(err),
            }
        };
        for name in released {
            changes.push(&name);
        }
        for path in changes.paths() {
            thing.forget_rejected(path);
        }
        changes
    }

    /// Lays out `value`'s fields, applies this frame's edits all or nothing, and returns the
    /// changed paths. A refused edit leaves `value` unchanged; its error shows under the field
    /// and is in [`Changes::refused`].
    pub fn show(&self, ui: &mut egui::Ui, value: &mut dyn Reflect) -> Changes {
        self.show_checked(ui, value, |_| Ok(()))
    }

    /// As [`show`](Self::show), and `check` (called only when something changed) may refuse the
    /// edited value with a message; the edits are then undone and the message shows under the
    /// edited field.
    pub fn show_checked(
        &self,
        ui: &mut egui::Ui,
        value: &mut dyn Reflect,
        check: impl FnOnce(&dyn Reflect) -> Result<(), String>,
    ) -> Changes {
        let edits = self.edits(ui, value);
        if edits.is_empty() {
            return Changes::default();
        }
        let result = edit::apply_checked(value, &edits, check);
        self.report(ui.ctx(), &edits, &result);
        match result {
            Ok(changes) => changes,
            Err(err) => Changes::with_refused(err),
        }
    }

    /// Shows the outcome of `edits` (from [`edits`](Self::edits)) that the caller applied
    /// itself, for instance to a copy it then validates: a refusal shows under its field until
    /// an edit of that field succeeds, and a success clears the field's earlier refusal.
    pub fn report(&self, ctx: &egui::Context, edits: &[Edit], result: &Result<Changes, EditError>) {
        match result {
            Ok(_) => {
                for e in edits {
                    let mut state = self.state(ctx, e.path());
                    state.error = None;
                    if !ctx.memory(|m| m.has_focus(self.field_id(e.path()))) {
                        state.text = None;
                    }
                    self.set_state(ctx, e.path(), state);
                }
            }
            Err(err) => {
                let mut state = self.state(ctx, err.path());
                state.error = Some(err.to_string());
                self.set_state(ctx, err.path(), state);
            }
        }
        if !edits.is_empty() {
            ctx.request_repaint();
        }
    }

    fn state_id(&self, path: &str) -> egui::Id {
        self.field_id(path).with("lore-reflect-egui state")
    }

    pub(crate) fn state(&self, ctx: &egui::Context, path: &str) -> FieldState {
        ctx.data(|d| d.get_temp::<FieldState>(self.state_id(path))).unwrap_or_default()
    }

    pub(crate) fn set_state(&self, ctx: &egui::Context, path: &str, state: FieldState) {
        let id = self.state_id(path);
        ctx.data_mut(|d| {
            if state.text.is_none() && state.error.is_none() {
                d.remove::<FieldState>(id);
            } else {
                d.insert_temp(id, state);
            }
        });
    }
}

/// Whether `name` is one of `thing`'s parameters.
fn is_param(thing: &Thing, name: &str) -> bool {
    match &thing.value.type_info().shape {
        lore_reflect::Shape::Struct(s) => s.index_of(name).is_some(),
        _ => name == lore_reflect::VALUE_PARAM,
    }
}

/// One named part of a value shown by [`parts_panel`] (a thing of a game's kinds): its name and
/// how to reach it.
pub type Part<T> = (&'static str, fn(&mut T) -> &mut dyn Reflect);

/// Applies `edits` to the part named `name` of a copy of `value`, all or nothing: the edited
/// copy must pass `check` (the game's ranges; handing it to the running game), or it is
/// dropped. Returns the edited copy and what changed; with no change, `check` is not called.
///
/// # Errors
/// [`EditError::Refused`] for an unknown part or a copy `check` refuses (its reason, at the
/// first edited path); the errors of [`edit::apply`] for an edit that does not apply.
///
/// ```
/// use lore_reflect::Reflect;
/// use lore_reflect_egui::{Edit, Part, edit_part};
///
/// #[derive(Reflect, Clone, Debug, Default)]
/// struct Enemy { speed: f32 }
/// #[derive(Clone, Debug, Default)]
/// struct Kinds { bat: Enemy }
///
/// const PARTS: [Part<Kinds>; 1] = [("bat", |k| &mut k.bat)];
/// let kinds = Kinds::default();
/// let fast = [Edit::Number { path: "speed".into(), value: 30.0 }];
/// let refused = edit_part(&kinds, &PARTS, "bat", &fast, |k| {
///     if k.bat.speed > 20.0 { Err("at most 20".to_owned()) } else { Ok(()) }
/// });
/// assert!(refused.unwrap_err().to_string().contains("at most 20"));
/// let (edited, changes) = edit_part(&kinds, &PARTS, "bat", &fast, |_| Ok(())).unwrap();
/// assert_eq!((edited.bat.speed, changes.paths().len()), (30.0, 1));
/// ```
pub fn edit_part<T: Clone>(
    value: &T,
    parts: &[Part<T>],
    name: &str,
    edits: &[Edit],
    check: impl FnOnce(&T) -> Result<(), String>,
) -> Result<(T, Changes), EditError> {
    let Some(&(_, part_of)) = parts.iter().find(|(part, _)| *part == name) else {
        let path = edits.first().map_or_else(String::new, |e| e.path().to_owned());
        return Err(EditError::Refused { path, reason: format!("no part named {name:?}") });
    };
    let mut edited = value.clone();
    let changes = edit::apply(part_of(&mut edited), edits)?;
    if let Some(first) = changes.paths().first() {
        check(&edited).map_err(|reason| EditError::Refused { path: first.clone(), reason })?;
    }
    Ok((edited, changes))
}

/// One collapsible block per part of `value` (a game's live kinds), its fields laid out from
/// reflection and the kind's docs (from `registry`) on hover; edits of a part go to `apply`
/// (typically [`edit_part`] and a store), and each block reports the answer beside its
/// fields. Returns `None` when nothing was edited this frame, `Some(None)` when the edits were
/// taken, `Some(Some(reason))` when `apply` refused them.
pub fn parts_panel<T: Clone>(
    ui: &mut egui::Ui,
    id_salt: &str,
    value: &T,
    parts: &[Part<T>],
    registry: &Registry,
    mut apply: impl FnMut(&str, &[Edit]) -> Result<Changes, EditError>,
) -> Option<Option<String>> {
    let mut outcome = None;
    for &(name, part_of) in parts {
        let mut shown = value.clone();
        let part = part_of(&mut shown);
        let kind = part.type_info().name;
        let docs = registry.kind(kind).map_or("", |k| k.info().docs);
        let inspector = Inspector::new((id_salt, name));
        let mut edits = Vec::new();
        let header = egui::CollapsingHeader::new(format!("{name}  ({kind})"))
            .id_salt((id_salt, name))
            .default_open(true)
            .show(ui, |ui| edits = inspector.edits(ui, part));
        if !docs.is_empty() {
            header.header_response.on_hover_text(docs);
        }
        if !edits.is_empty() {
            let result = apply(name, &edits);
            inspector.report(ui.ctx(), &edits, &result);
            outcome = Some(result.err().map(|e| format!("{name}: {e}")));
        }
    }
    outcome
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
