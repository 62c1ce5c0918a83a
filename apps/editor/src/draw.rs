//! Things draw themselves from their reflected fields: whatever the kind, a `position` with a
//! `radius` is a disk (a star when it also has `points`), a `size` makes a turned block, a
//! list of `points` a polyline, a `role` a marker ring. Picking uses the same figures.

use lore_reflect::{Reflect, ReflectRef};
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Color};

/// The figure a thing is drawn as, read from its fields.
#[derive(Clone, Debug, PartialEq)]
pub enum Figure {
    /// `position` + `radius`.
    Disk {
        /// Centre.
        center: Vec2,
        /// Radius.
        radius: f32,
    },
    /// `position` + `radius` + `points` (+ `inner`, `angle`).
    Star {
        /// Centre.
        center: Vec2,
        /// Number of points.
        points: u32,
        /// Outer radius.
        radius: f32,
        /// Inner radius as a fraction of the outer.
        inner: f32,
        /// Rotation, radians.
        angle: f32,
    },
    /// `position` + `size` (+ `angle`).
    Block {
        /// Centre.
        center: Vec2,
        /// Width and height.
        size: Vec2,
        /// Rotation, radians.
        angle: f32,
    },
    /// `points` (+ `width`, `closed`).
    Path {
        /// The points.
        points: Vec<Vec2>,
        /// Line width.
        width: f32,
        /// Whether the last point joins the first.
        closed: bool,
    },
    /// `position` alone (a marker), with a label.
    Ring {
        /// Centre.
        center: Vec2,
        /// The text under it (the `role`).
        label: String,
    },
}

fn f32_at(v: &dyn Reflect, name: &str) -> Option<f32> {
    v.field(name)?.downcast_ref::<f32>().copied()
}

fn vec2_at(v: &dyn Reflect, name: &str) -> Option<Vec2> {
    v.field(name)?.downcast_ref::<Vec2>().copied()
}

/// The thing's color: a `color` field of three or four numbers in 0..=1 (clamped).
#[must_use]
pub fn color_of(v: &dyn Reflect) -> Color {
    let Some(field) = v.field("color") else { return Color::GREY };
    let ReflectRef::List(list) = field.reflect_ref() else { return Color::GREY };
    let channel = |i: usize, default: f32| {
        let x = list.get(i).and_then(|c| c.downcast_ref::<f32>().copied()).unwrap_or(default);
        (x.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    Color::rgba(channel(0, 0.5), channel(1, 0.5), channel(2, 0.5), channel(3, 1.0))
}

/// The figure for a value, or `None` when it has nothing to draw.
#[must_use]
pub fn figure(v: &dyn Reflect) -> Option<Figure> {
    if let Some(points) = v.field("points").and_then(|p| p.downcast_ref::<Vec<Vec2>>()) {
        return Some(Figure::Path {
            points: points.clone(),
            width: f32_at(v, "width").unwrap_or(0.2),
            closed: v.field("closed").and_then(|c| c.downcast_ref::<bool>().copied()).unwrap_or(false),
        });
    }
    let center = vec2_at(v, "position")?;
    let angle = f32_at(v, "angle").unwrap_or(0.0);
    if let Some(radius) = f32_at(v, "radius") {
        if let Some(points) = v.field("points").and_then(|p| p.downcast_ref::<u32>().copied()) {
            let inner = f32_at(v, "inner").unwrap_or(0.5);
            return Some(Figure::Star { center, points: points.clamp(3, 64), radius, inner, angle });
        }
        return Some(Figure::Disk { center, radius });
    }
    if let Some(size) = vec2_at(v, "size") {
        return Some(Figure::Block { center, size, angle });
    }
    let label = v.field("role").map(|r| r.to_text()).unwrap_or_default();
    Some(Figure::Ring { center, label })
}

fn star_outline(center: Vec2, points: u32, radius: f32, inner: f32, angle: f32) -> Vec<Vec2> {
    let n = points * 2;
    (0..n)
        .map(|i| {
            let r = if i % 2 == 0 { radius } else { radius * inner.clamp(0.05, 1.0) };
            let a = angle + std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::TAU / n as f32;
            center + r * Vec2::from_angle(a)
        })
        .collect()
}

fn block_corners(center: Vec2, size: Vec2, angle: f32) -> [Vec2; 4] {
    let rot = Vec2::from_angle(angle);
    let h = size.abs() * 0.5;
    [vec2(-h.x, -h.y), vec2(h.x, -h.y), vec2(h.x, h.y), vec2(-h.x, h.y)].map(|c| center + rot.rotate(c))
}

/// Ring radius of markers, world units.
const RING: f32 = 0.8;

/// Draws a thing; `highlight` adds the selection outline, `labels` its name (and a marker's
/// role).
pub fn draw(batch: &mut Batch, v: &dyn Reflect, name: &str, highlight: bool, labels: bool) {
    let color = color_of(v);
    let Some(fig) = figure(v) else { return };
    let outline = Color::rgb(255, 240, 120);
    match &fig {
        Figure::Disk { center, radius } => {
            batch.disk(*center, radius.abs(), color);
            if highlight {
                batch.circle(*center, radius.abs() + 0.25, 0.12, outline);
            }
        }
        Figure::Star { center, points, radius, inner, angle } => {
            let pts = star_outline(*center, *points, radius.abs(), *inner, *angle);
            batch.polygon(&pts, color);
            if highlight {
                batch.polygon_outline(&pts, 0.12, outline);
            }
        }
        Figure::Block { center, size, angle } => {
            let corners = block_corners(*center, *size, *angle);
            batch.quad(corners, color);
            if highlight {
                batch.polygon_outline(&corners, 0.12, outline);
            }
        }
        Figure::Path { points, width, closed } => {
            batch.polyline(points, *closed, width.abs().max(0.02), color);
            for p in points {
                batch.disk(*p, width.abs().max(0.05) * 0.9, color);
            }
            if highlight {
                for p in points {
                    batch.circle(*p, width.abs() + 0.3, 0.08, outline);
                }
            }
        }
        Figure::Ring { center, label } => {
            batch.ring(*center, RING * 0.6, RING, color);
            batch.disk(*center, RING * 0.25, color);
            if labels {
                batch.text(*center + vec2(0.0, RING + 0.5), label.clone(), 14.0, color);
            }
            if highlight {
                batch.circle(*center, RING + 0.25, 0.12, outline);
            }
        }
    }
    if labels && !name.is_empty() && !matches!(fig, Figure::Ring { .. }) {
        let (min, max) = bounds(v).unwrap_or((Vec2::ZERO, Vec2::ZERO));
        batch.text(vec2((min.x + max.x) * 0.5, min.y - 0.5), name, 13.0, Color::rgb(200, 205, 215));
    }
}

/// The world bounding box of a thing's figure.
#[must_use]
pub fn bounds(v: &dyn Reflect) -> Option<(Vec2, Vec2)> {
    let fig = figure(v)?;
    let around = |c: Vec2, r: f32| (c - Vec2::splat(r), c + Vec2::splat(r));
    Some(match fig {
        Figure::Disk { center, radius } => around(center, radius.abs()),
        Figure::Star { center, radius, .. } => around(center, radius.abs()),
        Figure::Ring { center, .. } => around(center, RING),
        Figure::Block { center, size, angle } => {
            let c = block_corners(center, size, angle);
            (c.iter().fold(Vec2::MAX, |a, &b| a.min(b)), c.iter().fold(Vec2::MIN, |a, &b| a.max(b)))
        }
        Figure::Path { points, width, .. } => {
            let min = points.iter().fold(Vec2::MAX, |a, &b| a.min(b));
            let max = points.iter().fold(Vec2::MIN, |a, &b| a.max(b));
            if points.is_empty() {
                return None;
            }
            (min - Vec2::splat(width), max + Vec2::splat(width))
        }
    })
}

fn point_in_polygon(p: Vec2, poly: &[Vec2]) -> bool {
    let mut inside = false;
    let mut j = poly.len().wrapping_sub(1);
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + t * ab)
}

/// Whether world point `p` is on the thing (with a small margin for thin figures).
#[must_use]
pub fn hit(v: &dyn Reflect, p: Vec2) -> bool {
    match figure(v) {
        Some(Figure::Disk { center, radius }) => p.distance(center) <= radius.abs(),
        Some(Figure::Star { center, points, radius, inner, angle }) => {
            point_in_polygon(p, &star_outline(center, points, radius.abs(), inner, angle))
        }
        Some(Figure::Block { center, size, angle }) => point_in_polygon(p, &block_corners(center, size, angle)),
        Some(Figure::Path { points, width, closed }) => {
            let n = points.len();
            let segs = if closed { n } else { n.saturating_sub(1) };
            (0..segs).any(|i| distance_to_segment(p, points[i], points[(i + 1) % n]) <= width.abs() * 0.5 + 0.3)
                || points.iter().any(|q| q.distance(p) <= width.abs() + 0.3)
        }
        Some(Figure::Ring { center, .. }) => p.distance(center) <= RING,
        None => false,
    }
}

/// Moves a thing by `delta`: its `position`, or every one of its `points`.
pub fn translate(v: &mut dyn Reflect, delta: Vec2) {
    if let Some(pos) = v.field_mut("position").and_then(|p| p.downcast_mut::<Vec2>()) {
        *pos += delta;
    } else if let Some(points) = v.field_mut("points").and_then(|p| p.downcast_mut::<Vec<Vec2>>()) {
        for q in points {
            *q += delta;
        }
    }
}

/// The thing's anchor: its `position`, or its first point.
#[must_use]
pub fn anchor(v: &dyn Reflect) -> Option<Vec2> {
    vec2_at(v, "position").or_else(|| v.field("points")?.downcast_ref::<Vec<Vec2>>()?.first().copied())
}
