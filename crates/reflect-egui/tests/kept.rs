//! What a thing holds without understanding it is shown read-only, with its problem, and
//! survives the inspector until the user chooses to replace it.

use egui::{Event, PointerButton, Pos2, RawInput, Shape};
use lore_reflect::{Document, Reflect, Registry};
use lore_reflect_egui::{Changes, Inspector};

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Lamp {
    power: f32,
    hue: u8,
}

const FILE: &str = r#"<things>
  <thing kind="Lamp" name="hall">
    <parameter name="power" value="lots"/>
    <glow>on</glow>
    <parameter name="hue" value="3"/>
    <parameter name="flicker" value="yes"/>
  </thing>
</things>"#;

/// Every piece of text drawn this frame, with where it was drawn.
fn texts(shapes: &[egui::epaint::ClippedShape]) -> Vec<(String, Pos2)> {
    fn walk(shape: &Shape, out: &mut Vec<(String, Pos2)>) {
        match shape {
            Shape::Text(t) => out.push((t.galley.text().to_owned(), t.pos + t.galley.rect.center().to_vec2())),
            Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}

fn frame(ctx: &egui::Context, thing: &mut lore_reflect::Thing, events: Vec<Event>) -> (Changes, Vec<(String, Pos2)>) {
    let mut changes = Changes::default();
    let input = RawInput { events, ..RawInput::default() };
    let mut out = ctx.run_ui(input, |ui| changes = Inspector::new("lamp").show_thing(ui, thing));
    out.textures_delta.clear(); // no renderer here to upload the font atlas
    (changes, texts(&out.shapes))
}

#[test]
fn unread_text_is_shown_read_only_with_its_problem_and_kept_until_replaced() {
    let mut registry = Registry::new();
    registry.register::<Lamp>().unwrap();
    let (mut doc, _) = Document::from_xml(FILE, &registry).unwrap();
    let ctx = egui::Context::default();
    let mut shown = Vec::new();
    for _ in 0..3 {
        let (changes, t) = frame(&ctx, &mut doc.things[0], Vec::new());
        assert!(changes.is_empty(), "{changes:?}");
        shown = t;
    }
    let has = |shown: &[(String, Pos2)], s: &str| shown.iter().any(|(t, _)| t.contains(s));
    // The value that did not read, in place of its widget, with why.
    assert!(has(&shown, "lots"), "{shown:?}");
    assert!(has(&shown, "cannot read \"lots\" as f32"), "{shown:?}");
    // The unknown element and parameter, as they will be saved.
    assert!(has(&shown, "<glow>on</glow>") && has(&shown, "flicker"), "{shown:?}");
    assert!(has(&shown, "has no parameter `flicker`"), "{shown:?}");
    // Showing changes nothing: the file saves back as it was.
    assert_eq!(doc.to_xml(), FILE);

    // `edit` gives the widget back: the unread text is dropped and the value the editor holds
    // is saved in its place.
    let (_, at) = shown.iter().find(|(t, _)| t == "edit").cloned().expect("an edit button");
    frame(&ctx, &mut doc.things[0], vec![Event::PointerMoved(at)]);
    let press =
        Event::PointerButton { pos: at, button: PointerButton::Primary, pressed: true, modifiers: Default::default() };
    frame(&ctx, &mut doc.things[0], vec![press]);
    let release =
        Event::PointerButton { pos: at, button: PointerButton::Primary, pressed: false, modifiers: Default::default() };
    let (changes, _) = frame(&ctx, &mut doc.things[0], vec![release]);
    assert_eq!(changes.paths(), ["power"]);
    let (_, shown) = frame(&ctx, &mut doc.things[0], Vec::new());
    assert!(!has(&shown, "lots"), "{shown:?}");
    assert_eq!(doc.to_xml(), FILE.replace(r#"value="lots""#, r#"value="0""#));
    assert!(has(&shown, "<glow>on</glow>"), "the rest is still kept");
}
