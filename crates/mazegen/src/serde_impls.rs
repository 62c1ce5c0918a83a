//! Serde support (feature `serde`) for [`Config`]: written by its derive, read back through
//! [`Config::validate`] (`#[serde(try_from)]` on the type, with the unchecked record here).
//!
//! The other value types (the maze and its parts, the solution and measures, grid cells)
//! derive their serde impls beside their definitions; [`GridTree`](crate::GridTree) is checked
//! in `grid`.

use serde::Deserialize;

use crate::Error;
use crate::config::{Config, Shape};
use crate::tree_algorithm::TreeAlgorithm;

/// [`Config`]'s fields, as written, before they are checked.
#[derive(Deserialize)]
#[serde(rename = "Config")]
pub(crate) struct ConfigRecord {
    shape: Shape,
    zones: u16,
    cycles: u32,
    horizontal_bias: f32,
    root: Option<u32>,
    tree: TreeAlgorithm,
    balance_goal: f32,
    balance_tries: u16,
    seed: u64,
}

impl TryFrom<ConfigRecord> for Config {
    type Error = Error;
    fn try_from(r: ConfigRecord) -> Result<Self, Error> {
        let ConfigRecord { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed } = r;
        let config = Config { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed };
        config.validate()?;
        Ok(config)
    }
}
