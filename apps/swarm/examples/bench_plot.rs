//! Draws docs/img/broadphase-time-vs-n.png from the criterion results of
//! `cargo bench -p lore-benches --bench broadphase`: time per frame (update + full pair set)
//! against the number of moving boxes, log-log, one line per index and peer.
//!
//! Run after the bench: `cargo run -p lore-swarm --example bench_plot -- [CRITERION_DIR] [OUT]`
//! (defaults: `target/criterion/broadphase`, `docs/img/broadphase-time-vs-n.png`).

use lore_render::demo::Demo;
use lore_render::glam::{Vec2, vec2};
use lore_render::headless::Headless;
use lore_render::{Batch, Camera, Color, Input};
use std::path::{Path, PathBuf};

const SIZES: [(&str, f32); 3] = [("1k", 1e3), ("10k", 1e4), ("100k", 1e5)];
const SERIES: [(&str, &str); 8] = [
    ("lore-grid-4", "lore Grid (cell 4)"),
    ("lore-grid-4-unsorted", "lore Grid, unsorted pairs"),
    ("lore-hash", "lore SpatialHash"),
    ("lore-tree", "lore Tree"),
    ("lore-sweep", "lore Sweep"),
    ("parry2d-bvh", "parry2d Bvh"),
    ("rstar", "rstar"),
    ("lore-grid-2.5", "lore Grid (cell 2.5)"),
];

/// The median estimate, in µs, from a criterion `estimates.json`.
fn median_us(path: &Path) -> Option<f32> {
    let text = std::fs::read_to_string(path).ok()?;
    let after = &text[text.find("\"median\"")?..];
    let pe = &after[after.find("\"point_estimate\":")? + 17..];
    let end = pe.find([',', '}'])?;
    pe[..end].trim().parse::<f32>().ok().map(|ns| ns / 1e3)
}

#[derive(Debug)]
struct Plot {
    lines: Vec<(String, Color, Vec<Vec2>)>,
}

// Plot space: x = log10(N) in 2.8..5.4, y = log10(µs) in 1.0..5.0.
const X0: f32 = 2.8;
const X1: f32 = 5.4;
const Y0: f32 = 1.0;
const Y1: f32 = 5.0;

impl Demo for Plot {
    fn name(&self) -> &'static str {
        "broadphase-time-vs-n"
    }
    fn reset(&mut self, _seed: u64) {}
    fn step(&mut self, _input: &Input) {}
    fn camera(&self) -> Camera {
        Camera::fit(vec2(X0 - 0.35, Y0 - 0.4), vec2(X1 + 0.9, Y1 + 0.2), 0.0)
    }
    fn draw(&self, batch: &mut Batch) {
        let px = batch.pixel();
        batch.clear_color = Color::rgb(250, 250, 250);
        let ink = Color::rgb(40, 40, 40);
        let faint = Color::rgb(215, 215, 215);
        for decade in 1..=5 {
            let y = decade as f32;
            batch.line(vec2(X0, y), vec2(X1, y), px, faint);
            let label = ["", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms"][decade];
            batch.text_anchored(vec2(X0 - 0.03, y), lore_render::Anchor::Right, label, 14.0, ink);
        }
        for (name, n) in SIZES {
            let x = n.log10();
            batch.line(vec2(x, Y0), vec2(x, Y1), px, faint);
            batch.text(vec2(x, Y0 - 0.15), format!("{name} boxes"), 14.0, ink);
        }
        batch.line(vec2(X0, Y0), vec2(X1, Y0), 2.0 * px, ink);
        batch.line(vec2(X0, Y0), vec2(X0, Y1), 2.0 * px, ink);
        batch.text(
            vec2(0.5 * (X0 + X1), Y1 + 0.1),
            "time per frame (update every box + full pair set), log-log",
            16.0,
            ink,
        );
        for (k, (label, color, pts)) in self.lines.iter().enumerate() {
            batch.polyline(pts, false, 3.0 * px, *color);
            for p in pts {
                batch.disk(*p, 4.0 * px, *color);
            }
            let y = Y1 - 0.3 - 0.28 * k as f32;
            batch.line(vec2(X1 + 0.05, y), vec2(X1 + 0.2, y), 4.0 * px, *color);
            batch.text_anchored(vec2(X1 + 0.24, y), lore_render::Anchor::Left, label.clone(), 14.0, ink);
        }
    }
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "target/criterion/broadphase".into()));
    let out = PathBuf::from(args.next().unwrap_or_else(|| "docs/img/broadphase-time-vs-n.png".into()));
    let colors = [
        Color::rgb(200, 40, 40),
        Color::rgb(120, 20, 20),
        Color::rgb(230, 130, 20),
        Color::rgb(40, 150, 60),
        Color::rgb(120, 80, 200),
        Color::rgb(30, 90, 200),
        Color::rgb(120, 120, 120),
        Color::rgb(230, 120, 170),
    ];
    let mut lines = Vec::new();
    for ((id, label), color) in SERIES.iter().zip(colors) {
        let pts: Vec<Vec2> = SIZES
            .iter()
            .filter_map(|(size, n)| {
                median_us(&dir.join(format!("moving_{id}")).join(size).join("new/estimates.json"))
                    .map(|us| vec2(n.log10(), us.log10()))
            })
            .collect();
        if pts.is_empty() {
            eprintln!("bench_plot: no results for {id} under {}", dir.display());
            return std::process::ExitCode::FAILURE;
        }
        lines.push((label.to_string(), color, pts));
    }
    let mut headless = match Headless::with_size(820, 620) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("bench_plot: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut plot = Plot { lines };
    let frame = match headless.run(&mut plot, 0, 1) {
        Ok(frame) => frame,
        Err(e) => {
            eprintln!("bench_plot: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if let Err(e) = frame.save_png(&out) {
        eprintln!("bench_plot: {}: {e}", out.display());
        return std::process::ExitCode::FAILURE;
    }
    println!("{}", out.display());
    std::process::ExitCode::SUCCESS
}
