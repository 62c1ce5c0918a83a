//! `bounce`: shapes bouncing in a box, the built-in demo that exercises every kind of batch
//! primitive (disks, rings, rectangles, polygons, lines, arrows, a sprite, labels).

use lore_render::demo::{DT, Demo};
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Camera, Color, Input, Key, MouseButton, Texture};

/// Half size of the box the shapes bounce in, world units.
pub const HALF_BOX: Vec2 = Vec2::new(16.0, 9.0);
const GRAVITY: f32 = -9.81;

/// A bouncing body: a disk, a square or a triangle.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Centre.
    pub pos: Vec2,
    /// Velocity.
    pub vel: Vec2,
    /// Bounding radius.
    pub radius: f32,
    /// Kind: 0 disk, 1 square, 2 triangle.
    pub kind: u8,
    /// Rotation in radians.
    pub angle: f32,
    /// Fill colour.
    pub color: Color,
}

/// Bouncing shapes under gravity with perfectly elastic walls.
#[derive(Debug)]
pub struct Bounce {
    bodies: Vec<Body>,
    bounces: u64,
    steps: u64,
    gravity: bool,
    checker: Texture,
}

impl Default for Bounce {
    fn default() -> Self {
        Self::new()
    }
}

/// A tiny seeded generator (SplitMix64) so the demo has no dependency beyond lore-render.
fn splitmix(state: &mut u64) -> f32 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}

impl Bounce {
    /// A new demo (call `reset` before stepping).
    #[must_use]
    pub fn new() -> Self {
        let mut rgba = Vec::with_capacity(8 * 8 * 4);
        for y in 0..8 {
            for x in 0..8 {
                let on = (x + y) % 2 == 0;
                rgba.extend_from_slice(if on { &[255, 255, 255, 255] } else { &[40, 40, 40, 255] });
            }
        }
        Self {
            bodies: Vec::new(),
            bounces: 0,
            steps: 0,
            gravity: true,
            checker: Texture::from_rgba(8, 8, rgba).expect("8x8 RGBA is a valid texture"),
        }
    }

    /// The bodies.
    #[must_use]
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Total energy per unit mass (kinetic + potential): conserved by the walls and gravity up
    /// to integration error.
    #[must_use]
    pub fn energy(&self) -> f32 {
        let g = if self.gravity { -GRAVITY } else { 0.0 };
        self.bodies.iter().map(|b| 0.5 * b.vel.length_squared() + g * (b.pos.y + HALF_BOX.y)).sum()
    }
}

impl Demo for Bounce {
    fn name(&self) -> &'static str {
        "bounce"
    }

    fn description(&self) -> &'static str {
        "Shapes bouncing in a box: the renderer's own demo. Click to add a disk; G toggles gravity."
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[("left click", "add a disk at the pointer"), ("G", "gravity on or off")]
    }

    fn reset(&mut self, seed: u64) {
        let mut s = seed;
        self.bodies.clear();
        self.bounces = 0;
        self.steps = 0;
        for i in 0..12u8 {
            let radius = 0.6 + 1.2 * splitmix(&mut s);
            let pos = vec2(
                (splitmix(&mut s) * 2.0 - 1.0) * (HALF_BOX.x - radius),
                (splitmix(&mut s) * 2.0 - 1.0) * (HALF_BOX.y - radius),
            );
            let vel = vec2(splitmix(&mut s) * 16.0 - 8.0, splitmix(&mut s) * 16.0 - 8.0);
            self.bodies.push(Body { pos, vel, radius, kind: i % 3, angle: 0.0, color: Color::palette(usize::from(i)) });
        }
    }

    fn step(&mut self, input: &Input) {
        if input.key_pressed(Key::Char('g')) {
            self.gravity = !self.gravity;
        }
        if input.button_pressed(MouseButton::Left) && input.mouse_in_view {
            let i = self.bodies.len();
            self.bodies.push(Body {
                pos: input.mouse.clamp(-HALF_BOX + 1.0, HALF_BOX - 1.0),
                vel: Vec2::ZERO,
                radius: 0.8,
                kind: 0,
                angle: 0.0,
                color: Color::palette(i),
            });
        }
        let g = if self.gravity { GRAVITY } else { 0.0 };
        for b in &mut self.bodies {
            // Semi-implicit Euler, then reflect off the walls.
            b.vel.y += g * DT;
            b.pos += b.vel * DT;
            b.angle += b.vel.x * DT / b.radius;
            for axis in 0..2 {
                let limit = HALF_BOX[axis] - b.radius;
                if b.pos[axis].abs() > limit {
                    b.pos[axis] = b.pos[axis].signum() * limit;
                    b.vel[axis] = -b.vel[axis];
                    self.bounces += 1;
                }
            }
        }
        self.steps += 1;
    }

    fn draw(&self, batch: &mut Batch) {
        let px = batch.pixel();
        // The box: a checkered sprite as the floor texture, then the walls.
        batch.sprite(
            &self.checker,
            vec2(0.0, -HALF_BOX.y - 0.5),
            vec2(2.0 * HALF_BOX.x, 1.0),
            0.0,
            Color::rgb(90, 100, 120),
        );
        batch.rect_outline(-HALF_BOX, HALF_BOX, 3.0 * px, Color::GREY);
        for b in &self.bodies {
            let rot = Vec2::from_angle(b.angle);
            match b.kind {
                0 => {
                    batch.disk(b.pos, b.radius, b.color);
                    batch.circle(b.pos, b.radius, 2.0 * px, Color::WHITE);
                    batch.line(b.pos, b.pos + rot * b.radius, 2.0 * px, Color::WHITE);
                }
                1 => {
                    let h = b.radius * std::f32::consts::FRAC_1_SQRT_2;
                    let corners = [vec2(-h, -h), vec2(h, -h), vec2(h, h), vec2(-h, h)].map(|c| b.pos + rot.rotate(c));
                    batch.polygon(&corners, b.color);
                    batch.polygon_outline(&corners, 2.0 * px, Color::WHITE);
                }
                _ => {
                    let tri: Vec<Vec2> = (0..3)
                        .map(|k| b.pos + b.radius * Vec2::from_angle(b.angle + k as f32 * std::f32::consts::TAU / 3.0))
                        .collect();
                    batch.polygon(&tri, b.color);
                    batch.polygon_outline(&tri, 2.0 * px, Color::WHITE);
                }
            }
            batch.arrow(b.pos, b.pos + b.vel * 0.15, 2.0 * px, Color::YELLOW.with_alpha(200));
        }
        batch.text(vec2(0.0, HALF_BOX.y + 0.8), "bounce", 22.0, Color::WHITE);
    }

    fn camera(&self) -> Camera {
        Camera::fit(-HALF_BOX - vec2(0.0, 1.0), HALF_BOX + vec2(0.0, 1.0), 0.04)
    }

    fn ui(&mut self, ui: &mut lore_render::egui::Ui) {
        ui.checkbox(&mut self.gravity, "gravity (G)");
        ui.label(format!("{} bodies", self.bodies.len()));
    }

    fn stats(&self) -> String {
        format!("{} bodies, {} wall bounces, energy {:.1}", self.bodies.len(), self.bounces, self.energy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_stay_in_the_box() {
        let mut demo = Bounce::new();
        demo.reset(7);
        for _ in 0..600 {
            demo.step(&Input::default());
            for b in demo.bodies() {
                assert!(b.pos.x.abs() <= HALF_BOX.x - b.radius + 1e-4);
                assert!(b.pos.y.abs() <= HALF_BOX.y - b.radius + 1e-4);
            }
        }
    }

    #[test]
    fn same_seed_same_run() {
        let run = |seed| {
            let mut demo = Bounce::new();
            demo.reset(seed);
            for _ in 0..100 {
                demo.step(&Input::default());
            }
            demo.bodies().to_vec()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn energy_roughly_conserved() {
        let mut demo = Bounce::new();
        demo.reset(11);
        let e0 = demo.energy();
        for _ in 0..300 {
            demo.step(&Input::default());
        }
        let e1 = demo.energy();
        assert!((e1 - e0).abs() / e0 < 0.1, "{e0} -> {e1}");
    }

    #[test]
    fn click_adds_a_disk() {
        let mut demo = Bounce::new();
        demo.reset(1);
        let mut input = Input::default();
        input.mouse = vec2(2.0, 3.0);
        input.mouse_in_view = true;
        input.press_button(MouseButton::Left);
        demo.step(&input);
        assert_eq!(demo.bodies().len(), 13);
    }
}
