//! Grid mazes (post 2): the grid-graph, the `CellMap` of walls and the tile map.

mod carve;
mod cell_map;
mod classic;
#[cfg(feature = "serde")]
mod serde_impls;
mod tiles;
mod tree;
mod walk;
mod wilson;

pub use cell_map::{Cell, CellMap};
pub use tiles::{ASCII_COLORS, Tile, TileMap};
pub use tree::GridTree;
pub use walk::TilePos;

use glam::{Vec2, vec2};

/// The grid-graph: node `y * width + x` centred at `(x + 0.5, height - y - 0.5)` (y-up), edges to
/// the right and downward neighbours, `(a, b)` with `a < b`, sorted.
pub(crate) fn grid_graph(width: u32, height: u32) -> (Vec<Vec2>, Vec<[u32; 2]>) {
    let n = width as usize * height as usize;
    let mut positions = Vec::with_capacity(n);
    let mut edges = Vec::with_capacity(2 * n);
    for y in 0..height {
        for x in 0..width {
            let i = y * width + x;
            positions.push(vec2(x as f32 + 0.5, (height - y) as f32 - 0.5));
            if x + 1 < width {
                edges.push([i, i + 1]);
            }
            if y + 1 < height {
                edges.push([i, i + width]);
            }
        }
    }
    (positions, edges)
}
