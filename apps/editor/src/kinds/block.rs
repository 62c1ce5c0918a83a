use lore_reflect::Reflect;
use lore_render::glam::Vec2;

/// A turned rectangle.
#[derive(Reflect, Clone, Debug, PartialEq)]
#[reflect(register)]
pub struct Block {
    /// Centre, world units.
    pub position: Vec2,
    /// Width and height, world units.
    pub size: Vec2,
    /// Rotation in radians, counter-clockwise.
    #[reflect(range = -std::f64::consts::PI..=std::f64::consts::PI, step = 0.01)]
    pub angle: f32,
    /// Fill color.
    #[reflect(color)]
    pub color: [f32; 4],
}

impl Default for Block {
    fn default() -> Self {
        Self { position: Vec2::ZERO, size: Vec2::new(4.0, 2.0), angle: 0.0, color: [0.35, 0.8, 0.45, 1.0] }
    }
}
