//! End-to-end tests: the autopilot plays levels through the game's input path.

use lore_dungeon::autopilot::Autopilot;
use lore_dungeon::game::{Game, LevelStats};
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;

/// Frames the autopilot may take for one level of the default size (16 × 8 cells, 4 zones,
/// 180 enemies): 4,000 frames, 67 s of game time (seeds 1–20 take 1,610–3,421).
const FRAME_BUDGET: u64 = 4_000;

/// How deep (tiles) the player may be inside a solid tile after a step: the slide move's
/// tolerance (1e-4 of the radius) plus float rounding, with room to spare.
const SLOP: f32 = 1e-3;

/// Depth of a disk inside the unit tile whose lower-left corner is `min` (0 when apart).
fn depth_in_tile(centre: glam::Vec2, radius: f32, min: glam::Vec2) -> f32 {
    let max = min + glam::Vec2::ONE;
    let inside = centre.cmpge(min).all() && centre.cmple(max).all();
    if inside {
        let to_edge = (centre - min).min(max - centre).min_element();
        radius + to_edge
    } else {
        radius - centre.clamp(min, max).distance(centre)
    }
}

/// Plays one level with the autopilot; checks the slop every step; returns the level's counters
/// and the hash of every step.
fn play_level(seed: u64, kinds: Kinds) -> (Option<LevelStats>, Vec<u64>) {
    let mut game = Game::new(LevelConfig { seed, ..LevelConfig::default() }, kinds).unwrap();
    let mut pilot = Autopilot::new();
    let mut hashes = Vec::new();
    let radius = game.kinds().player.radius;
    for _ in 0..FRAME_BUDGET {
        let input = pilot.input(&mut game);
        game.step(&input).unwrap();
        hashes.push(game.state_hash());
        if let Some(done) = game.finished().first() {
            return (Some(*done), hashes);
        }
        let p = game.player();
        let map = &game.level().map;
        let h = map.height();
        for y in 0..h {
            for x in 0..map.width() {
                if game.is_solid((x, y)) {
                    let min = map.tile_center((x, y)) - glam::Vec2::splat(0.5);
                    let d = depth_in_tile(p, radius, min);
                    assert!(
                        d <= SLOP,
                        "seed {seed}, frame {}: player {p} is {d} deep in tile ({x}, {y})",
                        game.frame()
                    );
                }
            }
        }
    }
    (None, hashes)
}

#[test]
fn the_autopilot_completes_twenty_seeds_within_the_budget_and_never_enters_a_wall() {
    for seed in 1..=20 {
        let (done, _) = play_level(seed, Kinds::shipped());
        let done = done.unwrap_or_else(|| panic!("seed {seed}: level not finished in {FRAME_BUDGET} frames"));
        println!("seed {seed}: {done:?}");
        assert_eq!(done.keys, 3, "seed {seed}");
        assert!(done.frames <= FRAME_BUDGET);
        assert!(done.bullets_fired > 0 && done.enemies_hit > 0, "seed {seed}: {done:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_state_hash_every_frame() {
    let (a, ha) = play_level(7, Kinds::shipped());
    let (b, hb) = play_level(7, Kinds::shipped());
    assert!(a.is_some());
    assert_eq!(a, b);
    assert_eq!(ha.len(), hb.len());
    if let Some(i) = ha.iter().zip(&hb).position(|(x, y)| x != y) {
        panic!("runs differ at frame {i}");
    }
    // And another seed plays differently.
    let (_, hc) = play_level(8, Kinds::shipped());
    assert_ne!(ha[100], hc[100]);
}

#[test]
fn enemies_of_speed_zero_never_move() {
    let xml = lore_dungeon::kinds::DEFAULT_KINDS_XML
        .replace(r#"<parameter name="speed" value="1.2"/>"#, r#"<parameter name="speed" value="0"/>"#)
        .replace(r#"<parameter name="speed" value="1"/>"#, r#"<parameter name="speed" value="0"/>"#)
        .replace(r#"<parameter name="chase_speed" value="2.2"/>"#, r#"<parameter name="chase_speed" value="0"/>"#);
    let kinds = Kinds::from_xml(&xml).unwrap();
    assert_eq!((kinds.wanderer.speed, kinds.chaser.speed, kinds.chaser.chase_speed), (0.0, 0.0, 0.0));
    let mut game = Game::new(LevelConfig { seed: 5, ..LevelConfig::default() }, kinds).unwrap();
    let start: Vec<glam::Vec2> = game.enemies().map(|e| e.pos).collect();
    assert!(start.len() > 100);
    let mut pilot = Autopilot::new();
    for _ in 0..600 {
        let input = pilot.input(&mut game);
        game.step(&input).unwrap();
    }
    // Some were shot (removed), none of the others moved by a single bit.
    let now: Vec<glam::Vec2> = game.enemies().map(|e| e.pos).collect();
    assert!(now.len() < start.len(), "the autopilot shot none");
    for p in &now {
        assert!(start.contains(p), "an enemy moved to {p}");
    }
    // With the shipped kinds they do move.
    let mut moving = Game::new(LevelConfig { seed: 5, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
    let before: Vec<glam::Vec2> = moving.enemies().map(|e| e.pos).collect();
    for _ in 0..10 {
        moving.step(&lore_render::Input::default()).unwrap();
    }
    let moved = moving.enemies().zip(&before).filter(|(e, p)| e.pos != **p).count();
    assert!(moved > before.len() / 2);
}

#[test]
fn a_malformed_kinds_file_is_a_clear_error() {
    let truncated = &lore_dungeon::kinds::DEFAULT_KINDS_XML[..200];
    let err = Kinds::from_xml(truncated).unwrap_err().to_string();
    assert!(err.starts_with("kinds:"), "{err}");
    let typo = lore_dungeon::kinds::DEFAULT_KINDS_XML
        .replace(r#"name="radius" value="0.3"/>"#, r#"name="radius" value="0.3.1"/>"#);
    let err = Kinds::from_xml(&typo).unwrap_err().to_string();
    assert!(err.contains("line") && err.contains("radius"), "{err}");
    let unknown = lore_dungeon::kinds::DEFAULT_KINDS_XML.replace(r#"name="lifetime""#, r#"name="lifespan""#);
    let err = Kinds::from_xml(&unknown).unwrap_err().to_string();
    assert!(err.contains("lifespan"), "{err}");
    let missing = lore_dungeon::kinds::DEFAULT_KINDS_XML.replace(r#"name="chaser""#, r#"name="chaser2""#);
    let err = Kinds::from_xml(&missing).unwrap_err().to_string();
    assert!(err.contains("chaser"), "{err}");
    let range =
        lore_dungeon::kinds::DEFAULT_KINDS_XML.replace(r#"name="count" value="60""#, r#"name="count" value="99999""#);
    let err = Kinds::from_xml(&range).unwrap_err().to_string();
    assert!(err.contains("chaser.count") && err.contains("out of range"), "{err}");
    // A missing parameter keeps its default.
    let lean = lore_dungeon::kinds::DEFAULT_KINDS_XML.replace(r#"<parameter name="fire_interval" value="8"/>"#, "");
    assert_eq!(Kinds::from_xml(&lean).unwrap(), Kinds::shipped());
    let dir = std::env::temp_dir().join(format!("lore-dungeon-kinds-{}", std::process::id()));
    assert!(Kinds::load(&dir.join("absent.xml")).unwrap_err().to_string().contains("absent.xml"));
}
