//! `editor`: a small level editor in the spirit of "World Editor Beginnings", built on
//! [`lore_reflect`].
//!
//! - Things of registered kinds ([`kinds`], each registering itself from its own file) draw
//!   themselves from their reflected fields ([`draw`]).
//! - The inspector panel is generated from reflection by [`lore_reflect_egui`]: sliders from
//!   ranges, color pickers, text fields, variant pickers, lists; an edit that does not read is
//!   refused with its error and leaves the thing as it was.
//! - Add, delete, duplicate, select and drag with the mouse, Tab to cycle, undo/redo, save and
//!   load XML ([`editor`]).
//!
//! Headless, with no input, it plays a scripted session (select, recolor, add, duplicate, drag,
//! delete, undo) and draws the inspector into the scene ([`overlay`]) so the picture shows it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

pub mod draw;
pub mod editor;
/// Atomic saves: lore-render's atomic write, shared by every app that saves.
pub use lore_render::file as files;
pub mod kinds;
pub mod overlay;

use editor::Editor;
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Camera, Color, Demo, Input, Key, MouseButton, egui};
use std::path::PathBuf;

/// The level the editor starts with: every kind, in the XML shape of the post.
pub const LEVEL: &str = include_str!("level.xml");

/// The framed world area (the level's bounds).
pub const WORLD_MIN: Vec2 = Vec2::new(-16.0, -9.0);
/// The framed world area's upper corner.
pub const WORLD_MAX: Vec2 = Vec2::new(6.0, 9.0);
/// Names are drawn only while at most this many things are in view.
const MAX_LABELS: usize = 300;
/// With more things than this in view, each is drawn as its box (zoom in for the figures).
const MAX_DETAILED: usize = 10_000;
/// Things smaller than this many pixels are drawn as a dot.
const DOT_PIXELS: f32 = 3.0;
/// World room kept free on the right of the level for the in-scene inspector.
const PANEL_ROOM: f32 = 12.5;

/// The editor as a demo.
#[derive(Debug)]
pub struct EditorDemo {
    ed: Editor,
    frame: u32,
    /// Plays the scripted session until the user touches the scene or a key.
    autopilot: bool,
    /// Set once the egui panel has been shown (windowed): the in-scene inspector then hides.
    panel_shown: bool,
    /// An inspector edit is under way (a slider held): its frames make one undo step.
    edit_in_progress: bool,
    kind_to_add: String,
    /// Open the file at start (`--level FILE`) instead of showing the built-in level.
    open_file: bool,
}

/// The demo, saving to and loading from `level.xml` in the current folder.
#[must_use]
pub fn demo() -> Box<dyn Demo> {
    Box::new(EditorDemo::new(PathBuf::from("level.xml")))
}

/// The demo on the built-in level, saving to and loading from `file` (saving over an existing
/// `file` asks for confirmation first).
#[must_use]
pub fn demo_with_file(file: PathBuf) -> Box<dyn Demo> {
    Box::new(EditorDemo::new(file))
}

/// The editor on the user's `file`: opened at start (an empty level when it does not exist,
/// created on the first save), no scripted session.
#[must_use]
pub fn demo_opening(file: PathBuf) -> Box<dyn Demo> {
    Box::new(EditorDemo::opening(file))
}

impl EditorDemo {
    /// A new editor showing the built-in level, saving to `file` (call `reset` before
    /// stepping). Headless, it plays the scripted session.
    #[must_use]
    pub fn new(file: PathBuf) -> Self {
        Self {
            ed: Editor::new(file),
            frame: 0,
            autopilot: true,
            panel_shown: false,
            edit_in_progress: false,
            kind_to_add: "Disk".into(),
            open_file: false,
        }
    }

    /// A new editor that opens `file` on `reset` (see [`Editor::open`]); no scripted session.
    #[must_use]
    pub fn opening(file: PathBuf) -> Self {
        Self { open_file: true, autopilot: false, ..Self::new(file) }
    }

    /// The editing session.
    #[must_use]
    pub fn editor(&self) -> &Editor {
        &self.ed
    }

    fn select_named(&mut self, name: &str) {
        self.ed.selected = self.ed.doc.things.iter().position(|t| t.name == name);
    }

    /// One step of the scripted session (headless autopilot). Every edit goes through the same
    /// editor commands the mouse, keys and inspector use.
    fn script(&mut self) {
        let f = self.frame;
        let crate_from = vec2(-3.0, -3.0);
        let crate_to = vec2(-9.5, 0.5);
        match f {
            5 => self.select_named("sun"),
            15 => self.set("color", "1 , 0.55 , 0.2 , 1"),
            25 => self.set("points", "7"),
            35 => {
                let _ = self.ed.add("Disk", vec2(-12.5, -2.0));
            }
            40 => {
                self.set("radius", "1");
                self.set("color", "0.45 , 0.9 , 0.55 , 1");
            }
            50 => {
                self.ed.duplicate();
            }
            60 => self.ed.press(crate_from),
            61..=89 => self.ed.drag_to(crate_from.lerp(crate_to, (f - 60) as f32 / 30.0)),
            90 => {
                self.ed.drag_to(crate_to);
                self.ed.release();
            }
            95 => {
                self.select_named("rock");
                self.ed.delete();
            }
            100 => {
                self.ed.undo();
            }
            105 => self.select_named("sun"),
            _ => {}
        }
    }

    fn set(&mut self, path: &str, text: &str) {
        if let Err(e) = self.ed.set_selected(path, text) {
            self.ed.status = e.to_string();
        }
    }
}

impl Demo for EditorDemo {
    fn name(&self) -> &'static str {
        "editor"
    }

    fn description(&self) -> &'static str {
        "A level editor driven by reflection: an inspector from type info, undo/redo, XML save/load."
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("left click", "select a thing (any input ends the scripted session)"),
            ("left drag", "move the selected thing"),
            ("Tab", "select the next thing"),
            ("Backspace", "delete the selected thing"),
            ("Escape", "clear the selection"),
            ("Ctrl+Z / Ctrl+Y", "undo / redo"),
            ("Ctrl+D", "duplicate the selected thing"),
            ("Ctrl+S", "save the level (press again to replace a file it did not fully read)"),
            ("Ctrl+O", "load the level from its file"),
        ]
    }

    /// Only the scripted session moves on its own; an editor in a person's hands changes only
    /// on input, so its window sleeps while idle.
    fn animating(&self) -> bool {
        self.autopilot
    }

    fn reset(&mut self, _seed: u64) {
        let file = self.ed.file.clone();
        self.ed = Editor::new(file);
        self.frame = 0;
        if self.open_file {
            self.ed.open();
            self.autopilot = false;
            return;
        }
        if let Err(e) = self.ed.load_xml(LEVEL) {
            self.ed.status = format!("built-in level: {e}");
        }
        self.ed.selected = None;
        self.autopilot = true;
    }

    fn step(&mut self, input: &Input) {
        self.frame += 1;
        let control = input.key_down(Key::Control);
        let touched = input.button_pressed(MouseButton::Left)
            || [Key::Tab, Key::Backspace, Key::Escape].iter().any(|&k| input.key_pressed(k))
            || control;
        if touched {
            self.autopilot = false;
        }
        if self.autopilot {
            self.script();
            return;
        }
        if input.mouse_in_view && input.button_pressed(MouseButton::Left) {
            self.ed.press(input.mouse);
        } else if input.button_down(MouseButton::Left) && self.ed.dragging() {
            self.ed.drag_to(input.mouse);
        } else if !input.button_down(MouseButton::Left) && self.ed.dragging() {
            self.ed.release();
        }
        if input.key_pressed(Key::Tab) {
            self.ed.select_next();
        }
        if input.key_pressed(Key::Backspace) {
            self.ed.delete();
        }
        if input.key_pressed(Key::Escape) {
            self.ed.selected = None;
        }
        if control {
            if input.key_pressed(Key::Char('z')) {
                self.ed.undo();
            } else if input.key_pressed(Key::Char('y')) {
                self.ed.redo();
            } else if input.key_pressed(Key::Char('d')) {
                self.ed.duplicate();
            } else if input.key_pressed(Key::Char('s')) {
                let _ = self.ed.save();
            } else if input.key_pressed(Key::Char('o')) {
                self.ed.load();
            }
        }
    }

    fn draw(&self, batch: &mut Batch) {
        batch.rect_outline(WORLD_MIN, WORLD_MAX, 0.06, Color::rgb(60, 66, 80));
        // Only what is in view is drawn; a thing smaller than a few pixels is a dot, a crowd of
        // more than `MAX_DETAILED` things is drawn as boxes, and names are written only while
        // there are few enough to read. A level may hold 100,000 things: their figures and
        // labels (millions of triangles, rasterised on the CPU by a software driver), not the
        // level itself, are what a frame costs.
        let (view_min, view_max) = batch.visible_rect();
        let pixel = batch.pixel();
        let things = &self.ed.doc.things;
        let visible: Vec<(usize, Vec2, Vec2)> = things
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let (min, max) = draw::bounds(&*t.value)?;
                let inside = max.cmpge(view_min).all() && min.cmple(view_max).all();
                inside.then_some((i, min, max))
            })
            .collect();
        let labels = visible.len() <= MAX_LABELS;
        let detailed = visible.len() <= MAX_DETAILED;
        for (i, min, max) in visible {
            let (thing, selected) = (&things[i], self.ed.selected == Some(i));
            if (max - min).max_element() < DOT_PIXELS * pixel && !selected {
                let center = (min + max) * 0.5;
                batch.rect(center - Vec2::splat(pixel), center + Vec2::splat(pixel), draw::color_of(&*thing.value));
            } else if !detailed && !selected {
                // Too many in view to draw each figure: its box, two triangles.
                batch.rect(min, max, draw::color_of(&*thing.value));
            } else {
                draw::draw(batch, &*thing.value, &thing.name, selected, labels || selected);
            }
        }
        if !self.panel_shown {
            overlay::draw(batch, &self.ed);
        }
    }

    fn camera(&self) -> Camera {
        if self.panel_shown {
            Camera::fit(WORLD_MIN, WORLD_MAX, 0.03)
        } else {
            Camera::fit(WORLD_MIN, WORLD_MAX + Vec2::new(PANEL_ROOM, 0.0), 0.03)
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.panel_shown = true;
        // A copy of the selected thing only (not of the level), for the undo step of an edit.
        let before = self.ed.selected_copy();
        let selected_before = self.ed.selected;
        ui.horizontal(|ui| {
            if ui.button("Undo").clicked() {
                self.ed.undo();
            }
            if ui.button("Redo").clicked() {
                self.ed.redo();
            }
            if ui.button("Save").clicked() {
                let _ = self.ed.save();
            }
            if ui.button("Load").clicked() {
                self.ed.load();
            }
        });
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("kind").selected_text(self.kind_to_add.clone()).show_ui(ui, |ui| {
                for kind in self.ed.registry.kinds() {
                    ui.selectable_value(&mut self.kind_to_add, kind.name().to_string(), kind.name())
                        .on_hover_text(kind.info().docs);
                }
            });
            if ui.button("Add").clicked() {
                let _ = self.ed.add(&self.kind_to_add.clone(), Vec2::ZERO);
            }
            if ui.button("Duplicate").clicked() {
                self.ed.duplicate();
            }
            if ui.button("Delete").clicked() {
                self.ed.delete();
            }
        });
        ui.separator();
        ui.label("Things");
        // Only the visible rows are laid out: a level may hold 100,000 things.
        let row_height = ui.text_style_height(&egui::TextStyle::Button) + ui.spacing().item_spacing.y;
        let count = self.ed.doc.things.len();
        egui::ScrollArea::vertical().id_salt("things").max_height(180.0).show_rows(
            ui,
            row_height,
            count,
            |ui, rows| {
                for i in rows {
                    let t = &self.ed.doc.things[i];
                    let label = format!("{}  {}", t.kind(), t.name);
                    if ui.selectable_label(self.ed.selected == Some(i), label).clicked() {
                        self.ed.selected = Some(i);
                    }
                }
            },
        );
        ui.separator();
        let mut changed = false;
        if let Some(i) = self.ed.selected.filter(|&i| i < self.ed.doc.things.len()) {
            let thing = &mut self.ed.doc.things[i];
            ui.heading(format!("{} \"{}\"", thing.kind(), thing.name));
            ui.horizontal(|ui| {
                ui.label("name");
                if ui.text_edit_singleline(&mut thing.name).changed() {
                    // Names are saved in XML, which cannot carry NUL and most control characters.
                    thing.name.retain(lore_reflect::xml::is_xml_char);
                    changed = true;
                }
            });
            egui::ScrollArea::vertical().id_salt("inspector").show(ui, |ui| {
                // One inspector per thing: a refusal shown under a field belongs to that thing.
                // What the file held that the editor did not understand shows read-only.
                changed |= lore_reflect_egui::Inspector::new(("inspector", i)).show_thing(ui, thing).any();
            });
        } else {
            ui.label("Click a thing, or press Tab, to inspect it.");
        }
        ui.separator();
        ui.label(&self.ed.status);
        // Continuous edits (a slider drag) make one undo step: record the state before the
        // first changed frame, and start a new step once the pointer is released.
        if changed {
            self.autopilot = false;
            if !self.edit_in_progress {
                if let Some((index, thing)) = before {
                    self.ed.checkpoint_from(index, thing, selected_before);
                }
                self.edit_in_progress = true;
            }
        } else if !ui.ctx().input(|i| i.pointer.any_down()) {
            self.edit_in_progress = false;
        }
    }

    fn stats(&self) -> String {
        let (undo, redo) = self.ed.history();
        let selected = self
            .ed
            .selected
            .and_then(|i| self.ed.doc.things.get(i))
            .map_or_else(|| "nothing".to_string(), |t| format!("{} \"{}\"", t.kind(), t.name));
        format!("{} things, selected {selected}, undo {undo} / redo {redo}", self.ed.doc.things.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_panel_lays_out_and_leaves_the_document_alone() {
        let mut demo = EditorDemo::new(PathBuf::from("unused.xml"));
        demo.reset(1);
        demo.ed.selected = Some(4);
        let before = demo.ed.doc.to_xml();
        let ctx = egui::Context::default();
        for _ in 0..3 {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| demo.ui(ui));
            out.textures_delta.clear(); // no renderer here to upload the font atlas
        }
        assert!(demo.panel_shown, "the in-scene inspector gives way to the panel");
        assert_eq!(demo.ed.doc.to_xml(), before);
        assert_eq!(demo.ed.history(), (1, 0), "only the initial load is an undo step");
    }

    /// Lays the inspector out for every kind (enums, options, lists, colors, ranges), two
    /// frames each: nothing panics and nothing changes without input.
    #[test]
    fn every_kind_lays_out_in_the_inspector_without_changes() {
        let registry = lore_reflect::Registry::linked().unwrap();
        assert!(registry.len() >= 5);
        let ctx = egui::Context::default();
        for kind in registry.kinds() {
            let mut value = kind.create();
            let before = value.to_text();
            for _ in 0..2 {
                let mut changes = lore_reflect_egui::Changes::default();
                let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                    changes = lore_reflect_egui::Inspector::new(kind.name()).show(ui, &mut *value);
                });
                output.textures_delta.clear(); // no renderer here to upload the font atlas
                assert!(changes.is_empty(), "{} {} -> {}: {changes:?}", kind.name(), before, value.to_text());
            }
            assert_eq!(value.to_text(), before);
        }
    }

    #[test]
    fn keys_drive_the_editor_once_the_user_takes_over() {
        let mut demo = EditorDemo::new(PathBuf::from("unused.xml"));
        demo.reset(1);
        let n = demo.ed.doc.things.len();
        let mut input = Input::default();
        input.press_key(Key::Tab);
        demo.step(&input);
        assert!(!demo.autopilot);
        assert_eq!(demo.ed.selected, Some(0));
        input.end_step();
        input.release_key(Key::Tab);
        input.press_key(Key::Control);
        input.press_key(Key::Char('d'));
        demo.step(&input);
        assert_eq!(demo.ed.doc.things.len(), n + 1);
        input.end_step();
        input.release_key(Key::Char('d'));
        input.press_key(Key::Char('z'));
        demo.step(&input);
        assert_eq!(demo.ed.doc.things.len(), n);
    }
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
