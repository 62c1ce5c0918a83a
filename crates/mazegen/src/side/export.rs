//! Side-scroller level files: ASCII, JSON, SVG and PNG pictures, and Tiled's TMX.

use std::fmt::Write as _;

use super::{LevelTile, SideLevel};

impl SideLevel {
    /// The level as text, one line per row, each ending in `\n`: the tiles as
    /// [`LevelTile::ascii`] shows them, with objects over them: `@` start, `!` exit, `a` to `z`
    /// keys of colors 0 to 25 (`?` past 25); a lift's stops show as `=`. The start shows over a
    /// key on the same tile.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut grid: Vec<char> = (0..w * h).map(|i| self.tiles.get(i).map_or('#', |t| t.ascii())).collect();
        let mut put = |(x, y): (u32, u32), c: char| {
            if (x as usize) < w && (y as usize) < h {
                grid[y as usize * w + x as usize] = c;
            }
        };
        for lift in &self.lifts {
            for x in lift.x..lift.x + lift.width {
                for y in [lift.top, lift.bottom.saturating_sub(1)] {
                    put((x, y), '=');
                }
            }
        }
        for &(color, at) in &self.keys {
            put(at, if color < 26 { char::from(b'a' + color) } else { '?' });
        }
        put(self.exit, '!');
        put(self.start, '@');
        let mut s = String::with_capacity((w + 1) * h);
        for row in grid.chunks(w.max(1)) {
            s.extend(row);
            s.push('\n');
        }
        s
    }
}

impl SideLevel {
    /// Reads a level drawn in the characters of [`SideLevel::to_ascii`] (for hand-made levels
    /// and tests): `#` solid, space empty, `-` one-way, `H` ladder, `/` and `\` slopes, `A` to
    /// `Z` doors, `@` start, `!` exit, `a` to `z` keys (objects lie on empty tiles). Lines may
    /// differ in length (short ones are padded with empty tiles). Hatches and lifts have no
    /// character of their own here (a hatch reads as a door, a lift's `=` as empty air): set
    /// them on the result.
    ///
    /// # Errors
    /// [`Error::Malformed`](crate::Error::Malformed) for an unknown character, a missing or repeated start or exit, or
    /// an empty text.
    pub fn from_ascii(text: &str, movement: super::Movement) -> Result<Self, crate::Error> {
        use crate::error::{Error, MalformedError};
        let lines: Vec<&str> = text.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if width == 0 || lines.is_empty() {
            return Err(Error::Malformed(MalformedError::EmptyLevel));
        }
        let mut level = SideLevel::new(width as u32, lines.len() as u32, movement);
        let (mut start, mut exit) = (None, None);
        for (y, line) in lines.iter().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                let at = (x as u32, y as u32);
                let tile = match ch {
                    // A lift's stop marker is air: the lift itself is not in the text.
                    ' ' | '=' => LevelTile::Empty,
                    '#' => LevelTile::Solid,
                    '-' => LevelTile::OneWay,
                    'H' => LevelTile::Ladder,
                    '/' => LevelTile::SlopeUp,
                    '\\' => LevelTile::SlopeDown,
                    'A'..='Z' => LevelTile::Door(ch as u8 - b'A'),
                    'a'..='z' => {
                        level.keys.push((ch as u8 - b'a', at));
                        LevelTile::Empty
                    }
                    '@' | '!' => {
                        let slot = if ch == '@' { &mut start } else { &mut exit };
                        if slot.replace(at).is_some() {
                            return Err(Error::Malformed(MalformedError::Repeated { ch, at }));
                        }
                        LevelTile::Empty
                    }
                    ch => return Err(Error::Malformed(MalformedError::LevelChar { ch, at })),
                };
                level.set(at.0, at.1, tile);
            }
        }
        level.start = start.ok_or(Error::Malformed(MalformedError::Missing { ch: '@' }))?;
        level.exit = exit.ok_or(Error::Malformed(MalformedError::Missing { ch: '!' }))?;
        Ok(level)
    }
}

/// Tile names in the TMX tileset, by tile id (gid − 1); doors and hatches are objects.
pub const TMX_TILES: [&str; 5] = ["solid", "one-way", "ladder", "slope-up", "slope-down"];

/// Pixels per tile in the TMX export (Tiled needs a tile size; the level is in tiles).
pub const TMX_TILE_PIXELS: u32 = 16;

/// The TMX tile id (gid − 1) of a terrain tile, `None` for empty air, doors and hatches.
fn tmx_id(tile: LevelTile) -> Option<u32> {
    match tile {
        LevelTile::Solid => Some(0),
        LevelTile::OneWay => Some(1),
        LevelTile::Ladder => Some(2),
        LevelTile::SlopeUp => Some(3),
        LevelTile::SlopeDown => Some(4),
        LevelTile::Empty | LevelTile::Door(_) | LevelTile::Hatch(_) => None,
    }
}

/// Escapes text for an XML attribute value.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(ch),
        }
    }
    out
}

/// One `<property>` element.
fn property(s: &mut String, indent: &str, name: &str, kind: &str, value: &str) {
    let _ = writeln!(
        s,
        "{indent}<property name=\"{}\" type=\"{kind}\" value=\"{}\"/>",
        xml_escape(name),
        xml_escape(value)
    );
}

impl SideLevel {
    /// The level as JSON:
    ///
    /// ```text
    /// {"width":W,"height":H,"cell_size":[cw,ch],
    ///  "movement":{"jump_height":..,"jump_distance":..,"run_speed":..,"width":..,"height":..},
    ///  "rows":["####", "# -#", ..],
    ///  "locks":[{"x":..,"y":..,"kind":"door"|"hatch","color":0},..],
    ///  "start":[x,y],"exit":[x,y],"keys":[{"color":0,"x":..,"y":..},..],
    ///  "lifts":[{"x":..,"width":..,"top":..,"bottom":..,"period":..,"dwell":..},..],
    ///  "cell_zones":[0,0,1,..]}
    /// ```
    ///
    /// `rows` are the tiles as [`LevelTile::ascii`] shows them except that every door and
    /// hatch is `%` (its color and kind are in `locks`, so no color is lost past 25).
    #[must_use]
    pub fn to_json(&self) -> String {
        let m = &self.movement;
        let mut s = String::with_capacity(self.tiles.len() + 1024);
        let _ = write!(
            s,
            "{{\"width\":{},\"height\":{},\"cell_size\":[{},{}],\"movement\":{{\"jump_height\":{},\"jump_distance\":{},\"run_speed\":{},\"width\":{},\"height\":{}}},\"rows\":[",
            self.width,
            self.height,
            self.cell_size.0,
            self.cell_size.1,
            json_num(m.jump_height),
            json_num(m.jump_distance),
            json_num(m.run_speed),
            json_num(m.size.x),
            json_num(m.size.y)
        );
        for y in 0..self.height {
            s.push_str(if y == 0 { "\"" } else { ",\"" });
            for x in 0..self.width {
                match self.tile(x, y).unwrap_or(LevelTile::Solid) {
                    LevelTile::Door(_) | LevelTile::Hatch(_) => s.push('%'),
                    LevelTile::SlopeDown => s.push_str("\\\\"),
                    t => s.push(t.ascii()),
                }
            }
            s.push('"');
        }
        s.push_str("],\"locks\":[");
        let mut first = true;
        for y in 0..self.height {
            for x in 0..self.width {
                let (kind, color) = match self.tile(x, y) {
                    Some(LevelTile::Door(c)) => ("door", c),
                    Some(LevelTile::Hatch(c)) => ("hatch", c),
                    _ => continue,
                };
                let sep = if std::mem::take(&mut first) { "" } else { "," };
                let _ = write!(s, "{sep}{{\"x\":{x},\"y\":{y},\"kind\":\"{kind}\",\"color\":{color}}}");
            }
        }
        let _ = write!(
            s,
            "],\"start\":[{},{}],\"exit\":[{},{}],\"keys\":[",
            self.start.0, self.start.1, self.exit.0, self.exit.1
        );
        for (i, &(color, (x, y))) in self.keys.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(s, "{sep}{{\"color\":{color},\"x\":{x},\"y\":{y}}}");
        }
        s.push_str("],\"lifts\":[");
        for (i, l) in self.lifts.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(
                s,
                "{sep}{{\"x\":{},\"width\":{},\"top\":{},\"bottom\":{},\"period\":{},\"dwell\":{}}}",
                l.x,
                l.width,
                l.top,
                l.bottom,
                json_num(l.period),
                json_num(l.dwell)
            );
        }
        s.push_str("],\"cell_zones\":[");
        for (i, z) in self.cell_zones.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(s, "{sep}{z}");
        }
        s.push_str("]}");
        s
    }

    /// The level as a Tiled map (`.tmx`, Tiled 1.10's format), for level designers:
    ///
    /// - map properties: the movement limits (`jump_height`, `jump_distance`, `run_speed`,
    ///   `character_width`, `character_height`, in tiles and tiles per second);
    /// - an embedded tileset `lore-side` of [`TMX_TILES`] (ids 0 to 4, each with a `kind`
    ///   property; no image, so a designer assigns the art), tiles of [`TMX_TILE_PIXELS`] pixels;
    /// - a tile layer `terrain` (CSV) with the solid, one-way, ladder and slope tiles;
    /// - an object group `locks`: one rectangle per door or hatch tile, type `door` or `hatch`,
    ///   property `color`;
    /// - an object group `objects`: rectangles of one tile of type `start`, `exit` and `key`
    ///   (property `color`), and one polyline per lift of type `lift` from its upper stop down
    ///   to its lower one (properties `width` in tiles, `period` and `dwell` in seconds).
    ///
    /// Object positions are in pixels from the map's top-left corner, as Tiled stores them.
    #[must_use]
    pub fn to_tmx(&self) -> String {
        let px = TMX_TILE_PIXELS;
        let m = &self.movement;
        let mut s = String::with_capacity(3 * self.tiles.len() + 4096);
        s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let objects =
            self.tiles.iter().filter(|t| t.lock_color().is_some()).count() + 2 + self.keys.len() + self.lifts.len();
        let _ = writeln!(
            s,
            "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{}\" height=\"{}\" tilewidth=\"{px}\" tileheight=\"{px}\" infinite=\"0\" nextlayerid=\"4\" nextobjectid=\"{}\">",
            self.width,
            self.height,
            objects + 1
        );
        s.push_str(" <properties>\n");
        for (name, value) in [
            ("character_height", m.size.y),
            ("character_width", m.size.x),
            ("jump_distance", m.jump_distance),
            ("jump_height", m.jump_height),
            ("run_speed", m.run_speed),
        ] {
            property(&mut s, "  ", name, "float", &format!("{value}"));
        }
        s.push_str(" </properties>\n");
        let _ = writeln!(
            s,
            " <tileset firstgid=\"1\" name=\"lore-side\" tilewidth=\"{px}\" tileheight=\"{px}\" tilecount=\"{}\" columns=\"0\">",
            TMX_TILES.len()
        );
        s.push_str("  <grid orientation=\"orthogonal\" width=\"1\" height=\"1\"/>\n");
        for (id, name) in TMX_TILES.iter().enumerate() {
            let _ = writeln!(s, "  <tile id=\"{id}\" type=\"{}\">", xml_escape(name));
            s.push_str("   <properties>\n");
            property(&mut s, "    ", "kind", "string", name);
            s.push_str("   </properties>\n  </tile>\n");
        }
        s.push_str(" </tileset>\n");
        let _ = writeln!(s, " <layer id=\"1\" name=\"terrain\" width=\"{}\" height=\"{}\">", self.width, self.height);
        s.push_str("  <data encoding=\"csv\">\n");
        for y in 0..self.height {
            for x in 0..self.width {
                let gid = self.tile(x, y).and_then(tmx_id).map_or(0, |id| id + 1);
                let last = y + 1 == self.height && x + 1 == self.width;
                let _ = write!(s, "{gid}{}", if last { "" } else { "," });
            }
            s.push('\n');
        }
        s.push_str("</data>\n </layer>\n");
        let mut id = 0;
        let mut object = |s: &mut String, kind: &str, (x, y): (u32, u32), props: &[(&str, &str, String)]| {
            id += 1;
            let _ = write!(
                s,
                "  <object id=\"{id}\" type=\"{}\" x=\"{}\" y=\"{}\" width=\"{px}\" height=\"{px}\"",
                xml_escape(kind),
                x * px,
                y * px
            );
            if props.is_empty() {
                s.push_str("/>\n");
            } else {
                s.push_str(">\n   <properties>\n");
                for (name, ty, value) in props {
                    property(s, "    ", name, ty, value);
                }
                s.push_str("   </properties>\n  </object>\n");
            }
        };
        s.push_str(" <objectgroup id=\"2\" name=\"locks\">\n");
        for y in 0..self.height {
            for x in 0..self.width {
                let (kind, color) = match self.tile(x, y) {
                    Some(LevelTile::Door(c)) => ("door", c),
                    Some(LevelTile::Hatch(c)) => ("hatch", c),
                    _ => continue,
                };
                object(&mut s, kind, (x, y), &[("color", "int", color.to_string())]);
            }
        }
        s.push_str(" </objectgroup>\n <objectgroup id=\"3\" name=\"objects\">\n");
        object(&mut s, "start", self.start, &[]);
        object(&mut s, "exit", self.exit, &[]);
        for &(color, at) in &self.keys {
            object(&mut s, "key", at, &[("color", "int", color.to_string())]);
        }
        for lift in &self.lifts {
            id += 1;
            let _ = writeln!(s, "  <object id=\"{id}\" type=\"lift\" x=\"{}\" y=\"{}\">", lift.x * px, lift.top * px);
            s.push_str("   <properties>\n");
            property(&mut s, "    ", "dwell", "float", &format!("{}", lift.dwell));
            property(&mut s, "    ", "period", "float", &format!("{}", lift.period));
            property(&mut s, "    ", "width", "int", &lift.width.to_string());
            s.push_str("   </properties>\n");
            let _ = writeln!(s, "   <polyline points=\"0,0 0,{}\"/>", lift.bottom.saturating_sub(lift.top) * px);
            s.push_str("  </object>\n");
        }
        s.push_str(" </objectgroup>\n</map>\n");
        s
    }
}

/// JSON has no NaN or infinity.
fn json_num(v: f32) -> String {
    if v.is_finite() { format!("{v}") } else { "null".to_owned() }
}

/// A shape of a level picture, in pixels (y down).
#[cfg(feature = "pictures")]
#[derive(Clone, Copy, Debug)]
enum Paint {
    Rect {
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        rgb: [u8; 3],
    },
    /// A right triangle filling the lower half of a tile below the diagonal: `rising` from the
    /// bottom-left corner to the top-right one, else from the top-left to the bottom-right.
    Slope {
        x0: f32,
        y0: f32,
        size: f32,
        rising: bool,
        rgb: [u8; 3],
    },
    Disk {
        cx: f32,
        cy: f32,
        r: f32,
        rgb: [u8; 3],
    },
}

#[cfg(feature = "pictures")]
impl Paint {
    fn covers(&self, x: f32, y: f32) -> bool {
        match *self {
            Paint::Rect { x0, y0, x1, y1, .. } => x >= x0 && x < x1 && y >= y0 && y < y1,
            Paint::Slope { x0, y0, size, rising, .. } => {
                let (u, v) = ((x - x0) / size, (y - y0) / size);
                (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) && if rising { u + v >= 1.0 } else { v >= u }
            }
            Paint::Disk { cx, cy, r, .. } => (x - cx).powi(2) + (y - cy).powi(2) <= r * r,
        }
    }

    fn bounds(&self) -> (f32, f32, f32, f32) {
        match *self {
            Paint::Rect { x0, y0, x1, y1, .. } => (x0, y0, x1, y1),
            Paint::Slope { x0, y0, size, .. } => (x0, y0, x0 + size, y0 + size),
            Paint::Disk { cx, cy, r, .. } => (cx - r, cy - r, cx + r, cy + r),
        }
    }

    fn rgb(&self) -> [u8; 3] {
        match *self {
            Paint::Rect { rgb, .. } | Paint::Slope { rgb, .. } | Paint::Disk { rgb, .. } => rgb,
        }
    }
}

#[cfg(feature = "pictures")]
const ROCK: [u8; 3] = [52, 48, 60];
#[cfg(feature = "pictures")]
const PLANK: [u8; 3] = [150, 100, 50];
#[cfg(feature = "pictures")]
const RUNG: [u8; 3] = [120, 80, 40];
#[cfg(feature = "pictures")]
const LIFT: [u8; 3] = [90, 140, 200];

#[cfg(feature = "pictures")]
impl SideLevel {
    /// The picture's shapes at `scale` pixels per tile, and its size.
    fn paints(&self, scale: f32) -> Result<((u32, u32), Vec<Paint>), crate::Error> {
        use crate::error::ExportError;
        use crate::export::{MAX_PICTURE_SIDE, color_rgb, zone_rgb};
        if !(scale.is_finite() && scale > 0.0) {
            return Err(crate::Error::Export(ExportError::Scale { scale }));
        }
        let (w, h) = (self.width as f32 * scale, self.height as f32 * scale);
        let limit = MAX_PICTURE_SIDE as f32;
        if w > limit || h > limit {
            let fit = (limit / self.width.max(self.height).max(1) as f32 * 100.0).floor() / 100.0;
            return Err(crate::Error::Export(ExportError::PictureTooLarge {
                width: w.ceil(),
                height: h.ceil(),
                limit: MAX_PICTURE_SIDE,
                max_scale: Some(fit),
            }));
        }
        let size = (w.ceil().max(1.0) as u32, h.ceil().max(1.0) as u32);
        let s = scale;
        let mut out = vec![Paint::Rect { x0: 0.0, y0: 0.0, x1: w, y1: h, rgb: [255, 255, 255] }];
        // Zone tints behind each room (cells of `cell_size` tiles, walls included).
        let (cw, ch) = self.cell_size;
        if cw > 0 && ch > 0 {
            let cells_wide = (self.width.saturating_sub(1) / cw).max(1);
            for (i, &zone) in self.cell_zones.iter().enumerate() {
                let (x, y) = (i as u32 % cells_wide, i as u32 / cells_wide);
                let (x0, y0) = ((x * cw) as f32 * s, (y * ch) as f32 * s);
                out.push(Paint::Rect {
                    x0,
                    y0,
                    x1: x0 + (cw + 1) as f32 * s,
                    y1: y0 + (ch + 1) as f32 * s,
                    rgb: zone_rgb(zone),
                });
            }
        }
        for y in 0..self.height {
            let mut x = 0;
            while x < self.width {
                let tile = self.tile(x, y).unwrap_or(LevelTile::Solid);
                let (x0, y0) = (x as f32 * s, y as f32 * s);
                match tile {
                    LevelTile::Solid => {
                        let mut end = x + 1;
                        while end < self.width && self.tile(end, y) == Some(LevelTile::Solid) {
                            end += 1;
                        }
                        out.push(Paint::Rect { x0, y0, x1: end as f32 * s, y1: y0 + s, rgb: ROCK });
                        x = end;
                        continue;
                    }
                    LevelTile::OneWay => {
                        out.push(Paint::Rect { x0, y0, x1: x0 + s, y1: y0 + (s / 4.0).max(1.0), rgb: PLANK })
                    }
                    LevelTile::Ladder => {
                        let bar = (s / 8.0).max(1.0);
                        out.push(Paint::Rect { x0: x0 + s / 8.0, y0, x1: x0 + s / 8.0 + bar, y1: y0 + s, rgb: RUNG });
                        out.push(Paint::Rect {
                            x0: x0 + s * 7.0 / 8.0 - bar,
                            y0,
                            x1: x0 + s * 7.0 / 8.0,
                            y1: y0 + s,
                            rgb: RUNG,
                        });
                        for k in [0.25, 0.75] {
                            out.push(Paint::Rect { x0, y0: y0 + s * k, x1: x0 + s, y1: y0 + s * k + bar, rgb: RUNG });
                        }
                    }
                    LevelTile::SlopeUp | LevelTile::SlopeDown => {
                        out.push(Paint::Slope { x0, y0, size: s, rising: tile == LevelTile::SlopeUp, rgb: ROCK });
                    }
                    LevelTile::Door(c) => out.push(Paint::Rect { x0, y0, x1: x0 + s, y1: y0 + s, rgb: color_rgb(c) }),
                    LevelTile::Hatch(c) => {
                        out.push(Paint::Rect { x0, y0, x1: x0 + s, y1: y0 + s, rgb: color_rgb(c) });
                        out.push(Paint::Rect {
                            x0: x0 + s / 4.0,
                            y0: y0 + s * 0.4,
                            x1: x0 + s * 0.75,
                            y1: y0 + s * 0.6,
                            rgb: ROCK,
                        });
                    }
                    LevelTile::Empty => {}
                }
                x += 1;
            }
        }
        for lift in &self.lifts {
            let cx = (lift.x as f32 + lift.width as f32 / 2.0) * s;
            let bar = (s / 10.0).max(1.0);
            out.push(Paint::Rect {
                x0: cx - bar / 2.0,
                y0: lift.top as f32 * s,
                x1: cx + bar / 2.0,
                y1: lift.bottom as f32 * s,
                rgb: LIFT,
            });
            let y0 = lift.top as f32 * s;
            out.push(Paint::Rect {
                x0: lift.x as f32 * s,
                y0,
                x1: (lift.x + lift.width) as f32 * s,
                y1: y0 + (s / 4.0).max(1.0),
                rgb: LIFT,
            });
        }
        let centre = |(x, y): (u32, u32)| ((x as f32 + 0.5) * s, (y as f32 + 0.5) * s);
        for &(color, at) in &self.keys {
            let (cx, cy) = centre(at);
            out.push(Paint::Disk { cx, cy, r: s * 0.4, rgb: [20, 20, 20] });
            out.push(Paint::Disk { cx, cy, r: s * 0.3, rgb: color_rgb(color) });
        }
        let (cx, cy) = centre(self.exit);
        out.push(Paint::Rect {
            x0: cx - s * 0.4,
            y0: cy - s * 0.5,
            x1: cx + s * 0.4,
            y1: cy + s * 0.5,
            rgb: [20, 20, 20],
        });
        out.push(Paint::Rect {
            x0: cx - s * 0.25,
            y0: cy - s * 0.35,
            x1: cx + s * 0.25,
            y1: cy + s * 0.5,
            rgb: [60, 200, 90],
        });
        let (cx, cy) = centre(self.start);
        out.push(Paint::Disk { cx, cy, r: s * 0.42, rgb: [0, 0, 0] });
        out.push(Paint::Disk { cx, cy, r: s * 0.22, rgb: [255, 255, 255] });
        Ok((size, out))
    }

    /// The level as an SVG picture at `scale` pixels per tile: zones tinted behind the rooms,
    /// rock, planks (one-way), ladders, slopes, doors and hatches in their key's color, lifts
    /// (the shaft and the platform at its upper stop), keys as colored disks, the exit as a
    /// green door and the start as a black ring.
    ///
    /// # Errors
    /// [`Error::Export`](crate::Error::Export) for a scale that is not positive or a picture
    /// over [`MAX_PICTURE_SIDE`](crate::MAX_PICTURE_SIDE) pixels a side.
    pub fn to_svg(&self, scale: f32) -> Result<String, crate::Error> {
        let ((w, h), paints) = self.paints(scale)?;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
        );
        let hex = |rgb: [u8; 3]| format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
        for p in &paints {
            let _ = match *p {
                Paint::Rect { x0, y0, x1, y1, rgb } => {
                    writeln!(
                        s,
                        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                        x1 - x0,
                        y1 - y0,
                        hex(rgb)
                    )
                }
                Paint::Slope { x0, y0, size, rising, rgb } => {
                    let (x1, y1) = (x0 + size, y0 + size);
                    let top = if rising { (x1, y0) } else { (x0, y0) };
                    writeln!(s, "<polygon points=\"{x0},{y1} {x1},{y1} {},{}\" fill=\"{}\"/>", top.0, top.1, hex(rgb))
                }
                Paint::Disk { cx, cy, r, rgb } => {
                    writeln!(s, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{}\"/>", hex(rgb))
                }
            };
        }
        s.push_str("</svg>\n");
        Ok(s)
    }

    /// The level as RGBA8 pixels at `scale` pixels per tile, rows top to bottom:
    /// `(width, height, pixels)`, the picture [`SideLevel::to_svg`] draws.
    ///
    /// # Errors
    /// As [`SideLevel::to_svg`].
    pub fn to_rgba(&self, scale: f32) -> Result<(u32, u32, Vec<u8>), crate::Error> {
        let ((w, h), paints) = self.paints(scale)?;
        let mut rgb = vec![255u8; w as usize * h as usize * 3];
        for p in &paints {
            let (x0, y0, x1, y1) = p.bounds();
            let (x0, x1) = (x0.floor().max(0.0) as u32, (x1.ceil().max(0.0) as u32).min(w));
            let (y0, y1) = (y0.floor().max(0.0) as u32, (y1.ceil().max(0.0) as u32).min(h));
            let color = p.rgb();
            for y in y0..y1 {
                for x in x0..x1 {
                    if p.covers(x as f32 + 0.5, y as f32 + 0.5) {
                        let i = (y as usize * w as usize + x as usize) * 3;
                        rgb[i..i + 3].copy_from_slice(&color);
                    }
                }
            }
        }
        let rgba = rgb.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect();
        Ok((w, h, rgba))
    }

    /// The level as PNG file bytes (the picture of [`SideLevel::to_rgba`]).
    ///
    /// # Errors
    /// As [`SideLevel::to_svg`], plus [`Error::Export`](crate::Error::Export) if encoding fails.
    pub fn to_png(&self, scale: f32) -> Result<Vec<u8>, crate::Error> {
        use crate::error::ExportError;
        let (w, h, rgba) = self.to_rgba(scale)?;
        let encoding = |e: png::EncodingError| crate::Error::Export(ExportError::Png { message: e.to_string() });
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(encoding)?;
        writer.write_image_data(&rgba).map_err(encoding)?;
        writer.finish().map_err(encoding)?;
        Ok(out)
    }
}
