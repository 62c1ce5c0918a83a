//! Every demo the showcase offers, one line each, alphabetical by name. Each crate's demo app
//! adds its line here (and its package to Cargo.toml).

use lore_render::Demo;

/// All demos, in menu order.
#[must_use]
pub fn all() -> Vec<Box<dyn Demo>> {
    vec![Box::new(crate::bounce::Bounce::new())]
}
