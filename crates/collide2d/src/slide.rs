//! Disk slide moves: discrete (move, then push out deepest-first) and swept (stop at the first
//! touch, slide along it), on any slice of shapes with no adjacency data.

use glam::Vec2;

use crate::cast::{self, Hit};
use crate::error::{Error, finite, positive};
use crate::query::{self, Contact};
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// A static obstacle a disk can collide with.
pub trait Shape {
    /// Contact with a disk, if they overlap.
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact>;
    /// First touch of a disk moving by `motion`, entering hits only.
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit>;
    /// Bounding box.
    fn bounds(&self) -> Aabb;
}

impl Shape for Segment {
    #[inline]
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        query::disk_segment(center, radius, self)
    }
    #[inline]
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast::cast_disk_segment(center, radius, motion, self)
    }
    fn bounds(&self) -> Aabb {
        self.aabb()
    }
}

impl Shape for Aabb {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        query::disk_aabb(center, radius, self)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast::cast_disk_aabb(center, radius, motion, self)
    }
    fn bounds(&self) -> Aabb {
        *self
    }
}

impl Shape for ConvexPolygon {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        query::disk_polygon(center, radius, self)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast::cast_disk_polygon(center, radius, motion, self)
    }
    fn bounds(&self) -> Aabb {
        self.aabb()
    }
}

impl Shape for Capsule {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        let c = query::disk_segment(center, radius + self.radius, &self.segment)?;
        Some(Contact { point: c.point + c.normal * self.radius, ..c })
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        cast::ray_capsule(center, motion, &Capsule { segment: self.segment, radius: self.radius + radius })
    }
    fn bounds(&self) -> Aabb {
        let b = self.segment.aabb();
        Aabb { min: b.min - self.radius, max: b.max + self.radius }
    }
}

impl<S: Shape + ?Sized> Shape for &S {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        (**self).disk_contact(center, radius)
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        (**self).disk_cast(center, radius, motion)
    }
    fn bounds(&self) -> Aabb {
        (**self).bounds()
    }
}

/// Which penetration the discrete move resolves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// The deepest contact first (the post's rule): no snagging on seams.
    #[default]
    DeepestFirst,
    /// The first contact in slice order: the naive loop, which snags on seams (for comparison).
    FirstFound,
}

/// Options of the slide moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideOptions {
    /// Most resolution iterations (discrete) or slide legs (swept). Default 8.
    pub iterations: u32,
    /// Contact order of the discrete move.
    pub order: Order,
    /// Distance, as a fraction of the radius, the swept move stops short of a surface it hits
    /// (along the motion). Default `1e-3`.
    pub skin: f32,
    /// Penetration, as a fraction of the radius, that still counts as resolved. Default `1e-4`.
    pub tolerance: f32,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self { iterations: 8, order: Order::DeepestFirst, skin: 1e-3, tolerance: 1e-4 }
    }
}

impl SlideOptions {
    fn check(&self) -> Result<(), Error> {
        if self.iterations == 0 {
            return Err(Error::OutOfRange { what: "iterations", value: 0.0 });
        }
        if !(self.skin >= 0.0 && self.skin <= 1.0) {
            return Err(Error::OutOfRange { what: "skin", value: self.skin });
        }
        if !(self.tolerance >= 0.0 && self.tolerance <= 1.0) {
            return Err(Error::OutOfRange { what: "tolerance", value: self.tolerance });
        }
        Ok(())
    }
}

/// The result of a slide move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideOutcome {
    /// Where the disk ends.
    pub position: Vec2,
    /// Deepest penetration left at `position` (0 when free).
    pub depth: f32,
    /// `false` when no valid position was found (for example a slot narrower than the disk):
    /// `position` is then the least-penetrating one seen, never deeper than the start.
    pub resolved: bool,
    /// Contacts resolved (discrete) or surfaces hit (swept).
    pub contacts: u32,
    /// Normal of the last surface resolved or hit, if any.
    pub last_normal: Option<Vec2>,
}

/// The deepest contact of a disk against `shapes`, if any.
#[must_use]
pub fn deepest_contact<S: Shape>(center: Vec2, radius: f32, shapes: &[S]) -> Option<Contact> {
    let mut best: Option<Contact> = None;
    for s in shapes {
        if let Some(c) = s.disk_contact(center, radius)
            && best.is_none_or(|b| c.depth > b.depth)
        {
            best = Some(c);
        }
    }
    best
}

/// Every contact of a disk against `shapes`, appended to `out` (for debug views).
pub fn contacts<S: Shape>(center: Vec2, radius: f32, shapes: &[S], out: &mut Vec<Contact>) {
    out.extend(shapes.iter().filter_map(|s| s.disk_contact(center, radius)));
}

fn max_depth<S: Shape>(center: Vec2, radius: f32, shapes: &[S]) -> f32 {
    deepest_contact(center, radius, shapes).map_or(0.0, |c| c.depth)
}

fn check(center: Vec2, radius: f32, motion: Vec2, options: &SlideOptions) -> Result<(), Error> {
    finite(center, "centre")?;
    positive(radius, "radius")?;
    finite(motion, "motion")?;
    options.check()
}

/// Discrete slide move (seed 000): move by `motion`, then push the disk out of the deepest
/// penetration, up to `options.iterations` times.
///
/// Never ends deeper than it started, nor deeper than right after the motion: when the
/// iterations do not separate the disk (no valid position exists, such as a slot narrower than
/// the disk) the least-penetrating position seen is returned with `resolved == false`.
///
/// # Errors
/// Non-finite input, a radius `<= 0`, or options out of range.
pub fn slide_disk<S: Shape>(
    center: Vec2,
    radius: f32,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    check(center, radius, motion, options)?;
    Ok(discrete(center, radius, motion, shapes, options))
}

fn discrete<S: Shape>(center: Vec2, radius: f32, motion: Vec2, shapes: &[S], options: &SlideOptions) -> SlideOutcome {
    let tol = options.tolerance * radius;
    let start_depth = max_depth(center, radius, shapes);
    let mut p = center + motion;
    let mut best = (p, f32::INFINITY);
    let mut contacts = 0;
    let mut last_normal = None;
    for i in 0..=options.iterations {
        let (found, depth_here) = match options.order {
            Order::DeepestFirst => {
                let c = deepest_contact(p, radius, shapes);
                (c, c.map_or(0.0, |c| c.depth))
            }
            Order::FirstFound => (shapes.iter().find_map(|s| s.disk_contact(p, radius)), max_depth(p, radius, shapes)),
        };
        if depth_here < best.1 {
            best = (p, depth_here);
        }
        let Some(c) = found else { break };
        if depth_here <= tol || i == options.iterations {
            break;
        }
        p += c.normal * c.depth;
        contacts += 1;
        last_normal = Some(c.normal);
        // A corner (a second contact whose normal differs by more than 3 degrees): slide along
        // the first surface out of the second instead of bouncing between them, which
        // converges slowly and jitters from step to step.
        if options.order == Order::DeepestFirst
            && let Some(c2) = deepest_contact(p, radius, shapes)
        {
            let along = c.normal.perp();
            let k = along.dot(c2.normal);
            if c.normal.perp_dot(c2.normal).abs() > 0.05 {
                let e = along * (c2.depth / k);
                if e.length() <= radius {
                    p += e;
                }
            }
        }
    }
    let (mut position, mut depth) = best;
    if depth > tol && start_depth < depth {
        position = center;
        depth = start_depth;
    }
    SlideOutcome { position, depth, resolved: depth <= tol, contacts, last_normal }
}

/// Swept slide move: the disk travels along `motion`, stops at the first touch (so it never
/// tunnels, however far it moves), removes the motion into that surface and goes on with the
/// rest, up to `options.iterations` legs. A start already penetrating is first pushed out by
/// the discrete rule.
///
/// # Errors
/// Non-finite input, a radius `<= 0`, or options out of range.
pub fn slide_disk_swept<S: Shape>(
    center: Vec2,
    radius: f32,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    check(center, radius, motion, options)?;
    Ok(swept(center, radius, motion, shapes, options, |n| n))
}

/// The swept move with a hook that may replace each hit normal (the character helper turns
/// steep slopes into walls).
pub(crate) fn swept<S: Shape>(
    center: Vec2,
    radius: f32,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
    adjust: impl Fn(Vec2) -> Vec2,
) -> SlideOutcome {
    let tol = options.tolerance * radius;
    let skin = options.skin * radius;
    let touch = radius * (1.0 + 1e-5);
    let mut p = center;
    if max_depth(p, radius, shapes) > tol {
        p = discrete(p, radius, Vec2::ZERO, shapes, options).position;
    }
    let mut rem = motion;
    let mut normals: [Vec2; 8] = [Vec2::ZERO; 8];
    let mut n_normals = 0usize;
    let mut contacts = 0;
    let mut last_normal = None;
    for _ in 0..options.iterations {
        let len2 = rem.length_squared();
        if len2.is_nan() || len2 <= 0.0 {
            break;
        }
        // Surfaces touched (closer than r + 1e-5 r, where a cast from the boundary is unreliable)
        // that the motion pushes into block at t = 0, the nearest first; everything else is
        // cast, so a point lying just below a disk that glides over it is not mistaken for a bump.
        let mut hit: Option<(f32, Vec2, f32)> = None; // (t, normal, depth)
        for s in shapes {
            if let Some(c) = s.disk_contact(p, touch) {
                if c.normal.dot(rem) < 0.0 && hit.is_none_or(|h| h.0 > 0.0 || c.depth > h.2) {
                    hit = Some((0.0, c.normal, c.depth));
                }
            } else if let Some(h) = s.disk_cast(p, radius, rem)
                && hit.is_none_or(|b| h.t < b.0)
            {
                hit = Some((h.t, h.normal, 0.0));
            }
        }
        let Some((t, normal, _)) = hit else {
            p += rem;
            break;
        };
        let normal = adjust(normal);
        let len = len2.sqrt();
        let t = (t - skin / len).max(0.0);
        p += rem * t;
        rem *= 1.0 - t;
        let into = rem.dot(normal);
        if into < 0.0 {
            rem -= normal * into;
        }
        contacts += 1;
        last_normal = Some(normal);
        // A slide that goes back into an earlier surface is a crease: in 2D, stop. The wanted
        // motion clipped by this surface alone is checked too, or a chain of clips could turn a
        // push into a corner into a climb out of it.
        let mut whole = motion;
        let into_whole = whole.dot(normal);
        if into_whole < 0.0 {
            whole -= normal * into_whole;
        }
        let back = |v: Vec2, m: &Vec2| v.dot(*m) < -1e-6 * v.length();
        if normals[..n_normals].iter().any(|m| back(rem, m) || back(whole, m)) {
            rem = Vec2::ZERO;
        }
        if n_normals < normals.len() {
            normals[n_normals] = normal;
            n_normals += 1;
        }
    }
    let mut depth = max_depth(p, radius, shapes);
    if depth > tol {
        let fixed = discrete(p, radius, Vec2::ZERO, shapes, &SlideOptions { iterations: 4, ..*options });
        p = fixed.position;
        depth = fixed.depth;
    }
    SlideOutcome { position: p, depth, resolved: depth <= tol, contacts, last_normal }
}

/// Any of the crate's static shapes, for levels that mix them in one slice.
#[derive(Clone, Debug, PartialEq)]
pub enum Collider {
    /// A segment (floors, walls, slopes).
    Segment(Segment),
    /// A box (tiles).
    Aabb(Aabb),
    /// A capsule.
    Capsule(Capsule),
    /// A convex polygon.
    Polygon(ConvexPolygon),
}

impl Shape for Collider {
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        match self {
            Collider::Segment(s) => s.disk_contact(center, radius),
            Collider::Aabb(s) => s.disk_contact(center, radius),
            Collider::Capsule(s) => s.disk_contact(center, radius),
            Collider::Polygon(s) => s.disk_contact(center, radius),
        }
    }
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        match self {
            Collider::Segment(s) => s.disk_cast(center, radius, motion),
            Collider::Aabb(s) => s.disk_cast(center, radius, motion),
            Collider::Capsule(s) => s.disk_cast(center, radius, motion),
            Collider::Polygon(s) => s.disk_cast(center, radius, motion),
        }
    }
    fn bounds(&self) -> Aabb {
        match self {
            Collider::Segment(s) => s.bounds(),
            Collider::Aabb(s) => s.bounds(),
            Collider::Capsule(s) => s.bounds(),
            Collider::Polygon(s) => s.bounds(),
        }
    }
}
