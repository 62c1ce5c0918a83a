//! Triangle meshes as collision objects: vertices snapped first, coverage by exact integer edge
//! functions.
//!
//! A mesh's triangles are posed like a sprite (its local origin goes to `pose.position`), then
//! every vertex is snapped to 1/16 pixel ([`MESH_SUBPIXEL_BITS`] = 4, the least sub-pixel
//! precision Vulkan allows), so a GPU with 4 or more sub-pixel bits sees exactly the vertices the
//! CPU twin sees. A pixel is covered when its centre is strictly inside a triangle; a centre
//! exactly on an edge is decided by the top-left rule on the CPU. The GPU's compute pass (which
//! answers every query with a mesh in it) evaluates that same rule with the same integers, so it
//! equals the CPU twin on
//! every pixel, edge centres included (the rasterizer's own tie rule, which Vulkan leaves open,
//! never decides).

use glam::Vec2;

use crate::{Error, Mask, PixelRect, Pose};

/// Sub-pixel bits of snapped mesh vertices.
pub const MESH_SUBPIXEL_BITS: u32 = 4;
const SUB: f64 = (1u32 << MESH_SUBPIXEL_BITS) as f64;

/// Triangles in the mesh's own units (y-down like collision space, any winding).
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    triangles: Vec<[Vec2; 3]>,
}

impl Mesh {
    /// A mesh from triangles.
    ///
    /// # Errors
    /// [`Error::BadPose`] when a vertex is not finite or beyond ±[`MAX_POSITION`](crate::MAX_POSITION).
    pub fn new(triangles: Vec<[Vec2; 3]>) -> Result<Self, Error> {
        if triangles.iter().flatten().any(|v| !v.is_finite() || v.abs().max_element() > crate::MAX_POSITION) {
            return Err(Error::BadPose("mesh vertex not finite or too far out"));
        }
        Ok(Self { triangles })
    }

    /// A convex polygon fanned into triangles.
    ///
    /// # Errors
    /// As [`Mesh::new`].
    pub fn polygon(points: &[Vec2]) -> Result<Self, Error> {
        let tris = (2..points.len()).map(|i| [points[0], points[i - 1], points[i]]).collect();
        Self::new(tris)
    }

    /// The triangles.
    pub fn triangles(&self) -> &[[Vec2; 3]] {
        &self.triangles
    }
}

/// A posed mesh: snapped vertices relative to an integer anchor, in 1/16 pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshPlacement {
    /// Pixels that may be covered.
    pub bounds: PixelRect,
    /// Vertices in 1/16 pixel relative to `(bounds.x0, bounds.y0)`, three per triangle.
    pub vertices: Vec<[i32; 2]>,
}

impl MeshPlacement {
    /// Poses and snaps `mesh`.
    ///
    /// # Errors
    /// [`Error::BadPose`] for a bad pose or a posed mesh wider or taller than
    /// [`MAX_EXTENT`](crate::MAX_EXTENT).
    pub fn new(mesh: &Mesh, pose: Pose) -> Result<Self, Error> {
        let Pose { position, rotation, scale } = pose;
        if !(position.is_finite() && rotation.is_finite() && scale.is_finite()) {
            return Err(Error::BadPose("not finite"));
        }
        if position.abs().max_element() > crate::MAX_POSITION || scale.abs().max_element() > crate::MAX_SCALE {
            return Err(Error::BadPose("position or scale out of range"));
        }
        let (s, c) = f64::from(rotation).sin_cos();
        let world: Vec<(f64, f64)> = mesh
            .triangles
            .iter()
            .flatten()
            .map(|v| {
                let (x, y) = (f64::from(v.x) * f64::from(scale.x), f64::from(v.y) * f64::from(scale.y));
                let (px, py) = (f64::from(position.x) + c * x - s * y, f64::from(position.y) + s * x + c * y);
                ((px * SUB).round(), (py * SUB).round())
            })
            .collect();
        if world.is_empty() {
            return Ok(Self { bounds: PixelRect::default(), vertices: Vec::new() });
        }
        let min_x = world.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let max_x = world.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = world.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_y = world.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let bounds = PixelRect {
            x0: (min_x / SUB).floor() as i32,
            y0: (min_y / SUB).floor() as i32,
            x1: (max_x / SUB).ceil() as i32 + 1,
            y1: (max_y / SUB).ceil() as i32 + 1,
        };
        if bounds.width() > crate::MAX_EXTENT || bounds.height() > crate::MAX_EXTENT {
            return Err(Error::BadPose("posed mesh spans more than MAX_EXTENT pixels"));
        }
        let (ax, ay) = (f64::from(bounds.x0) * SUB, f64::from(bounds.y0) * SUB);
        let vertices = world.iter().map(|&(x, y)| [(x - ax) as i32, (y - ay) as i32]).collect();
        Ok(Self { bounds, vertices })
    }

    /// The triangles as the coverage rule sees them: degenerate ones dropped, the others
    /// ordered so that their doubled area is positive (clockwise on the y-down screen), with a
    /// flag per edge `(v0, v1)`, `(v1, v2)`, `(v2, v0)` telling whether it is a top or left edge.
    /// Both the CPU twin and the GPU's exact-area pass use exactly these.
    pub(crate) fn oriented_triangles(&self) -> impl Iterator<Item = ([(i64, i64); 3], [bool; 3])> + '_ {
        self.vertices.chunks_exact(3).filter_map(|t| {
            let mut v = [t[0], t[1], t[2]].map(|p| (i64::from(p[0]), i64::from(p[1])));
            let area = (v[1].0 - v[0].0) * (v[2].1 - v[0].1) - (v[1].1 - v[0].1) * (v[2].0 - v[0].0);
            if area == 0 {
                return None;
            }
            if area < 0 {
                v.swap(1, 2);
            }
            // With y down and positive area, the triangle runs clockwise on screen. An edge is
            // "top" when horizontal and going right, "left" when going up (dy < 0).
            let top_left =
                [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])].map(|(a, b)| (a.1 == b.1 && b.0 > a.0) || b.1 < a.1);
            Some((v, top_left))
        })
    }

    /// Rasterizes on the CPU: pixel centres strictly inside a triangle, ties by the top-left
    /// rule (exact integer edge functions). The GPU's exact-area pass
    /// ([`QueryBatch::area`](crate::QueryBatch::area)) evaluates the same rule per pixel.
    pub fn rasterize(&self) -> Mask {
        let mut mask = Mask::empty(self.bounds);
        let half = 1i64 << (MESH_SUBPIXEL_BITS - 1);
        for (v, top_left) in self.oriented_triangles() {
            let edges = [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])];
            let lo_x = v.iter().map(|p| p.0).min().unwrap_or(0) >> MESH_SUBPIXEL_BITS;
            let hi_x = v.iter().map(|p| p.0).max().unwrap_or(0) >> MESH_SUBPIXEL_BITS;
            let lo_y = v.iter().map(|p| p.1).min().unwrap_or(0) >> MESH_SUBPIXEL_BITS;
            let hi_y = v.iter().map(|p| p.1).max().unwrap_or(0) >> MESH_SUBPIXEL_BITS;
            for py in lo_y..=hi_y {
                for px in lo_x..=hi_x {
                    let (cx, cy) = ((px << MESH_SUBPIXEL_BITS) + half, (py << MESH_SUBPIXEL_BITS) + half);
                    let inside = edges.iter().zip(top_left).all(|(&(a, b), tl)| {
                        let e = (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
                        e > 0 || (e == 0 && tl)
                    });
                    if inside {
                        mask.set(self.bounds.x0 + px as i32, self.bounds.y0 + py as i32);
                    }
                }
            }
        }
        mask
    }

    /// Pixels whose centre lies exactly on an edge of a triangle: where the GPU's tie rule may
    /// differ from the CPU's.
    pub fn tie_pixels(&self) -> Mask {
        let mut mask = Mask::empty(self.bounds);
        let half = 1i64 << (MESH_SUBPIXEL_BITS - 1);
        for t in self.vertices.chunks_exact(3) {
            let v = [t[0], t[1], t[2]].map(|p| (i64::from(p[0]), i64::from(p[1])));
            for (a, b) in [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])] {
                let (lo_x, hi_x) = (a.0.min(b.0) >> MESH_SUBPIXEL_BITS, a.0.max(b.0) >> MESH_SUBPIXEL_BITS);
                let (lo_y, hi_y) = (a.1.min(b.1) >> MESH_SUBPIXEL_BITS, a.1.max(b.1) >> MESH_SUBPIXEL_BITS);
                for py in lo_y..=hi_y {
                    for px in lo_x..=hi_x {
                        let (cx, cy) = ((px << MESH_SUBPIXEL_BITS) + half, (py << MESH_SUBPIXEL_BITS) + half);
                        let e = (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
                        let within =
                            cx >= a.0.min(b.0) && cx <= a.0.max(b.0) && cy >= a.1.min(b.1) && cy <= a.1.max(b.1);
                        if e == 0 && within {
                            mask.set(self.bounds.x0 + px as i32, self.bounds.y0 + py as i32);
                        }
                    }
                }
            }
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `sign_of_cross` of collide.wgsl, line for line, in i32 (debug builds panic on overflow,
    /// so this also shows the shader's intermediate values fit).
    fn shader_sign_of_cross(a: i32, b: i32, c: i32, d: i32) -> i32 {
        let hi = a * (b >> 10) - c * (d >> 10);
        let lo = a * (b & 1023) - c * (d & 1023);
        let h = hi + (lo >> 10);
        if h != 0 {
            return if h > 0 { 1 } else { -1 };
        }
        i32::from((lo & 1023) != 0)
    }

    /// The largest magnitude the shader sees: coordinates within MAX_EXTENT pixels in 1/16.
    const LIMIT: i32 = 1 << 19;

    proptest! {
        #[test]
        fn shader_edge_sign_is_exact(a in -LIMIT + 1..LIMIT, b in -LIMIT + 1..LIMIT, c in -LIMIT + 1..LIMIT, d in -LIMIT + 1..LIMIT) {
            let exact = (i64::from(a) * i64::from(b) - i64::from(c) * i64::from(d)).signum() as i32;
            prop_assert_eq!(shader_sign_of_cross(a, b, c, d), exact);
        }

        #[test]
        fn shader_edge_sign_is_exact_on_ties(a in -LIMIT + 1..LIMIT, b in -LIMIT + 1..LIMIT, k in -3i32..=3) {
            // a·b − a·b = 0, and neighbours of it (c = a, d = b + k) differ by a·k.
            let d = (b + k).clamp(-LIMIT + 1, LIMIT - 1);
            let exact = (i64::from(a) * i64::from(b) - i64::from(a) * i64::from(d)).signum() as i32;
            prop_assert_eq!(shader_sign_of_cross(a, b, a, d), exact);
        }
    }

    #[test]
    fn coordinates_stay_within_the_shader_limit() {
        assert!((crate::MAX_EXTENT as i64 + 1) << MESH_SUBPIXEL_BITS < i64::from(LIMIT));
    }

    #[test]
    fn square_mesh_covers_its_pixels_once() {
        let m = Mesh::polygon(&[Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0), Vec2::new(0.0, 8.0)])
            .unwrap();
        let p = MeshPlacement::new(&m, Pose::at(Vec2::new(10.0, 20.0))).unwrap();
        let mask = p.rasterize();
        assert_eq!(mask.count(), 64);
        assert!(mask.get(10, 20) && mask.get(17, 27) && !mask.get(18, 27));
    }

    #[test]
    fn shared_edges_are_not_counted_twice() {
        // The square's diagonal runs through pixel centres: the top-left rule gives each tie
        // pixel to exactly one of the two triangles.
        let a = Mesh::new(vec![[Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0)]]).unwrap();
        let b = Mesh::new(vec![[Vec2::new(0.0, 0.0), Vec2::new(8.0, 8.0), Vec2::new(0.0, 8.0)]]).unwrap();
        let pa = MeshPlacement::new(&a, Pose::at(Vec2::ZERO)).unwrap().rasterize();
        let pb = MeshPlacement::new(&b, Pose::at(Vec2::ZERO)).unwrap().rasterize();
        assert_eq!(pa.overlap_area(&pb), 0);
        assert_eq!(pa.count() + pb.count(), 64);
    }
}
