//! Serde support (feature `serde`) for [`Config`]: read back through [`Config::validate`].
//!
//! The other value types (the maze and its parts, the solution and measures, grid cells)
//! derive their serde impls beside their definitions; [`GridTree`](crate::GridTree) is checked
//! in `grid`.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::config::{Config, Shape, TreeAlgorithm};

/// [`Config`]'s fields, as written.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Config")]
struct ConfigRecord {
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

impl Serialize for Config {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Config { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed } = *self;
        ConfigRecord { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Config {
    /// Reads a config and checks it with [`Config::validate`]: a config out of range is an
    /// error naming the field, as it would be from [`generate`](crate::generate).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let ConfigRecord { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed } =
            ConfigRecord::deserialize(deserializer)?;
        let config = Config { shape, zones, cycles, horizontal_bias, root, tree, balance_goal, balance_tries, seed };
        config.validate().map_err(D::Error::custom)?;
        Ok(config)
    }
}
