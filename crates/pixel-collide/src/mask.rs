//! The CPU twin: bitmasks of posed sprites in collision space, tested 64 pixels at a time.

use crate::{Error, PixelRect, Placement, Pose, Sprite};

mod ops;
pub use ops::{Connectivity, MAX_MASK_PIXELS, Moments};

/// A 1-bit coverage image placed in collision space: bit `i` of row `j` is pixel
/// `(bounds.x0 + i, bounds.y0 + j)`. Rows are padded to whole 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    bounds: PixelRect,
    stride: usize,
    bits: Vec<u64>,
}

impl Mask {
    /// An empty (all clear) mask over `bounds`.
    pub fn empty(bounds: PixelRect) -> Self {
        let stride = (bounds.width() as usize).div_ceil(64);
        Self { bounds, stride, bits: vec![0; stride * bounds.height() as usize] }
    }

    /// Rasterizes `sprite` at `pose` with the same rules as the GPU path (pixel centres, the
    /// 16.16 fixed-point map of [`Placement`], nearest texel, the sprite's alpha threshold).
    ///
    /// # Errors
    /// As [`Placement::new`].
    pub fn rasterize(sprite: &Sprite, pose: Pose) -> Result<Self, Error> {
        let placement = Placement::new(sprite.width(), sprite.height(), pose)?;
        Ok(Self::from_placement(sprite, &placement))
    }

    /// Rasterizes `sprite` placed by `placement` (made for this sprite's size).
    pub fn from_placement(sprite: &Sprite, placement: &Placement) -> Self {
        let b = placement.bounds;
        let mut mask = Self::empty(b);
        let (w, h) = (i64::from(sprite.width()), i64::from(sprite.height()));
        let alpha = sprite.alpha();
        let threshold = sprite.threshold();
        let [m0, m1, m2, m3] = placement.m;
        let n = i64::from(b.width());
        let (wl, hl) = (w << crate::FIXED_BITS, h << crate::FIXED_BITS);
        for dy in 0..b.height() as i32 {
            let row = &mut mask.bits[dy as usize * mask.stride..][..mask.stride];
            // The same i32 arithmetic as Placement::texel and the shader (no overflow: the
            // placement's bounds keep every value under 2^30), stepped along the row, over the
            // span where the texel lies inside the sprite, found in closed form.
            let u0 = i64::from(placement.t0[0].wrapping_add(m1.wrapping_mul(dy)));
            let v0 = i64::from(placement.t0[1].wrapping_add(m3.wrapping_mul(dy)));
            let (ul, uh) = span(u0, i64::from(m0), wl, n);
            let (vl, vh) = span(v0, i64::from(m2), hl, n);
            let (lo, hi) = (ul.max(vl), uh.min(vh));
            if lo >= hi {
                continue;
            }
            let mut u = u0 + i64::from(m0) * lo;
            let mut v = v0 + i64::from(m2) * lo;
            for dx in lo as usize..hi as usize {
                let (tx, ty) = (u >> crate::FIXED_BITS, v >> crate::FIXED_BITS);
                debug_assert!(tx >= 0 && ty >= 0 && tx < w && ty < h);
                if alpha[(ty * w + tx) as usize] >= threshold {
                    row[dx / 64] |= 1 << (dx % 64);
                }
                u += i64::from(m0);
                v += i64::from(m2);
            }
        }
        mask
    }

    /// The unrotated, unscaled sprite with its top-left texel on pixel `(x, y)` (a straight
    /// copy of the solid texels). Move it later with [`Mask::set_position`].
    pub fn from_sprite(sprite: &Sprite, x: i32, y: i32) -> Self {
        let bounds = PixelRect { x0: x, y0: y, x1: x + sprite.width() as i32, y1: y + sprite.height() as i32 };
        let mut mask = Self::empty(bounds);
        for ty in 0..sprite.height() {
            for tx in 0..sprite.width() {
                if sprite.solid(i64::from(tx), i64::from(ty)) {
                    mask.bits[ty as usize * mask.stride + tx as usize / 64] |= 1 << (tx % 64);
                }
            }
        }
        mask
    }

    /// Moves the mask so that its bounds start at `(x, y)` (a translation costs nothing).
    pub fn set_position(&mut self, x: i32, y: i32) {
        let (w, h) = (self.bounds.width() as i32, self.bounds.height() as i32);
        self.bounds = PixelRect { x0: x, y0: y, x1: x + w, y1: y + h };
    }

    /// The rectangle the mask spans.
    pub fn bounds(&self) -> PixelRect {
        self.bounds
    }

    /// Whether pixel `(x, y)` is set.
    pub fn get(&self, x: i32, y: i32) -> bool {
        let b = &self.bounds;
        if x < b.x0 || y < b.y0 || x >= b.x1 || y >= b.y1 {
            return false;
        }
        let (i, j) = ((x - b.x0) as usize, (y - b.y0) as usize);
        self.bits[j * self.stride + i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets pixel `(x, y)` (ignored outside the bounds).
    pub fn set(&mut self, x: i32, y: i32) {
        let b = &self.bounds;
        if x < b.x0 || y < b.y0 || x >= b.x1 || y >= b.y1 {
            return;
        }
        let (i, j) = ((x - b.x0) as usize, (y - b.y0) as usize);
        self.bits[j * self.stride + i / 64] |= 1 << (i % 64);
    }

    /// Number of set pixels.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// One row of words, `j` counted from `bounds.y0`.
    fn row(&self, j: i32) -> &[u64] {
        &self.bits[j as usize * self.stride..][..self.stride]
    }

    /// Whether any pixel is set in both masks.
    pub fn overlaps(&self, other: &Mask) -> bool {
        let mut hit = false;
        self.each_common_word(other, |_, _, w| {
            hit = w != 0;
            hit
        });
        hit
    }

    /// Number of pixels set in both masks.
    pub fn overlap_area(&self, other: &Mask) -> u64 {
        let mut n = 0u64;
        self.each_common_word(other, |_, _, w| {
            n += u64::from(w.count_ones());
            false
        });
        n
    }

    /// The pixels set in both masks, over the common rectangle.
    pub fn intersection(&self, other: &Mask) -> Mask {
        let r = self.bounds.intersection(&other.bounds);
        if r.is_empty() {
            return Mask::empty(PixelRect { x0: r.x0, y0: r.y0, x1: r.x0, y1: r.y0 });
        }
        let mut out = Mask::empty(r);
        for y in r.y0..r.y1 {
            let (a, b) = (self.row(y - self.bounds.y0), other.row(y - other.bounds.y0));
            let o = &mut out.bits[(y - r.y0) as usize * out.stride..][..out.stride];
            for (k, x) in (r.x0..r.x1).step_by(64).enumerate() {
                let n = (r.x1 - x).min(64);
                let keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                o[k] = bits_at(a, i64::from(x - self.bounds.x0)) & bits_at(b, i64::from(x - other.bounds.x0)) & keep;
            }
        }
        out
    }

    /// Calls `f(j, k, word)` with the AND of 64-pixel runs over the common rectangle, in
    /// row-major order, until it returns true: `j` counts rows and `k` words from the
    /// rectangle's top-left corner (bit `b` of the word is pixel `(x0 + 64 k + b, y0 + j)`).
    fn each_common_word(&self, other: &Mask, mut f: impl FnMut(usize, usize, u64) -> bool) {
        let r = self.bounds.intersection(&other.bounds);
        if r.is_empty() {
            return;
        }
        // Both offsets are >= 0 (the common rectangle starts inside both masks): split them
        // into word and shift once, outside the row loop.
        let (ax, bx) = ((r.x0 - self.bounds.x0) as usize, (r.x0 - other.bounds.x0) as usize);
        let (wa, sa, wb, sb) = (ax / 64, (ax % 64) as u32, bx / 64, (bx % 64) as u32);
        let width = (r.x1 - r.x0) as usize;
        let words = width.div_ceil(64);
        let last_keep = if width.is_multiple_of(64) { u64::MAX } else { (1u64 << (width % 64)) - 1 };
        let (ya, yb) = (r.y0 - self.bounds.y0, r.y0 - other.bounds.y0);
        let rows = (r.y1 - r.y0) as usize;
        if self.stride == 1 && other.stride == 1 {
            // Masks up to 64 pixels wide (pygame's 64×64 case): one word per row each, so a row
            // test is two shifts and an AND over straight slices.
            let a = &self.bits[ya as usize..][..rows];
            let b = &other.bits[yb as usize..][..rows];
            for (j, (&x, &y)) in a.iter().zip(b).enumerate() {
                if f(j, 0, (x >> sa) & (y >> sb) & last_keep) {
                    return;
                }
            }
            return;
        }
        for j in 0..(r.y1 - r.y0) {
            let (a, b) = (self.row(ya + j), other.row(yb + j));
            for k in 0..words {
                let keep = if k + 1 == words { last_keep } else { u64::MAX };
                if f(j as usize, k, fetch(a, wa + k, sa) & fetch(b, wb + k, sb) & keep) {
                    return;
                }
            }
        }
    }
}

/// 64 bits of `row` from word `w`, shifted right by `s` bits (bits past the row read as 0).
#[inline(always)]
fn fetch(row: &[u64], w: usize, s: u32) -> u64 {
    let lo = row.get(w).copied().unwrap_or(0);
    if s == 0 { lo } else { (lo >> s) | (row.get(w + 1).copied().unwrap_or(0) << (64 - s)) }
}

/// The steps `dx` in `0..n` with `0 <= t0 + m * dx < lim`, as a half-open range.
fn span(t0: i64, m: i64, lim: i64, n: i64) -> (i64, i64) {
    let (lo, hi) = match m.cmp(&0) {
        std::cmp::Ordering::Equal => {
            if (0..lim).contains(&t0) {
                (0, n)
            } else {
                (0, 0)
            }
        }
        std::cmp::Ordering::Greater => (-t0.div_euclid(m), -(t0 - lim).div_euclid(m)),
        std::cmp::Ordering::Less => ((t0 - lim).div_euclid(-m) + 1, t0.div_euclid(-m) + 1),
    };
    (lo.max(0), hi.min(n))
}

/// The 64 bits of `row` starting at bit `off` (bits outside the row read as 0).
#[inline]
fn bits_at(row: &[u64], off: i64) -> u64 {
    let w = off.div_euclid(64);
    let s = off.rem_euclid(64) as u32;
    let get = |i: i64| usize::try_from(i).ok().and_then(|i| row.get(i)).copied().unwrap_or(0);
    let lo = get(w);
    if s == 0 { lo } else { (lo >> s) | (get(w + 1) << (64 - s)) }
}

/// Whether two posed sprites share a solid pixel (rasterizes both; keep the masks when poses
/// repeat).
///
/// # Errors
/// As [`Placement::new`].
pub fn overlaps(a: &Sprite, pa: Pose, b: &Sprite, pb: Pose) -> Result<bool, Error> {
    let (ma, mb) = (Mask::rasterize(a, pa)?, Mask::rasterize(b, pb)?);
    Ok(ma.overlaps(&mb))
}

/// Number of pixels two posed sprites share.
///
/// # Errors
/// As [`Placement::new`].
pub fn overlap_area(a: &Sprite, pa: Pose, b: &Sprite, pb: Pose) -> Result<u64, Error> {
    let (ma, mb) = (Mask::rasterize(a, pa)?, Mask::rasterize(b, pb)?);
    Ok(ma.overlap_area(&mb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn naive_area(a: &Mask, b: &Mask) -> u64 {
        let r = a.bounds().intersection(&b.bounds());
        let mut n = 0;
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                n += u64::from(a.get(x, y) && b.get(x, y));
            }
        }
        n
    }

    #[test]
    fn rasterize_matches_placement_covers() {
        let s = Sprite::from_fn(37, 23, |x, y| (x * 7 + y * 3) % 5 != 0).unwrap();
        let pose = Pose { position: Vec2::new(40.3, -12.7), rotation: 0.7, scale: Vec2::new(1.3, -0.8) };
        let p = Placement::new(37, 23, pose).unwrap();
        let m = Mask::from_placement(&s, &p);
        let b = p.bounds;
        for y in b.y0 - 2..b.y1 + 2 {
            for x in b.x0 - 2..b.x1 + 2 {
                assert_eq!(m.get(x, y), p.covers(&s, x, y), "{x},{y}");
            }
        }
    }

    #[test]
    fn word_parallel_area_matches_naive_at_every_shift() {
        let s = Sprite::from_fn(70, 9, |x, y| (x ^ y) % 3 != 0).unwrap();
        let a = Mask::from_sprite(&s, 0, 0);
        for dx in -72..72 {
            for dy in [-3, 0, 4] {
                let b = Mask::from_sprite(&s, dx, dy);
                let n = naive_area(&a, &b);
                assert_eq!(a.overlap_area(&b), n, "shift {dx},{dy}");
                assert_eq!(a.overlaps(&b), n > 0);
                assert_eq!(a.intersection(&b).count(), n);
            }
        }
    }

    #[test]
    fn top_left_rasterize_equals_copy() {
        let s = Sprite::from_fn(65, 5, |x, y| (x + 2 * y) % 4 == 1).unwrap();
        let r = Mask::rasterize(&s, Pose::top_left(3, 8, 65, 5)).unwrap();
        let c = Mask::from_sprite(&s, 3, 8);
        assert_eq!(r.count(), c.count());
        assert_eq!(r.overlap_area(&c), c.count());
    }

    #[test]
    fn touching_edges_do_not_overlap_and_one_pixel_does() {
        let s = Sprite::from_fn(8, 8, |_, _| true).unwrap();
        let a = Mask::rasterize(&s, Pose::top_left(0, 0, 8, 8)).unwrap();
        let b = Mask::rasterize(&s, Pose::top_left(8, 0, 8, 8)).unwrap();
        assert!(!a.overlaps(&b));
        let c = Mask::rasterize(&s, Pose::top_left(7, 7, 8, 8)).unwrap();
        assert_eq!(a.overlap_area(&c), 1);
    }
}
