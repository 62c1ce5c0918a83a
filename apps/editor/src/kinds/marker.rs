use lore_reflect::Reflect;
use lore_render::glam::Vec2;

/// What a marker stands for.
#[derive(Reflect, Clone, Debug, PartialEq, Default)]
pub enum Role {
    /// Where the player starts.
    #[default]
    Start,
    /// Where the level ends.
    Goal,
    /// A numbered checkpoint.
    Checkpoint(u32),
    /// A spawn point for a kind of thing, every so many seconds.
    Spawn {
        /// The kind spawned.
        kind: String,
        /// Seconds between spawns.
        every: f32,
    },
}

/// A labelled point of interest.
#[derive(Reflect, Clone, Debug, PartialEq)]
#[reflect(register)]
pub struct Marker {
    /// Where it is, world units.
    pub position: Vec2,
    /// What it is.
    pub role: Role,
    /// A note for level designers.
    #[reflect(default)]
    pub note: Option<String>,
    /// Ring color.
    #[reflect(color)]
    pub color: [f32; 4],
}

impl Default for Marker {
    fn default() -> Self {
        Self { position: Vec2::ZERO, role: Role::Start, note: None, color: [0.9, 0.4, 0.85, 1.0] }
    }
}
