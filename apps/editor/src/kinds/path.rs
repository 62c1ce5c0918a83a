use lore_reflect::Reflect;
use lore_render::glam::Vec2;

/// A polyline through points: a patrol route, a rail, a wall.
#[derive(Reflect, Clone, Debug, PartialEq)]
#[reflect(register)]
pub struct Path {
    /// The points, world units.
    pub points: Vec<Vec2>,
    /// Line width, world units.
    #[reflect(range = 0.05..=2.0, step = 0.01)]
    pub width: f32,
    /// Whether the last point joins the first.
    pub closed: bool,
    /// Line color.
    #[reflect(color)]
    pub color: [f32; 4],
}

impl Default for Path {
    fn default() -> Self {
        Self {
            points: vec![Vec2::new(-2.0, 0.0), Vec2::new(0.0, 1.5), Vec2::new(2.0, 0.0)],
            width: 0.25,
            closed: false,
            color: [0.85, 0.85, 0.9, 1.0],
        }
    }
}
