//! Every demo the showcase offers, one line each, alphabetical by name. Each crate's demo app
//! adds its line here (and its package to Cargo.toml).

use lore_render::Demo;

/// All demos, in menu order.
#[must_use]
pub fn all() -> Vec<Box<dyn Demo>> {
    vec![
        lore_alloc::demo(),
        Box::new(crate::bounce::Bounce::new()),
        lore_dungeon::demo(),
        lore_editor::demo(),
        lore_maze::demo(),
        lore_pixels::demo(),
        lore_slide::demo(),
        lore_swarm::demo(),
    ]
}
