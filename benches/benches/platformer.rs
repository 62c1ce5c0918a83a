//! lore-platformer's frame, CPU side: one `Game::step` (the character controller's move, enemies
//! patrolling, broadphase update and pairs, shots against the tile faces, shot–enemy pixel tests
//! on the CPU twin, pickups) plus the step's audio mix, with 1,000 enemies (500 walkers, 500
//! guards) and 200 shots in the default 16 × 8-room level. Everything but the GPU pass and
//! drawing. No peer; the table printed after the run says where the time goes (the game's own
//! per-crate split, averaged over the measured steps).
//!
//! Shots are topped up to 200 before each step (outside the timed part), fired from beside a
//! random enemy towards it, so they meet enemies and walls. The level is rebuilt (outside the
//! timed part) when fewer than 900 enemies are left. The player stands still.
//!
//! Run: `cargo bench -p lore-benches --bench platformer`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use lore_bitpack_audio::mix::Mixer;
use lore_platformer::game::{FrameTimes, Game};
use lore_platformer::kinds::Kinds;
use lore_platformer::level::LevelConfig;
use lore_platformer::sound::{SAMPLE_RATE, clip_of, effects_mixer};
use lore_render::Input;
use lore_render::glam::{Vec2, vec2};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const ENEMIES: u32 = 1_000;
const SHOTS: usize = 200;

struct Scene {
    game: Game,
    rng: Pcg64,
    mixer: Mixer,
    block: Vec<i16>,
    input: Input,
    targets: Vec<Vec2>,
    times: FrameTimes,
    audio_ms: f64,
    steps: u64,
    rebuilds: u32,
}

fn game() -> Game {
    let mut kinds = Kinds::shipped();
    kinds.walker.count = ENEMIES / 2;
    kinds.guard.count = ENEMIES / 2;
    kinds.shot.lifetime = 120;
    Game::new(LevelConfig { seed: 1, ..LevelConfig::default() }, kinds).expect("the bench level")
}

impl Scene {
    fn new() -> Self {
        Self {
            game: game(),
            rng: Pcg64::seed_from_u64(30),
            mixer: effects_mixer(16).expect("the shipped effects"),
            block: vec![0; (SAMPLE_RATE / 60 + 1) as usize],
            input: Input::default(),
            targets: Vec::new(),
            times: FrameTimes::default(),
            audio_ms: 0.0,
            steps: 0,
            rebuilds: 0,
        }
    }

    /// Outside the timed part: back to 200 shots (and a fresh level when enemies run low).
    fn top_up(&mut self) {
        if self.game.enemies().count() < 900 {
            self.game = game();
            self.rebuilds += 1;
        }
        self.targets.clear();
        self.targets.extend(self.game.enemies().map(|e| e.pos));
        let mut n = self.game.shots().count();
        while n < SHOTS {
            let target = self.targets[self.rng.random_range(0..self.targets.len())];
            let side = if self.rng.random_range(0..2u32) == 0 { -1.0 } else { 1.0 };
            let from = target + vec2(side * self.rng.random_range(1.0..6.0), 0.0);
            if self.game.spawn_shot(from, vec2(-side, 0.0)) {
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
        self.times.controller += t.controller;
        self.times.broadphase += t.broadphase;
        self.times.pixels += t.pixels;
        self.times.game += t.game;
        self.steps += 1;
    }
}

fn platformer_frame(c: &mut Criterion) {
    let mut scene = Scene::new();
    for _ in 0..120 {
        scene.top_up();
        scene.frame();
    }
    scene.times = FrameTimes::default();
    scene.audio_ms = 0.0;
    scene.steps = 0;
    let mut g = c.benchmark_group("platformer");
    g.sample_size(30).measurement_time(Duration::from_secs(8));
    g.bench_function("platformer_frame/1000_enemies_200_shots", |b| {
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
    let total = t.level + t.controller + t.broadphase + t.pixels + t.game + audio;
    println!(
        "\nplatformer_frame: where the time goes (mean of {} steps, {} shots and 900 to 1,000 enemies at the start of each; {} level rebuilds)",
        scene.steps, SHOTS, scene.rebuilds
    );
    println!("| part | ms per frame | share |");
    println!("|---|---:|---:|");
    for (name, v) in [
        ("lore-broadphase: moving grid update and pairs", t.broadphase),
        ("lore-collide2d: the character controller's move (static tree query included)", t.controller),
        ("lore-pixel-collide: shot–enemy pixel tests (CPU twin)", t.pixels),
        ("game: enemies, shots against faces, pair bookkeeping, pickups", t.game),
        ("lore-bitpack-audio: mixing the step's sound", audio),
        ("lore-mazegen: level generation and route", t.level),
    ] {
        println!("| {name} | {:.3} | {:.0} % |", v / n, 100.0 * v / total.max(1e-9));
    }
    println!("| total (the game's own clocks) | {:.3} | |", total / n);
}

criterion_group!(benches, platformer_frame);
criterion_main!(benches);
