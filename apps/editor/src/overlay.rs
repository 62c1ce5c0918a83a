//! The inspector drawn into the scene, for headless pictures (where egui panels are not shown):
//! the list of things and the selected thing's fields, read through reflection, with range bars
//! and color swatches.

use crate::draw::color_of;
use crate::editor::Editor;
use lore_reflect::{ReflectRef, TypeInfo};
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Color};

/// Panel width in pixels.
pub const WIDTH: f32 = 420.0;
/// Panel background.
pub const BACKGROUND: Color = Color::rgb(40, 44, 56);
/// The selected row's background in the things list.
pub const SELECTED_ROW: Color = Color::rgb(70, 90, 150);
/// Range bars' fill.
pub const BAR: Color = Color::rgb(90, 160, 240);

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max { text.to_string() } else { text.chars().take(max - 1).collect::<String>() + "…" }
}

/// A rectangle given in pixels (origin top left), drawn in world space.
fn pixel_rect(batch: &mut Batch, min: Vec2, max: Vec2, color: Color) {
    let (camera, viewport) = (*batch.camera(), batch.viewport());
    let a = camera.screen_to_world(min, viewport);
    let b = camera.screen_to_world(max, viewport);
    batch.rect(a.min(b), a.max(b), color);
}

/// Draws the panel on the right of the view.
pub fn draw(batch: &mut Batch, ed: &Editor) {
    let viewport = batch.viewport();
    let left = viewport.x - WIDTH - 12.0;
    pixel_rect(batch, vec2(left, 12.0), vec2(viewport.x - 12.0, viewport.y - 40.0), BACKGROUND);
    let text = Color::rgb(225, 228, 235);
    let dim = Color::rgb(150, 156, 170);
    let x = left + 14.0;
    let mut y = 34.0;
    batch.screen_text(vec2(x, y), "Things", 18.0, text);
    y += 26.0;
    for (i, thing) in ed.doc.things.iter().enumerate().take(12) {
        if ed.selected == Some(i) {
            pixel_rect(batch, vec2(left + 6.0, y - 10.0), vec2(viewport.x - 18.0, y + 10.0), SELECTED_ROW);
        }
        pixel_rect(batch, vec2(x, y - 6.0), vec2(x + 12.0, y + 6.0), color_of(&*thing.value));
        batch.screen_text(vec2(x + 20.0, y), format!("{:8} {}", thing.kind(), shorten(&thing.name, 24)), 14.0, text);
        y += 21.0;
    }
    y += 12.0;
    let Some(thing) = ed.selected.and_then(|i| ed.doc.things.get(i)) else {
        batch.screen_text(vec2(x, y), "Inspector: nothing selected", 16.0, dim);
        return;
    };
    let info: &TypeInfo = thing.value.type_info();
    batch.screen_text(vec2(x, y), format!("Inspector: {} \"{}\"", info.name, shorten(&thing.name, 18)), 18.0, text);
    y += 20.0;
    batch.screen_text(vec2(x, y), shorten(info.docs, 52), 13.0, dim);
    y += 24.0;
    let ReflectRef::Struct(s) = thing.value.reflect_ref() else { return };
    for (i, field) in s.info().fields.iter().enumerate() {
        let Some(value) = s.field_at(i) else { continue };
        batch.screen_text(vec2(x, y), field.name, 15.0, dim);
        let vx = x + 96.0;
        if field.attrs.color {
            pixel_rect(batch, vec2(vx, y - 8.0), vec2(vx + 40.0, y + 8.0), color_of(thing.value.as_ref()));
            batch.screen_text(vec2(vx + 50.0, y), shorten(&value.to_text(), 26), 15.0, text);
        } else if let (Some((lo, hi)), ReflectRef::Value(v)) = (field.attrs.range, value.reflect_ref()) {
            let t = v.as_f64().map_or(0.0, |x| ((x - lo) / (hi - lo)).clamp(0.0, 1.0)) as f32;
            pixel_rect(batch, vec2(vx, y - 7.0), vec2(vx + 190.0, y + 7.0), Color::rgb(60, 66, 82));
            pixel_rect(batch, vec2(vx, y - 7.0), vec2(vx + 190.0 * t.max(0.02), y + 7.0), BAR);
            batch.screen_text(vec2(vx + 200.0, y), shorten(&value.to_text(), 12), 15.0, text);
        } else {
            batch.screen_text(vec2(vx, y), shorten(&value.to_text(), 34), 15.0, text);
        }
        y += 24.0;
    }
    let (undo, redo) = ed.history();
    batch.screen_text(
        vec2(x, viewport.y - 58.0),
        format!("undo {undo} · redo {redo} · {}", shorten(&ed.status, 36)),
        13.0,
        dim,
    );
}
