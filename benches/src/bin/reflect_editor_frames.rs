//! The editor's own work per frame on a big level, without a window or a GPU: opening the file
//! (Ctrl+O, as a user would), then frames of the egui panel, the scene's batch and its labels,
//! tessellated as the window does. For profiling (`perf record`, `heaptrack`) and for
//! `/usr/bin/time -v`; the window adds only presenting.
//!
//! ```text
//! cargo run --release -p lore-benches --bin reflect_big_level -- 100000 big.xml
//! cargo build --release -p lore-benches --bin reflect_editor_frames
//! /usr/bin/time -v target/release/reflect_editor_frames big.xml 20
//! ```

use lore_editor::EditorDemo;
use lore_render::glam::{Vec2, vec2};
use lore_render::renderer::paint_labels;
use lore_render::{Batch, Demo, Input, Key, egui};
use std::time::Instant;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(level), Some(frames)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u32>().ok())) else {
        eprintln!("usage: reflect_editor_frames LEVEL.xml FRAMES");
        return std::process::ExitCode::FAILURE;
    };
    let start = Instant::now();
    let mut demo = EditorDemo::new(level.into());
    demo.reset(1);
    let mut input = Input::default();
    input.press_key(Key::Control);
    input.press_key(Key::Char('o'));
    demo.step(&input);
    println!("open: {:.3} s; {}", start.elapsed().as_secs_f64(), demo.stats());

    let ctx = egui::Context::default();
    let camera = demo.camera();
    let mut batch = Batch::new(camera, vec2(1280.0, 720.0));
    for frame in 0..frames {
        let t = Instant::now();
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 900.0))),
            ..egui::RawInput::default()
        };
        let mut out = ctx.run_ui(raw, |ui| {
            egui::Panel::left("lore-menu").default_size(260.0).show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| demo.ui(ui));
            });
            egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
                let rect = ui.max_rect();
                batch.reset(camera, vec2(rect.width(), rect.height()).max(Vec2::ONE));
                demo.draw(&mut batch);
                paint_labels(&ui.painter_at(rect), &batch, rect, 1.0);
            });
        });
        out.textures_delta.clear();
        let jobs = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
        let egui_vertices: usize = jobs
            .iter()
            .map(|j| match &j.primitive {
                egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
                egui::epaint::Primitive::Callback(_) => 0,
            })
            .sum();
        println!(
            "frame {frame}: {:.1} ms, scene {} triangles, {} labels, egui {egui_vertices} vertices",
            t.elapsed().as_secs_f64() * 1e3,
            batch.triangle_count(),
            batch.labels().len(),
        );
    }
    println!("total: {:.3} s", start.elapsed().as_secs_f64());
    std::process::ExitCode::SUCCESS
}
