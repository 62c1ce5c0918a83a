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
use lore_reflect::Reflect;
use lore_reflect_egui::{Changes, Edit, EditError, Inspector};
use std::sync::{Arc, Mutex};

/// Longest recording of the mix kept for `dungeon.wav`: 10 minutes.
pub const MAX_RECORDING_SAMPLES: usize = 10 * 60 * SAMPLE_RATE as usize;

/// The run's mix, shared with whoever writes it out after the run.
pub type Recording = Arc<Mutex<Vec<i16>>>;

/// Writes a run's mix (see [`Dungeon::recording_sound`]) as a 16-bit mono WAV at `path`,
/// atomically (a temporary file renamed over the target), and prints one line saying so.
///
/// # Errors
/// A message naming the path when the recording was poisoned, does not encode or the file
/// cannot be written.
pub fn write_recording(path: &std::path::Path, rec: &Recording) -> Result<(), String> {
    let samples = rec.lock().map_err(|_| "the recording was poisoned".to_owned())?.clone();
    let audio = lore_bitpack_audio::Audio { sample_rate: SAMPLE_RATE, channels: 1, bits: 16, samples };
    let bytes = lore_bitpack_audio::wav::write(&audio).map_err(|e| format!("{}: {e}", path.display()))?;
    lore_render::file::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    println!("wrote {} ({:.1} s of sound)", path.display(), audio.samples.len() as f64 / f64::from(audio.sample_rate));
    Ok(())
}

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
    /// The GPU for pixel tests, between two games (a game holds it while it runs).
    gpu: Option<crate::game::GpuPixels>,
    /// The audio output the mix plays through, in a window.
    #[cfg(feature = "audio")]
    live: Option<crate::audio::LiveAudio>,
    /// The kinds inspector is open in the window's side panel (key I toggles it).
    inspector_open: bool,
    /// Why the last inspector edit was refused, while it stands.
    inspector_error: Option<String>,
}

/// How the inspector reaches one thing of the kinds document.
type ThingOf = fn(&mut Kinds) -> &mut dyn Reflect;

/// The things of the kinds document, by name, in the inspector's order.
const THINGS: [(&str, ThingOf); 5] = [
    ("player", |k| &mut k.player),
    ("wanderer", |k| &mut k.wanderer),
    ("chaser", |k| &mut k.chaser),
    ("bullet", |k| &mut k.bullet),
    ("key", |k| &mut k.key),
];

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
            gpu: None,
            #[cfg(feature = "audio")]
            live: None,
            inspector_open: true,
            inspector_error: None,
        }
    }

    /// Opens or closes the kinds inspector in the window's side panel (open by default; key I
    /// toggles it).
    #[must_use]
    pub fn with_inspector(mut self, open: bool) -> Self {
        self.inspector_open = open;
        self
    }

    /// Whether the kinds inspector is open.
    #[must_use]
    pub fn inspector_open(&self) -> bool {
        self.inspector_open
    }

    /// The kinds the game runs with (the file's, or the inspector's edits of them).
    #[must_use]
    pub fn kinds(&self) -> &Kinds {
        &self.kinds
    }

    /// Applies inspector edits to the thing named `thing` (`player`, `wanderer`, `chaser`,
    /// `bullet`, `key`) of the live kinds, all or nothing: the edited kinds must pass
    /// [`Kinds::validate`] and the running game must take them, or nothing changes. Radii and
    /// speeds apply at once; enemy counts from the next level.
    ///
    /// # Errors
    /// The refused edit (a path that does not exist, a value out of the game's range), with
    /// the kinds left as they were.
    pub fn edit_kinds(&mut self, thing: &str, edits: &[Edit]) -> Result<Changes, EditError> {
        let Some(&(_, thing_of)) = THINGS.iter().find(|(name, _)| *name == thing) else {
            let path = edits.first().map_or_else(String::new, |e| e.path().to_owned());
            return Err(EditError::Refused { path, reason: format!("the kinds have no thing named {thing:?}") });
        };
        let mut kinds = self.kinds.clone();
        let changes = lore_reflect_egui::edit::apply(thing_of(&mut kinds), edits)?;
        let Some(first) = changes.paths().first() else { return Ok(changes) };
        let refused = |reason: String| EditError::Refused { path: first.clone(), reason };
        kinds.validate().map_err(|e| refused(e.to_string()))?;
        if let Some(game) = self.game.as_mut() {
            game.set_kinds(kinds.clone()).map_err(|e| refused(e.to_string()))?;
        }
        self.kinds = kinds;
        Ok(changes)
    }

    /// The inspector of the live kinds: one block per thing of the kinds document, its fields
    /// laid out from reflection, edits applied through [`Dungeon::edit_kinds`].
    fn kinds_inspector(&mut self, ui: &mut lore_render::egui::Ui) {
        use lore_render::egui;
        ui.label(
            egui::RichText::new(
                "Live values from assets/kinds.xml; an edit applies to the running game (the file is not rewritten).",
            )
            .small()
            .weak(),
        );
        let registry = Kinds::registry();
        let mut refused = None;
        for (name, thing_of) in THINGS {
            let mut shown = self.kinds.clone();
            let value = thing_of(&mut shown);
            let kind = value.type_info().name;
            let docs = registry.kind(kind).map_or("", |k| k.info().docs);
            let inspector = Inspector::new(("dungeon kinds", name));
            let mut edits = Vec::new();
            let header = egui::CollapsingHeader::new(format!("{name}  ({kind})"))
                .id_salt(("dungeon kinds", name))
                .default_open(name != "key")
                .show(ui, |ui| edits = inspector.edits(ui, value));
            if !docs.is_empty() {
                header.header_response.on_hover_text(docs);
            }
            if !edits.is_empty() {
                let result = self.edit_kinds(name, &edits);
                inspector.report(ui.ctx(), &edits, &result);
                if let Err(e) = result {
                    refused = Some(format!("{name}: {e}"));
                } else {
                    self.inspector_error = None;
                }
            }
        }
        if refused.is_some() {
            self.inspector_error = refused;
        }
        if let Some(e) = &self.inspector_error {
            ui.colored_label(ui.visuals().error_fg_color, format!("refused, values kept: {e}"));
        }
    }

    /// Plays the game's sound effects through the default audio output (feature `audio`).
    /// Without an output device it prints one warning line and the game goes on silent.
    ///
    /// # Errors
    /// [`crate::sound::SoundError`] when a shipped effect does not decode.
    #[cfg(feature = "audio")]
    pub fn playing_sound(mut self) -> Result<Self, crate::sound::SoundError> {
        if self.mixer.is_none() {
            self.mixer = Some(effects_mixer(16)?);
        }
        match crate::audio::LiveAudio::open() {
            Ok(live) => self.live = Some(live),
            Err(e) => eprintln!("lore-dungeon: warning: {e}; the game goes on without sound"),
        }
        Ok(self)
    }

    /// Decides bullet–enemy pairs on `gpu` (one lore-pixel-collide batch per step), with the
    /// CPU twin checking every answer; the HUD and the level lines show the agreement.
    #[must_use]
    pub fn with_gpu_pixels(mut self, gpu: crate::game::GpuPixels) -> Self {
        self.gpu = Some(gpu);
        self
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
            "level {} (seed {}): {} {} frames, keys {}/{}, enemies hit {}, bullets fired {}, player hurt {}, {}",
            stats.level + 1,
            stats.seed,
            if finished { "done in" } else { "unfinished after" },
            stats.frames,
            stats.keys,
            keys_total,
            stats.enemies_hit,
            stats.bullets_fired,
            stats.player_hurt,
            pixel_line(stats),
        )
    }
}

/// The pixel tests' line: the GPU's agreement with the CPU twin, or the twin alone.
fn pixel_line(stats: &LevelStats) -> String {
    if stats.gpu_pairs > 0 {
        format!("gpu {}/{} agree", stats.gpu_agree, stats.gpu_pairs)
    } else {
        format!("pixel pairs {} (cpu twin)", stats.pixel_pairs)
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

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("arrows or WASD", "move (ends the autopilot)"),
            ("Space or mouse", "shoot"),
            ("P", "autopilot on or off"),
            ("I", "show or hide the kinds inspector (side panel)"),
        ]
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
        if let Some(gpu) = self.game.as_mut().and_then(Game::take_gpu) {
            self.gpu = Some(gpu);
        }
        match Game::new(self.config, self.kinds.clone()) {
            Ok(mut game) => {
                if let Some(gpu) = self.gpu.take() {
                    game.use_gpu(gpu);
                }
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
        if input.key_pressed(Key::Char('i')) {
            self.inspector_open = !self.inspector_open;
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
        let t = lore_render::time::Instant::now();
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
            #[cfg(feature = "audio")]
            if let Some(live) = &self.live {
                live.push(&self.block);
            }
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
        let split = if s.gpu_pairs > 0 || game.has_gpu() {
            format!("{split}   gpu {}/{} agree", s.gpu_agree, s.gpu_pairs)
        } else {
            format!("{split}   cpu twin: {} pairs", s.pixel_pairs)
        };
        batch.screen_text(vec2(14.0, 32.0), split, 15.0, Color::rgb(170, 180, 200));
        if let Some(e) = self.kinds_error() {
            batch.screen_text(vec2(14.0, 52.0), e.to_owned(), 15.0, Color::RED);
        } else if let Some(e) = game.gpu_error() {
            batch.screen_text(vec2(14.0, 52.0), format!("gpu pixel path: {e}; the cpu twin decides"), 15.0, Color::RED);
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
        ui.separator();
        let header = lore_render::egui::CollapsingHeader::new("kinds inspector (i)")
            .id_salt("dungeon kinds inspector")
            .open(Some(self.inspector_open))
            .show(ui, |ui| self.kinds_inspector(ui));
        if header.header_response.clicked() {
            self.inspector_open = !self.inspector_open;
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
    fn an_inspector_edit_applies_to_the_running_game_and_a_bad_one_is_refused_whole() {
        let mut d = Dungeon::new(LevelConfig::default(), Kinds::shipped(), false);
        d.reset(5);
        d.step(&Input::default());
        let wanderers =
            |d: &Dungeon| -> Vec<Vec2> { d.game().unwrap().enemies().filter(|e| !e.chaser).map(|e| e.pos).collect() };
        // Wanderers stop: the edit reaches the running game, not only the next level.
        let changes = d.edit_kinds("wanderer", &[Edit::Number { path: "speed".into(), value: 0.0 }]).unwrap();
        assert_eq!(changes.paths(), ["speed"]);
        assert_eq!(d.game().unwrap().kinds().wanderer.speed, 0.0);
        assert_eq!(d.kinds().wanderer.speed, 0.0);
        let before = wanderers(&d);
        assert!(!before.is_empty());
        for _ in 0..60 {
            d.step(&Input::default());
        }
        assert_eq!(wanderers(&d), before, "wanderers with speed 0 never move");
        // Out of the game's range: refused with the range, nothing changed (the first edit of
        // the batch included).
        let kinds = d.kinds().clone();
        let err = d
            .edit_kinds(
                "bullet",
                &[
                    Edit::Number { path: "speed".into(), value: 20.0 },
                    Edit::Number { path: "radius".into(), value: 0.9 },
                ],
            )
            .unwrap_err();
        assert!(err.to_string().contains("bullet.radius = 0.9 is out of range (0.02..=0.45)"), "{err}");
        assert_eq!(d.kinds(), &kinds);
        assert_eq!(d.game().unwrap().kinds(), &kinds);
        // A path the kind does not have, and a thing the document does not have.
        assert!(d.edit_kinds("player", &[Edit::Number { path: "mass".into(), value: 1.0 }]).is_err());
        assert!(d.edit_kinds("dragon", &[Edit::Number { path: "speed".into(), value: 1.0 }]).is_err());
        assert_eq!(d.kinds(), &kinds);
    }

    #[test]
    fn the_side_panel_shows_the_inspector_and_i_toggles_it() {
        let mut d = Dungeon::new(LevelConfig::default(), Kinds::shipped(), true);
        d.reset(3);
        d.step(&Input::default());
        assert!(d.inspector_open());
        let ctx = lore_render::egui::Context::default();
        let mut texts = Vec::new();
        for _ in 0..3 {
            let mut out = ctx.run_ui(lore_render::egui::RawInput::default(), |ui| d.ui(ui));
            out.textures_delta.clear(); // no renderer here to upload the font atlas
            texts = out
                .shapes
                .iter()
                .filter_map(|s| match &s.shape {
                    lore_render::egui::Shape::Text(t) => Some(t.galley.text().to_owned()),
                    _ => None,
                })
                .collect::<Vec<_>>();
        }
        for label in ["player  (PlayerKind)", "wanderer  (EnemyKind)", "chase_speed", "fire_interval"] {
            assert!(texts.iter().any(|t| t == label), "{label} missing from {texts:?}");
        }
        assert_eq!(d.kinds(), &Kinds::shipped(), "laying out changes nothing");
        let mut input = Input::default();
        input.press_key(Key::Char('i'));
        d.step(&input);
        assert!(!d.inspector_open());
        assert!(!Dungeon::new(LevelConfig::default(), Kinds::shipped(), true).with_inspector(false).inspector_open());
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
        // An edit of the same length (one digit changed, as a person saving a tweak): seen by
        // the file's time, not its length. It is dated a second after the last write, as a
        // person's next save would be (a coarse file system clock may give two writes a few
        // milliseconds apart the same time).
        let same = slow.replace(r#"<parameter name="speed" value="0"/>"#, r#"<parameter name="speed" value="2"/>"#);
        assert!(same.len() == slow.len() && same != slow);
        let last = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::fs::write(&path, &same).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(last + std::time::Duration::from_secs(1)).unwrap();
        drop(file);
        step(&mut d);
        assert_eq!(d.game().unwrap().kinds().wanderer.speed, 2.0, "a same-length edit was not reloaded");
        // Back to the slow file (the same length again, dated now).
        std::fs::write(&path, &slow).unwrap();
        step(&mut d);
        assert_eq!(d.game().unwrap().kinds().wanderer.speed, 0.0);
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
