//! One frame, shared by the headless and the windowed paths: egui lays out the (optional)
//! panels, the demo draws into the batch for the scene area left over, labels are painted,
//! then one render pass draws the batch and egui on top.

use crate::batch::Batch;
use crate::camera::Camera;
use crate::demo::Demo;
use crate::renderer::{Renderer, paint_labels};
use glam::vec2;

/// Draws the window's panels around the scene, given the current demo.
pub(crate) type Panels<'a> = &'a mut dyn FnMut(&mut egui::Ui, &mut dyn Demo);

/// Runs egui for one frame. `panels` adds the window's side and bottom panels; without it the
/// scene fills the frame and a caption (demo name and statistics) is drawn in its bottom-left
/// corner. Returns egui's output and the scene rectangle in points.
pub(crate) fn layout(
    ctx: &egui::Context,
    raw: egui::RawInput,
    demo: &mut dyn Demo,
    camera: &Camera,
    batch: &mut Batch,
    pixels_per_point: f32,
    mut panels: Option<Panels<'_>>,
) -> (egui::FullOutput, egui::Rect) {
    let with_caption = panels.is_none();
    let mut scene = egui::Rect::NOTHING;
    let out = ctx.run_ui(raw, |ui| {
        if let Some(panels) = panels.as_mut() {
            panels(ui, demo);
        }
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            let rect = ui.max_rect();
            scene = rect;
            let size = vec2(rect.width(), rect.height()) * pixels_per_point;
            batch.reset(*camera, size.max(glam::Vec2::ONE));
            demo.draw(batch);
            // Labels are laid out in pixels; egui paints in points.
            let painter = ui.painter_at(rect);
            paint_labels(&painter, batch, rect, pixels_per_point);
            if with_caption {
                paint_caption(&painter, rect, &caption(demo));
            }
        });
    });
    (out, scene)
}

/// Paints `text` in the bottom-left corner of `rect`, wrapped to the frame's width, over a
/// translucent dark plate so that it stays readable over whatever the demo drew there.
fn paint_caption(painter: &egui::Painter, rect: egui::Rect, text: &str) {
    const MARGIN: f32 = 12.0;
    const PAD: f32 = 4.0;
    let wrap = (rect.width() - 2.0 * (MARGIN + PAD)).max(64.0);
    let galley =
        painter.layout(text.to_string(), egui::FontId::proportional(16.0), egui::Color32::from_gray(230), wrap);
    let size = galley.size();
    let top_left = rect.left_bottom() + egui::vec2(MARGIN + PAD, -MARGIN - PAD - size.y);
    let plate = egui::Rect::from_min_size(top_left, size).expand(PAD);
    painter.rect_filled(plate, 4.0, egui::Color32::from_black_alpha(170));
    painter.galley(top_left, galley, egui::Color32::from_gray(230));
}

/// "name — stats", the caption of a headless frame and the line printed after it.
pub(crate) fn caption(demo: &dyn Demo) -> String {
    let stats = demo.stats();
    if stats.is_empty() { demo.name().to_string() } else { format!("{}: {}", demo.name(), stats) }
}

/// Everything `encode` needs to know about the target.
pub(crate) struct Target<'a> {
    /// The view drawn into (the multisampled one when `resolve` is set).
    pub view: &'a wgpu::TextureView,
    /// The single-sample view the multisampled one resolves into.
    pub resolve: Option<&'a wgpu::TextureView>,
    /// Size in pixels.
    pub size: [u32; 2],
}

/// Uploads the frame's data and records one render pass: clear, the batch inside the scene
/// rectangle, egui over the whole target.
#[allow(clippy::too_many_arguments)] // one frame's worth of state, called from two places
pub(crate) fn encode(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    renderer: &mut Renderer,
    encoder: &mut wgpu::CommandEncoder,
    target: &Target<'_>,
    batch: &Batch,
    scene_px: egui::Rect,
    ctx: &egui::Context,
    output: egui::FullOutput,
) {
    renderer.prepare(device, queue, batch);
    let egui::FullOutput { mut textures_delta, shapes, pixels_per_point, .. } = output;
    let jobs = ctx.tessellate(shapes, pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: target.size, pixels_per_point };
    for (id, delta) in &textures_delta.set {
        for d in delta.iter() {
            renderer.egui.update_texture(device, queue, *id, d);
        }
    }
    let extra = renderer.egui.update_buffers(device, queue, encoder, &jobs, &screen);
    let c = batch.clear_color;
    let clear = wgpu::Color {
        r: f64::from(c.r) / 255.0,
        g: f64::from(c.g) / 255.0,
        b: f64::from(c.b) / 255.0,
        a: f64::from(c.a) / 255.0,
    };
    {
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("lore frame"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.view,
                resolve_target: target.resolve,
                depth_slice: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let mut pass = pass.forget_lifetime();
        let full =
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(target.size[0] as f32, target.size[1] as f32));
        let scene = scene_px.intersect(full);
        if scene.width() >= 1.0 && scene.height() >= 1.0 {
            pass.set_viewport(scene.min.x, scene.min.y, scene.width(), scene.height(), 0.0, 1.0);
            renderer.draw(&mut pass, batch);
        }
        pass.set_viewport(0.0, 0.0, full.width(), full.height(), 0.0, 1.0);
        renderer.egui.render(&mut pass, &jobs, &screen);
    }
    queue.submit(extra);
    for id in &textures_delta.free {
        renderer.egui.free_texture(id);
    }
    textures_delta.clear(); // all applied above
}
