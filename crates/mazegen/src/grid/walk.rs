//! Walking a grid maze's [`TileMap`]: tile centres in world space, the tile under a point, the
//! solver's node path as tiles, and shortest tile paths (breadth-first) under a caller's
//! passability rule.
//!
//! World convention (the crate's own, as [`Maze::positions`](crate::Maze::positions) uses for grid nodes):
//! y-up, one world unit per tile, tile `(x, y)` (row 0 at the top) centred at
//! `(x + 0.5, height − y − 0.5)`.

use std::collections::VecDeque;

use glam::{Vec2, vec2};

use super::{Tile, TileMap};
use crate::Error;

/// A tile position `(column, row)`, row 0 at the top.
pub type TilePos = (u32, u32);

impl TileMap {
    /// The world-space centre of tile `(x, y)` (also for a tile outside the map: the
    /// convention continues past its edges).
    #[must_use]
    pub fn tile_center(&self, (x, y): TilePos) -> Vec2 {
        vec2(x as f32 + 0.5, self.height() as f32 - y as f32 - 0.5)
    }

    /// The tile under world point `p`, or `None` outside the map (or for a non-finite point).
    /// A point on the edge between two tiles belongs to the tile right of it and below it in
    /// the world (half-open tiles `[x, x + 1) × [y, y + 1)` in world units).
    #[must_use]
    pub fn tile_at(&self, p: Vec2) -> Option<TilePos> {
        if !p.is_finite() || p.x < 0.0 || p.y < 0.0 {
            return None;
        }
        let (x, row_up) = (p.x.floor(), p.y.floor());
        if x >= self.width() as f32 || row_up >= self.height() as f32 {
            return None;
        }
        let (x, row_up) = (x as u32, row_up as u32);
        Some((x, self.height() - 1 - row_up))
    }

    /// The tile of grid-maze node `node` (node `y · cells_wide + x` is cell `(x, y)`, which is
    /// tile `(2x + 1, 2y + 1)`), or `None` when the map has no such cell.
    #[must_use]
    pub fn node_tile(&self, node: u32) -> Option<TilePos> {
        let (cells_wide, cells_high) = (self.width() / 2, self.height() / 2);
        if cells_wide == 0 || node / cells_wide >= cells_high {
            return None;
        }
        let (x, y) = (node % cells_wide, node / cells_wide);
        Some((2 * x + 1, 2 * y + 1))
    }

    /// A node walk (such as [`Solution::path`](crate::Solution)) as a walk of tiles: each
    /// node's tile, with the tile of the wall or door between consecutive nodes in between.
    /// Repeated nodes appear once; consecutive nodes that are not grid neighbours are joined
    /// without a middle tile.
    ///
    /// ```
    /// use lore_mazegen::{CellMap, Config, TileMap, check, generate};
    ///
    /// let maze = generate(&Config::grid(6, 4).seed(7))?;
    /// let map = TileMap::from_cells(&CellMap::from_maze(&maze)?);
    /// let tiles = map.path_tiles(&check(&maze)?.path)?;
    /// // Each step moves to a side neighbour.
    /// assert!(tiles.windows(2).all(|w| w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1) == 1));
    /// # Ok::<(), lore_mazegen::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Malformed`] when a node has no cell in this map (nothing is returned then).
    pub fn path_tiles(&self, path: &[u32]) -> Result<Vec<TilePos>, Error> {
        let mut out: Vec<TilePos> = Vec::with_capacity(path.len().saturating_mul(2));
        for &node in path {
            let t = self.node_tile(node).ok_or_else(|| {
                Error::Malformed(crate::error::MalformedError::PathNode {
                    node,
                    width: self.width() / 2,
                    height: self.height() / 2,
                })
            })?;
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
        Ok(out)
    }

    /// Breadth-first distances in steps (4-neighbourhood) from `from` to every tile, row-major
    /// (tile `(x, y)` at `y · width + x`), `u32::MAX` where `passable` tiles do not reach.
    /// `from` itself counts as passable; a `from` outside the map reaches nothing.
    #[must_use]
    pub fn tile_distances(&self, from: TilePos, passable: impl Fn(Tile) -> bool) -> Vec<u32> {
        let (w, h) = (self.width(), self.height());
        let mut dist = vec![u32::MAX; w as usize * h as usize];
        let Some(start) = self.index(from) else {
            return dist;
        };
        let mut queue = VecDeque::new();
        dist[start] = 0;
        queue.push_back(from);
        while let Some(here) = queue.pop_front() {
            let d = self.index(here).map_or(u32::MAX, |i| dist[i]);
            for n in neighbours(w, h, here) {
                let Some(i) = self.index(n) else { continue };
                if dist[i] == u32::MAX && self.tile(n.0, n.1).is_some_and(&passable) {
                    dist[i] = d.saturating_add(1);
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// A shortest walk of tiles from `from` to `to` (both included) through `passable` tiles,
    /// or `None` when there is none (or either end is outside the map). `from` and `to`
    /// themselves count as passable. Ties go to the neighbour found first in the order left,
    /// right, up, down, so the answer is deterministic.
    ///
    /// ```
    /// use lore_mazegen::{CellMap, Config, Tile, TileMap, generate};
    ///
    /// let maze = generate(&Config::grid(5, 5).seed(1))?;
    /// let map = TileMap::from_cells(&CellMap::from_maze(&maze)?);
    /// let open = |t: Tile| t != Tile::Wall;
    /// let path = map.tile_path((1, 1), (9, 9), open).expect("a perfect maze joins every cell");
    /// assert_eq!((path[0], path[path.len() - 1]), ((1, 1), (9, 9)));
    /// let dist = map.tile_distances((9, 9), open);
    /// assert_eq!(path.len() as u32 - 1, dist[1 * map.width() as usize + 1]);
    /// # Ok::<(), lore_mazegen::Error>(())
    /// ```
    #[must_use]
    pub fn tile_path(&self, from: TilePos, to: TilePos, passable: impl Fn(Tile) -> bool) -> Option<Vec<TilePos>> {
        // Distances from the goal, then walk downhill from the start.
        let dist = self.tile_distances(to, &passable);
        let at = |p: TilePos| self.index(p).map_or(u32::MAX, |i| dist[i]);
        if at(from) == u32::MAX {
            return None;
        }
        let mut path = vec![from];
        let mut here = from;
        while here != to {
            here = neighbours(self.width(), self.height(), here).find(|&n| at(n).checked_add(1) == Some(at(here)))?;
            path.push(here);
        }
        Some(path)
    }

    /// The row-major index of `(x, y)`, or `None` outside the map.
    fn index(&self, (x, y): TilePos) -> Option<usize> {
        (x < self.width() && y < self.height()).then(|| y as usize * self.width() as usize + x as usize)
    }
}

/// The 4-neighbours of `(x, y)` inside a `w × h` map, in the order left, right, up, down.
fn neighbours(w: u32, h: u32, (x, y): TilePos) -> impl Iterator<Item = TilePos> {
    [
        x.checked_sub(1).map(|l| (l, y)),
        (x.saturating_add(1) < w).then(|| (x + 1, y)),
        y.checked_sub(1).map(|u| (x, u)),
        (y.saturating_add(1) < h).then(|| (x, y + 1)),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CellMap, Config, Maze, check, generate};

    fn level(seed: u64) -> (Maze, TileMap) {
        let maze = generate(&Config::grid(8, 5).zones(3).cycles(4).seed(seed)).unwrap();
        let map = TileMap::from_cells(&CellMap::from_maze(&maze).unwrap());
        (maze, map)
    }

    #[test]
    fn centres_and_lookup_agree() {
        let (_, map) = level(1);
        for y in 0..map.height() {
            for x in 0..map.width() {
                let c = map.tile_center((x, y));
                assert_eq!(map.tile_at(c), Some((x, y)));
            }
        }
        assert_eq!(map.tile_at(vec2(-0.1, 1.0)), None);
        assert_eq!(map.tile_at(vec2(1.0, map.height() as f32 + 0.1)), None);
        assert_eq!(map.tile_at(vec2(map.width() as f32, 1.0)), None);
        assert_eq!(map.tile_at(vec2(1e30, 1.0)), None);
        assert_eq!(map.tile_at(Vec2::NAN), None);
        // Row 0 is the top row: its centre has the largest y.
        assert_eq!(map.tile_center((0, 0)).y, map.height() as f32 - 0.5);
    }

    #[test]
    fn node_tiles_are_the_cells_tiles() {
        let (maze, map) = level(2);
        assert_eq!(map.node_tile(0), Some((1, 1)));
        assert_eq!(map.node_tile(9), Some((3, 3)));
        for node in 0..maze.node_count() as u32 {
            let t = map.node_tile(node).unwrap();
            assert_ne!(map.tile(t.0, t.1), Some(Tile::Wall), "node {node}");
        }
        assert_eq!(map.node_tile(40), None);
        assert_eq!(map.node_tile(u32::MAX), None);
        assert!(matches!(map.path_tiles(&[0, 1, 40]), Err(Error::Malformed(_))));
        assert_eq!(map.path_tiles(&[]).unwrap(), Vec::<TilePos>::new());
    }

    #[test]
    fn the_solvers_path_walks_open_tiles_only() {
        for seed in 0..10 {
            let (maze, map) = level(seed);
            let solution = check(&maze).unwrap();
            let tiles = map.path_tiles(&solution.path).unwrap();
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
        let dist = map.tile_distances(start, open);
        let far = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| dist[(y * map.width() + x) as usize] != u32::MAX)
            .max_by_key(|&(x, y)| dist[(y * map.width() + x) as usize])
            .unwrap();
        let path = map.tile_path(start, far, open).unwrap();
        assert_eq!(path.len() as u32 - 1, dist[(far.1 * map.width() + far.0) as usize]);
        assert!(path.iter().all(|&(x, y)| open(map.tile(x, y).unwrap())));
        // Through walls only: nowhere to go.
        assert_eq!(map.tile_path(start, far, |t| t == Tile::Wall), None);
        assert_eq!(map.tile_path(start, start, open), Some(vec![start]));
        assert_eq!(map.tile_path((999, 0), start, open), None);
        assert_eq!(map.tile_path((0, u32::MAX), start, open), None);
        assert_eq!(map.tile_path(start, (u32::MAX, u32::MAX), open), None);
        assert!(map.tile_distances((u32::MAX, 0), open).iter().all(|&d| d == u32::MAX));
    }

    #[test]
    fn ties_go_left_then_right_then_up_then_down() {
        // Every tile passable: of the neighbours one step nearer the goal, the walk takes the
        // first in the order left, right, up, down, so right along the top row first.
        let (_, map) = level(4);
        let path = map.tile_path((0, 0), (2, 2), |_| true).unwrap();
        assert_eq!(path, vec![(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
        let back = map.tile_path((2, 2), (0, 0), |_| true).unwrap();
        assert_eq!(back, vec![(2, 2), (1, 2), (0, 2), (0, 1), (0, 0)]);
        assert_eq!(map.tile_path((0, 0), (2, 2), |_| true), map.tile_path((0, 0), (2, 2), |_| true));
    }

    proptest::proptest! {
        /// Every path is a walk of side steps through passable tiles, exactly as long as the
        /// breadth-first distance, and the distances agree from either end.
        #[test]
        fn paths_are_shortest_walks(
            seed in 0u64..1000, w in 2u32..10, h in 2u32..8,
            a in (0u32..64, 0u32..64), b in (0u32..64, 0u32..64),
        ) {
            let maze = generate(&Config::grid(w, h).zones(2).cycles(3).seed(seed)).unwrap();
            let map = TileMap::from_cells(&CellMap::from_maze(&maze).unwrap());
            let (from, to) = ((a.0 % map.width(), a.1 % map.height()), (b.0 % map.width(), b.1 % map.height()));
            let open = |t: Tile| t != Tile::Wall;
            let d_from = map.tile_distances(from, open);
            let d_to = map.tile_distances(to, open);
            let i = |p: TilePos| (p.1 * map.width() + p.0) as usize;
            match map.tile_path(from, to, open) {
                Some(path) => {
                    proptest::prop_assert_eq!(path.len() as u32 - 1, d_to[i(from)]);
                    proptest::prop_assert_eq!((path[0], path[path.len() - 1]), (from, to));
                    for pair in path.windows(2) {
                        let (p, q) = (pair[0], pair[1]);
                        proptest::prop_assert_eq!(p.0.abs_diff(q.0) + p.1.abs_diff(q.1), 1);
                    }
                    for &p in path.iter().skip(1).take(path.len().saturating_sub(2)) {
                        proptest::prop_assert!(open(map.tile(p.0, p.1).unwrap()));
                    }
                }
                None => proptest::prop_assert_eq!(d_to[i(from)], u32::MAX),
            }
            // Both ends passable: the distance is symmetric.
            if open(map.tile(from.0, from.1).unwrap()) && open(map.tile(to.0, to.1).unwrap()) {
                proptest::prop_assert_eq!(d_from[i(to)], d_to[i(from)]);
            }
        }
    }
}
