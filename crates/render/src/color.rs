//! Colors as sRGB-encoded bytes, the way artists and color pickers write them.

/// An sRGB color with straight (not premultiplied) alpha, one byte per channel.
///
/// The renderer blends in sRGB space, as egui does, so `Color::rgb(128, 128, 128)` is the
/// mid-grey a color picker shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha: 0 transparent, 255 opaque.
    pub a: u8,
}

impl Color {
    /// Opaque white.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Opaque black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// Fully transparent.
    pub const TRANSPARENT: Color = Color::rgba(0, 0, 0, 0);
    /// A saturated red.
    pub const RED: Color = Color::rgb(230, 60, 60);
    /// A saturated green.
    pub const GREEN: Color = Color::rgb(70, 200, 90);
    /// A saturated blue.
    pub const BLUE: Color = Color::rgb(70, 120, 235);
    /// Yellow.
    pub const YELLOW: Color = Color::rgb(240, 210, 60);
    /// Orange.
    pub const ORANGE: Color = Color::rgb(245, 150, 50);
    /// Cyan.
    pub const CYAN: Color = Color::rgb(70, 210, 220);
    /// Magenta.
    pub const MAGENTA: Color = Color::rgb(210, 80, 210);
    /// Mid grey.
    pub const GREY: Color = Color::rgb(128, 128, 128);
    /// The default background of every demo: a dark blue-grey.
    pub const BACKGROUND: Color = Color::rgb(24, 28, 36);

    /// An opaque color.
    #[must_use]
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// A color with alpha.
    #[must_use]
    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Self { r, g, b, a }
    }

    /// The same color with another alpha.
    #[must_use]
    pub const fn with_alpha(self, a: u8) -> Self {
        Self { a, ..self }
    }

    /// Linear interpolation in sRGB space: `t = 0` gives `self`, `t = 1` gives `other`.
    #[must_use]
    pub fn lerp(self, other: Color, t: f32) -> Self {
        let t = t.clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
        Self { r: mix(self.r, other.r), g: mix(self.g, other.g), b: mix(self.b, other.b), a: mix(self.a, other.a) }
    }

    /// A color from hue (turns, wraps), saturation and value in `0..=1`; handy for palettes
    /// and heat maps.
    #[must_use]
    pub fn hsv(hue: f32, saturation: f32, value: f32) -> Self {
        let h = hue.rem_euclid(1.0) * 6.0;
        let s = saturation.clamp(0.0, 1.0);
        let v = value.clamp(0.0, 1.0);
        let c = v * s;
        let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
        let (r, g, b) = match h as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let m = v - c;
        let to = |f: f32| ((f + m) * 255.0).round().clamp(0.0, 255.0) as u8;
        Self::rgb(to(r), to(g), to(b))
    }

    /// The `i`-th color of a palette of well-separated hues (golden-ratio steps), the same on
    /// every run: use it to color zones, ids or groups.
    #[must_use]
    pub fn palette(i: usize) -> Self {
        const GOLDEN: f32 = 0.618_034;
        Self::hsv(0.08 + i as f32 * GOLDEN, 0.65, 0.95)
    }

    /// The color as `[r, g, b, a]` bytes.
    #[must_use]
    pub const fn to_array(self) -> [u8; 4] {
        [self.r, self.g, self.b, self.a]
    }

    /// The color packed little-endian into a `u32` (`r` in the low byte), the vertex format.
    #[must_use]
    pub const fn to_u32(self) -> u32 {
        u32::from_le_bytes(self.to_array())
    }
}

impl From<[u8; 4]> for Color {
    fn from([r, g, b, a]: [u8; 4]) -> Self {
        Self { r, g, b, a }
    }
}

impl From<Color> for egui::Color32 {
    fn from(c: Color) -> Self {
        egui::Color32::from_rgba_unmultiplied(c.r, c.g, c.b, c.a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsv_primaries() {
        assert_eq!(Color::hsv(0.0, 1.0, 1.0), Color::rgb(255, 0, 0));
        assert_eq!(Color::hsv(1.0 / 3.0, 1.0, 1.0), Color::rgb(0, 255, 0));
        assert_eq!(Color::hsv(2.0 / 3.0, 1.0, 1.0), Color::rgb(0, 0, 255));
        assert_eq!(Color::hsv(0.5, 0.0, 0.5), Color::rgb(128, 128, 128));
    }

    #[test]
    fn lerp_ends_and_middle() {
        assert_eq!(Color::BLACK.lerp(Color::WHITE, 0.0), Color::BLACK);
        assert_eq!(Color::BLACK.lerp(Color::WHITE, 1.0), Color::WHITE);
        assert_eq!(Color::BLACK.lerp(Color::WHITE, 0.5), Color::rgb(128, 128, 128));
    }

    #[test]
    fn palette_colors_differ() {
        for i in 0..8 {
            for j in 0..i {
                assert_ne!(Color::palette(i), Color::palette(j), "{i} vs {j}");
            }
        }
    }
}
