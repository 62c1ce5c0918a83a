//! Renders the pixels demo headless and checks the picture: hits flash red with an orange outline,
//! shared pixels show in the spark color, the asteroid field is there, and the GPU agreed with
//! the CPU twin on every query.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe). Without one `Headless::new` fails with a message naming that package.

use lore_pixels::{OUTLINE, PixelsDemo, SPARK};
use lore_render::Color;
use lore_render::headless::{Headless, close};

#[test]
fn headless_picture_shows_highlighted_collisions() {
    let mut headless = Headless::new().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let mut demo = PixelsDemo::new();
    assert!(demo.has_gpu(), "the demo found no GPU of its own");
    let frame = headless.run(&mut demo, 1, 120).expect("frame read back");
    let c = demo.counters();
    // Every step compared both engines; they agreed on every query.
    assert!(c.queries > 300, "too few queries compared: {}", c.queries);
    assert_eq!(c.agreed, c.queries);
    assert!(demo.flashing() > 0, "nothing touched in the last frames");
    // Shared pixels in the spark color.
    let sparks = frame.count(|p| close(p, SPARK, 10));
    assert!(sparks >= 3, "spark pixels: {sparks}");
    // Outline loops (bitmap to shapes) around the touched objects.
    let outline = frame.count(|p| close(p, OUTLINE, 12));
    assert!(outline >= 40, "outline pixels: {outline}");
    // Red-tinted (hit) sprite pixels: the art's greys times the red tint keep red well above
    // green and blue.
    let red = frame.count(|p| p.r > 90 && u32::from(p.g) * 2 < u32::from(p.r) && u32::from(p.b) * 2 < u32::from(p.r));
    assert!(red >= 50, "hit-tinted pixels: {red}");
    // The rock field: grey-brown pixels spread over the upper and lower halves.
    let rock = |p: Color| p.r > 70 && p.r >= p.g && p.g >= p.b && i32::from(p.r) - i32::from(p.b) < 60;
    let (w, h) = (frame.width, frame.height);
    assert!(frame.count_in(0, 0, w, h / 2, rock) > 2000);
    assert!(frame.count_in(0, h / 2, w, h, rock) > 1000);
}
