//! The showcase: every lore demo in one window (a menu switches between them), or, without a
//! display or with `--headless`, each demo rendered to `<out>/<name>.png`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod bounce;
pub mod demos;
#[cfg(target_arch = "wasm32")]
pub mod web;

use lore_render::{Demo, RunArgs};

/// The showcase's command line: the shared flags plus `--demo`.
#[derive(clap::Parser, Debug)]
#[command(name = "lore-showcase", version, about)]
pub struct Cli {
    /// The flags every lore demo app shares.
    #[command(flatten)]
    pub run: RunArgs,
    /// Run only this demo (repeatable); default: all of them.
    #[arg(long = "demo", value_name = "NAME")]
    pub demos: Vec<String>,
    /// List the demos and exit.
    #[arg(long)]
    pub list: bool,
    /// Print the graphics adapter that would be used and exit (non-zero when none is found).
    #[arg(long)]
    pub probe: bool,
}

/// The demos named in `names` (all when empty), in menu order.
///
/// # Errors
/// A message naming the unknown demo and the known ones.
pub fn select(names: &[String]) -> Result<Vec<Box<dyn Demo>>, String> {
    select_recording(names).map(|(demos, _)| demos)
}

/// Demos to run and the sound recordings of those among them that record their mix (the
/// dungeon and the platformer), by demo name.
pub type Recorded = (Vec<Box<dyn Demo>>, Vec<(&'static str, lore_dungeon::demo::Recording)>);

/// Like [`select`], with the sound recordings of the games among the demos.
///
/// # Errors
/// A message naming the unknown demo and the known ones.
pub fn select_recording(names: &[String]) -> Result<Recorded, String> {
    let (all, recordings) = demos::all_recording();
    let known: Vec<&str> = all.iter().map(|d| d.name()).collect();
    if let Some(bad) = names.iter().find(|n| !known.contains(&n.as_str())) {
        return Err(format!("unknown demo `{bad}`; known demos: {}", known.join(", ")));
    }
    let wanted = |name: &str| names.is_empty() || names.iter().any(|n| n == name);
    let recordings = recordings.into_iter().filter(|(name, _)| wanted(name)).collect();
    Ok((all.into_iter().filter(|d| wanted(d.name())).collect(), recordings))
}
