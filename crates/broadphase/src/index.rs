//! The one trait every index implements.

use crate::error::Error;
use crate::id::ProxyId;
use crate::near::{self, CastHit, Nearest};
use crate::ray_hit::RayHit;
use crate::stats::QueryStats;
use alloc::vec::Vec;
use glam::Vec2;
use lore_geom::{Aabb, Ray};

/// A spatial index of boxes under [`ProxyId`]s.
///
/// Every implementation answers every query exactly as [`BruteForce`](crate::BruteForce) does, in the same order
/// ([`SpatialIndex::pairs_unsorted`] alone gives the same set in the index's own order).
/// The trait is object safe (`Box<dyn SpatialIndex>`), so an index can be chosen at run time.
pub trait SpatialIndex: core::fmt::Debug {
    /// A short lowercase name ("grid", "hash", "tree", "sweep", "brute").
    fn name(&self) -> &'static str;

    /// Number of live proxies.
    fn len(&self) -> usize;

    /// Whether the index holds no proxy.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a box; returns its new id.
    ///
    /// # Errors
    /// [`Error::Full`] past `u32::MAX - 1` live proxies.
    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error>;

    /// Removes a proxy; returns its box.
    ///
    /// # Errors
    /// [`Error::StaleId`] when `id` is not live here.
    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error>;

    /// Moves a proxy to a new box.
    ///
    /// # Errors
    /// [`Error::StaleId`] when `id` is not live here.
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error>;

    /// Moves many proxies at once: each `ids[i]` to `boxes[i]`, as [`SpatialIndex::update`] on
    /// each in turn (an id listed twice ends at its last box). The grid, the hash and the sweep
    /// check and write the boxes on several threads with the `parallel` feature (as
    /// [`SpatialIndex::set_threads`] allows, from about 16k ids per thread), so a frame of many
    /// moving boxes is one call instead of one per box.
    ///
    /// # Errors
    /// [`Error::StaleId`] for the first id (in order) that is not live here, and
    /// [`Error::BadConfig`] when `ids` and `boxes` differ in length; either way no box has
    /// moved.
    fn update_many(&mut self, ids: &[ProxyId], boxes: &[Aabb]) -> Result<(), Error> {
        check_lengths(ids, boxes)?;
        self.update_many_with(ids, &|i| boxes[i])
    }

    /// Moves many proxies at once, each `ids[i]` to the box `boxes(i)`: as
    /// [`SpatialIndex::update_many`], with the boxes made by a closure, which the grid, the
    /// hash and the sweep call on several threads with the `parallel` feature, so the work of
    /// making the boxes (from positions, say) is split too. `boxes` is called once for each
    /// `i`, in no set order, and only once every id has been checked. A panic in `boxes`
    /// reaches the caller once the other threads are done; the boxes made until then may have
    /// moved.
    ///
    /// ```
    /// use lore_broadphase::{Aabb, Grid, SpatialIndex, glam::{Vec2, vec2}};
    /// # fn main() -> Result<(), lore_broadphase::Error> {
    /// let mut grid = Grid::new(vec2(0.0, 0.0), 2.0, 64, 64)?;
    /// let mut centers: Vec<Vec2> = (0..100).map(|i| vec2(i as f32, 10.0)).collect();
    /// let ids = centers.iter().map(|&c| grid.insert(Aabb::from_center(c, Vec2::splat(0.4))?)).collect::<Result<Vec<_>, _>>()?;
    /// centers.iter_mut().for_each(|c| c.y += 0.5);
    /// grid.update_many_with(&ids, &|i| Aabb::from_center(centers[i], Vec2::splat(0.4)).unwrap())?;
    /// assert_eq!(grid.aabb(ids[7]), Some(Aabb::from_center(vec2(7.0, 10.5), Vec2::splat(0.4))?));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`Error::StaleId`] for the first id (in order) that is not live here (no box has
    /// moved, `boxes` was not called).
    fn update_many_with(&mut self, ids: &[ProxyId], boxes: &(dyn Fn(usize) -> Aabb + Sync)) -> Result<(), Error> {
        if let Some(&id) = ids.iter().find(|&&id| self.aabb(id).is_none()) {
            return Err(Error::StaleId(id));
        }
        for (i, &id) in ids.iter().enumerate() {
            self.update(id, boxes(i))?;
        }
        Ok(())
    }

    /// The current box of a live proxy.
    fn aabb(&self, id: ProxyId) -> Option<Aabb>;

    /// Removes every proxy (all ids go stale), keeping allocations.
    fn clear(&mut self);

    /// The live ids, ascending.
    fn ids(&self) -> Vec<ProxyId>;

    /// Every live proxy's id, ascending, into `ids` and its box into `boxes` at the same
    /// position (both replaced): [`SpatialIndex::ids`] and [`SpatialIndex::aabb`] in one pass
    /// into reused vectors. [`World::pairs`](crate::World::pairs) reads its moving index this way each frame.
    fn ids_and_boxes(&self, ids: &mut Vec<ProxyId>, boxes: &mut Vec<Aabb>) {
        ids.clear();
        boxes.clear();
        for id in self.ids() {
            if let Some(aabb) = self.aabb(id) {
                ids.push(id);
                boxes.push(aabb);
            }
        }
    }

    /// Every proxy whose box overlaps `area`, ascending, into `out` (replaced).
    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats;

    /// Many box queries at once: for each `areas[i]`, every proxy whose box overlaps it, as
    /// `(i, id)`, sorted by `i` then id, into `out` (replaced). The same answers as
    /// [`SpatialIndex::query_aabb`] on each area in turn; the grid and the hash reindex once and
    /// skip the per-query set-up. [`World::pairs`](crate::World::pairs) queries its static index this way.
    fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
        out.clear();
        let mut found = Vec::new();
        let mut stats = QueryStats::default();
        for (i, area) in areas.iter().enumerate() {
            stats = stats.plus(self.query_aabb(area, &mut found));
            out.extend(found.iter().map(|&id| (i, id)));
        }
        stats
    }

    /// The pairs between boxes kept elsewhere and this index: for each `areas[i]`, `(ids[i], id)`
    /// for every proxy `id` here whose box overlaps it, grouped by `i` in order and sorted by
    /// `id` within each group, into `out` (replaced). Unpaired entries of the longer slice are
    /// ignored. The same answers as [`SpatialIndex::query_aabbs`] with each `i` replaced by
    /// `ids[i]`; [`World::pairs`](crate::World::pairs) finds its (mover, static) pairs this way, so a grid can write
    /// them directly.
    fn pairs_with(&mut self, ids: &[ProxyId], areas: &[Aabb], out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        let areas = &areas[..areas.len().min(ids.len())];
        let mut found = Vec::new();
        let stats = self.query_aabbs(areas, &mut found);
        out.clear();
        out.extend(found.iter().map(|&(i, id)| (ids[i], id)));
        stats
    }

    /// Every proxy whose box contains `point`, ascending, into `out` (replaced).
    ///
    /// # Errors
    /// As [`Aabb::point`]: NaN, infinite or out-of-range points are refused.
    fn query_point(&mut self, point: Vec2, out: &mut Vec<ProxyId>) -> Result<QueryStats, Error> {
        let area = Aabb::point(point)?;
        Ok(self.query_aabb(&area, out))
    }

    /// The first box along `ray` among those `filter` accepts (smallest entry `t`, ties to the
    /// smaller id). `filter` is called only for boxes the ray touches.
    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats);

    /// Every box along `ray` that `filter` accepts, sorted by `t` then id, into `out` (replaced).
    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats;

    /// The `k` proxies nearest to `point` among those `filter` accepts and no farther than
    /// `max_distance` (inclusive; `f32::INFINITY` for no bound), nearest first, ties to the
    /// smaller id, into `out` (replaced). The distance to a box is the distance to its closest
    /// point (0 inside). Like rstar's `nearest_neighbor_iter(..).take(k)`, with a bound.
    ///
    /// `filter` is asked only about boxes that would make the answer, so a filter that skips
    /// the querying entity itself costs nothing for the others. The tree searches best-first,
    /// the grid and the hash look in growing squares around the point; the sweep and brute
    /// force test every box.
    ///
    /// ```
    /// use lore_broadphase::{Aabb, SpatialIndex, Tree, glam::vec2};
    /// # fn main() -> Result<(), lore_broadphase::Error> {
    /// let mut tree = Tree::new();
    /// let ids: Vec<_> = (0..10)
    ///     .map(|i| tree.insert(Aabb::from_center(vec2(i as f32 * 10.0, 0.0), vec2(1.0, 1.0))?))
    ///     .collect::<Result<_, _>>()?;
    /// let mut near = Vec::new();
    /// tree.k_nearest(vec2(21.0, 0.0), 2, f32::INFINITY, &mut |_| true, &mut near)?;
    /// assert_eq!(near.iter().map(|n| n.id).collect::<Vec<_>>(), [ids[2], ids[3]]);
    /// assert_eq!(near[0].distance_squared, 0.0); // inside the box around x = 20
    /// assert_eq!(near[1].distance_squared, 64.0); // 8 units to the box around x = 30
    /// // Within 5 units only the first one is near enough.
    /// tree.k_nearest(vec2(21.0, 0.0), 2, 5.0, &mut |_| true, &mut near)?;
    /// assert_eq!(near.len(), 1);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`Error::Geom`] for a NaN, infinite or out-of-range point, [`Error::BadQuery`] for a
    /// NaN or negative `max_distance`.
    fn k_nearest(
        &mut self,
        point: Vec2,
        k: usize,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<Nearest>,
    ) -> Result<QueryStats, Error> {
        let max_d2 = near::nearest_args(point, max_distance)?;
        let (mut ids, mut boxes) = (Vec::new(), Vec::new());
        self.ids_and_boxes(&mut ids, &mut boxes);
        Ok(near::brute_k_nearest(ids.into_iter().zip(boxes), point, k, max_d2, filter, out))
    }

    /// The proxy nearest to `point` that `filter` accepts, within `max_distance`: the first
    /// answer of [`SpatialIndex::k_nearest`] with `k = 1`.
    ///
    /// # Errors
    /// As [`SpatialIndex::k_nearest`].
    fn nearest(
        &mut self,
        point: Vec2,
        max_distance: f32,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<Nearest>, QueryStats), Error> {
        let mut out = Vec::with_capacity(1);
        let stats = self.k_nearest(point, 1, max_distance, filter, &mut out)?;
        Ok((out.first().copied(), stats))
    }

    /// The first box that `aabb`, moving along `motion`, touches among those `filter`
    /// accepts: the smallest time of impact `t` in `0..=1` (`t = 0` for a box overlapping at
    /// the start), ties to the smaller id. The broad phase of a character controller or a
    /// fast bullet: the box swept from its start to `start + motion`, exactly.
    ///
    /// The tree descends only into nodes the swept box reaches before the best hit so far; the
    /// grid and the hash query the cells along the path a cell at a time and stop after the
    /// step holding the first hit; the sweep and brute force test every box.
    ///
    /// ```
    /// use lore_broadphase::{Aabb, Grid, SpatialIndex, glam::vec2};
    /// # fn main() -> Result<(), lore_broadphase::Error> {
    /// let mut grid = Grid::new(vec2(0.0, 0.0), 4.0, 32, 32)?;
    /// let wall = grid.insert(Aabb::new(vec2(20.0, 0.0), vec2(21.0, 40.0))?)?;
    /// let _far = grid.insert(Aabb::new(vec2(60.0, 0.0), vec2(61.0, 40.0))?)?;
    /// let player = Aabb::from_center(vec2(10.0, 10.0), vec2(1.0, 1.0))?;
    /// let (hit, _stats) = grid.cast_aabb(&player, vec2(20.0, 0.0), &mut |_| true)?;
    /// let hit = hit.expect("the wall is in the way");
    /// assert_eq!((hit.id, hit.t), (wall, 0.45)); // 9 of the 20 units, then the sides touch
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`Error::BadQuery`] for a motion that is not finite.
    fn cast_aabb(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
    ) -> Result<(Option<CastHit>, QueryStats), Error> {
        near::cast_args(motion)?;
        let (mut ids, mut boxes) = (Vec::new(), Vec::new());
        self.ids_and_boxes(&mut ids, &mut boxes);
        Ok(near::brute_cast(ids.into_iter().zip(boxes), aabb, motion, filter, None))
    }

    /// Every box that `aabb`, moving along `motion`, touches among those `filter` accepts, in
    /// hit order (by `t`, ties to the smaller id), into `out` (replaced): what a bullet passes
    /// through, or every contact a character controller must consider.
    ///
    /// # Errors
    /// [`Error::BadQuery`] for a motion that is not finite.
    fn cast_aabb_all(
        &mut self,
        aabb: &Aabb,
        motion: Vec2,
        filter: &mut dyn FnMut(ProxyId) -> bool,
        out: &mut Vec<CastHit>,
    ) -> Result<QueryStats, Error> {
        near::cast_args(motion)?;
        let (mut ids, mut boxes) = (Vec::new(), Vec::new());
        self.ids_and_boxes(&mut ids, &mut boxes);
        Ok(near::brute_cast(ids.into_iter().zip(boxes), aabb, motion, filter, Some(out)).1)
    }

    /// Every overlapping pair `(a, b)`, `a < b`, sorted, each once, into `out` (replaced): the
    /// broad phase's reindex + query in one call.
    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats;

    /// The pairs of [`SpatialIndex::pairs`] (each `(a, b)` with `a < b`, each once) in the order
    /// the index finds them instead of sorted: the same set, without the sort that `pairs`
    /// ends with (in a grid of moving boxes, about an eighth of the instructions of a frame).
    /// For a caller that does not need id order, e.g. one that looks each pair up in a hash
    /// map of contacts.
    ///
    /// The order is deterministic: it depends only on the calls made to the index since it
    /// was created, so the same calls give the same order on every run and machine. It differs
    /// between kinds of index and changes as boxes move. Brute force gives id order.
    fn pairs_unsorted(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.pairs(out)
    }

    /// Sets how many threads [`SpatialIndex::pairs`] and [`SpatialIndex::pairs_unsorted`] may
    /// use (by default, with the `parallel` feature, `std::thread::available_parallelism()`).
    ///
    /// The answers do not depend on it: the same pairs in the same order (for
    /// `pairs_unsorted` too) on any number of threads. The grid, the hash, the tree and the
    /// sweep split their pair search and their pair sort, and the grid, the hash and the sweep
    /// their [`SpatialIndex::update_many`] and [`SpatialIndex::update_many_with`]; a pass too
    /// small to gain from another thread (per thread: about 32k cell entries in the grid and
    /// the hash, 8k tree nodes, 4k sweep entries, 16k moved ids) stays on fewer, so a few
    /// hundred boxes cost what they cost on one. Brute force, queries and rays use one thread.
    ///
    /// The threads other than the caller's come from a pool kept for the process: started by
    /// the first pass that needs them; between passes each spins a short while (about 16k
    /// spin-loop hints, some 0.4 ms on a 2.6 GHz core), so the passes of one call follow
    /// each other without a wake-up, then sleeps.
    ///
    /// # Errors
    /// [`Error::BadConfig`] for 0.
    #[cfg(feature = "parallel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "parallel")))]
    fn set_threads(&mut self, threads: usize) -> Result<(), Error> {
        crate::par::Threads::default().set(threads)
    }

    /// The thread count [`SpatialIndex::set_threads`] set (1 for brute force).
    #[cfg(feature = "parallel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "parallel")))]
    fn threads(&self) -> usize {
        1
    }

    /// Shows the index's structure for debugging and heat maps: calls `visit(rect, weight)` for
    /// each occupied grid or hash cell (weight = proxies listed there) or each tree node
    /// (weight = depth). Brute force and the sweep show nothing.
    fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32));
}

/// [`SpatialIndex::update_many`]'s refusal of slices of different lengths.
pub(crate) fn check_lengths(ids: &[ProxyId], boxes: &[Aabb]) -> Result<(), Error> {
    if ids.len() == boxes.len() { Ok(()) } else { Err(Error::BadConfig("update_many needs as many boxes as ids")) }
}
