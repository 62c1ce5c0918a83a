use lore_reflect::Reflect;
use lore_render::glam::Vec2;

/// A star with any number of points.
#[derive(Reflect, Clone, Debug, PartialEq)]
#[reflect(register)]
pub struct Star {
    /// Centre, world units.
    pub position: Vec2,
    /// Number of points.
    #[reflect(range = 3..=12)]
    pub points: u32,
    /// Outer radius, world units.
    #[reflect(range = 0.2..=6.0, step = 0.05)]
    pub radius: f32,
    /// Inner radius as a fraction of the outer one.
    #[reflect(range = 0.1..=1.0, step = 0.01)]
    pub inner: f32,
    /// Rotation in radians.
    #[reflect(range = -std::f64::consts::PI..=std::f64::consts::PI, step = 0.01)]
    pub angle: f32,
    /// Fill color.
    #[reflect(color)]
    pub color: [f32; 4],
}

impl Default for Star {
    fn default() -> Self {
        Self { position: Vec2::ZERO, points: 5, radius: 2.0, inner: 0.45, angle: 0.0, color: [0.95, 0.8, 0.25, 1.0] }
    }
}
