//! F1 help for every demo of the showcase: each returns its keys from `Demo::help`, in glyphs
//! the window's font draws, and every key that changes what a demo draws is listed there.
//!
//! The second part is found by trying: two copies of a demo run from the same seed, one with
//! a key held, and when their drawings differ the key does something, so the help must name
//! it. It sees what reaches the drawing (not what only changes the side panel), which is what
//! a person pressing keys would look for.

use lore_render::glam::Vec2;
use lore_render::glyphs::{default_context, missing_glyphs};
use lore_render::{Batch, Input, Key, MouseButton};

/// Demos whose help is still missing, each with the reason; the test fails when one of them
/// gains help (so that it leaves this list) or when another demo has none. (Empty: every demo
/// has its help.)
const NO_HELP_YET: &[(&str, &str)] = &[];

/// Everything a demo may react to: the keys of `Key` and a left click at the camera's centre.
fn probes() -> Vec<(String, Input)> {
    let mut keys =
        vec![Key::Left, Key::Right, Key::Up, Key::Down, Key::Space, Key::Enter, Key::Escape, Key::Tab, Key::Backspace];
    keys.extend(('a'..='z').chain('0'..='9').map(Key::Char));
    let mut out: Vec<(String, Input)> = keys
        .into_iter()
        .map(|k| {
            let mut input = Input::default();
            input.press_key(k);
            (format!("{k:?}"), input)
        })
        .collect();
    let mut click = Input::default();
    click.mouse_in_view = true;
    click.press_button(MouseButton::Left);
    out.push(("left click".into(), click));
    out
}

/// Whether `help` names the probe `name` (a `Key`'s debug form, or "left click").
fn names(help: &[(&str, &str)], name: &str) -> bool {
    let tokens: Vec<String> = help
        .iter()
        .flat_map(|(input, _)| input.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect();
    let has = |t: &str| tokens.iter().any(|x| x == t);
    match name {
        "left click" => has("click") || has("mouse") || has("drag") || has("pointer"),
        "Left" | "Right" | "Up" | "Down" => has(&name.to_lowercase()) || has("arrows") || has("arrow"),
        _ => match name.strip_prefix("Char('").and_then(|c| c.chars().next()) {
            Some(c) => has(&c.to_string()) || ("wasd".contains(c) && has("wasd")),
            None => has(&name.to_lowercase()),
        },
    }
}

/// What a demo drew: its vertices and its labels' texts.
type Drawing = (Vec<lore_render::batch::Vertex>, Vec<String>);

/// The drawing of every demo (fresh, seed 7) after 5 quiet steps and 10 more with `input`
/// held (its presses on the first of them only), by name.
fn drawings(input: Option<&Input>) -> Vec<(&'static str, Drawing)> {
    lore_showcase::demos::all()
        .into_iter()
        .map(|mut demo| {
            demo.reset(7);
            let quiet = Input::default();
            for _ in 0..5 {
                demo.step(&quiet);
            }
            let mut held = input.cloned().unwrap_or_default();
            if held.mouse_in_view {
                held.mouse = demo.camera().center;
            }
            for _ in 0..10 {
                demo.step(&held);
                held.end_step();
            }
            let mut batch = Batch::new(demo.camera(), Vec2::new(1280.0, 720.0));
            demo.draw(&mut batch);
            // The labels without their digits: some show timings, which differ from run to run.
            let labels =
                batch.labels().iter().map(|l| l.text.chars().filter(|c| !c.is_ascii_digit()).collect()).collect();
            (demo.name(), (batch.vertices().to_vec(), labels))
        })
        .collect()
}

#[test]
fn every_demo_returns_help_in_drawable_glyphs() {
    let ctx = default_context();
    let demos = lore_showcase::demos::all();
    assert!(demos.len() >= 8, "{} demos", demos.len());
    for demo in &demos {
        let name = demo.name();
        let help = demo.help();
        if let Some((_, why)) = NO_HELP_YET.iter().find(|(n, _)| *n == name) {
            assert!(help.is_empty(), "{name} has help now: take it off NO_HELP_YET ({why})");
            continue;
        }
        assert!(!help.is_empty(), "{name}: Demo::help is empty, so F1 lists only the shared controls");
        for (input, action) in help {
            assert!(!input.is_empty() && !action.is_empty(), "{name}: an empty help line");
            for text in [input, action] {
                assert_eq!(missing_glyphs(&ctx, text), Vec::<char>::new(), "{name}: {text:?}");
            }
        }
    }
}

#[test]
fn every_key_that_changes_a_demo_is_in_its_help() {
    let helps: Vec<(&str, &[(&str, &str)])> =
        lore_showcase::demos::all().iter().map(|d| (d.name(), d.help())).collect();
    let quiet = drawings(None);
    // A demo must draw the same twice from one seed, or differences would mean nothing.
    for ((name, a), (_, b)) in quiet.iter().zip(drawings(None)) {
        assert!(*a == b, "{name}: two quiet runs from one seed draw differently");
    }
    let mut unlisted = Vec::new();
    let mut handled_total = 0;
    for (probe, input) in probes() {
        for (((name, drawn), (_, before)), (_, help)) in drawings(Some(&input)).iter().zip(&quiet).zip(&helps) {
            if NO_HELP_YET.iter().any(|(n, _)| n == name) || drawn == before {
                continue;
            }
            handled_total += 1;
            if !names(help, &probe) {
                unlisted.push(format!("{name}: {probe}"));
            }
        }
    }
    assert!(unlisted.is_empty(), "keys that change a demo but are not in its help: {unlisted:?}");
    eprintln!("{handled_total} (demo, key) pairs change a drawing");
    // The probe finds the keys the helps list (arrows, letters, Space, clicks across the demos).
    assert!(handled_total >= 20, "only {handled_total} keys changed any demo: the probe sees nothing");
}
