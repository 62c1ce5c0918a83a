//! The egui inspector, generated from reflection: sliders from ranges, drag values, color
//! pickers for `#[reflect(color)]`, text fields, variant pickers for enums, lists with + and −.

use lore_reflect::{FieldAttrs, FieldInfo, Reflect, ReflectMut, ValueKind};
use lore_render::egui;

/// Edits every field of `value`; returns whether anything changed.
pub fn inspect(ui: &mut egui::Ui, value: &mut dyn Reflect) -> bool {
    let mut changed = false;
    match value.reflect_mut() {
        ReflectMut::Struct(s) => {
            let fields: &'static [FieldInfo] = <dyn lore_reflect::Struct>::info(s).fields;
            for (i, info) in fields.iter().enumerate() {
                if let Some(field) = s.field_at_mut(i) {
                    changed |= row(ui, info.name, info.docs, info.attrs, field);
                }
            }
        }
        _ => changed |= edit(ui, "value", FieldAttrs::default(), value),
    }
    changed
}

/// One labelled field: a line for leaves, vectors and colors, a collapsible block otherwise.
fn row(ui: &mut egui::Ui, name: &str, docs: &str, attrs: FieldAttrs, value: &mut dyn Reflect) -> bool {
    let inline = attrs.color
        || matches!(value.reflect_mut(), ReflectMut::Value(_))
        || is_vector(value)
        || matches!(value.reflect_mut(), ReflectMut::Enum(e) if e.field_count() == 0);
    ui.push_id(name, |ui| {
        if inline {
            ui.horizontal(|ui| {
                let label = ui.label(name);
                if !docs.is_empty() {
                    label.on_hover_text(docs);
                }
                edit(ui, name, attrs, value)
            })
            .inner
        } else {
            let header =
                egui::CollapsingHeader::new(name).default_open(true).show(ui, |ui| edit(ui, name, attrs, value));
            if !docs.is_empty() {
                header.header_response.on_hover_text(docs);
            }
            header.body_returned.unwrap_or(false)
        }
    })
    .inner
}

/// A struct whose fields are all numbers (glam vectors, small tuples).
fn is_vector(value: &mut dyn Reflect) -> bool {
    match value.reflect_mut() {
        ReflectMut::Struct(s) => {
            let n = s.field_count();
            (1..=4).contains(&n)
                && (0..n).all(|i| {
                    s.field_at_mut(i).is_some_and(|f| {
                        matches!(f.reflect_mut(), ReflectMut::Value(v) if v.as_f64().is_some() && v.kind() != ValueKind::Bool)
                    })
                })
        }
        _ => false,
    }
}

fn number(ui: &mut egui::Ui, v: &mut dyn lore_reflect::Value, attrs: FieldAttrs) -> bool {
    let Some(mut x) = v.as_f64() else { return false };
    let integer = matches!(v.kind(), ValueKind::Int(_) | ValueKind::Uint(_));
    let response = match attrs.range {
        Some((lo, hi)) => {
            let mut slider = egui::Slider::new(&mut x, lo..=hi);
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
            ui.add(egui::DragValue::new(&mut x).speed(speed))
        }
    };
    // A widget may snap a value to its own step and report a change the value type cannot
    // hold (2.0000000000000004 as f32): only a different stored value is an edit.
    let old = v.as_f64();
    response.changed() && v.set_f64(x) && v.as_f64() != old
}

/// Three or four numbers in a list or struct, as a color button.
fn color(ui: &mut egui::Ui, value: &mut dyn Reflect) -> Option<bool> {
    let ReflectMut::List(list) = value.reflect_mut() else { return None };
    if !(3..=4).contains(&list.len()) {
        return None;
    }
    let mut rgba = [1.0f32; 4];
    for (i, c) in rgba.iter_mut().enumerate().take(list.len()) {
        *c = list.get(i)?.downcast_ref::<f32>().copied()?;
    }
    // The button may round the color through 8-bit sRGB; only a user's change counts.
    if !ui.color_edit_button_rgba_unmultiplied(&mut rgba).changed() {
        return Some(false);
    }
    for (i, c) in rgba.iter().enumerate().take(list.len()) {
        if let Some(slot) = list.get_mut(i).and_then(|e| e.downcast_mut::<f32>()) {
            *slot = *c;
        }
    }
    Some(true)
}

/// The widget for one value.
fn edit(ui: &mut egui::Ui, name: &str, attrs: FieldAttrs, value: &mut dyn Reflect) -> bool {
    if attrs.color
        && let Some(changed) = color(ui, value)
    {
        return changed;
    }
    let vector = is_vector(value);
    match value.reflect_mut() {
        ReflectMut::Value(v) => match v.kind() {
            ValueKind::Bool => {
                let mut b = v.as_f64() == Some(1.0);
                ui.checkbox(&mut b, "").changed() && v.set_f64(f64::from(u8::from(b)))
            }
            ValueKind::String | ValueKind::Char | ValueKind::Opaque => {
                let mut text = String::new();
                v.write_text(&mut text);
                ui.text_edit_singleline(&mut text).changed() && v.parse_text(&text).is_ok()
            }
            ValueKind::Float(_) | ValueKind::Int(_) | ValueKind::Uint(_) => number(ui, v, attrs),
        },
        ReflectMut::Struct(s) if vector => {
            let fields = <dyn lore_reflect::Struct>::info(s).fields;
            let mut changed = false;
            for (i, f) in fields.iter().enumerate() {
                if let Some(ReflectMut::Value(v)) = s.field_at_mut(i).map(|x| x.reflect_mut()) {
                    ui.label(f.name);
                    changed |= number(ui, v, FieldAttrs { step: attrs.step, ..FieldAttrs::default() });
                }
            }
            changed
        }
        ReflectMut::Struct(s) => inspect(ui, s.as_reflect_mut()),
        ReflectMut::Enum(e) => {
            let info = <dyn lore_reflect::Enum>::info(e);
            let mut index = e.variant_index();
            egui::ComboBox::from_id_salt(name).selected_text(info.variants[index].name).show_ui(ui, |ui| {
                for (i, v) in info.variants.iter().enumerate() {
                    ui.selectable_value(&mut index, i, v.name).on_hover_text(v.docs);
                }
            });
            let mut changed = false;
            if index != e.variant_index() {
                changed = e.set_variant(index);
            }
            let fields = info.variants[e.variant_index()].fields;
            for (i, f) in fields.iter().enumerate() {
                if let Some(field) = e.field_at_mut(i) {
                    changed |= row(ui, f.name, f.docs, f.attrs, field);
                }
            }
            changed
        }
        ReflectMut::List(l) => {
            let mut changed = false;
            for i in 0..l.len() {
                if let Some(element) = l.get_mut(i) {
                    changed |= row(ui, &format!("[{i}]"), "", FieldAttrs::default(), element);
                }
            }
            let fixed = matches!(l.type_info().shape, lore_reflect::Shape::List { fixed_len: Some(_), .. });
            if !fixed {
                ui.horizontal(|ui| {
                    if ui.small_button("+").clicked() {
                        changed |= l.push_default();
                    }
                    if ui.add_enabled(!l.is_empty(), egui::Button::new("−").small()).clicked() {
                        changed |= l.remove(l.len() - 1);
                    }
                });
            }
            changed
        }
        ReflectMut::Map(m) => {
            let mut changed = false;
            let keys: Vec<String> = m.keys().into_iter().map(String::from).collect();
            for key in keys {
                if let Some(v) = m.get_mut(&key) {
                    changed |= row(ui, &key, "", FieldAttrs::default(), v);
                }
            }
            changed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_reflect::Registry;

    /// Lays the inspector out for every kind (enums, options, lists, colors, ranges), two
    /// frames each: nothing panics and nothing changes without input.
    #[test]
    fn every_kind_lays_out_without_changes() {
        let registry = Registry::linked().unwrap();
        assert!(registry.len() >= 5);
        let ctx = egui::Context::default();
        for kind in registry.kinds() {
            let mut value = kind.create();
            let before = value.to_text();
            for _ in 0..2 {
                let mut changed = false;
                let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                    changed |= inspect(ui, &mut *value);
                });
                output.textures_delta.clear(); // no renderer here to upload the font atlas

                assert!(!changed, "{} {} -> {}", kind.name(), before, value.to_text());
            }
            assert_eq!(value.to_text(), before);
        }
    }
}
