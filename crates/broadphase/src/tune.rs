//! Choosing a cell size for [`Grid`](crate::Grid) and [`SpatialHash`](crate::SpatialHash).

use alloc::vec::Vec;
use lore_geom::Aabb;

/// A suggested cell size and what it implies, from [`suggest_cell_size`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CellSizeAdvice {
    /// The suggested cell side.
    pub cell_size: f32,
    /// Median of the boxes' longer sides.
    pub median_size: f32,
    /// The longest side of any box.
    pub largest_size: f32,
    /// Mean number of cells a box would touch at `cell_size` (about 2–4 is healthy; much more
    /// means the sizes are too mixed for one grid: consider the tree).
    pub cells_per_box: f32,
    /// A spatial hash table size for these boxes: twice the cell entries (load factor ½).
    pub table_size: usize,
}

/// Suggests a grid or hash cell size: the median of the boxes' longer sides, which balances the
/// cells each box is listed in against the boxes listed per cell. Zero-size boxes (points) are
/// given the side of the square that holds one point on average. `None` for no boxes.
#[must_use]
pub fn suggest_cell_size(aabbs: impl IntoIterator<Item = Aabb>) -> Option<CellSizeAdvice> {
    let boxes: Vec<Aabb> = aabbs.into_iter().collect();
    let first = boxes.first()?;
    let mut sides: Vec<f32> = boxes.iter().map(|b| b.size().max_element()).collect();
    sides.sort_unstable_by(f32::total_cmp);
    let median = sides[sides.len() / 2];
    let largest = sides[sides.len() - 1];
    let bounds = boxes.iter().fold(*first, |acc, b| acc.union(b));
    let spacing = sqrt(bounds.size().x.max(1e-6) * bounds.size().y.max(1e-6) / boxes.len() as f32);
    let cell_size = if median > 0.0 { median } else { spacing.max(1e-3) };
    let cells: f32 = boxes.iter().map(|b| (b.size().x / cell_size + 1.0) * (b.size().y / cell_size + 1.0)).sum();
    let cells_per_box = cells / boxes.len() as f32;
    Some(CellSizeAdvice {
        cell_size,
        median_size: median,
        largest_size: largest,
        cells_per_box,
        table_size: (2.0 * cells) as usize + 1,
    })
}

/// Square root by Newton's method (no `std` needed), for positive finite input.
fn sqrt(v: f32) -> f32 {
    if v <= 0.0 || !v.is_finite() {
        return 0.0;
    }
    let mut x = if v > 1.0 { v / 2.0 } else { 1.0 };
    for _ in 0..64 {
        let next = 0.5 * (x + v / x);
        if (next - x).abs() <= 1e-7 * x {
            return next;
        }
        x = next;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn median_side_and_points() {
        let boxes = [1.0, 2.0, 3.0, 4.0, 100.0].map(|s| Aabb::new(vec2(0.0, 0.0), vec2(s, s / 2.0)).unwrap());
        let a = suggest_cell_size(boxes).unwrap();
        assert_eq!(a.cell_size, 3.0);
        assert_eq!(a.largest_size, 100.0);
        let pts = (0..100).map(|i| Aabb::point(vec2((i % 10) as f32, (i / 10) as f32)).unwrap());
        let p = suggest_cell_size(pts).unwrap();
        assert!((p.cell_size - 0.9).abs() < 0.01, "{p:?}");
        assert!(suggest_cell_size([]).is_none());
        assert!((sqrt(2.0) - core::f32::consts::SQRT_2).abs() < 1e-6);
    }
}
