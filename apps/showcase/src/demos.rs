//! Every demo the showcase offers, one line each, alphabetical by name. Each crate's demo app
//! adds its line here (and its package to Cargo.toml).

use lore_render::Demo;

/// All demos, in menu order.
#[must_use]
pub fn all() -> Vec<Box<dyn Demo>> {
    all_recording().0
}

/// All demos, in menu order, with the dungeon recording its sound mix (for `dungeon.wav`).
/// When its sound assets cannot be decoded the dungeon runs silent and the recording is `None`.
#[must_use]
pub fn all_recording() -> crate::Recorded {
    let (dungeon, recording) = match lore_dungeon::demo_with_recording() {
        Ok((demo, recording)) => (demo, Some(recording)),
        Err(e) => {
            eprintln!("lore-showcase: dungeon sound: {e}; the dungeon runs silent");
            (lore_dungeon::demo(), None)
        }
    };
    let demos = vec![
        lore_alloc::demo(),
        Box::new(crate::bounce::Bounce::new()),
        dungeon,
        lore_editor::demo(),
        lore_maze::demo(),
        lore_pixels::demo(),
        lore_slide::demo(),
        lore_swarm::demo(),
    ];
    (demos, recording)
}
