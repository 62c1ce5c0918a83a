//! The kinds inspector in the window's side panel: the live kinds, edited through
//! lore-reflect-egui, all or nothing.

use lore_reflect::Reflect;
use lore_reflect_egui::{Changes, Edit, EditError, Inspector};

use super::Platformer;
use crate::kinds::Kinds;

/// How the inspector reaches one thing of the kinds document.
type ThingOf = fn(&mut Kinds) -> &mut dyn Reflect;

/// The things of the kinds document, by name, in the inspector's order.
const THINGS: [(&str, ThingOf); 4] = [
    ("player", |k| &mut k.player),
    ("walker", |k| &mut k.walker),
    ("guard", |k| &mut k.guard),
    ("shot", |k| &mut k.shot),
];

impl Platformer {
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

    /// Applies inspector edits to the thing named `thing` (`player`, `walker`, `guard`, `shot`)
    /// of the live kinds, all or nothing: the edited kinds must pass [`Kinds::validate`] and the
    /// running game must take them, or nothing changes.
    ///
    /// # Errors
    /// The refused edit (a path that does not exist, a value out of the game's range), with the
    /// kinds left as they were.
    pub fn edit_kinds(&mut self, thing: &str, edits: &[Edit]) -> Result<Changes, EditError> {
        let Some(&(_, thing_of)) = THINGS.iter().find(|(name, _)| *name == thing) else {
            let path = edits.first().map_or_else(String::new, |e| e.path().to_owned());
            return Err(EditError::Refused { path, reason: format!("the kinds have no thing named {thing:?}") });
        };
        let mut kinds = self.kinds.clone();
        let changes = lore_reflect_egui::edit::apply(thing_of(&mut kinds), edits)?;
        let Some(first) = changes.paths().first() else { return Ok(changes) };
        let refused = |reason: String| EditError::Refused { path: first.clone(), reason };
        kinds.validate().map_err(|e| refused(e.to_string()))?;
        if let Some(game) = self.game.as_mut() {
            game.set_kinds(kinds.clone()).map_err(|e| refused(e.to_string()))?;
        }
        self.kinds = kinds;
        Ok(changes)
    }

    /// The inspector of the live kinds: one block per thing, its fields laid out from
    /// reflection, edits applied through [`Platformer::edit_kinds`].
    pub(super) fn kinds_inspector(&mut self, ui: &mut lore_render::egui::Ui) {
        use lore_render::egui;
        ui.label(
            egui::RichText::new(
                "Live values from assets/kinds.xml; an edit applies to the running game (the file is not rewritten).",
            )
            .small()
            .weak(),
        );
        let registry = Kinds::registry();
        let mut refused = None;
        for (name, thing_of) in THINGS {
            let mut shown = self.kinds.clone();
            let value = thing_of(&mut shown);
            let kind = value.type_info().name;
            let docs = registry.kind(kind).map_or("", |k| k.info().docs);
            let inspector = Inspector::new(("platformer kinds", name));
            let mut edits = Vec::new();
            let header = egui::CollapsingHeader::new(format!("{name}  ({kind})"))
                .id_salt(("platformer kinds", name))
                .default_open(true)
                .show(ui, |ui| edits = inspector.edits(ui, value));
            if !docs.is_empty() {
                header.header_response.on_hover_text(docs);
            }
            if !edits.is_empty() {
                let result = self.edit_kinds(name, &edits);
                inspector.report(ui.ctx(), &edits, &result);
                if let Err(e) = result {
                    refused = Some(format!("{name}: {e}"));
                } else {
                    self.inspector_error = None;
                }
            }
        }
        if refused.is_some() {
            self.inspector_error = refused;
        }
        if let Some(e) = &self.inspector_error {
            ui.colored_label(ui.visuals().error_fg_color, format!("refused, values kept: {e}"));
        }
    }
}
