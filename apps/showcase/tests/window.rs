//! Opens the showcase in a real window under Xvfb (a virtual X server) for 30 frames.
//!
//! Needs `xvfb-run` (Debian packages `xvfb` and `xauth`) and a graphics adapter that can
//! present to an X11 window (`mesa-vulkan-drivers` on a machine without a GPU). scripts/test.sh
//! installs them; without them this test fails and says so.

use std::process::Command;

#[test]
fn window_opens_under_xvfb_and_closes_after_frames() {
    let xvfb = Command::new("xvfb-run").arg("--help").output();
    assert!(xvfb.is_ok(), "xvfb-run not found: install the Debian packages xvfb and xauth (scripts/test.sh does)");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_lore-showcase"))
        .args(["--frames", "30"])
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run xvfb-run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "windowed showcase failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("window on "), "no adapter line:\n{stdout}");
    assert!(stdout.contains("30 frames presented"), "did not present 30 frames:\n{stdout}");
}

/// The platformer in a window under Xvfb: its side panel (the kinds inspector) and its scene
/// for 30 frames.
#[test]
fn the_platformer_runs_in_a_window_under_xvfb() {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_lore-showcase"))
        .args(["--demo", "platformer", "--frames", "30"])
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run xvfb-run (install the Debian packages xvfb and xauth)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "windowed platformer failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("30 frames presented"), "did not present 30 frames:\n{stdout}");
}
