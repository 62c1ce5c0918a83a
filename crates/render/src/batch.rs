//! The 2D batch: what a demo draws in one frame, recorded on the CPU as triangles.
//!
//! Every shape is tessellated into one vertex list in world coordinates (y up); the GPU side
//! (`Renderer`) only transforms and blends. Shapes are drawn in call order, painter style; text
//! labels are drawn after all shapes, on top.

use crate::camera::Camera;
use crate::color::Color;
use crate::texture::Texture;
use glam::{Vec2, vec2};
use std::f32::consts::TAU;

/// One vertex: world position, texture coordinate, sRGB color packed as in
/// [`Color::to_u32`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    /// World position.
    pub pos: [f32; 2],
    /// Texture coordinate (0,0 top left of the image); untextured shapes sample a white texel.
    pub uv: [f32; 2],
    /// sRGB color, `r` in the low byte.
    pub color: u32,
}

/// A run of indices drawn with one texture (`None` = untextured).
#[derive(Clone, Debug)]
pub struct DrawCmd {
    /// The texture sampled, `None` for plain shapes.
    pub texture: Option<Texture>,
    /// First index in [`Batch::indices`].
    pub first_index: u32,
    /// Number of indices.
    pub index_count: u32,
}

/// How a text label sits on its anchor point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Anchor {
    /// The label is centred on the point.
    #[default]
    Center,
    /// The label's left edge is at the point, vertically centred.
    Left,
    /// The label's right edge is at the point, vertically centred.
    Right,
}

/// A text label, drawn after the shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Anchor position: world coordinates, or pixels when `screen` is set.
    pub pos: Vec2,
    /// The text.
    pub text: String,
    /// Font size in pixels.
    pub size: f32,
    /// Color.
    pub color: Color,
    /// How the label sits on `pos`.
    pub anchor: Anchor,
    /// Whether `pos` is in pixels (origin top left) rather than world units.
    pub screen: bool,
}

/// What a demo draws in one frame.
///
/// Widths and radii are in world units; [`Batch::pixel`] converts "so many pixels" for hairlines
/// that should not scale with zoom:
///
/// ```
/// use lore_render::{Batch, Camera, Color, glam::vec2};
/// let mut batch = Batch::new(Camera::default(), vec2(1280.0, 720.0));
/// let px = batch.pixel();
/// batch.disk(vec2(0.0, 0.0), 1.0, Color::RED);
/// batch.line(vec2(-5.0, 0.0), vec2(5.0, 0.0), 2.0 * px, Color::WHITE);
/// batch.text(vec2(0.0, 2.0), "hello", 16.0, Color::WHITE);
/// assert!(batch.triangle_count() > 10);
/// ```
#[derive(Clone, Debug)]
pub struct Batch {
    camera: Camera,
    viewport: Vec2,
    /// Background color the frame is cleared to.
    pub clear_color: Color,
    vertices: Vec<Vertex>,
    indices: Vec<u32>,
    commands: Vec<DrawCmd>,
    labels: Vec<Label>,
}

const WHITE_UV: [f32; 2] = [0.5, 0.5];

impl Batch {
    /// An empty batch for a frame of `viewport` pixels seen through `camera`.
    #[must_use]
    pub fn new(camera: Camera, viewport: Vec2) -> Self {
        Self {
            camera,
            viewport,
            clear_color: Color::BACKGROUND,
            vertices: Vec::new(),
            indices: Vec::new(),
            commands: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Empties the batch for the next frame, keeping its allocations.
    pub fn reset(&mut self, camera: Camera, viewport: Vec2) {
        self.camera = camera;
        self.viewport = viewport;
        self.clear_color = Color::BACKGROUND;
        self.vertices.clear();
        self.indices.clear();
        self.commands.clear();
        self.labels.clear();
    }

    /// The camera this frame is drawn through.
    #[must_use]
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// The frame size in pixels.
    #[must_use]
    pub fn viewport(&self) -> Vec2 {
        self.viewport
    }

    /// World units per pixel: `2.0 * batch.pixel()` is a two-pixel line width at any zoom.
    #[must_use]
    pub fn pixel(&self) -> f32 {
        self.camera.world_per_pixel(self.viewport)
    }

    /// The visible world rectangle `(min, max)`.
    #[must_use]
    pub fn visible_rect(&self) -> (Vec2, Vec2) {
        self.camera.visible_rect(self.viewport)
    }

    /// All vertices recorded so far.
    #[must_use]
    pub fn vertices(&self) -> &[Vertex] {
        &self.vertices
    }

    /// All indices recorded so far (triangle list).
    #[must_use]
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The draw commands (runs of indices sharing a texture), in order.
    #[must_use]
    pub fn commands(&self) -> &[DrawCmd] {
        &self.commands
    }

    /// The text labels, in order.
    #[must_use]
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// Number of triangles recorded.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Appends a triangle list: `positions` with `uvs` (same length), indices relative to the
    /// first new vertex. Every other shape goes through here.
    fn push(&mut self, texture: Option<&Texture>, verts: impl IntoIterator<Item = Vertex>, idx: &[u32]) {
        let base = self.vertices.len() as u32;
        self.vertices.extend(verts);
        let first = self.indices.len() as u32;
        self.indices.extend(idx.iter().map(|i| base + i));
        let count = idx.len() as u32;
        let same_texture = |cmd: &DrawCmd| match (&cmd.texture, texture) {
            (None, None) => true,
            (Some(a), Some(b)) => a.id() == b.id(),
            _ => false,
        };
        match self.commands.last_mut() {
            Some(cmd) if same_texture(cmd) && cmd.first_index + cmd.index_count == first => {
                cmd.index_count += count;
            }
            _ => self.commands.push(DrawCmd { texture: texture.cloned(), first_index: first, index_count: count }),
        }
    }

    fn plain(pos: Vec2, color: Color) -> Vertex {
        Vertex { pos: pos.to_array(), uv: WHITE_UV, color: color.to_u32() }
    }

    /// A filled triangle (either winding).
    pub fn triangle(&mut self, a: Vec2, b: Vec2, c: Vec2, color: Color) {
        let v = [a, b, c].map(|p| Self::plain(p, color));
        self.push(None, v, &[0, 1, 2]);
    }

    /// A filled quadrilateral given by its corners in order (either winding, convex).
    pub fn quad(&mut self, corners: [Vec2; 4], color: Color) {
        let v = corners.map(|p| Self::plain(p, color));
        self.push(None, v, &[0, 1, 2, 0, 2, 3]);
    }

    /// A segment from `a` to `b`, `width` world units wide, with square ends flush at the
    /// endpoints. A zero-length segment draws a `width`-sized square.
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: Color) {
        let dir = (b - a).try_normalize().unwrap_or(Vec2::X);
        let n = dir.perp() * (0.5 * width);
        if a == b {
            let d = dir * (0.5 * width);
            self.quad([a - d - n, a + d - n, a + d + n, a - d + n], color);
        } else {
            self.quad([a - n, b - n, b + n, a + n], color);
        }
    }

    /// Connected segments through `points` (closed back to the first when `closed`), with
    /// round joints so thick lines have no gaps.
    pub fn polyline(&mut self, points: &[Vec2], closed: bool, width: f32, color: Color) {
        if points.len() < 2 {
            if let Some(&p) = points.first() {
                self.disk(p, 0.5 * width, color);
            }
            return;
        }
        let n = points.len();
        let segs = if closed { n } else { n - 1 };
        for i in 0..segs {
            self.line(points[i], points[(i + 1) % n], width, color);
        }
        if width > 2.5 * self.pixel() {
            let joints = if closed { 0..n } else { 1..n - 1 };
            for i in joints {
                self.disk(points[i], 0.5 * width, color);
            }
        }
    }

    /// An arrow from `from` to `to` with a head sized to the line width.
    pub fn arrow(&mut self, from: Vec2, to: Vec2, width: f32, color: Color) {
        let d = to - from;
        let len = d.length();
        if len <= f32::EPSILON {
            return;
        }
        let dir = d / len;
        let head = (4.0 * width).min(0.5 * len).max(3.0 * self.pixel());
        let base = to - dir * head;
        self.line(from, base, width, color);
        let n = dir.perp() * head * 0.6;
        self.triangle(to, base + n, base - n, color);
    }

    /// How many segments make a circle of world radius `r` look round at this zoom.
    fn circle_segments(&self, r: f32) -> u32 {
        let r_px = r / self.pixel().max(f32::MIN_POSITIVE);
        ((TAU * r_px / 3.0).ceil() as u32).clamp(8, 256)
    }

    /// A filled disk.
    pub fn disk(&mut self, center: Vec2, radius: f32, color: Color) {
        if radius <= 0.0 || !radius.is_finite() {
            return;
        }
        let n = self.circle_segments(radius);
        let verts = std::iter::once(Self::plain(center, color)).chain((0..n).map(|i| {
            let a = i as f32 / n as f32 * TAU;
            Self::plain(center + radius * Vec2::from_angle(a), color)
        }));
        let idx: Vec<u32> = (0..n).flat_map(|i| [0, 1 + i, 1 + (i + 1) % n]).collect();
        self.push(None, verts, &idx);
    }

    /// A circle outline `width` wide, centred on the radius.
    pub fn circle(&mut self, center: Vec2, radius: f32, width: f32, color: Color) {
        self.ring(center, (radius - 0.5 * width).max(0.0), radius + 0.5 * width, color);
    }

    /// A filled annulus between `inner` and `outer` radii.
    pub fn ring(&mut self, center: Vec2, inner: f32, outer: f32, color: Color) {
        if outer <= 0.0 || !outer.is_finite() || !inner.is_finite() {
            return;
        }
        let n = self.circle_segments(outer);
        let verts = (0..n).flat_map(|i| {
            let dir = Vec2::from_angle(i as f32 / n as f32 * TAU);
            [Self::plain(center + dir * inner, color), Self::plain(center + dir * outer, color)]
        });
        let idx: Vec<u32> = (0..n)
            .flat_map(|i| {
                let (a, b) = (2 * i, 2 * ((i + 1) % n));
                [a, a + 1, b + 1, a, b + 1, b]
            })
            .collect();
        self.push(None, verts, &idx);
    }

    /// A filled axis-aligned rectangle between corners `min` and `max`.
    pub fn rect(&mut self, min: Vec2, max: Vec2, color: Color) {
        self.quad([min, vec2(max.x, min.y), max, vec2(min.x, max.y)], color);
    }

    /// An axis-aligned rectangle outline, `width` wide, drawn inside `min..max`.
    pub fn rect_outline(&mut self, min: Vec2, max: Vec2, width: f32, color: Color) {
        let w = width.min(0.5 * (max.x - min.x)).min(0.5 * (max.y - min.y)).max(0.0);
        self.rect(min, vec2(max.x, min.y + w), color);
        self.rect(vec2(min.x, max.y - w), max, color);
        self.rect(vec2(min.x, min.y + w), vec2(min.x + w, max.y - w), color);
        self.rect(vec2(max.x - w, min.y + w), vec2(max.x, max.y - w), color);
    }

    /// A filled simple polygon (convex or not, either winding, no self-intersections), cut
    /// into triangles by ear clipping. Degenerate input (fewer than 3 points) draws nothing.
    pub fn polygon(&mut self, points: &[Vec2], color: Color) {
        let idx = triangulate(points);
        let verts = points.iter().map(|&p| Self::plain(p, color));
        self.push(None, verts, &idx);
    }

    /// A closed polygon outline.
    pub fn polygon_outline(&mut self, points: &[Vec2], width: f32, color: Color) {
        self.polyline(points, true, width, color);
    }

    /// A textured rectangle of world `size` centred on `center`, turned by `rotation` radians
    /// (counter-clockwise), its texels multiplied by `tint` (use [`Color::WHITE`] for none).
    pub fn sprite(&mut self, texture: &Texture, center: Vec2, size: Vec2, rotation: f32, tint: Color) {
        let rot = Vec2::from_angle(rotation);
        let h = size * 0.5;
        // Image rows run top to bottom: uv (0,0) is the top-left corner of the sprite.
        let corners = [
            (vec2(-h.x, -h.y), [0.0, 1.0]),
            (vec2(h.x, -h.y), [1.0, 1.0]),
            (vec2(h.x, h.y), [1.0, 0.0]),
            (vec2(-h.x, h.y), [0.0, 0.0]),
        ];
        let verts =
            corners.map(|(off, uv)| Vertex { pos: (center + rot.rotate(off)).to_array(), uv, color: tint.to_u32() });
        self.push(Some(texture), verts, &[0, 1, 2, 0, 2, 3]);
    }

    /// A text label centred on world point `pos`, `size` pixels high (it does not scale with zoom).
    pub fn text(&mut self, pos: Vec2, text: impl Into<String>, size: f32, color: Color) {
        self.text_anchored(pos, Anchor::Center, text, size, color);
    }

    /// A text label at world point `pos`, placed by `anchor`.
    pub fn text_anchored(&mut self, pos: Vec2, anchor: Anchor, text: impl Into<String>, size: f32, color: Color) {
        self.labels.push(Label { pos, text: text.into(), size, color, anchor, screen: false });
    }

    /// A text label at pixel position `pixel` (origin top left), left-aligned: for legends and
    /// HUDs that stay put when the camera moves.
    pub fn screen_text(&mut self, pixel: Vec2, text: impl Into<String>, size: f32, color: Color) {
        self.labels.push(Label { pos: pixel, text: text.into(), size, color, anchor: Anchor::Left, screen: true });
    }
}

/// Ear-clipping triangulation of a simple polygon; returns indices into `points`, three per
/// triangle, counter-clockwise. Quadratic, meant for the hundreds of points a demo draws.
#[must_use]
pub fn triangulate(points: &[Vec2]) -> Vec<u32> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    let area2: f32 = (0..n).map(|i| points[i].perp_dot(points[(i + 1) % n])).sum();
    let mut ring: Vec<u32> = (0..n as u32).collect();
    if area2 < 0.0 {
        ring.reverse();
    }
    let mut out = Vec::with_capacity(3 * (n - 2));
    let p = |i: u32| points[i as usize];
    let mut guard = 0;
    while ring.len() > 3 && guard < 2 * n * n {
        guard += 1;
        let m = ring.len();
        let mut clipped = false;
        for k in 0..m {
            let (a, b, c) = (ring[(k + m - 1) % m], ring[k], ring[(k + 1) % m]);
            let (pa, pb, pc) = (p(a), p(b), p(c));
            if (pb - pa).perp_dot(pc - pb) <= 0.0 {
                continue; // reflex or flat corner
            }
            let inside = ring.iter().any(|&o| o != a && o != b && o != c && point_in_triangle(p(o), pa, pb, pc));
            if !inside {
                out.extend([a, b, c]);
                ring.remove(k);
                clipped = true;
                break;
            }
        }
        if !clipped {
            // Not simple (or collinear runs): fall back to a fan so something still shows.
            let first = ring[0];
            for w in ring[1..].windows(2) {
                out.extend([first, w[0], w[1]]);
            }
            return out;
        }
    }
    if ring.len() == 3 {
        out.extend([ring[0], ring[1], ring[2]]);
    }
    out
}

fn point_in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let d1 = (b - a).perp_dot(p - a);
    let d2 = (c - b).perp_dot(p - b);
    let d3 = (a - c).perp_dot(p - c);
    d1 >= 0.0 && d2 >= 0.0 && d3 >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> Batch {
        Batch::new(Camera::default(), vec2(1280.0, 720.0))
    }

    fn area(b: &Batch) -> f32 {
        b.indices()
            .chunks(3)
            .map(|t| {
                let p = |i: u32| Vec2::from(b.vertices()[i as usize].pos);
                0.5 * (p(t[1]) - p(t[0])).perp_dot(p(t[2]) - p(t[0])).abs()
            })
            .sum()
    }

    #[test]
    fn disk_area_close_to_pi_r2() {
        let mut b = batch();
        b.disk(vec2(1.0, 2.0), 3.0, Color::RED);
        let a = area(&b);
        assert!((a - std::f32::consts::PI * 9.0).abs() / a < 0.01, "area {a}");
    }

    #[test]
    fn concave_polygon_area() {
        // An L shape of area 3, clockwise on purpose.
        let l = [vec2(0.0, 0.0), vec2(0.0, 2.0), vec2(1.0, 2.0), vec2(1.0, 1.0), vec2(2.0, 1.0), vec2(2.0, 0.0)];
        let mut b = batch();
        b.polygon(&l, Color::GREEN);
        assert_eq!(b.triangle_count(), 4);
        assert!((area(&b) - 3.0).abs() < 1e-5);
    }

    #[test]
    fn rect_outline_area() {
        let mut b = batch();
        b.rect_outline(vec2(0.0, 0.0), vec2(4.0, 3.0), 0.5, Color::WHITE);
        assert!((area(&b) - (12.0 - 3.0 * 2.0)).abs() < 1e-5);
    }

    #[test]
    fn commands_merge_by_texture() {
        let tex = Texture::from_rgba(1, 1, vec![255; 4]).unwrap();
        let mut b = batch();
        b.rect(Vec2::ZERO, Vec2::ONE, Color::RED);
        b.disk(Vec2::ZERO, 1.0, Color::RED);
        b.sprite(&tex, Vec2::ZERO, Vec2::ONE, 0.0, Color::WHITE);
        b.sprite(&tex, Vec2::ONE, Vec2::ONE, 0.5, Color::WHITE);
        b.line(Vec2::ZERO, Vec2::ONE, 0.1, Color::RED);
        assert_eq!(b.commands().len(), 3);
        let total: u32 = b.commands().iter().map(|c| c.index_count).sum();
        assert_eq!(total as usize, b.indices().len());
        assert!(b.indices().iter().all(|&i| (i as usize) < b.vertices().len()));
    }

    #[test]
    fn line_width_is_world_units() {
        let mut b = batch();
        b.line(vec2(0.0, 0.0), vec2(10.0, 0.0), 0.5, Color::WHITE);
        assert!((area(&b) - 5.0).abs() < 1e-5);
    }
}
