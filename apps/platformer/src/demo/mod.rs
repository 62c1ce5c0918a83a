//! The [`Demo`] face of the game: the window's stepping, the autopilot switch and the level
//! lines here; drawing in `draw`, the kinds inspector in `inspect`, hot reload of the kinds
//! file in `reload`, the sound in `mixing`.

mod draw;
mod inspect;
mod mixing;
mod reload;

use glam::{Vec2, vec2};
use lore_render::{Batch, Camera, Demo, Input, Key};

use crate::autopilot::Autopilot;
use crate::game::{FrameTimes, Game, GpuPixels, LevelStats};
use crate::kinds::Kinds;
use crate::level::LevelConfig;

use mixing::Mixing;
pub use mixing::{MAX_RECORDING_SAMPLES, Recording, write_recording};
pub use reload::KINDS_POLL_STEPS;
use reload::KindsWatch;

/// The platformer as a demo.
#[derive(Debug)]
pub struct Platformer {
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
    sound: Mixing,
    watch: Option<KindsWatch>,
    gpu: Option<GpuPixels>,
    inspector_open: bool,
    inspector_error: Option<String>,
}

impl Platformer {
    /// A platformer of levels made from `config` (its seed is replaced by the run's seed at
    /// each reset) with `kinds`; `autopilot` plays it until a person presses a key of the game.
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
            sound: Mixing::default(),
            watch: None,
            gpu: None,
            inspector_open: true,
            inspector_error: None,
        }
    }

    /// Decides shot–enemy pairs on `gpu` (one lore-pixel-collide batch per step), with the CPU
    /// twin checking every answer.
    #[must_use]
    pub fn with_gpu_pixels(mut self, gpu: GpuPixels) -> Self {
        self.gpu = Some(gpu);
        self
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

    /// Whether the autopilot plays.
    #[must_use]
    pub fn autopilot(&self) -> bool {
        self.autopilot
    }

    /// One report line for a level's counters.
    #[must_use]
    pub fn level_line(stats: &LevelStats, keys_total: usize, finished: bool) -> String {
        let pixels = if stats.gpu_pairs > 0 {
            format!("gpu {}/{} agree", stats.gpu_agree, stats.gpu_pairs)
        } else {
            format!("pixel pairs {} (cpu twin)", stats.pixel_pairs)
        };
        format!(
            "level {} (seed {}): {} {} frames, keys {}/{}, jumps {}, enemies hit {}, shots fired {}, player hurt {}, {}",
            stats.level + 1,
            stats.seed,
            if finished { "done in" } else { "unfinished after" },
            stats.frames,
            stats.keys,
            keys_total,
            stats.jumps,
            stats.enemies_hit,
            stats.shots_fired,
            stats.player_hurt,
            pixels,
        )
    }
}

/// Whether the input holds a key of the game (a person playing).
fn person_playing(input: &Input) -> bool {
    input.arrows() != Vec2::ZERO
        || [Key::Space, Key::Char('z'), Key::Char('x'), Key::Char('f')].into_iter().any(|k| input.key_down(k))
}

impl Demo for Platformer {
    fn name(&self) -> &'static str {
        "platformer"
    }

    fn description(&self) -> &'static str {
        "A side-scroller made of lore crates: generated levels beatable by construction, the character controller, a broadphase world, pixel-perfect shots, reflected kinds; an autopilot plays it."
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("left / right or A / D", "run (ends the autopilot)"),
            ("Space or Z", "jump"),
            ("down or S", "drop through a one-way platform; climb down a ladder"),
            ("up or W", "climb a ladder"),
            ("X or F", "shoot"),
            ("C", "switch the body between a box and a capsule"),
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
        self.sound.sounds = 0;
        if let Some(rec) = &self.sound.recording
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
        if person_playing(input) {
            self.autopilot = false;
        }
        if input.key_pressed(Key::Char('p')) {
            self.autopilot = !self.autopilot;
        }
        if input.key_pressed(Key::Char('i')) {
            self.inspector_open = !self.inspector_open;
        }
        let Some(game) = self.game.as_mut() else { return };
        if input.key_pressed(Key::Char('c')) {
            let capsule = !game.player().capsule;
            game.set_capsule(capsule);
            self.kinds.player.capsule = capsule;
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
        self.sound.play_step(game.events(), game.frame());
        let t = game.times();
        let mix = |a: f32, b: f32| a + (b - a) * 0.05;
        self.times = FrameTimes {
            level: mix(self.times.level, t.level),
            controller: mix(self.times.controller, t.controller),
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
                    if self.sound.mixer.is_some() {
                        line.push_str(&format!(", sounds played {}", self.sound.sounds));
                    }
                    println!("{line}");
                }
            }
            self.printed = game.finished().len();
            self.level_allocations = 0;
            self.level_frames = 0;
            self.sound.sounds = 0;
        }
    }

    fn camera(&self) -> Camera {
        let (w, h) =
            self.game.as_ref().map_or((177.0, 41.0), |g| (g.level().width() as f32, g.level().height() as f32));
        Camera::fit(vec2(0.0, 0.0), vec2(w, h + draw::HUD_ROWS), 0.01)
    }

    fn draw(&self, batch: &mut Batch) {
        self.draw_scene(batch);
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        ui.checkbox(&mut self.autopilot, "autopilot (p)");
        if let Some(game) = &self.game {
            ui.label(format!("level {} · frame {}", game.stats().level + 1, game.frame()));
            ui.label(format!(
                "body {} · enemies {} · shots {}",
                if game.player().capsule { "capsule" } else { "box" },
                game.enemies().count(),
                game.shots().count()
            ));
        }
        if let Some(e) = &self.error {
            ui.colored_label(lore_render::egui::Color32::RED, e);
        }
        ui.separator();
        let header = lore_render::egui::CollapsingHeader::new("kinds inspector (i)")
            .id_salt("platformer kinds inspector")
            .open(Some(self.inspector_open))
            .show(ui, |ui| self.kinds_inspector(ui));
        if header.header_response.clicked() {
            self.inspector_open = !self.inspector_open;
        }
    }

    fn stats(&self) -> String {
        match &self.game {
            Some(game) => {
                let mut line = Self::level_line(&game.stats(), game.level().side.keys.len(), false);
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
    use lore_reflect_egui::Edit;

    #[test]
    fn it_draws_the_level_its_entities_and_the_hud() {
        let mut d = Platformer::new(LevelConfig::default(), Kinds::shipped(), true);
        d.reset(2);
        for _ in 0..300 {
            d.step(&Input::default());
        }
        let game = d.game().unwrap();
        let (start, _) = game.level().tile_box(game.level().side.start);
        assert!(game.player().pos.distance(start) > 1.0, "the autopilot moved");
        let mut batch = Batch::new(d.camera(), vec2(1280.0, 720.0));
        d.draw(&mut batch);
        // Two triangles per solid tile at least, and more for every enemy disk.
        let solid = game.level().side.tiles.iter().filter(|&&t| t == lore_mazegen::LevelTile::Solid).count();
        assert!(batch.triangle_count() > 2 * solid + 8 * game.enemies().count());
        let hud: Vec<&str> = batch.labels().iter().map(|l| l.text.as_str()).collect();
        assert!(hud.iter().any(|t| t.starts_with("level 1") && t.contains("enemies") && t.contains("box")), "{hud:?}");
        assert!(hud.iter().any(|t| t.contains("collide2d") && t.contains("broadphase")), "{hud:?}");
        assert!(d.stats().starts_with("level 1 (seed 2)"), "{}", d.stats());
        // A level that cannot be made shows its error instead of panicking.
        let mut bad = Platformer::new(LevelConfig { zones: 0, ..LevelConfig::default() }, Kinds::shipped(), true);
        bad.reset(1);
        bad.step(&Input::default());
        assert!(bad.game().is_none() && !bad.stats().is_empty());
        let mut batch = Batch::new(bad.camera(), vec2(1280.0, 720.0));
        bad.draw(&mut batch);
        assert!(batch.labels()[0].text.starts_with("platformer: level"));
    }

    #[test]
    fn the_help_lists_every_key_and_c_switches_the_body_and_a_game_key_ends_the_autopilot() {
        let d = Platformer::new(LevelConfig::default(), Kinds::shipped(), true);
        let help: Vec<&str> = d.help().iter().map(|(k, _)| *k).collect();
        for key in ["Space", "X or F", "down", "up", "C", "P", "I"] {
            assert!(help.iter().any(|k| k.contains(key)), "{key} missing from the help {help:?}");
        }
        let mut d = d;
        d.reset(4);
        let mut input = Input::default();
        input.press_key(Key::Char('c'));
        d.step(&input);
        assert!(d.game().unwrap().player().capsule && d.kinds().player.capsule);
        assert!(d.autopilot(), "C is not a key of the game: the autopilot plays on");
        let mut input = Input::default();
        input.press_key(Key::Right);
        d.step(&input);
        assert!(!d.autopilot(), "running ends the autopilot");
    }

    #[test]
    fn an_inspector_edit_applies_to_the_running_game_and_a_bad_one_is_refused_whole() {
        let mut d = Platformer::new(LevelConfig::default(), Kinds::shipped(), false);
        d.reset(5);
        d.step(&Input::default());
        let walkers =
            |d: &Platformer| -> Vec<Vec2> { d.game().unwrap().enemies().filter(|e| !e.guard).map(|e| e.pos).collect() };
        let changes = d.edit_kinds("walker", &[Edit::Number { path: "speed".into(), value: 0.0 }]).unwrap();
        assert_eq!(changes.paths(), ["speed"]);
        assert_eq!(d.game().unwrap().kinds().walker.speed, 0.0);
        let before = walkers(&d);
        assert!(!before.is_empty());
        for _ in 0..60 {
            d.step(&Input::default());
        }
        assert_eq!(walkers(&d), before, "walkers with speed 0 never move");
        let kinds = d.kinds().clone();
        let err = d
            .edit_kinds(
                "shot",
                &[
                    Edit::Number { path: "speed".into(), value: 20.0 },
                    Edit::Number { path: "radius".into(), value: 0.9 },
                ],
            )
            .unwrap_err();
        assert!(err.to_string().contains("shot.radius = 0.9 is out of range (0.02..=0.45)"), "{err}");
        assert_eq!(d.kinds(), &kinds);
        assert_eq!(d.game().unwrap().kinds(), &kinds);
        assert!(d.edit_kinds("player", &[Edit::Number { path: "mass".into(), value: 1.0 }]).is_err());
        assert!(d.edit_kinds("dragon", &[Edit::Number { path: "speed".into(), value: 1.0 }]).is_err());
        assert_eq!(d.kinds(), &kinds);
    }

    #[test]
    fn the_side_panel_shows_the_inspector() {
        let mut d = Platformer::new(LevelConfig::default(), Kinds::shipped(), true);
        d.reset(3);
        d.step(&Input::default());
        assert!(d.inspector_open());
        let ctx = lore_render::egui::Context::default();
        let mut texts = Vec::new();
        for _ in 0..3 {
            let mut out = ctx.run_ui(lore_render::egui::RawInput::default(), |ui| d.ui(ui));
            out.textures_delta.clear();
            texts = out
                .shapes
                .iter()
                .filter_map(|s| match &s.shape {
                    lore_render::egui::Shape::Text(t) => Some(t.galley.text().to_owned()),
                    _ => None,
                })
                .collect::<Vec<_>>();
        }
        for label in ["player  (PlayerKind)", "guard  (EnemyKind)", "climb_speed", "coyote_frames"] {
            assert!(texts.iter().any(|t| t == label), "{label} missing from {texts:?}");
        }
        let mut input = Input::default();
        input.press_key(Key::Char('i'));
        d.step(&input);
        assert!(!d.inspector_open());
    }

    #[test]
    fn an_edited_kinds_file_is_reloaded_and_a_broken_one_keeps_the_last_good_values() {
        let dir = std::env::temp_dir().join(format!("lore-platformer-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kinds.xml");
        std::fs::write(&path, crate::kinds::DEFAULT_KINDS_XML).unwrap();
        let mut d = Platformer::new(LevelConfig::default(), Kinds::shipped(), true).watching_kinds(path.clone());
        d.reset(4);
        let step = |d: &mut Platformer| {
            for _ in 0..KINDS_POLL_STEPS {
                d.step(&Input::default());
            }
        };
        step(&mut d);
        let slow = crate::kinds::DEFAULT_KINDS_XML
            .replace(r#"<parameter name="speed" value="1.5"/>"#, r#"<parameter name="speed" value="0"/>"#);
        std::fs::write(&path, &slow).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(1)).unwrap();
        drop(file);
        step(&mut d);
        assert_eq!(d.game().unwrap().kinds().walker.speed, 0.0);
        assert_eq!(d.kinds_error(), None);
        std::fs::write(&path, &slow[..slow.len() / 2]).unwrap();
        step(&mut d);
        assert!(d.kinds_error().is_some_and(|e| e.contains("last good")), "{:?}", d.kinds_error());
        assert_eq!(d.game().unwrap().kinds().walker.speed, 0.0);
        std::fs::write(&path, crate::kinds::DEFAULT_KINDS_XML).unwrap();
        step(&mut d);
        assert_eq!(d.kinds_error(), None);
        assert_eq!(d.game().unwrap().kinds(), &Kinds::shipped());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
