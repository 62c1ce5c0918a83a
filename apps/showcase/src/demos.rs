//! Every demo the showcase offers, one line each, alphabetical by name. Each crate's demo app
//! adds its line here (and its package to Cargo.toml).

use lore_render::Demo;

/// All demos, in menu order.
#[must_use]
pub fn all() -> Vec<Box<dyn Demo>> {
    all_recording().0
}

/// All demos, in menu order, with the dungeon and the platformer recording their sound mix
/// (for `dungeon.wav` and `platformer.wav`), by demo name. A game whose sound assets cannot be
/// decoded runs silent and has no recording.
#[must_use]
pub fn all_recording() -> crate::Recorded {
    let mut recordings = Vec::new();
    let dungeon = match lore_dungeon::demo_with_recording() {
        Ok((demo, recording)) => {
            recordings.push(("dungeon", recording));
            demo
        }
        Err(e) => {
            eprintln!("lore-showcase: dungeon sound: {e}; the dungeon runs silent");
            lore_dungeon::demo()
        }
    };
    let platformer = match lore_platformer::demo_with_recording() {
        Ok((demo, recording)) => {
            recordings.push(("platformer", recording));
            demo
        }
        Err(e) => {
            eprintln!("lore-showcase: platformer sound: {e}; the platformer runs silent");
            lore_platformer::demo()
        }
    };
    let demos = vec![
        lore_alloc::demo(),
        Box::new(crate::bounce::Bounce::new()),
        dungeon,
        lore_editor::demo(),
        lore_maze::demo(),
        lore_pixels::demo(),
        platformer,
        lore_slide::demo(),
        lore_swarm::demo(),
    ];
    (demos, recordings)
}
