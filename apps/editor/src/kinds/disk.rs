use lore_reflect::Reflect;
use lore_render::glam::Vec2;

/// A filled disk.
#[derive(Reflect, Clone, Debug, PartialEq)]
#[reflect(register)]
pub struct Disk {
    /// Centre, world units.
    pub position: Vec2,
    /// Radius, world units.
    #[reflect(range = 0.2..=6.0, step = 0.05)]
    pub radius: f32,
    /// Fill color (red, green, blue, alpha in 0..=1).
    #[reflect(color)]
    pub color: [f32; 4],
}

impl Default for Disk {
    fn default() -> Self {
        Self { position: Vec2::ZERO, radius: 1.5, color: [0.3, 0.6, 0.95, 1.0] }
    }
}
