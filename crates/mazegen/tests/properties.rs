//! Property tests over seeds and sizes: every maze is connected and solvable, keys come before
//! their doors, cycles stay inside zones, the stepper and the one-shot call agree.

mod common;

use lore_mazegen::{CellMap, Config, Generator, GridTree, Step, TileMap, TreeAlgorithm, check, generate, measure};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn logic_mazes_are_sound(seed in any::<u64>(), n in 10u32..400, zones in 1u16..12, cycles in 0u32..60, bias in -1.0f32..=1.0) {
        let zones = zones.min((n / 3) as u16).max(1);
        let maze = generate(&Config::points(n).zones(zones).cycles(cycles).bias(bias).seed(seed)).unwrap();
        let solution = common::assert_sound(&maze);
        prop_assert_eq!(solution.key_order.len(), usize::from(zones) - 1);
        let m = measure(&maze, &solution);
        prop_assert!(m.cycles <= cycles);
    }

    #[test]
    fn grid_mazes_are_sound(seed in any::<u64>(), w in 1u32..40, h in 1u32..30, zones in 1u16..10, cycles in 0u32..40, bias in -1.0f32..=1.0) {
        let zones = zones.min((w * h) as u16).max(1);
        let tree = if seed % 2 == 0 { TreeAlgorithm::Kruskal } else { TreeAlgorithm::Wilson };
        let maze = generate(&Config::grid(w, h).zones(zones).cycles(cycles).bias(bias).tree(tree).seed(seed)).unwrap();
        common::assert_sound(&maze);
        // The cell map and tile map agree with the edges.
        let cells = CellMap::from_maze(&maze).unwrap();
        let open = cells.cells().iter().map(|c| u32::from(c.connected_left) + u32::from(c.connected_up)).sum::<u32>();
        prop_assert_eq!(open as usize, maze.edges.len());
        let tiles = TileMap::from_cells(&cells);
        prop_assert_eq!((tiles.width(), tiles.height()), (2 * w + 1, 2 * h + 1));
        let doors = tiles.to_ascii().chars().filter(char::is_ascii_uppercase).count();
        prop_assert_eq!(doors, usize::from(zones) - 1);
    }

    /// Every grid carver gives a spanning tree (every cell reachable, no loop), the same for the
    /// same seed, and the tree `generate` keeps when it keeps its first one.
    #[test]
    fn carved_grids_are_spanning_trees(
        seed in any::<u64>(), w in 1u32..60, h in 1u32..40, bias in -1.0f32..=1.0, which in 0usize..10,
        newest_percent in 0u8..=100,
    ) {
        let algorithm = match TreeAlgorithm::ALL[which] {
            TreeAlgorithm::GrowingTree { .. } => TreeAlgorithm::GrowingTree { newest_percent },
            other => other,
        };
        let tree = match algorithm {
            TreeAlgorithm::Kruskal => GridTree::carve(w, h, bias, seed).unwrap(),
            TreeAlgorithm::Wilson => GridTree::carve_uniform(w, h, bias, seed).unwrap(),
            _ => GridTree::carve_by(algorithm, w, h, bias, seed).unwrap(),
        };
        prop_assert_eq!(&tree, &GridTree::carve_by(algorithm, w, h, bias, seed).unwrap());
        common::assert_spanning_tree(w, h, tree.passages());
        prop_assert_eq!(tree.passage_count() as u32, w * h - 1);
        let maze = generate(&Config::grid(w, h).zones(1).bias(bias).tree(algorithm).seed(seed)).unwrap();
        common::assert_sound(&maze);
        let mut from_maze: Vec<[u32; 2]> = maze.edges.iter().map(|e| [e.a.min(e.b), e.a.max(e.b)]).collect();
        from_maze.sort_unstable();
        let mut carved: Vec<[u32; 2]> = tree.passages().collect();
        carved.sort_unstable();
        prop_assert_eq!(carved, from_maze);
        let cells = CellMap::from_maze(&maze).unwrap();
        for y in 0..h {
            for x in 0..w {
                let cell = cells.cell(x, y).unwrap();
                prop_assert_eq!((cell.connected_left, cell.connected_up), (tree.connected_left(x, y), tree.connected_up(x, y)));
            }
        }
    }

    /// The walking carvers on logic mazes (Delaunay graphs) give sound mazes too, and the row
    /// carvers are refused there with a config error.
    #[test]
    fn logic_mazes_from_every_walker_are_sound(seed in any::<u64>(), n in 10u32..300, zones in 1u16..8, bias in -1.0f32..=1.0, which in 0usize..10) {
        let algorithm = TreeAlgorithm::ALL[which];
        let zones = zones.min((n / 3) as u16).max(1);
        let config = Config::points(n).zones(zones).bias(bias).tree(algorithm).seed(seed);
        if algorithm.grid_only() {
            prop_assert!(matches!(generate(&config), Err(lore_mazegen::Error::Config(_))));
        } else {
            let maze = generate(&config).unwrap();
            prop_assert_eq!(maze.edges.len() + 1, maze.positions.len(), "a tree: no cycles asked for");
            let solution = common::assert_sound(&maze);
            prop_assert_eq!(solution.key_order.len(), usize::from(zones) - 1);
        }
    }

    #[test]
    fn stepping_equals_one_shot(seed in any::<u64>(), n in 10u32..300, zones in 1u16..8, cycles in 0u32..30, grid in any::<bool>(), which in 0usize..10) {
        let algorithm = TreeAlgorithm::ALL[which];
        let config = if grid || algorithm.grid_only() { Config::grid(n / 10 + 2, 12) } else { Config::points(n) };
        let config = config.zones(zones).cycles(cycles).tree(algorithm).seed(seed);
        let mut generator = Generator::new(&config).unwrap();
        let mut doors = 0;
        let mut keys = 0;
        while let Some(step) = generator.next() {
            match step {
                Step::Door { edge, color, .. } => {
                    doors += 1;
                    prop_assert_eq!(generator.maze().edges[edge as usize].door, Some(color));
                }
                Step::Key { color, node } => {
                    keys += 1;
                    prop_assert_eq!(generator.maze().keys.last().map(|k| (k.color, k.node)), Some((color, node)));
                }
                Step::Graph { .. } | Step::Tree { .. } | Step::Cycle { .. } => {}
            }
        }
        prop_assert_eq!(doors, usize::from(zones) - 1);
        prop_assert_eq!(keys, doors);
        prop_assert_eq!(generator.into_maze(), generate(&config).unwrap());
    }

    /// Zone balance (max |size − N/K| / (N/K)) on Delaunay graphs of at least 200 points.
    #[test]
    fn zone_balance_is_bounded(seed in any::<u64>(), n in 200u32..600, per_zone in 20u32..60) {
        let zones = (n / per_zone).max(2) as u16;
        let maze = generate(&Config::points(n).zones(zones).seed(seed)).unwrap();
        let m = measure(&maze, &check(&maze).unwrap());
        prop_assert!(m.zone_balance <= 0.25, "balance {} with {} zones of {} points", m.zone_balance, zones, n);
    }
}

/// Seeds whose zones missed 0.25 when at most 32 trees were drawn (small zones: about 20 points
/// each); with the default cap of 128 they meet it.
#[test]
fn small_zones_meet_the_balance_goal() {
    for (seed, n, zones) in [(6_556_582_723_049_274_366_u64, 582, 29), (3_197_236_517_486_789_612, 599, 28)] {
        let maze = generate(&Config::points(n).zones(zones).seed(seed)).unwrap();
        let m = measure(&maze, &check(&maze).unwrap());
        assert!(m.zone_balance <= 0.25, "seed {seed}: balance {}", m.zone_balance);
    }
}
