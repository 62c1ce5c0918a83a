//! The editor's model: a document, a selection, undo/redo and file commands. No drawing and no
//! UI here, so tests drive it directly.
//!
//! Undo steps hold only what changed (one thing, or the whole document for a load), so a
//! level of 100,000 things costs one copy of a thing per edit, not one copy of the level.
//!
//! Files are never lost: saves are atomic ([`crate::files`]), a document read from a file
//! saves back exactly what was read apart from the edits (lore-reflect keeps what it did not
//! understand in place), and saving over a file the session did not read or did not fully
//! understand (the built-in level over an existing file, a file that failed to load, a file
//! loaded with problems) needs the user to confirm by saving a second time.

use crate::{draw, files};
use lore_reflect::{Document, Problem, ProblemKind, Registry, Report, Thing};
use lore_render::glam::Vec2;
use std::collections::HashSet;
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
    /// Why saving over [`file`](Self::file) needs confirmation (`None`: the document came
    /// from the file, or was saved to it).
    protect: Option<String>,
    /// The user has been told why, and the next save goes ahead.
    confirmed: bool,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// Mouse offset from the dragged thing's anchor, while dragging.
    drag: Option<Vec2>,
}

/// One change to the document; applying it gives the change that undoes it.
#[derive(Debug)]
enum Change {
    /// Put this thing at `index` in place of the one there.
    Set { index: usize, thing: Thing },
    /// Insert this thing at `index`.
    Insert { index: usize, thing: Thing },
    /// Remove the thing at `index`.
    Remove { index: usize },
    /// Replace the whole document (a load).
    Document(Box<Document>),
}

/// An undo or redo step: the change and the selection to restore with it.
#[derive(Debug)]
struct Step {
    change: Change,
    selected: Option<usize>,
}

/// What [`Editor::save`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// The file was written.
    Saved,
    /// Nothing was written: the file holds something this session did not read; saving
    /// again confirms.
    NeedsConfirmation,
    /// Writing failed; the file is as it was.
    Failed,
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
            protect: None,
            confirmed: false,
            undo: Vec::new(),
            redo: Vec::new(),
            drag: None,
        }
    }

    fn push_undo(&mut self, change: Change, selected: Option<usize>) {
        self.undo.push(Step { change, selected });
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Applies `change` and returns the change that undoes it (`None` when it no longer fits
    /// the document).
    fn apply(&mut self, change: Change) -> Option<Change> {
        Some(match change {
            Change::Set { index, thing } => {
                let slot = self.doc.things.get_mut(index)?;
                Change::Set { index, thing: std::mem::replace(slot, thing) }
            }
            Change::Insert { index, thing } => {
                if index > self.doc.things.len() {
                    return None;
                }
                self.doc.things.insert(index, thing);
                Change::Remove { index }
            }
            Change::Remove { index } => {
                if index >= self.doc.things.len() {
                    return None;
                }
                Change::Insert { index, thing: self.doc.things.remove(index) }
            }
            Change::Document(doc) => Change::Document(Box::new(std::mem::replace(&mut self.doc, *doc))),
        })
    }

    /// A copy of thing `index`, for an undo step.
    fn copy_of(&self, index: usize) -> Option<Thing> {
        self.doc.things.get(index)?.duplicate(&self.registry).ok()
    }

    /// Records thing `index` as it is now, so that the change about to be made to it can be
    /// undone. Call before changing it.
    pub fn checkpoint_thing(&mut self, index: usize) {
        if let Some(thing) = self.copy_of(index) {
            self.push_undo(Change::Set { index, thing }, self.selected);
        }
    }

    /// Records `before`, a copy of thing `index` taken before a change that has now happened
    /// (the inspector's edits), as an undo step.
    pub fn checkpoint_from(&mut self, index: usize, before: Thing, selected_before: Option<usize>) {
        self.push_undo(Change::Set { index, thing: before }, selected_before);
    }

    /// A copy of the selected thing (for [`checkpoint_from`](Self::checkpoint_from)).
    #[must_use]
    pub fn selected_copy(&self) -> Option<(usize, Thing)> {
        let index = self.selected?;
        Some((index, self.copy_of(index)?))
    }

    fn step_history(&mut self, undo: bool) -> bool {
        let popped = if undo { self.undo.pop() } else { self.redo.pop() };
        let Some(step) = popped else { return false };
        let selected = self.selected;
        let Some(inverse) = self.apply(step.change) else { return false };
        let back = Step { change: inverse, selected };
        if undo {
            self.redo.push(back);
        } else {
            self.undo.push(back);
        }
        self.selected = step.selected.filter(|&i| i < self.doc.things.len());
        true
    }

    /// Undoes the last change; false when there is none.
    pub fn undo(&mut self) -> bool {
        let done = self.step_history(true);
        if done {
            self.status = "undone".into();
        }
        done
    }

    /// Redoes the last undone change; false when there is none.
    pub fn redo(&mut self) -> bool {
        let done = self.step_history(false);
        if done {
            self.status = "redone".into();
        }
        done
    }

    /// How many steps can be undone and redone.
    #[must_use]
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Replaces the document with `xml`, keeping what loads and reporting the rest. Undoable.
    ///
    /// The document is not taken to come from [`file`](Self::file): saving over an existing
    /// file afterwards needs confirmation (see [`save`](Self::save)).
    ///
    /// # Errors
    /// When `xml` is not a document at all; nothing changes then.
    pub fn load_xml(&mut self, xml: &str) -> Result<Report, lore_reflect::LoadError> {
        let (doc, report) = Document::from_xml(xml, &self.registry)?;
        let old = std::mem::replace(&mut self.doc, doc);
        self.push_undo(Change::Document(Box::new(old)), self.selected);
        self.selected = None;
        self.protect = Some("it was not read by this session".into());
        self.confirmed = false;
        let n = self.doc.things.len();
        let notes = match report.notes_total() {
            0 => String::new(),
            1 => " (1 parameter missing, default used)".to_string(),
            m => format!(" ({m} parameters missing, defaults used)"),
        };
        self.status = match report.problems.first() {
            None => format!("loaded {n} things{notes}"),
            Some(first) => format!("loaded {n} things{notes}, {} problems: {first}", report.total()),
        };
        Ok(report)
    }

    /// Why saving over a file that loaded with `report` needs confirmation: what the editor
    /// did not understand (kept as written, but not shown as values), named.
    fn partly_understood(report: &Report) -> String {
        let mut what = Vec::new();
        for p in report.problems.iter().take(3) {
            let mut item = format!("line {}", p.line);
            if !p.thing.is_empty() {
                item.push_str(&format!(" ({:?})", p.thing));
            }
            item.push_str(": ");
            item.push_str(&match &p.reason {
                ProblemKind::UnexpectedElement(e) => format!("element <{e}>"),
                ProblemKind::UnknownKind => format!("kind {}", p.kind),
                ProblemKind::UnknownParameter => format!("parameter `{}`", p.parameter.as_deref().unwrap_or("?")),
                ProblemKind::BadValue(_) => format!("value of `{}`", p.parameter.as_deref().unwrap_or("?")),
                ProblemKind::UnknownAttribute(a) => format!("attribute `{a}`"),
                ProblemKind::LostThing { name, .. } => format!("thing {name:?} inside another element"),
                other => Problem { reason: other.clone(), ..p.clone() }.to_string(),
            });
            what.push(item);
        }
        let more = report.total().saturating_sub(what.len());
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        format!(
            "it was only partly understood ({}{more}): nothing of it is lost, it is written back as it was, \
             but the editor does not show it (fields it meant to set show their defaults here)",
            what.join(", ")
        )
    }

    /// Saves to [`file`](Self::file), atomically: on any failure the file is untouched.
    ///
    /// When the file exists and holds something this session did not read or did not fully
    /// understand (the editor started on the built-in level, loading the file failed, or it
    /// loaded with problems), nothing is written the first time: [`status`](Self::status) says
    /// why, naming what was not understood, and saving again confirms.
    pub fn save(&mut self) -> SaveOutcome {
        let file = self.file.display().to_string();
        if let Some(reason) = &self.protect
            && !self.confirmed
            && self.file.exists()
        {
            self.confirmed = true;
            self.status = format!("not saved: {file} exists and {reason}; save again to replace it");
            return SaveOutcome::NeedsConfirmation;
        }
        let xml = match self.doc.try_to_xml() {
            Ok(xml) => xml,
            Err(e) => {
                self.status = format!("not saved ({file} is untouched): {e}");
                return SaveOutcome::Failed;
            }
        };
        match files::write_atomic(&self.file, xml.as_bytes()) {
            Ok(()) => {
                self.protect = None;
                self.confirmed = false;
                self.status = format!("saved {file}");
                SaveOutcome::Saved
            }
            Err(e) => {
                self.status = format!("could not save {file}: {}; the file on disk is untouched", e.source);
                SaveOutcome::Failed
            }
        }
    }

    /// Loads from [`file`](Self::file) (Ctrl+O). When the file cannot be read or loaded, the
    /// document stays as it was and saving over the file needs confirmation; so does a file
    /// that loaded with problems (parts the editor did not understand: kept and written back as
    /// they were, but a save should not surprise the user). Missing parameters are not problems.
    pub fn load(&mut self) {
        let file = self.file.display().to_string();
        match std::fs::read_to_string(&self.file) {
            Ok(text) => match self.load_xml(&text) {
                Ok(report) if report.is_clean() => self.protect = None,
                Ok(report) => {
                    self.protect = Some(Self::partly_understood(&report));
                    self.confirmed = false;
                }
                Err(e) => {
                    self.status = format!("could not load {file}: {e}");
                    self.protect = Some(format!("could not be loaded ({e})"));
                    self.confirmed = false;
                }
            },
            Err(e) => {
                self.status = format!("could not read {file}: {e}");
                self.protect = Some(format!("could not be read ({e})"));
                self.confirmed = false;
            }
        }
    }

    /// Opens [`file`](Self::file) at the start of a session: loads it, or starts an empty
    /// level when it does not exist (the first save creates it). History starts empty.
    pub fn open(&mut self) {
        if self.file.exists() {
            self.load();
        } else {
            self.doc = Document::new();
            self.protect = None;
            self.status = format!("new level: {} is created on the first save", self.file.display());
        }
        self.undo.clear();
        self.redo.clear();
        self.selected = None;
    }

    /// Marks the document as not read from [`file`](Self::file) (the built-in level): saving
    /// over an existing file needs confirmation.
    pub fn protect_file(&mut self, reason: &str) {
        self.protect = Some(reason.to_string());
        self.confirmed = false;
    }

    /// Adds a default thing of `kind` at `at`, selects it and returns its index.
    ///
    /// # Errors
    /// When `kind` is not registered.
    pub fn add(&mut self, kind: &str, at: Vec2) -> Result<usize, lore_reflect::Error> {
        let mut thing = Thing::create(&self.registry, kind, "")?;
        thing.name = self.fresh_name(kind);
        if let Some(anchor) = draw::anchor(&*thing.value) {
            draw::translate(&mut *thing.value, at - anchor);
        }
        let index = self.doc.things.len();
        self.push_undo(Change::Remove { index }, self.selected);
        self.doc.things.push(thing);
        self.selected = Some(index);
        Ok(index)
    }

    fn fresh_name(&self, kind: &str) -> String {
        let base = kind.to_lowercase();
        let taken: HashSet<&str> = self.doc.things.iter().map(|t| t.name.as_str()).collect();
        (1..).map(|n| format!("{base} {n}")).find(|n| !taken.contains(n.as_str())).unwrap_or(base)
    }

    /// Deletes the selected thing.
    pub fn delete(&mut self) -> bool {
        let Some(i) = self.selected.filter(|&i| i < self.doc.things.len()) else { return false };
        let thing = self.doc.things.remove(i);
        self.push_undo(Change::Insert { index: i, thing }, self.selected);
        self.selected = None;
        true
    }

    /// Duplicates the selected thing next to it and selects the copy.
    pub fn duplicate(&mut self) -> bool {
        let Some(i) = self.selected.filter(|&i| i < self.doc.things.len()) else { return false };
        let Ok(mut copy) = self.doc.things[i].duplicate(&self.registry) else { return false };
        // A new thing: written in the canonical form, not as a second copy of the original's text.
        copy.forget_source();
        copy.name = self.fresh_name(copy.kind());
        draw::translate(&mut *copy.value, Vec2::new(1.5, -1.5));
        let index = self.doc.things.len();
        self.push_undo(Change::Remove { index }, self.selected);
        self.doc.things.push(copy);
        self.selected = Some(index);
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
            self.checkpoint_thing(i);
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
        if self.drag.take().is_none() {
            return;
        }
        let unchanged = match (self.undo.last(), self.selected) {
            (Some(Step { change: Change::Set { index, thing }, .. }), Some(i)) if *index == i => {
                self.doc.things.get(i).is_some_and(|now| same_thing(now, thing))
            }
            _ => false,
        };
        if unchanged {
            self.undo.pop();
        }
    }

    /// Whether a drag is under way.
    #[must_use]
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// Sets a parameter of the selected thing from text, as the post's `setValueString`. Undoable;
    /// on error nothing changes (reading text is all or nothing).
    ///
    /// # Errors
    /// The reflection error (path and expected type) when the text does not fit.
    pub fn set_selected(&mut self, path: &str, text: &str) -> Result<(), lore_reflect::Error> {
        let Some(i) = self.selected.filter(|&i| i < self.doc.things.len()) else { return Ok(()) };
        let Some(before) = self.copy_of(i) else { return Ok(()) };
        self.doc.things[i].set_text(path, text)?;
        if !same_thing(&self.doc.things[i], &before) {
            self.push_undo(Change::Set { index: i, thing: before }, self.selected);
        }
        Ok(())
    }
}

/// Whether two things would save the same.
#[must_use]
pub fn same_thing(a: &Thing, b: &Thing) -> bool {
    a.name == b.name
        && a.kind() == b.kind()
        && a.value.to_text() == b.value.to_text()
        && a.unknown == b.unknown
        && a.rejected == b.rejected
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

    #[test]
    fn undo_steps_hold_one_thing_and_walk_back_edits_drags_and_loads() {
        let mut e = editor();
        let start = e.doc.to_xml();
        e.selected = Some(0);
        e.set_selected("color", "0 , 1 , 0 , 1").unwrap();
        assert!(e.set_selected("color", "1 , x , 0 , 1").is_err());
        assert_eq!(e.history(), (2, 0), "a failed edit changes nothing and leaves no step");
        let anchor = draw::anchor(&*e.doc.things[0].value).unwrap();
        e.press(anchor);
        e.drag_to(anchor + Vec2::new(2.0, 0.0));
        e.release();
        e.load_xml("<things/>").unwrap();
        assert!(e.doc.things.is_empty());
        assert!(e.undo() && e.undo() && e.undo());
        assert_eq!(e.doc.to_xml(), start);
        assert!(e.redo() && e.redo() && e.redo());
        assert!(e.doc.things.is_empty());
    }
}
