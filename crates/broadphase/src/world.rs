//! A static index and a moving index side by side.

use crate::id::ProxyId;
use crate::index::SpatialIndex;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use lore_geom::Aabb;

/// Static and moving boxes in two indexes, so static boxes cost nothing per frame.
///
/// The static index is touched only when a static box is added, moved or removed (build it
/// once, e.g. a [`Tree`](crate::Tree) after [`Tree::rebuild`](crate::Tree::rebuild) or a
/// [`Grid`](crate::Grid)); the moving index is updated every frame. [`World::pairs`] reports
/// moving×moving pairs and moving×static pairs, never static×static.
///
/// Ids come from two separate indexes, so a static id and a moving id may be equal: keep them
/// apart (the two pair lists do).
///
/// ```
/// use lore_broadphase::{Aabb, Grid, SpatialIndex, Tree, World, glam::vec2};
/// # fn main() -> Result<(), lore_broadphase::Error> {
/// let mut world = World::new(Tree::with_margin(0.0)?, Grid::new(vec2(0.0, 0.0), 2.0, 32, 32)?);
/// for x in 0..30 {
///     world.statics_mut().insert(Aabb::new(vec2(x as f32, 0.0), vec2(x as f32 + 1.0, 1.0))?)?;
/// }
/// let player = world.movers_mut().insert(Aabb::from_center(vec2(5.5, 1.4), vec2(0.4, 0.4))?)?;
/// let (mut moving, mut mixed) = (Vec::new(), Vec::new());
/// world.pairs(&mut moving, &mut mixed);
/// assert!(moving.is_empty());
/// assert_eq!(mixed.len(), 1); // the player rests on tile 5
/// assert_eq!(mixed[0].0, player);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct World<S, M> {
    statics: S,
    movers: M,
    movers_ids: Vec<ProxyId>,
    movers_boxes: Vec<Aabb>,
}

impl<S: SpatialIndex, M: SpatialIndex> World<S, M> {
    /// A world over the two given (usually empty) indexes.
    pub fn new(statics: S, movers: M) -> Self {
        Self { statics, movers, movers_ids: Vec::new(), movers_boxes: Vec::new() }
    }

    /// The static index.
    pub fn statics(&self) -> &S {
        &self.statics
    }

    /// The static index, to insert, move, remove or query static boxes.
    pub fn statics_mut(&mut self) -> &mut S {
        &mut self.statics
    }

    /// The moving index.
    pub fn movers(&self) -> &M {
        &self.movers
    }

    /// The moving index, to insert, update, remove or query moving boxes (many at once with
    /// [`SpatialIndex::update_many`] or [`SpatialIndex::update_many_with`]).
    pub fn movers_mut(&mut self) -> &mut M {
        &mut self.movers
    }

    /// Sets how many threads both indexes may use for their pairs
    /// ([`SpatialIndex::set_threads`]): the movers' pair search and sort split across them
    /// once there are enough movers; the statics' batch query stays on one thread.
    ///
    /// # Errors
    /// [`Error::BadConfig`](crate::Error::BadConfig) for 0 (neither index changed).
    #[cfg(feature = "parallel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "parallel")))]
    pub fn set_threads(&mut self, threads: usize) -> Result<(), crate::Error> {
        self.movers.set_threads(threads)?;
        self.statics.set_threads(threads)
    }

    /// The pairs of this frame: `moving` gets the moving×moving pairs (as
    /// [`SpatialIndex::pairs`]), `mixed` the `(moving id, static id)` pairs, sorted. Both are
    /// replaced. The returned statistics add up both parts.
    pub fn pairs(&mut self, moving: &mut Vec<(ProxyId, ProxyId)>, mixed: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        let stats = self.movers.pairs(moving);
        self.movers.ids_and_boxes(&mut self.movers_ids, &mut self.movers_boxes);
        // One batch query: the static index does no per-frame work of its own, and the answers
        // come grouped by mover (ascending ids), each group sorted, i.e. already in pair order.
        stats.plus(self.statics.pairs_with(&self.movers_ids, &self.movers_boxes, mixed))
    }
}
