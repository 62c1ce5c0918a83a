//! Long runs, release mode: `cargo test --release -p lore-mazegen -- --ignored --nocapture`.

mod common;

use lore_mazegen::{Config, TreeAlgorithm, check, generate, measure};

/// 10,000 seeds of each kind (grid mazes with every tree algorithm): zero unsolvable mazes. Also prints the zone balance distribution
/// of 200-point logic mazes with 10 zones (K = N / 20), quoted in docs/mazegen.md.
#[test]
#[ignore = "long: 10,000 seeds, run in release"]
fn ten_thousand_seeds_all_solvable() {
    let mut balances = Vec::with_capacity(10_000);
    for seed in 0..10_000u64 {
        let points = generate(&Config::points(200).zones(10).cycles(15).seed(seed)).unwrap();
        let solution = common::assert_sound(&points);
        balances.push(measure(&points, &solution).zone_balance);
        for tree in TreeAlgorithm::ALL {
            let grid = generate(&Config::grid(24, 16).zones(6).cycles(10).bias(0.5).tree(tree).seed(seed)).unwrap();
            common::assert_sound(&grid);
        }
    }
    balances.sort_by(f64::total_cmp);
    let q = |p: f64| balances[((balances.len() - 1) as f64 * p) as usize];
    let over = balances.iter().filter(|&&b| b > 0.25).count();
    println!(
        "zone balance, 200 points, 10 zones, 10,000 seeds: median {:.3}, p90 {:.3}, p99 {:.3}, max {:.3}, over 0.25: {over}",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    for (lo, hi) in [(0.0, 0.05), (0.05, 0.10), (0.10, 0.15), (0.15, 0.20), (0.20, 0.25), (0.25, 1.0)] {
        let c = balances.iter().filter(|&&b| b > lo && b <= hi).count();
        println!("  ({lo:.2}, {hi:.2}]: {c}");
    }
    println!("  exactly 0: {}", balances.iter().filter(|&&b| b == 0.0).count());
    assert_eq!(over, 0, "zone balance over 0.25 with K = N / 20 on 200 points");
}

/// With the bias off, the Kruskal tree's dead-end ratio, corridor length and turn ratio are within
/// 5 % of Wilson's (exactly uniform) spanning trees, on 100 × 100 grids over 40 seeds each, and
/// Aldous–Broder's (uniform too) within 3 %.
#[test]
#[ignore = "long: statistics over large grids, run in release"]
fn unbiased_tree_statistics_match_uniform_spanning_trees() {
    let stats = |tree: TreeAlgorithm| {
        let mut sum = [0.0f64; 3];
        for seed in 0..40 {
            let maze = generate(&Config::grid(100, 100).zones(1).tree(tree).seed(seed)).unwrap();
            let m = measure(&maze, &check(&maze).unwrap());
            sum[0] += m.dead_end_ratio;
            sum[1] += m.mean_corridor_len;
            sum[2] += m.turn_ratio;
        }
        sum.map(|s| s / 40.0)
    };
    let kruskal = stats(TreeAlgorithm::Kruskal);
    let wilson = stats(TreeAlgorithm::Wilson);
    let aldous_broder = stats(TreeAlgorithm::AldousBroder);
    println!(
        "dead ends, corridor length, turns: kruskal {kruskal:?} wilson {wilson:?} aldous-broder {aldous_broder:?}"
    );
    for i in 0..3 {
        let rel = (aldous_broder[i] - wilson[i]).abs() / wilson[i];
        assert!(rel <= 0.03, "statistic {i}: aldous-broder {} wilson {} ({rel:.3})", aldous_broder[i], wilson[i]);
    }
    for i in 0..3 {
        let rel = (kruskal[i] - wilson[i]).abs() / wilson[i];
        assert!(rel <= 0.05, "statistic {i}: kruskal {} wilson {} ({rel:.3})", kruskal[i], wilson[i]);
    }
}
