//! The level's solid geometry for the character controller and the shots: every exposed tile
//! face as a segment in the broadphase's static tree (slopes as their diagonal), one-way tops of
//! platforms and ladders, doors and hatches that stand only while locked, and the lifts as
//! moving one-way platforms. [`Obstacles`] is the controller's `ObstacleSource` over them.

use glam::{Vec2, vec2};
use lore_broadphase::{Aabb, ProxyId, SpatialIndex, Tree};
use lore_collide2d::{ObstacleInfo, ObstacleSource, Segment, Shape};
use lore_mazegen::{LevelTile, Lift};

use super::{GameError, setup};
use crate::level::Level;

/// When a face blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum When {
    /// Always.
    Always,
    /// While the key of this colour is not held (a locked door or hatch).
    Locked(u8),
    /// Once the key of this colour is held (the top of an opened hatch).
    Open(u8),
}

/// A tile face.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    pub(super) shape: Segment,
    pub(super) bounds: Aabb,
    pub(super) one_way: bool,
    pub(super) when: When,
}

impl Face {
    pub(super) fn active(&self, held: &[bool; 256]) -> bool {
        match self.when {
            When::Always => true,
            When::Locked(c) => !held[usize::from(c)],
            When::Open(c) => held[usize::from(c)],
        }
    }
}

/// A lift as a moving one-way platform this step.
#[derive(Clone, Copy, Debug)]
pub(super) struct LiftBody {
    pub(super) lift: Lift,
    pub(super) shape: Segment,
    pub(super) velocity: Vec2,
    pub(super) sweep: Aabb,
    /// The surface height (world y) at the start of the step.
    pub(super) surface: f32,
}

/// Ids of the lifts among the obstacles (above every face's).
pub(super) const LIFT_IDS: u64 = 1 << 40;

/// Whether a tile neighbouring on side `side` covers that side of a solid tile entirely.
fn covers(n: Option<LevelTile>, side: Side) -> bool {
    match n {
        None | Some(LevelTile::Solid) => true,
        Some(LevelTile::SlopeUp) => matches!(side, Side::Left | Side::Top),
        Some(LevelTile::SlopeDown) => matches!(side, Side::Right | Side::Top),
        _ => false,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

fn is_ladder(t: Option<LevelTile>) -> bool {
    matches!(t, Some(LevelTile::Ladder | LevelTile::Hatch(_)))
}

/// Every face of `level`, inserted into `tree`; `faces[id.index()]` is the face of proxy `id`.
/// Collinear tile edges of the same kind are merged into one segment, so a move meets a few
/// long faces rather than many unit ones.
pub(super) fn build(level: &Level, tree: &mut Tree, faces: &mut Vec<Option<Face>>) -> Result<(), GameError> {
    faces.clear();
    let mut edges: Vec<(Vec2, Vec2, bool, When)> = Vec::new();
    tile_edges(level, &mut edges)?;
    // Horizontal edges by (height, kind) then along x; vertical ones by (x, kind) then along y.
    let key = |&(a, b, one_way, when): &(Vec2, Vec2, bool, When)| {
        let horizontal = a.y == b.y;
        let when_key = match when {
            When::Always => 0u32,
            When::Locked(c) => 1 + u32::from(c),
            When::Open(c) => 1000 + u32::from(c),
        };
        let (line, along) = if horizontal { (a.y, a.x.min(b.x)) } else { (a.x, a.y.min(b.y)) };
        (!horizontal && a.x != b.x, horizontal, line.to_bits(), when_key, one_way, along.to_bits())
    };
    edges.sort_by_key(key);
    let mut merged: Vec<(Vec2, Vec2, bool, When)> = Vec::with_capacity(edges.len());
    for (a, b, one_way, when) in edges {
        let (a, b) = if a.x < b.x || (a.x == b.x && a.y < b.y) { (a, b) } else { (b, a) };
        if let Some(last) = merged.last_mut()
            && last.2 == one_way
            && last.3 == when
            && last.1 == a
            && (a.x == b.x) == (last.0.x == last.1.x)
            && (a.y == b.y) == (last.0.y == last.1.y)
            && (a.x == b.x || a.y == b.y)
        {
            last.1 = b;
            continue;
        }
        merged.push((a, b, one_way, when));
    }
    for (a, b, one_way, when) in merged {
        let shape = Segment::new(a, b).map_err(setup)?;
        let bounds = shape.bounds();
        let id = tree.insert(bounds).map_err(setup)?;
        let i = id.index() as usize;
        if faces.len() <= i {
            faces.resize(i + 1, None);
        }
        faces[i] = Some(Face { shape, bounds, one_way, when });
    }
    tree.rebuild();
    Ok(())
}

/// The exposed edges of every tile, one per tile side.
fn tile_edges(level: &Level, edges: &mut Vec<(Vec2, Vec2, bool, When)>) -> Result<(), GameError> {
    let (w, h) = (i64::from(level.width()), i64::from(level.height()));
    let mut add = |a: Vec2, b: Vec2, one_way: bool, when: When| -> Result<(), GameError> {
        edges.push((a, b, one_way, when));
        Ok(())
    };
    for y in 0..h {
        for x in 0..w {
            let Some(tile) = level.tile(x, y) else { continue };
            let lo = vec2(x as f32, (h - y - 1) as f32);
            let (x0, x1, y0, y1) = (lo.x, lo.x + 1.0, lo.y, lo.y + 1.0);
            let n = |dx: i64, dy: i64| {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h { None } else { level.tile(nx, ny) }
            };
            let sides = [
                (Side::Left, n(-1, 0), vec2(x0, y0), vec2(x0, y1)),
                (Side::Right, n(1, 0), vec2(x1, y0), vec2(x1, y1)),
                (Side::Top, n(0, -1), vec2(x0, y1), vec2(x1, y1)),
                (Side::Bottom, n(0, 1), vec2(x0, y0), vec2(x1, y0)),
            ];
            match tile {
                LevelTile::Solid => {
                    for (side, nb, a, b) in sides {
                        if !covers(nb, side) {
                            add(a, b, false, When::Always)?;
                        }
                    }
                }
                LevelTile::Door(c) | LevelTile::Hatch(c) => {
                    for (_, nb, a, b) in sides {
                        if nb != Some(LevelTile::Solid) {
                            add(a, b, false, When::Locked(c))?;
                        }
                    }
                    if matches!(tile, LevelTile::Hatch(_)) && !is_ladder(n(0, -1)) {
                        add(vec2(x0, y1), vec2(x1, y1), true, When::Open(c))?;
                    }
                }
                LevelTile::OneWay => add(vec2(x0, y1), vec2(x1, y1), true, When::Always)?,
                LevelTile::Ladder => {
                    if !is_ladder(n(0, -1)) {
                        add(vec2(x0, y1), vec2(x1, y1), true, When::Always)?;
                    }
                }
                LevelTile::SlopeUp => {
                    add(vec2(x0, y0), vec2(x1, y1), false, When::Always)?;
                    if !covers(n(1, 0), Side::Right) {
                        add(vec2(x1, y0), vec2(x1, y1), false, When::Always)?;
                    }
                    if !covers(n(0, 1), Side::Bottom) {
                        add(vec2(x0, y0), vec2(x1, y0), false, When::Always)?;
                    }
                }
                LevelTile::SlopeDown => {
                    add(vec2(x0, y1), vec2(x1, y0), false, When::Always)?;
                    if !covers(n(-1, 0), Side::Left) {
                        add(vec2(x0, y0), vec2(x0, y1), false, When::Always)?;
                    }
                    if !covers(n(0, 1), Side::Bottom) {
                        add(vec2(x0, y0), vec2(x1, y0), false, When::Always)?;
                    }
                }
                LevelTile::Empty => {}
            }
        }
    }
    Ok(())
}

impl LiftBody {
    /// The lift at step `frame` (its surface at the start of the step and its velocity over it).
    pub(super) fn at(lift: Lift, level_height: u32, frame: u64, dt: f32) -> Self {
        let t = frame as f64 * f64::from(dt);
        let period = f64::from(lift.period.max(f32::MIN_POSITIVE));
        let t = (t % period) as f32;
        let row0 = lift.surface_at(t);
        let row1 = lift.surface_at(t + dt);
        let (y0, y1) = (level_height as f32 - row0, level_height as f32 - row1);
        let (x0, x1) = (lift.x as f32, (lift.x + lift.width) as f32);
        let shape = Segment::new(vec2(x0, y0), vec2(x1, y0))
            .unwrap_or_else(|_| Segment::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).expect("a unit segment is valid"));
        let sweep = Aabb::covering(vec2(x0, y0.min(y1) - 0.01), vec2(x1, y0.max(y1) + 0.01));
        Self { lift, shape, velocity: vec2(0.0, (y1 - y0) / dt), sweep, surface: y0 }
    }
}

/// The controller's obstacles: the active faces near a move (a static tree query) and the lifts.
pub(super) struct Obstacles<'a> {
    pub(super) tree: &'a mut Tree,
    pub(super) faces: &'a [Option<Face>],
    pub(super) lifts: &'a [LiftBody],
    pub(super) held: &'a [bool; 256],
    pub(super) found: &'a mut Vec<ProxyId>,
}

impl<'a> ObstacleSource<'a> for Obstacles<'a> {
    type Shape = Segment;

    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a Segment, ObstacleInfo)) {
        let Obstacles { tree, faces, lifts, held, found } = self;
        tree.query_aabb(area, found);
        for &id in found.iter() {
            if let Some(Some(f)) = faces.get(id.index() as usize)
                && f.active(held)
            {
                let one_way = f.one_way.then_some(Vec2::Y);
                visit(&f.shape, ObstacleInfo { one_way, ..ObstacleInfo::new(u64::from(id.index())) });
            }
        }
        for (i, l) in lifts.iter().enumerate() {
            if l.sweep.overlaps(area) {
                let info = ObstacleInfo {
                    one_way: Some(Vec2::Y),
                    velocity: l.velocity,
                    ..ObstacleInfo::new(LIFT_IDS + i as u64)
                };
                visit(&l.shape, info);
            }
        }
    }
}
