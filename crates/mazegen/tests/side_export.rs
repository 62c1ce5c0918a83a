//! Side-scroller level files: ASCII, JSON, SVG, PNG, and TMX read back by the `tiled` crate.

use std::collections::HashMap;

use lore_mazegen::{Config, LevelTile, Movement, SideConfig, SideLevel, generate_side};

/// A level with every kind of tile and object: 5 zones (doors and hatches), lifts, slopes.
fn level() -> SideLevel {
    let level =
        generate_side(&SideConfig::new(Config::grid(16, 8).zones(5).cycles(20).bias(0.3).seed(4), Movement::default()))
            .unwrap();
    let has = |f: fn(&LevelTile) -> bool| level.tiles.iter().any(f);
    assert!(has(|t| matches!(t, LevelTile::Door(_))) && has(|t| matches!(t, LevelTile::Hatch(_))));
    assert!(has(|t| *t == LevelTile::SlopeUp) && has(|t| *t == LevelTile::OneWay) && has(|t| *t == LevelTile::Ladder));
    assert!(!level.lifts.is_empty());
    level
}

#[test]
fn ascii_shows_tiles_and_objects() {
    let level = level();
    let text = level.to_ascii();
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(rows.len(), level.height as usize);
    assert!(rows.iter().all(|r| r.len() == level.width as usize));
    let at = |(x, y): (u32, u32)| rows[y as usize][x as usize];
    assert_eq!(at(level.start), '@');
    assert_eq!(at(level.exit), '!');
    for &(color, pos) in &level.keys {
        assert_eq!(at(pos), char::from(b'a' + color));
    }
    // Terrain round-trips through the reader, except hatches (shown as door letters) and lifts.
    let read = SideLevel::from_ascii(&text, level.movement).unwrap();
    for (i, (&a, &b)) in level.tiles.iter().zip(&read.tiles).enumerate() {
        let (x, y) = (i as u32 % level.width, i as u32 / level.width);
        let on_lift =
            level.lifts.iter().any(|l| (l.x..l.x + l.width).contains(&x) && (y == l.top || y + 1 == l.bottom));
        match a {
            LevelTile::Hatch(c) => assert_eq!(b, LevelTile::Door(c)),
            _ if on_lift => {}
            _ => assert_eq!(a, b, "tile {x},{y}"),
        }
    }
    assert_eq!((read.start, read.exit), (level.start, level.exit));
}

#[test]
fn json_holds_the_whole_level() {
    let level = level();
    let v: serde_json::Value = serde_json::from_str(&level.to_json()).unwrap();
    assert_eq!(v["width"], level.width);
    assert_eq!(v["height"], level.height);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), level.height as usize);
    for (y, row) in rows.iter().enumerate() {
        let row: Vec<char> = row.as_str().unwrap().chars().collect();
        for (x, ch) in row.iter().enumerate() {
            let tile = level.tile(x as u32, y as u32).unwrap();
            let want = if tile.lock_color().is_some() { '%' } else { tile.ascii() };
            assert_eq!(*ch, want);
        }
    }
    let locks = v["locks"].as_array().unwrap();
    assert_eq!(locks.len(), level.tiles.iter().filter(|t| t.lock_color().is_some()).count());
    for lock in locks {
        let (x, y) = (lock["x"].as_u64().unwrap() as u32, lock["y"].as_u64().unwrap() as u32);
        let color = lock["color"].as_u64().unwrap() as u8;
        let tile = if lock["kind"] == "door" { LevelTile::Door(color) } else { LevelTile::Hatch(color) };
        assert_eq!(level.tile(x, y), Some(tile));
    }
    assert_eq!(v["keys"].as_array().unwrap().len(), level.keys.len());
    assert_eq!(v["lifts"].as_array().unwrap().len(), level.lifts.len());
    assert_eq!(v["lifts"][0]["top"], level.lifts[0].top);
    assert_eq!(v["start"][0], level.start.0);
    assert_eq!(v["movement"]["jump_height"].as_f64().unwrap() as f32, level.movement.jump_height);
    assert_eq!(v["cell_zones"].as_array().unwrap().len(), level.cell_zones.len());
}

#[cfg(feature = "pictures")]
#[test]
fn pictures_show_keys_doors_and_rock_where_they_are() {
    let level = level();
    let scale = 6.0;
    let png = level.to_png(scale).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.width, info.height), (level.width * 6, level.height * 6));
    let channels = pixels.len() / (info.width as usize * info.height as usize);
    let rgb = |x: u32, y: u32| {
        let i = (y as usize * info.width as usize + x as usize) * channels;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    let centre = |(x, y): (u32, u32)| rgb(x * 6 + 3, y * 6 + 3);
    for &(color, at) in &level.keys {
        assert_eq!(centre(at), lore_mazegen::color_rgb(color), "key {color} at {at:?}");
    }
    assert_eq!(centre((0, 0)), [52, 48, 60], "rock in the corner");
    let door = (0..level.tiles.len() as u32)
        .map(|i| (i % level.width, i / level.width))
        .find(|&(x, y)| matches!(level.tile(x, y), Some(LevelTile::Door(_))))
        .unwrap();
    let Some(LevelTile::Door(c)) = level.tile(door.0, door.1) else { unreachable!() };
    assert_eq!(centre(door), lore_mazegen::color_rgb(c));
    assert_eq!(level.to_rgba(scale).unwrap().2.len(), (info.width * info.height * 4) as usize);
    let svg = level.to_svg(scale).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<polygon").count(),
        level.tiles.iter().filter(|t| matches!(t, LevelTile::SlopeUp | LevelTile::SlopeDown)).count()
    );
    assert!(level.to_png(0.0).is_err() && level.to_svg(f32::NAN).is_err());
    let err = level.to_png(1000.0).unwrap_err();
    assert!(err.to_string().contains("over the limit"), "{err}");
}

#[test]
fn tmx_opens_in_a_tiled_reader_with_the_level_in_it() {
    let level = level();
    let dir = std::env::temp_dir().join(format!("lore-mazegen-tmx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.tmx");
    std::fs::write(&path, level.to_tmx()).unwrap();
    let map = tiled::Loader::new().load_tmx_map(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!((map.width, map.height), (level.width, level.height));
    let float = |props: &tiled::Properties, name: &str| match props.get(name) {
        Some(tiled::PropertyValue::FloatValue(v)) => *v,
        other => panic!("{name}: {other:?}"),
    };
    let int = |props: &tiled::Properties, name: &str| match props.get(name) {
        Some(tiled::PropertyValue::IntValue(v)) => *v,
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(float(&map.properties, "jump_height"), level.movement.jump_height);
    assert_eq!(float(&map.properties, "character_width"), level.movement.size.x);
    let tileset = &map.tilesets()[0];
    assert_eq!(tileset.tilecount as usize, lore_mazegen::TMX_TILES.len());
    for (id, name) in lore_mazegen::TMX_TILES.iter().enumerate() {
        let tile = tileset.get_tile(id as u32).unwrap();
        assert_eq!(tile.properties.get("kind"), Some(&tiled::PropertyValue::StringValue((*name).to_owned())));
    }

    let layers: Vec<tiled::Layer<'_>> = map.layers().collect();
    assert_eq!(layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["terrain", "locks", "objects"]);
    let terrain = layers[0].as_tile_layer().unwrap();
    for y in 0..level.height {
        for x in 0..level.width {
            let want = match level.tile(x, y).unwrap() {
                LevelTile::Solid => Some(0),
                LevelTile::OneWay => Some(1),
                LevelTile::Ladder => Some(2),
                LevelTile::SlopeUp => Some(3),
                LevelTile::SlopeDown => Some(4),
                _ => None,
            };
            assert_eq!(terrain.get_tile(x as i32, y as i32).map(|t| t.id()), want, "tile {x},{y}");
        }
    }

    let px = lore_mazegen::TMX_TILE_PIXELS as f32;
    let tile_of = |o: &tiled::Object<'_>| ((o.x / px) as u32, (o.y / px) as u32);
    let locks = layers[1].as_object_layer().unwrap();
    let mut lock_count = 0;
    for o in locks.objects() {
        let color = int(&o.properties, "color") as u8;
        let (x, y) = tile_of(&o);
        let want = if o.user_type == "door" { LevelTile::Door(color) } else { LevelTile::Hatch(color) };
        assert_eq!(level.tile(x, y), Some(want));
        lock_count += 1;
    }
    assert_eq!(lock_count, level.tiles.iter().filter(|t| t.lock_color().is_some()).count());

    let objects = layers[2].as_object_layer().unwrap();
    let mut by_type: HashMap<String, Vec<tiled::Object<'_>>> = HashMap::new();
    for o in objects.objects() {
        by_type.entry(o.user_type.clone()).or_default().push(o);
    }
    assert_eq!(tile_of(&by_type["start"][0]), level.start);
    assert_eq!(tile_of(&by_type["exit"][0]), level.exit);
    let mut keys: Vec<(u8, (u32, u32))> =
        by_type["key"].iter().map(|o| (int(&o.properties, "color") as u8, tile_of(o))).collect();
    let mut want = level.keys.clone();
    keys.sort_unstable();
    want.sort_unstable();
    assert_eq!(keys, want);
    let lifts = &by_type["lift"];
    assert_eq!(lifts.len(), level.lifts.len());
    for (o, lift) in lifts.iter().zip(&level.lifts) {
        assert_eq!(tile_of(o), (lift.x, lift.top));
        assert_eq!(float(&o.properties, "period"), lift.period);
        assert_eq!(int(&o.properties, "width") as u32, lift.width);
        match &o.shape {
            tiled::ObjectShape::Polyline { points } => {
                assert_eq!(points, &vec![(0.0, 0.0), (0.0, (lift.bottom - lift.top) as f32 * px)]);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn serde_round_trips_a_level_and_a_config() {
    let level = level();
    let json = serde_json::to_string(&level).unwrap();
    let back: SideLevel = serde_json::from_str(&json).unwrap();
    assert_eq!(back, level);
    let config = SideConfig::default().seed(9);
    let back: SideConfig = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
    assert_eq!(back, config);
    // A config read from JSON is checked: the maze config inside it and the movement limits.
    let bad = serde_json::to_string(&SideConfig::new(Config::grid(0, 3), Movement::default())).unwrap();
    assert!(serde_json::from_str::<SideConfig>(&bad).is_err());
    let slow = Movement { run_speed: 0.0, ..Movement::default() };
    let bad = serde_json::to_string(&SideConfig::new(Config::grid(4, 3), slow)).unwrap();
    let err = serde_json::from_str::<SideConfig>(&bad).unwrap_err().to_string();
    assert!(err.contains("run_speed"), "{err}");
}
