//! Renders the slide demo headless after 120 steps and checks the picture: the floor pieces in
//! both colours, the tiles, the disk on the floor with its contact and normal, the box on the
//! tiles, the pebble resting in the V corner and the projectile stopped by the thin wall.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe); `Headless::new` fails with a message naming it otherwise.

use lore_render::glam::{Vec2, vec2};
use lore_render::headless::{Frame, Headless, close};
use lore_render::{Color, Demo};
use lore_slide::{
    BOX, CONTACT, DISK, DISK_RADIUS, FLOOR_Y, NORMAL, PIECE_A, PIECE_B, SHOT, SlideDemo, THIN_WALL, TILE,
};

/// Pixels of `color` in the world rectangle `lo..hi`.
fn count(frame: &Frame, demo: &SlideDemo, lo: Vec2, hi: Vec2, color: Color) -> usize {
    let camera = demo.camera();
    let viewport = vec2(frame.width as f32, frame.height as f32);
    let a = camera.world_to_screen(vec2(lo.x, hi.y), viewport);
    let b = camera.world_to_screen(vec2(hi.x, lo.y), viewport);
    frame.count_in(a.x as u32, a.y as u32, b.x as u32, b.y as u32, |c| close(c, color, 12))
}

#[test]
fn picture_shows_level_bodies_and_contacts() {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = SlideDemo::seams();
    let frame = headless.run(&mut demo, 0, 120).expect("frame read back");
    let _ = frame.save_png(std::path::Path::new(concat!(env!("CARGO_TARGET_TMPDIR"), "/slide.png")));

    // The floor pieces alternate colours along the first stretch.
    let strip = (vec2(1.5, FLOOR_Y - 0.1), vec2(9.0, FLOOR_Y + 0.1));
    assert!(count(&frame, &demo, strip.0, strip.1, PIECE_A) > 100, "cyan pieces");
    assert!(count(&frame, &demo, strip.0, strip.1, PIECE_B) > 100, "blue pieces");
    // The tiles.
    assert!(count(&frame, &demo, vec2(12.1, 1.1), vec2(16.0, 1.9), TILE) > 2000, "tiles");

    // The disk sits on the floor, walked right from its start at x = 3.
    let d = demo.disk();
    assert!(d.x > 8.0 && (d.y - FLOOR_Y - DISK_RADIUS).abs() < 0.01, "disk at {d}");
    let disk_px = count(&frame, &demo, d - DISK_RADIUS * 0.7, d + DISK_RADIUS * 0.7, DISK);
    assert!(disk_px > 300, "disk: {disk_px} px");
    // Its contact below it and the normal arrow above it.
    let below = count(&frame, &demo, vec2(d.x - 0.3, FLOOR_Y - 0.2), vec2(d.x + 0.3, FLOOR_Y + 0.2), CONTACT);
    assert!(below > 20, "contact point: {below} px");
    let arrow = count(&frame, &demo, vec2(d.x - 0.3, d.y + 0.2), vec2(d.x + 0.3, FLOOR_Y + 1.4), NORMAL);
    assert!(arrow > 10, "normal arrow: {arrow} px");
    // Nothing orange where the disk is not.
    assert_eq!(count(&frame, &demo, vec2(1.5, 2.2), vec2(d.x - 1.0, 4.0), DISK), 0);

    // The box on the tiles.
    let b = demo.boxy();
    assert!((b.min().y - FLOOR_Y).abs() < 1e-3 && b.min().x > 12.0, "box {b:?}");
    assert!(count(&frame, &demo, b.min(), b.max(), BOX) > 150, "box pixels");

    // The pebble rests in the V corner (apex at (6, 6)) touching both sides.
    let p = demo.pebble();
    assert!((p.x - 6.0).abs() < 0.05 && p.y > 6.0 && p.y < 7.0, "pebble {p}");
    assert!(count(&frame, &demo, p - 0.25, p + 0.25, DISK) > 100, "pebble pixels");
    assert!(count(&frame, &demo, vec2(5.4, 6.0), vec2(6.6, 6.6), CONTACT) > 20, "pebble contacts");

    // The projectile rests against the thin wall's left side; none on the right.
    let w = THIN_WALL.a.x;
    assert!(count(&frame, &demo, vec2(w - 0.6, 10.0), vec2(w, 14.0), SHOT) > 50, "projectile stopped");
    assert_eq!(count(&frame, &demo, vec2(w + 0.05, 9.0), vec2(31.0, 15.0), SHOT), 0, "nothing went through");
}

#[test]
fn the_default_scene_is_the_platformer_course() {
    use lore_slide::course::{CHARACTER, MOVING, ONE_WAY};
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = SlideDemo::new();
    let frame = headless.run(&mut demo, 0, 120).expect("frame read back");
    let _ = frame.save_png(std::path::Path::new(concat!(env!("CARGO_TARGET_TMPDIR"), "/slide-course.png")));
    let all = (vec2(0.0, 0.0), vec2(32.0, 18.0));
    assert!(count(&frame, &demo, all.0, all.1, ONE_WAY) > 100, "one-way platforms");
    assert!(count(&frame, &demo, all.0, all.1, MOVING) > 300, "moving platforms");
    let p = demo.course().body.0;
    assert!(count(&frame, &demo, p - 0.4, p + 0.4, CHARACTER) > 150, "the character at {p}");
    assert!(count(&frame, &demo, all.0, all.1, PIECE_A) > 100, "ground pieces");
}
