//! The editor's model: a document, a selection, undo/redo and file commands. No drawing and no
//! UI here, so tests drive it directly.

use crate::draw;
use lore_reflect::{Document, Registry, Report, Thing};
use lore_render::glam::Vec2;
use std::path::PathBuf;

/// Undo keeps at most this many steps.
const MAX_UNDO: usize = 200;

/// The editing session.
#[derive(Debug)]
pub struct Editor {
    /// Every kind linked into the program.
    pub registry: Registry,
    /// The things being edited.
    pub doc: Document,
    /// Index of the selected thing.
    pub selected: Option<usize>,
    /// The file Save and Load use.
    pub file: PathBuf,
    /// The last message for the user (a load report, a save confirmation, an error).
    pub status: String,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// Mouse offset from the dragged thing's anchor, while dragging.
    drag: Option<Vec2>,
}

/// A document state: its XML and the selection.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    xml: String,
    selected: Option<usize>,
}

impl Editor {
    /// An empty session with every linked kind.
    ///
    /// # Panics
    /// When two linked kinds share a name (a bug in the program, not in its input).
    #[must_use]
    pub fn new(file: PathBuf) -> Self {
        let registry = Registry::linked().expect("the editor's kinds have distinct names");
        Self {
            registry,
            doc: Document::new(),
            selected: None,
            file,
            status: String::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            drag: None,
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { xml: self.doc.to_xml(), selected: self.selected }
    }

    fn restore(&mut self, s: &Snapshot) {
        // Snapshots were written by this session with these kinds: they load cleanly.
        if let Ok((doc, _)) = Document::from_xml(&s.xml, &self.registry) {
            self.doc = doc;
            self.selected = s.selected.filter(|&i| i < self.doc.things.len());
        }
    }

    /// Records the current state so the next change can be undone. Call before changing.
    pub fn checkpoint(&mut self) {
        let s = self.snapshot();
        if self.undo.last() != Some(&s) {
            self.undo.push(s);
            if self.undo.len() > MAX_UNDO {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
    }

    /// Records a state captured before a change that has now happened (the inspector's edits).
    pub fn checkpoint_from(&mut self, xml_before: String, selected_before: Option<usize>) {
        self.undo.push(Snapshot { xml: xml_before, selected: selected_before });
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes the last change; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(s) = self.undo.pop() else { return false };
        self.redo.push(self.snapshot());
        self.restore(&s);
        self.status = "undone".into();
        true
    }

    /// Redoes the last undone change; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(s) = self.redo.pop() else { return false };
        self.undo.push(self.snapshot());
        self.restore(&s);
        self.status = "redone".into();
        true
    }

    /// How many steps can be undone and redone.
    #[must_use]
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Replaces the document with `xml`, keeping what loads and reporting the rest. Undoable.
    pub fn load_xml(&mut self, xml: &str) -> Result<Report, lore_reflect::LoadError> {
        let (doc, report) = Document::from_xml(xml, &self.registry)?;
        self.checkpoint();
        self.doc = doc;
        self.selected = None;
        self.status = if report.is_clean() {
            format!("loaded {} things", self.doc.things.len())
        } else {
            format!(
                "loaded {} things, {} problems: {}",
                self.doc.things.len(),
                report.problems.len(),
                report.problems[0]
            )
        };
        Ok(report)
    }

    /// Saves to [`file`](Self::file).
    pub fn save(&mut self) {
        self.status = match std::fs::write(&self.file, self.doc.to_xml()) {
            Ok(()) => format!("saved {}", self.file.display()),
            Err(e) => format!("could not save {}: {e}", self.file.display()),
        };
    }

    /// Loads from [`file`](Self::file).
    pub fn load(&mut self) {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => {
                if let Err(e) = self.load_xml(&text) {
                    self.status = format!("could not load {}: {e}", self.file.display());
                }
            }
            Err(e) => self.status = format!("could not read {}: {e}", self.file.display()),
        }
    }

    /// Adds a default thing of `kind` at `at`, selects it and returns its index.
    ///
    /// # Errors
    /// When `kind` is not registered.
    pub fn add(&mut self, kind: &str, at: Vec2) -> Result<usize, lore_reflect::Error> {
        let mut thing = Thing::create(&self.registry, kind, "")?;
        self.checkpoint();
        thing.name = self.fresh_name(kind);
        if let Some(anchor) = draw::anchor(&*thing.value) {
            draw::translate(&mut *thing.value, at - anchor);
        }
        self.doc.things.push(thing);
        let index = self.doc.things.len() - 1;
        self.selected = Some(index);
        Ok(index)
    }

    fn fresh_name(&self, kind: &str) -> String {
        let base = kind.to_lowercase();
        (1..).map(|n| format!("{base} {n}")).find(|n| self.doc.get(n).is_none()).unwrap_or(base)
    }

    /// Deletes the selected thing.
    pub fn delete(&mut self) -> bool {
        let Some(i) = self.selected.filter(|&i| i < self.doc.things.len()) else { return false };
        self.checkpoint();
        self.doc.things.remove(i);
        self.selected = None;
        true
    }

    /// Duplicates the selected thing next to it and selects the copy.
    pub fn duplicate(&mut self) -> bool {
        let Some(i) = self.selected.filter(|&i| i < self.doc.things.len()) else { return false };
        let Ok(mut copy) = self.doc.things[i].duplicate(&self.registry) else { return false };
        self.checkpoint();
        copy.name = self.fresh_name(copy.kind());
        draw::translate(&mut *copy.value, Vec2::new(1.5, -1.5));
        self.doc.things.push(copy);
        self.selected = Some(self.doc.things.len() - 1);
        true
    }

    /// Selects the next thing (Tab, as in the post's editor).
    pub fn select_next(&mut self) {
        let n = self.doc.things.len();
        self.selected = if n == 0 { None } else { Some(self.selected.map_or(0, |i| (i + 1) % n)) };
    }

    /// The topmost thing under world point `p`.
    #[must_use]
    pub fn pick(&self, p: Vec2) -> Option<usize> {
        self.doc.things.iter().rposition(|t| draw::hit(&*t.value, p))
    }

    /// Mouse pressed at `p`: select what is there and start dragging it.
    pub fn press(&mut self, p: Vec2) {
        self.selected = self.pick(p);
        self.drag = None;
        if let Some(i) = self.selected
            && let Some(anchor) = draw::anchor(&*self.doc.things[i].value)
        {
            self.checkpoint();
            self.drag = Some(p - anchor);
        }
    }

    /// Mouse held at `p`: move the dragged thing.
    pub fn drag_to(&mut self, p: Vec2) {
        let (Some(offset), Some(i)) = (self.drag, self.selected) else { return };
        let Some(thing) = self.doc.things.get_mut(i) else { return };
        if let Some(anchor) = draw::anchor(&*thing.value) {
            draw::translate(&mut *thing.value, p - offset - anchor);
        }
    }

    /// Mouse released: stop dragging (a click that moved nothing leaves no undo step).
    pub fn release(&mut self) {
        if self.drag.take().is_some() && self.undo.last().is_some_and(|s| s.xml == self.doc.to_xml()) {
            self.undo.pop();
        }
    }

    /// Whether a drag is under way.
    #[must_use]
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// Sets a parameter of the selected thing from text, as the post's `setValueString`. Undoable.
    ///
    /// # Errors
    /// The reflection error (path and expected type) when the text does not fit.
    pub fn set_selected(&mut self, path: &str, text: &str) -> Result<(), lore_reflect::Error> {
        let Some(i) = self.selected else { return Ok(()) };
        let before = self.snapshot();
        let result = self.doc.things[i].set_text(path, text);
        if result.is_ok() && self.doc.to_xml() != before.xml {
            self.undo.push(before);
            self.redo.clear();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor() -> Editor {
        let mut e = Editor::new(std::env::temp_dir().join("lore-editor-unit.xml"));
        e.load_xml(crate::LEVEL).unwrap();
        e
    }

    #[test]
    fn the_built_in_level_loads_cleanly() {
        let mut e = Editor::new(PathBuf::new());
        let report = e.load_xml(crate::LEVEL).unwrap();
        assert!(report.is_clean(), "{report}");
        assert!(e.doc.things.len() >= 6);
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let mut e = editor();
        let start = e.doc.to_xml();
        let n = e.doc.things.len();
        e.add("Disk", Vec2::new(3.0, 3.0)).unwrap();
        e.duplicate();
        assert_eq!(e.doc.things.len(), n + 2);
        e.delete();
        assert_eq!(e.doc.things.len(), n + 1);
        assert!(e.undo() && e.undo() && e.undo());
        assert_eq!(e.doc.to_xml(), start);
        assert!(e.redo());
        assert_eq!(e.doc.things.len(), n + 1);
    }

    #[test]
    fn click_selects_the_topmost_thing_and_drag_moves_it() {
        let mut e = Editor::new(PathBuf::new());
        let a = e.add("Disk", Vec2::ZERO).unwrap();
        let b = e.add("Disk", Vec2::new(1.0, 0.0)).unwrap();
        e.press(Vec2::new(0.8, 0.0));
        assert_eq!(e.selected, Some(b), "the later thing is on top");
        e.drag_to(Vec2::new(5.8, 2.0));
        e.release();
        let pos = e.doc.things[b].value.get::<Vec2>("position").copied().unwrap();
        assert!((pos - Vec2::new(6.0, 2.0)).length() < 1e-5, "{pos}");
        e.press(Vec2::new(-1.0, 0.0));
        assert_eq!(e.selected, Some(a));
        e.release();
        e.press(Vec2::new(-50.0, 0.0));
        assert_eq!(e.selected, None);
        let (undo, _) = e.history();
        e.press(Vec2::new(0.0, 0.0));
        e.release();
        assert_eq!(e.history().0, undo, "a click without a move leaves no undo step");
    }

    #[test]
    fn set_selected_reports_path_and_type() {
        let mut e = editor();
        e.selected = Some(0);
        let err = e.set_selected("color", "red").unwrap_err();
        assert!(err.to_string().contains("color"), "{err}");
        e.set_selected("color", "1 , 0 , 0.5 , 1").unwrap();
        assert_eq!(e.doc.things[0].value.text("color").unwrap(), "1 , 0 , 0.5 , 1");
    }

    #[test]
    fn save_and_load_round_trip() {
        let path = std::env::temp_dir().join(format!("lore-editor-{}.xml", std::process::id()));
        let mut e = editor();
        e.file = path.clone();
        e.save();
        let saved = e.doc.to_xml();
        e.delete();
        e.doc.things.clear();
        e.load();
        assert_eq!(e.doc.to_xml(), saved, "{}", e.status);
        let _ = std::fs::remove_file(path);
    }
}
