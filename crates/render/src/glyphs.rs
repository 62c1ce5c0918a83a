//! Which characters the bundled egui fonts can draw, so labels never show empty boxes.
//!
//! With the features lore builds egui with, its bundled fonts (Ubuntu-Light for text, Hack for
//! monospace) cover ASCII, Latin-1 and most of Latin Extended, Greek, Cyrillic, common
//! punctuation (— – … « » • ·) and the signs ± × ÷ ≤ ≥ ≠ ≈ √ ∞ ° € £. They do **not** cover
//! arrows (← → ↑ ↓ ↺), triangles (◀ ▶ ► ◄ ▸ ◂), media-control symbols (⏮ ⏭ ⏸ ⏹ ⏩ ⏪),
//! check marks or emoji: those draw as empty boxes. Words ("start", "back", "next", "end") or
//! ASCII ("|<", "<", ">", ">|") always render. [`missing_glyphs`] tells, for any text, which
//! characters would not render: use it in a test of an app's labels.

/// The characters of `text` that no font of `ctx` in the proportional family can draw (each
/// once, in order of appearance; whitespace and control characters are never reported).
/// `ctx` needs its fonts: any context that has run one frame has them.
#[must_use]
pub fn missing_glyphs(ctx: &egui::Context, text: &str) -> Vec<char> {
    let font = egui::FontId::proportional(14.0);
    let mut missing = Vec::new();
    ctx.fonts_mut(|fonts| {
        for c in text.chars() {
            if !c.is_whitespace() && !c.is_control() && !missing.contains(&c) && !fonts.has_glyph(&font, c) {
                missing.push(c);
            }
        }
    });
    missing
}

/// A context with egui's default fonts loaded (one empty frame run).
#[must_use]
pub fn default_context() -> egui::Context {
    let ctx = egui::Context::default();
    let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
    output.textures_delta.clear(); // nothing to upload: no renderer here
    ctx
}

/// Characters the bundled fonts draw, as documented above (checked by a test).
#[cfg(test)]
pub(crate) const COVERED: &str =
    "AZaz09 !?&%@#*+-=/\\|<>[](){}_~^'\"`:;.,é à ü ñ ß ø Ω π λ Ж я — – … « » • · ± × ÷ ≤ ≥ ≠ ≈ √ ∞ ° € £";

/// Characters the bundled fonts lack, as documented above (checked by a test).
#[cfg(test)]
pub(crate) const NOT_COVERED: &str = "⏮◀▶⏭⏴⏵⏸⏹⏩⏪←→↑↓↺⟲▸◂►◄☐✔🔍";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_glyphs_are_the_fonts_glyphs() {
        let ctx = default_context();
        assert_eq!(missing_glyphs(&ctx, COVERED), Vec::<char>::new());
        assert_eq!(missing_glyphs(&ctx, NOT_COVERED), NOT_COVERED.chars().collect::<Vec<_>>());
    }

    #[test]
    fn each_missing_character_is_reported_once() {
        let ctx = default_context();
        assert_eq!(missing_glyphs(&ctx, "▶ play ▶ ⏭\n"), vec!['▶', '⏭']);
    }
}
