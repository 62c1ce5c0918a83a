//! The help overlay of the window: the controls every demo shares, then the demo's own
//! ([`Demo::help`]). It is open on the window's first frame; F1 or the panel's Help button
//! shows and hides it.

use crate::demo::Demo;

/// The controls of the window itself, as (input, what it does).
pub(crate) const SHARED: &[(&str, &str)] = &[
    ("right or middle drag", "pan the camera"),
    ("Home (panel)", "put the camera back"),
    ("Reset / Pause / Step (panel)", "restart with the seed, pause, single-step"),
    ("seed (panel)", "restart with another seed"),
    ("F1 or Help (panel)", "show or hide this help"),
];

/// The zoom line: the wheel zooms unless the demo takes the wheel itself.
fn wheel_line(demo: &dyn Demo) -> (&'static str, &'static str) {
    if demo.wants_wheel() {
        ("mouse wheel", "used by the demo (see below); no camera zoom")
    } else {
        ("mouse wheel", "zoom at the pointer")
    }
}

/// Every line of the overlay for `demo`: the shared controls, the wheel, then the demo's own.
pub(crate) fn lines(demo: &dyn Demo) -> Vec<(&'static str, &'static str)> {
    let mut lines = SHARED.to_vec();
    lines.insert(1, wheel_line(demo));
    lines.extend_from_slice(demo.help());
    lines
}

/// Shows the overlay over the scene while `open` is true (its close button clears it); it
/// appears and goes at once, with no fading.
pub(crate) fn show(ctx: &egui::Context, demo: &dyn Demo, open: &mut bool) {
    if !*open {
        return;
    }
    let lines = lines(demo);
    let shared = SHARED.len() + 1;
    egui::Window::new("Help")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .fade_in(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            egui::Grid::new("lore-help").num_columns(2).striped(true).show(ui, |ui| {
                for (i, (input, action)) in lines.iter().enumerate() {
                    if i == shared {
                        ui.strong(demo.name());
                        ui.end_row();
                    }
                    ui.monospace(*input);
                    ui.label(*action);
                    ui.end_row();
                }
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glyphs::{default_context, missing_glyphs};
    use crate::{Batch, Input};

    struct Painter;

    impl Demo for Painter {
        fn name(&self) -> &'static str {
            "painter"
        }
        fn reset(&mut self, _seed: u64) {}
        fn step(&mut self, _input: &Input) {}
        fn draw(&self, _batch: &mut Batch) {}
        fn wants_wheel(&self) -> bool {
            true
        }
        fn help(&self) -> &'static [(&'static str, &'static str)] {
            &[("left drag", "paint"), ("C", "clear the canvas")]
        }
    }

    #[test]
    fn the_overlay_lists_the_shared_controls_then_the_demos() {
        let lines = lines(&Painter);
        assert_eq!(lines.len(), SHARED.len() + 3);
        assert_eq!(lines[0], SHARED[0]);
        assert_eq!(lines[1].0, "mouse wheel");
        assert!(lines[1].1.contains("used by the demo"));
        assert_eq!(&lines[lines.len() - 2..], Painter.help());
    }

    #[test]
    fn the_overlay_is_painted_with_every_line_and_only_drawable_glyphs() {
        let ctx = default_context();
        let mut open = true;
        let mut texts = Vec::new();
        // Two frames: egui sizes a new window on its first.
        for _ in 0..2 {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| show(ui.ctx(), &Painter, &mut open));
            output.textures_delta.clear();
            texts = output
                .shapes
                .iter()
                .filter_map(|s| match &s.shape {
                    egui::Shape::Text(t) => Some(t.galley.job.text.clone()),
                    _ => None,
                })
                .collect();
        }
        for (input, action) in lines(&Painter) {
            assert!(texts.iter().any(|t| t == input), "{input} not painted");
            assert!(texts.iter().any(|t| t == action), "{action} not painted");
            assert_eq!(missing_glyphs(&ctx, input), Vec::<char>::new());
            assert_eq!(missing_glyphs(&ctx, action), Vec::<char>::new());
        }
        assert!(open);
    }
}
