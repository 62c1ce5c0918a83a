//! The solver and checker, independent of the generator: it trusts nothing but the maze's edges,
//! doors, keys and root.
//!
//! Keys are never consumed, so the set of places a player can reach only grows: one breadth-first
//! search from the root that parks doors it cannot open yet and releases them when a key of their
//! color is picked up reaches everything reachable. The maze is completable when it reaches
//! every node.

use crate::adjacency::Adjacency;
use crate::error::{Error, MalformedError, Unsolvable};
use crate::maze::{Key, Maze};

/// What the checker found in a completable maze.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Solution {
    /// Keys in the order the search picks them up (the first key a player can get comes first).
    pub key_order: Vec<Key>,
    /// Door edges (indices into [`Maze::edges`]) in the order the search first goes through them.
    pub door_order: Vec<u32>,
    /// A walk from the root through every key in `key_order`, ending on the far side of the last
    /// door opened (each leg a shortest path through the doors open at that time).
    pub path: Vec<u32>,
    /// Edges along `path`.
    pub critical_path_len: u32,
    /// Nodes with exactly one passable edge.
    pub dead_ends: u32,
    /// Zone of every node as the checker sees it: connected parts when door edges are walls,
    /// numbered in the order the search enters them (0 holds the root).
    pub zone: Vec<u16>,
    /// Nodes per zone, indexed like `zone`.
    pub zone_sizes: Vec<u32>,
}

/// Measures of a maze's shape (see [`measure`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Measures {
    /// Max over zones of `|size − N/K| / (N/K)`.
    pub zone_balance: f64,
    /// Independent cycles: `edges − nodes + 1`.
    pub cycles: u32,
    /// Dead ends over nodes.
    pub dead_end_ratio: f64,
    /// Share of edges that run more horizontally than vertically.
    pub horizontality: f64,
    /// Mean number of edges in a corridor: a maximal chain through nodes with exactly two edges.
    pub mean_corridor_len: f64,
    /// Among nodes with exactly two edges, the share where the way turns (not straight on).
    /// Straight means the two edges are (nearly) opposite: their directions' dot product is < −0.5.
    pub turn_ratio: f64,
}

fn validate(maze: &Maze) -> Result<(), Error> {
    let n = maze.positions.len();
    if n == 0 {
        return Err(Error::Malformed(MalformedError::NoNodes));
    }
    if n > u32::MAX as usize - 1 {
        return Err(Error::Malformed(MalformedError::TooManyNodes));
    }
    if maze.root as usize >= n {
        return Err(Error::Malformed(MalformedError::RootMissing { root: maze.root }));
    }
    for (i, e) in maze.edges.iter().enumerate() {
        if e.a as usize >= n || e.b as usize >= n {
            return Err(Error::Malformed(MalformedError::EdgeNode { edge: i, a: e.a, b: e.b }));
        }
    }
    for k in &maze.keys {
        if k.node as usize >= n {
            return Err(Error::Malformed(MalformedError::KeyNode { color: k.color, node: k.node }));
        }
    }
    Ok(())
}

/// Proves a maze completable and describes how.
///
/// # Errors
/// [`Error::Malformed`] if an edge, key or the root names a missing node;
/// [`Error::Unsolvable`] with the reason when some node cannot be reached.
pub fn check(maze: &Maze) -> Result<Solution, Error> {
    validate(maze)?;
    let n = maze.positions.len();
    let adj = Adjacency::new(n, maze.edges.iter().map(|e| (e.a, e.b)));
    let key_adj = Adjacency::new(n, maze.keys.iter().map(|k| (k.node, k.node)));
    let mut held = [false; 256];
    let mut waiting: Vec<Vec<(u32, u32)>> = vec![Vec::new(); 256];
    let mut seen = vec![false; n];
    let mut queue = Vec::with_capacity(n);
    let mut key_order = Vec::new();
    let mut door_order = Vec::new();
    seen[maze.root as usize] = true;
    queue.push(maze.root);
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        // Each key appears twice in its node's list (a self-loop); `held` dedups.
        for &(_, ki) in key_adj.of(v) {
            let k = maze.keys[ki as usize];
            if !held[usize::from(k.color)] {
                held[usize::from(k.color)] = true;
                key_order.push(k);
                for (u, e) in std::mem::take(&mut waiting[usize::from(k.color)]) {
                    if !seen[u as usize] {
                        seen[u as usize] = true;
                        door_order.push(e);
                        queue.push(u);
                    }
                }
            }
        }
        for &(u, e) in adj.of(v) {
            if seen[u as usize] {
                continue;
            }
            match maze.edges[e as usize].door {
                Some(c) if !held[usize::from(c)] => waiting[usize::from(c)].push((u, e)),
                door => {
                    seen[u as usize] = true;
                    if door.is_some() {
                        door_order.push(e);
                    }
                    queue.push(u);
                }
            }
        }
    }
    if queue.len() < n {
        return Err(Error::Unsolvable(why(maze, &seen, &waiting)));
    }

    let mut zone = vec![u16::MAX; n];
    let mut zone_sizes = Vec::new();
    // Zones in search order: the search visits each zone's first node before any other of it.
    let mut stack = Vec::new();
    for &start in &queue {
        if zone[start as usize] != u16::MAX {
            continue;
        }
        let z = zone_sizes.len().min(u16::MAX as usize - 1) as u16;
        zone[start as usize] = z;
        let mut size = 1u32;
        stack.push(start);
        while let Some(v) = stack.pop() {
            for &(u, e) in adj.of(v) {
                if maze.edges[e as usize].door.is_none() && zone[u as usize] == u16::MAX {
                    zone[u as usize] = z;
                    size += 1;
                    stack.push(u);
                }
            }
        }
        zone_sizes.push(size);
    }
    let dead_ends = (0..n as u32).filter(|&v| adj.of(v).iter().filter(|&&(u, _)| u != v).count() == 1).count() as u32;
    let path = walk(maze, &adj, &key_order, door_order.last().copied());
    let critical_path_len = path.len().saturating_sub(1) as u32;
    Ok(Solution { key_order, door_order, path, critical_path_len, dead_ends, zone, zone_sizes })
}

fn why(maze: &Maze, seen: &[bool], waiting: &[Vec<(u32, u32)>]) -> Unsolvable {
    for (color, parked) in waiting.iter().enumerate() {
        if parked.is_empty() {
            continue;
        }
        let color = color as u8;
        return match maze.keys.iter().find(|k| k.color == color) {
            Some(k) => {
                debug_assert!(!seen[k.node as usize]);
                Unsolvable::KeyLocked { color, key_node: k.node }
            }
            None => Unsolvable::NoKey { color },
        };
    }
    let node = seen.iter().position(|&s| !s).unwrap_or(0) as u32;
    Unsolvable::Disconnected { node }
}

/// Shortest path from `from` to `to` through edges without a door or with a held color.
fn leg(maze: &Maze, adj: &Adjacency, held: &[bool; 256], from: u32, to: u32, prev: &mut [u32], out: &mut Vec<u32>) {
    const UNSEEN: u32 = u32::MAX;
    prev.fill(UNSEEN);
    prev[from as usize] = from;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        if v == to {
            break;
        }
        for &(u, e) in adj.of(v) {
            let open = maze.edges[e as usize].door.is_none_or(|c| held[usize::from(c)]);
            if open && prev[u as usize] == UNSEEN {
                prev[u as usize] = v;
                queue.push_back(u);
            }
        }
    }
    let start = out.len();
    let mut v = to;
    while v != from && prev[v as usize] != UNSEEN {
        out.push(v);
        v = prev[v as usize];
    }
    out[start..].reverse();
}

fn walk(maze: &Maze, adj: &Adjacency, key_order: &[Key], last_door: Option<u32>) -> Vec<u32> {
    let mut held = [false; 256];
    let mut prev = vec![0u32; maze.positions.len()];
    let mut path = vec![maze.root];
    let mut at = maze.root;
    for k in key_order {
        leg(maze, adj, &held, at, k.node, &mut prev, &mut path);
        at = k.node;
        held[usize::from(k.color)] = true;
    }
    if let Some(e) = last_door {
        let edge = maze.edges[e as usize];
        // The far side is the end the search reached last: the tree child, or whichever end
        // is farther from where the walk stands.
        for target in [edge.a, edge.b] {
            leg(maze, adj, &held, at, target, &mut prev, &mut path);
            at = target;
        }
    }
    path.dedup();
    path
}

/// Measures a maze's shape using the checker's zones.
#[must_use]
pub fn measure(maze: &Maze, solution: &Solution) -> Measures {
    let n = maze.positions.len().max(1);
    let k = solution.zone_sizes.len().max(1);
    let ideal = n as f64 / k as f64;
    let zone_balance = solution.zone_sizes.iter().map(|&s| (f64::from(s) - ideal).abs() / ideal).fold(0.0, f64::max);
    let cycles = (maze.edges.len() + 1).saturating_sub(n) as u32;
    let dir = |a: u32, b: u32| (maze.positions[b as usize] - maze.positions[a as usize]).normalize_or_zero();
    let horizontal = maze
        .edges
        .iter()
        .filter(|e| {
            let d = dir(e.a, e.b);
            d.x.abs() >= d.y.abs()
        })
        .count();
    let adj = Adjacency::new(n, maze.edges.iter().map(|e| (e.a, e.b)));
    let (mut two, mut turns, mut ends) = (0u32, 0u32, 0u64);
    for v in 0..maze.positions.len() as u32 {
        let nb = adj.of(v);
        if nb.len() == 2 {
            two += 1;
            if dir(v, nb[0].0).dot(dir(v, nb[1].0)) >= -0.5 {
                turns += 1;
            }
        } else {
            ends += nb.len() as u64;
        }
    }
    let corridors = (ends / 2).max(1);
    Measures {
        zone_balance,
        cycles,
        dead_end_ratio: f64::from(solution.dead_ends) / n as f64,
        horizontality: if maze.edges.is_empty() { 0.0 } else { horizontal as f64 / maze.edges.len() as f64 },
        mean_corridor_len: maze.edges.len() as f64 / corridors as f64,
        turn_ratio: if two == 0 { 0.0 } else { f64::from(turns) / f64::from(two) },
    }
}
