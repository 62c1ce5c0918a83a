//! lore-mazegen against knossos on grid mazes, plus the logic-maze pipeline and the checker.
//! Run: `cargo bench -p lore-benches --bench mazegen`.

use std::hint::black_box;
use std::time::Duration;

use criterion::Throughput;
use criterion::{Criterion, criterion_group};
use knossos::maze::{
    AldousBroder, Bias, BinaryTree, Eller, GrowingTree, HuntAndKill, Kruskal, Method, OrthogonalMazeBuilder, Prim,
    RecursiveBacktracking, Sidewinder,
};
use lore_mazegen::{Config, Error, GridTree, TreeAlgorithm, check, generate};

fn knossos(width: usize, height: usize, algorithm: Box<dyn knossos::maze::Algorithm>) -> knossos::maze::OrthogonalMaze {
    OrthogonalMazeBuilder::new().width(width).height(height).algorithm(algorithm).seed(Some(1)).build()
}

/// A bare spanning-tree grid maze: one zone, first tree kept (what knossos builds).
fn lore_grid(w: u32, h: u32, tree: TreeAlgorithm) -> Config {
    Config::grid(w, h).zones(1).balance(0.25, 1).tree(tree).seed(1)
}

/// One square carve per call, cycling through 64 seeds: the median is taken over seeds, not one
/// seed's luck (Wilson's time follows its walks' lengths, which vary with the seed), and a
/// branch predictor cannot learn one seed's sequence by heart (on 100 × 100 the uniform carver
/// repeating one seed runs in half the time).
fn over_seeds(
    side: u32,
    bias: f32,
    carve: fn(u32, u32, f32, u64) -> Result<GridTree, Error>,
) -> impl FnMut() -> GridTree {
    let mut seed = 0;
    move || {
        seed = (seed + 1) % 64;
        carve(black_box(side), side, bias, seed).unwrap()
    }
}

fn grid_1000(c: &mut Criterion) {
    let mut g = c.benchmark_group("grid_1000x1000");
    g.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    // The grid carver: the spanning tree as walls, two bits per cell (what knossos returns).
    g.bench_function("lore_carve", |b| b.iter(over_seeds(1000, 0.0, GridTree::carve)));
    g.bench_function("lore_carve_bias_0.5", |b| b.iter(over_seeds(1000, 0.5, GridTree::carve)));
    g.bench_function("lore_carve_uniform", |b| b.iter(over_seeds(1000, 0.0, GridTree::carve_uniform)));
    g.bench_function("lore_carve_uniform_bias_0.5", |b| b.iter(over_seeds(1000, 0.5, GridTree::carve_uniform)));
    // The same tree inside a full `Maze` (positions, edge list, parents, zones).
    g.bench_function("lore_kruskal", |b| {
        b.iter(|| generate(black_box(&lore_grid(1000, 1000, TreeAlgorithm::Kruskal))).unwrap())
    });
    g.bench_function("lore_kruskal_16_zones", |b| {
        b.iter(|| generate(black_box(&lore_grid(1000, 1000, TreeAlgorithm::Kruskal).zones(16))).unwrap());
    });
    // The same with the uniform carver, the grid default.
    g.bench_function("lore_uniform", |b| {
        b.iter(|| generate(black_box(&lore_grid(1000, 1000, TreeAlgorithm::Wilson))).unwrap())
    });
    g.bench_function("lore_uniform_16_zones", |b| {
        b.iter(|| generate(black_box(&lore_grid(1000, 1000, TreeAlgorithm::Wilson).zones(16))).unwrap());
    });
    g.bench_function("knossos_sidewinder", |b| b.iter(|| knossos(1000, 1000, Box::new(Sidewinder))));
    g.bench_function("knossos_binary_tree", |b| {
        b.iter(|| knossos(1000, 1000, Box::new(BinaryTree::new(Bias::NorthEast))))
    });
    g.bench_function("knossos_recursive_backtracking", |b| {
        b.iter(|| knossos(1000, 1000, Box::new(RecursiveBacktracking)))
    });
    g.finish();
}

fn grid_100(c: &mut Criterion) {
    let mut g = c.benchmark_group("grid_100x100");
    g.sample_size(20).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    g.bench_function("lore_carve", |b| b.iter(over_seeds(100, 0.0, GridTree::carve)));
    g.bench_function("lore_carve_uniform", |b| b.iter(over_seeds(100, 0.0, GridTree::carve_uniform)));
    g.bench_function("lore_kruskal", |b| {
        b.iter(|| generate(black_box(&lore_grid(100, 100, TreeAlgorithm::Kruskal))).unwrap())
    });
    g.bench_function("lore_wilson", |b| {
        b.iter(|| generate(black_box(&lore_grid(100, 100, TreeAlgorithm::Wilson))).unwrap())
    });
    g.bench_function("knossos_kruskal", |b| b.iter(|| knossos(100, 100, Box::new(Kruskal))));
    g.finish();
}

fn logic(c: &mut Criterion) {
    let mut g = c.benchmark_group("logic_pipeline");
    g.sample_size(10).measurement_time(Duration::from_secs(6)).warm_up_time(Duration::from_secs(1));
    for n in [10_000u32, 100_000] {
        let config = Config::points(n).zones(16).cycles(n / 20).seed(1);
        g.bench_function(format!("lore_{n}_points_16_zones"), |b| b.iter(|| generate(black_box(&config)).unwrap()));
    }
    g.finish();
    let mut g = c.benchmark_group("checker");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let maze = generate(&Config::points(100_000).zones(16).cycles(5_000).seed(1)).unwrap();
    g.bench_function("lore_check_100k_nodes_16_zones", |b| b.iter(|| check(black_box(&maze)).unwrap()));
    g.finish();
}

/// Each classic carver against knossos's same algorithm on a 300 × 300 grid, reported in cells
/// per second: lore's bare walls (`GridTree::carve_by`, what knossos builds) cycling through 64
/// seeds, knossos with one seed.
fn carvers(c: &mut Criterion) {
    const SIDE: u32 = 300;
    let mut g = c.benchmark_group("carvers_300x300");
    g.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    g.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    type Peer = fn() -> Box<dyn knossos::maze::Algorithm>;
    let pairs: [(TreeAlgorithm, &str, Peer); 8] = [
        (TreeAlgorithm::RecursiveBacktracker, "recursive_backtracker", || Box::new(RecursiveBacktracking)),
        (TreeAlgorithm::Prim, "prim", || Box::new(Prim::new())),
        (TreeAlgorithm::HuntAndKill, "hunt_and_kill", || Box::new(HuntAndKill::new())),
        (TreeAlgorithm::AldousBroder, "aldous_broder", || Box::new(AldousBroder)),
        (TreeAlgorithm::GrowingTree { newest_percent: 50 }, "growing_tree_50", || {
            Box::new(GrowingTree::new(Method::Newest50Random50))
        }),
        (TreeAlgorithm::Eller, "eller", || Box::new(Eller)),
        (TreeAlgorithm::Sidewinder, "sidewinder", || Box::new(Sidewinder)),
        (TreeAlgorithm::BinaryTree, "binary_tree", || Box::new(BinaryTree::new(Bias::NorthEast))),
    ];
    for (algorithm, name, peer) in pairs {
        g.bench_function(format!("{name}/lore"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed = (seed + 1) % 64;
                GridTree::carve_by(algorithm, black_box(SIDE), SIDE, 0.0, seed).unwrap()
            });
        });
        g.bench_function(format!("{name}/knossos"), |b| b.iter(|| knossos(SIDE as usize, SIDE as usize, peer())));
    }
    g.finish();
}

/// A side-scroller level of the default size (16 × 8 cells, 4 zones, 10 loops): generation with
/// its built-in check, and the reachability check alone. No peer crate generates platformer
/// levels checked against jump arcs, so these rows stand alone.
fn side_scroller(c: &mut Criterion) {
    let mut g = c.benchmark_group("side_scroller_16x8");
    g.sample_size(20).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    g.bench_function("lore_generate_and_check", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed = (seed + 1) % 16;
            lore_mazegen::generate_side(black_box(&lore_mazegen::SideConfig::default().seed(seed))).unwrap()
        });
    });
    let level = lore_mazegen::generate_side(&lore_mazegen::SideConfig::default().seed(1)).unwrap();
    g.bench_function("lore_check", |b| b.iter(|| lore_mazegen::check_side(black_box(&level)).unwrap()));
    g.finish();
}

criterion_group!(benches, grid_100, logic, grid_1000, carvers, side_scroller);

/// knossos's recursive backtracking recurses once per cell and overflows the default 8 MiB main
/// stack at 1000 × 1000, so the benches run on a thread with a 1 GiB stack.
fn main() {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            benches();
            Criterion::default().configure_from_args().final_summary();
        })
        .expect("spawn the bench thread")
        .join()
        .expect("bench thread");
}
