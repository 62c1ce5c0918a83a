//! SVG and PNG pictures. Both draw the same list of shapes, so they always agree.
//!
//! Image space is y-down: a maze position `p` (y-up) lands at pixel
//! `(margin + (p.x − min.x) · scale, margin + (max.y − p.y) · scale)`. This is the one place
//! the crate converts.

use std::fmt::Write;

use glam::{Vec2, vec2};

use super::{color_rgb, zone_rgb};
use crate::error::Error;
use crate::grid::CellMap;
use crate::maze::{EdgeKind, Maze};

/// How to draw a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Pixels per world unit (a grid cell is one unit).
    pub scale: f32,
    /// Blank border in pixels.
    pub margin: f32,
    /// Draw the unused edges of the base graph (point mazes) faintly.
    pub show_graph: bool,
    /// Draw the checker's solution walk (nothing if the maze is unsolvable).
    pub show_solution: bool,
}

impl Default for Style {
    /// 8 px per unit, 8 px margin, no graph, no solution.
    fn default() -> Self {
        Self { scale: 8.0, margin: 8.0, show_graph: false, show_solution: false }
    }
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Rect { min: Vec2, max: Vec2, rgb: [u8; 3] },
    Line { a: Vec2, b: Vec2, width: f32, rgb: [u8; 3] },
    Disk { c: Vec2, r: f32, rgb: [u8; 3] },
}

struct Canvas {
    size: (u32, u32),
    shapes: Vec<Shape>,
}

const WALL: [u8; 3] = [30, 30, 36];
const EDGE: [u8; 3] = [90, 90, 100];
const CYCLE: [u8; 3] = [120, 120, 200];
const PATH: [u8; 3] = [20, 20, 20];

fn layout(maze: &Maze, style: &Style) -> Result<Canvas, Error> {
    if !(style.scale.is_finite() && style.scale > 0.0 && style.margin.is_finite() && style.margin >= 0.0) {
        return Err(Error::Export("style: scale must be positive and margin non-negative".to_owned()));
    }
    if maze.positions.iter().any(|p| !p.is_finite()) {
        return Err(Error::Export("a node position is not finite".to_owned()));
    }
    let (min, max) = match maze.grid_size() {
        Some((w, h)) => (Vec2::ZERO, vec2(w as f32, h as f32)),
        None => maze
            .positions
            .iter()
            .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), &p| (lo.min(p), hi.max(p))),
    };
    let (min, max) = if maze.positions.is_empty() { (Vec2::ZERO, Vec2::ONE) } else { (min, max) };
    let extent = (max - min) * style.scale + Vec2::splat(2.0 * style.margin);
    if extent.x > 16384.0 || extent.y > 16384.0 {
        return Err(Error::Export("picture larger than 16384 pixels; lower the scale".to_owned()));
    }
    let size = (extent.x.ceil().max(1.0) as u32, extent.y.ceil().max(1.0) as u32);
    let px = |p: Vec2| vec2(style.margin + (p.x - min.x) * style.scale, style.margin + (max.y - p.y) * style.scale);
    let s = style.scale;
    let mut shapes =
        vec![Shape::Rect { min: Vec2::ZERO, max: vec2(size.0 as f32, size.1 as f32), rgb: [255, 255, 255] }];
    if let Some((w, h)) = maze.grid_size() {
        let cells = CellMap::from_maze(maze)?;
        for y in 0..h {
            for x in 0..w {
                let Some(c) = cells.cell(x, y) else { continue };
                let tl = vec2(style.margin + x as f32 * s, style.margin + y as f32 * s);
                shapes.push(Shape::Rect { min: tl, max: tl + Vec2::splat(s), rgb: zone_rgb(c.zone) });
            }
        }
        let wall = (s / 6.0).max(1.0);
        let corner = |x: u32, y: u32| vec2(style.margin + x as f32 * s, style.margin + y as f32 * s);
        for y in 0..h {
            for x in 0..w {
                let Some(c) = cells.cell(x, y) else { continue };
                if !c.connected_left {
                    shapes.push(Shape::Line { a: corner(x, y), b: corner(x, y + 1), width: wall, rgb: WALL });
                }
                if !c.connected_up {
                    shapes.push(Shape::Line { a: corner(x, y), b: corner(x + 1, y), width: wall, rgb: WALL });
                }
                if let Some(d) = c.door_left {
                    shapes.push(Shape::Line {
                        a: corner(x, y) + vec2(0.0, 0.15 * s),
                        b: corner(x, y + 1) - vec2(0.0, 0.15 * s),
                        width: wall * 2.0,
                        rgb: color_rgb(d),
                    });
                }
                if let Some(d) = c.door_up {
                    shapes.push(Shape::Line {
                        a: corner(x, y) + vec2(0.15 * s, 0.0),
                        b: corner(x + 1, y) - vec2(0.15 * s, 0.0),
                        width: wall * 2.0,
                        rgb: color_rgb(d),
                    });
                }
            }
        }
        shapes.push(Shape::Line { a: corner(w, 0), b: corner(w, h), width: wall, rgb: WALL });
        shapes.push(Shape::Line { a: corner(0, h), b: corner(w, h), width: wall, rgb: WALL });
    } else {
        if style.show_graph {
            for &[a, b] in &maze.graph {
                shapes.push(Shape::Line {
                    a: px(maze.positions[a as usize]),
                    b: px(maze.positions[b as usize]),
                    width: (s / 10.0).max(1.0),
                    rgb: [190, 190, 200],
                });
            }
        }
        for e in &maze.edges {
            let (a, b) = (px(maze.positions[e.a as usize]), px(maze.positions[e.b as usize]));
            match e.door {
                Some(d) => shapes.push(Shape::Line { a, b, width: (s * 0.6).max(6.0), rgb: color_rgb(d) }),
                None => {
                    let rgb = if e.kind == EdgeKind::Cycle { CYCLE } else { EDGE };
                    shapes.push(Shape::Line { a, b, width: (s / 5.0).max(2.0), rgb });
                }
            }
        }
        for (i, &p) in maze.positions.iter().enumerate() {
            let z = maze.zone.get(i).copied().unwrap_or(0);
            shapes.push(Shape::Disk { c: px(p), r: (s * 0.45).max(4.0), rgb: WALL });
            shapes.push(Shape::Disk { c: px(p), r: (s * 0.35).max(3.0), rgb: zone_rgb(z) });
        }
    }
    if style.show_solution
        && let Ok(sol) = crate::solve::check(maze)
    {
        {
            for w in sol.path.windows(2) {
                shapes.push(Shape::Line {
                    a: px(maze.positions[w[0] as usize]),
                    b: px(maze.positions[w[1] as usize]),
                    width: (s / 8.0).max(1.5),
                    rgb: PATH,
                });
            }
        }
    }
    for k in &maze.keys {
        let c = px(maze.positions[k.node as usize]);
        shapes.push(Shape::Disk { c, r: (s * 0.42).max(7.0), rgb: WALL });
        shapes.push(Shape::Disk { c, r: (s * 0.32).max(5.0), rgb: color_rgb(k.color) });
    }
    let root = px(maze.positions[maze.root as usize]);
    shapes.push(Shape::Disk { c: root, r: (s * 0.42).max(7.0), rgb: [0, 0, 0] });
    shapes.push(Shape::Disk { c: root, r: (s * 0.22).max(3.5), rgb: [255, 255, 255] });
    Ok(Canvas { size, shapes })
}

fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// The maze as an SVG document: zones as fills, doors as thick bars or edges in their color,
/// keys as colored disks, the start as a black ring.
///
/// # Errors
/// [`Error::Export`] for a bad style, non-finite positions or a picture over 16384 pixels;
/// [`Error::Malformed`] for a malformed grid maze.
pub fn to_svg(maze: &Maze, style: &Style) -> Result<String, Error> {
    validate(maze)?;
    let canvas = layout(maze, style)?;
    let (w, h) = canvas.size;
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n");
    for shape in &canvas.shapes {
        let _ = match *shape {
            Shape::Rect { min, max, rgb } => writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                min.x,
                min.y,
                max.x - min.x,
                max.y - min.y,
                hex(rgb)
            ),
            Shape::Line { a, b, width, rgb } => writeln!(
                s,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{width}\" stroke-linecap=\"round\"/>",
                a.x,
                a.y,
                b.x,
                b.y,
                hex(rgb)
            ),
            Shape::Disk { c, r, rgb } => {
                writeln!(s, "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{}\"/>", c.x, c.y, hex(rgb))
            }
        };
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The picture as RGBA8 pixels, rows top to bottom: `(width, height, pixels)`.
///
/// # Errors
/// As [`to_svg`].
pub fn to_rgba(maze: &Maze, style: &Style) -> Result<(u32, u32, Vec<u8>), Error> {
    validate(maze)?;
    let canvas = layout(maze, style)?;
    let (w, h) = canvas.size;
    let mut px = vec![255u8; w as usize * h as usize * 4];
    let mut fill = |min: Vec2, max: Vec2, inside: &dyn Fn(Vec2) -> bool, rgb: [u8; 3]| {
        let x0 = min.x.floor().max(0.0) as u32;
        let y0 = min.y.floor().max(0.0) as u32;
        let x1 = (max.x.ceil().max(0.0) as u32).min(w);
        let y1 = (max.y.ceil().max(0.0) as u32).min(h);
        for y in y0..y1 {
            for x in x0..x1 {
                if inside(vec2(x as f32 + 0.5, y as f32 + 0.5)) {
                    let i = (y as usize * w as usize + x as usize) * 4;
                    px[i..i + 3].copy_from_slice(&rgb);
                }
            }
        }
    };
    for shape in &canvas.shapes {
        match *shape {
            Shape::Rect { min, max, rgb } => fill(min, max, &|_| true, rgb),
            Shape::Disk { c, r, rgb } => {
                fill(c - Vec2::splat(r), c + Vec2::splat(r), &|p| p.distance_squared(c) <= r * r, rgb)
            }
            Shape::Line { a, b, width, rgb } => {
                let r = width / 2.0;
                let ab = b - a;
                let len2 = ab.length_squared().max(1e-12);
                let inside = |p: Vec2| {
                    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
                    p.distance_squared(a + ab * t) <= r * r
                };
                fill(a.min(b) - Vec2::splat(r), a.max(b) + Vec2::splat(r), &inside, rgb);
            }
        }
    }
    Ok((w, h, px))
}

/// The picture as PNG file bytes.
///
/// # Errors
/// As [`to_svg`], plus [`Error::Export`] if PNG encoding fails.
pub fn to_png(maze: &Maze, style: &Style) -> Result<Vec<u8>, Error> {
    let (w, h, rgba) = to_rgba(maze, style)?;
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| Error::Export(e.to_string()))?;
        writer.write_image_data(&rgba).map_err(|e| Error::Export(e.to_string()))?;
    }
    Ok(out)
}

fn validate(maze: &Maze) -> Result<(), Error> {
    let n = maze.positions.len();
    if n == 0 || maze.root as usize >= n {
        return Err(Error::Malformed("no nodes or root out of range".to_owned()));
    }
    if maze.edges.iter().any(|e| e.a as usize >= n || e.b as usize >= n)
        || maze.graph.iter().any(|g| g.iter().any(|&v| v as usize >= n))
    {
        return Err(Error::Malformed("an edge names a missing node".to_owned()));
    }
    if maze.keys.iter().any(|k| k.node as usize >= n) {
        return Err(Error::Malformed("a key lies on a missing node".to_owned()));
    }
    Ok(())
}
