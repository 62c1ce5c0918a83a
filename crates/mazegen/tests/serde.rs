//! The serde support: configs, mazes, solutions and grid trees round-trip through JSON; configs
//! out of range and grid trees that are not spanning trees are refused when read.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use lore_mazegen::{
    CellMap, Config, GridTree, Maze, Measures, Shape, Solution, TreeAlgorithm, check, generate, measure, to_json,
};

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn configs_round_trip_and_regenerate_the_same_maze() {
    for config in [
        Config::points(200).zones(5).cycles(12).seed(9).root(3),
        Config::grid(15, 9).zones(3).bias(0.4).tree(TreeAlgorithm::Kruskal).balance(0.5, 4).seed(77),
        Config::grid(12, 8).zones(2).tree(TreeAlgorithm::GrowingTree { newest_percent: 30 }).seed(5),
        Config::grid(12, 8).zones(2).tree(TreeAlgorithm::Eller).seed(5),
        Config::points(60).zones(2).tree(TreeAlgorithm::HuntAndKill).seed(5),
    ] {
        let back: Config = round_trip(&config);
        assert_eq!(back, config);
        assert_eq!(generate(&back).unwrap(), generate(&config).unwrap());
    }
}

#[test]
fn a_config_out_of_range_is_refused_naming_the_field() {
    let mut value = serde_json::to_value(Config::grid(10, 10)).unwrap();
    value["zones"] = 0.into();
    let err = serde_json::from_value::<Config>(value.clone()).unwrap_err().to_string();
    assert!(err.contains("zones"), "{err}");
    value["zones"] = 4.into();
    value["horizontal_bias"] = 2.5.into();
    let err = serde_json::from_value::<Config>(value.clone()).unwrap_err().to_string();
    assert!(err.contains("horizontal_bias"), "{err}");
    value["horizontal_bias"] = 0.0.into();
    value["shape"] = serde_json::json!({"Grid": {"width": 0, "height": 3}});
    let err = serde_json::from_value::<Config>(value).unwrap_err().to_string();
    assert!(err.contains("grid: width and height"), "{err}");
    let err = read::<Config>(r#"{"shape":{"Points":{"count":10,"width":1.0,"height":1.0}}}"#).unwrap_err();
    assert!(err.contains("missing field"), "{err}");
}

#[test]
fn the_shape_record_is_readable() {
    let json = serde_json::to_string(&Shape::Points { count: 50, width: 10.0, height: 20.0 }).unwrap();
    assert_eq!(json, r#"{"Points":{"count":50,"width":10.0,"height":20.0}}"#);
}

#[test]
fn mazes_and_their_solutions_round_trip() {
    for config in [Config::points(300).zones(4).cycles(20).seed(42), Config::grid(12, 6).zones(3).bias(0.6).seed(1)] {
        let maze = generate(&config).unwrap();
        let back: Maze = round_trip(&maze);
        assert_eq!(back, maze);
        // The JSON export is its own format and does not change.
        assert_eq!(to_json(&back), to_json(&maze));
        let solution = check(&back).unwrap();
        assert_eq!(round_trip::<Solution>(&solution), solution);
        let measures = measure(&maze, &solution);
        assert_eq!(round_trip::<Measures>(&measures), measures);
        if let Ok(cells) = CellMap::from_maze(&maze) {
            let first = *cells.cell(0, 0).unwrap();
            assert_eq!(round_trip(&first), first);
        }
    }
}

#[test]
fn a_hand_edited_maze_loads_and_the_checker_reports_it() {
    let maze = generate(&Config::grid(6, 6).zones(3).seed(5)).unwrap();
    let mut value = serde_json::to_value(&maze).unwrap();
    // Drop every key: the maze still loads (plain data), and the checker says why it is unsolvable.
    value["keys"] = serde_json::json!([]);
    let edited: Maze = serde_json::from_value(value).unwrap();
    assert!(check(&edited).unwrap_err().to_string().contains("no key of color"));
}

#[test]
fn grid_trees_round_trip() {
    for (w, h, seed) in [(1, 1, 0), (1, 7, 1), (9, 1, 2), (40, 25, 3), (64, 3, 4)] {
        let tree = GridTree::carve(w, h, 0.2, seed).unwrap();
        let back: GridTree = round_trip(&tree);
        assert_eq!(back, tree);
        let uniform = GridTree::carve_uniform(w, h, -0.3, seed).unwrap();
        assert_eq!(round_trip(&uniform), uniform);
    }
}

#[test]
fn grid_trees_that_are_not_spanning_trees_are_refused() {
    let tree = GridTree::carve(4, 3, 0.0, 11).unwrap();
    let word = tree.words()[0];
    let with = |width: u32, height: u32, open: &[u64]| {
        read::<GridTree>(&serde_json::json!({"width": width, "height": height, "open": open}).to_string())
    };
    assert_eq!(with(4, 3, &[word]).unwrap(), tree);
    // Too few or too many words.
    assert!(with(4, 3, &[]).unwrap_err().contains("words"));
    assert!(with(4, 3, &[word, 0]).unwrap_err().contains("words"));
    // A passage out through the right wall (edge 2 * 3: cell 3 is the last of row 0).
    assert!(with(4, 3, &[word | 1 << 6]).unwrap_err().contains("out of the 4 x 3 grid"));
    // A passage down from the last row (cell 8 is the first of row 2).
    assert!(with(4, 3, &[word | 1 << 17]).unwrap_err().contains("out of the 4 x 3 grid"));
    // Bits past the last edge.
    assert!(with(4, 3, &[word | 1 << 40]).unwrap_err().contains("out of the 4 x 3 grid"));
    // One passage fewer: a cell is cut off.
    let lowest = word & word.wrapping_neg();
    assert!(with(4, 3, &[word & !lowest]).unwrap_err().contains("unreachable"));
    // Every inner edge open: loops.
    let all: u64 = (0..24).filter(|&e| if e % 2 == 0 { (e / 2) % 4 != 3 } else { e / 2 < 8 }).map(|e| 1u64 << e).sum();
    assert!(with(4, 3, &[all]).unwrap_err().contains("loop"));
    // Sizes the carvers refuse.
    assert!(with(0, 3, &[]).unwrap_err().contains("width and height"));
    assert!(with(1 << 14, 1 << 13, &[]).unwrap_err().contains("too many nodes"));
}
