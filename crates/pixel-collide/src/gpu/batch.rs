//! The CPU side of a GPU submission: sprites, objects, groups and queries, and the draw
//! records ([`GpuDraw`]) the shader reads for each object.

use super::Id;
use super::footprint::Hull;
use crate::{Error, Mesh, MeshPlacement, PixelRect, PixelSpace, Placement, Pose, Sprite};
use lore_geom::Aabb;

/// One object as the compute pass sees it (a storage buffer entry).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct GpuDraw {
    bounds: [i32; 4],
    t0: [i32; 2],
    size: [u32; 2],
    m: [i32; 4],
    /// First triangle word, triangle count, 1 for a mesh, first word of the sprite's solid
    /// bits (64 bytes in all, the stride WGSL gives the struct).
    mesh: [u32; 4],
}

// The shader's `Draw` has the same fields; WGSL rounds its stride to 16 bytes.
const _: () = assert!(core::mem::size_of::<GpuDraw>() == 64);

#[derive(Clone, Copy, Debug)]
pub(super) enum Obj {
    Sprite(usize, Placement),
    Mesh {
        bounds: PixelRect,
        /// First word and triangle count of the oriented triangles in `mesh_words` (for the
        /// exact-area pass).
        triangles: (u32, u32),
    },
}

impl Obj {
    pub(super) fn bounds(&self) -> PixelRect {
        match self {
            Obj::Sprite(_, p) => p.bounds,
            Obj::Mesh { bounds, .. } => *bounds,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Against {
    Object(usize),
    Group(usize),
    Area(usize),
}

/// A set of collision objects, groups and queries, built on the CPU and answered by one
/// GPU submission.
#[derive(Clone, Debug, Default)]
pub struct QueryBatch {
    /// Sprite → (first word of its solid bits, its CPU copy, the hull of its solid texels).
    pub(super) sprites: Vec<(u32, Sprite, Hull)>,
    /// Sprites' solid texels, one bit each (texel `i = y · width + x` is bit `i % 32` of word
    /// `i / 32`), each sprite from a fresh word.
    pub(super) solid_words: Vec<u32>,
    /// Oriented mesh triangles for the exact-area pass, eight words each: three vertices in
    /// 1/16 pixel (i32), top-left edge flags, padding. Uploaded after `solid_words`.
    pub(super) mesh_words: Vec<u32>,
    pub(super) objects: Vec<Obj>,
    pub(super) groups: Vec<Vec<usize>>,
    pub(super) queries: Vec<(usize, Against)>,
}

impl QueryBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a sprite: its solid texels, one bit each, are uploaded once per submission, however
    /// many objects use it.
    pub fn add_sprite(&mut self, sprite: &Sprite) -> Id {
        let first = self.solid_words.len() as u32;
        let t = sprite.threshold();
        self.solid_words.extend(
            sprite
                .alpha()
                .chunks(32)
                .map(|c| c.iter().enumerate().filter(|&(_, &a)| a >= t).fold(0u32, |w, (i, _)| w | 1 << i)),
        );
        self.sprites.push((first, sprite.clone(), Hull::of(sprite)));
        Id(self.sprites.len() - 1)
    }

    /// Places sprite `sprite` at `pose` as a collision object.
    ///
    /// # Errors
    /// [`Error::UnknownId`] or the errors of [`Placement::new`].
    pub fn add_object(&mut self, sprite: Id, pose: Pose) -> Result<Id, Error> {
        let s = &self.sprites.get(sprite.0).ok_or(Error::UnknownId { kind: "sprite", id: sprite.0 })?.1;
        let placement = Placement::new(s.width(), s.height(), pose)?;
        self.objects.push(Obj::Sprite(sprite.0, placement));
        Ok(Id(self.objects.len() - 1))
    }

    /// Places a triangle mesh at `pose` as a collision object. Queries with a mesh in them are
    /// answered by the exact compute pass (pairs and group members too), which decides its
    /// covered pixels by the CPU twin's own integer rule per pixel, so the answers equal
    /// [`MeshPlacement::rasterize`]'s exactly.
    ///
    /// # Errors
    /// The errors of [`MeshPlacement::new`].
    pub fn add_mesh(&mut self, mesh: &Mesh, pose: Pose) -> Result<Id, Error> {
        let placed = MeshPlacement::new(mesh, pose)?;
        let first_word = self.mesh_words.len() as u32;
        let mut count = 0;
        for (v, top_left) in placed.oriented_triangles() {
            // Vertices lie within the placement's bounds (at most MAX_EXTENT · 16 = 2^18): i32.
            self.mesh_words.extend(v.iter().flat_map(|p| [p.0 as i32 as u32, p.1 as i32 as u32]));
            let flags = top_left.iter().enumerate().map(|(i, &tl)| u32::from(tl) << i).sum::<u32>();
            self.mesh_words.extend([flags, 0]);
            count += 1;
        }
        self.objects.push(Obj::Mesh { bounds: placed.bounds, triangles: (first_word, count) });
        Ok(Id(self.objects.len() - 1))
    }

    /// Makes a group of objects that share one stencil (e.g. all enemies).
    ///
    /// # Errors
    /// [`Error::UnknownId`] for an object not in this batch.
    pub fn add_group(&mut self, members: &[Id]) -> Result<Id, Error> {
        for m in members {
            self.object(*m)?;
        }
        self.groups.push(members.iter().map(|m| m.0).collect());
        Ok(Id(self.groups.len() - 1))
    }

    fn object(&self, id: Id) -> Result<&Obj, Error> {
        self.objects.get(id.0).ok_or(Error::UnknownId { kind: "object", id: id.0 })
    }

    /// Asks whether objects `a` and `b` share a solid pixel.
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn pair(&mut self, a: Id, b: Id) -> Result<Id, Error> {
        self.object(a)?;
        self.object(b)?;
        self.queries.push((a.0, Against::Object(b.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// Asks whether object `a` shares a solid pixel with any member of `group`.
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn group(&mut self, a: Id, group: Id) -> Result<Id, Error> {
        self.object(a)?;
        if group.0 >= self.groups.len() {
            return Err(Error::UnknownId { kind: "group", id: group.0 });
        }
        self.queries.push((a.0, Against::Group(group.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// Asks for the exact number of pixels objects `a` and `b` share (compute path; sprites
    /// and meshes alike, each by the CPU twin's integer rule).
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn area(&mut self, a: Id, b: Id) -> Result<Id, Error> {
        self.object(a)?;
        self.object(b)?;
        self.queries.push((a.0, Against::Area(b.0)));
        Ok(Id(self.queries.len() - 1))
    }

    /// The world box of every pixel object `id` may cover (see [`Placement::world_aabb`]).
    ///
    /// # Errors
    /// [`Error::UnknownId`].
    pub fn object_aabb(&self, id: Id, space: &PixelSpace) -> Result<Aabb, Error> {
        Ok(space.aabb(&self.object(id)?.bounds()))
    }

    /// The objects whose pixels the world box `aabb` may touch, in the order they were added:
    /// the candidates a broad phase's box selects, ready for [`add_group`](QueryBatch::add_group).
    pub fn objects_overlapping(&self, aabb: &Aabb, space: &PixelSpace) -> Vec<Id> {
        let area = space.pixel_rect(aabb);
        (0..self.objects.len()).filter(|&i| !self.objects[i].bounds().intersection(&area).is_empty()).map(Id).collect()
    }

    /// Number of queries.
    pub fn query_count(&self) -> usize {
        self.queries.len()
    }

    /// Removes objects, groups and queries but keeps the sprites, so the next frame can reuse
    /// them.
    pub fn clear_objects(&mut self) {
        self.objects.clear();
        self.mesh_words.clear();
        self.groups.clear();
        self.queries.clear();
    }

    pub(super) fn draw(&self, object: usize) -> GpuDraw {
        let (sprite, p) = match &self.objects[object] {
            Obj::Sprite(sprite, p) => (sprite, p),
            Obj::Mesh { bounds: b, triangles, .. } => {
                return GpuDraw {
                    bounds: [b.x0, b.y0, b.x1, b.y1],
                    t0: [0; 2],
                    size: [0; 2],
                    m: [0; 4],
                    mesh: [self.solid_words.len() as u32 + triangles.0, triangles.1, 1, 0],
                };
            }
        };
        let first = self.sprites[*sprite].0;
        let b = p.bounds;
        GpuDraw { bounds: [b.x0, b.y0, b.x1, b.y1], t0: p.t0, size: p.size, m: p.m, mesh: [0, 0, 0, first] }
    }

    /// The objects on the query's other side: one, or a group's members.
    pub(super) fn members<'a>(&'a self, against: &'a Against) -> &'a [usize] {
        match against {
            Against::Object(b) | Against::Area(b) => core::slice::from_ref(b),
            Against::Group(g) => &self.groups[*g],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn a_world_box_selects_the_objects_it_may_touch() {
        let space = PixelSpace::new(4.0).unwrap();
        let mut batch = QueryBatch::new();
        let s = batch.add_sprite(&Sprite::from_fn(8, 8, |_, _| true).unwrap());
        let at =
            |batch: &mut QueryBatch, x: f32, y: f32| batch.add_object(s, space.pose(Vec2::new(x, y), 0.3, Vec2::ONE));
        let (a, b, c) =
            (at(&mut batch, 0.0, 0.0).unwrap(), at(&mut batch, 10.0, 0.0).unwrap(), at(&mut batch, 0.0, 10.0).unwrap());
        for (id, center) in [(a, Vec2::ZERO), (b, Vec2::new(10.0, 0.0)), (c, Vec2::new(0.0, 10.0))] {
            assert!(batch.object_aabb(id, &space).unwrap().contains_point(center));
        }
        // A box between a and b, touching both sprites (each about 2.9 units across, turned).
        let between = Aabb::new(Vec2::new(1.0, -0.5), Vec2::new(9.0, 0.5)).unwrap();
        assert_eq!(batch.objects_overlapping(&between, &space), vec![a, b]);
        let above = Aabb::new(Vec2::new(-0.5, 9.0), Vec2::new(0.5, 20.0)).unwrap();
        assert_eq!(batch.objects_overlapping(&above, &space), vec![c]);
        let nowhere = Aabb::new(Vec2::splat(50.0), Vec2::splat(60.0)).unwrap();
        assert!(batch.objects_overlapping(&nowhere, &space).is_empty());
        assert!(matches!(batch.object_aabb(Id(7), &space), Err(Error::UnknownId { kind: "object", id: 7 })));
    }
}
