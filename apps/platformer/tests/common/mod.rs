//! What the play tests share: one level played by the autopilot, checked every step.

use lore_mazegen::LevelTile;
use lore_platformer::autopilot::Autopilot;
use lore_platformer::game::{Game, LevelStats};
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;

/// How deep (tiles) the player's box may be inside a solid tile after a step: the controller's
/// tolerance and float rounding, with room to spare.
pub const SLOP: f32 = 2e-3;

/// One level played by the autopilot: its counters when finished, or why not (naming the seed
/// and the tile where the player was stuck), the hash of every step and the inputs given.
pub struct Run {
    pub result: Result<LevelStats, String>,
    pub hashes: Vec<u64>,
    pub inputs: Vec<lore_render::Input>,
    /// The moves that did not end where the route said.
    pub misses: Vec<lore_platformer::autopilot::Miss>,
}

/// How deep the player's body (its box, or its capsule) is in the solid tiles (walls, floors,
/// locked doors and hatches) it overlaps; slopes are left out (their solid half is a triangle).
pub fn depth_in_solids(game: &Game) -> f32 {
    let half = game.player_size() / 2.0;
    let p = game.player().pos;
    let capsule = game.player().capsule;
    let level = game.level();
    let (lo, hi) = (p - half, p + half);
    let mut deepest = 0f32;
    for x in lo.x.floor() as i64..=hi.x.floor() as i64 {
        for wy in lo.y.floor() as i64..=hi.y.floor() as i64 {
            let y = i64::from(level.height()) - 1 - wy;
            let solid = match level.tile(x, y) {
                Some(LevelTile::Solid) => true,
                Some(LevelTile::Door(c) | LevelTile::Hatch(c)) => !game.holds_key(c),
                _ => false,
            };
            if solid {
                let (tlo, thi) = (glam::vec2(x as f32, wy as f32), glam::vec2(x as f32 + 1.0, wy as f32 + 1.0));
                let overlap = (hi.min(thi) - lo.max(tlo)).min_element();
                let depth = if capsule {
                    // The capsule's core segment, radius half the width: its distance to the tile.
                    let (r, core) = (half.x, half.y - half.x);
                    let dx = (tlo.x - p.x).max(p.x - thi.x).max(0.0);
                    let dy = (tlo.y - (p.y + core)).max((p.y - core) - thi.y).max(0.0);
                    if dx == 0.0 && dy == 0.0 { r + overlap } else { r - (dx * dx + dy * dy).sqrt() }
                } else {
                    overlap
                };
                deepest = deepest.max(depth);
            }
        }
    }
    deepest
}

/// Plays level `seed` with the autopilot for at most `budget` frames, checking every step that
/// the player's body is in no solid tile deeper than [`SLOP`].
pub fn play_level(seed: u64, kinds: Kinds, budget: u64, keep_inputs: bool) -> Run {
    let mut game = Game::new(LevelConfig { seed, ..LevelConfig::default() }, kinds).unwrap();
    let mut pilot = Autopilot::new();
    let mut run = Run { result: Err(String::new()), hashes: Vec::new(), inputs: Vec::new(), misses: Vec::new() };
    for _ in 0..budget {
        let input = pilot.input(&game);
        game.step(&input).unwrap();
        run.hashes.push(game.state_hash());
        if keep_inputs {
            run.inputs.push(input);
        }
        if let Some(done) = game.finished().first() {
            run.result = Ok(*done);
            run.misses = pilot.misses().to_vec();
            return run;
        }
        let depth = depth_in_solids(&game);
        assert!(
            depth <= SLOP,
            "seed {seed}, frame {}: the player at {} is {depth} deep in a solid tile",
            game.frame(),
            game.player().pos
        );
        if let Some(why) = pilot.stuck() {
            run.misses = pilot.misses().to_vec();
            run.result = Err(format!("seed {seed}: the autopilot gave up after {} frames: {why}", game.frame()));
            return run;
        }
    }
    run.misses = pilot.misses().to_vec();
    let tile = game.level().tile_of(game.player().pos);
    run.result = Err(format!(
        "seed {seed}: not finished in {budget} frames; the player is at tile {tile:?} on leg {} of the route",
        pilot.leg()
    ));
    run
}
