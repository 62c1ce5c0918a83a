//! Renders known scenes offscreen and checks the pixels: positions through the camera, y-up,
//! sprite orientation, blending, labels.
//!
//! Needs a graphics adapter; on a machine without a GPU install Debian's `mesa-vulkan-drivers`
//! (lavapipe). Tolerances were set on lavapipe (llvmpipe, Vulkan) with 4× MSAA.

use lore_render::glam::{Vec2, vec2};
use lore_render::headless::{Frame, Headless, close};
use lore_render::{Batch, Camera, Color, Demo, Input, Texture};

/// A demo that draws whatever its closure draws.
struct Scene<F: Fn(&mut Batch)>(F);

impl<F: Fn(&mut Batch)> Demo for Scene<F> {
    fn name(&self) -> &'static str {
        "scene"
    }
    fn reset(&mut self, _seed: u64) {}
    fn step(&mut self, _input: &Input) {}
    fn draw(&self, batch: &mut Batch) {
        (self.0)(batch);
    }
}

fn headless() -> Headless {
    Headless::new().expect("a graphics adapter (on Debian without a GPU: apt-get install mesa-vulkan-drivers)")
}

fn render(h: &mut Headless, camera: Camera, draw: impl Fn(&mut Batch)) -> Frame {
    h.render(&mut Scene(draw), &camera).expect("frame read back")
}

fn at(frame: &Frame, camera: &Camera, world: Vec2) -> Color {
    let p = camera.world_to_screen(world, vec2(frame.width as f32, frame.height as f32));
    frame.pixel(p.x as u32, p.y as u32).expect("inside the frame")
}

#[test]
fn shapes_land_where_the_camera_says() {
    let mut h = headless();
    let camera = Camera::new(vec2(1.0, 2.0), 10.0);
    let frame = render(&mut h, camera, |b| {
        b.disk(vec2(-5.0, 2.0), 2.0, Color::RED);
        b.rect(vec2(4.0, 5.0), vec2(8.0, 8.0), Color::GREEN);
        b.line(vec2(-10.0, -4.0), vec2(10.0, -4.0), 0.5, Color::BLUE);
        b.polygon(
            &[vec2(0.0, -8.0), vec2(3.0, -8.0), vec2(3.0, -6.0), vec2(1.0, -6.0), vec2(1.0, -5.0), vec2(0.0, -5.0)],
            Color::YELLOW,
        );
    });
    assert_eq!((frame.width, frame.height), (1280, 720));
    assert!(close(at(&frame, &camera, vec2(-5.0, 2.0)), Color::RED, 1));
    assert!(close(at(&frame, &camera, vec2(-5.0, 3.8)), Color::RED, 1));
    assert!(close(at(&frame, &camera, vec2(-5.0, 4.3)), Color::BACKGROUND, 1));
    // y up: the rectangle is in the upper right, so its pixels are in the upper half.
    assert!(close(at(&frame, &camera, vec2(6.0, 6.5)), Color::GREEN, 1));
    assert!(close(at(&frame, &camera, vec2(6.0, -6.5)), Color::BACKGROUND, 1));
    assert!(close(at(&frame, &camera, vec2(0.0, -4.0)), Color::BLUE, 1));
    assert!(close(at(&frame, &camera, vec2(0.0, -4.6)), Color::BACKGROUND, 1));
    // The concave polygon's notch (x in 1..3, y in -6..-5) stays empty.
    assert!(close(at(&frame, &camera, vec2(0.5, -5.5)), Color::YELLOW, 1));
    assert!(close(at(&frame, &camera, vec2(2.0, -5.5)), Color::BACKGROUND, 1));
    assert!(close(at(&frame, &camera, vec2(2.0, -7.0)), Color::YELLOW, 1));
    // The disk's area in pixels: pi r^2 at 36 px per world unit (720 px / 20 units).
    let red = frame.count(|c| close(c, Color::RED, 40));
    let expected = std::f32::consts::PI * (2.0 * 36.0f32).powi(2);
    assert!((red as f32 - expected).abs() / expected < 0.03, "disk pixels {red}, expected about {expected}");
}

#[test]
fn sprite_top_row_is_drawn_on_top_and_alpha_blends() {
    let mut h = headless();
    let camera = Camera::default();
    // 2x2 texture: top row red, green; bottom row blue, transparent.
    let tex =
        Texture::from_rgba(2, 2, vec![230, 60, 60, 255, 70, 200, 90, 255, 70, 120, 235, 255, 0, 0, 0, 0]).unwrap();
    let frame = render(&mut h, camera, |b| {
        b.clear_color = Color::BLACK;
        b.sprite(&tex, Vec2::ZERO, vec2(8.0, 8.0), 0.0, Color::WHITE);
        // A half-transparent white square over the far right.
        b.rect(vec2(12.0, -2.0), vec2(16.0, 2.0), Color::WHITE.with_alpha(128));
    });
    assert!(close(at(&frame, &camera, vec2(-2.0, 2.0)), Color::RED, 1));
    assert!(close(at(&frame, &camera, vec2(2.0, 2.0)), Color::GREEN, 1));
    assert!(close(at(&frame, &camera, vec2(-2.0, -2.0)), Color::BLUE, 1));
    assert!(close(at(&frame, &camera, vec2(2.0, -2.0)), Color::BLACK, 1), "transparent texel");
    assert!(close(at(&frame, &camera, vec2(14.0, 0.0)), Color::rgb(128, 128, 128), 2), "50% white over black");
    // A quarter turn counter-clockwise puts the red (top-left) texel at the bottom left.
    let turned = render(&mut h, camera, |b| {
        b.sprite(&tex, Vec2::ZERO, vec2(8.0, 8.0), std::f32::consts::FRAC_PI_2, Color::WHITE)
    });
    assert!(close(at(&turned, &camera, vec2(-2.0, -2.0)), Color::RED, 1));
    assert!(close(at(&turned, &camera, vec2(-2.0, 2.0)), Color::GREEN, 1));
}

#[test]
fn labels_are_drawn_at_their_anchor() {
    let mut h = headless();
    let camera = Camera::default();
    let frame = render(&mut h, camera, |b| {
        b.clear_color = Color::BLACK;
        b.text(vec2(-10.0, 5.0), "WORLD", 30.0, Color::YELLOW);
        b.screen_text(vec2(1000.0, 600.0), "SCREEN", 30.0, Color::CYAN);
    });
    let px = camera.world_to_screen(vec2(-10.0, 5.0), vec2(1280.0, 720.0));
    let (x, y) = (px.x as u32, px.y as u32);
    let yellow = frame.count_in(x - 60, y - 20, x + 60, y + 20, |c| close(c, Color::YELLOW, 40));
    let cyan = frame.count_in(1000, 585, 1140, 615, |c| close(c, Color::CYAN, 40));
    assert!(yellow > 80, "world label pixels {yellow}");
    assert!(cyan > 80, "screen label pixels {cyan}");
    // Nothing yellow elsewhere.
    assert_eq!(frame.count(|c| close(c, Color::YELLOW, 40)), yellow);
}

#[test]
fn headless_run_is_deterministic() {
    #[derive(Default)]
    struct Walker(Vec2);
    impl Demo for Walker {
        fn name(&self) -> &'static str {
            "walker"
        }
        fn reset(&mut self, seed: u64) {
            self.0 = vec2(seed as f32 - 8.0, 0.0);
        }
        fn step(&mut self, _input: &Input) {
            self.0.x += 0.05;
        }
        fn draw(&self, batch: &mut Batch) {
            batch.disk(self.0, 1.0, Color::ORANGE);
        }
        fn stats(&self) -> String {
            format!("x = {:.2}", self.0.x)
        }
    }
    let mut h = headless();
    let a = h.run(&mut Walker::default(), 3, 40).expect("frame read back");
    let b = h.run(&mut Walker::default(), 3, 40).expect("frame read back");
    assert_eq!(a, b);
    let camera = Camera::default();
    assert!(close(at(&a, &camera, vec2(-3.0, 0.0)), Color::ORANGE, 1));
    // The caption (name and statistics) sits in the bottom-left corner.
    let caption = a.count_in(0, 680, 300, 720, |c| c.r > 200 && c.g > 200 && c.b > 200);
    assert!(caption > 50, "caption pixels {caption}");
}

/// A scene of `n × n` cells of the palette and a circle of `points` points on top, whose
/// triangles (ear clipping a convex polygon) join its first and last vertices.
fn big_scene(b: &mut Batch, n: u32, points: u32) {
    b.clear_color = Color::BLACK;
    let cell = 16.0 / n as f32;
    for j in 0..n {
        for i in 0..n {
            let min = vec2(-8.0 + i as f32 * cell, -8.0 + j as f32 * cell);
            b.rect(min, min + Vec2::splat(0.8 * cell), Color::palette((i + 3 * j) as usize));
        }
    }
    let circle: Vec<Vec2> =
        (0..points).map(|k| 3.0 * Vec2::from_angle(k as f32 / points as f32 * std::f32::consts::TAU)).collect();
    b.polygon(&circle, Color::WHITE);
}

#[test]
fn a_batch_bigger_than_the_devices_largest_buffer_draws_in_pieces() {
    // A device whose buffers hold at most 64 KiB; the batch needs 100 KiB of vertices, and the
    // circle's triangles alone span 3,400 vertices (68 KiB).
    const LIMIT: u64 = 64 * 1024;
    const SIDE: u32 = 128; // the frame's read-back buffer, 512 × 128 bytes, fits the limit
    let limits = wgpu::Limits { max_buffer_size: LIMIT, ..wgpu::Limits::downlevel_defaults() };
    let small = lore_render::gpu::Gpu::headless_with_limits(limits).expect("a graphics adapter");
    assert_eq!(small.device.limits().max_buffer_size, LIMIT);
    let mut small = Headless::from_gpu(small, SIDE, SIDE);
    let camera = Camera::default();
    let scene = |b: &mut Batch| big_scene(b, 20, 3400);
    let mut probe = Batch::new(camera, vec2(SIDE as f32, SIDE as f32));
    scene(&mut probe);
    let bytes = std::mem::size_of_val(probe.vertices()) as u64;
    assert!(bytes > LIMIT, "the batch's {bytes} vertex bytes must exceed the limit");

    let pieces_frame = render(&mut small, camera, scene);
    assert!(small.renderer().piece_count() >= 3, "{} pieces", small.renderer().piece_count());
    let mut whole = Headless::from_gpu(lore_render::gpu::Gpu::headless().expect("a graphics adapter"), SIDE, SIDE);
    let whole_frame = render(&mut whole, camera, scene);
    assert_eq!(whole.renderer().piece_count(), 1);
    // The same triangles in the same order: the same pixels.
    assert!(pieces_frame == whole_frame, "drawing in pieces changed the picture");
    // And the picture is the scene: the circle's centre is white, a corner cell is coloured.
    assert!(close(at(&pieces_frame, &camera, Vec2::ZERO), Color::WHITE, 1));
    // (The top-left cell: the caption's plate covers the bottom-left corner.)
    let corner = at(&pieces_frame, &camera, vec2(-8.0 + 0.32, -8.0 + 19.0 * 0.8 + 0.32));
    assert!(close(corner, Color::palette(3 * 19), 2), "{corner:?}");
    let dark = pieces_frame.count(|c| close(c, Color::BLACK, 8));
    assert!(dark < (SIDE * SIDE / 2) as usize, "{dark} dark pixels: the cells are missing");
}
