//! SVG and PNG pictures. Both draw the same list of shapes, so they always agree.
//!
//! Image space is y-down: a maze position `p` (y-up) lands at pixel
//! `(margin + (p.x − min.x) · scale, margin + (max.y − p.y) · scale)`. This is the one place
//! the crate converts.

use std::fmt::Write as _;
use std::io::Write as _;

use glam::{Vec2, vec2};

use super::{color_rgb, zone_rgb};
use crate::error::{Error, ExportError, MalformedError};
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

/// Largest side of a picture, in pixels: [`to_svg`], [`to_png`] and [`to_rgba`] refuse larger
/// ones with [`Error::Export`], whose message names the largest scale that fits. A PNG is
/// encoded in bands of rows, so its memory stays near one band plus the list of shapes whatever
/// its size; [`to_rgba`] holds every pixel (up to 1 GiB at this limit).
pub const MAX_PICTURE_SIDE: u32 = 16384;

/// Rows of pixels drawn at a time.
const BAND_ROWS: u32 = 64;

/// A shape to draw; colors are indices into the canvas's palette.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Rect { min: Vec2, max: Vec2, ink: u8 },
    Line { a: Vec2, b: Vec2, width: f32, ink: u8 },
    Disk { c: Vec2, r: f32, ink: u8 },
}

/// The picture as a list of shapes painted in order over a white ground, and their palette (a
/// few dozen colors at most: the fixed door palette, the zone tints and the fixed inks).
struct Canvas {
    size: (u32, u32),
    palette: Vec<[u8; 3]>,
    shapes: Vec<Shape>,
}

impl Canvas {
    /// The palette index of `rgb`, added when new.
    fn ink(&mut self, rgb: [u8; 3]) -> u8 {
        if let Some(i) = self.palette.iter().position(|&p| p == rgb) {
            return i as u8;
        }
        debug_assert!(self.palette.len() < 256, "the inks are a fixed set of under 256 colors");
        self.palette.push(rgb);
        (self.palette.len() - 1) as u8
    }

    fn rect(&mut self, min: Vec2, max: Vec2, rgb: [u8; 3]) {
        let ink = self.ink(rgb);
        self.shapes.push(Shape::Rect { min, max, ink });
    }

    fn line(&mut self, a: Vec2, b: Vec2, width: f32, rgb: [u8; 3]) {
        let ink = self.ink(rgb);
        self.shapes.push(Shape::Line { a, b, width, ink });
    }

    fn disk(&mut self, c: Vec2, r: f32, rgb: [u8; 3]) {
        let ink = self.ink(rgb);
        self.shapes.push(Shape::Disk { c, r, ink });
    }
}

const WALL: [u8; 3] = [30, 30, 36];
const EDGE: [u8; 3] = [90, 90, 100];
const CYCLE: [u8; 3] = [120, 120, 200];
const PATH: [u8; 3] = [20, 20, 20];
const WHITE: [u8; 3] = [255, 255, 255];

/// The picture's size in pixels for a style, checked against [`MAX_PICTURE_SIDE`].
fn picture_size(min: Vec2, max: Vec2, style: &Style) -> Result<(u32, u32), Error> {
    let extent = (max - min) * style.scale + Vec2::splat(2.0 * style.margin);
    let limit = MAX_PICTURE_SIDE as f32;
    if extent.x > limit || extent.y > limit {
        let room = limit - 2.0 * style.margin;
        let fit = (room / (max - min).max_element().max(f32::MIN_POSITIVE) * 100.0).floor() / 100.0;
        return Err(Error::Export(ExportError::PictureTooLarge {
            width: extent.x.ceil(),
            height: extent.y.ceil(),
            limit: MAX_PICTURE_SIDE,
            max_scale: (fit > 0.0).then_some(fit),
        }));
    }
    Ok((extent.x.ceil().max(1.0) as u32, extent.y.ceil().max(1.0) as u32))
}

fn layout(maze: &Maze, style: &Style) -> Result<Canvas, Error> {
    if !(style.scale.is_finite() && style.scale > 0.0 && style.margin.is_finite() && style.margin >= 0.0) {
        return Err(Error::Export(ExportError::Style));
    }
    if maze.positions.iter().any(|p| !p.is_finite()) {
        return Err(Error::Export(ExportError::NonFinitePosition));
    }
    let (min, max) = match maze.grid_size() {
        Some((w, h)) => (Vec2::ZERO, vec2(w as f32, h as f32)),
        None => maze
            .positions
            .iter()
            .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), &p| (lo.min(p), hi.max(p))),
    };
    let (min, max) = if maze.positions.is_empty() { (Vec2::ZERO, Vec2::ONE) } else { (min, max) };
    let size = picture_size(min, max, style)?;
    let px = |p: Vec2| vec2(style.margin + (p.x - min.x) * style.scale, style.margin + (max.y - p.y) * style.scale);
    let s = style.scale;
    let mut canvas = Canvas { size, palette: Vec::new(), shapes: Vec::new() };
    canvas.rect(Vec2::ZERO, vec2(size.0 as f32, size.1 as f32), WHITE);
    if let Some((w, h)) = maze.grid_size() {
        let cells = CellMap::from_maze(maze)?;
        let corner = |x: u32, y: u32| vec2(style.margin + x as f32 * s, style.margin + y as f32 * s);
        // Zone fills, one rectangle per run of cells of one zone along a row: the same pixels as
        // a rectangle per cell (a run covers exactly its cells' spans), a fraction of the shapes.
        for (y, row) in cells.cells().chunks(w as usize).enumerate() {
            let y = y as u32;
            let mut x = 0;
            for run in row.chunk_by(|a, b| a.zone == b.zone) {
                let end = x + run.len() as u32;
                canvas.rect(corner(x, y), corner(end, y + 1), zone_rgb(run[0].zone));
                x = end;
            }
        }
        let wall = (s / 6.0).max(1.0);
        for y in 0..h {
            for x in 0..w {
                let Some(c) = cells.cell(x, y) else { continue };
                if !c.connected_left {
                    canvas.line(corner(x, y), corner(x, y + 1), wall, WALL);
                }
                if !c.connected_up {
                    canvas.line(corner(x, y), corner(x + 1, y), wall, WALL);
                }
                if let Some(d) = c.door_left {
                    let inset = vec2(0.0, 0.15 * s);
                    canvas.line(corner(x, y) + inset, corner(x, y + 1) - inset, wall * 2.0, color_rgb(d));
                }
                if let Some(d) = c.door_up {
                    let inset = vec2(0.15 * s, 0.0);
                    canvas.line(corner(x, y) + inset, corner(x + 1, y) - inset, wall * 2.0, color_rgb(d));
                }
            }
        }
        canvas.line(corner(w, 0), corner(w, h), wall, WALL);
        canvas.line(corner(0, h), corner(w, h), wall, WALL);
    } else {
        if style.show_graph {
            for &[a, b] in &maze.graph {
                let (a, b) = (px(maze.positions[a as usize]), px(maze.positions[b as usize]));
                canvas.line(a, b, (s / 10.0).max(1.0), [190, 190, 200]);
            }
        }
        for e in &maze.edges {
            let (a, b) = (px(maze.positions[e.a as usize]), px(maze.positions[e.b as usize]));
            match e.door {
                Some(d) => canvas.line(a, b, (s * 0.6).max(6.0), color_rgb(d)),
                None => {
                    let rgb = if e.kind == EdgeKind::Cycle { CYCLE } else { EDGE };
                    canvas.line(a, b, (s / 5.0).max(2.0), rgb);
                }
            }
        }
        for (i, &p) in maze.positions.iter().enumerate() {
            let z = maze.zone.get(i).copied().unwrap_or(0);
            canvas.disk(px(p), (s * 0.45).max(4.0), WALL);
            canvas.disk(px(p), (s * 0.35).max(3.0), zone_rgb(z));
        }
    }
    if style.show_solution
        && let Ok(sol) = crate::solve::check(maze)
    {
        for w in sol.path.windows(2) {
            let (a, b) = (px(maze.positions[w[0] as usize]), px(maze.positions[w[1] as usize]));
            canvas.line(a, b, (s / 8.0).max(1.5), PATH);
        }
    }
    for k in &maze.keys {
        let c = px(maze.positions[k.node as usize]);
        canvas.disk(c, (s * 0.42).max(7.0), WALL);
        canvas.disk(c, (s * 0.32).max(5.0), color_rgb(k.color));
    }
    let root = px(maze.positions[maze.root as usize]);
    canvas.disk(root, (s * 0.42).max(7.0), [0, 0, 0]);
    canvas.disk(root, (s * 0.22).max(3.5), WHITE);
    Ok(canvas)
}

fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// The maze as an SVG document: zones as fills, doors as thick bars or edges in their color,
/// keys as colored disks, the start as a black ring.
///
/// # Errors
/// [`Error::Export`] for a bad style, non-finite positions or a picture over
/// [`MAX_PICTURE_SIDE`] pixels a side; [`Error::Malformed`] for a malformed grid maze.
pub fn to_svg(maze: &Maze, style: &Style) -> Result<String, Error> {
    validate(maze)?;
    let canvas = layout(maze, style)?;
    let (w, h) = canvas.size;
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n");
    let rgb = |ink: u8| hex(canvas.palette[usize::from(ink)]);
    for shape in &canvas.shapes {
        let _ = match *shape {
            Shape::Rect { min, max, ink } => writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                min.x,
                min.y,
                max.x - min.x,
                max.y - min.y,
                rgb(ink)
            ),
            Shape::Line { a, b, width, ink } => writeln!(
                s,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{width}\" stroke-linecap=\"round\"/>",
                a.x,
                a.y,
                b.x,
                b.y,
                rgb(ink)
            ),
            Shape::Disk { c, r, ink } => {
                writeln!(s, "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{}\"/>", c.x, c.y, rgb(ink))
            }
        };
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The rows `y0..y1` of pixels a shape may touch (its bounding box, clamped to `0..height`).
fn rows(shape: &Shape, height: u32) -> (u32, u32) {
    let (lo, hi) = bounds(shape);
    (lo.y.floor().max(0.0) as u32, (hi.y.ceil().max(0.0) as u32).min(height))
}

/// A shape's bounding box in pixels (a line's includes its round caps).
fn bounds(shape: &Shape) -> (Vec2, Vec2) {
    match *shape {
        Shape::Rect { min, max, .. } => (min, max),
        Shape::Disk { c, r, .. } => (c - Vec2::splat(r), c + Vec2::splat(r)),
        Shape::Line { a, b, width, .. } => (a.min(b) - Vec2::splat(width / 2.0), a.max(b) + Vec2::splat(width / 2.0)),
    }
}

/// Paints the canvas band by band: `band(y0, rows)` receives the palette indices of the rows
/// from `y0` on, `width` bytes a row, top to bottom. Each band paints, in order, the shapes whose
/// bounding box reaches it, so every pixel gets the color of the last shape covering its centre,
/// as if the whole picture were painted at once; memory is one band plus an index of the shapes
/// by band.
fn paint(canvas: &Canvas, mut band: impl FnMut(u32, &[u8]) -> Result<(), Error>) -> Result<(), Error> {
    let (w, h) = canvas.size;
    let bands = h.div_ceil(BAND_ROWS) as usize;
    // The shapes of each band, in painting order: `order[start[b]..start[b + 1]]`.
    let mut start = vec![0u32; bands + 1];
    for shape in &canvas.shapes {
        let (y0, y1) = rows(shape, h);
        if y0 < y1 {
            for b in (y0 / BAND_ROWS)..=((y1 - 1) / BAND_ROWS) {
                start[b as usize + 1] += 1;
            }
        }
    }
    for b in 0..bands {
        start[b + 1] += start[b];
    }
    let mut next = start.clone();
    let mut order = vec![0u32; start[bands] as usize];
    for (i, shape) in canvas.shapes.iter().enumerate() {
        let (y0, y1) = rows(shape, h);
        if y0 < y1 {
            for b in (y0 / BAND_ROWS)..=((y1 - 1) / BAND_ROWS) {
                order[next[b as usize] as usize] = i as u32;
                next[b as usize] += 1;
            }
        }
    }
    let mut pixels = vec![0u8; w as usize * BAND_ROWS as usize];
    for b in 0..bands {
        let top = b as u32 * BAND_ROWS;
        let bottom = (top + BAND_ROWS).min(h);
        let pixels = &mut pixels[..w as usize * (bottom - top) as usize];
        for &i in &order[start[b] as usize..start[b + 1] as usize] {
            let shape = &canvas.shapes[i as usize];
            let (lo, hi) = bounds(shape);
            let area = Area {
                x0: lo.x.floor().max(0.0) as u32,
                x1: (hi.x.ceil().max(0.0) as u32).min(w),
                y0: (lo.y.floor().max(0.0) as u32).max(top),
                y1: (hi.y.ceil().max(0.0) as u32).min(bottom),
                top,
                width: w,
            };
            match *shape {
                Shape::Rect { ink, .. } => area.fill(pixels, ink, |_| true),
                Shape::Disk { c, r, ink } => area.fill(pixels, ink, |p| p.distance_squared(c) <= r * r),
                Shape::Line { a, b, width, ink } => {
                    let r = width / 2.0;
                    let ab = b - a;
                    let len2 = ab.length_squared().max(1e-12);
                    area.fill(pixels, ink, |p| {
                        let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
                        p.distance_squared(a + ab * t) <= r * r
                    });
                }
            }
        }
        band(top, pixels)?;
    }
    Ok(())
}

/// The pixels `x0..x1 × y0..y1` of a band whose first row is `top`.
struct Area {
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
    top: u32,
    width: u32,
}

impl Area {
    /// Sets the pixels whose centre is `inside` to `ink`.
    #[inline]
    fn fill(&self, pixels: &mut [u8], ink: u8, inside: impl Fn(Vec2) -> bool) {
        for y in self.y0..self.y1 {
            let row = (y - self.top) as usize * self.width as usize;
            for x in self.x0..self.x1 {
                if inside(vec2(x as f32 + 0.5, y as f32 + 0.5)) {
                    pixels[row + x as usize] = ink;
                }
            }
        }
    }
}

/// The picture as RGBA8 pixels, rows top to bottom: `(width, height, pixels)`. Every pixel is
/// held at once (4 bytes each); [`to_png`] does not need to.
///
/// # Errors
/// As [`to_svg`].
pub fn to_rgba(maze: &Maze, style: &Style) -> Result<(u32, u32, Vec<u8>), Error> {
    validate(maze)?;
    let canvas = layout(maze, style)?;
    let (w, h) = canvas.size;
    let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
    paint(&canvas, |_, indices| {
        for &i in indices {
            rgba.extend_from_slice(&canvas.palette[usize::from(i)]);
            rgba.push(255);
        }
        Ok(())
    })?;
    Ok((w, h, rgba))
}

/// The picture as PNG file bytes: an indexed-color PNG (the picture has a few dozen colors),
/// encoded band by band as it is painted.
///
/// # Errors
/// As [`to_svg`], plus [`Error::Export`] if PNG encoding fails.
pub fn to_png(maze: &Maze, style: &Style) -> Result<Vec<u8>, Error> {
    validate(maze)?;
    let canvas = layout(maze, style)?;
    let (w, h) = canvas.size;
    let encoding = |e: png::EncodingError| Error::Export(ExportError::Png { message: e.to_string() });
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(canvas.palette.concat());
    // Rows repeat down each cell, so the Up filter leaves runs of zeros that zlib level 3 packs
    // well: a 1000 × 1000 grid maze at 16 px a cell (16016 pixels square) encodes to 2.3 MB in
    // 1.5 s with 0.1 GB of memory, against 2.6 MB, 7.2 s and 1.1 GB for the whole RGBA picture
    // with the adaptive filter at the default level (docs/mazegen.md, "Pictures").
    encoder.set_deflate_compression(png::DeflateCompression::Level(3));
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().map_err(encoding)?;
    {
        let mut stream = writer.stream_writer().map_err(encoding)?;
        paint(&canvas, |_, indices| {
            stream.write_all(indices).map_err(|e| Error::Export(ExportError::Png { message: e.to_string() }))
        })?;
        stream.finish().map_err(encoding)?;
    }
    writer.finish().map_err(encoding)?;
    Ok(out)
}

fn validate(maze: &Maze) -> Result<(), Error> {
    let n = maze.positions.len();
    if n == 0 || maze.root as usize >= n {
        return Err(Error::Malformed(MalformedError::NoNodesOrRoot));
    }
    if maze.edges.iter().any(|e| e.a as usize >= n || e.b as usize >= n)
        || maze.graph.iter().any(|g| g.iter().any(|&v| v as usize >= n))
    {
        return Err(Error::Malformed(MalformedError::MissingEdgeNode));
    }
    if maze.keys.iter().any(|k| k.node as usize >= n) {
        return Err(Error::Malformed(MalformedError::MissingKeyNode));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    /// Band by band, the canvas comes out as if every shape were painted over the whole picture
    /// in order (shapes reaching over band edges, lines across many bands, disks at the rim).
    #[test]
    fn bands_paint_what_one_pass_paints() {
        for config in [Config::grid(13, 29).zones(4).cycles(6).seed(2), Config::points(90).zones(3).cycles(5).seed(8)] {
            let maze = crate::steps::generate(&config).unwrap();
            for scale in [1.5f32, 6.3, 11.0] {
                let style = Style { scale, show_graph: true, show_solution: true, ..Style::default() };
                let canvas = layout(&maze, &style).unwrap();
                let (w, h) = canvas.size;
                let mut whole = vec![0u8; w as usize * h as usize];
                for shape in &canvas.shapes {
                    let (lo, hi) = bounds(shape);
                    let area = Area {
                        x0: lo.x.floor().max(0.0) as u32,
                        x1: (hi.x.ceil().max(0.0) as u32).min(w),
                        y0: lo.y.floor().max(0.0) as u32,
                        y1: (hi.y.ceil().max(0.0) as u32).min(h),
                        top: 0,
                        width: w,
                    };
                    match *shape {
                        Shape::Rect { ink, .. } => area.fill(&mut whole, ink, |_| true),
                        Shape::Disk { c, r, ink } => area.fill(&mut whole, ink, |p| p.distance_squared(c) <= r * r),
                        Shape::Line { a, b, width, ink } => area.fill(&mut whole, ink, |p| {
                            let t = ((p - a).dot(b - a) / (b - a).length_squared().max(1e-12)).clamp(0.0, 1.0);
                            p.distance_squared(a + (b - a) * t) <= (width / 2.0) * (width / 2.0)
                        }),
                    }
                }
                let mut banded = Vec::new();
                paint(&canvas, |top, rows| {
                    assert_eq!(top as usize * w as usize, banded.len());
                    banded.extend_from_slice(rows);
                    Ok(())
                })
                .unwrap();
                assert!(h > 2 * BAND_ROWS || scale < 2.0, "{h} rows");
                assert!(banded == whole, "{config:?} at scale {scale}");
            }
        }
    }
}
