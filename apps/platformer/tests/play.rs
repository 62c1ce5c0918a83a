//! End-to-end tests: the autopilot plays levels of the default size through the game's input
//! path, with the box and with the capsule; the same inputs give the same state every frame.

mod common;

use common::play_level;
use lore_platformer::game::Game;
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;

/// Frames the autopilot may take for one level of the default size (16 × 8 rooms, 4 zones, 60
/// enemies): 14,000 frames, 3 min 53 s of game time (seeds 1–20 take 5,453–10,457; the 200
/// seeds of `tests/agree.rs` at most 11,437).
const FRAME_BUDGET: u64 = 14_000;

fn finishes(seeds: std::ops::RangeInclusive<u64>, kinds: &Kinds) {
    for seed in seeds {
        let run = play_level(seed, kinds.clone(), FRAME_BUDGET, false);
        let done = run.result.unwrap_or_else(|e| panic!("{e}"));
        println!("seed {seed}: {done:?}");
        assert_eq!(done.keys, 3, "seed {seed}: every key picked up");
        assert!(done.frames <= FRAME_BUDGET);
        assert!(done.jumps > 0 && done.shots_fired > 0 && done.enemies_hit > 0, "seed {seed}: {done:?}");
    }
}

// Twenty seeds of the default size, in four tests so that they run side by side.
#[test]
fn the_autopilot_finishes_seeds_1_to_5() {
    finishes(1..=5, &Kinds::shipped());
}

#[test]
fn the_autopilot_finishes_seeds_6_to_10() {
    finishes(6..=10, &Kinds::shipped());
}

#[test]
fn the_autopilot_finishes_seeds_11_to_15() {
    finishes(11..=15, &Kinds::shipped());
}

#[test]
fn the_autopilot_finishes_seeds_16_to_20() {
    finishes(16..=20, &Kinds::shipped());
}

#[test]
fn the_capsule_finishes_too_and_the_shape_switches_at_run_time() {
    let mut kinds = Kinds::shipped();
    kinds.player.capsule = true;
    finishes(1..=2, &kinds);
    // Switched while playing: the next step moves the other body.
    let mut game = Game::new(LevelConfig { seed: 3, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
    let mut pilot = lore_platformer::autopilot::Autopilot::new();
    for frame in 0..1200 {
        if frame == 300 {
            game.set_capsule(true);
            assert!(game.player().capsule);
        }
        if frame == 900 {
            game.set_capsule(false);
        }
        let input = pilot.input(&game);
        game.step(&input).unwrap();
        assert!(common::depth_in_solids(&game) <= common::SLOP, "frame {frame}");
    }
    assert!(pilot.stuck().is_none());
    assert!(game.player().pos.distance(glam::Vec2::ZERO) > 0.0);
}

#[test]
fn the_same_seed_and_inputs_give_the_same_state_hash_every_frame() {
    // Run A: the autopilot plays, every input kept. Run B: the inputs replayed, no autopilot.
    let a = play_level(7, Kinds::shipped(), 3000, true);
    let mut game = Game::new(LevelConfig { seed: 7, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
    for (i, input) in a.inputs.iter().enumerate() {
        game.step(input).unwrap();
        assert_eq!(game.state_hash(), a.hashes[i], "the replay differs at frame {i}");
    }
    assert_eq!(a.hashes.len(), 3000);
    // The hash sees what moves: another seed, and the same seed with the inputs shifted by a
    // frame, differ.
    let other = play_level(8, Kinds::shipped(), 200, false);
    assert_ne!(a.hashes[150], other.hashes[150]);
    let mut late = Game::new(LevelConfig { seed: 7, ..LevelConfig::default() }, Kinds::shipped()).unwrap();
    late.step(&lore_render::Input::default()).unwrap();
    for input in &a.inputs[..299] {
        late.step(input).unwrap();
    }
    assert_ne!(late.state_hash(), a.hashes[299]);
}

#[test]
fn enemies_of_speed_zero_never_move() {
    let xml = lore_platformer::kinds::DEFAULT_KINDS_XML
        .replace(r#"<parameter name="speed" value="1.5"/>"#, r#"<parameter name="speed" value="0"/>"#)
        .replace(r#"<parameter name="speed" value="1"/>"#, r#"<parameter name="speed" value="0"/>"#)
        .replace(r#"<parameter name="chase_speed" value="3"/>"#, r#"<parameter name="chase_speed" value="0"/>"#);
    let kinds = Kinds::from_xml(&xml).unwrap();
    assert_eq!((kinds.walker.speed, kinds.guard.speed, kinds.guard.chase_speed), (0.0, 0.0, 0.0));
    let mut game = Game::new(LevelConfig { seed: 5, ..LevelConfig::default() }, kinds).unwrap();
    let start: Vec<glam::Vec2> = game.enemies().map(|e| e.pos).collect();
    assert_eq!(start.len(), 60);
    let mut pilot = lore_platformer::autopilot::Autopilot::new();
    for _ in 0..1500 {
        let input = pilot.input(&game);
        game.step(&input).unwrap();
    }
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
    let xml = lore_platformer::kinds::DEFAULT_KINDS_XML;
    let err = Kinds::from_xml(&xml[..200]).unwrap_err().to_string();
    assert!(err.starts_with("kinds:"), "{err}");
    let typo = xml.replace(r#"name="climb_speed" value="4""#, r#"name="climb_speed" value="4.0.1""#);
    let err = Kinds::from_xml(&typo).unwrap_err().to_string();
    assert!(err.contains("line") && err.contains("climb_speed"), "{err}");
    let unknown = xml.replace(r#"name="lifetime""#, r#"name="lifespan""#);
    assert!(Kinds::from_xml(&unknown).unwrap_err().to_string().contains("lifespan"));
    let missing = xml.replace(r#"name="guard""#, r#"name="guard2""#);
    assert!(Kinds::from_xml(&missing).unwrap_err().to_string().contains("guard"));
    let range = xml.replace(r#"name="radius" value="0.4""#, r#"name="radius" value="0.9""#);
    let err = Kinds::from_xml(&range).unwrap_err().to_string();
    assert!(err.contains("guard.radius = 0.9 is out of range (0.1..=0.5)"), "{err}");
    let lean = xml.replace(r#"<parameter name="coyote_frames" value="4"/>"#, "");
    assert_eq!(Kinds::from_xml(&lean).unwrap(), Kinds::shipped());
    let dir = std::env::temp_dir().join(format!("lore-platformer-kinds-{}", std::process::id()));
    assert!(Kinds::load(&dir.join("absent.xml")).unwrap_err().to_string().contains("absent.xml"));
}
