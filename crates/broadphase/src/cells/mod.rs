//! Cell indexes: the bounded uniform [`Grid`] and the unbounded [`SpatialHash`].
//!
//! Both lay a uniform grid of square cells over the world and list each proxy in every cell
//! its box touches; they differ only in where a cell's list lives. The grid keeps a
//! `width × height` array (boxes outside it are clamped into the edge cells); the hash maps
//! cell `(x, y)` to bucket `(x·1640531513 ⊕ y·2654435789) mod p` of a table of prime size `p`,
//! so the world has no bounds and memory follows the number of boxes, at the price of
//! unrelated cells sharing a bucket (false positives, rejected by the box test).
//!
//! The lists are brought up to date lazily, when a query follows a change (the "reindex").
//! A full build is a counting pass, a prefix sum and a fill, so the lists of one bucket sit
//! together in one array of slots (8 bytes an entry in a grid). `pairs` builds them with room
//! to grow in each bucket and from then on patches them: boxes that move a little keep their
//! cells, so only the entries of boxes whose cell range changed move (a few percent of the
//! boxes a frame in a typical scene), and box queries and rays read the patched lists as they
//! are. Patching gives way to a full build when more than half the entries would move, a box
//! turns big, or buckets that outgrew their room have doubled the lists' size. A grid with
//! many more cells than entries is built sparsely for `pairs` instead (the prefix sum runs
//! over the touched buckets only).
//! A proxy met twice in one query (it spans several cells, or the hash put two of its cells
//! in one bucket) is reported once: box queries and `pairs` take an entry only in the first
//! cell it shares with the query or partner, rays use a per-proxy query stamp. A box spanning
//! more than [`BIG_CELLS`] cells is kept aside in a short list instead, so one huge box cannot
//! flood the table: every query tests that list, and `pairs` finds a big box's partners with
//! one box query over its cells.
//!
//! The files stack as: `map` (cell geometry) ← `lists` (the shared core: entries, state,
//! bookkeeping) ← `build` ← `patched` ← `query` ← `pair_pass` and `ray_walk` ← `grid` and
//! `hash` (each a [`CellMap`](map::CellMap) and a public index over the core) ← this file.

/// The [`SpatialIndex`](crate::SpatialIndex) impl of a cell index: a newtype over [`Cells`](lists::Cells)
/// (its map aside, `Grid` and `SpatialHash` answer every call the same way).
macro_rules! spatial_index_over_cells {
    ($index:ty) => {
        impl $crate::index::SpatialIndex for $index {
            fn name(&self) -> &'static str {
                self.0.name()
            }

            fn len(&self) -> usize {
                self.0.slots.len()
            }

            fn insert(&mut self, aabb: $crate::Aabb) -> core::result::Result<$crate::ProxyId, $crate::Error> {
                self.0.insert(aabb)
            }

            fn remove(&mut self, id: $crate::ProxyId) -> core::result::Result<$crate::Aabb, $crate::Error> {
                self.0.remove(id)
            }

            // Called once per moving box and frame, often from the caller's crate: inlined there.
            #[inline]
            fn update(&mut self, id: $crate::ProxyId, aabb: $crate::Aabb) -> core::result::Result<(), $crate::Error> {
                self.0.update(id, aabb)
            }

            fn update_many(
                &mut self,
                ids: &[$crate::ProxyId],
                boxes: &[$crate::Aabb],
            ) -> core::result::Result<(), $crate::Error> {
                $crate::index::check_lengths(ids, boxes)?;
                self.0.update_many(ids, |i| boxes[i])
            }

            fn update_many_with(
                &mut self,
                ids: &[$crate::ProxyId],
                boxes: &(dyn Fn(usize) -> $crate::Aabb + Sync),
            ) -> core::result::Result<(), $crate::Error> {
                self.0.update_many(ids, boxes)
            }

            fn aabb(&self, id: $crate::ProxyId) -> Option<$crate::Aabb> {
                self.0.slots.get(id)
            }

            fn clear(&mut self) {
                self.0.clear();
            }

            fn ids(&self) -> alloc::vec::Vec<$crate::ProxyId> {
                self.0.ids()
            }

            fn ids_and_boxes(
                &self,
                ids: &mut alloc::vec::Vec<$crate::ProxyId>,
                boxes: &mut alloc::vec::Vec<$crate::Aabb>,
            ) {
                self.0.slots.ids_and_boxes(ids, boxes);
            }

            fn query_aabb(
                &mut self,
                area: &$crate::Aabb,
                out: &mut alloc::vec::Vec<$crate::ProxyId>,
            ) -> $crate::QueryStats {
                self.0.query_aabb(area, out)
            }

            fn query_aabbs(
                &mut self,
                areas: &[$crate::Aabb],
                out: &mut alloc::vec::Vec<(usize, $crate::ProxyId)>,
            ) -> $crate::QueryStats {
                self.0.query_aabbs(areas, out)
            }

            fn pairs_with(
                &mut self,
                ids: &[$crate::ProxyId],
                areas: &[$crate::Aabb],
                out: &mut alloc::vec::Vec<($crate::ProxyId, $crate::ProxyId)>,
            ) -> $crate::QueryStats {
                self.0.pairs_with(ids, areas, out)
            }

            fn k_nearest(
                &mut self,
                point: glam::Vec2,
                k: usize,
                max_distance: f32,
                filter: &mut dyn FnMut($crate::ProxyId) -> bool,
                out: &mut alloc::vec::Vec<$crate::Nearest>,
            ) -> core::result::Result<$crate::QueryStats, $crate::Error> {
                self.0.k_nearest(point, k, max_distance, filter, out)
            }

            fn cast_aabb(
                &mut self,
                aabb: &$crate::Aabb,
                motion: glam::Vec2,
                filter: &mut dyn FnMut($crate::ProxyId) -> bool,
            ) -> core::result::Result<(Option<$crate::CastHit>, $crate::QueryStats), $crate::Error> {
                self.0.cast(aabb, motion, filter, None)
            }

            fn cast_aabb_all(
                &mut self,
                aabb: &$crate::Aabb,
                motion: glam::Vec2,
                filter: &mut dyn FnMut($crate::ProxyId) -> bool,
                out: &mut alloc::vec::Vec<$crate::CastHit>,
            ) -> core::result::Result<$crate::QueryStats, $crate::Error> {
                Ok(self.0.cast(aabb, motion, filter, Some(out))?.1)
            }

            fn raycast(
                &mut self,
                ray: &$crate::Ray,
                filter: &mut dyn FnMut($crate::ProxyId) -> bool,
            ) -> (Option<$crate::RayHit>, $crate::QueryStats) {
                $crate::hits::first_hit(|stats, visit| self.0.walk_ray(ray, stats, visit), filter)
            }

            fn raycast_all(
                &mut self,
                ray: &$crate::Ray,
                filter: &mut dyn FnMut($crate::ProxyId) -> bool,
                out: &mut alloc::vec::Vec<$crate::RayHit>,
            ) -> $crate::QueryStats {
                $crate::hits::all_hits(|stats, visit| self.0.walk_ray(ray, stats, visit), filter, out)
            }

            fn pairs(&mut self, out: &mut alloc::vec::Vec<($crate::ProxyId, $crate::ProxyId)>) -> $crate::QueryStats {
                self.0.pairs(out, $crate::pairs::Order::Ids)
            }

            fn pairs_unsorted(
                &mut self,
                out: &mut alloc::vec::Vec<($crate::ProxyId, $crate::ProxyId)>,
            ) -> $crate::QueryStats {
                self.0.pairs(out, $crate::pairs::Order::Found)
            }

            #[cfg(feature = "parallel")]
            fn set_threads(&mut self, threads: usize) -> core::result::Result<(), $crate::Error> {
                self.0.threads.set(threads)
            }

            #[cfg(feature = "parallel")]
            fn threads(&self) -> usize {
                self.0.threads.get()
            }

            fn debug_view(&mut self, visit: &mut dyn FnMut($crate::Aabb, u32)) {
                self.0.debug_view(visit);
            }
        }
    };
}

mod build;
mod grid;
mod hash;
mod lists;
mod map;
mod near;
mod pair_pass;
mod patched;
mod query;
mod ray_walk;
#[cfg(test)]
mod tests;

pub use grid::Grid;
pub use hash::SpatialHash;
