//! The checker on hand-made mazes, solvable and not, and the exports on generated ones.

use lore_mazegen::{
    Config, Edge, EdgeKind, Error, Key, Layout, Maze, TreeAlgorithm, Unsolvable, check, generate, measure, to_ascii,
    to_json,
};
use lore_mazegen::{Vec2, to_png, to_svg};

/// A path 0 - 1 - 2 - 3 with doors on the given edges (edge i joins i and i + 1) and keys.
fn path(doors: &[(usize, u8)], keys: &[(u8, u32)]) -> Maze {
    let mut edges: Vec<Edge> = (0..3).map(|i| Edge { a: i, b: i + 1, door: None, kind: EdgeKind::Tree }).collect();
    for &(e, c) in doors {
        edges[e].door = Some(c);
    }
    Maze {
        layout: Layout::Points,
        positions: (0..4).map(|i| Vec2::new(i as f32, 0.0)).collect(),
        graph: (0..3).map(|i| [i, i + 1]).collect(),
        root: 0,
        parent: vec![u32::MAX, 0, 1, 2],
        edges,
        keys: keys.iter().map(|&(color, node)| Key { color, node }).collect(),
        zone: vec![0; 4],
        zone_count: 1 + doors.len() as u16,
    }
}

#[test]
fn solvable_path_reports_order_and_walk() {
    // Key 0 at node 1 opens the door between 1 and 2; key 1 at node 2 opens 2-3.
    let maze = path(&[(1, 0), (2, 1)], &[(0, 1), (1, 2)]);
    let s = check(&maze).unwrap();
    assert_eq!(s.key_order, vec![Key { color: 0, node: 1 }, Key { color: 1, node: 2 }]);
    assert_eq!(s.door_order, vec![1, 2]);
    assert_eq!(s.path, vec![0, 1, 2, 3]);
    assert_eq!(s.critical_path_len, 3);
    assert_eq!(s.zone_sizes, vec![2, 1, 1]);
    assert_eq!(s.dead_ends, 2);
    let m = measure(&maze, &s);
    assert_eq!(m.cycles, 0);
    assert!((m.horizontality - 1.0).abs() < 1e-9);
    assert!((m.turn_ratio - 0.0).abs() < 1e-9, "a straight path never turns");
}

#[test]
fn key_behind_its_own_door_is_unsolvable() {
    let maze = path(&[(1, 0)], &[(0, 3)]);
    assert_eq!(check(&maze), Err(Error::Unsolvable(Unsolvable::KeyLocked { color: 0, key_node: 3 })));
}

#[test]
fn door_without_key_is_unsolvable() {
    let maze = path(&[(0, 4)], &[]);
    assert_eq!(check(&maze), Err(Error::Unsolvable(Unsolvable::NoKey { color: 4 })));
}

#[test]
fn keys_in_the_wrong_order_are_unsolvable() {
    // The key of door 1 (edge 0-1) lies behind door 0 (edge 1-2), whose key lies behind door 1.
    let maze = path(&[(0, 1), (1, 0)], &[(0, 1), (1, 3)]);
    let err = check(&maze).unwrap_err();
    assert_eq!(err, Error::Unsolvable(Unsolvable::KeyLocked { color: 1, key_node: 3 }));
    assert!(err.to_string().contains("color 1"), "{err}");
}

#[test]
fn disconnected_node_is_unsolvable() {
    let mut maze = path(&[], &[]);
    maze.edges.pop();
    assert_eq!(check(&maze), Err(Error::Unsolvable(Unsolvable::Disconnected { node: 3 })));
}

#[test]
fn malformed_mazes_are_errors_not_panics() {
    let mut maze = path(&[], &[]);
    maze.edges[0].b = 99;
    assert!(matches!(check(&maze), Err(Error::Malformed(_))));
    let mut maze = path(&[], &[(0, 42)]);
    assert!(matches!(check(&maze), Err(Error::Malformed(_))));
    maze.keys.clear();
    maze.root = 4;
    assert!(matches!(check(&maze), Err(Error::Malformed(_))));
    assert!(matches!(to_svg(&maze, &Default::default()), Err(Error::Malformed(_))));
    let empty = Maze {
        positions: vec![],
        parent: vec![],
        zone: vec![],
        edges: vec![],
        graph: vec![],
        keys: vec![],
        ..path(&[], &[])
    };
    assert!(matches!(check(&empty), Err(Error::Malformed(_))));
    // A point maze has no tile map.
    assert!(matches!(to_ascii(&path(&[], &[])), Err(Error::Malformed(_))));
}

#[test]
fn bad_configs_are_rejected() {
    let bad = [
        Config::points(2),
        Config::grid(0, 5),
        Config::grid(5, 5).zones(0),
        Config::grid(5, 5).zones(26),
        Config::grid(50, 50).zones(300),
        Config::grid(5, 5).bias(1.5),
        Config::grid(5, 5).bias(f32::NAN),
        Config::grid(100_000, 100_000),
        Config::points(10).root(10),
        Config::grid(5, 5).balance(0.2, 0),
        Config {
            shape: lore_mazegen::Shape::Points { count: 10, width: f32::INFINITY, height: 1.0 },
            ..Config::points(10)
        },
    ];
    for config in bad {
        assert!(matches!(generate(&config), Err(Error::Config(_))), "{config:?}");
    }
    // The reasons are typed: a caller can tell them apart without reading the message.
    use lore_mazegen::ConfigError;
    assert_eq!(generate(&Config::grid(0, 5)), Err(Error::Config(ConfigError::GridSize)));
    assert_eq!(generate(&Config::grid(5, 5).bias(1.5)), Err(Error::Config(ConfigError::Bias)));
    assert_eq!(generate(&Config::grid(5, 5).balance(0.2, 0)), Err(Error::Config(ConfigError::BalanceTries)));
    assert_eq!(
        Error::Config(ConfigError::ZonesOverPoints { zones: 9, points: 4 }).to_string(),
        "invalid configuration: zones: 9 zones but only 4 distinct points"
    );
}

#[test]
fn same_seed_same_maze_different_seed_different_maze() {
    let a = generate(&Config::points(300).zones(5).cycles(10).seed(9)).unwrap();
    let b = generate(&Config::points(300).zones(5).cycles(10).seed(9)).unwrap();
    let c = generate(&Config::points(300).zones(5).cycles(10).seed(10)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Pins the output of one seed, so a change of RNG, algorithm or platform shows up: Kruskal's
/// carver here, the uniform carver (the grid default) below.
#[test]
fn golden_grid_maze() {
    let maze = generate(&Config::grid(16, 6).zones(3).bias(0.6).seed(3).tree(TreeAlgorithm::Kruskal)).unwrap();
    let expected = "\
#################################
#@    #       #     #       #   #
##### ####### # # ####### ### # #
#           #   #             # #
# ####### ######### ####### #####
#   #       #       # #         #
########### ######### #######B###
#           A                   #
# ############# ############### #
#     #     #       #b          #
### ### # ##### # # ####### #####
#       #  a#   # #       #     #
#################################
";
    assert_eq!(to_ascii(&maze).unwrap(), expected);
}

#[test]
fn golden_uniform_grid_maze() {
    let config = Config::grid(16, 6).zones(3).bias(0.6).seed(3);
    assert_eq!(config.tree, TreeAlgorithm::Wilson);
    let maze = generate(&config).unwrap();
    let expected = "\
#################################
#@      A                       #
##### ############# ########### #
#     #           #       #   # #
### ##### ### ####### ### ### # #
#     # #   #      a# #     #   #
# ### # ### ########### ####### #
# #               #   # # # #   #
##################### ### # ### #
#   #     #     #             B #
### # ### # # ######### ####### #
#     #     #             #b    #
#################################
";
    assert_eq!(to_ascii(&maze).unwrap(), expected);
}

#[test]
fn json_export_parses_and_matches() {
    let maze = generate(&Config::points(120).zones(4).cycles(5).seed(2)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&maze)).unwrap();
    assert_eq!(v["nodes"].as_array().unwrap().len(), maze.node_count());
    assert_eq!(v["edges"].as_array().unwrap().len(), maze.edges.len());
    assert_eq!(v["doors"].as_array().unwrap().len(), 3);
    assert_eq!(v["keys"].as_array().unwrap().len(), 3);
    assert_eq!(v["root"].as_u64(), Some(u64::from(maze.root)));
    assert_eq!(v["layout"], "points");
    let door = &v["doors"][0];
    let edge = &maze.edges[door["edge"].as_u64().unwrap() as usize];
    assert_eq!(door["colour"].as_u64(), edge.door.map(u64::from));
    let grid = generate(&Config::grid(5, 4).zones(2).seed(2)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&grid)).unwrap();
    assert_eq!(v["layout"]["grid"], serde_json::json!([5, 4]));
}

#[test]
fn pictures_show_zone_door_and_key_colors() {
    use lore_mazegen::{Style, color_rgb, to_rgba, zone_rgb};
    let maze = generate(&Config::grid(12, 8).zones(4).seed(4)).unwrap();
    let style = Style { scale: 10.0, ..Style::default() };
    let (w, h, px) = to_rgba(&maze, &style).unwrap();
    assert_eq!((w, h), (12 * 10 + 16, 8 * 10 + 16));
    let count = |rgb: [u8; 3]| px.chunks(4).filter(|p| p[..3] == rgb).count();
    for z in 0..4 {
        assert!(count(zone_rgb(z)) > 30, "zone {z}");
    }
    for c in 0..3 {
        assert!(count(color_rgb(c)) > 10, "door/key color {c}");
    }
    // Cell centres without a key or the start marker show their zone's tint (cell (x, y) spans
    // pixels 8 + 10x .. 8 + 10x + 10, rows top to bottom).
    let at = |x: u32, y: u32| &px[((y * w + x) * 4) as usize..((y * w + x) * 4 + 3) as usize];
    let mut checked = 0;
    for node in 1..96u32 {
        if maze.keys.iter().any(|k| k.node == node) {
            continue;
        }
        let (cx, cy) = (node % 12, node / 12);
        assert_eq!(at(8 + 10 * cx + 5, 8 + 10 * cy + 5), &zone_rgb(maze.zone[node as usize])[..], "cell {node}");
        checked += 1;
    }
    assert!(checked > 80);
    let png = to_png(&maze, &style).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = to_svg(&maze, &style).unwrap();
    assert!(
        svg.starts_with("<svg")
            && svg.contains(&format!("#{:02x}{:02x}{:02x}", color_rgb(0)[0], color_rgb(0)[1], color_rgb(0)[2]))
    );
    assert!(matches!(to_png(&maze, &Style { scale: f32::NAN, ..style }), Err(Error::Export(_))));
    assert!(matches!(to_png(&maze, &Style { scale: 10_000.0, ..style }), Err(Error::Export(_))));
}

#[test]
fn ascii_refuses_colors_past_the_alphabet() {
    use lore_mazegen::{Tile, TileMap};
    // 27 zones: door colors 0 to 25, every one with a letter.
    let maze = generate(&Config::grid(30, 30).zones(27).seed(1)).unwrap();
    let text = to_ascii(&maze).unwrap();
    assert!(text.contains('Z') && text.contains('z') && !text.contains('?'));
    // 28 zones: color 26 has no letter, so the export refuses rather than reuse one.
    let maze = generate(&Config::grid(30, 30).zones(28).seed(1)).unwrap();
    let err = to_ascii(&maze).unwrap_err();
    assert!(matches!(err, Error::Export(_)) && err.to_string().contains("26 door colors"), "{err}");
    // The tile map itself never wraps: a color past 25 is `?`, never another color's letter.
    assert_eq!((Tile::Door(26).ascii(), Tile::Key(27).ascii()), ('?', '?'));
    assert_eq!((Tile::Door(25).ascii(), Tile::Key(0).ascii()), ('Z', 'a'));
    let tiles = TileMap::from_cells(&lore_mazegen::CellMap::from_maze(&maze).unwrap()).to_ascii();
    assert_eq!(tiles.matches('?').count(), 2, "the door and the key of color 26");
}

#[test]
fn ascii_refuses_to_hide_a_key_under_the_start() {
    use lore_mazegen::{CellMap, TileMap};
    // Two cells side by side, a door between them, its key on the start cell.
    let maze = Maze {
        layout: Layout::Grid { width: 2, height: 1 },
        positions: vec![Vec2::new(0.5, 0.5), Vec2::new(1.5, 0.5)],
        graph: vec![[0, 1]],
        root: 0,
        parent: vec![u32::MAX, 0],
        edges: vec![Edge { a: 0, b: 1, door: Some(0), kind: EdgeKind::Tree }],
        keys: vec![Key { color: 0, node: 0 }],
        zone: vec![0, 1],
        zone_count: 2,
    };
    check(&maze).unwrap();
    assert_eq!(TileMap::from_cells(&CellMap::from_maze(&maze).unwrap()).start_key(), Some(0));
    let err = to_ascii(&maze).unwrap_err();
    assert!(matches!(err, Error::Export(_)) && err.to_string().contains("start cell"), "{err}");
    // The generator does this when the start zone has no other room: 2 cells, 2 zones.
    let tiny = generate(&Config::grid(2, 1).zones(2).seed(0)).unwrap();
    assert_eq!(tiny.keys[0].node, tiny.root);
    assert!(to_ascii(&tiny).is_err());
}

#[test]
fn png_holds_the_same_pixels_as_rgba() {
    use lore_mazegen::{Style, to_rgba};
    for (maze, scale) in [
        (generate(&Config::grid(23, 17).zones(5).cycles(9).seed(6)).unwrap(), 7.5),
        (generate(&Config::points(150).zones(4).cycles(12).seed(5)).unwrap(), 3.0),
    ] {
        let style = Style { scale, show_solution: true, ..Style::default() };
        let (w, h, rgba) = to_rgba(&maze, &style).unwrap();
        assert!(h > 128, "several bands of rows");
        let png = to_png(&maze, &style).unwrap();
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgb).unwrap();
        assert_eq!((info.width, info.height, info.color_type), (w, h, png::ColorType::Rgb));
        let expected: Vec<u8> = rgba.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        assert!(rgb[..info.buffer_size()] == expected[..], "decoded PNG differs from to_rgba");
    }
}

#[test]
fn oversized_pictures_name_the_scale_that_fits() {
    use lore_mazegen::{MAX_PICTURE_SIDE, Style};
    let maze = generate(&Config::grid(1000, 10).zones(2).seed(1)).unwrap();
    let err = to_svg(&maze, &Style { scale: 20.0, ..Style::default() }).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("20016 × 216 pixels") && text.contains(&MAX_PICTURE_SIDE.to_string()), "{text}");
    let fit: f32 = text.split("a scale of at most ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    // The same figures as typed fields, for a caller that matches rather than reads.
    match err {
        Error::Export(lore_mazegen::ExportError::PictureTooLarge { width, height, limit, max_scale }) => {
            assert_eq!((width, height, limit, max_scale), (20016.0, 216.0, MAX_PICTURE_SIDE, Some(fit)));
        }
        other => panic!("{other:?}"),
    }
    let png = to_png(&maze, &Style { scale: fit, ..Style::default() }).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    assert!(to_png(&maze, &Style { scale: fit + 0.02, ..Style::default() }).is_err());
}
