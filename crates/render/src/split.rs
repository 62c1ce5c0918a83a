//! Splitting a batch's triangles into pieces whose vertex and index data each fit in one GPU
//! buffer, so a batch of any size draws within the device's `max_buffer_size`.
//!
//! A piece is a run of whole triangles, in order (painter order is kept). Shapes append their
//! vertices and then indices that point at those vertices only, so a run of triangles usually
//! reads a compact range of vertices: such a piece ([`Piece::Span`]) uploads that vertex range
//! and its indices rebased to it. A triangle whose own vertices are further apart than one
//! buffer holds (a polygon of very many points) goes into a [`Piece::Loose`], which uploads its
//! three vertices per triangle with no sharing.

use std::ops::Range;

/// A run of triangles drawn from one vertex buffer and one index buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Indices `indices` (positions in the batch's index list) read vertices
    /// `first_vertex..first_vertex + vertex_count` only.
    Span {
        /// Positions in the batch's index list.
        indices: Range<u32>,
        /// First vertex read.
        first_vertex: u32,
        /// Number of vertices from `first_vertex` on.
        vertex_count: u32,
    },
    /// Indices `indices` are uploaded as three fresh vertices per triangle.
    Loose {
        /// Positions in the batch's index list.
        indices: Range<u32>,
    },
}

impl Piece {
    /// The positions in the batch's index list this piece draws.
    pub(crate) fn indices(&self) -> Range<u32> {
        match self {
            Piece::Span { indices, .. } | Piece::Loose { indices } => indices.clone(),
        }
    }
}

/// Cuts the triangle list `indices` (three per triangle; a trailing partial triangle is
/// ignored) into pieces of at most `max_vertices` vertices and `max_indices` indices each.
/// Both limits are raised to at least 3 (one triangle).
pub(crate) fn split(indices: &[u32], vertex_count: usize, max_vertices: u32, max_indices: u32) -> Vec<Piece> {
    let (max_vertices, max_indices) = (max_vertices.max(3), max_indices.max(3));
    let triangles = (indices.len() / 3) as u32;
    if triangles == 0 {
        return Vec::new();
    }
    if vertex_count <= max_vertices as usize && triangles * 3 <= max_indices {
        return vec![Piece::Span { indices: 0..triangles * 3, first_vertex: 0, vertex_count: vertex_count as u32 }];
    }
    let max_triangles = max_indices / 3;
    let mut pieces = Vec::new();
    let mut t = 0;
    while t < triangles {
        let start = t;
        let (mut lo, mut hi) = (u32::MAX, 0);
        while t < triangles && t - start < max_triangles {
            let tri = &indices[3 * t as usize..3 * t as usize + 3];
            let (tlo, thi) = (tri[0].min(tri[1]).min(tri[2]), tri[0].max(tri[1]).max(tri[2]));
            let (nlo, nhi) = (lo.min(tlo), hi.max(thi));
            if nhi - nlo >= max_vertices {
                break;
            }
            (lo, hi) = (nlo, nhi);
            t += 1;
        }
        if t > start {
            pieces.push(Piece::Span { indices: 3 * start..3 * t, first_vertex: lo, vertex_count: hi - lo + 1 });
        } else {
            // The first triangle alone spans more vertices than a buffer holds.
            let end = triangles.min(start + (max_vertices / 3).min(max_triangles));
            pieces.push(Piece::Loose { indices: 3 * start..3 * end });
            t = end;
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The triangles a piece draws, as vertex numbers of the whole batch, rebuilt from what the
    /// piece uploads (as `Renderer::prepare` does).
    fn drawn(piece: &Piece, indices: &[u32]) -> (Vec<[u32; 3]>, usize, usize) {
        let r = piece.indices();
        let part = &indices[r.start as usize..r.end as usize];
        match piece {
            Piece::Span { first_vertex, vertex_count, .. } => {
                let rebased: Vec<u32> = part.iter().map(|i| i - first_vertex).collect();
                assert!(rebased.iter().all(|&i| i < *vertex_count));
                let tris = rebased.chunks(3).map(|t| [0, 1, 2].map(|k| t[k] + first_vertex)).collect();
                (tris, *vertex_count as usize, part.len())
            }
            Piece::Loose { .. } => {
                let uploaded: Vec<u32> = part.to_vec(); // vertex i of the piece is batch vertex part[i]
                let tris = (0..part.len() / 3).map(|t| [0, 1, 2].map(|k| uploaded[3 * t + k])).collect();
                (tris, part.len(), part.len())
            }
        }
    }

    /// A batch like the ones `Batch` records: shapes of `sizes[k]` vertices, each a fan over
    /// its own vertices, some with a triangle joining their first and last vertex.
    fn shapes(sizes: &[u32]) -> (Vec<u32>, usize) {
        let mut indices = Vec::new();
        let mut base = 0;
        for &n in sizes {
            for i in 1..n - 1 {
                indices.extend([base, base + i, base + i + 1]);
            }
            base += n;
        }
        (indices, base as usize)
    }

    proptest! {
        #[test]
        fn pieces_cover_every_triangle_once_in_order_within_the_limits(
            sizes in prop::collection::vec(3u32..200, 1..40),
            max_vertices in 0u32..300,
            max_indices in 0u32..900,
        ) {
            let (indices, vertex_count) = shapes(&sizes);
            let pieces = split(&indices, vertex_count, max_vertices, max_indices);
            let mut next = 0;
            let mut all = Vec::new();
            for p in &pieces {
                let r = p.indices();
                prop_assert_eq!(r.start, next);
                prop_assert!(r.end > r.start && (r.end - r.start) % 3 == 0);
                next = r.end;
                let (tris, vertices, idx) = drawn(p, &indices);
                prop_assert!(vertices <= max_vertices.max(3) as usize, "{} vertices", vertices);
                prop_assert!(idx <= max_indices.max(3) as usize, "{} indices", idx);
                all.extend(tris);
            }
            prop_assert_eq!(next as usize, indices.len());
            let expected: Vec<[u32; 3]> = indices.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
            prop_assert_eq!(all, expected);
        }
    }

    #[test]
    fn a_batch_that_fits_is_one_piece() {
        let (indices, n) = shapes(&[10, 20]);
        assert_eq!(
            split(&indices, n, 30, 1000),
            vec![Piece::Span { indices: 0..78, first_vertex: 0, vertex_count: 30 }]
        );
        assert!(split(&[], 0, 30, 30).is_empty());
    }

    #[test]
    fn a_triangle_wider_than_a_buffer_is_drawn_loose() {
        // Triangle (0, 500, 999) spans 1,000 vertices; a buffer holds 100.
        let indices = [0, 1, 2, 0, 500, 999, 3, 4, 5];
        let pieces = split(&indices, 1000, 100, 300);
        assert_eq!(pieces[0], Piece::Span { indices: 0..3, first_vertex: 0, vertex_count: 3 });
        assert!(matches!(pieces[1], Piece::Loose { .. }));
        assert_eq!(pieces.last().map(Piece::indices).map(|r| r.end), Some(9));
    }
}
