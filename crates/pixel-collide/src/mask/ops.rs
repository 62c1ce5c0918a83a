//! What pygame.mask users take for granted, on the CPU twin: the first overlapping pixel, area
//! and centroid (moments), connected components, drawing and erasing one mask into another.
//!
//! Every operation works in collision space: a mask's position is its [`Mask::bounds`], so
//! pygame's `offset` argument is where the other mask has been placed ([`Mask::set_position`]).
//! Parts of a mask outside the other's bounds are clipped, as pygame clips.

use super::{Mask, bits_at};
use crate::{Error, PixelRect};

/// The largest number of pixels [`Mask::new`] accepts (2^32, a 65,536 × 65,536 mask: 512 MiB).
pub const MAX_MASK_PIXELS: u64 = 1 << 32;

/// Which neighbours join two set pixels into one connected component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Connectivity {
    /// Pixels sharing an edge (left, right, up, down).
    Four,
    /// Pixels sharing an edge or a corner; pygame's `connected_components` uses this.
    #[default]
    Eight,
}

/// Zeroth and first moments of a set of pixels: their count and the sums of their coordinates
/// (pixel `(x, y)` counts as the point `(x, y)`, its top-left corner, as in pygame; add 0.5 for
/// the pixel centre). Exact integers, so centroids of sums compare exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Moments {
    /// Number of pixels.
    pub area: u64,
    /// Sum of their x coordinates.
    pub sum_x: i128,
    /// Sum of their y coordinates.
    pub sum_y: i128,
}

impl Moments {
    /// The mean pixel coordinate `[x, y]`, `None` for no pixels. pygame's `centroid()` returns
    /// these truncated to integers.
    pub fn centroid(&self) -> Option<[f64; 2]> {
        (self.area > 0).then(|| [self.sum_x as f64 / self.area as f64, self.sum_y as f64 / self.area as f64])
    }

    /// Adds the set bits of `w`, whose bit 0 is pixel `(x, y)`.
    #[inline]
    fn add_word(&mut self, w: u64, x: i64, y: i64) {
        let n = u64::from(w.count_ones());
        self.area += n;
        self.sum_x += i128::from(n) * i128::from(x) + i128::from(bit_index_sum(w));
        self.sum_y += i128::from(n) * i128::from(y);
    }
}

/// The sum of the indices of the set bits of `w`: six popcounts, one per bit of the index.
#[inline]
fn bit_index_sum(w: u64) -> u64 {
    const M: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    M.iter().enumerate().map(|(b, m)| u64::from((w & m).count_ones()) << b).sum()
}

/// Sets bits `a..b` of `row`.
fn fill_bits(row: &mut [u64], a: usize, b: usize) {
    let mut i = a;
    while i < b {
        let (k, s) = (i / 64, i % 64);
        let n = (b - i).min(64 - s);
        let run = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << s };
        row[k] |= run;
        i += n;
    }
}

/// The runs of set bits of one row, as half-open column ranges, left to right.
fn row_runs(row: &[u64], out: &mut Vec<(u32, u32)>) {
    let first = out.len();
    for (k, &word) in row.iter().enumerate() {
        let mut w = word;
        let base = k as u32 * 64;
        while w != 0 {
            let s = w.trailing_zeros();
            // The run's length: the trailing ones of w >> s (at most 64 - s).
            let len = (!(w >> s)).trailing_zeros();
            let (a, b) = (base + s, base + s + len);
            match out[first..].last_mut() {
                Some(last) if last.1 == a => last.1 = b,
                _ => out.push((a, b)),
            }
            w = if s + len >= 64 { 0 } else { w & (u64::MAX << (s + len)) };
        }
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl Mask {
    /// A `width` × `height` mask with its top-left pixel at `(x, y)`, all set when `filled`
    /// (pygame's `Mask(size, fill)`; a filled mask is destructible terrain for [`Mask::erase`]).
    ///
    /// # Errors
    /// [`Error::BadMaskSize`] when the far edge `x + width` or `y + height` does not fit in an
    /// `i32`, or the mask would hold more than [`MAX_MASK_PIXELS`].
    ///
    /// ```
    /// use lore_pixel_collide::{Error, Mask};
    /// let ground = Mask::new(0, 100, 320, 40, true)?;
    /// assert_eq!(ground.count(), 320 * 40);
    /// assert!(matches!(Mask::new(i32::MAX, 0, 2, 2, false), Err(Error::BadMaskSize { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(x: i32, y: i32, width: u32, height: u32, filled: bool) -> Result<Self, Error> {
        let bad = Error::BadMaskSize { x, y, width, height };
        let x1 = i32::try_from(i64::from(x) + i64::from(width)).map_err(|_| bad.clone())?;
        let y1 = i32::try_from(i64::from(y) + i64::from(height)).map_err(|_| bad.clone())?;
        if u64::from(width) * u64::from(height) > MAX_MASK_PIXELS {
            return Err(bad);
        }
        let mut mask = Self::empty(PixelRect { x0: x, y0: y, x1, y1 });
        if filled {
            let stride = mask.stride;
            for row in mask.bits.chunks_mut(stride.max(1)) {
                fill_bits(row, 0, width as usize);
            }
        }
        Ok(mask)
    }

    /// The first pixel set in both masks, in row-major order (the topmost row, then the leftmost
    /// pixel in it), in collision space; `None` when they do not overlap. pygame's
    /// `overlap(other, offset)`, whose answer is relative to the first mask: subtract
    /// `self.bounds().x0, y0` for that.
    ///
    /// ```
    /// use lore_pixel_collide::{Mask, PixelRect};
    /// let mut a = Mask::empty(PixelRect { x0: 0, y0: 0, x1: 8, y1: 8 });
    /// let mut b = Mask::empty(PixelRect { x0: 4, y0: 2, x1: 12, y1: 10 });
    /// a.set(6, 5);
    /// a.set(7, 3);
    /// b.set(6, 5);
    /// b.set(7, 3);
    /// b.set(5, 2); // not in a
    /// assert_eq!(a.first_overlap(&b), Some((7, 3)));
    /// b.set_position(100, 0);
    /// assert_eq!(a.first_overlap(&b), None);
    /// ```
    pub fn first_overlap(&self, other: &Mask) -> Option<(i32, i32)> {
        let r = self.bounds.intersection(&other.bounds);
        let mut hit = None;
        self.each_common_word(other, |j, k, w| {
            if w == 0 {
                return false;
            }
            hit = Some((r.x0 + 64 * k as i32 + w.trailing_zeros() as i32, r.y0 + j as i32));
            true
        });
        hit
    }

    /// Count and coordinate sums of this mask's set pixels (pygame's `count()` and
    /// `centroid()`, from [`Moments::centroid`]).
    ///
    /// ```
    /// use lore_pixel_collide::Mask;
    /// let square = Mask::new(10, 20, 4, 4, true)?;
    /// assert_eq!(square.moments().centroid(), Some([11.5, 21.5]));
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    pub fn moments(&self) -> Moments {
        let mut m = Moments::default();
        if self.stride == 0 {
            return m;
        }
        for (j, row) in self.bits.chunks(self.stride).enumerate() {
            let y = i64::from(self.bounds.y0) + j as i64;
            for (k, &w) in row.iter().enumerate() {
                if w != 0 {
                    m.add_word(w, i64::from(self.bounds.x0) + 64 * k as i64, y);
                }
            }
        }
        m
    }

    /// Area and coordinate sums of the pixels set in both masks, word-parallel, without building
    /// the intersection: `overlap_moments(b).area == overlap_area(b)`, and
    /// [`Moments::centroid`] is the overlap's centroid (pygame's
    /// `overlap_mask(other, offset).centroid()`), e.g. where to push two bodies apart from.
    ///
    /// ```
    /// use lore_pixel_collide::Mask;
    /// let a = Mask::new(0, 0, 10, 10, true)?;
    /// let b = Mask::new(6, 8, 10, 10, true)?; // shares the 4 × 2 block x 6..10, y 8..10
    /// let m = a.overlap_moments(&b);
    /// assert_eq!(m.area, 8);
    /// assert_eq!(m.centroid(), Some([7.5, 8.5]));
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    pub fn overlap_moments(&self, other: &Mask) -> Moments {
        let r = self.bounds.intersection(&other.bounds);
        let mut m = Moments::default();
        self.each_common_word(other, |j, k, w| {
            if w != 0 {
                m.add_word(w, i64::from(r.x0) + 64 * k as i64, i64::from(r.y0) + j as i64);
            }
            false
        });
        m
    }

    /// The connected components of the set pixels, each a mask over its own tight bounds (in
    /// collision space, like this one), ordered by their first pixel in row-major order.
    /// Components partition the set pixels; no pixel of one is a `connectivity` neighbour of a
    /// pixel of another. pygame's `connected_components()` uses [`Connectivity::Eight`] and
    /// returns masks the size of the original; filter by [`Mask::count`] for its `minimum`.
    ///
    /// Runs of set pixels are found word by word and joined row to row with union-find, so the
    /// cost follows the runs, not the pixels.
    ///
    /// ```
    /// use lore_pixel_collide::{Connectivity, Mask, PixelRect};
    /// let mut m = Mask::empty(PixelRect { x0: 0, y0: 0, x1: 4, y1: 4 });
    /// m.set(0, 0);
    /// m.set(1, 1); // touches (0, 0) by a corner only
    /// m.set(3, 3);
    /// assert_eq!(m.components(Connectivity::Eight).len(), 2);
    /// let four = m.components(Connectivity::Four);
    /// assert_eq!(four.len(), 3);
    /// assert_eq!(four[1].bounds(), PixelRect { x0: 1, y0: 1, x1: 2, y1: 2 });
    /// ```
    pub fn components(&self, connectivity: Connectivity) -> Vec<Mask> {
        let rows = self.bounds.height() as usize;
        if self.stride == 0 || rows == 0 {
            return Vec::new();
        }
        let ext = u32::from(connectivity == Connectivity::Eight);
        // All runs, row by row; row_start[j]..row_start[j + 1] are row j's.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut row_start = Vec::with_capacity(rows + 1);
        for j in 0..rows {
            row_start.push(runs.len());
            row_runs(self.row(j as i32), &mut runs);
        }
        row_start.push(runs.len());
        let mut parent: Vec<usize> = (0..runs.len()).collect();
        for j in 1..rows {
            let (prev, cur) = (row_start[j - 1]..row_start[j], row_start[j]..row_start[j + 1]);
            let mut p = prev.start;
            for c in cur {
                let (c0, c1) = runs[c];
                // Skip previous-row runs that end before this one can touch them.
                while p < prev.end && runs[p].1 + ext <= c0 {
                    p += 1;
                }
                let mut q = p;
                while q < prev.end && runs[q].0 < c1 + ext {
                    let (a, b) = (find(&mut parent, q), find(&mut parent, c));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                    q += 1;
                }
            }
        }
        // Number components in order of their first run (row-major order of first pixels),
        // and find each one's bounds in local coordinates.
        let mut id = vec![usize::MAX; runs.len()];
        let mut boxes: Vec<[u32; 4]> = Vec::new();
        let mut of_run = vec![0usize; runs.len()];
        for j in 0..rows {
            for r in row_start[j]..row_start[j + 1] {
                let root = find(&mut parent, r);
                if id[root] == usize::MAX {
                    id[root] = boxes.len();
                    boxes.push([u32::MAX, j as u32, 0, 0]);
                }
                let c = id[root];
                of_run[r] = c;
                let b = &mut boxes[c];
                b[0] = b[0].min(runs[r].0);
                b[2] = b[2].max(runs[r].1);
                b[3] = j as u32 + 1;
            }
        }
        let (x0, y0) = (self.bounds.x0, self.bounds.y0);
        let mut out: Vec<Mask> = boxes
            .iter()
            .map(|b| {
                Mask::empty(PixelRect {
                    x0: x0 + b[0] as i32,
                    y0: y0 + b[1] as i32,
                    x1: x0 + b[2] as i32,
                    y1: y0 + b[3] as i32,
                })
            })
            .collect();
        for j in 0..rows {
            for r in row_start[j]..row_start[j + 1] {
                let (c, b) = (of_run[r], boxes[of_run[r]]);
                let m = &mut out[c];
                let stride = m.stride;
                let row = &mut m.bits[(j - b[1] as usize) * stride..][..stride];
                fill_bits(row, (runs[r].0 - b[0]) as usize, (runs[r].1 - b[0]) as usize);
            }
        }
        out
    }

    /// Sets every pixel of this mask that is set in `other` (pygame's `draw(other, offset)`).
    /// Pixels of `other` outside this mask's bounds are clipped, as pygame clips.
    ///
    /// ```
    /// use lore_pixel_collide::Mask;
    /// let mut terrain = Mask::new(0, 0, 16, 16, false)?;
    /// terrain.draw(&Mask::new(12, 12, 8, 8, true)?); // only the 4 × 4 inside lands
    /// assert_eq!(terrain.count(), 16);
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    pub fn draw(&mut self, other: &Mask) {
        self.combine(other, |d, s| *d |= s);
    }

    /// Clears every pixel of this mask that is set in `other` (pygame's `erase(other, offset)`):
    /// a crater blown into destructible terrain. Clipped like [`Mask::draw`].
    ///
    /// ```
    /// use lore_pixel_collide::{Mask, PixelRect};
    /// let mut terrain = Mask::new(0, 0, 64, 16, true)?;
    /// let mut crater = Mask::empty(PixelRect { x0: 0, y0: 0, x1: 5, y1: 5 });
    /// for (x, y) in [(2, 0), (0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (2, 4)] {
    ///     crater.set(x, y);
    /// }
    /// crater.set_position(30, -2);
    /// terrain.erase(&crater);
    /// assert!(!terrain.get(34, 0) && terrain.get(35, 0) && terrain.get(32, 1));
    /// assert_eq!(terrain.count(), 64 * 16 - 6); // (32, -2) lay outside the terrain
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    pub fn erase(&mut self, other: &Mask) {
        self.combine(other, |d, s| *d &= !s);
    }

    /// Applies `op(dst_word, src_bits)` over the common rectangle, `src_bits` holding `other`'s
    /// pixels aligned to `dst_word`'s bits (zero outside the common rectangle).
    fn combine(&mut self, other: &Mask, op: impl Fn(&mut u64, u64)) {
        let r = self.bounds.intersection(&other.bounds);
        if r.is_empty() {
            return;
        }
        let width = (r.x1 - r.x0) as usize;
        let dx = (r.x0 - self.bounds.x0) as usize;
        let sx = i64::from(r.x0 - other.bounds.x0);
        let stride = self.stride;
        for y in r.y0..r.y1 {
            let src = other.row(y - other.bounds.y0);
            let dst = &mut self.bits[(y - self.bounds.y0) as usize * stride..][..stride];
            let mut i = 0;
            while i < width {
                let (k, s) = ((dx + i) / 64, ((dx + i) % 64) as u32);
                // As many pixels as fit in this destination word and the common rectangle.
                let n = (width - i).min(64 - s as usize);
                let keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                let bits = bits_at(src, sx + i as i64) & keep;
                op(&mut dst[k], bits << s);
                i += n;
            }
        }
    }
}
