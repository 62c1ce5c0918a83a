//! Disk and box slide moves: discrete (move, then push out deepest-first) and swept (stop at the
//! first touch, slide along it), on any slice of shapes with no adjacency data. Both bodies run
//! the same two moves; a box collides with its corners rounded by [`SlideOptions::rounding`],
//! which is what lets it ride over the ends of loose pieces as a disk does.

use alloc::vec::Vec;

use glam::Vec2;

use crate::collider::Shape;
use crate::error::{Error, finite, positive};
use crate::math::sqrt;
use crate::report::{Contact, Hit};
use crate::shapes::Aabb;

/// Which penetration the discrete move resolves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// The deepest contact first (the post's rule): no snagging on seams.
    #[default]
    DeepestFirst,
    /// The first contact in slice order: the naive loop, which snags on seams (for comparison).
    FirstFound,
}

/// Options of the slide moves.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SlideOptions {
    /// Most resolution iterations (discrete) or slide legs (swept). Default 8.
    pub iterations: u32,
    /// Contact order of the discrete move.
    pub order: Order,
    /// Distance, as a fraction of the radius, the swept move stops short of a surface it hits
    /// (along the motion). Default `1e-3`. Never less than 8 spacings of the coordinates' `f32`
    /// values (far from the origin the fraction would be below what `f32` resolves).
    pub skin: f32,
    /// Penetration, as a fraction of the radius, that still counts as resolved. Default `1e-4`.
    /// Never less than 4 spacings of the coordinates' `f32` values (9.8e-4 each at 8200).
    pub tolerance: f32,
    /// Box moves only: the radius the box's corners are rounded by, as a fraction of its smaller
    /// half extent, in `[0, 1]`. Default `0.01`; when not 0, never less than 16 spacings of the
    /// coordinates (up to half the smaller half extent). The skin, tolerance and touch margin of
    /// a box are fractions of its smaller half extent.
    pub rounding: f32,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self { iterations: 8, order: Order::DeepestFirst, skin: 1e-3, tolerance: 1e-4, rounding: 0.01 }
    }
}

impl SlideOptions {
    pub(crate) fn check(&self) -> Result<(), Error> {
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// The largest distance from the centre to a point of the body.
    fn reach(self) -> f32;
    /// Radius of the rounded parts the glide-past rule of the swept move applies to (see
    /// `passes_by`): a box's corner rounding; 0 for a disk, whose rule is unchanged (an end
    /// within the margin tilts its normal by `sqrt(2 touch / r)` only, `r` its whole radius;
    /// the rule would cost its swept move 15 % more instructions, and the domain runs, far
    /// origins included, have no snag without it).
    fn round(self) -> f32;
    /// Whether the discrete move first removes the motion into the surface the body rests on
    /// (see `discrete`): a box's; a disk's contact normals turn smoothly over piece ends, and its
    /// discrete move is the post's rule unchanged.
    fn clips_start(self) -> bool;
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
    fn reach(self) -> f32 {
        self.0
    }
    fn round(self) -> f32 {
        0.0
    }
    #[inline]
    fn clips_start(self) -> bool {
        false
    }
}

/// A box with rounded corners: half extents `core + radius`.
#[derive(Clone, Copy)]
pub(crate) struct BoxMover {
    core: Vec2,
    radius: f32,
}

impl BoxMover {
    /// The box of half extents `half` with corners rounded by `rounding` times the smaller one,
    /// but by no less than [`ROUNDING_ULPS`] units in the last place of the coordinates (`ulp`)
    /// when `rounding > 0` and the box is large enough: a corner rounded by about one unit is
    /// sharp in `f32`, and snags on piece ends one unit higher.
    pub(crate) fn new(half: Vec2, rounding: f32, ulp: f32) -> Self {
        let small = half.min_element();
        let mut radius = rounding * small;
        if rounding > 0.0 {
            radius = radius.max((ROUNDING_ULPS * ulp).min(0.5 * small));
        }
        Self { core: (half - radius).max(Vec2::ZERO), radius }
    }
}

impl BoxMover {
    /// A vertical capsule: the segment from `-half_height` to `+half_height` along `y` grown by
    /// `radius`, which is a box of half extents `(0, half_height)` rounded by `radius`.
    pub(crate) fn capsule(half_height: f32, radius: f32) -> Self {
        Self { core: Vec2::new(0.0, half_height), radius }
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
    fn reach(self) -> f32 {
        self.core.length() + self.radius
    }
    fn round(self) -> f32 {
        self.radius
    }
    #[inline]
    fn clips_start(self) -> bool {
        true
    }
}

/// The deepest contact of a disk against `shapes`, if any.
#[must_use]
pub fn deepest_contact_disk<S: Shape>(center: Vec2, radius: f32, shapes: &[S]) -> Option<Contact> {
    deepest(DiskMover(radius), center, shapes)
}

/// The deepest contact of a box against `shapes`, if any (the sharp box: separating axes).
#[must_use]
pub fn deepest_contact_aabb<S: Shape>(aabb: &Aabb, shapes: &[S]) -> Option<Contact> {
    deepest(BoxMover { core: aabb.half_extents(), radius: 0.0 }, aabb.center(), shapes)
}

fn deepest<S: Shape>(body: impl Mover, center: Vec2, shapes: &[S]) -> Option<Contact> {
    deepest_grown(body, center, shapes, 0.0)
}

/// The deepest contact of the body grown by `grow`, if any.
fn deepest_grown<S: Shape>(body: impl Mover, center: Vec2, shapes: &[S], grow: f32) -> Option<Contact> {
    let mut best: Option<Contact> = None;
    for s in shapes {
        if let Some(c) = body.contact(s, center, grow)
            && best.is_none_or(|b| c.depth > b.depth)
        {
            best = Some(c);
        }
    }
    best
}

/// Every contact of a disk against `shapes`, appended to `out` (for debug views).
pub fn contacts_disk<S: Shape>(center: Vec2, radius: f32, shapes: &[S], out: &mut Vec<Contact>) {
    out.extend(shapes.iter().filter_map(|s| s.disk_contact(center, radius)));
}

/// Every contact of a box against `shapes`, appended to `out` (for debug views).
pub fn contacts_aabb<S: Shape>(aabb: &Aabb, shapes: &[S], out: &mut Vec<Contact>) {
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
    finite(aabb.min(), "aabb min")?;
    finite(aabb.max(), "aabb max")?;
    let half = aabb.half_extents();
    positive(half.x, "aabb half width")?;
    positive(half.y, "aabb half height")?;
    finite(motion, "motion")?;
    options.check()?;
    let ulp = spacing(aabb.center(), motion, half.max_element());
    Ok(BoxMover::new(half, options.rounding, ulp))
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
    Ok(discrete(DiskMover(radius), center, motion, shapes, options, None).0)
}

/// The discrete slide move of a box: [`slide_disk`]'s rule with box contacts (separating axes
/// against segments, capsules and polygons, the grown box against boxes), the box's corners
/// rounded by `options.rounding`. `position` in the outcome is the box's new centre.
///
/// # Errors
/// Non-finite input, a half extent `<= 0`, or options out of range.
pub fn slide_aabb<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    let body = check_box(aabb, motion, options)?;
    Ok(discrete(body, aabb.center(), motion, shapes, options, None).0)
}

/// The least rounding radius of a box's corners, in units in the last place of the coordinates.
const ROUNDING_ULPS: f32 = 16.0;

/// How many units in the last place of the coordinates a resolved penetration may keep: depths
/// are differences of coordinates, each rounded to half a unit, and a push by the depth rounds
/// again, so a few units is the least a move can promise.
const TOLERANCE_ULPS: f32 = 4.0;

/// The spacing of `f32` values around the coordinates a move from `p` by `motion` touches (and
/// around the body's size): the smallest change a position there can make.
#[inline]
pub(crate) fn spacing(p: Vec2, motion: Vec2, scale: f32) -> f32 {
    let largest = p.abs().max_element().max((p + motion).abs().max_element()).max(scale);
    // The power of two at or below `largest` (its exponent bits alone) times the spacing at 1.
    f32::from_bits(largest.to_bits() & 0x7f80_0000) * f32::EPSILON
}

/// Penetration that still counts as resolved: the option's fraction of the body's size, but
/// never below what `f32` can resolve at these coordinates (far from the origin `1e-4 r` is
/// less than one unit in the last place, and a move could never count as resolved).
#[inline]
pub(crate) fn tolerance(options: &SlideOptions, scale: f32, spacing: f32) -> f32 {
    (options.tolerance * scale).max(TOLERANCE_ULPS * spacing)
}

/// Whether a move from `center` (penetrating `start_depth`, resolved within `tol`) to `end`
/// gets nowhere along `motion`: no progress at all, or a step back or purely sideways. Such a
/// move only trades one resting place for another; the caller keeps the start instead.
///
/// This is what settles a box pushed into a V corner: its rounded corner driven into the apex
/// meets the end of each wall within the box's flat faces, and the separating-axis contacts
/// offer two equally deep ways out (up out of one wall, sideways out of the other). The
/// resolution lands on one of them, a position touching one wall only; the next push lands on
/// the other, a step of about the rounding radius sideways, every step. A slide along any
/// surface keeps the motion's component along it, whose dot product with the motion is its
/// squared length, so it always makes headway.
///
/// The displacement is measured along the surface the body rests on at the start (`rest`, its
/// normal), if any: a box pressed steeply into a floor it sank into by rounding (within the
/// tolerance) is lifted by its push out as much as it is moved along, and the lift, which is
/// not headway, outweighed a slide of a tenth of the press.
#[inline]
fn no_headway(center: Vec2, end: Vec2, motion: Vec2, rest: Option<Vec2>, start_depth: f32, tol: f32) -> bool {
    let moved = end - center;
    let along = rest.map_or(moved, |n| moved - n * moved.dot(n));
    start_depth <= tol && motion != Vec2::ZERO && (moved.dot(motion) <= 0.0 || along.dot(motion) <= 0.0)
}

/// The surface a box rests on at the start of a move, and the seam rule it gives.
///
/// A contact whose normal is tilted from the resting surface's, against an obstacle that lies
/// wholly within `height` above that surface (measured along its normal), is a seam, not a
/// wall: the end of the next piece of the floor, raised by a misalignment or by rounding, met by
/// the box's rounded corner. Its normal is the resting surface's, and its depth the lift along
/// that normal that clears the obstacle, so the box rides over it as over a smooth floor. Any
/// obstacle that rises higher (a wall, a real step, a slope) keeps its own contact.
#[derive(Clone, Copy)]
pub(crate) struct Seam {
    normal: Vec2,
    /// The resting surface's level along `normal` (its contact point's).
    level: f32,
    /// How high above that level an obstacle may reach and still be a seam.
    height: f32,
}

/// The fraction of a box's corner rounding up to which a raised piece end is a seam (see
/// [`Seam`]): a quarter of the 1 % default, 0.25 % of the smaller half extent.
const SEAM_OF_ROUNDING: f32 = 0.25;

impl Seam {
    /// The seam rule of a body resting on `rest` (a contact within the touch margin and the
    /// tolerance).
    fn new(rest: &Contact, round: f32, tol: f32) -> Self {
        Self { normal: rest.normal, level: rest.point.dot(rest.normal), height: (SEAM_OF_ROUNDING * round).max(tol) }
    }

    /// Whether `c`, a contact or touch against `shape`, is a seam: its normal tilted from the
    /// resting surface's (by more than about 0.06 degrees), toward the same side, and `shape`
    /// wholly within `height` of the resting surface.
    #[inline]
    fn holds<S: Shape>(&self, normal: Vec2, shape: &S) -> bool {
        normal.dot(self.normal) > 0.0
            && tilted(normal, self.normal)
            && shape.support(self.normal) <= self.level + self.height
    }

    /// The lift along the resting surface's normal that takes `body` at `q` clear of `shape`:
    /// where a cast back down from beyond it first touches; 0 when it does not reach `q`.
    fn lift<S: Shape>(&self, body: impl Mover, shape: &S, q: Vec2) -> f32 {
        let b = shape.bounds();
        let l = (q - b.center()).length() + b.size().length() + 2.0 * body.reach() + 1.0;
        body.cast(shape, q + self.normal * l, -self.normal * l).map_or(0.0, |h| l * (1.0 - h.t))
    }

    /// The normal of a touch against `shape` as the seam rule has it.
    #[inline(always)]
    fn normal<S: Shape>(seam: Option<&Self>, body: impl Mover, normal: Vec2, shape: &S) -> Vec2 {
        match seam {
            Some(z) if body.clips_start() && z.holds(normal, shape) => z.normal,
            _ => normal,
        }
    }

    /// `c` (a contact of `body` at `q` grown by `grow` against `shape`) as the seam rule has it.
    #[inline]
    fn apply<S: Shape>(seam: Option<&Self>, body: impl Mover, shape: &S, q: Vec2, c: Contact, grow: f32) -> Contact {
        match seam {
            Some(z) if z.holds(c.normal, shape) => {
                Contact { point: c.point, normal: z.normal, depth: z.lift(body, shape, q) + grow }
            }
            _ => c,
        }
    }
}

/// The contact of `body` at `p` that it rests on (grown by `touch`): the deepest, unless that
/// one is a seam of another contact within the tolerance (see [`Seam`]): a box whose rounded
/// corner sits on the raised end of the next piece of a floor rests on the floor, not on the
/// end's tilted normal. Also returns the deepest contact's depth (the start's penetration).
#[inline]
fn resting<S: Shape>(body: impl Mover, p: Vec2, shapes: &[S], touch: f32, tol: f32) -> Option<(Contact, f32)> {
    // The deepest contact per direction, with its shape: directions apart by more than the
    // seam rule's tilt (a face and the end next to it, tilted by less than a crease, must both
    // be seen).
    let none = Contact { point: Vec2::ZERO, normal: Vec2::ZERO, depth: 0.0 };
    let mut out = [(none, 0usize); CANDIDATES];
    let mut n = 0;
    for (i, s) in shapes.iter().enumerate() {
        let Some(c) = body.contact(s, p, touch) else { continue };
        let mut k = 0;
        while k < n && tilted(out[k].0.normal, c.normal) {
            k += 1;
        }
        if k == n {
            if n < CANDIDATES {
                n += 1;
            } else {
                // Full: the shallowest gives way to a deeper one.
                k = (1..CANDIDATES).fold(0, |a, j| if out[j].0.depth < out[a].0.depth { j } else { a });
                if out[k].0.depth >= c.depth {
                    continue;
                }
                out[k].0.depth = 0.0;
            }
        }
        // (A new slot holds a depth of 0; contacts are deeper.)
        if c.depth > out[k].0.depth {
            out[k] = (c, i);
        }
    }
    let out = &out[..n];
    let &(deep, at) = out.iter().reduce(|a, b| if b.0.depth > a.0.depth { b } else { a })?;
    // The contacts the deepest is a seam of; of them and the deepest, the one whose shape is
    // thinnest along its own normal is a face, not an end: a segment met on its face has no
    // thickness along its normal, one met at an end `L sin(tilt)` (the width of a convex shape
    // is least across a face). Short pieces under a large box are seams of each other both ways.
    let thick = |c: &Contact, i: usize| shapes[i].support(c.normal) + shapes[i].support(-c.normal);
    let mut rest = (deep, f32::INFINITY);
    for &(c, i) in out {
        if i != at && c.depth - touch <= tol && Seam::new(&c, body.round(), tol).holds(deep.normal, &shapes[at]) {
            if rest.1 == f32::INFINITY {
                rest.1 = thick(&deep, at);
            }
            let w = thick(&c, i);
            if w < rest.1 || (w == rest.1 && c.depth > rest.0.depth) {
                rest = (c, w);
            }
        }
    }
    Some((rest.0, deep.depth))
}

/// Where a box stands at the start of a move: the contact it rests on (grown by the touch
/// margin, present when the nearest contact is within it; see [`resting`]), the seam rule of
/// the surface it rests or hovers on, and the start's penetration.
struct Stand {
    rest: Option<Contact>,
    /// The surface under it within the margin (as a contact grown by the touch margin: a
    /// negative depth is a gap) and the gap's width, whether touching or hovering.
    under: Option<(Contact, f32)>,
    seam: Option<Seam>,
    depth: f32,
}

/// [`Stand`] of `body` at `p`: one pass of contacts grown by the larger of the skin (a swept
/// move leaves the box hovering that far above the floor) and the seam height, plus the touch
/// margin, so the floor is found under a corner that sits on a raised end.
#[inline]
fn stand<S: Shape>(body: impl Mover, p: Vec2, shapes: &[S], touch: f32, skin: f32, tol: f32) -> Stand {
    let height = (SEAM_OF_ROUNDING * body.round()).max(tol);
    let margin = skin.max(height) + touch;
    let Some((r, deep)) = resting(body, p, shapes, margin, tol) else {
        return Stand { rest: None, under: None, seam: None, depth: 0.0 };
    };
    let shift = margin - touch;
    let under = Contact { depth: r.depth - shift, ..r };
    let rest = (deep > shift).then_some(under);
    let seam = (r.depth - margin <= tol).then(|| Seam::new(&r, body.round(), tol));
    Stand { rest, under: Some((under, (margin - r.depth).max(0.0))), seam, depth: (deep - margin).max(0.0) }
}

/// Whether two normals differ by more than the seam rule's tilt, 1e-3 rad (a bend of loose
/// pieces misaligned by 1e-5 or of a polyline's rounding is not one).
#[inline]
fn tilted(a: Vec2, b: Vec2) -> bool {
    a.perp_dot(b).abs() > 1e-3 || a.dot(b) < 0.0
}

/// [`deepest_grown`] with the seam rule.
fn deepest_seam<S: Shape>(body: impl Mover, q: Vec2, shapes: &[S], grow: f32, seam: Option<&Seam>) -> Option<Contact> {
    if seam.is_none() || !body.clips_start() {
        return deepest_grown(body, q, shapes, grow);
    }
    let mut best: Option<Contact> = None;
    for s in shapes {
        if let Some(c) = body.contact(s, q, grow) {
            let c = Seam::apply(seam, body, s, q, c, grow);
            if c.depth > 0.0 && best.is_none_or(|b| c.depth > b.depth) {
                best = Some(c);
            }
        }
    }
    best
}

/// How many contacts, deepest first, the discrete move considers as the push of an iteration.
const CANDIDATES: usize = 4;

/// The deepest contacts of `body` at `p` against `shapes`, one per direction (normals within a
/// crease of each other count once, by their deepest), deepest first: at most [`CANDIDATES`],
/// and how many there are. A box's bottom across a floor of many short pieces meets each of
/// them with the same up normal; the one piece end it enters sideways must still be seen.
fn candidates<S: Shape>(
    body: impl Mover,
    p: Vec2,
    shapes: &[S],
    seam: Option<&Seam>,
) -> ([Contact; CANDIDATES], usize) {
    let none = Contact { point: Vec2::ZERO, normal: Vec2::ZERO, depth: 0.0 };
    let mut out = [none; CANDIDATES];
    let mut n = 0;
    for s in shapes {
        let Some(c) = body.contact(s, p, 0.0) else { continue };
        let c = Seam::apply(seam, body, s, p, c, 0.0);
        if c.depth <= 0.0 {
            continue;
        }
        // The slot it takes: that of its direction if listed (only when deeper), else the end
        // (dropping the shallowest when full).
        let mut i = match out[..n].iter().position(|o| !crease(o.normal, c.normal)) {
            Some(k) if out[k].depth >= c.depth => continue,
            Some(k) => k,
            None if n < CANDIDATES => {
                n += 1;
                n - 1
            }
            None if c.depth > out[CANDIDATES - 1].depth => CANDIDATES - 1,
            None => continue,
        };
        // Move it up to keep the list sorted by depth; ties keep slice order.
        while i > 0 && out[i - 1].depth < c.depth {
            out[i] = out[i - 1];
            i -= 1;
        }
        out[i] = c;
    }
    (out, n)
}

/// How far `body` at `p` must travel along the unit `dir` to leave every shape it overlaps by
/// more than `tol`, shapes it meets on the way included: each shape's exit distance is found by
/// casting the body back toward the point from beyond the shape along `dir` (the first touch of
/// that cast is where the ray leaves the shape grown by the body, for a convex shape), and the
/// largest is taken, then again from there while the body still overlaps something (a floor of
/// pieces, whose next pieces the body enters as it leaves the first). Infinite when that does
/// not end within a few rounds.
fn exit_along<S: Shape>(body: impl Mover, p: Vec2, dir: Vec2, shapes: &[S], tol: f32) -> f32 {
    let mut t = 0.0f32;
    for _ in 0..8 {
        let q = p + dir * t;
        let mut next = t;
        for s in shapes {
            if body.contact(s, q, 0.0).is_none_or(|c| c.depth <= tol) {
                continue;
            }
            let b = s.bounds();
            let l = (q - b.center()).length() + b.size().length() + 2.0 * body.reach() + 1.0;
            match body.cast(s, q + dir * l, -dir * l) {
                Some(h) => next = next.max(t + l * (1.0 - h.t)),
                None => return f32::INFINITY,
            }
        }
        if next <= t {
            return t;
        }
        t = next;
    }
    f32::INFINITY
}

/// The push out of a surface that no single contact names: a box's corner driven into a seam
/// of a slope, where the piece below the seam offers its up axis and the piece above it its
/// sideways axis, each shallower than the slope's own normal and neither clearing the other.
///
/// The pushes that clear everything along two directions, `n1 d1` and `n2 d2`, both end on the
/// slope's line, whose normal is therefore perpendicular to their difference and whose distance
/// is the least push. The two directions start as the two contact normals; while the estimate
/// does not clear every penetration (the far one left the slope, or left the shapes the caller
/// passed), the farther sample is replaced by the estimate's own (a secant step). Used only
/// when the push is no longer than `sqrt(2)` times the deepest contact (a slope, not a corner of
/// two walls) and it clears every penetration.
fn face_push<S: Shape>(
    body: impl Mover,
    p: Vec2,
    list: &[Contact],
    shapes: &[S],
    tol: f32,
) -> Option<(Contact, Option<Contact>)> {
    let n1 = list[0].normal;
    let n2 = list[1..].iter().map(|c| c.normal).find(|&n| crease(n1, n))?;
    let most = core::f32::consts::SQRT_2 * list[0].depth + tol;
    let mut a = (n1, exit_along(body, p, n1, shapes, tol));
    let mut b = (n2, exit_along(body, p, n2, shapes, tol));
    for _ in 0..4 {
        // A direction that never clears (or not within the shapes given) is brought a quarter
        // radian from the other toward it.
        if !a.1.is_finite() && !b.1.is_finite() {
            return None;
        }
        let toward = |near: (Vec2, f32), far: (Vec2, f32)| {
            let t = if near.0.perp().dot(far.0) >= 0.0 { near.0.perp() } else { -near.0.perp() };
            let dir = near.0 * 0.968_912_4 + t * 0.247_404;
            (dir, exit_along(body, p, dir, shapes, tol))
        };
        if !a.1.is_finite() {
            a = toward(b, a);
        } else if !b.1.is_finite() {
            b = toward(a, b);
        }
        if !(a.1.is_finite() && b.1.is_finite()) {
            return None;
        }
        let (pa, pb) = (a.0 * a.1, b.0 * b.1);
        let mut n = (pb - pa).perp().normalize_or_zero();
        if n.dot(a.0) < 0.0 {
            n = -n;
        }
        let d = pa.dot(n);
        if n == Vec2::ZERO || !(d > 0.0 && d <= most) {
            return None;
        }
        let after = deepest(body, p + n * d, shapes);
        if after.is_none_or(|c| c.depth <= tol) {
            return Some((Contact { point: p - n * d, normal: n, depth: d }, after));
        }
        let sample = (n, exit_along(body, p, n, shapes, tol));
        if a.1 > b.1 {
            a = sample;
        } else {
            b = sample;
        }
    }
    None
}

/// Whether two contact normals differ by more than about 3 degrees (a crease, not a seam).
#[inline]
fn crease(a: Vec2, b: Vec2) -> bool {
    a.perp_dot(b).abs() > 0.05 || a.dot(b) < 0.0
}

fn discrete<S: Shape>(
    body: impl Mover,
    center: Vec2,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
    given: Option<Seam>,
) -> (SlideOutcome, bool) {
    let scale = body.scale();
    let ulp = spacing(center, motion, scale);
    let tol = tolerance(options, scale, ulp);
    let mut first_normal: Option<Vec2> = None;
    let mut creased = false;
    let mut rest_normal: Option<Vec2> = None;
    let mut seam = given;
    let mut step = motion;
    let start_depth = if body.clips_start() {
        // The leading edge first (a box only): resting on a surface (touching it, or in it by no
        // more than the tolerance), the motion into that surface is removed before the move, as
        // the swept move's first leg does. Pressed into a floor of pieces, the box then slides
        // along it instead of driving its bottom into the floor, where the ends of the next
        // pieces (entered sideways by as much as the floor from above) offered sideways normals
        // as deep as the floor's. The touch margin is the swept move's.
        let touch = (1e-5 * scale).max(2.0 * ulp);
        let skin = (options.skin * scale).max(4.0 * touch);
        let here = stand(body, center, shapes, touch, skin, tol);
        let rest = here.rest;
        rest_normal = rest.filter(|_| here.depth <= tol).map(|c| c.normal);
        if seam.is_none() {
            seam = here.seam;
        }
        // A point the rounded corner glides past (the end of a piece a hair above the line,
        // under the corner's arc, whose normal tilts by up to `sqrt(2 touch / round)`) is not
        // what the box rests on: the swept move's rule (`passes_by`) tells them apart. A box
        // hovering over the surface within the margin (a seam's lift, a swept move's skin)
        // first closes the gap, then slides: driven into a slope by more than its corner
        // rounding, its contact would be measured across the slope's line.
        if let Some((c, gap)) = here.under
            && here.depth <= tol
            && step.dot(c.normal) < 0.0
            && !passes_by(&c, step, step.length_squared(), body.round(), touch, tol)
        {
            let tangent = c.normal.perp();
            let down = if gap > touch { (-step.dot(c.normal)).min(gap - touch) } else { 0.0 };
            step = tangent * step.dot(tangent) - c.normal * down;
            first_normal = Some(c.normal);
        }
        here.depth
    } else {
        max_depth(body, center, shapes)
    };
    let mut p = center + step;
    let mut best = (p, f32::INFINITY);
    let mut contacts = 0;
    let mut last_normal: Option<Vec2> = None;
    for i in 0..=options.iterations {
        let (c, depth_here, after) = match options.order {
            Order::DeepestFirst => {
                // A disk's contact normals turn smoothly over piece ends: the deepest alone.
                let (list, n) = if body.clips_start() {
                    candidates(body, p, shapes, seam.as_ref())
                } else {
                    let mut one = [Contact { point: Vec2::ZERO, normal: Vec2::ZERO, depth: 0.0 }; CANDIDATES];
                    let c = deepest(body, p, shapes);
                    one[0] = c.unwrap_or(one[0]);
                    (one, usize::from(c.is_some()))
                };
                let depth_here = if n == 0 { 0.0 } else { list[0].depth };
                if depth_here < best.1 {
                    best = (p, depth_here);
                }
                if n == 0 || depth_here <= tol || i == options.iterations {
                    break;
                }
                // Necessary corrections first: of the contacts, deepest first, the first whose
                // push alone leaves no penetration beyond the tolerance. Where two are equally
                // deep (a box landing at 45 degrees on a floor of pieces: the end of a piece
                // entered sideways by exactly as much as the floor was entered from above), the
                // piece end's sideways normal is not a wall: pushing along it leaves the box in
                // the floor, while the floor's push clears both. When no push clears everything
                // (a real corner), the deepest goes first and the corner rule below slides.
                // (A disk has no seam rule: its code is compiled out of the disk's move.)
                let z = if body.clips_start() { seam.as_ref() } else { None };
                let mut pick = (list[0], deepest_seam(body, p + list[0].normal * list[0].depth, shapes, 0.0, z));
                if n > 1 && pick.1.is_some_and(|c2| c2.depth > tol) {
                    let clean = list[1..n].iter().find_map(|c| {
                        let after = deepest_seam(body, p + c.normal * c.depth, shapes, 0.0, z);
                        after.is_none_or(|a| a.depth <= tol).then_some((*c, after))
                    });
                    if let Some(c) = clean {
                        pick = c;
                    } else if let Some(c) = face_push(body, p, &list[..n], shapes, tol) {
                        // Two creased contacts gave this push: a slope's seam, or the apex of a
                        // shallow V, whose chord it is; the move counts as meeting a crease.
                        pick = c;
                        creased = true;
                    }
                }
                (pick.0, depth_here, pick.1)
            }
            Order::FirstFound => {
                let depth_here = max_depth(body, p, shapes);
                if depth_here < best.1 {
                    best = (p, depth_here);
                }
                let found = shapes.iter().find_map(|s| body.contact(s, p, 0.0));
                let Some(c) = found else { break };
                if depth_here <= tol || i == options.iterations {
                    break;
                }
                (c, depth_here, None)
            }
        };
        let _ = depth_here;
        p += c.normal * c.depth;
        contacts += 1;
        last_normal = Some(c.normal);
        match first_normal {
            None => first_normal = Some(c.normal),
            Some(f) => creased |= crease(f, c.normal),
        }
        // A corner (a second contact whose normal differs by more than 3 degrees): slide along
        // the first surface out of the second instead of bouncing between them, which
        // converges slowly and jitters from step to step.
        if options.order == Order::DeepestFirst
            && let Some(c2) = after
            && c2.depth > tol
        {
            let along = c.normal.perp();
            let k = along.dot(c2.normal);
            if c.normal.perp_dot(c2.normal).abs() > 0.05 {
                creased = true;
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
    // A move from a resolved start that met a crease and gets nowhere along the motion keeps
    // its start (see `no_headway`): pushed into the apex of a V, a box's corner has two equally
    // deep ways out, up and sideways, and the move would alternate between them from step to
    // step. A move along one surface is never held back this way: pressed into a floor it sank
    // into by rounding, its push out of the floor can lift it by as much as the motion took it
    // along, and the dot product with the motion is then about zero though it slid.
    if (creased || !body.clips_start()) && no_headway(center, position, motion, rest_normal, start_depth, tol) {
        position = center;
        depth = start_depth;
    }
    (SlideOutcome { position, depth, resolved: depth <= tol, contacts, last_normal }, creased)
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
    Ok(swept(DiskMover(radius), center, motion, shapes, options, |n, _, _, _| n))
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
pub fn slide_aabb_swept<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    let body = check_box(aabb, motion, options)?;
    Ok(swept(body, aabb.center(), motion, shapes, options, |n, _, _, _| n))
}

/// The sine of the angle between a remaining motion and a touched surface below which the
/// motion counts as gliding along it, not into it: rounding in recomputed normals is ~1e-7.
const PARALLEL: f32 = 1e-5;

/// The smallest angle (radians) between two surfaces that makes a crease: bends below it (loose
/// pieces misaligned by 1e-5 over a unit, polylines tilting by 1e-4) are crossed, not stopped at.
/// Far from the origin the threshold is raised to twice the two normals' rounding wobble (see
/// `swept`): a piece of length `L` whose ends are rounded to the spacing `ulp` tilts by up to
/// about `ulp / L`, 1e-3 for unit pieces at 8200.
const BEND: f32 = 1e-3;

/// Whether a first touch with `normal` stops the motion `rem` (of squared length `len2`): a
/// touch whose normal is perpendicular to the motion, within rounding, does not. The shapes are
/// convex, so a path that first meets one along a tangent (a rounded corner gliding exactly over
/// the end of the next piece of a floor, a face parallel to the motion) never enters it: taking
/// such a touch as a hit ended a leg at every piece end, and a fast box gliding over a floor of
/// short pieces ran out of legs.
#[inline]
fn opposes(normal: Vec2, rem: Vec2, len2: f32) -> bool {
    let into = normal.dot(rem);
    into < 0.0 && into * into > (PARALLEL * PARALLEL) * len2
}

/// Whether a contact `c` found with the touch margin `touch` is one the motion `rem` (of squared
/// length `len2`) glides past rather than into: the body, whose rounded part has radius `round`,
/// does not reach the obstacle (the contact's depth is within the margin), and the path of the
/// rounded part's centre passes the contact point at `round` or more, less `tol`. A box gliding
/// along a floor meets the end of the next co-linear piece this way, just below its rounded
/// corner: the direction from that end to the corner tilts up to `sqrt(2 touch / round)`, and
/// blocking along it would lift the box for the rest of the step though its path never touches
/// the end. The caller then skips the contact only if a cast of the body backed off by the
/// margin along the normal (a start the cast resolves) finds no touch either: a flat face met at
/// a glancing angle passes this test too, and its cast finds it (so a fast body never tunnels).
#[inline]
fn passes_by(c: &Contact, rem: Vec2, len2: f32, round: f32, touch: f32, tol: f32) -> bool {
    if round <= 0.0 || c.depth > touch {
        return false;
    }
    // The rounded part's centre is `dist` from the contact point along the normal; its distance
    // from the line through that centre along `rem` is `dist * |sin|` of their angle.
    let dist = round + touch - c.depth;
    let miss = dist * rem.perp_dot(c.normal).abs();
    let least = round - tol.min(0.5 * round);
    miss * miss >= least * least * len2
}

/// The swept move with a hook called at each hit, which may replace its normal (the character
/// controller turns steep slopes into walls and notes what it touched): `adjust(normal, shape,
/// position at the touch, remaining motion)`.
pub(crate) fn swept<S: Shape>(
    body: impl Mover,
    center: Vec2,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
    mut adjust: impl FnMut(Vec2, &S, Vec2, Vec2) -> Vec2,
) -> SlideOutcome {
    let scale = body.scale();
    let ulp = spacing(center, motion, scale);
    let tol = tolerance(options, scale, ulp);
    // The skin and the touch margin, like the tolerance, never drop below what the coordinates
    // can resolve; the skin stays well above the touch margin so a leg that stopped short of a
    // surface sees it as touched on the next one.
    let touch = (1e-5 * scale).max(2.0 * ulp);
    let skin = (options.skin * scale).max(4.0 * touch);
    let round = body.round();
    let mut p = center;
    // A box notes the surface it rests on (see `no_headway`) and the seam rule of the surface it
    // rests or hovers on (see `Seam`: a raised piece end met on the way blocks as that surface
    // does, not as a wall); a disk's move is the plain one.
    let here = if body.clips_start() {
        stand(body, p, shapes, touch, skin, tol)
    } else {
        Stand { rest: None, under: None, seam: None, depth: max_depth(body, p, shapes) }
    };
    let (rest, seam, start_depth) = (here.rest, here.seam, here.depth);
    let rest_normal = rest.filter(|_| start_depth <= tol).map(|c| c.normal);
    // (A disk has no seam rule: its code is compiled out of the disk's move.)
    let z = if body.clips_start() { seam.as_ref() } else { None };
    // Whether the move met two surfaces at an angle (see `no_headway`).
    let mut creased = false;
    if start_depth > tol {
        let (out, bent) = discrete(body, p, Vec2::ZERO, shapes, options, None);
        p = out.position;
        creased |= bent;
    }
    let mut rem = motion;
    let mut normals: [(Vec2, f32); 8] = [(Vec2::ZERO, 0.0); 8];
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
        let mut hit: Option<(f32, Vec2, f32, &S)> = None; // (t, normal, depth, shape)
        for s in shapes {
            if let Some(c) = body.contact(s, p, touch) {
                let c = if body.clips_start() { Seam::apply(z, body, s, p, c, touch) } else { c };
                // Pushing into it, beyond the rounding left by removing the motion into a
                // surface whose normal, computed again here, differs in the last bits; unless
                // the contact lies within the touch margin only, the rounded part's path passes
                // it by, and a cast from the margin's far side confirms it is not in the way
                // (see `passes_by`; checked last, so only a contact that would block pays).
                let into = c.normal.dot(rem);
                if into < 0.0
                    && into * into > (PARALLEL * PARALLEL) * len2
                    && hit.is_none_or(|h| h.0 > 0.0 || c.depth > h.2)
                    && !(passes_by(&c, rem, len2, round, touch, tol)
                        && body.cast(s, p + c.normal * touch, rem).is_none())
                {
                    hit = Some((0.0, c.normal, c.depth, s));
                }
            } else if let Some(h) = body.cast(s, p, rem)
                && hit.is_none_or(|b| h.t < b.0)
                && opposes(Seam::normal(z, body, h.normal, s), rem, len2)
            {
                hit = Some((h.t, Seam::normal(z, body, h.normal, s), 0.0, s));
            }
        }
        let Some((t, normal, depth, shape)) = hit else {
            p += rem;
            break;
        };
        // A surface already entered (within the tolerance, by rounding): leave it along its
        // normal, or a body gliding along it sinks by rounding up to the tolerance, and the end
        // of the next piece becomes a bump of that height.
        if depth > touch {
            p += normal * (depth - touch);
        }
        let normal = adjust(normal, shape, p + rem * t, rem);
        let len = sqrt(len2);
        let t = (t - skin / len).max(0.0);
        p += rem * t;
        rem *= 1.0 - t;
        // Keep only the motion along the surface: the projection on its tangent, which has no
        // component into it at all (subtracting `normal * into` leaves a rounding remainder of
        // ~1e-8 pointing into the surface, and every later leg would block at t = 0).
        if rem.dot(normal) < 0.0 {
            let tangent = normal.perp();
            rem = tangent * rem.dot(tangent);
        }
        contacts += 1;
        last_normal = Some(normal);
        // A slide that goes back into an earlier surface is a crease: in 2D, stop. The wanted
        // motion clipped by this surface alone is checked too, or a chain of clips could turn a
        // push into a corner into a climb out of it.
        let mut whole = motion;
        if whole.dot(normal) < 0.0 {
            let tangent = normal.perp();
            whole = tangent * whole.dot(tangent);
        }
        // Going back into an earlier surface by more than a bend of `BEND` radians: a bend of
        // a few micro-radians (loose collinear pieces, a polyline's rounding) is not a corner.
        // Nor is a bend within what rounding does to the normals: the ends of an obstacle of
        // size `L` (its bounds' diagonal) are rounded to the spacing, which tilts its normal by
        // up to `ulp / L`, and a normal measured from the body (a point against its round part)
        // by up to `ulp / size`. A crease far from the origin must exceed twice both together.
        let wobble = ulp / shape.bounds().size().length().min(scale);
        let back = |v: Vec2, &(m, w): &(Vec2, f32)| v.dot(m) < -BEND.max(2.0 * (w + wobble)) * v.length();
        creased |= normals[..n_normals].iter().any(|m| crease(m.0, normal));
        if normals[..n_normals].iter().any(|m| back(rem, m) || back(whole, m)) {
            rem = Vec2::ZERO;
        }
        if n_normals < normals.len() {
            normals[n_normals] = (normal, wobble);
            n_normals += 1;
        }
    }
    let end = if body.clips_start() { deepest_seam(body, p, shapes, touch, z) } else { None };
    let mut depth =
        if body.clips_start() { end.map_or(0.0, |c| (c.depth - touch).max(0.0)) } else { max_depth(body, p, shapes) };
    // Ending against a surface at an angle to the one it started on, which the motion pushes
    // into (by rounding, within the touch margin or the tolerance: the leg along the first
    // ended a hair short of the second, or a hair in it), is a crease met as surely as one hit.
    if let (Some(c), Some(n)) = (end, rest_normal)
        && c.normal.dot(motion) < 0.0
        && crease(n, c.normal)
    {
        creased = true;
    }
    if depth > tol {
        let (fixed, bent) = discrete(body, p, Vec2::ZERO, shapes, &SlideOptions { iterations: 4, ..*options }, seam);
        creased |= bent;
        p = fixed.position;
        depth = fixed.depth;
    }
    // As in `discrete`: a move from a resolved start that met a crease and gets nowhere keeps
    // the start.
    if (creased || !body.clips_start()) && no_headway(center, p, motion, rest_normal, start_depth, tol) {
        p = center;
        depth = start_depth;
    }
    SlideOutcome { position: p, depth, resolved: depth <= tol, contacts, last_normal }
}

/// Renamed [`deepest_contact_aabb`] (the `aabb` of every other box function).
#[deprecated(since = "0.2.0", note = "renamed `deepest_contact_aabb`")]
#[must_use]
pub fn deepest_contact_box<S: Shape>(aabb: &Aabb, shapes: &[S]) -> Option<Contact> {
    deepest_contact_aabb(aabb, shapes)
}

/// Renamed [`contacts_aabb`].
#[deprecated(since = "0.2.0", note = "renamed `contacts_aabb`")]
pub fn contacts_box<S: Shape>(aabb: &Aabb, shapes: &[S], out: &mut Vec<Contact>) {
    contacts_aabb(aabb, shapes, out);
}

/// Renamed [`slide_aabb`].
///
/// # Errors
/// As [`slide_aabb`].
#[deprecated(since = "0.2.0", note = "renamed `slide_aabb`")]
pub fn slide_box<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    slide_aabb(aabb, motion, shapes, options)
}

/// Renamed [`slide_aabb_swept`].
///
/// # Errors
/// As [`slide_aabb_swept`].
#[deprecated(since = "0.2.0", note = "renamed `slide_aabb_swept`")]
pub fn slide_box_swept<S: Shape>(
    aabb: &Aabb,
    motion: Vec2,
    shapes: &[S],
    options: &SlideOptions,
) -> Result<SlideOutcome, Error> {
    slide_aabb_swept(aabb, motion, shapes, options)
}
