//! Helpers shared by the integration tests (included with `mod common;`).

use lore_mazegen::{EdgeKind, Maze, Solution, check};

/// Everything a generated maze must satisfy; returns the checker's solution.
pub fn assert_sound(maze: &Maze) -> Solution {
    let solution = check(maze).unwrap_or_else(|e| panic!("generated maze failed the checker: {e}"));
    let k = usize::from(maze.zone_count);
    let n = maze.node_count();
    // Connected: the tree spans every node.
    assert_eq!(maze.edges.iter().filter(|e| e.kind == EdgeKind::Tree).count(), n - 1);
    // One key per door color, K - 1 of each.
    let doors: Vec<u8> = maze.doors().filter_map(|(_, e)| e.door).collect();
    assert_eq!(doors.len(), k - 1);
    let mut colors = doors.clone();
    colors.sort_unstable();
    assert_eq!(colors, (0..k as u16 - 1).map(|c| c as u8).collect::<Vec<_>>());
    let mut key_colors: Vec<u8> = maze.keys.iter().map(|k| k.color).collect();
    key_colors.sort_unstable();
    assert_eq!(key_colors, colors);
    // The checker's zones (parts with doors as walls) are exactly the generator's K zones.
    assert_eq!(solution.zone_sizes.len(), k);
    let mut map = vec![u16::MAX; k];
    for v in 0..n {
        let (g, c) = (usize::from(maze.zone[v]), solution.zone[v]);
        assert!(map[g] == u16::MAX || map[g] == c, "zone {g} split by the checker");
        map[g] = c;
    }
    // Zones never touch through a cycle edge; every door joins two zones.
    for e in &maze.edges {
        let same = maze.zone[e.a as usize] == maze.zone[e.b as usize];
        assert_eq!(same, e.door.is_none(), "edge {e:?}");
    }
    // Each key is reachable before its door: key of color c is reachable from the root through
    // doors of colors < c only (the player opens colors in increasing order).
    for key in &maze.keys {
        let reach = reachable(maze, |d| d < key.color);
        assert!(reach[key.node as usize], "key {key:?} not reachable before its door");
    }
    solution
}

/// Nodes reachable from the root through edges without doors or with doors `open(color)`.
pub fn reachable(maze: &Maze, open: impl Fn(u8) -> bool) -> Vec<bool> {
    let n = maze.node_count();
    let mut adj = vec![Vec::new(); n];
    for e in &maze.edges {
        if e.door.is_none_or(&open) {
            adj[e.a as usize].push(e.b);
            adj[e.b as usize].push(e.a);
        }
    }
    let mut seen = vec![false; n];
    let mut stack = vec![maze.root];
    seen[maze.root as usize] = true;
    while let Some(v) = stack.pop() {
        for &u in &adj[v as usize] {
            if !seen[u as usize] {
                seen[u as usize] = true;
                stack.push(u);
            }
        }
    }
    seen
}

/// A perfect maze: `w × h − 1` passages, each between two neighbouring cells, none closing a
/// loop (a plain union-find, independent of the crate's).
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn assert_spanning_tree(w: u32, h: u32, passages: impl Iterator<Item = [u32; 2]>) {
    let n = (w * h) as usize;
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    let mut count = 0;
    for [a, b] in passages {
        let (a, b) = (a as usize, b as usize);
        assert!(a < n && b < n, "passage {a}-{b} outside the grid");
        let neighbours = (b == a + 1 && a % w as usize + 1 < w as usize) || b == a + w as usize;
        assert!(neighbours, "passage {a}-{b} does not join neighbours");
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        assert_ne!(ra, rb, "passage {a}-{b} closes a loop");
        parent[ra] = rb;
        count += 1;
    }
    assert_eq!(count + 1, n, "a spanning tree has one passage fewer than cells");
}
