//! Disk and box slide moves: discrete (move, then push out deepest-first) and swept (stop at the
//! first touch, slide along it), on any slice of shapes with no adjacency data. Both bodies run
//! the same two moves; a box collides with its corners rounded by [`SlideOptions::rounding`],
//! which is what lets it ride over the ends of loose pieces as a disk does.

use glam::Vec2;

use crate::cast::{self, Hit};
use crate::error::{Error, finite, positive};
use crate::query::{self, Contact};
use crate::sat;
use crate::shapes::{Aabb, Capsule, ConvexPolygon, Segment};

/// A static obstacle a disk or a box can collide with.
pub trait Shape {
    /// Contact with a disk, if they overlap.
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact>;
    /// First touch of a disk moving by `motion`, entering hits only.
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit>;
    /// Contact with a box of half extents `half` centred at `center`, grown by `radius` (its
    /// corners rounded; `radius == 0` is the sharp box), if they overlap.
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact>;
    /// First touch of that box moving by `motion`, entering hits only.
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit>;
    /// Bounding box.
    fn bounds(&self) -> Aabb;
}

fn ends(s: &Segment) -> [Vec2; 2] {
    [s.a, s.b]
}

/// A box against the vertices of a segment or polygon: the separating-axis contact (rounded by
/// `radius`) and the SAT sweep (sharp) or the rounded Minkowski cast.
fn points_box_cast(points: sat::Points<'_>, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
    if radius > 0.0 {
        if sat::box_contact(points, center, half, radius).is_some() {
            return None;
        }
        sat::rounded_box_cast(points, center, half, radius, motion)
    } else {
        sat::box_sweep(points, center, half, motion)
    }
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
    #[inline]
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        sat::box_contact(sat::Points { points: &ends(self), closed: false }, center, half, radius)
    }
    #[inline]
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        points_box_cast(sat::Points { points: &ends(self), closed: false }, center, half, radius, motion)
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
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        // A box against a box is a point against the box grown by the half extents.
        let grown = Aabb { min: self.min - half, max: self.max + half };
        let c = if radius > 0.0 {
            query::disk_aabb(center, radius, &grown)?
        } else {
            query::aabb_aabb(&Aabb { min: center - half, max: center + half }, self)?
        };
        Some(Contact { point: query::closest_point_on_aabb(c.point, self), ..c })
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        let body = Aabb { min: center - half, max: center + half };
        if radius > 0.0 {
            let grown = Aabb { min: self.min - half, max: self.max + half };
            if query::disk_aabb(center, radius, &grown).is_some() {
                return None;
            }
            cast::cast_disk_aabb(center, radius, motion, &grown)
        } else {
            cast::cast_aabb_aabb(&body, motion, self)
        }
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
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        sat::box_contact(sat::Points { points: self.points(), closed: true }, center, half, radius)
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        points_box_cast(sat::Points { points: self.points(), closed: true }, center, half, radius, motion)
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
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        let c = self.segment.box_contact(center, half, radius + self.radius)?;
        Some(Contact { point: c.point + c.normal * self.radius, ..c })
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        self.segment.box_cast(center, half, radius + self.radius, motion)
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
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        (**self).box_contact(center, half, radius)
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        (**self).box_cast(center, half, radius, motion)
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
    /// Box moves only: the radius the box's corners are rounded by, as a fraction of its smaller
    /// half extent, in `[0, 1]`. Default `0.01`. The skin, tolerance and touch margin of a box
    /// are fractions of its smaller half extent.
    pub rounding: f32,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self { iterations: 8, order: Order::DeepestFirst, skin: 1e-3, tolerance: 1e-4, rounding: 0.01 }
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
        if !(self.rounding >= 0.0 && self.rounding <= 1.0) {
            return Err(Error::OutOfRange { what: "rounding", value: self.rounding });
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

/// The body a slide move carries: what it collides as, and the size its tolerances scale with.
pub(crate) trait Mover: Copy {
    /// Contact against `shape` at `center`, the body grown by `grow`.
    fn contact<S: Shape>(self, shape: &S, center: Vec2, grow: f32) -> Option<Contact>;
    /// First touch against `shape` moving by `motion`, entering hits only.
    fn cast<S: Shape>(self, shape: &S, center: Vec2, motion: Vec2) -> Option<Hit>;
    /// Length the skin, the tolerance and the touch margin are fractions of.
    fn scale(self) -> f32;
}

/// A disk of this radius.
#[derive(Clone, Copy)]
pub(crate) struct DiskMover(pub f32);

impl Mover for DiskMover {
    #[inline]
    fn contact<S: Shape>(self, shape: &S, center: Vec2, grow: f32) -> Option<Contact> {
        shape.disk_contact(center, self.0 + grow)
    }
    #[inline]
    fn cast<S: Shape>(self, shape: &S, center: Vec2, motion: Vec2) -> Option<Hit> {
        shape.disk_cast(center, self.0, motion)
    }
    fn scale(self) -> f32 {
        self.0
    }
}

/// A box with rounded corners: half extents `core + radius`.
#[derive(Clone, Copy)]
pub(crate) struct BoxMover {
    core: Vec2,
    radius: f32,
}

impl BoxMover {
    /// The box of half extents `half` with corners rounded by `rounding` times the smaller one.
    fn new(half: Vec2, rounding: f32) -> Self {
        let radius = rounding * half.min_element();
        Self { core: (half - radius).max(Vec2::ZERO), radius }
    }
}

impl Mover for BoxMover {
    #[inline]
    fn contact<S: Shape>(self, shape: &S, center: Vec2, grow: f32) -> Option<Contact> {
        shape.box_contact(center, self.core, self.radius + grow)
    }
    #[inline]
    fn cast<S: Shape>(self, shape: &S, center: Vec2, motion: Vec2) -> Option<Hit> {
        shape.box_cast(center, self.core, self.radius, motion)
    }
    fn scale(self) -> f32 {
        (self.core + self.radius).min_element()
    }
}

/// The deepest contact of a disk against `shapes`, if any.
#[must_use]
pub fn deepest_contact<S: Shape>(center: Vec2, radius: f32, shapes: &[S]) -> Option<Contact> {
    deepest(DiskMover(radius), center, shapes)
}

/// The deepest contact of a box against `shapes`, if any (the sharp box: separating axes).
#[must_use]
pub fn deepest_box_contact<S: Shape>(aabb: &Aabb, shapes: &[S]) -> Option<Contact> {
    deepest(BoxMover { core: aabb.half_extents(), radius: 0.0 }, aabb.center(), shapes)
}

fn deepest<S: Shape>(body: impl Mover, center: Vec2, shapes: &[S]) -> Option<Contact> {
    let mut best: Option<Contact> = None;
    for s in shapes {
        if let Some(c) = body.contact(s, center, 0.0)
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

/// Every contact of a box against `shapes`, appended to `out` (for debug views).
pub fn box_contacts<S: Shape>(aabb: &Aabb, shapes: &[S], out: &mut Vec<Contact>) {
    out.extend(shapes.iter().filter_map(|s| s.box_contact(aabb.center(), aabb.half_extents(), 0.0)));
}

fn max_depth<S: Shape>(body: impl Mover, center: Vec2, shapes: &[S]) -> f32 {
    deepest(body, center, shapes).map_or(0.0, |c| c.depth)
}

fn check(center: Vec2, radius: f32, motion: Vec2, options: &SlideOptions) -> Result<(), Error> {
    finite(center, "centre")?;
    positive(radius, "radius")?;
    finite(motion, "motion")?;
    options.check()
}

fn check_box(aabb: &Aabb, motion: Vec2, options: &SlideOptions) -> Result<BoxMover, Error> {
    finite(aabb.min, "aabb min")?;
    finite(aabb.max, "aabb max")?;
    let half = aabb.half_extents();
    positive(half.x, "aabb half width")?;
    positive(half.y, "aabb half height")?;
    finite(motion, "motion")?;
    options.check()?;
    Ok(BoxMover::new(half, options.rounding))
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
    Ok(discrete(DiskMover(radius), center, motion, shapes, options))
}

/// The discrete slide move of a box: [`slide_disk`]'s rule with box contacts (separating axes
/// against segments, capsules and polygons, the grown box against boxes), the box's corners
/// rounded by `options.rounding`. `position` in the outcome is the box's new centre.
///
/// # Errors
/// Non-finite input, a half extent `<= 0`, or options out of range.
pub fn slide_box<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    let body = check_box(aabb, motion, options)?;
    Ok(discrete(body, aabb.center(), motion, shapes, options))
}

fn discrete<S: Shape>(
    body: impl Mover,
    center: Vec2,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> SlideOutcome {
    let scale = body.scale();
    let tol = options.tolerance * scale;
    let start_depth = max_depth(body, center, shapes);
    let mut p = center + motion;
    let mut best = (p, f32::INFINITY);
    let mut contacts = 0;
    let mut last_normal = None;
    for i in 0..=options.iterations {
        let (found, depth_here) = match options.order {
            Order::DeepestFirst => {
                let c = deepest(body, p, shapes);
                (c, c.map_or(0.0, |c| c.depth))
            }
            Order::FirstFound => (shapes.iter().find_map(|s| body.contact(s, p, 0.0)), max_depth(body, p, shapes)),
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
            && let Some(c2) = deepest(body, p, shapes)
        {
            let along = c.normal.perp();
            let k = along.dot(c2.normal);
            if c.normal.perp_dot(c2.normal).abs() > 0.05 {
                let e = along * (c2.depth / k);
                if e.length() <= scale {
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
    Ok(swept(DiskMover(radius), center, motion, shapes, options, |n| n))
}

/// Swept slide move of a box: [`slide_disk_swept`]'s legs with box casts, so a box never
/// tunnels through a thin segment however far it moves, and slides over the seams of loose
/// co-linear pieces without snagging. `position` in the outcome is the box's new centre
/// (`aabb.translated(out.position - aabb.center())` is the moved box).
///
/// The box collides with its corners rounded by `options.rounding` times its smaller half
/// extent (1 % by default): a sharp corner meeting the end of the next piece of a floor, which
/// rounding or a 1e-5 misalignment puts a hair above the box's bottom, would stop it dead; a
/// rounded one rides over with a normal within a few degrees of vertical, exactly as a disk
/// does. Set `rounding` to 0 for a sharp box (then such seams can snag).
///
/// # Errors
/// Non-finite input, a half extent `<= 0`, or options out of range.
pub fn slide_box_swept<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    let body = check_box(aabb, motion, options)?;
    Ok(swept(body, aabb.center(), motion, shapes, options, |n| n))
}

/// The swept move with a hook that may replace each hit normal (the character helper turns
/// steep slopes into walls).
pub(crate) fn swept<S: Shape>(
    body: impl Mover,
    center: Vec2,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
    adjust: impl Fn(Vec2) -> Vec2,
) -> SlideOutcome {
    let scale = body.scale();
    let tol = options.tolerance * scale;
    let skin = options.skin * scale;
    let touch = 1e-5 * scale;
    let mut p = center;
    if max_depth(body, p, shapes) > tol {
        p = discrete(body, p, Vec2::ZERO, shapes, options).position;
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
            if let Some(c) = body.contact(s, p, touch) {
                if c.normal.dot(rem) < 0.0 && hit.is_none_or(|h| h.0 > 0.0 || c.depth > h.2) {
                    hit = Some((0.0, c.normal, c.depth));
                }
            } else if let Some(h) = body.cast(s, p, rem)
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
    let mut depth = max_depth(body, p, shapes);
    if depth > tol {
        let fixed = discrete(body, p, Vec2::ZERO, shapes, &SlideOptions { iterations: 4, ..*options });
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
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        match self {
            Collider::Segment(s) => s.box_contact(center, half, radius),
            Collider::Aabb(s) => s.box_contact(center, half, radius),
            Collider::Capsule(s) => s.box_contact(center, half, radius),
            Collider::Polygon(s) => s.box_contact(center, half, radius),
        }
    }
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        match self {
            Collider::Segment(s) => s.box_cast(center, half, radius, motion),
            Collider::Aabb(s) => s.box_cast(center, half, radius, motion),
            Collider::Capsule(s) => s.box_cast(center, half, radius, motion),
            Collider::Polygon(s) => s.box_cast(center, half, radius, motion),
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
