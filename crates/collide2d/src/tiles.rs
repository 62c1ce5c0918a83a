//! Tile grids as collision geometry: [`tile_outline`] turns a grid of solid and empty cells
//! into the few long segments of its outline, so a tile level collides with no seams between
//! neighbouring tiles and no faces hidden between two solid tiles.
//!
//! Grid convention (y-up, like the rest of the crate): cell `(x, y)` covers
//! `origin + [x, x + 1] × [y, y + 1] · tile_size`, row 0 at the bottom. Cells outside the grid
//! count as empty, so the grid's outer faces are part of the outline.
//!
//! ```
//! use lore_collide2d::{SlideOptions, glam::vec2, slide_disk_swept, tiles::tile_outline};
//!
//! # fn main() -> Result<(), lore_collide2d::Error> {
//! // A 6 × 3 room: a floor row, a wall column on each side.
//! let rows = ["#....#", "#....#", "######"]; // top row first, as it reads
//! let solid = |x: u32, y: u32| rows[2 - y as usize].as_bytes()[x as usize] == b'#';
//! let walls = tile_outline(6, 3, vec2(0.0, 0.0), 1.0, solid)?;
//! // The floor's top face is one segment from x = 1 to x = 5, however many tiles it spans.
//! assert!(walls.iter().any(|s| s.a == vec2(5.0, 1.0) && s.b == vec2(1.0, 1.0)));
//!
//! // A disk sliding right along the floor stops at the east wall.
//! let mut p = vec2(1.5, 1.3);
//! for _ in 0..40 {
//!     p = slide_disk_swept(p, 0.3, vec2(0.2, -0.05), &walls, &SlideOptions::default())?.position;
//! }
//! assert!((p.x - 4.7).abs() < 1e-3 && (p.y - 1.3).abs() < 1e-3);
//! # Ok(())
//! # }
//! ```

use alloc::vec::Vec;

use glam::{Vec2, vec2};

use crate::{Error, Segment};

/// The largest grid side `tile_outline` accepts (keeps the output bounded: at most
/// `2 · (w + 1) · h + 2 · (h + 1) · w` segments).
pub const MAX_TILE_GRID_SIDE: u32 = 1 << 14;

/// Every face between a solid and an empty cell, with collinear neighbouring faces merged into
/// one segment. Each segment has the solid side on its left (solid regions wind
/// counter-clockwise), so `a → b` runs along the boundary the way the house rules orient polygons.
///
/// # Errors
/// [`Error::OutOfRange`] for a side beyond [`MAX_TILE_GRID_SIDE`] or a `tile_size` that is not
/// finite and positive; [`Error::NonFinite`] for a non-finite origin.
pub fn tile_outline(
    width: u32,
    height: u32,
    origin: Vec2,
    tile_size: f32,
    solid: impl Fn(u32, u32) -> bool,
) -> Result<Vec<Segment>, Error> {
    if width > MAX_TILE_GRID_SIDE || height > MAX_TILE_GRID_SIDE {
        return Err(Error::OutOfRange { what: "tile grid side", value: width.max(height) as f32 });
    }
    if !(tile_size.is_finite() && tile_size > 0.0) {
        return Err(Error::OutOfRange { what: "tile_size", value: tile_size });
    }
    if !origin.is_finite() {
        return Err(Error::NonFinite { what: "origin" });
    }
    let at =
        |x: i64, y: i64| x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height) && solid(x as u32, y as u32);
    let corner = |x: i64, y: i64| origin + vec2(x as f32, y as f32) * tile_size;
    let mut out = Vec::new();
    // Horizontal faces: the line y = row between cells (x, row - 1) and (x, row).
    for row in 0..=i64::from(height) {
        // +1: solid below (face on top of a solid cell, runs right to left so solid is on the
        // left); -1: solid above (runs left to right).
        let mut run: Option<(i64, i8)> = None;
        for x in 0..=i64::from(width) {
            let side = if x == i64::from(width) {
                0
            } else {
                match (at(x, row - 1), at(x, row)) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => 0,
                }
            };
            if let Some((start, s)) = run
                && s != side
            {
                let (a, b) = (corner(start, row), corner(x, row));
                out.push(if s == 1 { Segment::new(b, a)? } else { Segment::new(a, b)? });
                run = None;
            }
            if side != 0 && run.is_none() {
                run = Some((x, side));
            }
        }
    }
    // Vertical faces: the line x = col between cells (col - 1, y) and (col, y).
    for col in 0..=i64::from(width) {
        let mut run: Option<(i64, i8)> = None;
        for y in 0..=i64::from(height) {
            let side = if y == i64::from(height) {
                0
            } else {
                match (at(col - 1, y), at(col, y)) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => 0,
                }
            };
            if let Some((start, s)) = run
                && s != side
            {
                let (a, b) = (corner(col, start), corner(col, y));
                // Solid to the west: the east side of a solid cell, walked bottom to top.
                out.push(if s == 1 { Segment::new(a, b)? } else { Segment::new(b, a)? });
                run = None;
            }
            if side != 0 && run.is_none() {
                run = Some((y, side));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left_of(s: &Segment, p: Vec2) -> bool {
        (s.b - s.a).perp_dot(p - s.a) > 0.0
    }

    #[test]
    fn one_tile_is_four_faces_wound_counter_clockwise() {
        let segs = tile_outline(3, 3, Vec2::ZERO, 2.0, |x, y| x == 1 && y == 1).unwrap();
        assert_eq!(segs.len(), 4);
        let centre = vec2(3.0, 3.0);
        for s in &segs {
            assert!((s.b - s.a).length() == 2.0, "{s:?}");
            assert!(left_of(s, centre), "solid must be on the left of {s:?}");
        }
    }

    #[test]
    fn a_row_of_tiles_merges_into_long_faces() {
        // A 5 × 1 bar: 2 long faces and 2 end caps, no seams.
        let segs = tile_outline(5, 1, vec2(10.0, -1.0), 1.0, |_, _| true).unwrap();
        assert_eq!(segs.len(), 4);
        let longest = segs.iter().map(Segment::length).fold(0.0, f32::max);
        assert_eq!(longest, 5.0);
    }

    #[test]
    fn faces_between_solid_cells_are_not_emitted() {
        // A 2 × 2 block has only its outer boundary: 4 segments of length 2.
        let segs = tile_outline(2, 2, Vec2::ZERO, 1.0, |_, _| true).unwrap();
        assert_eq!(segs.len(), 4);
        assert!(segs.iter().all(|s| s.length() == 2.0));
    }

    #[test]
    fn a_ring_has_outer_and_inner_boundaries_with_opposite_winding() {
        let segs = tile_outline(3, 3, Vec2::ZERO, 1.0, |x, y| !(x == 1 && y == 1)).unwrap();
        assert_eq!(segs.len(), 8);
        // The hole's faces keep the solid (the ring) on their left, i.e. the hole on the right.
        let hole = vec2(1.5, 1.5);
        let inner: Vec<_> = segs.iter().filter(|s| s.length() == 1.0).collect();
        assert_eq!(inner.len(), 4);
        assert!(inner.iter().all(|s| !left_of(s, hole)));
    }

    #[test]
    fn every_face_between_solid_and_empty_is_covered_once_with_solid_on_the_left() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(18);
        for _ in 0..50 {
            let (w, h) = (rng.random_range(1..12u32), rng.random_range(1..12u32));
            let cells: Vec<bool> = (0..w * h).map(|_| rng.random_range(0..3u32) == 0).collect();
            let at = |x: i64, y: i64| {
                x >= 0 && y >= 0 && x < i64::from(w) && y < i64::from(h) && cells[(y * i64::from(w) + x) as usize]
            };
            let origin = vec2(-3.0, 2.0);
            let segs = tile_outline(w, h, origin, 0.5, |x, y| at(i64::from(x), i64::from(y))).unwrap();
            // Cut every segment into unit faces; each must separate a solid cell (left) from an
            // empty one (right), and no face may appear twice.
            let mut faces = Vec::new();
            for s in &segs {
                let d = (s.b - s.a) / 0.5;
                let n = d.length().round() as i32;
                assert!(n >= 1 && (d.length() - n as f32).abs() < 1e-4, "{s:?} is not whole tiles");
                let step = d / n as f32;
                for k in 0..n {
                    let mid = (s.a - origin) / 0.5 + step * (k as f32 + 0.5);
                    let left = mid + step.perp() * 0.5;
                    let right = mid - step.perp() * 0.5;
                    let cell = |p: Vec2| at(p.x.floor() as i64, p.y.floor() as i64);
                    assert!(cell(left) && !cell(right), "face at {mid} of {s:?}");
                    faces.push(((mid.x * 2.0).round() as i64, (mid.y * 2.0).round() as i64));
                }
            }
            let total = faces.len();
            faces.sort_unstable();
            faces.dedup();
            assert_eq!(faces.len(), total, "a face is covered twice");
            // Every solid/empty face of the grid is there.
            let mut expected = 0;
            for y in -1..=i64::from(h) {
                for x in -1..=i64::from(w) {
                    expected += usize::from(at(x, y) != at(x + 1, y)) + usize::from(at(x, y) != at(x, y + 1));
                }
            }
            assert_eq!(total, expected);
        }
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(tile_outline(MAX_TILE_GRID_SIDE + 1, 1, Vec2::ZERO, 1.0, |_, _| true).is_err());
        assert!(tile_outline(1, 1, Vec2::ZERO, 0.0, |_, _| true).is_err());
        assert!(tile_outline(1, 1, Vec2::NAN, 1.0, |_, _| true).is_err());
        assert!(tile_outline(0, 0, Vec2::ZERO, 1.0, |_, _| true).unwrap().is_empty());
    }
}
