//! Belongs in lore-mazegen: what a game needs to walk a grid maze's [`TileMap`] — tile centres
//! in world space, the tile under a point, the solver's node path as tiles, and shortest tile
//! paths (breadth-first) under a caller's passability rule.
//!
//! World convention (the crate's own): y-up, one world unit per tile, tile `(x, y)` (row 0 at
//! the top) centred at `(x + 0.5, height − y − 0.5)`.

use std::collections::VecDeque;

use glam::{Vec2, vec2};
use lore_mazegen::{Tile, TileMap};

/// A tile position `(column, row)`, row 0 at the top.
pub type TilePos = (u32, u32);

/// The world-space centre of tile `(x, y)`.
#[must_use]
pub fn tile_center(map: &TileMap, (x, y): TilePos) -> Vec2 {
    vec2(x as f32 + 0.5, map.height() as f32 - y as f32 - 0.5)
}

/// The tile under world point `p`, or `None` outside the map (or for a non-finite point).
#[must_use]
pub fn tile_at(map: &TileMap, p: Vec2) -> Option<TilePos> {
    if !p.is_finite() || p.x < 0.0 || p.y < 0.0 {
        return None;
    }
    let (x, row_up) = (p.x.floor() as u32, p.y.floor() as u32);
    (x < map.width() && row_up < map.height()).then(|| (x, map.height() - 1 - row_up))
}

/// The tile of grid-maze node `node` in a maze `cells_wide` cells wide (cell `(x, y)` is tile
/// `(2x + 1, 2y + 1)`).
#[must_use]
pub fn node_tile(cells_wide: u32, node: u32) -> TilePos {
    let (x, y) = (node % cells_wide.max(1), node / cells_wide.max(1));
    (2 * x + 1, 2 * y + 1)
}

/// A node walk (such as `Solution::path`) as a walk of tiles: each node's tile, with the tile
/// of the wall or door between consecutive nodes in between. Repeated nodes appear once;
/// consecutive nodes that are not grid neighbours are joined without a middle tile.
#[must_use]
pub fn path_tiles(cells_wide: u32, path: &[u32]) -> Vec<TilePos> {
    let mut out: Vec<TilePos> = Vec::with_capacity(path.len() * 2);
    for &node in path {
        let t = node_tile(cells_wide, node);
        if let Some(&last) = out.last() {
            if last == t {
                continue;
            }
            let (dx, dy) = (t.0.abs_diff(last.0), t.1.abs_diff(last.1));
            if (dx, dy) == (2, 0) || (dx, dy) == (0, 2) {
                out.push(((t.0 + last.0) / 2, (t.1 + last.1) / 2));
            }
        }
        out.push(t);
    }
    out
}

/// Breadth-first distances in steps (4-neighbourhood) from `from` to every tile, row-major,
/// `u32::MAX` where `passable` tiles do not reach. `from` itself counts as passable.
#[must_use]
pub fn tile_distances(map: &TileMap, from: TilePos, passable: impl Fn(Tile) -> bool) -> Vec<u32> {
    let (w, h) = (map.width(), map.height());
    let mut dist = vec![u32::MAX; w as usize * h as usize];
    if from.0 >= w || from.1 >= h {
        return dist;
    }
    let mut queue = VecDeque::new();
    dist[(from.1 * w + from.0) as usize] = 0;
    queue.push_back(from);
    while let Some((x, y)) = queue.pop_front() {
        let d = dist[(y * w + x) as usize];
        for (nx, ny) in neighbours(w, h, (x, y)) {
            let i = (ny * w + nx) as usize;
            if dist[i] == u32::MAX && map.tile(nx, ny).is_some_and(&passable) {
                dist[i] = d + 1;
                queue.push_back((nx, ny));
            }
        }
    }
    dist
}

/// A shortest walk of tiles from `from` to `to` (both included) through `passable` tiles, or
/// `None` when there is none. Ties go to the neighbour found first in the order left, right,
/// up, down, so the answer is deterministic.
#[must_use]
pub fn tile_path(map: &TileMap, from: TilePos, to: TilePos, passable: impl Fn(Tile) -> bool) -> Option<Vec<TilePos>> {
    let w = map.width();
    // Distances from the goal, then walk downhill from the start.
    let dist = tile_distances(map, to, &passable);
    let at = |p: TilePos| dist.get((p.1 * w + p.0) as usize).copied().unwrap_or(u32::MAX);
    if from.0 >= w || at(from) == u32::MAX {
        return None;
    }
    let mut path = vec![from];
    let mut here = from;
    while here != to {
        here = neighbours(w, map.height(), here).find(|&n| at(n).checked_add(1) == Some(at(here)))?;
        path.push(here);
    }
    Some(path)
}

fn neighbours(w: u32, h: u32, (x, y): TilePos) -> impl Iterator<Item = TilePos> {
    [
        (x > 0).then(|| (x - 1, y)),
        (x + 1 < w).then_some((x + 1, y)),
        (y > 0).then(|| (x, y - 1)),
        (y + 1 < h).then_some((x, y + 1)),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_mazegen::{CellMap, Config, check, generate};

    fn level(seed: u64) -> (lore_mazegen::Maze, TileMap) {
        let maze = generate(&Config::grid(8, 5).zones(3).cycles(4).seed(seed)).unwrap();
        let map = TileMap::from_cells(&CellMap::from_maze(&maze).unwrap());
        (maze, map)
    }

    #[test]
    fn centres_and_lookup_agree() {
        let (_, map) = level(1);
        for y in 0..map.height() {
            for x in 0..map.width() {
                let c = tile_center(&map, (x, y));
                assert_eq!(tile_at(&map, c), Some((x, y)));
            }
        }
        assert_eq!(tile_at(&map, vec2(-0.1, 1.0)), None);
        assert_eq!(tile_at(&map, vec2(1.0, map.height() as f32 + 0.1)), None);
        assert_eq!(tile_at(&map, Vec2::NAN), None);
        // Row 0 is the top row: its centre has the largest y.
        assert_eq!(tile_center(&map, (0, 0)).y, map.height() as f32 - 0.5);
    }

    #[test]
    fn the_solvers_path_walks_open_tiles_only() {
        for seed in 0..10 {
            let (maze, map) = level(seed);
            let solution = check(&maze).unwrap();
            let tiles = path_tiles(8, &solution.path);
            assert_eq!(map.tile(tiles[0].0, tiles[0].1), Some(Tile::Start));
            for pair in tiles.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1, "seed {seed}: {a:?} -> {b:?}");
                assert_ne!(map.tile(b.0, b.1), Some(Tile::Wall), "seed {seed}: walks into a wall at {b:?}");
            }
        }
    }

    #[test]
    fn shortest_paths_are_shortest_and_respect_passability() {
        let (_, map) = level(3);
        let open = |t: Tile| t != Tile::Wall;
        let start = (1, 1);
        let dist = tile_distances(&map, start, open);
        let far = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| dist[(y * map.width() + x) as usize] != u32::MAX)
            .max_by_key(|&(x, y)| dist[(y * map.width() + x) as usize])
            .unwrap();
        let path = tile_path(&map, start, far, open).unwrap();
        assert_eq!(path.len() as u32 - 1, dist[(far.1 * map.width() + far.0) as usize]);
        assert!(path.iter().all(|&(x, y)| open(map.tile(x, y).unwrap())));
        // Through walls only: nowhere to go.
        assert_eq!(tile_path(&map, start, far, |t| t == Tile::Wall), None);
        assert_eq!(tile_path(&map, start, start, open), Some(vec![start]));
        assert_eq!(tile_path(&map, (999, 0), start, open), None);
    }
}
