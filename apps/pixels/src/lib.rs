//! `pixels`: the lore-pixel-collide demo. A player ship and its bullets fly through drifting,
//! spinning asteroids (with holes) and strafing enemy ships. Every step, one GPU batch answers a
//! group query per player object ("does it touch any enemy?") and a pair query per candidate
//! enemy (which one?), and the CPU twin answers the same queries; the HUD counts agreement and
//! times both. Touching objects flash red and their shared pixels light up yellow.
//!
//! Headless, the autopilot weaves the ship through the field and fires upwards, so the picture
//! after 120 steps shows hits.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use lore_render::time::Instant; // std's panics in a browser

use lore_pixel_collide::shapes::outlines;
use lore_pixel_collide::{GpuCollider, Mask, PixelRect, Pose, QueryBatch, Sprite};
use lore_render::demo::Demo;
use lore_render::glam::{Vec2, vec2};
use lore_render::gpu::Gpu;
use lore_render::{Batch, Camera, Color, Input, Key, Texture};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

/// Collision space: one collision pixel per screen pixel of a 1280×720 frame.
pub const WIDTH: f32 = 1280.0;
/// Height of the playfield in collision pixels.
pub const HEIGHT: f32 = 720.0;
/// The color shared pixels are drawn in.
pub const SPARK: Color = Color::rgb(255, 240, 0);
/// The outline color of an object that touched something in the last frames.
pub const OUTLINE: Color = Color::rgb(255, 150, 40);
/// The tint of an object that touched something in the last frames.
pub const HIT_TINT: Color = Color::rgb(255, 70, 70);

const SHIP: usize = 0;
const BULLET: usize = 1;
const SAUCER: usize = 2;
const ROCKS: usize = 3;

/// The demo's art and collision sprites (the same pixels).
struct Art {
    sprites: Vec<Sprite>,
    textures: Vec<Texture>,
    /// Each sprite's outline loops (`shapes::outlines`), in texel units, y-up.
    outlines: Vec<Vec<Vec<Vec2>>>,
}

fn make_art(seed: u64) -> Art {
    let mut rng = Pcg32::seed_from_u64(seed ^ 0x5eed);
    let mut images: Vec<(u32, u32, Vec<u8>)> = Vec::new();
    let paint = |w: u32, h: u32, f: &mut dyn FnMut(f32, f32) -> Option<[u8; 4]>| {
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                let p = vec2((x as f32 + 0.5) / w as f32 * 2.0 - 1.0, (y as f32 + 0.5) / h as f32 * 2.0 - 1.0);
                rgba.extend(f(p.x, p.y).unwrap_or([0, 0, 0, 0]));
            }
        }
        (w, h, rgba)
    };
    // Ship: an arrow pointing up with a notch at the back.
    images.push(paint(26, 30, &mut |x, y| {
        let body = x.abs() < (y + 1.0) * 0.5 && y < 0.9 && !(x.abs() < 0.25 && y > 0.55);
        body.then_some(if x.abs() < 0.12 && y > -0.4 && y < 0.2 { [120, 220, 255, 255] } else { [90, 200, 120, 255] })
    }));
    // Bullet.
    images.push(paint(4, 10, &mut |_, _| Some([180, 255, 200, 255])));
    // Saucer: a dome on a disk, with a soft (below threshold) glow around it.
    images.push(paint(30, 18, &mut |x, y| {
        let disk = x * x + (y * 2.2 - 0.6).powi(2) * 0.35 < 0.9;
        let dome = x * x * 3.0 + (y + 0.2).powi(2) * 1.8 < 0.6 && y < 0.25;
        if dome {
            Some([200, 120, 255, 255])
        } else if disk {
            Some([170, 90, 200, 255])
        } else if x * x + y * y < 1.0 {
            Some([170, 90, 200, 60])
        } else {
            None
        }
    }));
    // Rocks: wobbly disks with craters that go all the way through.
    for (i, side) in [64u32, 48, 36, 28].into_iter().enumerate() {
        let k = 3.0 + i as f32;
        let ph: f32 = rng.random_range(0.0..std::f32::consts::TAU);
        let amp: f32 = rng.random_range(0.08..0.2);
        let holes: Vec<(Vec2, f32)> = (0..3)
            .map(|_| (vec2(rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5)), rng.random_range(0.08..0.22)))
            .collect();
        images.push(paint(side, side, &mut |x, y| {
            let p = vec2(x, y);
            let r = 0.82 + amp * (k * p.y.atan2(p.x) + ph).sin() + 0.05 * (2.0 * k * p.x).sin();
            let hole = holes.iter().any(|&(c, hr)| (p - c).length() < hr);
            (p.length() < r && !hole).then(|| {
                let shade = (150.0 - 50.0 * p.y + 20.0 * (9.0 * p.x).sin()) as u8;
                [shade, (f32::from(shade) * 0.92) as u8, (f32::from(shade) * 0.82) as u8, 255]
            })
        }));
    }
    let sprites: Vec<Sprite> =
        images.iter().map(|(w, h, rgba)| Sprite::from_rgba(*w, *h, rgba, 128).expect("valid art")).collect();
    let textures = images.into_iter().map(|(w, h, rgba)| Texture::from_rgba(w, h, rgba).expect("valid art")).collect();
    let loops = sprites.iter().map(|s| outlines(&Mask::from_sprite(s, 0, 0))).collect();
    Art { sprites, textures, outlines: loops }
}

/// A moving object.
#[derive(Clone, Copy, Debug)]
struct Body {
    art: usize,
    pos: Vec2,
    vel: Vec2,
    rot: f32,
    spin: f32,
    scale: f32,
    /// Steps left of the red flash.
    flash: u32,
    /// A bullet that hit something disappears next step.
    spent: bool,
}

impl Body {
    fn pose(&self) -> Pose {
        Pose { position: self.pos, rotation: self.rot, scale: Vec2::splat(self.scale) }
    }
}

/// Counters shown in the HUD and the side panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    /// Queries answered by both engines.
    pub queries: u64,
    /// Of those, how many got the same answer.
    pub agreed: u64,
    /// Group queries in the last step.
    pub group_queries: usize,
    /// Pair queries in the last step.
    pub pair_queries: usize,
    /// Hits (pairs touching) in the last step.
    pub hits: usize,
    /// GPU batch time of the last step (record, submit, read back), milliseconds.
    pub gpu_ms: f32,
    /// CPU twin time of the last step (rasterize + test), milliseconds.
    pub cpu_ms: f32,
}

/// The demo's state.
pub struct PixelsDemo {
    art: Art,
    gpu: Option<(Gpu, GpuCollider)>,
    gpu_error: Option<String>,
    batch: QueryBatch,
    rng: Pcg32,
    time: f32,
    player: Body,
    bullets: Vec<Body>,
    enemies: Vec<Body>,
    /// Recently shared pixels and the steps they have left on screen.
    sparks: Vec<(Mask, u32)>,
    counters: Counters,
    autopilot: bool,
}

impl std::fmt::Debug for PixelsDemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PixelsDemo").field("time", &self.time).field("counters", &self.counters).finish_non_exhaustive()
    }
}

impl Default for PixelsDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl PixelsDemo {
    /// A demo on its own device (found like `Gpu::headless`); without one it runs the CPU twin
    /// only and says so.
    pub fn new() -> Self {
        let (gpu, gpu_error) = match Gpu::headless() {
            Ok(g) => {
                let c = GpuCollider::new(&g.device);
                (Some((g, c)), None)
            }
            Err(e) => (None, Some(e.to_string())),
        };
        let mut demo = Self {
            art: make_art(1),
            gpu,
            gpu_error,
            batch: QueryBatch::new(),
            rng: Pcg32::seed_from_u64(1),
            time: 0.0,
            player: Body {
                art: SHIP,
                pos: Vec2::ZERO,
                vel: Vec2::ZERO,
                rot: 0.0,
                spin: 0.0,
                scale: 1.5,
                flash: 0,
                spent: false,
            },
            bullets: Vec::new(),
            enemies: Vec::new(),
            sparks: Vec::new(),
            counters: Counters::default(),
            autopilot: true,
        };
        demo.reset(1);
        demo
    }

    /// The counters after the last step.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Whether the GPU path runs (false: CPU twin only).
    pub fn has_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// Enemies flashing red (touched in the last frames).
    pub fn flashing(&self) -> usize {
        self.enemies.iter().filter(|e| e.flash > 0).count() + usize::from(self.player.flash > 0)
    }

    fn spawn_rock(&mut self, anywhere: bool) -> Body {
        let r = &mut self.rng;
        let art = ROCKS + r.random_range(0..4usize);
        let pos = if anywhere {
            vec2(r.random_range(0.0..WIDTH), r.random_range(0.0..HEIGHT * 0.75))
        } else {
            vec2(r.random_range(0.0..WIDTH), -60.0)
        };
        Body {
            art,
            pos,
            vel: vec2(r.random_range(-0.8..0.8), r.random_range(0.4..1.4)),
            rot: r.random_range(0.0..std::f32::consts::TAU),
            spin: r.random_range(-0.03..0.03),
            scale: r.random_range(1.0..2.2),
            flash: 0,
            spent: false,
        }
    }

    fn step_bodies(&mut self, input: &Input) {
        let t = self.time;
        // The player: autopilot weaves through the field; arrows take over in a window.
        let steer = input.arrows();
        if steer != Vec2::ZERO {
            self.autopilot = false;
        }
        if self.autopilot {
            self.player.pos =
                vec2(WIDTH * 0.5 + WIDTH * 0.36 * (t * 0.45).sin(), HEIGHT * 0.62 + 80.0 * (t * 1.3).sin());
            self.player.rot = 0.35 * (t * 0.45).cos();
        } else {
            self.player.pos += vec2(steer.x, -steer.y) * 6.0;
            self.player.pos = self.player.pos.clamp(Vec2::ZERO, vec2(WIDTH, HEIGHT));
        }
        let firing = self.autopilot || input.key_down(Key::Space);
        let step = (t * 60.0).round() as u32;
        if firing && step.is_multiple_of(6) {
            let dir = Vec2::from_angle(self.player.rot - std::f32::consts::FRAC_PI_2);
            self.bullets.push(Body {
                art: BULLET,
                pos: self.player.pos + dir * 26.0,
                vel: dir * 11.0,
                rot: self.player.rot,
                spin: 0.0,
                scale: 1.0,
                flash: 0,
                spent: false,
            });
        }
        self.bullets.retain(|b| {
            !b.spent && b.pos.y > -20.0 && b.pos.y < HEIGHT + 20.0 && b.pos.x > -20.0 && b.pos.x < WIDTH + 20.0
        });
        for b in &mut self.bullets {
            b.pos += b.vel;
        }
        for i in 0..self.enemies.len() {
            let e = &mut self.enemies[i];
            if e.art == SAUCER {
                e.pos.x += e.vel.x;
                if e.pos.x < 40.0 || e.pos.x > WIDTH - 40.0 {
                    e.vel.x = -e.vel.x;
                }
                e.pos.y += 0.6 * (t * 2.0 + i as f32).sin();
            } else {
                e.pos += e.vel;
                e.rot += e.spin;
                if e.pos.y > HEIGHT + 80.0 || e.pos.x < -80.0 || e.pos.x > WIDTH + 80.0 {
                    self.enemies[i] = self.spawn_rock(false);
                }
            }
        }
        for b in self.enemies.iter_mut().chain(std::iter::once(&mut self.player)).chain(self.bullets.iter_mut()) {
            b.flash = b.flash.saturating_sub(1);
        }
        self.sparks.retain_mut(|(_, left)| {
            *left -= 1;
            *left > 0
        });
    }

    /// Runs this step's queries on the GPU and the CPU twin, compares, and applies the hits.
    fn collide(&mut self) {
        let sprites = &self.art.sprites;
        let mut players: Vec<Body> = vec![self.player];
        players.extend(self.bullets.iter().copied());
        // CPU twin.
        let t0 = Instant::now();
        let enemy_masks: Vec<Mask> = self
            .enemies
            .iter()
            .map(|e| Mask::rasterize(&sprites[e.art], e.pose()).expect("poses stay in range"))
            .collect();
        let player_masks: Vec<Mask> =
            players.iter().map(|p| Mask::rasterize(&sprites[p.art], p.pose()).expect("poses stay in range")).collect();
        let mut cpu_group = Vec::with_capacity(players.len());
        let mut candidates = Vec::new();
        for (i, pm) in player_masks.iter().enumerate() {
            let mut any = false;
            for (j, em) in enemy_masks.iter().enumerate() {
                if !pm.bounds().intersection(&em.bounds()).is_empty() {
                    let hit = pm.overlaps(em);
                    any |= hit;
                    candidates.push((i, j, hit));
                }
            }
            cpu_group.push(any);
        }
        let cpu_ms = t0.elapsed().as_secs_f32() * 1000.0;
        // GPU: same queries in one batch.
        let mut gpu_answers: Option<(Vec<bool>, Vec<bool>)> = None;
        let mut gpu_ms = 0.0;
        if let Some((gpu, collider)) = &self.gpu {
            let t1 = Instant::now();
            let b = &mut self.batch;
            b.clear_objects();
            let eo: Vec<_> = self
                .enemies
                .iter()
                .map(|e| b.add_object(lore_pixel_collide::Id(e.art), e.pose()).expect("art ids and poses are valid"))
                .collect();
            let po: Vec<_> = players
                .iter()
                .map(|p| b.add_object(lore_pixel_collide::Id(p.art), p.pose()).expect("art ids and poses are valid"))
                .collect();
            let group = b.add_group(&eo).expect("enemy ids are valid");
            let gq: Vec<_> = po.iter().map(|&p| b.group(p, group).expect("ids are valid")).collect();
            let pq: Vec<_> = candidates.iter().map(|&(i, j, _)| b.pair(po[i], eo[j]).expect("ids are valid")).collect();
            match collider.run(&gpu.device, &gpu.queue, b) {
                Ok(r) => {
                    gpu_answers =
                        Some((gq.iter().map(|&q| r.overlaps(q)).collect(), pq.iter().map(|&q| r.overlaps(q)).collect()))
                }
                Err(e) => self.gpu_error = Some(e.to_string()),
            }
            gpu_ms = t1.elapsed().as_secs_f32() * 1000.0;
        }
        let c = &mut self.counters;
        c.group_queries = players.len();
        c.pair_queries = candidates.len();
        c.cpu_ms = cpu_ms;
        c.gpu_ms = gpu_ms;
        if let Some((groups, pairs)) = &gpu_answers {
            c.queries += (groups.len() + pairs.len()) as u64;
            c.agreed += groups.iter().zip(&cpu_group).filter(|(a, b)| a == b).count() as u64;
            c.agreed += pairs.iter().zip(&candidates).filter(|(a, b)| **a == b.2).count() as u64;
        }
        // Apply the hits (the GPU's answers when there is a GPU, else the CPU's).
        let mut hits = 0;
        for (k, &(i, j, cpu_hit)) in candidates.iter().enumerate() {
            let hit = gpu_answers.as_ref().map_or(cpu_hit, |(_, pairs)| pairs[k]);
            if !hit {
                continue;
            }
            hits += 1;
            self.enemies[j].flash = 14;
            if i == 0 {
                self.player.flash = 14;
            } else {
                self.bullets[i - 1].spent = true;
            }
            self.sparks.push((player_masks[i].intersection(&enemy_masks[j]), 24));
        }
        self.counters.hits = hits;
    }
}

/// The demo, boxed for the runner.
pub fn demo() -> Box<dyn Demo> {
    Box::new(PixelsDemo::new())
}

fn to_world(p: Vec2) -> Vec2 {
    vec2(p.x, -p.y)
}

impl Demo for PixelsDemo {
    fn name(&self) -> &'static str {
        "pixels"
    }

    fn description(&self) -> &'static str {
        "Pixel-perfect collisions on the GPU (one instanced draw per batch), checked against the CPU twin"
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[("arrow keys or WASD", "fly the ship (ends the autopilot)"), ("Space", "fire")]
    }

    fn reset(&mut self, seed: u64) {
        self.art = make_art(seed);
        self.batch = QueryBatch::new();
        for s in &self.art.sprites {
            self.batch.add_sprite(s);
        }
        self.rng = Pcg32::seed_from_u64(seed);
        self.time = 0.0;
        self.bullets.clear();
        self.sparks.clear();
        self.counters = Counters::default();
        self.autopilot = true;
        self.player = Body {
            art: SHIP,
            pos: vec2(WIDTH / 2.0, HEIGHT * 0.7),
            vel: Vec2::ZERO,
            rot: 0.0,
            spin: 0.0,
            scale: 1.5,
            flash: 0,
            spent: false,
        };
        self.enemies = (0..16).map(|_| self.spawn_rock(true)).collect();
        for i in 0..4 {
            let x = 150.0 + 300.0 * i as f32;
            self.enemies.push(Body {
                art: SAUCER,
                pos: vec2(x, 70.0 + 45.0 * i as f32),
                vel: vec2(if i % 2 == 0 { 2.0 } else { -2.5 }, 0.0),
                rot: 0.0,
                spin: 0.0,
                scale: 1.6,
                flash: 0,
                spent: false,
            });
        }
    }

    fn step(&mut self, input: &Input) {
        self.time += lore_render::demo::DT;
        self.step_bodies(input);
        self.collide();
    }

    fn camera(&self) -> Camera {
        Camera::fit(vec2(0.0, -HEIGHT), vec2(WIDTH, 0.0), 0.0)
    }

    fn draw(&self, batch: &mut Batch) {
        batch.rect(vec2(0.0, -HEIGHT), vec2(WIDTH, 0.0), Color::rgb(12, 14, 24));
        let mut sprite = |b: &Body| {
            let s = &self.art.sprites[b.art];
            let size = vec2(s.width() as f32, s.height() as f32) * b.scale;
            let tint = if b.flash > 0 { HIT_TINT } else { Color::WHITE };
            batch.sprite(&self.art.textures[b.art], to_world(b.pos), size, -b.rot, tint);
        };
        for e in &self.enemies {
            sprite(e);
        }
        for b in &self.bullets {
            sprite(b);
        }
        sprite(&self.player);
        // Outlines of the touched objects: the sprite's outline loops (bitmap to shapes), posed
        // like the sprite.
        for b in self.enemies.iter().chain(std::iter::once(&self.player)).filter(|b| b.flash > 0) {
            let s = &self.art.sprites[b.art];
            let half = vec2(s.width() as f32, s.height() as f32) / 2.0;
            let rot = Vec2::from_angle(b.rot);
            for lp in &self.art.outlines[b.art] {
                // Loop points are y-up texel corners: texel space is (x, -y).
                let pts: Vec<Vec2> =
                    lp.iter().map(|p| to_world(b.pos + rot.rotate((vec2(p.x, -p.y) - half) * b.scale))).collect();
                batch.polygon_outline(&pts, 1.5, OUTLINE);
            }
        }
        // Shared pixels, one square each.
        for (mask, _) in &self.sparks {
            let r: PixelRect = mask.bounds();
            for y in r.y0..r.y1 {
                for x in r.x0..r.x1 {
                    if mask.get(x, y) {
                        batch.rect(vec2(x as f32, -(y as f32) - 1.0), vec2(x as f32 + 1.0, -(y as f32)), SPARK);
                    }
                }
            }
        }
        let c = &self.counters;
        let engine = if self.gpu.is_some() { "GPU batch vs CPU twin" } else { "CPU twin only (no GPU adapter)" };
        batch.screen_text(vec2(12.0, 14.0), engine, 18.0, Color::WHITE);
        batch.screen_text(
            vec2(12.0, 38.0),
            format!(
                "agree {}/{}  ·  {} group + {} pair queries  ·  {} hits",
                c.agreed, c.queries, c.group_queries, c.pair_queries, c.hits
            ),
            16.0,
            Color::rgb(200, 220, 255),
        );
        batch.screen_text(
            vec2(12.0, 60.0),
            format!("GPU batch {:.2} ms  ·  CPU twin {:.2} ms", c.gpu_ms, c.cpu_ms),
            16.0,
            Color::rgb(200, 220, 255),
        );
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        let c = self.counters;
        ui.label(format!("GPU vs CPU agreement: {}/{}", c.agreed, c.queries));
        ui.label(format!("queries this frame: {} group, {} pair", c.group_queries, c.pair_queries));
        ui.label(format!("GPU batch: {:.2} ms, CPU twin: {:.2} ms", c.gpu_ms, c.cpu_ms));
        if let Some(e) = &self.gpu_error {
            ui.label(format!("GPU: {e}"));
        }
        ui.checkbox(&mut self.autopilot, "autopilot (arrows steer, space fires)");
    }

    fn stats(&self) -> String {
        let c = &self.counters;
        format!("agree {}/{} · {} hits · gpu {:.2} ms · cpu {:.2} ms", c.agreed, c.queries, c.hits, c.gpu_ms, c.cpu_ms)
    }
}
