//! The kinds inspector in the window's side panel: the live kinds, edited through
//! lore-reflect-egui, all or nothing.

use lore_reflect_egui::{Changes, Edit, EditError, Part, edit_part, parts_panel};

use super::Dungeon;
use crate::kinds::Kinds;

/// The things of the kinds document, by name, in the inspector's order.
const THINGS: [Part<Kinds>; 5] = [
    ("player", |k| &mut k.player),
    ("wanderer", |k| &mut k.wanderer),
    ("chaser", |k| &mut k.chaser),
    ("bullet", |k| &mut k.bullet),
    ("key", |k| &mut k.key),
];

impl Dungeon {
    /// Opens or closes the kinds inspector in the window's side panel (open by default; key I
    /// toggles it).
    #[must_use]
    pub fn with_inspector(mut self, open: bool) -> Self {
        self.inspector_open = open;
        self
    }

    /// Whether the kinds inspector is open.
    #[must_use]
    pub fn inspector_open(&self) -> bool {
        self.inspector_open
    }

    /// The kinds the game runs with (the file's, or the inspector's edits of them).
    #[must_use]
    pub fn kinds(&self) -> &Kinds {
        &self.kinds
    }

    /// Applies inspector edits to the thing named `thing` (`player`, `wanderer`, `chaser`,
    /// `bullet`, `key`) of the live kinds, all or nothing: the edited kinds must pass
    /// [`Kinds::validate`] and the running game must take them, or nothing changes. Radii and
    /// speeds apply at once; enemy counts from the next level.
    ///
    /// # Errors
    /// The refused edit (a path that does not exist, a value out of the game's range), with
    /// the kinds left as they were.
    pub fn edit_kinds(&mut self, thing: &str, edits: &[Edit]) -> Result<Changes, EditError> {
        let game = &mut self.game;
        let (kinds, changes) = edit_part(&self.kinds, &THINGS, thing, edits, |kinds| {
            kinds.validate().map_err(|e| e.to_string())?;
            match game.as_mut() {
                Some(game) => game.set_kinds(kinds.clone()).map_err(|e| e.to_string()),
                None => Ok(()),
            }
        })?;
        self.kinds = kinds;
        Ok(changes)
    }

    /// The inspector of the live kinds: one block per thing of the kinds document, its fields
    /// laid out from reflection, edits applied through [`Dungeon::edit_kinds`].
    pub(super) fn kinds_inspector(&mut self, ui: &mut lore_render::egui::Ui) {
        use lore_render::egui;
        ui.label(
            egui::RichText::new(
                "Live values from assets/kinds.xml; an edit applies to the running game (the file is not rewritten).",
            )
            .small()
            .weak(),
        );
        let kinds = self.kinds.clone();
        let salt = "dungeon kinds";
        if let Some(result) =
            parts_panel(ui, salt, &kinds, &THINGS, &Kinds::registry(), |name, edits| self.edit_kinds(name, edits))
        {
            self.inspector_error = result;
        }
        if let Some(e) = &self.inspector_error {
            ui.colored_label(ui.visuals().error_fg_color, format!("refused, values kept: {e}"));
        }
    }
}
