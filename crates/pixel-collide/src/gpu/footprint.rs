//! Where a pair's shared pixels can be, on the CPU: convex footprints of posed sprites and their
//! intersection, whose pixel rectangle is what a pair's quad is drawn over.
//!
//! A sprite's solid texels lie inside a 16-sided hull in texel space (half-planes with small
//! integer normals, [`Hull`], computed once per sprite). Posed and grown by [`MARGIN`] pixel
//! steps, it becomes a convex polygon in collision pixels ([`footprint`]) that holds every pixel
//! the sprite covers with a quarter pixel to spare in x and y, so neither the `f64` arithmetic
//! here nor the rasterizer's snapping can lose a pixel. Two footprints that do not meet share no
//! pixel: such pairs never reach the GPU.

use crate::{PixelRect, Placement, Sprite};

/// The hull's normals, in order of angle.
const DIRS: [[i64; 2]; 16] = [
    [1, 0],
    [2, 1],
    [1, 1],
    [1, 2],
    [0, 1],
    [-1, 2],
    [-1, 1],
    [-2, 1],
    [-1, 0],
    [-2, -1],
    [-1, -1],
    [-1, -2],
    [0, -1],
    [1, -2],
    [1, -1],
    [2, -1],
];
/// Where `DIRS` holds +x, +y, -x and -y.
const AXES: [usize; 4] = [0, 4, 8, 12];

/// How far inside its footprint every covered pixel lies, in pixels (in each of x and y).
pub(super) const MARGIN: f64 = 0.25;

/// A sprite's solid texels' hull in texel coordinates: the polygon `DIRS[k] · t <= d[k]` that
/// holds every point `t` of every solid texel square `[tx, tx + 1] × [ty, ty + 1]`, as vertices
/// with positive signed area. Empty when no texel is solid.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Hull(Vec<[f64; 2]>);

impl Hull {
    pub(super) fn of(sprite: &Sprite) -> Self {
        let w = sprite.width() as usize;
        let t = sprite.threshold();
        let mut d = [i64::MIN; DIRS.len()];
        for (y, row) in sprite.alpha().chunks_exact(w).enumerate() {
            // A linear function's maximum over a row is at its first or last solid texel.
            let (Some(x0), Some(x1)) = (row.iter().position(|&a| a >= t), row.iter().rposition(|&a| a >= t)) else {
                continue;
            };
            for x in [x0, x1] {
                for (k, [a, b]) in DIRS.iter().enumerate() {
                    // The corner of texel (x, y) farthest along (a, b).
                    let v = a * x as i64 + b * y as i64 + a.max(&0) + b.max(&0);
                    d[k] = d[k].max(v);
                }
            }
        }
        if d[0] == i64::MIN {
            return Self::default();
        }
        let d = d.map(|v| v as f64);
        let mut clip = Clip::default();
        clip.start_rect(-d[AXES[2]], -d[AXES[3]], d[AXES[0]], d[AXES[1]]);
        for k in (0..DIRS.len()).filter(|k| !AXES.contains(k)) {
            let [a, b] = DIRS[k].map(|v| v as f64);
            clip.half_plane(a, b, d[k]);
        }
        // Vertices a hair apart (a clip through a vertex) are one: merging them moves the
        // outline by far less than MARGIN, and every edge left has a direction.
        let mut v: Vec<[f64; 2]> = Vec::with_capacity(clip.vertices().len());
        for &p in clip.vertices() {
            if v.last().is_none_or(|q: &[f64; 2]| (p[0] - q[0]).abs() + (p[1] - q[1]).abs() > 1e-6) {
                v.push(p);
            }
        }
        while v.len() > 1 && (v[0][0] - v[v.len() - 1][0]).abs() + (v[0][1] - v[v.len() - 1][1]).abs() <= 1e-6 {
            v.pop();
        }
        Self(v)
    }
}

/// Clips a convex polygon by half-planes, keeping its two buffers between calls. Polygons are
/// vertex lists counter-clockwise in the maths sense (positive signed area); each clip adds at
/// most one vertex.
#[derive(Debug, Default)]
pub(super) struct Clip {
    cur: Vec<[f64; 2]>,
    tmp: Vec<[f64; 2]>,
}

impl Clip {
    /// Starts from `poly`.
    pub(super) fn start(&mut self, poly: &[[f64; 2]]) -> &mut Self {
        self.cur.clear();
        self.cur.extend_from_slice(poly);
        self
    }

    /// Starts from the box `[x0, x1] × [y0, y1]`.
    pub(super) fn start_rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) -> &mut Self {
        self.start(&[[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    }

    /// Keeps the part where `a·x + b·y <= c`.
    pub(super) fn half_plane(&mut self, a: f64, b: f64, c: f64) -> &mut Self {
        let f = |p: [f64; 2]| a * p[0] + b * p[1] - c;
        if self.cur.iter().all(|&p| f(p) <= 0.0) {
            return self;
        }
        self.tmp.clear();
        let Some(&last) = self.cur.last() else { return self };
        let (mut p, mut fp) = (last, f(last));
        for &q in &self.cur {
            let fq = f(q);
            if (fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0) {
                let t = fp / (fp - fq);
                self.tmp.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
            }
            if fq <= 0.0 {
                self.tmp.push(q);
            }
            (p, fp) = (q, fq);
        }
        if self.tmp.len() < 3 {
            self.tmp.clear();
        }
        std::mem::swap(&mut self.cur, &mut self.tmp);
        self
    }

    /// Keeps the part inside the convex polygon `other`.
    pub(super) fn inside(&mut self, other: &[[f64; 2]]) -> &mut Self {
        let Some(&last) = other.last() else { return self };
        let mut p = last;
        for &q in other {
            if self.is_empty() {
                break;
            }
            // Inside is left of p → q: (q - p) × (x - p) >= 0.
            let (a, b) = (q[1] - p[1], p[0] - q[0]);
            self.half_plane(a, b, a * p[0] + b * p[1]);
            p = q;
        }
        self
    }

    /// Keeps the part inside the box `[x0, x1] × [y0, y1]`.
    pub(super) fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) -> &mut Self {
        self.half_plane(1.0, 0.0, x1).half_plane(-1.0, 0.0, -x0).half_plane(0.0, 1.0, y1).half_plane(0.0, -1.0, -y0)
    }

    pub(super) fn vertices(&self) -> &[[f64; 2]] {
        &self.cur
    }

    pub(super) fn is_empty(&self) -> bool {
        self.cur.len() < 3
    }
}

/// The pixels whose index (as a point) may lie inside `poly`, within `r`.
pub(super) fn pixels(poly: &[[f64; 2]], r: &PixelRect) -> PixelRect {
    if poly.len() < 3 {
        return PixelRect::default();
    }
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in poly {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let clamp = |v: f64| v.clamp(f64::from(i32::MIN / 2), f64::from(i32::MAX / 2)) as i32;
    let p = PixelRect {
        x0: clamp(lo[0].ceil()),
        y0: clamp(lo[1].ceil()),
        x1: clamp(hi[0].floor()) + 1,
        y1: clamp(hi[1].floor()) + 1,
    };
    p.intersection(r)
}

/// Signed area (shoelace): positive counter-clockwise.
#[cfg(test)]
fn area(poly: &[[f64; 2]]) -> f64 {
    let n = poly.len();
    (0..n).map(|k| poly[k][0] * poly[(k + 1) % n][1] - poly[k][1] * poly[(k + 1) % n][0]).sum::<f64>() / 2.0
}

/// Where a posed sprite's covered pixels can be, appended to `out`: a convex polygon in
/// collision pixel indices (pixel `(x, y)` as the point `(x, y)`) that holds the square of
/// half-side [`MARGIN`] around every covered pixel. Appends nothing when no pixel can be covered
/// (no solid texel).
pub(super) fn footprint(hull: &Hull, p: &Placement, out: &mut Vec<[f64; 2]>) {
    if hull.0.len() < 3 {
        return;
    }
    let m = p.m.map(f64::from);
    let det = m[0] * m[3] - m[1] * m[2];
    let b = &p.bounds;
    let (x0, y0) = (f64::from(b.x0), f64::from(b.y0));
    if det == 0.0 {
        // Not for a valid pose; the bounds are always safe.
        let (x1, y1) = (f64::from(b.x1 - 1), f64::from(b.y1 - 1));
        out.extend_from_slice(&[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]);
        return;
    }
    // A pixel's 16.16 texel position is t0 + M q (q: its offset from the bounds' corner), so a
    // texel point t comes from q = M⁻¹ (65536 t - t0). Every covered pixel maps into the hull.
    let (tx, ty) = (f64::from(p.t0[0]), f64::from(p.t0[1]));
    let to_pixels = |&[u, v]: &[f64; 2]| {
        let (du, dv) = (u * 65_536.0 - tx, v * 65_536.0 - ty);
        [(m[3] * du - m[1] * dv) / det + x0, (m[0] * dv - m[2] * du) / det + y0]
    };
    let n = hull.0.len();
    // A mirroring map turns the polygon round: walk it backwards to keep the area positive.
    let vertex = |i: usize| to_pixels(&hull.0[if det > 0.0 { i % n } else { (n - i % n) % n }]);
    // Grown by the square [-MARGIN, MARGIN]²: at each vertex, the square's corners whose normal
    // quadrants lie between the incoming and the outgoing edge's outward normal (the Minkowski
    // sum of two convex polygons, exact up to rounding).
    let quadrant = |p: [f64; 2], q: [f64; 2]| {
        let (nx, ny) = (q[1] - p[1], p[0] - q[0]);
        match (nx > 0.0, ny > 0.0, nx < 0.0, ny < 0.0) {
            (true, _, _, false) => 0,
            (false, true, _, _) => 1,
            (_, false, true, _) => 2,
            _ => 3,
        }
    };
    const CORNERS: [[f64; 2]; 4] = [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]];
    let (mut prev, mut here) = (vertex(n - 1), vertex(0));
    for i in 0..n {
        let next = vertex(i + 1);
        let (mut k, last) = (quadrant(prev, here), quadrant(here, next));
        loop {
            out.push([here[0] + MARGIN * CORNERS[k][0], here[1] + MARGIN * CORNERS[k][1]]);
            if k == last {
                break;
            }
            k = (k + 1) % 4;
        }
        (prev, here) = (here, next);
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Mask, Pose};
    use glam::Vec2;

    #[test]
    fn every_covered_pixel_lies_inside_its_footprint_with_the_margin_to_spare() {
        let ring = Sprite::from_fn(23, 17, |x, y| {
            let d = Vec2::new(x as f32 - 11.0, y as f32 - 8.0).length();
            (4.0..8.5).contains(&d) || (x == 22 && y == 0)
        })
        .unwrap();
        let hull = Hull::of(&ring);
        let mut near = Clip::default();
        let scales = [0.3, 1.0, 2.3, 1.0 / 64.0, 9.0];
        for i in 0..300 {
            let f = i as f32;
            let (sx, sy) = (scales[i % 5], scales[(i / 5) % 5]);
            let pose = Pose::at(Vec2::new(f * 0.37, -f * 0.61))
                .rotated(f * 0.41)
                .scaled(Vec2::new(sx, if i % 2 == 0 { sy } else { -sy }));
            let Ok(p) = Placement::new(23, 17, pose) else { continue };
            let mut poly = Vec::new();
            footprint(&hull, &p, &mut poly);
            assert!(area(&poly) > 0.0, "pose {i}: not counter-clockwise");
            let mask = Mask::from_placement(&ring, &p);
            let b = p.bounds;
            for y in b.y0..b.y1 {
                for x in b.x0..b.x1 {
                    if mask.get(x, y) {
                        // The square of half-side MARGIN around the pixel is inside.
                        let (x, y, e) = (f64::from(x), f64::from(y), MARGIN);
                        near.start_rect(x - e, y - e, x + e, y + e).inside(&poly);
                        assert!(area(near.vertices()) > 4.0 * e * e - 1e-9, "pose {i}, pixel {x},{y}");
                    }
                }
            }
            // Convex: every vertex is on the inner side of every edge.
            for (k, &q) in poly.iter().enumerate() {
                let p0 = poly[(k + poly.len() - 1) % poly.len()];
                for &r in &poly {
                    let c = (q[0] - p0[0]) * (r[1] - p0[1]) - (q[1] - p0[1]) * (r[0] - p0[0]);
                    assert!(c > -1e-6, "pose {i}: not convex");
                }
            }
        }
    }

    #[test]
    fn an_empty_sprite_has_no_footprint() {
        let clear = Sprite::from_alpha(4, 4, vec![3; 16], 9).unwrap();
        let p = Placement::new(4, 4, Pose::at(Vec2::ZERO)).unwrap();
        let mut poly = Vec::new();
        footprint(&Hull::of(&clear), &p, &mut poly);
        assert!(poly.is_empty());
    }
}
