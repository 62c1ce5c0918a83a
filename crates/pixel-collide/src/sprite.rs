//! Sprites, poses, and the fixed-point placement that the CPU twin and the GPU shader share.
//!
//! Collision space is a pixel grid, y-down like image space: pixel `(x, y)` covers
//! `[x, x + 1) × [y, y + 1)` and is sampled at its centre `(x + 0.5, y + 0.5)`. A posed sprite
//! covers a pixel when the pixel centre, mapped back into sprite space, falls in a texel
//! `[tx, tx + 1) × [ty, ty + 1)` (half-open: the top-left fill rule) whose alpha is at least the
//! sprite's threshold. The mapping back is done in 16.16 fixed point on integers, so the CPU
//! and any GPU compute exactly the same texel for every pixel.

use glam::Vec2;

use crate::Error;

/// The largest sprite side accepted, in texels.
pub const MAX_SPRITE_SIDE: u32 = 4096;

/// Fractional bits of the fixed-point sprite-space coordinates.
pub const FIXED_BITS: u32 = 16;
const FIXED_ONE: f64 = (1u32 << FIXED_BITS) as f64;
/// Positions must lie within ± this many pixels.
pub const MAX_POSITION: f32 = 1_048_576.0;
/// A posed sprite may span at most this many pixels on a side (keeps CPU masks bounded).
pub const MAX_EXTENT: u32 = 16_384;
/// Scales must be at least this (in absolute value) ...
pub const MIN_SCALE: f32 = 1.0 / 64.0;
/// ... and at most this.
pub const MAX_SCALE: f32 = 64.0;

/// A sprite's alpha channel and the threshold that makes a texel solid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sprite {
    width: u32,
    height: u32,
    alpha: Vec<u8>,
    threshold: u8,
}

impl Sprite {
    /// A sprite from RGBA8 bytes (row-major, top row first); texels with alpha `>= threshold` are
    /// solid.
    ///
    /// # Errors
    /// [`Error::BadSize`], [`Error::BadLength`] or [`Error::ZeroThreshold`].
    pub fn from_rgba(width: u32, height: u32, rgba: &[u8], threshold: u8) -> Result<Self, Error> {
        check_size(width, height)?;
        let expected = width as usize * height as usize * 4;
        if rgba.len() != expected {
            return Err(Error::BadLength { got: rgba.len(), expected });
        }
        Self::from_alpha(width, height, rgba.chunks_exact(4).map(|p| p[3]).collect(), threshold)
    }

    /// A sprite from one alpha byte per texel (row-major, top row first).
    ///
    /// # Errors
    /// As [`Sprite::from_rgba`].
    pub fn from_alpha(width: u32, height: u32, alpha: Vec<u8>, threshold: u8) -> Result<Self, Error> {
        check_size(width, height)?;
        let expected = width as usize * height as usize;
        if alpha.len() != expected {
            return Err(Error::BadLength { got: alpha.len(), expected });
        }
        if threshold == 0 {
            return Err(Error::ZeroThreshold);
        }
        Ok(Self { width, height, alpha, threshold })
    }

    /// A sprite whose solid texels are those where `solid(x, y)` holds (alpha 255 or 0).
    ///
    /// # Errors
    /// [`Error::BadSize`].
    pub fn from_fn(width: u32, height: u32, mut solid: impl FnMut(u32, u32) -> bool) -> Result<Self, Error> {
        check_size(width, height)?;
        let mut alpha = Vec::with_capacity(width as usize * height as usize);
        for y in 0..height {
            for x in 0..width {
                alpha.push(if solid(x, y) { 255 } else { 0 });
            }
        }
        Self::from_alpha(width, height, alpha, 128)
    }

    /// A solid disk of `radius` texels centred in the smallest square sprite that holds it
    /// (side `ceil(2 · radius)`, at least 1): texels whose centre lies within `radius` of the
    /// sprite's centre are solid. The usual collision shape of balls, bullets and round bodies.
    ///
    /// ```
    /// use lore_pixel_collide::Sprite;
    ///
    /// let ball = Sprite::disk(4.0)?;
    /// assert_eq!((ball.width(), ball.height()), (8, 8));
    /// assert!(ball.solid(4, 4) && !ball.solid(0, 0));
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadRadius`] when `radius` is negative, not finite, or wider than
    /// [`MAX_SPRITE_SIDE`] allows.
    pub fn disk(radius: f32) -> Result<Self, Error> {
        if !(radius.is_finite() && radius >= 0.0 && 2.0 * radius <= MAX_SPRITE_SIDE as f32) {
            return Err(Error::BadRadius(radius));
        }
        let side = (2.0 * radius).ceil().max(1.0);
        let c = side / 2.0;
        Self::from_fn(side as u32, side as u32, |x, y| {
            Vec2::new(x as f32 + 0.5 - c, y as f32 + 0.5 - c).length() <= radius
        })
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The alpha bytes, row-major.
    pub fn alpha(&self) -> &[u8] {
        &self.alpha
    }

    /// The alpha threshold (1..=255).
    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// Whether texel `(x, y)` is solid; false outside the sprite.
    pub fn solid(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return false;
        }
        self.alpha[y as usize * self.width as usize + x as usize] >= self.threshold
    }

    /// Number of solid texels.
    pub fn solid_count(&self) -> usize {
        self.alpha.iter().filter(|&&a| a >= self.threshold).count()
    }
}

fn check_size(width: u32, height: u32) -> Result<(), Error> {
    if width == 0 || height == 0 || width > MAX_SPRITE_SIDE || height > MAX_SPRITE_SIDE {
        return Err(Error::BadSize { width, height, max: MAX_SPRITE_SIDE });
    }
    Ok(())
}

/// Where a sprite sits in collision space: its centre, rotation and scale.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// The sprite's centre in collision pixels (y-down; fractions are sub-pixel positions).
    pub position: Vec2,
    /// Rotation in radians, clockwise on screen (from +x towards +y in y-down space).
    pub rotation: f32,
    /// Scale along the sprite's own x and y axes (negative mirrors).
    pub scale: Vec2,
}

impl Pose {
    /// Unrotated, unscaled, centred at `position`.
    pub fn at(position: Vec2) -> Self {
        Self { position, rotation: 0.0, scale: Vec2::ONE }
    }

    /// With the top-left corner of an unrotated, unscaled sprite of `width × height` at integer
    /// pixel `(x, y)`: texel `(i, j)` then covers exactly pixel `(x + i, y + j)`.
    pub fn top_left(x: i32, y: i32, width: u32, height: u32) -> Self {
        Self::at(Vec2::new(x as f32 + width as f32 / 2.0, y as f32 + height as f32 / 2.0))
    }

    /// This pose rotated to `rotation` radians.
    pub fn rotated(self, rotation: f32) -> Self {
        Self { rotation, ..self }
    }

    /// This pose scaled by `scale`.
    pub fn scaled(self, scale: Vec2) -> Self {
        Self { scale, ..self }
    }
}

/// An integer pixel rectangle `[x0, x1) × [y0, y1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PixelRect {
    /// Left column (inclusive).
    pub x0: i32,
    /// Top row (inclusive).
    pub y0: i32,
    /// Right column (exclusive).
    pub x1: i32,
    /// Bottom row (exclusive).
    pub y1: i32,
}

impl PixelRect {
    /// Whether the rectangle holds no pixel.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// Width (0 when empty).
    pub fn width(&self) -> u32 {
        (self.x1 - self.x0).max(0) as u32
    }

    /// Height (0 when empty).
    pub fn height(&self) -> u32 {
        (self.y1 - self.y0).max(0) as u32
    }

    /// The common part of two rectangles (may be empty), named as `Aabb::intersection` and
    /// `Mask::intersection` are.
    #[must_use]
    pub fn intersection(&self, other: &PixelRect) -> PixelRect {
        PixelRect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }

    /// The old name of [`PixelRect::intersection`].
    #[deprecated(since = "0.2.0", note = "renamed to `intersection`, as on `Aabb` and `Mask`")]
    #[must_use]
    pub fn intersect(&self, other: &PixelRect) -> PixelRect {
        self.intersection(other)
    }

    /// The smallest rectangle holding both (an empty one is ignored).
    pub fn union(&self, other: &PixelRect) -> PixelRect {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        PixelRect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }
}

/// A pose turned into integer arithmetic: the pixel bounds and the 16.16 fixed-point map from
/// a pixel to sprite space. Both the CPU twin and the GPU shader evaluate
/// `u = t0.x + m[0]·dx + m[1]·dy`, `v = t0.y + m[2]·dx + m[3]·dy` with `(dx, dy)` the pixel's
/// offset from the bounds' top-left corner, and take texel `(u >> 16, v >> 16)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Pixels that may be covered (every covered pixel lies inside).
    pub bounds: PixelRect,
    /// Sprite-space position of the centre of pixel `(bounds.x0, bounds.y0)`, 16.16 fixed point.
    pub t0: [i32; 2],
    /// Sprite-space step per pixel step in x (`m[0]`, `m[2]`) and y (`m[1]`, `m[3]`), 16.16.
    pub m: [i32; 4],
    /// Sprite width and height in texels.
    pub size: [u32; 2],
}

impl Placement {
    /// Places a `width × height` sprite at `pose`.
    ///
    /// # Errors
    /// [`Error::BadPose`] for non-finite numbers, `|scale|` outside
    /// [`MIN_SCALE`]`..=`[`MAX_SCALE`], a position beyond ±[`MAX_POSITION`], bounds wider or
    /// taller than [`MAX_EXTENT`], or (defensively) fixed-point values that could overflow; [`Error::BadSize`] for a bad size.
    pub fn new(width: u32, height: u32, pose: Pose) -> Result<Self, Error> {
        check_size(width, height)?;
        let Pose { position, rotation, scale } = pose;
        if !(position.is_finite() && rotation.is_finite() && scale.is_finite()) {
            return Err(Error::BadPose("not finite"));
        }
        if position.abs().max_element() > MAX_POSITION {
            return Err(Error::BadPose("position too far out"));
        }
        let (sx, sy) = (f64::from(scale.x), f64::from(scale.y));
        let lo = f64::from(MIN_SCALE);
        let hi = f64::from(MAX_SCALE);
        if !(lo..=hi).contains(&sx.abs()) || !(lo..=hi).contains(&sy.abs()) {
            return Err(Error::BadPose("scale out of range"));
        }
        let (s, c) = f64::from(rotation).sin_cos();
        let (px, py) = (f64::from(position.x), f64::from(position.y));
        let (hw, hh) = (f64::from(width) / 2.0, f64::from(height) / 2.0);
        // Forward: p = pos + R * S * (t - half).
        let fwd = |tx: f64, ty: f64| {
            let (x, y) = ((tx - hw) * sx, (ty - hh) * sy);
            (px + c * x - s * y, py + s * x + c * y)
        };
        let corners = [
            fwd(0.0, 0.0),
            fwd(f64::from(width), 0.0),
            fwd(0.0, f64::from(height)),
            fwd(f64::from(width), f64::from(height)),
        ];
        let min_x = corners.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let max_x = corners.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = corners.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_y = corners.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        // One pixel of margin each side: the fixed-point rounding may reach a texel a little
        // beyond the exact corner; coverage itself is decided per pixel.
        let bounds = PixelRect {
            x0: min_x.floor() as i32 - 1,
            y0: min_y.floor() as i32 - 1,
            x1: max_x.ceil() as i32 + 1,
            y1: max_y.ceil() as i32 + 1,
        };
        if bounds.width() > MAX_EXTENT || bounds.height() > MAX_EXTENT {
            return Err(Error::BadPose("posed sprite spans more than MAX_EXTENT pixels"));
        }
        // Inverse: t = S^-1 * R^-1 * (p - pos) + half.
        let m = [c / sx, s / sx, -s / sy, c / sy];
        let (qx, qy) = (f64::from(bounds.x0) + 0.5 - px, f64::from(bounds.y0) + 0.5 - py);
        let t0 = [m[0] * qx + m[1] * qy + hw, m[2] * qx + m[3] * qy + hh];
        let fx = |v: f64| (v * FIXED_ONE).round();
        let mf = m.map(fx);
        let tf = t0.map(fx);
        let extent = f64::from(bounds.width().max(bounds.height()));
        let reach = |t: f64, a: f64, b: f64| t.abs() + (a.abs() + b.abs()) * extent;
        let limit = f64::from(i32::MAX) / 2.0;
        if reach(tf[0], mf[0], mf[1]) > limit || reach(tf[1], mf[2], mf[3]) > limit {
            return Err(Error::BadPose("sprite too large at this scale for 16.16 fixed point"));
        }
        Ok(Self { bounds, t0: tf.map(|v| v as i32), m: mf.map(|v| v as i32), size: [width, height] })
    }

    /// The texel that pixel `(x, y)` samples (may lie outside the sprite), or `None` when the
    /// pixel is outside [`bounds`](Placement::bounds).
    pub fn texel(&self, x: i32, y: i32) -> Option<(i32, i32)> {
        let b = &self.bounds;
        if x < b.x0 || y < b.y0 || x >= b.x1 || y >= b.y1 {
            return None;
        }
        let (dx, dy) = (x - b.x0, y - b.y0);
        let u = self.t0[0].wrapping_add(self.m[0].wrapping_mul(dx)).wrapping_add(self.m[1].wrapping_mul(dy));
        let v = self.t0[1].wrapping_add(self.m[2].wrapping_mul(dx)).wrapping_add(self.m[3].wrapping_mul(dy));
        Some((u >> FIXED_BITS, v >> FIXED_BITS))
    }

    /// Whether the posed `sprite` covers pixel `(x, y)`.
    pub fn covers(&self, sprite: &Sprite, x: i32, y: i32) -> bool {
        self.texel(x, y).is_some_and(|(tx, ty)| sprite.solid(i64::from(tx), i64::from(ty)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_left_pose_maps_texels_to_pixels_one_to_one() {
        let s = Sprite::from_fn(5, 3, |x, y| (x + y) % 2 == 0).unwrap();
        let p = Placement::new(5, 3, Pose::top_left(10, -4, 5, 3)).unwrap();
        for y in -6..2 {
            for x in 8..17 {
                let expect = s.solid(i64::from(x - 10), i64::from(y + 4));
                assert_eq!(p.covers(&s, x, y), expect, "pixel {x},{y}");
            }
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(matches!(Sprite::from_alpha(0, 3, vec![], 1), Err(Error::BadSize { .. })));
        assert!(matches!(Sprite::from_alpha(2, 2, vec![0; 3], 1), Err(Error::BadLength { .. })));
        assert_eq!(Sprite::from_alpha(1, 1, vec![0], 0), Err(Error::ZeroThreshold));
        assert!(Placement::new(4, 4, Pose::at(Vec2::NAN)).is_err());
        assert!(Placement::new(4, 4, Pose::at(Vec2::ZERO).scaled(Vec2::ZERO)).is_err());
        assert!(Placement::new(4, 4, Pose::at(Vec2::splat(1e9))).is_err());
        assert!(Placement::new(4096, 4096, Pose::at(Vec2::ZERO).scaled(Vec2::splat(64.0))).is_err());
        assert!(Placement::new(4096, 4096, Pose::at(Vec2::ZERO).scaled(Vec2::splat(1.0 / 64.0)).rotated(1.0)).is_ok());
    }

    #[test]
    fn half_turn_mirrors_both_axes() {
        let s = Sprite::from_fn(4, 2, |x, y| x == 0 && y == 0).unwrap();
        let p = Placement::new(4, 2, Pose::top_left(0, 0, 4, 2).rotated(std::f32::consts::PI)).unwrap();
        assert!(p.covers(&s, 3, 1));
        assert!(!p.covers(&s, 0, 0));
    }
}
