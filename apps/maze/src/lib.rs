//! `maze`: the lore-mazegen demo. Generates a lock-and-key maze one step at a time (graph, tree,
//! each door, each key, each loop) and draws the maze as it stands after the current step.
//!
//! Headless, the autopilot plays the whole generation in about a second of steps and then holds
//! the finished maze with its solution walk.
//!
//! Mazes of more than [`PICTURE_ABOVE`] nodes are drawn as one picture (lore-mazegen's own
//! raster, uploaded as a texture) instead of a shape per cell, wall and node: their shapes would
//! pass the largest vertex buffer a GPU takes (lore-render draws a batch from one buffer), and
//! at that size a cell is under a pixel anyway.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Atomic writes of exports: lore-render's, shared by every app that saves.
pub use lore_render::file;

use std::cell::RefCell;

use lore_mazegen::{
    Config, EdgeKind, Generator, Layout, Maze, Solution, Step, Style, TreeAlgorithm, check, color_rgb, to_rgba,
    zone_rgb,
};
use lore_render::demo::Demo;
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Camera, Color, Input, Key, Texture};

/// Which base graph the demo digs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Delaunay triangulation of random points.
    Logic,
    /// A grid of cells with horizontal corridors.
    Grid,
}

/// The parameters the sliders change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Logic or grid.
    pub kind: Kind,
    /// Random points (logic mazes).
    pub points: u32,
    /// Grid width in cells.
    pub width: u32,
    /// Grid height in cells.
    pub height: u32,
    /// Zones (doors + 1).
    pub zones: u16,
    /// Cycle edges.
    pub cycles: u32,
    /// Horizontal bias, -1 to 1.
    pub bias: f32,
    /// Draw the spanning tree with Wilson's algorithm (exactly uniform with bias 0) instead of
    /// Kruskal's: the default for grid mazes, where it is also the faster of the two.
    pub uniform: bool,
}

/// World size of a logic maze (16:9, so it fills the frame).
pub const LOGIC_SIZE: Vec2 = Vec2::new(160.0, 90.0);

impl Params {
    /// The defaults for a kind.
    #[must_use]
    pub fn new(kind: Kind) -> Self {
        match kind {
            Kind::Logic => {
                Self { kind, points: 500, width: 48, height: 27, zones: 5, cycles: 40, bias: 0.0, uniform: false }
            }
            Kind::Grid => {
                Self { kind, points: 500, width: 48, height: 27, zones: 6, cycles: 30, bias: 0.5, uniform: true }
            }
        }
    }

    /// The generator config for a seed.
    #[must_use]
    pub fn config(&self, seed: u64) -> Config {
        let base = match self.kind {
            Kind::Logic => Config {
                shape: lore_mazegen::Shape::Points { count: self.points, width: LOGIC_SIZE.x, height: LOGIC_SIZE.y },
                ..Config::points(self.points)
            },
            Kind::Grid => Config::grid(self.width, self.height),
        };
        let tree = if self.uniform { TreeAlgorithm::Wilson } else { TreeAlgorithm::Kruskal };
        base.zones(self.zones).cycles(self.cycles).bias(self.bias).tree(tree).seed(seed)
    }

    /// Checks the parameters as the generator would, without generating.
    ///
    /// # Errors
    /// The generator's [`lore_mazegen::Error::Config`], naming the first bad value.
    pub fn validate(&self) -> Result<(), lore_mazegen::Error> {
        self.config(0).validate()
    }
}

/// Mazes with more nodes than this are drawn as one picture rather than as shapes.
pub const PICTURE_ABOVE: usize = 100_000;

/// The longest side, in pixels, of the picture a big maze is drawn as.
const PICTURE_SIDE: f32 = 2048.0;

/// A big maze's picture, for one step and solution switch.
#[derive(Debug)]
struct Picture {
    steps: usize,
    solution: bool,
    texture: Texture,
    center: Vec2,
    size: Vec2,
}

/// The demo state.
#[derive(Debug)]
pub struct MazeDemo {
    params: Params,
    seed: u64,
    /// The generator after `steps_done` steps: stepping forward continues it, stepping back
    /// replays from the seed (generation is deterministic).
    generator: Option<Generator>,
    steps_done: usize,
    total_steps: usize,
    last_step: Option<Step>,
    playing: bool,
    show_solution: bool,
    solution: Option<Solution>,
    error: Option<String>,
    /// The picture of a big maze, made when first drawn (see [`PICTURE_ABOVE`]).
    picture: RefCell<Option<Picture>>,
}

/// Frames the autopilot spends on a whole generation.
const AUTOPILOT_FRAMES: usize = 60;

impl MazeDemo {
    /// A demo of the given kind (call `reset` before stepping).
    #[must_use]
    pub fn new(kind: Kind) -> Self {
        Self {
            params: Params::new(kind),
            seed: 1,
            generator: None,
            steps_done: 0,
            total_steps: 0,
            last_step: None,
            playing: true,
            show_solution: true,
            solution: None,
            error: None,
            picture: RefCell::new(None),
        }
    }

    /// The maze as it stands after the current step.
    #[must_use]
    pub fn maze(&self) -> Option<&Maze> {
        self.generator.as_ref().map(Generator::maze)
    }

    /// The configuration error, when the parameters cannot make a maze.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The checker's solution once the generation is complete.
    #[must_use]
    pub fn solution(&self) -> Option<&Solution> {
        self.solution.as_ref()
    }

    /// Current parameters.
    #[must_use]
    pub fn params(&self) -> Params {
        self.params
    }

    /// Steps run so far and steps in total.
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        (self.steps_done, self.total_steps)
    }

    /// Changes the parameters and starts over at step 0.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.restart();
    }

    fn restart(&mut self) {
        match Generator::new(&self.params.config(self.seed)) {
            Ok(g) => {
                self.total_steps = g.count();
                self.error = None;
            }
            Err(e) => {
                self.total_steps = 0;
                self.error = Some(e.to_string());
            }
        }
        self.generator = None;
        self.goto(0);
        self.playing = true;
    }

    /// Shows the maze after `steps` steps: forward from the current step, or replayed from the
    /// seed when going back.
    pub fn goto(&mut self, steps: usize) {
        let steps = steps.min(self.total_steps);
        if steps < self.steps_done || self.generator.is_none() {
            self.steps_done = 0;
            self.last_step = None;
            self.generator = Generator::new(&self.params.config(self.seed)).ok();
        }
        let Some(generator) = self.generator.as_mut() else { return };
        while self.steps_done < steps {
            self.last_step = generator.next();
            self.steps_done += 1;
        }
        self.solution =
            if generator.is_done() || steps == self.total_steps { check(generator.maze()).ok() } else { None };
    }

    fn world_rect(&self) -> (Vec2, Vec2) {
        match self.maze().map(|m| m.layout) {
            Some(Layout::Grid { width, height }) => (Vec2::ZERO, vec2(width as f32, height as f32)),
            _ => (Vec2::ZERO, LOGIC_SIZE),
        }
    }

    /// The step caption in the top-left corner.
    fn draw_caption(&self, batch: &mut Batch) {
        let label = match self.last_step {
            None => "start".to_owned(),
            Some(Step::Graph { nodes, edges }) => format!("base graph: {nodes} nodes, {edges} edges"),
            Some(Step::Tree { .. }) => "random spanning tree".to_owned(),
            Some(Step::Door { color, size, target, .. }) => format!("door {color}: zone of {size} (aim {target:.1})"),
            Some(Step::Key { color, node }) => format!("key {color} dropped on node {node}"),
            Some(Step::Cycle { .. }) => "cycle added".to_owned(),
        };
        batch.screen_text(
            vec2(12.0, 12.0),
            format!("step {}/{}: {label}", self.steps_done, self.total_steps),
            16.0,
            Color::BLACK,
        );
    }

    /// Draws a big maze as one picture, made on first use for this step and solution switch.
    fn draw_picture(&self, maze: &Maze, batch: &mut Batch) {
        let solution = self.show_solution && self.solution.is_some();
        let mut cached = self.picture.borrow_mut();
        if cached.as_ref().is_none_or(|p| p.steps != self.steps_done || p.solution != solution) {
            *cached = picture(maze, solution).map(|p| Picture { steps: self.steps_done, ..p });
        }
        match cached.as_ref() {
            Some(p) => batch.sprite(&p.texture, p.center, p.size, 0.0, Color::WHITE),
            None => batch.screen_text(vec2(12.0, 40.0), "this maze cannot be drawn", 16.0, Color::BLACK),
        }
    }
}

/// A big maze as a texture at most [`PICTURE_SIDE`] pixels long, and the world rectangle it
/// covers (`None` only for a maze the picture export refuses, which a generated one never is).
fn picture(maze: &Maze, show_solution: bool) -> Option<Picture> {
    let (min, max) = match maze.grid_size() {
        Some((w, h)) => (Vec2::ZERO, vec2(w as f32, h as f32)),
        None => maze.positions.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), &p| (lo.min(p), hi.max(p))),
    };
    let margin = 8.0;
    let scale = (PICTURE_SIDE - 2.0 * margin) / (max - min).max_element().max(f32::MIN_POSITIVE);
    let style = Style { scale, margin, show_graph: false, show_solution };
    let (w, h, rgba) = to_rgba(maze, &style).ok()?;
    // Smoothed: the picture is drawn about three times smaller than it is.
    let texture = Texture::from_rgba(w, h, rgba).ok()?.smoothed().ok()?;
    // Pixel (0, 0) is the world point (min.x, max.y) less the margin; the picture is y-down.
    let size = vec2(w as f32, h as f32) / scale;
    let top_left = vec2(min.x, max.y) + vec2(-margin, margin) / scale;
    let center = top_left + vec2(size.x, -size.y) / 2.0;
    Some(Picture { steps: 0, solution: show_solution, texture, center, size })
}

fn rgb(c: [u8; 3]) -> Color {
    Color::rgb(c[0], c[1], c[2])
}

const WALL: Color = Color::rgb(30, 30, 36);

/// The step buttons of the side panel: to the start, one back, one forward, to the end. Plain
/// ASCII, because the bundled egui fonts have no media-control glyphs (see
/// `lore_render::glyphs`).
const BUTTONS: [&str; 4] = ["|<", "<", ">", ">|"];

impl Demo for MazeDemo {
    fn name(&self) -> &'static str {
        "maze"
    }

    fn description(&self) -> &'static str {
        "lock-and-key mazes, step by step (lore-mazegen)"
    }

    fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.restart();
    }

    fn step(&mut self, input: &Input) {
        if input.key_pressed(Key::Enter) {
            self.playing = !self.playing;
        }
        if input.key_pressed(Key::Char('s')) {
            self.show_solution = !self.show_solution;
        }
        if input.key_pressed(Key::Char('g')) {
            let kind = if self.params.kind == Kind::Logic { Kind::Grid } else { Kind::Logic };
            self.set_params(Params::new(kind));
            return;
        }
        if input.key_pressed(Key::Char('n')) {
            self.seed = self.seed.wrapping_add(1);
            self.restart();
            return;
        }
        if input.key_pressed(Key::Right) || input.key_pressed(Key::Space) {
            self.playing = false;
            self.goto(self.steps_done + 1);
        } else if input.key_pressed(Key::Left) {
            self.playing = false;
            self.goto(self.steps_done.saturating_sub(1));
        } else if self.playing && self.steps_done < self.total_steps {
            let rate = self.total_steps.div_ceil(AUTOPILOT_FRAMES).max(1);
            self.goto(self.steps_done + rate);
        }
    }

    fn draw(&self, batch: &mut Batch) {
        let Some(maze) = self.maze() else { return };
        let p = |v: u32| maze.positions[v as usize];
        let px = batch.pixel();
        let done = self.steps_done == self.total_steps;
        let tree_built = !maze.edges.is_empty();
        let (min, max) = self.world_rect();
        let pad = (max - min) * 0.006;
        batch.rect(min - pad, max + pad, Color::rgb(248, 248, 244));
        if maze.node_count() > PICTURE_ABOVE {
            self.draw_picture(maze, batch);
            self.draw_caption(batch);
            return;
        }
        match maze.layout {
            Layout::Grid { width, height } => {
                let cell_at = |x: u32, y: u32| vec2(x as f32, (height - y) as f32);
                for y in 0..height {
                    for x in 0..width {
                        let z = maze.zone[(y * width + x) as usize];
                        batch.rect(cell_at(x, y + 1), cell_at(x + 1, y), rgb(zone_rgb(z)));
                    }
                }
                let wall = (0.16f32).max(2.0 * px);
                let mut open = vec![[false; 2]; (width * height) as usize];
                for e in &maze.edges {
                    let (a, b) = (e.a.min(e.b), e.a.max(e.b));
                    open[b as usize][usize::from(b == a + width)] = true;
                }
                for y in 0..height {
                    for x in 0..width {
                        let [left, up] = open[(y * width + x) as usize];
                        if !left {
                            batch.line(cell_at(x, y), cell_at(x, y + 1), wall, WALL);
                        }
                        if !up {
                            batch.line(cell_at(x, y), cell_at(x + 1, y), wall, WALL);
                        }
                    }
                }
                batch.line(cell_at(width, 0), cell_at(width, height), wall, WALL);
                batch.line(cell_at(0, height), cell_at(width, height), wall, WALL);
                for (_, e) in maze.doors() {
                    let (a, b) = (p(e.a), p(e.b));
                    let mid = (a + b) / 2.0;
                    let across = (b - a).perp() * 0.4;
                    batch.line(mid - across, mid + across, 3.0 * wall, rgb(color_rgb(e.door.unwrap_or(0))));
                }
            }
            Layout::Points => {
                let thin = 1.0 * px;
                if !tree_built || self.last_step.is_some_and(|s| matches!(s, Step::Graph { .. } | Step::Tree { .. })) {
                    for &[a, b] in &maze.graph {
                        batch.line(p(a), p(b), thin, Color::rgb(200, 200, 210));
                    }
                }
                for e in &maze.edges {
                    match e.door {
                        Some(c) => batch.line(p(e.a), p(e.b), 9.0 * px, rgb(color_rgb(c))),
                        None if e.kind == EdgeKind::Cycle => {
                            batch.line(p(e.a), p(e.b), 2.0 * px, Color::rgb(110, 110, 200))
                        }
                        None => batch.line(p(e.a), p(e.b), 2.0 * px, Color::rgb(90, 90, 100)),
                    }
                }
                for (i, &q) in maze.positions.iter().enumerate() {
                    batch.disk(q, 4.0 * px, WALL);
                    batch.disk(q, 3.0 * px, rgb(zone_rgb(maze.zone[i])));
                }
            }
        }
        if done
            && self.show_solution
            && let Some(sol) = &self.solution
        {
            let path: Vec<Vec2> = sol.path.iter().map(|&v| p(v)).collect();
            batch.polyline(&path, false, 1.5 * px, Color::rgb(20, 20, 20));
        }
        for k in &maze.keys {
            batch.disk(p(k.node), 8.0 * px, WALL);
            batch.disk(p(k.node), 6.0 * px, rgb(color_rgb(k.color)));
        }
        batch.disk(p(maze.root), 8.0 * px, Color::BLACK);
        batch.disk(p(maze.root), 4.0 * px, Color::WHITE);
        self.draw_caption(batch);
    }

    fn camera(&self) -> Camera {
        let (min, max) = self.world_rect();
        Camera::fit(min, max, 0.07)
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        let mut p = self.params;
        ui.horizontal(|ui| {
            ui.radio_value(&mut p.kind, Kind::Logic, "logic");
            ui.radio_value(&mut p.kind, Kind::Grid, "grid");
        });
        match p.kind {
            Kind::Logic => {
                ui.add(lore_render::egui::Slider::new(&mut p.points, 20..=5000).text("points"));
            }
            Kind::Grid => {
                ui.add(lore_render::egui::Slider::new(&mut p.width, 2..=120).text("width"));
                ui.add(lore_render::egui::Slider::new(&mut p.height, 2..=70).text("height"));
            }
        }
        ui.add(lore_render::egui::Slider::new(&mut p.zones, 1..=16).text("zones"));
        ui.add(lore_render::egui::Slider::new(&mut p.cycles, 0..=500).text("cycles"));
        ui.add(lore_render::egui::Slider::new(&mut p.bias, -1.0..=1.0).text("horizontal bias"));
        ui.checkbox(&mut p.uniform, "uniform tree (Wilson)");
        let mut seed = self.seed;
        ui.add(lore_render::egui::DragValue::new(&mut seed).prefix("seed "));
        if p != self.params || seed != self.seed {
            self.seed = seed;
            if p.kind != self.params.kind {
                p = Params { kind: p.kind, ..Params::new(p.kind) };
            }
            self.set_params(p);
        }
        ui.horizontal(|ui| {
            if ui.button(BUTTONS[0]).clicked() {
                self.playing = false;
                self.goto(0);
            }
            if ui.button(BUTTONS[1]).clicked() {
                self.playing = false;
                self.goto(self.steps_done.saturating_sub(1));
            }
            if ui.button(if self.playing { "pause" } else { "play" }).clicked() {
                self.playing = !self.playing;
            }
            if ui.button(BUTTONS[2]).clicked() {
                self.playing = false;
                self.goto(self.steps_done + 1);
            }
            if ui.button(BUTTONS[3]).clicked() {
                self.goto(self.total_steps);
            }
        });
        ui.checkbox(&mut self.show_solution, "show solution (S)");
        if let Some(e) = &self.error {
            ui.colored_label(lore_render::egui::Color32::RED, e);
        }
        if let Some(s) = &self.solution {
            ui.label(format!("critical path {} edges, {} dead ends", s.critical_path_len, s.dead_ends));
            ui.label(format!("zone sizes {:?}", s.zone_sizes));
        }
    }

    fn config_error(&self) -> Option<String> {
        self.error.clone()
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("Enter", "play / pause"),
            ("Right or Space / Left", "one step forward / back"),
            ("S", "show or hide the solution"),
            ("G", "switch grid / logic maze"),
            ("N", "next seed"),
        ]
    }

    fn stats(&self) -> String {
        match (self.maze(), &self.solution) {
            (Some(m), Some(s)) => format!(
                "{} nodes, {} zones, path {} edges, {} dead ends",
                m.node_count(),
                s.zone_sizes.len(),
                s.critical_path_len,
                s.dead_ends
            ),
            (Some(m), None) => format!("{} nodes, step {}/{}", m.node_count(), self.steps_done, self.total_steps),
            _ => self.error.clone().unwrap_or_default(),
        }
    }
}

/// The demo for the runner and the showcase: a logic maze.
#[must_use]
pub fn demo() -> Box<dyn Demo> {
    Box::new(MazeDemo::new(Kind::Logic))
}

/// The grid flavour of the demo (same controls; `g` switches in either).
#[must_use]
pub fn grid_demo() -> Box<dyn Demo> {
    Box::new(MazeDemo::new(Kind::Grid))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_label_has_its_glyphs() {
        let ctx = lore_render::glyphs::default_context();
        for label in super::BUTTONS.iter().chain(["play", "pause", "show solution (S)"].iter()) {
            assert_eq!(lore_render::glyphs::missing_glyphs(&ctx, label), Vec::<char>::new(), "{label}");
        }
        // The old labels really were missing: the test can fail.
        assert!(!lore_render::glyphs::missing_glyphs(&ctx, "⏮◀▶⏭").is_empty());
    }

    use super::*;

    #[test]
    fn autopilot_finishes_and_solves() {
        for kind in [Kind::Logic, Kind::Grid] {
            let mut d = MazeDemo::new(kind);
            d.reset(3);
            for _ in 0..AUTOPILOT_FRAMES + 1 {
                d.step(&Input::default());
            }
            let (done, total) = d.progress();
            assert_eq!(done, total);
            assert!(total > 2);
            assert_eq!(d.solution().map(|s| s.zone_sizes.len()), Some(usize::from(d.params().zones)));
        }
    }

    /// A maze past [`PICTURE_ABOVE`] nodes is one textured rectangle, not millions of shapes
    /// (which would pass the GPU's largest vertex buffer), and it covers the maze's rectangle.
    #[test]
    fn big_mazes_are_drawn_as_one_picture() {
        let mut d = MazeDemo::new(Kind::Grid);
        d.set_params(Params { width: 400, height: 300, zones: 4, cycles: 10, ..Params::new(Kind::Grid) });
        assert!(d.error().is_none());
        d.goto(usize::MAX);
        let mut batch = Batch::new(d.camera(), vec2(1280.0, 720.0));
        d.draw(&mut batch);
        assert!(batch.vertices().len() < 200, "{} vertices", batch.vertices().len());
        let textured: Vec<_> = batch.commands().iter().filter_map(|c| c.texture.as_ref()).collect();
        assert_eq!(textured.len(), 1);
        let picture = d.picture.borrow();
        let p = picture.as_ref().expect("the picture is made on the first draw");
        assert!(p.texture.width() <= 2048 && p.texture.height() <= 2048);
        let (lo, hi) = (p.center - p.size / 2.0, p.center + p.size / 2.0);
        assert!(lo.x < 0.0 && lo.y < 0.0 && hi.x > 400.0 && hi.y > 300.0, "{lo} {hi}");
        assert!(hi.x < 403.0 && hi.y < 303.0, "{lo} {hi}");
        // A small maze keeps its shapes.
        let mut small = MazeDemo::new(Kind::Grid);
        small.reset(1);
        small.goto(usize::MAX);
        let mut batch = Batch::new(small.camera(), vec2(1280.0, 720.0));
        small.draw(&mut batch);
        assert!(batch.commands().iter().all(|c| c.texture.is_none()));
        assert!(batch.vertices().len() > 4 * 48 * 27);
    }

    #[test]
    fn invalid_parameters_are_reported_not_drawn() {
        let bad = Params { points: 0, ..Params::new(Kind::Logic) };
        assert!(bad.validate().is_err());
        let mut d = MazeDemo::new(Kind::Logic);
        d.set_params(bad);
        assert!(d.error().is_some_and(|e| e.contains("points")));
        assert!(d.maze().is_none());
    }

    #[test]
    fn stepping_back_and_forth_is_consistent() {
        let mut d = MazeDemo::new(Kind::Grid);
        d.reset(5);
        d.goto(4);
        let four = d.maze().cloned();
        d.goto(7);
        d.goto(4);
        assert_eq!(d.maze().cloned(), four);
        let mut input = Input::default();
        input.press_key(Key::Left);
        d.step(&input);
        assert_eq!(d.progress().0, 3);
    }
}
