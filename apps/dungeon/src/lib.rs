//! # lore-dungeon
//!
//! A small top-down action game made of every lore crate, and an autopilot that plays it.
//!
//! - [`level`]: a lock-and-key grid maze from lore-mazegen as a tile map, with the solver's
//!   route through every key to the exit.
//! - [`game`]: the deterministic game core ([`Game`]): the player slides along the tile faces
//!   (lore-collide2d), enemies and bullets live in a lore-broadphase `World` and in
//!   lore-allocators `HandleArray`s, bullets hit pixel-perfectly (lore-pixel-collide's CPU
//!   twin), entity kinds come from `assets/kinds.xml` through lore-reflect ([`kinds`]).
//! - [`autopilot`]: plays through the same [`lore_render::Input`] a person gives.
//!
//! ```
//! use lore_dungeon::{autopilot::Autopilot, game::Game, kinds::Kinds, level::LevelConfig};
//!
//! let mut game = Game::new(LevelConfig { seed: 3, ..LevelConfig::default() }, Kinds::shipped())?;
//! let mut pilot = Autopilot::new();
//! for _ in 0..60 {
//!     let input = pilot.input(&mut game);
//!     game.step(&input)?;
//! }
//! assert_eq!(game.frame(), 60);
//! # Ok::<(), lore_dungeon::game::GameError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The guide (docs/dungeon.md in the repository) too: its example is the tour's first step.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/dungeon.md")]
struct GuideDoctests;

#[cfg(feature = "audio")]
#[cfg_attr(docsrs, doc(cfg(feature = "audio")))]
pub mod audio;
pub mod autopilot;
pub mod demo;
pub mod game;
pub mod kinds;
pub mod level;
pub mod sound;

pub use game::Game;

/// The dungeon with the default level and the shipped kinds, autopilot on (so it moves
/// headless too): the showcase's entry.
#[must_use]
pub fn demo() -> Box<dyn lore_render::Demo> {
    Box::new(demo::Dungeon::new(level::LevelConfig::default(), kinds::Kinds::shipped(), true))
}

/// [`demo()`] with its sound recorded: the showcase writes the recording out after a headless
/// run with [`demo::write_recording`] (`OUT/dungeon.wav`).
///
/// # Errors
/// [`sound::SoundError`] when a shipped effect does not decode.
pub fn demo_with_recording() -> Result<(Box<dyn lore_render::Demo>, demo::Recording), sound::SoundError> {
    let mut d = demo::Dungeon::new(level::LevelConfig::default(), kinds::Kinds::shipped(), true);
    let rec = d.recording_sound()?;
    Ok((Box::new(d), rec))
}
