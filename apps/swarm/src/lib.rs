//! `swarm`: thousands of moving boxes and disks over lore-broadphase's five indexes.
//!
//! Every step each body moves and bounces off the walls of [`WORLD`]; the chosen index is
//! updated and asked for every overlapping pair of boxes; pairs whose shapes really touch
//! colour both bodies [`TOUCHING`]. The grid and hash show their cells as a heat map
//! ([`heat_color`]: brighter = more proxies listed in the cell), the tree shows its nodes.
//! A ray leaves the mouse (headless: an autopilot point circling the centre) in a slowly
//! turning direction: all hits are marked [`RAY`], the first one [`FIRST_HIT`].
//!
//! Keys: 1 brute force, 2 sweep, 3 grid, 4 spatial hash, 5 tree; H toggles the heat map.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use lore_broadphase::{
    Aabb, Axis, BruteForce, Grid, ProxyId, QueryStats, Ray, RayHit, SpatialHash, SpatialIndex, Sweep, Tree,
    suggest_cell_size,
};
use lore_render::demo::{DT, Demo};
use lore_render::glam::{Vec2, vec2};
use lore_render::time::Instant;
use lore_render::{Batch, Camera, Color, Input, Key};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64; // std's panics in a browser

/// The world rectangle the bodies bounce in.
pub const WORLD: (Vec2, Vec2) = (Vec2::new(0.0, 0.0), Vec2::new(160.0, 90.0));
/// Number of bodies.
pub const BODIES: usize = 2500;
/// Colour of a body touching no other.
pub const RESTING: Color = Color::rgb(150, 175, 205);
/// Colour of a body touching another.
pub const TOUCHING: Color = Color::ORANGE;
/// Colour of the ray and of the marks on every box it crosses.
pub const RAY: Color = Color::YELLOW;
/// Colour of the mark on the first box hit.
pub const FIRST_HIT: Color = Color::RED;
/// Colour of tree node outlines at depth 0 (deeper nodes fade towards [`RESTING`]).
pub const TREE_NODE: Color = Color::GREEN;
/// How far the ray reaches.
pub const RAY_LENGTH: f32 = 70.0;

/// The heat-map colour of a cell listing `count` proxies: dark blue for one, through
/// purple, to bright magenta for eight or more.
#[must_use]
pub fn heat_color(count: u32) -> Color {
    let t = (count.saturating_sub(1) as f32 / 7.0).min(1.0);
    Color::rgb(35, 60, 110).lerp(Color::rgb(230, 70, 200), t)
}

/// The indexes the demo can switch between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexKind {
    /// [`BruteForce`].
    Brute,
    /// [`Sweep`] along x.
    Sweep,
    /// [`Grid`] over the world, cell size from [`suggest_cell_size`].
    Grid,
    /// [`SpatialHash`], same cell size.
    Hash,
    /// [`Tree`].
    Tree,
}

impl IndexKind {
    /// The kind named `name` ("brute", "sweep", "grid", "hash", "tree").
    #[must_use]
    pub fn from_name(name: &str) -> Option<IndexKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind's short name, as the index reports it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Brute => "brute",
            IndexKind::Sweep => "sweep",
            IndexKind::Grid => "grid",
            IndexKind::Hash => "hash",
            IndexKind::Tree => "tree",
        }
    }

    /// All kinds, in key order (1–5).
    pub const ALL: [IndexKind; 5] =
        [IndexKind::Brute, IndexKind::Sweep, IndexKind::Grid, IndexKind::Hash, IndexKind::Tree];
}

/// A body's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// An axis-aligned box with these half extents.
    Box(Vec2),
    /// A disk of this radius.
    Disk(f32),
}

/// One moving body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Centre.
    pub pos: Vec2,
    /// Velocity, world units per second.
    pub vel: Vec2,
    /// Shape.
    pub shape: Shape,
}

impl Body {
    /// The body's bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let half = match self.shape {
            Shape::Box(h) => h,
            Shape::Disk(r) => Vec2::splat(r),
        };
        Aabb::from_center(self.pos, half).expect("bodies stay finite inside the world")
    }

    /// Whether the two shapes (not just their boxes) overlap.
    #[must_use]
    pub fn touches(&self, other: &Body) -> bool {
        match (self.shape, other.shape) {
            (Shape::Box(_), Shape::Box(_)) => self.aabb().overlaps(&other.aabb()),
            (Shape::Disk(a), Shape::Disk(b)) => self.pos.distance_squared(other.pos) <= (a + b) * (a + b),
            (Shape::Box(h), Shape::Disk(r)) => disk_box(other.pos, r, self.pos, h),
            (Shape::Disk(r), Shape::Box(h)) => disk_box(self.pos, r, other.pos, h),
        }
    }
}

/// The disk–box test is lore-collide2d's contact query (touching is not a contact there).
fn disk_box(center: Vec2, r: f32, box_center: Vec2, half: Vec2) -> bool {
    let b = lore_collide2d::Aabb::covering(box_center - half, box_center + half);
    lore_collide2d::contact::contact_disk_aabb(center, r, &b).is_some()
}

/// The swarm demo.
#[derive(Debug)]
pub struct SwarmDemo {
    bodies: Vec<Body>,
    ids: Vec<ProxyId>,
    kind: IndexKind,
    index: Box<dyn SpatialIndex>,
    cell_size: f32,
    touching: Vec<bool>,
    pairs: Vec<(ProxyId, ProxyId)>,
    pair_stats: QueryStats,
    touching_pairs: usize,
    heat: bool,
    cells: Vec<(Aabb, u32)>,
    time: f32,
    ray: Option<Ray>,
    hits: Vec<RayHit>,
    first_hit: Option<RayHit>,
    /// Smoothed update + pairs time, milliseconds.
    frame_ms: f32,
    ray_us: f32,
}

impl Default for SwarmDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl SwarmDemo {
    /// A swarm on the grid, seeded with 0.
    #[must_use]
    pub fn new() -> Self {
        let mut demo = Self {
            bodies: Vec::new(),
            ids: Vec::new(),
            kind: IndexKind::Grid,
            index: Box::new(BruteForce::new()),
            cell_size: 2.0,
            touching: Vec::new(),
            pairs: Vec::new(),
            pair_stats: QueryStats::default(),
            touching_pairs: 0,
            heat: true,
            cells: Vec::new(),
            time: 0.0,
            ray: None,
            hits: Vec::new(),
            first_hit: None,
            frame_ms: 0.0,
            ray_us: 0.0,
        };
        demo.reset(0);
        demo
    }

    /// The bodies.
    #[must_use]
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Whether body `i` touches another body.
    #[must_use]
    pub fn is_touching(&self, i: usize) -> bool {
        self.touching[i]
    }

    /// The index in use.
    #[must_use]
    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// The cell size the grid and hash use (suggested from the bodies' boxes).
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The last ray cast, its first hit and all hits.
    #[must_use]
    pub fn ray(&self) -> (Option<Ray>, Option<RayHit>, &[RayHit]) {
        (self.ray, self.first_hit, &self.hits)
    }

    /// The overlapping box pairs of the last step.
    #[must_use]
    pub fn pairs(&self) -> &[(ProxyId, ProxyId)] {
        &self.pairs
    }

    /// Switches to another index, moving every body into a fresh one (ids are issued in body
    /// order, so they stay the same).
    pub fn set_kind(&mut self, kind: IndexKind) {
        self.kind = kind;
        let (lo, hi) = WORLD;
        let world = Aabb::new(lo, hi).expect("world is finite");
        let cell = self.cell_size;
        self.index = match kind {
            IndexKind::Brute => Box::new(BruteForce::new()),
            IndexKind::Sweep => Box::new(Sweep::new(Axis::X)),
            IndexKind::Grid => Box::new(Grid::covering(world, cell).expect("cell size is positive")),
            IndexKind::Hash => Box::new(SpatialHash::new(cell).expect("cell size is positive")),
            IndexKind::Tree => Box::new(Tree::with_margin(0.2).expect("margin is valid")),
        };
        self.ids = self.bodies.iter().map(|b| self.index.insert(b.aabb()).expect("index has room")).collect();
        self.refresh_pairs();
    }

    /// Asks the index for the pairs and marks the bodies that really touch.
    fn refresh_pairs(&mut self) {
        let start = Instant::now();
        self.pair_stats = self.index.pairs(&mut self.pairs);
        let ms = start.elapsed().as_secs_f32() * 1e3;
        self.frame_ms = if self.frame_ms == 0.0 { ms } else { 0.9 * self.frame_ms + 0.1 * ms };
        self.touching.clear();
        self.touching.resize(self.bodies.len(), false);
        self.touching_pairs = 0;
        for &(a, b) in &self.pairs {
            let (i, j) = (a.index() as usize, b.index() as usize);
            if self.bodies[i].touches(&self.bodies[j]) {
                self.touching[i] = true;
                self.touching[j] = true;
                self.touching_pairs += 1;
            }
        }
        self.cells.clear();
        if self.heat {
            let cells = &mut self.cells;
            self.index.debug_view(&mut |r, w| cells.push((r, w)));
        }
    }

    fn cast(&mut self, origin: Vec2) {
        let dir = Vec2::from_angle(0.35 * self.time + 0.3);
        let Ok(ray) = Ray::new(origin, dir, RAY_LENGTH) else {
            self.ray = None;
            return;
        };
        let start = Instant::now();
        let (first, _) = self.index.raycast(&ray, &mut |_| true);
        self.ray_us = start.elapsed().as_secs_f32() * 1e6;
        self.index.raycast_all(&ray, &mut |_| true, &mut self.hits);
        self.ray = Some(ray);
        self.first_hit = first;
    }
}

impl Demo for SwarmDemo {
    fn name(&self) -> &'static str {
        "swarm"
    }

    fn description(&self) -> &'static str {
        "2,500 moving boxes and disks over five spatial indexes (keys 1-5), heat map (H), ray from the mouse"
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("1 / 2 / 3 / 4 / 5", "brute force / sweep / grid / spatial hash / tree"),
            ("H", "show or hide the heat map"),
            ("mouse pointer", "where the ray starts (untouched, a point circles the centre)"),
        ]
    }

    fn reset(&mut self, seed: u64) {
        // A reset keeps the index kind chosen.
        let mut rng = Pcg64::seed_from_u64(seed);
        let (lo, hi) = WORLD;
        self.bodies = (0..BODIES)
            .map(|i| {
                // Mostly small bodies, a few large ones: mixed sizes.
                let big = i % 100 == 0;
                let size = if big { rng.random_range(2.0..3.0) } else { rng.random_range(0.2..0.65) };
                let shape = if rng.random_range(0.0..1.0) < 0.5 {
                    Shape::Disk(size)
                } else {
                    Shape::Box(vec2(size, size * rng.random_range(0.5..1.5)))
                };
                let pos = vec2(rng.random_range(lo.x + 4.0..hi.x - 4.0), rng.random_range(lo.y + 4.0..hi.y - 4.0));
                let speed = if big { 1.5 } else { 6.0 };
                let vel =
                    Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * rng.random_range(0.3..1.0) * speed;
                Body { pos, vel, shape }
            })
            .collect();
        self.cell_size = suggest_cell_size(self.bodies.iter().map(Body::aabb)).map_or(2.0, |a| a.cell_size);
        self.time = 0.0;
        self.frame_ms = 0.0;
        let kind = self.kind;
        self.set_kind(kind);
    }

    fn step(&mut self, input: &Input) {
        for (k, kind) in IndexKind::ALL.iter().enumerate() {
            let key = char::from(b'1' + k as u8);
            if input.key_pressed(Key::Char(key)) {
                self.set_kind(*kind);
            }
        }
        if input.key_pressed(Key::Char('h')) {
            self.heat = !self.heat;
        }
        self.time += DT;
        let (lo, hi) = WORLD;
        for b in &mut self.bodies {
            b.pos += b.vel * DT;
            let half = b.aabb().size() * 0.5;
            for axis in 0..2 {
                if b.pos[axis] - half[axis] < lo[axis] && b.vel[axis] < 0.0
                    || b.pos[axis] + half[axis] > hi[axis] && b.vel[axis] > 0.0
                {
                    b.vel[axis] = -b.vel[axis];
                }
            }
        }
        let start = Instant::now();
        for (b, &id) in self.bodies.iter().zip(&self.ids) {
            self.index.update(id, b.aabb()).expect("ids stay live");
        }
        let update_ms = start.elapsed().as_secs_f32() * 1e3;
        self.refresh_pairs();
        self.frame_ms += 0.1 * update_ms;
        let origin = if input.mouse_in_view {
            input.mouse
        } else {
            // Autopilot: a point circling the middle of the world.
            let c = 0.5 * (lo + hi);
            c + vec2(-40.0, -18.0) + 10.0 * Vec2::from_angle(0.5 * self.time)
        };
        self.cast(origin);
    }

    fn draw(&self, batch: &mut Batch) {
        let px = batch.pixel();
        let (lo, hi) = WORLD;
        batch.rect_outline(lo - 2.0 * px, hi + 2.0 * px, 2.0 * px, Color::GREY);
        if self.heat {
            // The index's own view of itself, taken in the last step: cells (weight = proxies
            // listed) or tree nodes (weight = depth).
            for &(r, w) in &self.cells {
                match self.kind {
                    IndexKind::Tree => {
                        let c = TREE_NODE.lerp(RESTING, (w as f32 / 14.0).min(1.0)).with_alpha(170);
                        batch.rect_outline(r.min(), r.max(), 1.5 * px, c);
                    }
                    _ => batch.rect(r.min(), r.max(), heat_color(w)),
                }
            }
        }
        for (i, b) in self.bodies.iter().enumerate() {
            let color = if self.touching[i] { TOUCHING } else { RESTING };
            match b.shape {
                Shape::Box(h) => batch.rect(b.pos - h, b.pos + h, color),
                Shape::Disk(r) => batch.disk(b.pos, r, color),
            }
        }
        if let Some(ray) = self.ray {
            batch.line(ray.origin(), ray.at(ray.max_t()), 2.5 * px, RAY);
            batch.disk(ray.origin(), 6.0 * px, RAY);
            for h in &self.hits {
                batch.disk(ray.at(h.t), 4.0 * px, RAY);
            }
            if let Some(h) = self.first_hit {
                batch.disk(ray.at(h.t), 8.0 * px, FIRST_HIT);
            }
        }
    }

    fn camera(&self) -> Camera {
        Camera::fit(WORLD.0, WORLD.1, 0.02)
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        let mut kind = self.kind;
        for (k, (label, option)) in
            ["brute force", "sweep (x)", "grid", "spatial hash", "tree"].iter().zip(IndexKind::ALL).enumerate()
        {
            ui.radio_value(&mut kind, option, format!("{} {label}", k + 1));
        }
        if kind != self.kind {
            self.set_kind(kind);
        }
        ui.checkbox(&mut self.heat, "heat map / tree nodes (H)");
        ui.label(format!("cell size {:.2} (suggested)", self.cell_size));
        ui.label(format!(
            "pairs: {} boxes, {} shapes touching\nvisited {}, candidates {}, false positives {}",
            self.pairs.len(),
            self.touching_pairs,
            self.pair_stats.visited,
            self.pair_stats.candidates,
            self.pair_stats.false_positives()
        ));
    }

    fn stats(&self) -> String {
        format!(
            "{}: {} bodies, {} box pairs, {} touching, update+pairs {:.2} ms, ray {:.1} µs ({} hits)",
            self.index.name(),
            self.bodies.len(),
            self.pairs.len(),
            self.touching_pairs,
            self.frame_ms,
            self.ray_us,
            self.hits.len()
        )
    }
}

/// The demo, for the showcase and the binary (starts on the grid).
#[must_use]
pub fn demo() -> Box<dyn Demo> {
    Box::new(SwarmDemo::new())
}

/// The demo starting on another index.
#[must_use]
pub fn demo_with(kind: IndexKind) -> Box<dyn Demo> {
    let mut demo = SwarmDemo::new();
    demo.set_kind(kind);
    Box::new(demo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_finds_the_same_pairs() {
        let mut demo = SwarmDemo::new();
        for _ in 0..30 {
            demo.step(&Input::default());
        }
        let want = demo.pairs().to_vec();
        assert!(want.len() > 100, "a swarm this dense has many pairs: {}", want.len());
        for kind in IndexKind::ALL {
            demo.set_kind(kind);
            assert_eq!(demo.pairs(), want, "{kind:?}");
            assert_eq!(IndexKind::from_name(kind.name()), Some(kind));
        }
    }

    #[test]
    fn heat_colors_rise_with_count() {
        assert_eq!(heat_color(1), Color::rgb(35, 60, 110));
        assert_eq!(heat_color(8), Color::rgb(230, 70, 200));
        assert_eq!(heat_color(50), heat_color(8));
        assert!(heat_color(4).r > heat_color(2).r);
    }
}
