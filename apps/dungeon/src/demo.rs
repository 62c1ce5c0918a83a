//! The [`Demo`] face of the game: drawing through lore-render, the autopilot switch, the HUD.

use glam::{Vec2, vec2};
use lore_mazegen::{Tile, color_rgb, zone_rgb};
use lore_render::{Batch, Camera, Color, Demo, Input, Key};

use crate::autopilot::Autopilot;
use crate::game::{FrameTimes, Game, LevelStats};
use crate::kinds::Kinds;
use crate::level::LevelConfig;
use crate::sound::{Effect, SAMPLE_RATE, clip_of, effects_mixer};
use lore_bitpack_audio::mix::Mixer;
use std::sync::{Arc, Mutex};

/// Longest recording of the mix kept for `dungeon.wav`: 10 minutes.
pub const MAX_RECORDING_SAMPLES: usize = 10 * 60 * SAMPLE_RATE as usize;

/// The run's mix, shared with whoever writes it out after the run.
pub type Recording = Arc<Mutex<Vec<i16>>>;

/// Rows of world space kept free above the maze for the HUD.
const HUD_ROWS: f32 = 1.6;

/// The dungeon as a demo.
#[derive(Debug)]
pub struct Dungeon {
    config: LevelConfig,
    kinds: Kinds,
    game: Option<Game>,
    error: Option<String>,
    pilot: Autopilot,
    autopilot: bool,
    print_levels: bool,
    printed: usize,
    times: FrameTimes,
    count_allocations: bool,
    level_allocations: u64,
    level_frames: u64,
    allocations_per_frame: f32,
    mixer: Option<Mixer>,
    recording: Option<Recording>,
    block: Vec<i16>,
    sounds: u64,
    audio_ms: f32,
    watch: Option<KindsWatch>,
}

/// A kinds file polled for changes.
#[derive(Debug)]
struct KindsWatch {
    path: std::path::PathBuf,
    seen: Option<(std::time::SystemTime, u64)>,
    error: Option<String>,
}

/// Steps between two looks at the kinds file (half a second).
pub const KINDS_POLL_STEPS: u64 = 30;

impl Dungeon {
    /// A dungeon of levels made from `config` (its seed is replaced by the run's seed at each
    /// reset) with `kinds`; `autopilot` plays it until a person presses an arrow key.
    #[must_use]
    pub fn new(config: LevelConfig, kinds: Kinds, autopilot: bool) -> Self {
        Self {
            config,
            kinds,
            game: None,
            error: None,
            pilot: Autopilot::new(),
            autopilot,
            print_levels: false,
            printed: 0,
            times: FrameTimes::default(),
            count_allocations: false,
            level_allocations: 0,
            level_frames: 0,
            allocations_per_frame: 0.0,
            mixer: None,
            recording: None,
            block: Vec::new(),
            sounds: 0,
            audio_ms: 0.0,
            watch: None,
        }
    }

    /// Reloads the kinds from `path` whenever the file changes (its modification time or length,
    /// looked at every [`KINDS_POLL_STEPS`] steps). A file that does not load leaves the last
    /// good kinds in place and shows the error in the HUD until it is fixed.
    #[must_use]
    pub fn watching_kinds(mut self, path: std::path::PathBuf) -> Self {
        let seen = file_stamp(&path);
        self.watch = Some(KindsWatch { path, seen, error: None });
        self
    }

    /// The last kinds reload error, if the file is broken now.
    #[must_use]
    pub fn kinds_error(&self) -> Option<&str> {
        self.watch.as_ref().and_then(|w| w.error.as_deref())
    }

    fn poll_kinds(&mut self) {
        let Some(watch) = self.watch.as_mut() else { return };
        let stamp = file_stamp(&watch.path);
        if stamp == watch.seen {
            return;
        }
        watch.seen = stamp;
        match Kinds::load(&watch.path) {
            Ok(kinds) => {
                let applied = self.game.as_mut().map_or(Ok(()), |g| g.set_kinds(kinds.clone()));
                match applied {
                    Ok(()) => {
                        self.kinds = kinds;
                        watch.error = None;
                    }
                    Err(e) => watch.error = Some(format!("{e}; last good kinds kept")),
                }
            }
            Err(e) => watch.error = Some(format!("{e}; last good kinds kept")),
        }
    }

    /// Mixes the game's sound effects (decoded from the shipped `.bpk` assets) and appends the
    /// mix to the returned recording (up to [`MAX_RECORDING_SAMPLES`]); the caller writes it
    /// out after the run. Without it the game is silent.
    ///
    /// # Errors
    /// [`crate::sound::SoundError`] when an asset does not decode.
    pub fn recording_sound(&mut self) -> Result<Recording, crate::sound::SoundError> {
        self.mixer = Some(effects_mixer(16)?);
        let rec: Recording = Arc::default();
        self.recording = Some(Arc::clone(&rec));
        Ok(rec)
    }

    /// Counts heap allocations per step with lore-allocators' tracking counters; only
    /// meaningful when the program's global allocator is a `TrackingAlloc` (the binary's is).
    #[must_use]
    pub fn counting_allocations(mut self) -> Self {
        self.count_allocations = true;
        self
    }

    /// Prints one line per finished level to stdout (headless runs).
    #[must_use]
    pub fn printing_levels(mut self) -> Self {
        self.print_levels = true;
        self
    }

    /// The game, once reset.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// One report line for a level's counters.
    #[must_use]
    pub fn level_line(stats: &LevelStats, keys_total: usize, finished: bool) -> String {
        format!(
            "level {} (seed {}): {} {} frames, keys {}/{}, enemies hit {}, bullets fired {}, player hurt {}",
            stats.level + 1,
            stats.seed,
            if finished { "done in" } else { "unfinished after" },
            stats.frames,
            stats.keys,
            keys_total,
            stats.enemies_hit,
            stats.bullets_fired,
            stats.player_hurt,
        )
    }
}

fn file_stamp(path: &std::path::Path) -> Option<(std::time::SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::rgb(r, g, b)
}

fn scaled(c: [u8; 3], f: f32) -> Color {
    let s = |v: u8| (f32::from(v) * f).round().clamp(0.0, 255.0) as u8;
    Color::rgb(s(c[0]), s(c[1]), s(c[2]))
}

impl Demo for Dungeon {
    fn name(&self) -> &'static str {
        "dungeon"
    }

    fn description(&self) -> &'static str {
        "A top-down game made of every lore crate: maze levels, slide moves, a broadphase world, pixel-perfect bullets, reflected kinds; an autopilot plays it."
    }

    fn reset(&mut self, seed: u64) {
        self.config.seed = seed;
        self.pilot = Autopilot::new();
        self.printed = 0;
        self.level_allocations = 0;
        self.level_frames = 0;
        self.sounds = 0;
        if let Some(rec) = &self.recording
            && let Ok(mut rec) = rec.lock()
        {
            rec.clear();
        }
        match Game::new(self.config, self.kinds.clone()) {
            Ok(game) => {
                self.game = Some(game);
                self.error = None;
            }
            Err(e) => {
                self.game = None;
                self.error = Some(e.to_string());
            }
        }
    }

    fn step(&mut self, input: &Input) {
        if self.game.as_ref().is_some_and(|g| g.frame() % KINDS_POLL_STEPS == 0) {
            self.poll_kinds();
        }
        let Some(game) = self.game.as_mut() else { return };
        if input.arrows() != Vec2::ZERO {
            self.autopilot = false;
        }
        if input.key_pressed(Key::Char('p')) {
            self.autopilot = !self.autopilot;
        }
        let own = self.autopilot.then(|| self.pilot.input(game));
        // Only the game's step is counted: the autopilot stands in for a person.
        let before = lore_allocators::tracking::this_thread().allocations;
        let result = game.step(own.as_ref().unwrap_or(input));
        let allocations = lore_allocators::tracking::this_thread().allocations - before;
        if let Err(e) = result {
            self.error = Some(e.to_string());
            self.game = None;
            return;
        }
        let t = std::time::Instant::now();
        if let Some(mixer) = self.mixer.as_mut() {
            for &e in game.events() {
                let gain = match e {
                    Effect::Shot => 0.35,
                    Effect::Hit => 0.6,
                    _ => 1.0,
                };
                let played = mixer.play(clip_of(e), gain);
                debug_assert!(played.is_ok(), "every effect is a clip of the mixer");
                self.sounds += 1;
            }
            // Samples due this step: the 60 Hz steps split the rate exactly over a second.
            let f = game.frame();
            let due = (f * u64::from(SAMPLE_RATE) / 60 - (f - 1) * u64::from(SAMPLE_RATE) / 60) as usize;
            self.block.resize(due, 0);
            mixer.mix(&mut self.block);
            if let Some(rec) = &self.recording
                && let Ok(mut rec) = rec.lock()
            {
                let room = MAX_RECORDING_SAMPLES.saturating_sub(rec.len());
                rec.extend_from_slice(&self.block[..due.min(room)]);
            }
        }
        let audio_ms = t.elapsed().as_secs_f32() * 1e3;
        self.audio_ms += (audio_ms - self.audio_ms) * 0.05;
        // Smoothed over about half a second.
        let t = game.times();
        let mix = |a: f32, b: f32| a + (b - a) * 0.05;
        self.times = FrameTimes {
            level: mix(self.times.level, t.level),
            movement: mix(self.times.movement, t.movement),
            broadphase: mix(self.times.broadphase, t.broadphase),
            pixels: mix(self.times.pixels, t.pixels),
            game: mix(self.times.game, t.game),
        };
        self.level_allocations += allocations;
        self.level_frames += 1;
        self.allocations_per_frame += (allocations as f32 - self.allocations_per_frame) * 0.05;
        if game.finished().len() > self.printed {
            if self.print_levels {
                for done in &game.finished()[self.printed..] {
                    let mut line = Self::level_line(done, usize::from(self.config.zones.saturating_sub(1)), true);
                    if self.count_allocations {
                        let per = self.level_allocations as f64 / self.level_frames.max(1) as f64;
                        line.push_str(&format!(", heap allocations per frame {per:.2}"));
                    }
                    if self.mixer.is_some() {
                        line.push_str(&format!(", sounds played {}", self.sounds));
                    }
                    println!("{line}");
                }
            }
            self.printed = game.finished().len();
            self.level_allocations = 0;
            self.level_frames = 0;
            self.sounds = 0;
        }
    }

    fn camera(&self) -> Camera {
        let (w, h) =
            self.game.as_ref().map_or((33.0, 17.0), |g| (g.level().map.width() as f32, g.level().map.height() as f32));
        Camera::fit(vec2(0.0, 0.0), vec2(w, h + HUD_ROWS), 0.01)
    }

    fn draw(&self, batch: &mut Batch) {
        let Some(game) = &self.game else {
            let msg = self.error.as_deref().unwrap_or("no game");
            batch.screen_text(vec2(16.0, 16.0), format!("dungeon: {msg}"), 18.0, Color::RED);
            return;
        };
        let level = game.level();
        let map = &level.map;
        let (w, h) = (map.width(), map.height());
        // Floors tinted by zone, walls as stone.
        let cells_wide = level.config.width;
        for y in 0..h {
            for x in 0..w {
                let tile = map.tile(x, y).unwrap_or(Tile::Wall);
                let c = map.tile_center((x, y));
                let (lo, hi) = (c - Vec2::splat(0.5), c + Vec2::splat(0.5));
                match tile {
                    Tile::Wall => batch.rect(lo, hi, Color::rgb(74, 82, 104)),
                    Tile::Door(colour) => {
                        let col = color_rgb(colour);
                        if game.holds_key(colour) {
                            batch.rect(lo, hi, scaled(col, 0.18));
                            batch.rect_outline(lo + 0.06, hi - 0.06, 0.05, rgb(col));
                        } else {
                            batch.rect(lo, hi, rgb(col));
                            batch.rect_outline(lo + 0.1, hi - 0.1, 0.06, scaled(col, 0.55));
                        }
                    }
                    _ => {
                        // The zone of the nearest cell (passages take the cell to their left/above).
                        let node = (y.saturating_sub(1) / 2) * cells_wide + x.saturating_sub(1) / 2;
                        let zone = level.solution.zone.get(node as usize).copied().unwrap_or(0);
                        batch.rect(lo, hi, scaled(zone_rgb(zone), 0.16));
                    }
                }
            }
        }
        // The exit.
        let exit = map.tile_center(level.exit);
        batch.rect(exit - 0.45, exit + 0.45, Color::rgb(40, 120, 70));
        batch.rect_outline(exit - 0.4, exit + 0.4, 0.07, Color::GREEN);
        batch.text(exit, "EXIT", 11.0, Color::WHITE);
        // The autopilot's way ahead.
        if self.autopilot {
            let next = self.pilot.next_waypoint().min(level.route.len());
            let ahead: Vec<Vec2> = std::iter::once(game.player())
                .chain(level.route[next..].iter().take(40).map(|&t| map.tile_center(t)))
                .collect();
            batch.polyline(&ahead, false, 0.05, Color::WHITE.with_alpha(70));
        }
        // Keys.
        for key in game.pickups() {
            let col = rgb(color_rgb(key.colour));
            batch.ring(key.pos + vec2(-0.12, 0.0), 0.07, 0.16, col);
            batch.rect(key.pos + vec2(0.0, -0.04), key.pos + vec2(0.3, 0.04), col);
            batch.rect(key.pos + vec2(0.2, -0.14), key.pos + vec2(0.26, 0.0), col);
        }
        // Enemies.
        for e in game.enemies() {
            let r = game.enemy_kind(e).radius;
            let (fill, rim) = if e.chaser {
                if e.sees_player {
                    (Color::rgb(255, 90, 40), Color::YELLOW)
                } else {
                    (Color::rgb(200, 60, 50), Color::rgb(120, 30, 30))
                }
            } else {
                (Color::rgb(160, 90, 210), Color::rgb(90, 50, 130))
            };
            batch.disk(e.pos, r, fill);
            batch.circle(e.pos, r, 0.035, rim);
        }
        // Bullets.
        for b in game.bullets() {
            let r = game.kinds().bullet.radius;
            batch.line(b.pos - b.vel.normalize_or_zero() * 0.25, b.pos, r, Color::CYAN.with_alpha(110));
            batch.disk(b.pos, r, Color::WHITE);
        }
        // The player.
        let p = game.player();
        let r = game.kinds().player.radius;
        let body = if game.player_hurt_recently() { Color::rgb(255, 120, 120) } else { Color::YELLOW };
        batch.disk(p, r, body);
        batch.circle(p, r, 0.05, Color::rgb(90, 70, 10));
        batch.line(p, p + game.facing() * r * 1.4, 0.07, Color::rgb(90, 70, 10));
        // HUD: a line of game state and a line of where the frame's time goes.
        let s = game.stats();
        let keys_total = level.keys.len();
        let held = (0..=255u8).filter(|&c| game.holds_key(c)).count();
        let line = format!(
            "level {}  seed {}  frame {}   keys {}/{}   enemies {}  hit {}   bullets {}   hurt {}   {}",
            s.level + 1,
            s.seed,
            s.frames,
            held,
            keys_total,
            game.enemies().count(),
            s.enemies_hit,
            s.bullets_fired,
            s.player_hurt,
            if self.autopilot {
                "autopilot (arrows take over)"
            } else {
                "arrows move, mouse or space shoots, p: autopilot"
            },
        );
        batch.screen_text(vec2(14.0, 10.0), line, 17.0, Color::WHITE);
        let t = self.times;
        let total = t.level + t.movement + t.broadphase + t.pixels + t.game + self.audio_ms;
        let split = format!(
            "frame {total:.3} ms:  mazegen {:.3}   collide2d {:.3}   broadphase {:.3}   pixel-collide {:.3}   audio mix {:.3}   game {:.3}",
            t.level, t.movement, t.broadphase, t.pixels, self.audio_ms, t.game
        );
        let split = if self.count_allocations {
            format!("{split}   heap allocations/frame {:.1}", self.allocations_per_frame)
        } else {
            split
        };
        batch.screen_text(vec2(14.0, 32.0), split, 15.0, Color::rgb(170, 180, 200));
        if let Some(e) = self.kinds_error() {
            batch.screen_text(vec2(14.0, 52.0), e.to_owned(), 15.0, Color::RED);
        }
        // Key colours held, as swatches after the text.
        for (i, (colour, _)) in level.keys.iter().enumerate() {
            let col = color_rgb(*colour);
            let at = vec2(w as f32 - 0.6 - i as f32 * 0.7, h as f32 + 0.9);
            if game.holds_key(*colour) {
                batch.rect(at - 0.25, at + 0.25, rgb(col));
            } else {
                batch.rect_outline(at - 0.25, at + 0.25, 0.05, rgb(col));
            }
        }
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        ui.checkbox(&mut self.autopilot, "autopilot (p)");
        if let Some(game) = &self.game {
            ui.label(format!("level {} · frame {}", game.stats().level + 1, game.frame()));
            ui.label(format!("enemies {} · bullets {}", game.enemies().count(), game.bullets().count()));
        }
        if let Some(e) = &self.error {
            ui.colored_label(lore_render::egui::Color32::RED, e);
        }
    }

    fn stats(&self) -> String {
        match &self.game {
            Some(game) => {
                let mut line = Self::level_line(&game.stats(), game.level().keys.len(), false);
                if self.count_allocations {
                    let per = self.level_allocations as f64 / self.level_frames.max(1) as f64;
                    line.push_str(&format!(", heap allocations per frame {per:.2}"));
                }
                line
            }
            None => self.error.clone().unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_draws_the_level_its_entities_and_the_hud() {
        let mut d = Dungeon::new(LevelConfig::default(), Kinds::shipped(), true);
        d.reset(2);
        for _ in 0..240 {
            d.step(&Input::default());
        }
        let game = d.game().unwrap();
        assert!(game.player().distance(game.level().map.tile_center(game.level().start)) > 1.0, "the autopilot moved");
        let mut batch = Batch::new(d.camera(), vec2(1280.0, 720.0));
        d.draw(&mut batch);
        let tiles = (game.level().map.width() * game.level().map.height()) as usize;
        // Two triangles per tile at least, and more for every enemy disk.
        assert!(batch.triangle_count() > 2 * tiles + 8 * game.enemies().count());
        let hud: Vec<&str> = batch.labels().iter().map(|l| l.text.as_str()).collect();
        assert!(hud.iter().any(|t| t.starts_with("level 1") && t.contains("enemies")), "{hud:?}");
        assert!(hud.iter().any(|t| t.contains("collide2d") && t.contains("broadphase")), "{hud:?}");
        assert!(d.stats().starts_with("level 1 (seed 2)"), "{}", d.stats());
        // A level that cannot be made shows its error instead of panicking.
        let mut bad = Dungeon::new(LevelConfig { zones: 0, ..LevelConfig::default() }, Kinds::shipped(), true);
        bad.reset(1);
        bad.step(&Input::default());
        assert!(bad.game().is_none() && !bad.stats().is_empty());
        let mut batch = Batch::new(bad.camera(), vec2(1280.0, 720.0));
        bad.draw(&mut batch);
        assert!(batch.labels()[0].text.starts_with("dungeon: level"));
    }

    #[test]
    fn an_edited_kinds_file_is_reloaded_and_a_broken_one_keeps_the_last_good_values() {
        let dir = std::env::temp_dir().join(format!("lore-dungeon-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kinds.xml");
        std::fs::write(&path, crate::kinds::DEFAULT_KINDS_XML).unwrap();
        let mut d = Dungeon::new(LevelConfig::default(), Kinds::shipped(), true).watching_kinds(path.clone());
        d.reset(4);
        let step = |d: &mut Dungeon| {
            for _ in 0..KINDS_POLL_STEPS {
                d.step(&Input::default());
            }
        };
        step(&mut d);
        assert_eq!(d.game().unwrap().kinds(), &Kinds::shipped());
        // Wanderers stop: the edit applies while the game runs.
        let slow = crate::kinds::DEFAULT_KINDS_XML
            .replace(r#"<parameter name="speed" value="1.2"/>"#, r#"<parameter name="speed" value="0"/>"#);
        std::fs::write(&path, &slow).unwrap();
        step(&mut d);
        assert_eq!(d.game().unwrap().kinds().wanderer.speed, 0.0);
        assert_eq!(d.kinds_error(), None);
        // A broken edit: the error shows, the last good values stay.
        std::fs::write(&path, &slow[..slow.len() / 2]).unwrap();
        step(&mut d);
        assert!(
            d.kinds_error().is_some_and(|e| e.contains("kinds") && e.contains("last good")),
            "{:?}",
            d.kinds_error()
        );
        assert_eq!(d.game().unwrap().kinds().wanderer.speed, 0.0);
        // Fixed again: the error goes.
        std::fs::write(&path, crate::kinds::DEFAULT_KINDS_XML).unwrap();
        step(&mut d);
        assert_eq!(d.kinds_error(), None);
        assert_eq!(d.game().unwrap().kinds(), &Kinds::shipped());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
