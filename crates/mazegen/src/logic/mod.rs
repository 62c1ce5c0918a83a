//! Logic mazes (post 1): random points, their Delaunay triangulation as the planar base graph, a
//! random spanning tree, zones by subtree size, keys in deep leaves, cycles inside zones.

pub(crate) mod delaunay;
pub(crate) mod spanning;
pub(crate) mod zones;
