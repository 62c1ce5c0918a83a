//! Renders the editor headless after its scripted session and checks the picture: the edited
//! things where the script left them, in the colors it gave them, and the inspector panel.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe); `Headless::new` fails with a message naming it otherwise.

use lore_editor::EditorDemo;
use lore_editor::overlay::{BACKGROUND, SELECTED_ROW};
use lore_render::glam::{Vec2, vec2};
use lore_render::headless::{Frame, Headless, close};
use lore_render::{Color, Demo};

fn count_near(frame: &Frame, center: Vec2, half: f32, color: Color) -> usize {
    let (x0, y0) = ((center.x - half).max(0.0) as u32, (center.y - half).max(0.0) as u32);
    frame.count_in(x0, y0, (center.x + half) as u32, (center.y + half) as u32, |c| close(c, color, 12))
}

#[test]
fn the_scripted_session_is_drawn_with_its_inspector() {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = EditorDemo::new(std::env::temp_dir().join("lore-editor-test.xml"));
    let frame = headless.run(&mut demo, 1, 120).expect("frame read back");
    let camera = demo.camera();
    let viewport = vec2(frame.width as f32, frame.height as f32);
    let px = |world: Vec2| camera.world_to_screen(world, viewport);

    // The sun was recolored orange (1, 0.55, 0.2) and is selected.
    let orange = Color::rgb(255, 140, 51);
    assert!(count_near(&frame, px(vec2(-4.0, 4.5)), 20.0, orange) > 600, "the recolored star");
    // The crate was dragged from (-3, -3) to (-9.5, 0.5).
    let brown = Color::rgb(179, 115, 51);
    assert!(count_near(&frame, px(vec2(-9.5, 0.5)), 15.0, brown) > 400, "the crate at its new place");
    assert_eq!(count_near(&frame, px(vec2(-3.0, -3.0)), 15.0, brown), 0, "nothing left at the old place");
    // The added disk and its duplicate, in the green the script gave them.
    let green = Color::rgb(115, 230, 140);
    assert!(count_near(&frame, px(vec2(-12.5, -2.0)), 12.0, green) > 300, "the added disk");
    assert!(count_near(&frame, px(vec2(-11.0, -3.5)), 12.0, green) > 300, "its duplicate");
    // The rock was deleted, then the deletion undone.
    let grey = Color::rgb(140, 140, 140);
    assert!(count_near(&frame, px(vec2(4.0, -3.0)), 12.0, grey) > 300, "the rock is back");

    // The inspector panel on the right: its background, the selected row, range bars and the
    // orange swatch of the selected star's color field.
    let panel = frame.count_in(860, 20, 1260, 660, |c| close(c, BACKGROUND, 3));
    assert!(panel > 100_000, "panel background: {panel} pixels");
    assert!(frame.count_in(850, 20, 1270, 300, |c| close(c, SELECTED_ROW, 3)) > 3000, "the selected row");
    assert!(frame.count_in(940, 300, 1200, 500, |c| close(c, lore_editor::overlay::BAR, 3)) > 2000, "range bars");
    assert!(frame.count_in(940, 300, 1060, 500, |c| close(c, orange, 12)) > 300, "the color swatch");
    // The crate's color shows only as its swatch in the things list, not in the inspector.
    assert!(frame.count_in(860, 20, 1260, 290, |c| close(c, brown, 6)) > 100);
    assert_eq!(frame.count_in(860, 300, 1260, 660, |c| close(c, brown, 6)), 0);

    let stats = demo.stats();
    assert!(stats.starts_with("11 things, selected Star \"sun\""), "{stats}");
}
