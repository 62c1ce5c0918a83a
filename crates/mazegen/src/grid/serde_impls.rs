//! Serde support (feature `serde`) for [`GridTree`]: `{ width, height, open }` with the raw
//! passage words of [`GridTree::words`], read back only when they are a spanning tree of the
//! grid.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::tree::{GridTree, check};
use crate::sets::DisjointSets;

#[derive(Serialize)]
#[serde(rename = "GridTree")]
struct TreeRef<'a> {
    width: u32,
    height: u32,
    open: &'a [u64],
}

#[derive(Deserialize)]
#[serde(rename = "GridTree")]
struct TreeRecord {
    width: u32,
    height: u32,
    open: Vec<u64>,
}

impl Serialize for GridTree {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TreeRef { width: self.width(), height: self.height(), open: self.words() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GridTree {
    /// Reads a tree and checks it: the size within [`MAX_NODES`](crate::MAX_NODES), one bit
    /// per possible edge, no passage through the outer wall, and the passages joining every
    /// cell without a loop.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let TreeRecord { width, height, open } = TreeRecord::deserialize(deserializer)?;
        check(width, height, 0.0).map_err(D::Error::custom)?;
        let cells = width as usize * height as usize;
        let words = (2 * cells).div_ceil(64);
        if open.len() != words {
            return Err(D::Error::custom(format_args!(
                "malformed grid tree: {} words of passages for a {width} x {height} grid, expected {words}",
                open.len()
            )));
        }
        let tree = GridTree::from_words(width, height, open);
        // Every set bit must be a passage between two cells of the grid.
        let inside = |edge: usize| {
            let cell = edge / 2;
            cell < cells
                && if edge.is_multiple_of(2) {
                    cell % width as usize + 1 < width as usize
                } else {
                    cell / (width as usize) + 1 < height as usize
                }
        };
        for (i, &word) in tree.words().iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let edge = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !inside(edge) {
                    return Err(D::Error::custom(format_args!(
                        "malformed grid tree: passage {edge} leads out of the {width} x {height} grid"
                    )));
                }
            }
        }
        let mut sets = DisjointSets::new(cells);
        let mut passages = 0usize;
        for [a, b] in tree.passages() {
            passages += 1;
            if !sets.union(a, b) {
                return Err(D::Error::custom(format_args!(
                    "malformed grid tree: the passages close a loop (at cells {a} and {b})"
                )));
            }
        }
        if passages + 1 != cells {
            return Err(D::Error::custom(format_args!(
                "malformed grid tree: {passages} passages leave cells unreachable ({} needed)",
                cells - 1
            )));
        }
        Ok(tree)
    }
}
