//! Drawing: one typed widget per reflected value, read-only; what the user changes comes out as
//! [`Edit`]s for [`crate::edit`] to apply.

use egui::Ui;
use lore_reflect::{FieldAttrs, Kept, Reflect, ReflectRef, Shape, ValueKind};

use crate::Inspector;
use crate::edit::Edit;

/// What a field remembers between frames: the text being typed (kept while the field has focus
/// or while it does not read) and the last refusal (shown under the field until an edit of it
/// succeeds).
#[derive(Clone, Debug, Default)]
pub(crate) struct FieldState {
    pub(crate) text: Option<String>,
    pub(crate) error: Option<String>,
}

/// One drawing pass over a value.
pub(crate) struct Pass<'a> {
    pub(crate) inspector: &'a Inspector,
    pub(crate) edits: Vec<Edit>,
    /// Top-level fields whose text in the file did not read: shown as that text, read-only,
    /// with the problem, instead of the field's widget.
    pub(crate) held: &'a [Kept],
    /// Held fields the user chose to edit anyway (their text is to be forgotten).
    pub(crate) released: Vec<String>,
}

/// One read-only line: a name, the text as written and why it was not understood.
pub(crate) fn kept_row(ui: &mut Ui, kept: &Kept) -> egui::Response {
    ui.horizontal(|ui| {
        ui.label(&kept.name);
        let mut text = kept.text.as_str();
        ui.add(egui::TextEdit::singleline(&mut text).interactive(false).desired_width(f32::INFINITY))
            .on_hover_text(&kept.problem);
    });
    ui.colored_label(ui.visuals().warn_fg_color, egui::RichText::new(&kept.problem).small())
}

/// `prefix.name` (or `name` at the root).
pub(crate) fn field_path(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.to_owned() } else { format!("{prefix}.{name}") }
}

fn index_path(prefix: &str, index: usize) -> String {
    format!("{prefix}[{index}]")
}

fn key_path(prefix: &str, key: &str) -> String {
    let mut path = String::with_capacity(prefix.len() + key.len() + 4);
    path.push_str(prefix);
    path.push_str("[\"");
    for c in key.chars() {
        if matches!(c, '"' | '\\') {
            path.push('\\');
        }
        path.push(c);
    }
    path.push_str("\"]");
    path
}

/// A number leaf other than `bool`.
fn is_number(value: &dyn Reflect) -> bool {
    matches!(value.reflect_ref(), ReflectRef::Value(v) if v.as_f64().is_some() && v.kind() != ValueKind::Bool)
}

/// A struct whose one to four fields are all numbers (glam vectors, small tuples).
fn is_vector(value: &dyn Reflect) -> bool {
    match value.reflect_ref() {
        ReflectRef::Struct(s) => {
            let n = s.field_count();
            (1..=4).contains(&n) && (0..n).all(|i| s.field_at(i).is_some_and(is_number))
        }
        _ => false,
    }
}

/// Three or four numbers (a list or a struct), for a color button.
fn color_parts(value: &dyn Reflect) -> Option<Vec<f64>> {
    let parts: Vec<Option<f64>> = match value.reflect_ref() {
        ReflectRef::List(l) => (0..l.len()).map(|i| l.get(i).and_then(number_of)).collect(),
        ReflectRef::Struct(s) => (0..s.field_count()).map(|i| s.field_at(i).and_then(number_of)).collect(),
        _ => return None,
    };
    if !(3..=4).contains(&parts.len()) {
        return None;
    }
    parts.into_iter().collect()
}

/// The paths of the numbers a one-line widget edits: a list's elements or a struct's fields.
fn part_paths(value: &dyn Reflect, path: &str) -> Vec<String> {
    match value.reflect_ref() {
        ReflectRef::List(l) => (0..l.len()).map(|i| index_path(path, i)).collect(),
        ReflectRef::Struct(s) => {
            <dyn lore_reflect::Struct>::info(s).fields.iter().map(|f| field_path(path, f.name)).collect()
        }
        _ => Vec::new(),
    }
}

fn number_of(value: &dyn Reflect) -> Option<f64> {
    match value.reflect_ref() {
        ReflectRef::Value(v) if v.kind() != ValueKind::Bool => v.as_f64(),
        _ => None,
    }
}

impl Pass<'_> {
    /// Every field of a struct, or the value alone under the label `value`.
    pub(crate) fn root(&mut self, ui: &mut Ui, value: &dyn Reflect) {
        match value.reflect_ref() {
            ReflectRef::Struct(s) => {
                let fields = <dyn lore_reflect::Struct>::info(s).fields;
                for (i, info) in fields.iter().enumerate() {
                    if self.held_row(ui, info.name) {
                        continue;
                    }
                    if let Some(field) = s.field_at(i) {
                        self.row(ui, info.name, info.docs, info.attrs, field, &field_path("", info.name));
                    }
                }
            }
            _ if self.held_row(ui, lore_reflect::VALUE_PARAM) => {}
            _ => self.row(ui, "value", "", FieldAttrs::default(), value, ""),
        }
    }

    /// The read-only row of a held field, with a button to edit it anyway; false when the
    /// field is not held.
    fn held_row(&mut self, ui: &mut Ui, name: &str) -> bool {
        let Some(kept) = self.held.iter().find(|k| k.name == name) else { return false };
        ui.push_id(("held", name), |ui| {
            kept_row(ui, kept);
            let replace =
                ui.small_button("edit").on_hover_text("replace the text above with the value the editor holds");
            if replace.clicked() {
                self.released.push(name.to_owned());
            }
        });
        true
    }

    /// One labelled field: a line for leaves, vectors, colors and plain enums, a collapsible
    /// block otherwise; the field's last refusal under it.
    fn row(&mut self, ui: &mut Ui, name: &str, docs: &str, attrs: FieldAttrs, value: &dyn Reflect, path: &str) {
        let inline = (attrs.color && color_parts(value).is_some())
            || matches!(value.reflect_ref(), ReflectRef::Value(_))
            || is_vector(value)
            || matches!(value.reflect_ref(), ReflectRef::Enum(e) if e.field_count() == 0);
        ui.push_id(name, |ui| {
            if inline {
                ui.horizontal(|ui| {
                    let label = ui.label(name);
                    if !docs.is_empty() {
                        label.on_hover_text(docs);
                    }
                    self.edit(ui, attrs, value, path);
                });
            } else {
                let header = egui::CollapsingHeader::new(name)
                    .default_open(true)
                    .show(ui, |ui| self.edit(ui, attrs, value, path));
                if !docs.is_empty() {
                    header.header_response.on_hover_text(docs);
                }
            }
            // A line's edits may aim at its parts (a color's components, a vector's fields).
            let parts = if inline { part_paths(value, path) } else { Vec::new() };
            for p in std::iter::once(path).chain(parts.iter().map(String::as_str)) {
                if let Some(error) = self.inspector.state(ui.ctx(), p).error {
                    ui.colored_label(ui.visuals().error_fg_color, error);
                }
            }
        });
    }

    fn number(&mut self, ui: &mut Ui, value: &dyn Reflect, attrs: FieldAttrs, path: &str) {
        let ReflectRef::Value(v) = value.reflect_ref() else { return };
        let Some(old) = v.as_f64() else { return };
        let mut x = old;
        let integer = matches!(v.kind(), ValueKind::Int(_) | ValueKind::Uint(_));
        let response = match attrs.range {
            Some((lo, hi)) => {
                // A typed number applies when the user presses Enter or leaves the field, whole
                // (not "0", "0.", "0.9" keystroke by keystroke); dragging applies as it goes.
                let mut slider = egui::Slider::new(&mut x, lo..=hi).update_while_editing(false);
                // egui counts steps from the range's start: snapping to a step that does not
                // divide the start would move values (0 in -π..=π) on display.
                if let Some(step) = attrs.step.filter(|&s| s > 0.0 && ((lo / s).round() * s - lo).abs() < 1e-9) {
                    slider = slider.step_by(step);
                }
                if integer {
                    slider = slider.integer();
                }
                ui.add(slider)
            }
            None => {
                let speed = attrs.step.unwrap_or(if integer { 1.0 } else { 0.05 });
                ui.add(egui::DragValue::new(&mut x).speed(speed).update_while_editing(false))
            }
        };
        if response.changed() && x.to_bits() != old.to_bits() {
            self.edits.push(Edit::Number { path: path.to_owned(), value: x });
        }
    }

    fn color(&mut self, ui: &mut Ui, parts: &[f64], path: &str) {
        let mut rgba = [1.0f32; 4];
        for (c, &p) in rgba.iter_mut().zip(parts) {
            *c = p as f32;
        }
        let before = rgba;
        // The button may round the color through 8-bit sRGB; only a component the user moved
        // is an edit.
        if ui.color_edit_button_rgba_unmultiplied(&mut rgba).changed() {
            for (i, (&new, &old)) in rgba.iter().zip(&before).enumerate().take(parts.len()) {
                if new != old {
                    self.edits.push(Edit::Number { path: index_path(path, i), value: f64::from(new) });
                }
            }
        }
    }

    fn text(&mut self, ui: &mut Ui, value: &dyn Reflect, path: &str) {
        let id = self.inspector.field_id(path);
        let mut state = self.inspector.state(ui.ctx(), path);
        let mut text = state.text.take().unwrap_or_else(|| value.to_text());
        let response = ui.add(egui::TextEdit::singleline(&mut text).id(id));
        if response.changed() {
            self.edits.push(Edit::Text { path: path.to_owned(), text: text.clone() });
        }
        // The typed text stays while the field has focus, so a value that writes itself
        // differently does not fight the cursor and text that does not read can be fixed; once
        // the field loses focus it shows the value again (the refusal stays under it).
        if response.has_focus() || response.changed() {
            state.text = Some(text);
        }
        self.inspector.set_state(ui.ctx(), path, state);
    }

    /// The widget for one value.
    fn edit(&mut self, ui: &mut Ui, attrs: FieldAttrs, value: &dyn Reflect, path: &str) {
        if attrs.color
            && let Some(parts) = color_parts(value)
        {
            return self.color(ui, &parts, path);
        }
        let vector = is_vector(value);
        match value.reflect_ref() {
            ReflectRef::Value(v) => match v.kind() {
                ValueKind::Bool => {
                    let old = v.as_f64() == Some(1.0);
                    let mut b = old;
                    if ui.checkbox(&mut b, "").changed() && b != old {
                        self.edits.push(Edit::Bool { path: path.to_owned(), value: b });
                    }
                }
                ValueKind::String | ValueKind::Char | ValueKind::Opaque => self.text(ui, value, path),
                ValueKind::Float(_) | ValueKind::Int(_) | ValueKind::Uint(_) => self.number(ui, value, attrs, path),
            },
            ReflectRef::Struct(s) if vector => {
                let fields = <dyn lore_reflect::Struct>::info(s).fields;
                for (i, f) in fields.iter().enumerate() {
                    if let Some(field) = s.field_at(i) {
                        ui.label(f.name);
                        let attrs = FieldAttrs { step: attrs.step, ..FieldAttrs::default() };
                        self.number(ui, field, attrs, &field_path(path, f.name));
                    }
                }
            }
            ReflectRef::Struct(s) => {
                let fields = <dyn lore_reflect::Struct>::info(s).fields;
                for (i, info) in fields.iter().enumerate() {
                    if let Some(field) = s.field_at(i) {
                        self.row(ui, info.name, info.docs, info.attrs, field, &field_path(path, info.name));
                    }
                }
            }
            ReflectRef::Enum(e) => {
                let info = <dyn lore_reflect::Enum>::info(e);
                let current = e.variant_index();
                let mut index = current;
                let shown = info.variants.get(current).map_or("?", |v| v.name);
                egui::ComboBox::from_id_salt(self.inspector.field_id(path)).selected_text(shown).show_ui(ui, |ui| {
                    for (i, v) in info.variants.iter().enumerate() {
                        let option = ui.selectable_value(&mut index, i, v.name);
                        if !v.docs.is_empty() {
                            option.on_hover_text(v.docs);
                        }
                    }
                });
                if index != current {
                    self.edits.push(Edit::Variant { path: path.to_owned(), index });
                }
                // The fields of the variant shown this frame (a switch shows its new fields on
                // the next frame).
                let fields = info.variants.get(current).map_or(&[][..], |v| v.fields);
                for (i, f) in fields.iter().enumerate() {
                    if let Some(field) = e.field_at(i) {
                        self.row(ui, f.name, f.docs, f.attrs, field, &field_path(path, f.name));
                    }
                }
            }
            ReflectRef::List(l) => {
                for i in 0..l.len() {
                    if let Some(element) = l.get(i) {
                        self.row(ui, &format!("[{i}]"), "", FieldAttrs::default(), element, &index_path(path, i));
                    }
                }
                let fixed = matches!(l.type_info().shape, Shape::List { fixed_len: Some(_), .. });
                if !fixed {
                    ui.horizontal(|ui| {
                        if ui.small_button("+").on_hover_text("add an element").clicked() {
                            self.edits.push(Edit::Push { path: path.to_owned() });
                        }
                        let remove = ui.add_enabled(!l.is_empty(), egui::Button::new("−").small());
                        if remove.on_hover_text("remove the last element").clicked() {
                            self.edits.push(Edit::Pop { path: path.to_owned() });
                        }
                    });
                }
            }
            ReflectRef::Map(m) => {
                for key in m.keys() {
                    if let Some(v) = m.get(&key) {
                        self.row(ui, &key, "", FieldAttrs::default(), v, &key_path(path, &key));
                    }
                }
            }
            ReflectRef::Set(set) => {
                // Set elements cannot change in place: shown read-only, one row each.
                for (i, element) in set.elements().into_iter().enumerate() {
                    ui.label(format!("[{i}] {}", element.to_text()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_back_as_lore_reflect_paths() {
        assert_eq!(field_path("", "speed"), "speed");
        assert_eq!(field_path("spawn", "x"), "spawn.x");
        assert_eq!(index_path("color", 2), "color[2]");
        let path = key_path("stats", r#"a "quoted" \ key"#);
        assert_eq!(path, r#"stats["a \"quoted\" \\ key"]"#);
        assert_eq!(part_paths(&[0.5f32, 1.0, 0.0], "tint"), ["tint[0]", "tint[1]", "tint[2]"]);
        assert!(part_paths(&7u8, "n").is_empty());
        let segments = lore_reflect::parse_path(&path).unwrap();
        assert_eq!(
            segments,
            [lore_reflect::PathSegment::Field("stats"), lore_reflect::PathSegment::Key(r#"a "quoted" \ key"#.into())]
        );
    }
}
