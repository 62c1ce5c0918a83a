//! Per-query statistics, for tuning cell sizes and comparing indexes.

/// What one query (or one `pairs` call) cost.
///
/// `visited` counts the structure an index walked: grid or hash cells, tree nodes, sorted
/// entries scanned by the sweep, boxes by brute force. `candidates` counts box tests made
/// on user boxes; `hits` the answers reported. Their difference is the false positives: work
/// the structure could not avoid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QueryStats {
    /// Cells, tree nodes or entries visited.
    pub visited: u64,
    /// Exact box (or ray) tests made on candidates.
    pub candidates: u64,
    /// Answers reported.
    pub hits: u64,
}

impl QueryStats {
    /// Candidates that were tested and rejected.
    #[must_use]
    pub fn false_positives(&self) -> u64 {
        self.candidates.saturating_sub(self.hits)
    }

    /// The sum of two tallies.
    #[must_use]
    pub fn plus(self, other: QueryStats) -> QueryStats {
        QueryStats {
            visited: self.visited + other.visited,
            candidates: self.candidates + other.candidates,
            hits: self.hits + other.hits,
        }
    }
}
