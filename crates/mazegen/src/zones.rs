//! Zones, doors and keys on a rooted tree (the same for point and grid mazes).

use crate::maze::Key;
use crate::spanning::Rooted;

/// The door the next zone gets: among nodes of the root zone (zone 0) other than the root, the
/// one whose subtree inside zone 0 has the size nearest `target` (ties: smaller size, then
/// smaller node id). Returns `(node, subtree size)`, or `None` if zone 0 holds only the root.
pub(crate) fn choose_door(
    order: &[u32],
    parent: &[u32],
    zone: &[u16],
    target: f64,
    size: &mut Vec<u32>,
) -> Option<(u32, u32)> {
    zone_sizes(order, parent, zone, size);
    nearest_door(order[0], zone, size, target)
}

/// `size[v]`: the number of nodes of `v`'s subtree inside zone 0 (stale for nodes outside it).
fn zone_sizes(order: &[u32], parent: &[u32], zone: &[u16], size: &mut Vec<u32>) {
    size.clear();
    size.resize(zone.len(), 0);
    let root = order[0];
    // Reverse breadth-first order visits children before parents. Zone 0 is connected and
    // holds the root, so the parent of a zone-0 node is in zone 0 too.
    for &v in order.iter().rev() {
        if zone[v as usize] == 0 {
            size[v as usize] += 1;
            if v != root {
                size[parent[v as usize] as usize] += size[v as usize];
            }
        }
    }
}

/// The zone-0 node other than `root` whose zone-0 subtree size is nearest `target`, by the key
/// `(|size − target|, size, node)`: one pass in id order (the key is a total order, so the
/// order of the pass does not matter), an equal distance keeping the earlier node unless it
/// is larger.
fn nearest_door(root: u32, zone: &[u16], size: &[u32], target: f64) -> Option<(u32, u32)> {
    let mut best: Option<(u32, u32)> = None;
    let mut best_key = (f64::INFINITY, u32::MAX);
    for (v, (&z, &s)) in zone.iter().zip(size.iter()).enumerate() {
        if z != 0 || v as u32 == root {
            continue;
        }
        let key = ((f64::from(s) - target).abs(), s);
        if key.0 < best_key.0 || (key.0 == best_key.0 && key.1 < best_key.1) {
            best_key = key;
            best = Some((v as u32, s));
        }
    }
    best
}

/// Moves the subtree of `door_child` that lies in zone 0 into `new_zone`.
pub(crate) fn mark_zone(order: &[u32], parent: &[u32], zone: &mut [u16], door_child: u32, new_zone: u16) {
    zone[door_child as usize] = new_zone;
    // Breadth-first order puts every node after its parent, so one forward pass floods the subtree.
    let start = order.iter().position(|&v| v == door_child).unwrap_or(order.len());
    for &v in &order[start + 1..] {
        let p = parent[v as usize];
        if zone[v as usize] == 0 && zone[p as usize] == new_zone {
            zone[v as usize] = new_zone;
        }
    }
}

/// Where the key of a newly closed door goes: the deepest tree leaf of zone 0 holding no key
/// (ties: smaller id); failing that the deepest zone-0 node without a key; failing that the root.
/// `leaves_by_depth` lists the tree leaves, deepest first.
pub(crate) fn choose_key_node(
    leaves_by_depth: &[u32],
    order: &[u32],
    depth: &[u32],
    zone: &[u16],
    keys: &[Key],
) -> u32 {
    let holds_key = |v: u32| keys.iter().any(|k| k.node == v);
    if let Some(&v) = leaves_by_depth.iter().find(|&&v| zone[v as usize] == 0 && !holds_key(v)) {
        return v;
    }
    let mut best: Option<u32> = None;
    for &v in &order[1..] {
        if zone[v as usize] == 0 && !holds_key(v) && best.is_none_or(|b| depth[v as usize] > depth[b as usize]) {
            best = Some(v);
        }
    }
    best.unwrap_or(order[0])
}

/// The tree's leaves (other than the root), deepest first, ties by smaller id: a counting sort
/// by depth over the leaves in id order.
pub(crate) fn leaves_by_depth(tree: &Rooted) -> Vec<u32> {
    let root = tree.order[0];
    let is_leaf = |v: usize| tree.children[v] == 0 && v as u32 != root;
    let max_depth = tree.depth.iter().copied().max().unwrap_or(0) as usize;
    // `start[max_depth - d]`: where the leaves of depth `d` begin.
    let mut start = vec![0u32; max_depth + 2];
    for v in (0..tree.depth.len()).filter(|&v| is_leaf(v)) {
        start[max_depth - tree.depth[v] as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut leaves = vec![0u32; start[max_depth + 1] as usize];
    for v in (0..tree.depth.len()).filter(|&v| is_leaf(v)) {
        let slot = &mut start[max_depth - tree.depth[v] as usize];
        leaves[*slot as usize] = v as u32;
        *slot += 1;
    }
    leaves
}

/// Places the `k - 1` doors on a scratch copy (exactly as the door steps will) and returns the
/// zone balance, max over zones of `|size - N/K| / (N/K)`, and the doors chosen, `(node,
/// subtree size)` in the order they close (the door steps replay them).
///
/// It picks the same doors as [`choose_door`] would, but computes the subtree sizes once: closing
/// a door takes its subtree's size off the door's ancestors (a walk up the tree).
pub(crate) fn simulate_balance(tree: &Rooted, k: u16, size: &mut Vec<u32>) -> (f64, Vec<(u32, u32)>) {
    let (order, parent) = (&tree.order, &tree.parent);
    let n = parent.len();
    let root = order[0];
    let mut zone = vec![0u16; n];
    zone_sizes(order, parent, &zone, size);
    let mut doors = Vec::with_capacity(usize::from(k));
    let mut free = n as u32;
    for placed in 0..k - 1 {
        let target = f64::from(free) / f64::from(k - placed);
        let Some((child, s)) = nearest_door(root, &zone, size, target) else { break };
        let mut a = child;
        while a != root {
            a = parent[a as usize];
            size[a as usize] -= s;
        }
        mark_zone(order, parent, &mut zone, child, placed + 1);
        doors.push((child, s));
        free -= s;
    }
    let ideal = n as f64 / f64::from(k);
    let balance =
        doors.iter().map(|&(_, s)| s).chain([free]).map(|s| (f64::from(s) - ideal).abs() / ideal).fold(0.0, f64::max);
    (balance, doors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spanning::orient;

    /// Root 0 with a chain 0-1-2-3-4-5 and a branch 1-6.
    fn tree() -> Rooted {
        orient(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 6)], 0)
    }

    #[test]
    fn door_goes_above_the_subtree_nearest_the_target() {
        let t = tree();
        let zone = vec![0u16; 7];
        let mut scratch = Vec::new();
        // Subtree sizes: 1 → 6, 2 → 4, 3 → 3, 4 → 2, 5 → 1, 6 → 1.
        assert_eq!(choose_door(&t.order, &t.parent, &zone, 3.2, &mut scratch), Some((3, 3)));
        assert_eq!(choose_door(&t.order, &t.parent, &zone, 1.0, &mut scratch), Some((5, 1)));
        let mut zone = zone;
        mark_zone(&t.order, &t.parent, &mut zone, 3, 2);
        assert_eq!(zone, vec![0, 0, 0, 2, 2, 2, 0]);
        // Sizes no longer count nodes behind the door: node 2's subtree is now just itself.
        assert_eq!(choose_door(&t.order, &t.parent, &zone, 1.4, &mut scratch), Some((2, 1)));
    }

    #[test]
    fn keys_go_to_the_deepest_free_leaf_of_the_start_zone() {
        let t = tree();
        let leaves = [5u32, 6];
        let mut zone = vec![0u16; 7];
        assert_eq!(choose_key_node(&leaves, &t.order, &t.depth, &zone, &[]), 5);
        zone[5] = 1;
        assert_eq!(choose_key_node(&leaves, &t.order, &t.depth, &zone, &[]), 6);
        let taken = [Key { color: 0, node: 6 }];
        // No free leaf left: the deepest free node of zone 0.
        assert_eq!(choose_key_node(&leaves, &t.order, &t.depth, &zone, &taken), 4);
    }

    #[test]
    fn leaves_come_deepest_first_then_by_id() {
        // Leaves: 5 (depth 5), 6 (depth 2); add a second branch 0-7-8 (8 at depth 2).
        let t = orient(9, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 6), (0, 7), (7, 8)], 0);
        assert_eq!(leaves_by_depth(&t), vec![5, 6, 8]);
        let single = orient(1, &[], 0);
        assert!(leaves_by_depth(&single).is_empty());
    }

    #[test]
    fn simulated_balance_of_a_perfect_split_is_zero() {
        // A chain of 6 from the root split in 3: subtrees of 2 exist at every step.
        let t = orient(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)], 0);
        let mut scratch = Vec::new();
        let (balance, doors) = simulate_balance(&t, 3, &mut scratch);
        assert!(balance.abs() < 1e-12);
        assert_eq!(doors, vec![(4, 2), (2, 2)]);
    }

    /// The incremental sizes pick exactly the doors that choosing each door afresh does, on
    /// random trees with ties (small trees, many equal sizes) and without.
    #[test]
    fn simulated_doors_match_choosing_each_door_afresh() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
        for case in 0..400 {
            let n = if case % 2 == 0 { rng.random_range(2..40u32) } else { rng.random_range(40..2000u32) };
            // A random recursive tree: node v hangs from a random earlier node.
            let edges: Vec<(u32, u32)> = (1..n).map(|v| (rng.random_range(0..v), v)).collect();
            let t = orient(n as usize, &edges, rng.random_range(0..n));
            let k = rng.random_range(2..=n.min(20) as u16);
            let mut scratch = Vec::new();
            let (_, doors) = simulate_balance(&t, k, &mut scratch);
            let mut zone = vec![0u16; n as usize];
            let mut expected = Vec::new();
            let mut free = n;
            for placed in 0..k - 1 {
                let target = f64::from(free) / f64::from(k - placed);
                let Some((child, size)) = choose_door(&t.order, &t.parent, &zone, target, &mut scratch) else { break };
                mark_zone(&t.order, &t.parent, &mut zone, child, placed + 1);
                expected.push((child, size));
                free -= size;
            }
            assert_eq!(doors, expected, "case {case}: {n} nodes, {k} zones");
        }
    }
}
