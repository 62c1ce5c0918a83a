//! The inspector driven headless: egui frames with scripted input, then the value checked.

use std::collections::BTreeMap;

use egui::{Event, Key, Modifiers, RawInput};
use lore_reflect::Reflect;
use lore_reflect_egui::{Changes, Inspector};

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
enum Brain {
    #[default]
    Idle,
    /// Runs at the player it sees.
    Chase {
        /// Tiles.
        sight: f32,
    },
    Patrol(u32),
}

/// A tuple struct of numbers: one line of drag values.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Point(f32, f32);

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Spawn {
    at: Point,
    /// Enemies per wave.
    #[reflect(range = 0.0..=100.0, step = 1.0)]
    count: u32,
}

/// A value with every shape the inspector draws.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Everything {
    /// Tiles per second.
    #[reflect(range = 0.0..=10.0, step = 0.5)]
    speed: f32,
    hp: i64,
    alive: bool,
    name: String,
    initial: char,
    #[reflect(color)]
    tint: [f32; 4],
    brain: Brain,
    next: Option<Brain>,
    spawn: Spawn,
    tags: Vec<String>,
    corners: [u8; 2],
    stats: BTreeMap<String, f64>,
}

fn everything() -> Everything {
    Everything {
        speed: 1.5,
        hp: -3,
        alive: true,
        name: "bat".into(),
        initial: 'b',
        tint: [1.0, 0.5, 0.25, 1.0],
        brain: Brain::Chase { sight: 6.0 },
        next: Some(Brain::Patrol(2)),
        spawn: Spawn { at: Point(1.0, 2.0), count: 12 },
        tags: vec!["cave".into(), "night".into()],
        corners: [1, 2],
        stats: BTreeMap::from([("armour \"plate\"".to_string(), 0.5), ("luck".into(), 2.0)]),
    }
}

fn key(key: Key) -> Event {
    Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers: Modifiers::NONE }
}

/// One frame of the inspector over `value` with `events`; the frame's changes.
fn frame(ctx: &egui::Context, inspector: Inspector, value: &mut dyn Reflect, events: Vec<Event>) -> Changes {
    let mut changes = Changes::default();
    let input = RawInput { events, ..RawInput::default() };
    let mut out = ctx.run_ui(input, |ui| changes = inspector.show(ui, value));
    out.textures_delta.clear(); // no renderer here to upload the font atlas
    changes
}

/// Focuses the text field of `path` (it must have been laid out once).
fn focus(ctx: &egui::Context, inspector: Inspector, path: &str) {
    ctx.memory_mut(|m| m.request_focus(inspector.field_id(path)));
}

#[test]
fn every_shape_lays_out_without_changing_anything() {
    let ctx = egui::Context::default();
    let inspector = Inspector::new("everything");
    let mut value = everything();
    for _ in 0..3 {
        let changes = frame(&ctx, inspector, &mut value, Vec::new());
        assert!(changes.is_empty() && changes.refused().is_none(), "{changes:?}");
    }
    assert_eq!(value, everything());
    // A bare leaf and a bare list are shown too.
    let mut n = 7u16;
    let mut list = vec![1.0f32, 2.0];
    for _ in 0..2 {
        assert!(frame(&ctx, Inspector::new("n"), &mut n, Vec::new()).is_empty());
        assert!(frame(&ctx, Inspector::new("list"), &mut list, Vec::new()).is_empty());
    }
    assert_eq!((n, list), (7, vec![1.0, 2.0]));
}

#[test]
fn typing_into_a_text_field_edits_the_value() {
    let ctx = egui::Context::default();
    let inspector = Inspector::new("typing");
    let mut value = everything();
    frame(&ctx, inspector, &mut value, Vec::new());
    focus(&ctx, inspector, "name");
    let changes = frame(&ctx, inspector, &mut value, vec![Event::Text("s".into())]);
    assert_eq!(changes.paths(), ["name"]);
    assert_eq!(value.name, "bats");
    // A list element and a map value are fields like any other.
    focus(&ctx, inspector, "tags[1]");
    frame(&ctx, inspector, &mut value, Vec::new());
    let changes = frame(&ctx, inspector, &mut value, vec![key(Key::Backspace), Event::Text("s".into())]);
    assert_eq!(changes.paths(), ["tags[1]"]);
    assert_eq!(value.tags, ["cave", "nighs"]);
    let mut rest = everything();
    rest.name = value.name.clone();
    rest.tags = value.tags.clone();
    assert_eq!(value, rest, "nothing else moved");
}

#[test]
fn text_that_does_not_read_is_refused_with_its_error_and_the_old_value_stays() {
    let ctx = egui::Context::default();
    let inspector = Inspector::new("refusal");
    let mut value = everything();
    frame(&ctx, inspector, &mut value, Vec::new());
    focus(&ctx, inspector, "initial");
    // 'b' then 'x': "bx" is not a char.
    let changes = frame(&ctx, inspector, &mut value, vec![Event::Text("x".into())]);
    assert!(changes.is_empty());
    let refused = changes.refused().expect("refused");
    assert_eq!(refused.path(), "initial");
    assert!(refused.to_string().contains("\"bx\""), "{refused}");
    assert_eq!(value, everything(), "the value is untouched");
    // The error stays under the field while the user fixes the text, and goes once it reads.
    frame(&ctx, inspector, &mut value, Vec::new());
    assert!(inspector.error(&ctx, "initial").is_some_and(|e| e.contains("char")));
    let changes =
        frame(&ctx, inspector, &mut value, vec![key(Key::Backspace), key(Key::Backspace), Event::Text("z".into())]);
    assert_eq!(changes.paths(), ["initial"]);
    assert_eq!(value.initial, 'z');
    assert_eq!(inspector.error(&ctx, "initial"), None);
}

#[test]
fn a_check_can_refuse_an_edit_and_the_error_shows_beside_the_field() {
    let ctx = egui::Context::default();
    let inspector = Inspector::new("checked");
    let mut value = everything();
    let named = |v: &dyn Reflect| match v.downcast_ref::<Everything>() {
        Some(e) if e.name.len() < 3 => Err(format!("a name needs three letters, {:?} has {}", e.name, e.name.len())),
        _ => Ok(()),
    };
    let run = |value: &mut Everything, events: Vec<Event>| {
        let mut changes = Changes::default();
        let input = RawInput { events, ..RawInput::default() };
        let mut out = ctx.run_ui(input, |ui| changes = inspector.show_checked(ui, value, named));
        out.textures_delta.clear();
        changes
    };
    run(&mut value, Vec::new());
    focus(&ctx, inspector, "name");
    let changes = run(&mut value, vec![key(Key::Backspace)]);
    assert_eq!(changes.refused().map(ToString::to_string).as_deref(), Some("a name needs three letters, \"ba\" has 2"));
    assert_eq!(value, everything());
    let changes = run(&mut value, vec![Event::Text("g".into())]);
    assert_eq!(changes.paths(), ["name"]);
    assert_eq!(value.name, "bag");
    assert_eq!(inspector.error(&ctx, "name"), None);
}

#[test]
fn leaving_a_refused_field_shows_the_value_again_and_keeps_the_error() {
    let ctx = egui::Context::default();
    let inspector = Inspector::new("leave");
    let mut value = everything();
    frame(&ctx, inspector, &mut value, Vec::new());
    focus(&ctx, inspector, "initial");
    frame(&ctx, inspector, &mut value, vec![Event::Text("x".into())]);
    // Enter leaves a single-line field.
    frame(&ctx, inspector, &mut value, vec![key(Key::Enter)]);
    frame(&ctx, inspector, &mut value, Vec::new());
    assert!(!ctx.memory(|m| m.has_focus(inspector.field_id("initial"))));
    assert!(inspector.error(&ctx, "initial").is_some());
    assert_eq!(value.initial, 'b');
    // Typing again starts from the value, not from the refused text.
    focus(&ctx, inspector, "initial");
    frame(&ctx, inspector, &mut value, Vec::new());
    let changes = frame(&ctx, inspector, &mut value, vec![key(Key::Backspace), Event::Text("q".into())]);
    assert_eq!(changes.paths(), ["initial"]);
    assert_eq!(value.initial, 'q');
}
