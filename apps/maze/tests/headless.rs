//! Renders the maze demo headless and checks the picture: zones, doors and keys in their colors,
//! the start zone around the top-left corner.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe). Without one `Headless::new` fails with a message naming that package.

use lore_maze::{Kind, MazeDemo};
use lore_mazegen::{color_rgb, zone_rgb};
use lore_render::Color;
use lore_render::headless::{Frame, Headless, close};

fn rgb(c: [u8; 3]) -> Color {
    Color::rgb(c[0], c[1], c[2])
}

fn render(kind: Kind) -> (Frame, MazeDemo) {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = MazeDemo::new(kind);
    let frame = headless.run(&mut demo, 1, 120).expect("frame read back");
    (frame, demo)
}

fn check(kind: Kind, min_zone_pixels: usize) {
    let logic = kind == Kind::Logic;
    let (frame, demo) = render(kind);
    let (done, total) = demo.progress();
    assert_eq!(done, total, "the autopilot finishes within 120 frames");
    let zones = demo.params().zones;
    let (w, h) = (frame.width, frame.height);
    // A logic maze sits on a light background filling the middle of the frame (a grid maze
    // covers it with zone tints).
    let paper = frame.count_in(w / 4, h / 4, 3 * w / 4, 3 * h / 4, |c| close(c, Color::rgb(248, 248, 244), 6));
    if logic {
        assert!(paper > (w * h / 4) as usize / 10, "little background in the middle: {paper}");
    }
    // Every zone shows in its tint; every door color (door + key) shows.
    for z in 0..zones {
        let n = frame.count(|c| close(c, rgb(zone_rgb(z)), 6));
        assert!(n >= min_zone_pixels, "zone {z}: {n} pixels");
    }
    for c in 0..zones - 1 {
        let n = frame.count(|p| close(p, rgb(color_rgb(c as u8)), 8));
        assert!(n >= 100, "door/key color {c}: {n} pixels");
    }
    // The start (the node nearest the top-left corner) lies in zone 0, so the start zone's grey
    // shows in the top-left region of the frame.
    let corner = frame.count_in(0, 0, w / 4, h / 3, |c| close(c, rgb(zone_rgb(0)), 6));
    assert!(corner >= 50, "start zone shows {corner} pixels in the top-left corner");
    // The start marker: a white dot inside a black ring, near the top-left corner.
    // (Rows above 30 hold the white step caption, so they are left out.)
    assert!(frame.count_in(0, 30, w / 4, h / 3, |c| close(c, Color::WHITE, 4)) > 0);
}

#[test]
fn logic_maze_shows_zones_doors_and_keys() {
    check(Kind::Logic, 150);
}

#[test]
fn grid_maze_shows_zones_doors_and_keys() {
    check(Kind::Grid, 3000);
}
