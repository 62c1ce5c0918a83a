//! lore-dungeon's frame, CPU side: one `Game::step` (intents, line-of-sight rays, broadphase
//! update and pairs, slide moves, bullet–enemy pixel tests on the CPU twin, pickups) plus the
//! step's audio mix, with 2,000 enemies (1,000 wanderers, 1,000 chasers) and 500 bullets in a
//! 40 × 20-cell level. Everything but the GPU pass and drawing. No peer: the goal is the 4 ms
//! budget of issue 18, and the table printed after the run says where the time goes (the
//! game's own per-crate split, averaged over the measured steps).
//!
//! Bullets are topped up to 500 before each step (outside the timed part): they die on walls
//! and enemies. The level is rebuilt (outside the timed part) when fewer than 1,800 enemies
//! are left, so every step runs with 1,800 to 2,000 enemies.
//!
//! Run: `cargo bench -p lore-benches --bench dungeon`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lore_bitpack_audio::mix::Mixer;
use lore_dungeon::game::{FrameTimes, Game};
use lore_dungeon::kinds::Kinds;
use lore_dungeon::level::LevelConfig;
use lore_dungeon::sound::{SAMPLE_RATE, clip_of, effects_mixer};
use lore_mazegen::Tile;
use lore_render::Input;
use lore_render::glam::Vec2;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const ENEMIES: u32 = 2_000;
const BULLETS: usize = 500;

struct Scene {
    game: Game,
    floor: Vec<Vec2>,
    rng: Pcg64,
    mixer: Mixer,
    block: Vec<i16>,
    input: Input,
    // The split, summed over measured steps.
    times: FrameTimes,
    audio_ms: f64,
    steps: u64,
    rebuilds: u32,
}

fn game() -> Game {
    let mut kinds = Kinds::shipped();
    kinds.wanderer.count = ENEMIES / 2;
    kinds.chaser.count = ENEMIES / 2;
    // Long-lived bullets, so most of the 500 fly a while before a wall takes them.
    kinds.bullet.lifetime = 600;
    let config = LevelConfig { seed: 1, width: 40, height: 20, ..LevelConfig::default() };
    Game::new(config, kinds).expect("the bench level")
}

impl Scene {
    fn new() -> Self {
        let game = game();
        let map = &game.level().map;
        let floor = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| map.tile(x, y) == Some(Tile::Floor))
            .map(|t| map.tile_center(t))
            .collect();
        Self {
            game,
            floor,
            rng: Pcg64::seed_from_u64(18),
            mixer: effects_mixer(16).expect("the shipped effects"),
            block: vec![0; (SAMPLE_RATE / 60 + 1) as usize],
            input: Input::default(),
            times: FrameTimes::default(),
            audio_ms: 0.0,
            steps: 0,
            rebuilds: 0,
        }
    }

    /// Outside the timed part: back to 500 bullets (and a fresh level when enemies run low).
    fn top_up(&mut self) {
        if self.game.enemies().count() < 1_800 {
            self.game = game();
            self.rebuilds += 1;
        }
        let mut n = self.game.bullets().count();
        while n < BULLETS {
            let pos = self.floor[self.rng.random_range(0..self.floor.len())];
            let dir = Vec2::from_angle(self.rng.random_range(0.0..std::f32::consts::TAU));
            if self.game.spawn_bullet(pos, dir) {
                n += 1;
            }
        }
    }

    /// The timed part: one step and its audio block, as the demo does it.
    fn frame(&mut self) {
        self.game.step(&self.input).expect("a step");
        let t = Instant::now();
        for &e in self.game.events() {
            let _ = self.mixer.play(clip_of(e), 0.5);
        }
        self.mixer.mix(&mut self.block[..(SAMPLE_RATE / 60) as usize]);
        black_box(&self.block);
        self.audio_ms += t.elapsed().as_secs_f64() * 1e3;
        let t = self.game.times();
        self.times.level += t.level;
        self.times.movement += t.movement;
        self.times.broadphase += t.broadphase;
        self.times.pixels += t.pixels;
        self.times.game += t.game;
        self.steps += 1;
    }
}

fn dungeon_frame(c: &mut Criterion) {
    let mut scene = Scene::new();
    // Let the crowd spread out and the lists reach their size.
    for _ in 0..120 {
        scene.top_up();
        scene.frame();
    }
    scene.times = FrameTimes::default();
    scene.audio_ms = 0.0;
    scene.steps = 0;
    let mut g = c.benchmark_group("dungeon");
    g.sample_size(30).measurement_time(Duration::from_secs(8));
    g.bench_function("dungeon_frame/2000_enemies_500_bullets", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                scene.top_up();
                let t = Instant::now();
                scene.frame();
                total += t.elapsed();
            }
            total
        });
    });
    g.finish();
    let n = scene.steps.max(1) as f32;
    let t = scene.times;
    let audio = scene.audio_ms as f32;
    let total = t.level + t.movement + t.broadphase + t.pixels + t.game + audio;
    println!(
        "\ndungeon_frame: where the time goes (mean of {} steps, {} bullets and 1,800 to 2,000 enemies at the start of each; {} level rebuilds)",
        scene.steps, BULLETS, scene.rebuilds
    );
    println!("| part | ms per frame | share |");
    println!("|---|---:|---:|");
    for (name, v) in [
        ("lore-broadphase: index update, pairs, line-of-sight rays", t.broadphase),
        ("lore-collide2d: slide moves, bullets against faces", t.movement),
        ("lore-pixel-collide: bullet–enemy pixel tests (CPU twin)", t.pixels),
        ("game: intents, pair bookkeeping, pickups", t.game),
        ("lore-bitpack-audio: mixing the step's sound", audio),
        ("lore-mazegen: level generation", t.level),
    ] {
        println!("| {name} | {:.3} | {:.0} % |", v / n, 100.0 * v / total.max(1e-9));
    }
    println!("| total (the game's own clocks) | {:.3} | |", total / n);
}

criterion_group!(benches, dungeon_frame);
criterion_main!(benches);
