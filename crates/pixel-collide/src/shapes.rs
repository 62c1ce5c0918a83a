//! Bitmaps to shapes: greedy rectangles and outline loops of a [`Mask`].
//!
//! Masks live in y-down pixel space; the shapes are returned in y-up space by negating y
//! (pixel `(x, y)` becomes the square `[x, x + 1] × [-y - 1, -y]`). This is the one place the
//! conversion happens. Outlines follow the house convention: solid regions wind
//! counter-clockwise, holes clockwise, in that y-up space.

use glam::Vec2;
use lore_geom::Aabb;

use crate::Mask;

/// The old name of the rectangles [`rectangles`] returns; they are lore-geom's [`Aabb`] now,
/// so they go into a broad phase or a collider without conversion (`min()` / `max()` in place
/// of the fields).
#[deprecated(since = "0.2.0", note = "use `lore_geom::Aabb` (the rectangles are `Aabb`s now)")]
pub type Rect = Aabb;

/// Covers the set pixels with disjoint rectangles: horizontal runs, each grown downwards
/// (in pixel space) while the rows below hold the same run. Exact cover, no overlap (the boxes
/// touch along edges only). Each is a lore-geom [`Aabb`] in y-up space.
pub fn rectangles(mask: &Mask) -> Vec<Aabb> {
    let b = mask.bounds();
    let (w, h) = (b.width() as usize, b.height() as usize);
    let mut used = vec![false; w * h];
    let mut out = Vec::new();
    for j in 0..h {
        let mut i = 0;
        while i < w {
            let free = |i: usize, j: usize| !used[j * w + i] && mask.get(b.x0 + i as i32, b.y0 + j as i32);
            if !free(i, j) {
                i += 1;
                continue;
            }
            let mut i1 = i;
            while i1 < w && free(i1, j) {
                i1 += 1;
            }
            let mut j1 = j + 1;
            while j1 < h && (i..i1).all(|k| free(k, j1)) {
                j1 += 1;
            }
            for jj in j..j1 {
                for k in i..i1 {
                    used[jj * w + k] = true;
                }
            }
            let (x0, x1) = (b.x0 as f32 + i as f32, b.x0 as f32 + i1 as f32);
            let (y0, y1) = (b.y0 as f32 + j as f32, b.y0 as f32 + j1 as f32);
            // Pixel coordinates are small integers, far inside `Aabb::LIMIT`: `covering` keeps them exact.
            out.push(Aabb::covering(Vec2::new(x0, -y1), Vec2::new(x1, -y0)));
            i = i1;
        }
    }
    out
}

/// Traces the boundary between set and clear pixels into closed loops of corner points (y-up,
/// collinear points removed). Solid regions come out counter-clockwise, holes clockwise; two
/// regions that touch only at a corner are kept apart.
pub fn outlines(mask: &Mask) -> Vec<Vec<Vec2>> {
    use std::collections::HashMap;
    let b = mask.bounds();
    // Directed unit edges with the solid pixel on their left, in y-up lattice coordinates
    // (lattice point (x, Y) with Y = -y).
    let mut next: HashMap<(i32, i32), Vec<(i32, i32)>> = HashMap::new();
    let mut count = 0usize;
    for y in b.y0..b.y1 {
        for x in b.x0..b.x1 {
            if !mask.get(x, y) {
                continue;
            }
            let (top, bottom) = (-y, -y - 1);
            // Bottom edge (pixel below clear): left to right.
            if !mask.get(x, y + 1) {
                next.entry((x, bottom)).or_default().push((x + 1, bottom));
                count += 1;
            }
            // Right edge: upwards.
            if !mask.get(x + 1, y) {
                next.entry((x + 1, bottom)).or_default().push((x + 1, top));
                count += 1;
            }
            // Top edge: right to left.
            if !mask.get(x, y - 1) {
                next.entry((x + 1, top)).or_default().push((x, top));
                count += 1;
            }
            // Left edge: downwards.
            if !mask.get(x - 1, y) {
                next.entry((x, top)).or_default().push((x, bottom));
                count += 1;
            }
        }
    }
    let mut loops = Vec::new();
    let mut starts: Vec<(i32, i32)> = next.keys().copied().collect();
    starts.sort_unstable();
    let mut used = 0usize;
    for start in starts {
        while next.get(&start).is_some_and(|v| !v.is_empty()) {
            let mut points = vec![start];
            let mut prev_dir = (0, 0);
            let mut at = start;
            loop {
                let outs = next.get_mut(&at).map(std::mem::take).unwrap_or_default();
                // At a corner shared by two diagonal pixels, keep regions apart: turn left
                // (a left turn stays around the same solid pixel).
                let pick = if outs.len() > 1 {
                    let left = (-prev_dir.1, prev_dir.0);
                    outs.iter().position(|&(nx, ny)| (nx - at.0, ny - at.1) == left).unwrap_or(0)
                } else {
                    0
                };
                let mut outs = outs;
                let to = outs.swap_remove(pick);
                if !outs.is_empty() {
                    next.insert(at, outs);
                }
                used += 1;
                prev_dir = (to.0 - at.0, to.1 - at.1);
                at = to;
                if at == start {
                    break;
                }
                points.push(at);
            }
            loops.push(simplify(&points));
        }
    }
    debug_assert_eq!(used, count);
    loops
}

fn simplify(points: &[(i32, i32)]) -> Vec<Vec2> {
    let n = points.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (p, c, q) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
        let (d1, d2) = ((c.0 - p.0, c.1 - p.1), (q.0 - c.0, q.1 - c.1));
        if d1.0 * d2.1 - d1.1 * d2.0 != 0 {
            out.push(Vec2::new(c.0 as f32, c.1 as f32));
        }
    }
    out
}

/// Twice the signed area of a loop (positive for counter-clockwise in y-up space).
pub fn signed_area(points: &[Vec2]) -> f32 {
    let n = points.len();
    (0..n).map(|i| points[i].perp_dot(points[(i + 1) % n])).sum::<f32>() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sprite;

    fn ring() -> Mask {
        let s = Sprite::from_fn(10, 10, |x, y| !(3..7).contains(&x) || !(3..7).contains(&y)).unwrap();
        Mask::from_sprite(&s, 2, 3)
    }

    #[test]
    fn rectangles_cover_exactly() {
        let m = ring();
        let rects = rectangles(&m);
        let area: f32 = rects.iter().map(|r| (r.max() - r.min()).x * (r.max() - r.min()).y).sum();
        assert_eq!(area as u64, m.count());
        for r in &rects {
            for y in (-r.max().y as i32)..(-r.min().y as i32) {
                for x in r.min().x as i32..r.max().x as i32 {
                    assert!(m.get(x, y));
                }
            }
        }
    }

    #[test]
    fn ring_has_a_ccw_outside_and_a_cw_hole() {
        let loops = outlines(&ring());
        assert_eq!(loops.len(), 2);
        let mut areas: Vec<f32> = loops.iter().map(|l| signed_area(l)).collect();
        areas.sort_by(f32::total_cmp);
        assert_eq!(areas, vec![-16.0, 100.0]);
    }

    #[test]
    fn diagonal_pixels_make_two_loops() {
        let s = Sprite::from_fn(2, 2, |x, y| x == y).unwrap();
        let loops = outlines(&Mask::from_sprite(&s, 0, 0));
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.len() == 4 && signed_area(l) == 1.0));
    }
}
