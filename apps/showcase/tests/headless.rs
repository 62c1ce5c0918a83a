//! Runs the showcase binary headless and checks what it drew in `bounce.png`.
//!
//! Needs a graphics adapter: on a machine without a GPU, Debian's `mesa-vulkan-drivers`
//! (lavapipe). Without one the binary fails with a message naming that package, and so does
//! this test.

use std::path::Path;
use std::process::Command;

struct Png {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Png {
    fn read(path: &Path) -> Png {
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).expect("open PNG")));
        let mut reader = decoder.read_info().expect("PNG header");
        let mut buf = vec![0; reader.output_buffer_size().expect("PNG size")];
        let info = reader.next_frame(&mut buf).expect("PNG data");
        assert_eq!(info.color_type, png::ColorType::Rgba, "the showcase writes RGBA PNGs");
        buf.truncate(info.buffer_size());
        Png { width: info.width, height: info.height, rgba: buf }
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }

    fn count(&self, x0: u32, y0: u32, x1: u32, y1: u32, pred: impl Fn([u8; 3]) -> bool) -> usize {
        (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))).filter(|&(x, y)| pred(self.pixel(x, y))).count()
    }
}

fn near(a: [u8; 3], b: [u8; 3], tol: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tol)
}

#[test]
fn headless_showcase_draws_bounce() {
    check_bounce("vulkan", None);
}

/// The GL fallback (llvmpipe through EGL) draws the same picture.
#[test]
fn headless_showcase_draws_bounce_on_gl() {
    check_bounce("gl", Some("gl"));
}

#[test]
fn probe_without_adapter_names_the_package() {
    // No Metal adapter exists on Linux: the same path as a machine without any driver.
    let output = Command::new(env!("CARGO_BIN_EXE_lore-showcase"))
        .arg("--probe")
        .env("WGPU_BACKEND", "metal")
        .output()
        .expect("run lore-showcase");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no graphics adapter found") && stderr.contains("apt-get install mesa-vulkan-drivers"),
        "{stderr}"
    );
}

fn check_bounce(name: &str, backend: Option<&str>) {
    let out = tempdir(name);
    let mut command = Command::new(env!("CARGO_BIN_EXE_lore-showcase"));
    command.args(["--headless", "--demo", "bounce", "--frames", "60", "--seed", "5", "--out"]).arg(&out);
    if let Some(backend) = backend {
        command.env("WGPU_BACKEND", backend);
    }
    let output = command.output().expect("run lore-showcase");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "lore-showcase failed (a GPU adapter is needed: install mesa-vulkan-drivers)\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("bounce: 12 bodies"), "statistics line missing:\n{stdout}");
    if let Some(backend) = backend {
        assert!(stdout.to_lowercase().contains(&format!("{backend}, ")), "not on the {backend} backend:\n{stdout}");
    }

    let png = Png::read(&out.join("bounce.png"));
    assert_eq!((png.width, png.height), (1280, 720));
    // Background: the frame's corners are the demo background colour (24, 28, 36).
    for (x, y) in [(2, 2), (1277, 2)] {
        assert!(near(png.pixel(x, y), [24, 28, 36], 2), "corner ({x},{y}) = {:?}", png.pixel(x, y));
    }
    // The box outline: grey (128, 128, 128) at the middle of the left and right walls. The box
    // is 32x18 world units framed with 4% margin in a 20-unit-high view: its left wall sits near
    // x = 108 px in a 1280 px frame.
    let grey_left = png.count(95, 300, 125, 420, |p| near(p, [128, 128, 128], 6));
    let grey_right = png.count(1155, 300, 1185, 420, |p| near(p, [128, 128, 128], 6));
    assert!(grey_left > 100 && grey_right > 100, "walls: left {grey_left} right {grey_right}");
    // Inside the box: many saturated shape pixels (the 12 bodies), and every body is inside.
    let saturated = |p: [u8; 3]| {
        let max = *p.iter().max().unwrap();
        let min = *p.iter().min().unwrap();
        max > 150 && max - min > 80
    };
    let inside = png.count(125, 75, 1155, 645, saturated);
    assert!(inside > 20_000, "only {inside} shape pixels inside the box");
    // Above the box only the title; below it the floor sprite, whose checker texture is tinted
    // to alternate dark and light stripes.
    let floor_light = png.count(120, 662, 1160, 692, |p| near(p, [90, 100, 120], 8));
    let floor_dark = png.count(120, 662, 1160, 692, |p| near(p, [14, 16, 19], 8));
    assert!(floor_light > 5_000 && floor_dark > 5_000, "floor sprite: light {floor_light} dark {floor_dark}");
    // The title label in white-ish pixels near the top centre.
    let title = png.count(560, 15, 720, 50, |p| p.iter().all(|&c| c > 200));
    assert!(title > 30, "title text pixels: {title}");
}

/// With no `--demo`, every demo of the menu runs and writes its own picture, each with real
/// content (each demo's own crate checks what its picture shows; here: that it is not blank).
#[test]
fn every_demo_writes_a_picture() {
    const DEMOS: [&str; 9] = ["alloc", "bounce", "dungeon", "editor", "maze", "pixels", "platformer", "slide", "swarm"];
    let list = Command::new(env!("CARGO_BIN_EXE_lore-showcase")).arg("--list").output().expect("run lore-showcase");
    let listed = String::from_utf8_lossy(&list.stdout);
    let names: Vec<&str> = listed.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names, DEMOS, "--list printed:\n{listed}");

    let out = tempdir("all");
    let output = Command::new(env!("CARGO_BIN_EXE_lore-showcase"))
        .args(["--headless", "--frames", "30", "--seed", "3", "--out"])
        .arg(&out)
        .output()
        .expect("run lore-showcase");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "stdout:\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&output.stderr));
    for name in DEMOS {
        let png = Png::read(&out.join(format!("{name}.png")));
        assert_eq!((png.width, png.height), (1280, 720), "{name}");
        let mut colours = std::collections::HashSet::new();
        for y in (0..720).step_by(4) {
            for x in (0..1280).step_by(4) {
                colours.insert(png.pixel(x, y));
            }
        }
        let background = png.pixel(1, 1);
        let drawn = png.count(0, 0, 1280, 720, |p| !near(p, background, 12));
        assert!(colours.len() > 20 && drawn > 20_000, "{name}.png: {} colours, {drawn} drawn pixels", colours.len());
    }
}

#[test]
fn unknown_demo_is_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_lore-showcase"))
        .args(["--headless", "--demo", "nope"])
        .output()
        .expect("run lore-showcase");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown demo `nope`") && stderr.contains("bounce"), "{stderr}");
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lore-showcase-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
