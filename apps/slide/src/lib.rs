//! `slide`: lore-collide2d's moves in two scenes. The platformer course (the default): one
//! character controller, a disk, a box or a capsule (K switches), on slopes of loose pieces,
//! stairs, one-way platforms, a platform moving sideways and a lift. The seams scene (P
//! switches): a disk and a box moving through a level of loose segments and tiles, with toggles
//! for swept vs discrete moves and deepest-first vs first-found order, and a debug view of
//! contacts and normals.
//!
//! The world is the rectangle [`WORLD`]. With no input an autopilot walks the characters back
//! and forth (and, in the seams scene, fires a projectile at a thin wall every [`SHOT_PERIOD`]
//! steps).
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod course;

pub use course::Course;
use lore_collide2d::contact::Contact;
use lore_collide2d::resolve::{contacts_aabb, contacts_disk};
use lore_collide2d::{
    Aabb, CharacterController, Collider, Order, Segment, SlideOptions, slide_aabb, slide_aabb_swept, slide_disk,
    slide_disk_swept,
};
use lore_render::demo::{DT, Demo};
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Camera, Color, Input, Key};

/// The world rectangle the camera frames.
pub const WORLD: (Vec2, Vec2) = (Vec2::new(0.0, 0.0), Vec2::new(32.0, 18.0));
/// Radius of the player disk.
pub const DISK_RADIUS: f32 = 0.5;
/// Half size of the player box.
pub const BOX_HALF: f32 = 0.4;
/// Radius of the projectile, which moves 50 radii per step.
pub const SHOT_RADIUS: f32 = 0.2;
/// Steps between projectiles.
pub const SHOT_PERIOD: u64 = 20;
/// The thin wall the projectile is fired at (x = 16, y 10..14).
pub const THIN_WALL: Segment = Segment { a: Vec2::new(16.0, 10.0), b: Vec2::new(16.0, 14.0) };
/// Radius of the pebble dropped into the V corner.
pub const PEBBLE_RADIUS: f32 = 0.4;
/// Where the pebble starts falling.
pub const PEBBLE_START: Vec2 = Vec2::new(6.6, 11.0);
/// Height of the floor.
pub const FLOOR_Y: f32 = 2.0;

/// Colour of the odd floor pieces (even pieces use [`PIECE_B`]).
pub const PIECE_A: Color = Color::CYAN;
/// Colour of the even floor pieces.
pub const PIECE_B: Color = Color::BLUE;
/// Fill colour of the tiles.
pub const TILE: Color = Color::rgb(88, 96, 120);
/// Colour of the disk.
pub const DISK: Color = Color::ORANGE;
/// Colour of the box.
pub const BOX: Color = Color::GREEN;
/// Colour of the projectile.
pub const SHOT: Color = Color::MAGENTA;
/// Colour of contact points.
pub const CONTACT: Color = Color::RED;
/// Colour of contact normals.
pub const NORMAL: Color = Color::YELLOW;

const GRAVITY: f32 = -20.0;
const WALK: f32 = 4.0;
const BOX_WALK: f32 = 3.0;

/// The level: loose segments plus tiles.
#[derive(Debug, Clone)]
pub struct Level {
    /// Everything the disk and the box collide with.
    pub colliders: Vec<Collider>,
    /// Segments only (for drawing).
    pub segments: Vec<Segment>,
    /// Tiles.
    pub tiles: Vec<Aabb>,
}

fn pieces(from: Vec2, to: Vec2, n: usize, jitter: f32) -> Vec<Segment> {
    (0..n)
        .map(|i| {
            let a = from.lerp(to, i as f32 / n as f32);
            let b = from.lerp(to, (i + 1) as f32 / n as f32);
            let dy = if i % 2 == 0 { jitter } else { -jitter };
            Segment { a: a + vec2(0.0, dy), b: b + vec2(0.0, dy) }
        })
        .collect()
}

impl Level {
    /// The demo level.
    #[must_use]
    pub fn new() -> Self {
        let mut segments = Vec::new();
        // A floor cut into 44 loose pieces.
        segments.extend(pieces(vec2(1.0, FLOOR_Y), vec2(12.0, FLOOR_Y), 44, 0.0));
        // Pieces misaligned by 1e-5, then a ramp and a plateau.
        segments.extend(pieces(vec2(20.0, FLOOR_Y), vec2(24.0, FLOOR_Y), 16, 1e-5));
        segments.extend(pieces(vec2(24.0, FLOOR_Y), vec2(28.0, 4.0), 8, 0.0));
        segments.extend(pieces(vec2(28.0, 4.0), vec2(31.0, 4.0), 6, 0.0));
        // Walls, a V corner on a shelf, and the thin wall for the projectile.
        segments.extend(pieces(vec2(1.0, FLOOR_Y), vec2(1.0, 10.0), 4, 0.0));
        segments.extend(pieces(vec2(31.0, 4.0), vec2(31.0, 10.0), 3, 0.0));
        segments.push(Segment { a: vec2(4.0, 8.0), b: vec2(6.0, 6.0) });
        segments.push(Segment { a: vec2(6.0, 6.0), b: vec2(8.0, 8.0) });
        segments.push(THIN_WALL);
        let tiles: Vec<Aabb> =
            (12..20).map(|x| Aabb::covering(vec2(x as f32, FLOOR_Y - 1.0), vec2(x as f32 + 1.0, FLOOR_Y))).collect();
        let mut colliders: Vec<Collider> = segments.iter().copied().map(Collider::Segment).collect();
        colliders.extend(tiles.iter().copied().map(Collider::Aabb));
        Self { colliders, segments, tiles }
    }
}

impl Default for Level {
    fn default() -> Self {
        Self::new()
    }
}

/// Which scene the demo shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scene {
    /// The platformer course of the character controller.
    Course,
    /// The disk and the box on loose segments and tiles.
    Seams,
}

/// The demo state.
#[derive(Debug)]
pub struct SlideDemo {
    scene: Scene,
    course: Course,
    level: Level,
    controller: CharacterController,
    /// Disk centre and velocity.
    disk: (Vec2, Vec2),
    disk_dir: f32,
    /// Box and its vertical velocity.
    boxy: (Aabb, f32),
    box_dir: f32,
    /// Projectile: position, previous position, resting against the wall.
    shot: Option<(Vec2, Vec2, bool)>,
    /// A small disk dropped into the V corner: centre and vertical speed.
    pebble: (Vec2, f32),
    swept: bool,
    order: Order,
    debug: bool,
    steps: u64,
    slow_steps: u64,
    tunnelled: u64,
    stopped: u64,
}

/// The demo, boxed for the runner.
#[must_use]
pub fn demo() -> Box<dyn Demo> {
    Box::new(SlideDemo::new())
}

impl Default for SlideDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl SlideDemo {
    /// A new demo showing the platformer course.
    #[must_use]
    pub fn new() -> Self {
        Self { scene: Scene::Course, ..Self::seams() }
    }

    /// A new demo showing the seams scene.
    #[must_use]
    pub fn seams() -> Self {
        let mut controller = CharacterController::new(DISK_RADIUS).expect("a positive radius");
        controller.ground_distance = 0.05;
        let mut d = Self {
            scene: Scene::Seams,
            course: Course::new(),
            level: Level::new(),
            controller,
            disk: (Vec2::ZERO, Vec2::ZERO),
            disk_dir: 1.0,
            boxy: (Aabb::covering(Vec2::ZERO, Vec2::ONE), 0.0),
            box_dir: 1.0,
            shot: None,
            pebble: (PEBBLE_START, 0.0),
            swept: true,
            order: Order::DeepestFirst,
            debug: true,
            steps: 0,
            slow_steps: 0,
            tunnelled: 0,
            stopped: 0,
        };
        d.reset(0);
        d
    }

    /// The scene shown.
    #[must_use]
    pub fn scene(&self) -> Scene {
        self.scene
    }

    /// The platformer course.
    #[must_use]
    pub fn course(&self) -> &Course {
        &self.course
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The disk's centre.
    #[must_use]
    pub fn disk(&self) -> Vec2 {
        self.disk.0
    }

    /// The box.
    #[must_use]
    pub fn boxy(&self) -> Aabb {
        self.boxy.0
    }

    /// Whether moves are swept (else discrete).
    #[must_use]
    pub fn swept(&self) -> bool {
        self.swept
    }

    /// Projectiles stopped by the thin wall, and those that went through it.
    #[must_use]
    pub fn shots(&self) -> (u64, u64) {
        (self.stopped, self.tunnelled)
    }

    /// Steps where the walking disk made less than half its wanted horizontal motion while
    /// nothing blocked it (the snag measure).
    #[must_use]
    pub fn slow_steps(&self) -> u64 {
        self.slow_steps
    }

    /// The disk's current contacts (slightly inflated radius so resting contacts show).
    #[must_use]
    pub fn disk_contacts(&self) -> Vec<Contact> {
        let mut out = Vec::new();
        contacts_disk(self.disk.0, DISK_RADIUS * 1.02 + 0.01, &self.level.colliders, &mut out);
        out
    }

    /// Discrete moves resolve one contact per step (the naive loop's budget), so the order
    /// decides: deepest-first slides, first-found leaves a contact behind on seams and the move
    /// is refused (a snag).
    fn options(&self) -> SlideOptions {
        SlideOptions { order: self.order, iterations: 1, ..SlideOptions::default() }
    }

    fn step_disk(&mut self, input: &Input) {
        let (p, mut v) = self.disk;
        let steer = f32::from(u8::from(input.key_down(Key::Right))) - f32::from(u8::from(input.key_down(Key::Left)));
        let auto = steer == 0.0 && !input.key_down(Key::Up);
        if auto {
            if p.x > 29.5 {
                self.disk_dir = -1.0;
            } else if p.x < 2.5 {
                self.disk_dir = 1.0;
            }
        }
        let dir = if auto { self.disk_dir } else { steer };
        let grounded = self.controller.ground(p, &self.level.colliders).is_some();
        v.x = dir * WALK;
        v.y += GRAVITY * DT;
        if grounded && input.key_pressed(Key::Up) {
            v.y = 9.0;
        } else if grounded && v.y < 0.0 {
            v.y = v.y.max(-2.0);
        }
        let want = v * DT;
        let q = if self.swept {
            match self.controller.move_by(p, want, &self.level.colliders) {
                Ok(m) => m.position,
                Err(_) => p,
            }
        } else {
            slide_disk(p, DISK_RADIUS, want, &self.level.colliders, &self.options()).map_or(p, |o| o.position)
        };
        // The snag measure: on flat ground away from the walls, under half the wanted motion.
        let open = q.x > 2.0 && q.x < 23.5 && (q.y - FLOOR_Y - DISK_RADIUS).abs() < 0.05;
        if open && want.x != 0.0 && (q.x - p.x) / want.x < 0.5 {
            self.slow_steps += 1;
        }
        v.y = (q.y - p.y) / DT;
        self.disk = (q, v);
    }

    /// The box slides over the same loose segments and tiles as the disk (its autopilot turns
    /// back before the misaligned pieces; steered, it climbs the ramp too).
    fn step_box(&mut self, input: &Input) {
        let (b, mut vy) = self.boxy;
        let steer =
            f32::from(u8::from(input.key_down(Key::Char('l')))) - f32::from(u8::from(input.key_down(Key::Char('j'))));
        let auto = steer == 0.0;
        if auto {
            if b.max().x > 19.6 {
                self.box_dir = -1.0;
            } else if b.min().x < 2.0 {
                self.box_dir = 1.0;
            }
        }
        let dir = if auto { self.box_dir } else { steer };
        vy += GRAVITY * DT;
        if input.key_pressed(Key::Char('i')) {
            vy = 9.0;
        }
        let want = vec2(dir * BOX_WALK * DT, vy * DT);
        let out = if self.swept {
            slide_aabb_swept(&b, want, &self.level.colliders, &SlideOptions::default())
        } else {
            slide_aabb(&b, want, &self.level.colliders, &self.options())
        };
        if let Ok(o) = out {
            let moved = o.position - b.center();
            vy = moved.y / DT;
            self.boxy = (b.translated(moved), vy);
        }
    }

    /// The box's current contacts (slightly grown so resting contacts show).
    #[must_use]
    pub fn box_contacts(&self) -> Vec<Contact> {
        let b = self.boxy.0;
        let mut out = Vec::new();
        contacts_aabb(&Aabb::covering(b.min() - 0.02, b.max() + 0.02), &self.level.colliders, &mut out);
        out
    }

    /// The pebble's centre (it rests in the V corner, touching both sides).
    #[must_use]
    pub fn pebble(&self) -> Vec2 {
        self.pebble.0
    }

    fn step_pebble(&mut self) {
        let (p, mut vy) = self.pebble;
        vy += GRAVITY * DT;
        let want = vec2(0.0, vy * DT);
        let out = if self.swept {
            slide_disk_swept(p, PEBBLE_RADIUS, want, &self.level.colliders, &SlideOptions::default())
        } else {
            slide_disk(p, PEBBLE_RADIUS, want, &self.level.colliders, &self.options())
        };
        let q = out.map_or(p, |o| o.position);
        vy = (q.y - p.y) / DT;
        self.pebble = (q, vy);
    }

    fn step_shot(&mut self) {
        if self.steps.is_multiple_of(SHOT_PERIOD) {
            self.shot = Some((vec2(3.0, 12.0), vec2(3.0, 12.0), false));
        }
        let Some((p, _, resting)) = self.shot else { return };
        if resting {
            return;
        }
        let motion = vec2(50.0 * SHOT_RADIUS, 0.0);
        let wall = [THIN_WALL];
        let q = if self.swept {
            slide_disk_swept(p, SHOT_RADIUS, motion, &wall, &SlideOptions::default()).map_or(p, |o| o.position)
        } else {
            slide_disk(p, SHOT_RADIUS, motion, &wall, &self.options()).map_or(p, |o| o.position)
        };
        if q.x > THIN_WALL.a.x {
            self.tunnelled += 1;
            self.shot = if q.x > 30.0 { None } else { Some((q, p, false)) };
        } else if q.x - p.x < 1e-3 {
            self.stopped += 1;
            self.shot = Some((q, p, true));
        } else {
            self.shot = Some((q, p, false));
        }
    }
}

impl Demo for SlideDemo {
    fn name(&self) -> &'static str {
        "slide"
    }

    fn description(&self) -> &'static str {
        "lore-collide2d: a platformer course for the character controller (K: disk, box or capsule; one-way and moving platforms), and P: a disk and a box on loose segments and tiles."
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("P", "platformer course or seams scene"),
            ("K", "course: the character's shape (disk, box, capsule)"),
            ("Down", "course: drop through a one-way platform"),
            ("Left / Right", "steer the character, or the disk (untouched, it walks on its own)"),
            ("Up / Space", "the character or the disk jumps"),
            ("J / L", "steer the box (untouched, it walks on its own)"),
            ("I", "the box jumps"),
            ("M", "seams: swept or discrete moves"),
            ("O", "seams: deepest-first or first-found contact order"),
            ("C", "seams: show or hide the contacts"),
        ]
    }

    fn reset(&mut self, seed: u64) {
        // The seed shifts the starting places a little, so runs differ but stay on the floor.
        let s = (seed % 7) as f32 * 0.25;
        self.disk = (vec2(3.0 + s, FLOOR_Y + DISK_RADIUS), Vec2::ZERO);
        self.disk_dir = 1.0;
        let c = vec2(14.0 + s, FLOOR_Y + BOX_HALF);
        self.boxy = (Aabb::covering(c - BOX_HALF, c + BOX_HALF), 0.0);
        self.box_dir = 1.0;
        self.shot = None;
        self.pebble = (PEBBLE_START + vec2(s * 0.1, 0.0), 0.0);
        self.steps = 0;
        self.slow_steps = 0;
        self.tunnelled = 0;
        self.stopped = 0;
        self.course.reset(seed);
    }

    fn step(&mut self, input: &Input) {
        if input.key_pressed(Key::Char('p')) {
            self.scene = match self.scene {
                Scene::Course => Scene::Seams,
                Scene::Seams => Scene::Course,
            };
        }
        if self.scene == Scene::Course {
            self.course.step(input);
            return;
        }
        if input.key_pressed(Key::Char('m')) {
            self.swept = !self.swept;
        }
        if input.key_pressed(Key::Char('o')) {
            self.order = match self.order {
                Order::DeepestFirst => Order::FirstFound,
                Order::FirstFound => Order::DeepestFirst,
            };
        }
        if input.key_pressed(Key::Char('c')) {
            self.debug = !self.debug;
        }
        self.step_disk(input);
        self.step_box(input);
        self.step_shot();
        self.step_pebble();
        self.steps += 1;
    }

    fn draw(&self, batch: &mut Batch) {
        if self.scene == Scene::Course {
            self.course.draw(batch);
            return;
        }
        let px = batch.pixel();
        for t in &self.level.tiles {
            batch.rect(t.min(), t.max(), TILE);
            batch.rect_outline(t.min(), t.max(), 2.0 * px, Color::GREY);
        }
        for (i, s) in self.level.segments.iter().enumerate() {
            let c = if i % 2 == 0 { PIECE_A } else { PIECE_B };
            batch.line(s.a, s.b, 4.0 * px, c);
            batch.disk(s.a, 2.5 * px, Color::WHITE);
        }
        let (p, _) = self.disk;
        batch.disk(p, DISK_RADIUS, DISK);
        batch.circle(p, DISK_RADIUS, 2.0 * px, Color::WHITE);
        let b = self.boxy.0;
        batch.rect(b.min(), b.max(), BOX);
        batch.rect_outline(b.min(), b.max(), 2.0 * px, Color::WHITE);
        batch.disk(self.pebble.0, PEBBLE_RADIUS, DISK);
        if let Some((q, prev, _)) = self.shot {
            batch.line(prev, q, 2.0 * px, SHOT.with_alpha(120));
            batch.disk(q, SHOT_RADIUS, SHOT);
        }
        if self.debug {
            let mut pebble = Vec::new();
            contacts_disk(self.pebble.0, PEBBLE_RADIUS * 1.02 + 0.01, &self.level.colliders, &mut pebble);
            for c in self.disk_contacts().into_iter().chain(pebble).chain(self.box_contacts()) {
                batch.arrow(c.point, c.point + c.normal * 1.2, 3.0 * px, NORMAL);
                batch.disk(c.point, 0.12, CONTACT);
            }
        }
        let mode = if self.swept { "swept" } else { "discrete" };
        let order = match self.order {
            Order::DeepestFirst => "deepest-first",
            Order::FirstFound => "first-found",
        };
        batch.text(vec2(16.0, 17.0), format!("slide: {mode}, {order}"), 22.0, Color::WHITE);
        batch.text(vec2(16.0, 15.8), "M mode  O order  C contacts  arrows: disk  J/L/I: box", 14.0, Color::GREY);
    }

    fn camera(&self) -> Camera {
        Camera::fit(WORLD.0, WORLD.1, 0.02)
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        let mut course = self.scene == Scene::Course;
        ui.checkbox(&mut course, "platformer course (P)");
        self.scene = if course { Scene::Course } else { Scene::Seams };
        ui.checkbox(&mut self.swept, "swept move (M)");
        let mut deepest = self.order == Order::DeepestFirst;
        ui.checkbox(&mut deepest, "deepest-first (O)");
        self.order = if deepest { Order::DeepestFirst } else { Order::FirstFound };
        ui.checkbox(&mut self.debug, "contacts and normals (C)");
    }

    fn stats(&self) -> String {
        if self.scene == Scene::Course {
            let c = &self.course;
            return format!(
                "character ({:.2}, {:.2}), carried {} steps, on one-way {} steps, crushed {}",
                c.body.0.x, c.body.0.y, c.rides, c.one_way_steps, c.crushed
            );
        }
        format!(
            "disk ({:.2}, {:.2}), slow steps {}, shots stopped {} / through {}",
            self.disk.0.x, self.disk.0.y, self.slow_steps, self.stopped, self.tunnelled
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(demo: &mut SlideDemo, steps: usize) {
        for _ in 0..steps {
            demo.step(&Input::default());
        }
    }

    #[test]
    fn autopilot_walks_the_whole_floor_without_snags() {
        let mut d = SlideDemo::seams();
        d.reset(0);
        let mut max_x: f32 = 0.0;
        for _ in 0..900 {
            d.step(&Input::default());
            max_x = max_x.max(d.disk().x);
        }
        assert!(max_x > 29.0, "the disk reached the plateau: {max_x}");
        assert_eq!(d.slow_steps(), 0);
        let (stopped, through) = d.shots();
        assert!(stopped > 0);
        assert_eq!(through, 0);
    }

    #[test]
    fn discrete_mode_lets_the_projectile_through() {
        let mut d = SlideDemo::seams();
        let mut input = Input::default();
        input.press_key(Key::Char('m'));
        d.step(&input);
        assert!(!d.swept());
        run(&mut d, 100);
        assert!(d.shots().1 > 0, "a 50 r/step discrete move tunnels");
    }

    #[test]
    fn first_found_snags_where_deepest_first_slides() {
        let go = |keys: &[char]| {
            let mut d = SlideDemo::seams();
            let mut input = Input::default();
            for &k in keys {
                input.press_key(Key::Char(k));
            }
            d.step(&input);
            run(&mut d, 300);
            d.slow_steps()
        };
        assert_eq!(go(&['m']), 0, "discrete, deepest-first");
        assert!(go(&['m', 'o']) > 20, "discrete, first-found snags");
    }

    #[test]
    fn box_stays_on_the_floor_and_moves() {
        let mut d = SlideDemo::seams();
        d.reset(0);
        let x0 = d.boxy().min().x;
        run(&mut d, 120);
        let b = d.boxy();
        assert!((b.min().y - FLOOR_Y).abs() < 1e-3, "{b:?}");
        assert!((b.min().x - x0).abs() > 1.0);
    }

    #[test]
    fn steered_box_crosses_misaligned_pieces_and_climbs_the_ramp() {
        for swept in [true, false] {
            let mut d = SlideDemo::seams();
            d.swept = swept;
            let mut right = Input::default();
            right.press_key(Key::Char('l'));
            let mut slow = 0;
            for _ in 0..400 {
                let x = d.boxy().min().x;
                d.step(&right);
                // On the flat stretch (tiles, then the misaligned pieces), every step keeps at
                // least half of the wanted motion.
                if d.boxy().max().x < 24.0 && d.boxy().min().x - x < 0.5 * BOX_WALK * DT {
                    slow += 1;
                }
            }
            let b = d.boxy();
            assert_eq!(slow, 0, "swept = {swept}");
            assert!(b.max().x > 30.9 && (b.min().y - 4.0).abs() < 1e-2, "on the plateau by the wall: {b:?}");
        }
    }

    #[test]
    fn same_seed_same_run() {
        let go = |seed| {
            let mut d = SlideDemo::seams();
            d.reset(seed);
            run(&mut d, 200);
            (d.disk(), d.boxy())
        };
        assert_eq!(go(2), go(2));
        assert_ne!(go(2), go(3));
    }
}
