//! # lore-platformer
//!
//! A side-scroller made of lore crates, and an autopilot that plays it.
//!
//! - [`level`]: a lore-mazegen side-scroller level (beatable by construction under the
//!   character's movement limits) and the route its reachability check's moves give.
//! - [`game`]: the deterministic game core ([`Game`]): the player is lore-collide2d's character
//!   controller (box or capsule), enemies and shots live in a lore-broadphase `World` and in
//!   lore-allocators `HandleArray`s, shots hit pixel-perfectly (lore-pixel-collide), entity
//!   kinds come from `assets/kinds.xml` through lore-reflect ([`kinds`]), sound effects are
//!   `.bpk` assets ([`sound`]).
//! - [`autopilot`]: plays through the same [`lore_render::Input`] a person gives.
//!
//! ```
//! use lore_platformer::{autopilot::Autopilot, game::Game, kinds::Kinds, level::LevelConfig};
//!
//! let mut game = Game::new(LevelConfig { seed: 3, ..LevelConfig::default() }, Kinds::shipped())?;
//! let mut pilot = Autopilot::new();
//! for _ in 0..60 {
//!     let input = pilot.input(&game);
//!     game.step(&input)?;
//! }
//! assert_eq!(game.frame(), 60);
//! # Ok::<(), lore_platformer::game::GameError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

// The README's example is compiled and run as a doctest, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The guide (docs/platformer.md in the repository) too: its example is the tour's first step.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/platformer.md")]
struct GuideDoctests;

pub mod autopilot;
pub mod demo;
pub mod game;
pub mod kinds;
pub mod level;
pub mod sound;

pub use game::Game;

/// The platformer with the default level and the shipped kinds, autopilot on (so it moves
/// headless too): the showcase's entry.
#[must_use]
pub fn demo() -> Box<dyn lore_render::Demo> {
    Box::new(demo::Platformer::new(level::LevelConfig::default(), kinds::Kinds::shipped(), true))
}

/// [`demo()`] with its sound recorded: the showcase writes the recording out after a headless
/// run with [`demo::write_recording`] (`OUT/platformer.wav`).
///
/// # Errors
/// [`sound::SoundError`] when a shipped effect does not decode.
pub fn demo_with_recording() -> Result<(Box<dyn lore_render::Demo>, demo::Recording), sound::SoundError> {
    let mut d = demo::Platformer::new(level::LevelConfig::default(), kinds::Kinds::shipped(), true);
    let rec = d.recording_sound()?;
    Ok((Box::new(d), rec))
}
