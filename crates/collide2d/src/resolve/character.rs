//! A character controller for platformers and top-down games on the swept slide moves: one
//! controller for a disk, a box and a vertical capsule, with floors (slope limit, sliding down
//! steep slopes, no creep, snapping, step-up), one-way obstacles, moving platforms (carry, push,
//! crush), filters and any `up` direction. Obstacles come from an [`ObstacleSource`], which a
//! plain slice, a tile map or a broadphase index implements.
//!
//! A move allocates nothing while at most [`INLINE_OBSTACLES`] obstacles lie near it (a larger
//! neighbourhood spills into one `Vec`), and the obstacles touched are reported in a fixed array.

use alloc::vec::Vec;

use glam::Vec2;

use super::slide::{BoxMover, DiskMover, Mover, SlideOptions, spacing, swept, tolerance};
use crate::collider::Shape;
use crate::error::{Error, finite, positive};
use crate::math::cos;
use crate::report::{Contact, Hit};
use crate::shapes::Aabb;

/// The body of a character. Boxes and capsules stay axis-aligned whatever the controller's `up`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CharacterShape {
    /// A disk of this radius.
    Disk {
        /// Radius, > 0.
        radius: f32,
    },
    /// A box (`Aabb`) of these half extents, its corners rounded by
    /// [`SlideOptions::rounding`].
    Aabb {
        /// Half width and half height, both > 0.
        half_extents: Vec2,
    },
    /// A vertical capsule: the points within `radius` of the segment from `-half_height` to
    /// `+half_height` along `y` (total height `2 (half_height + radius)`).
    Capsule {
        /// Half the length of the core segment, >= 0.
        half_height: f32,
        /// Radius, > 0.
        radius: f32,
    },
}

impl CharacterShape {
    fn check(&self) -> Result<(), Error> {
        match *self {
            CharacterShape::Disk { radius } => positive(radius, "radius"),
            CharacterShape::Aabb { half_extents } => {
                positive(half_extents.x, "half width")?;
                positive(half_extents.y, "half height")
            }
            CharacterShape::Capsule { half_height, radius } => {
                positive(radius, "capsule radius")?;
                if half_height >= 0.0 && half_height.is_finite() {
                    Ok(())
                } else {
                    Err(Error::OutOfRange { what: "capsule half height", value: half_height })
                }
            }
        }
    }

    /// How far the body reaches from its centre along the unit `dir`.
    #[must_use]
    pub fn extent(&self, dir: Vec2) -> f32 {
        match *self {
            CharacterShape::Disk { radius } => radius,
            CharacterShape::Aabb { half_extents: h } => h.x * dir.x.abs() + h.y * dir.y.abs(),
            CharacterShape::Capsule { half_height, radius } => radius + half_height * dir.y.abs(),
        }
    }

    /// The bounding box of the body centred at `center`.
    #[must_use]
    pub fn bounds(&self, center: Vec2) -> Aabb {
        let h = Vec2::new(self.extent(Vec2::X), self.extent(Vec2::Y));
        Aabb::covering(center - h, center + h)
    }

    /// The smaller of the half width and the half height: the size tolerances scale with.
    fn scale(&self) -> f32 {
        self.extent(Vec2::X).min(self.extent(Vec2::Y))
    }
}

/// Whether the controller has floors (a side-view game) or not (a top-down game, where every
/// surface is a wall and nothing is stood on, snapped to or stepped onto).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FloorMode {
    /// Floors, walls and ceilings relative to `up`.
    #[default]
    Platformer,
    /// No floor at all: every surface is a wall.
    TopDown,
}

/// The properties of an obstacle: who it is, which layers it is on, whether it blocks from one
/// side only, and how it moves.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ObstacleInfo {
    /// The caller's name for it, reported back in [`Touch`] and [`Floor`].
    pub id: u64,
    /// Layer bits; the obstacle counts for a controller whose `mask` shares a bit with them.
    pub layers: u32,
    /// One-way obstacle: `Some(dir)` blocks only a body wholly on the `dir` side of it (its
    /// support along `dir`) at the start of a move: landed on from that side, passed from any
    /// other, ignored while the body is partly inside. `dir` is a unit vector (`Vec2::Y` for a
    /// platform stood on from above; a sloped one-way segment takes its own normal).
    pub one_way: Option<Vec2>,
    /// Velocity (units per second). The obstacle is at its start-of-frame position and moves by
    /// `velocity * dt` during the move; the caller moves it after the move.
    pub velocity: Vec2,
}

impl Default for ObstacleInfo {
    fn default() -> Self {
        Self { id: 0, layers: u32::MAX, one_way: None, velocity: Vec2::ZERO }
    }
}

impl ObstacleInfo {
    /// An obstacle with this id on every layer, two-way, at rest.
    #[must_use]
    pub fn new(id: u64) -> Self {
        Self { id, ..Self::default() }
    }
}

/// A shape with its [`ObstacleInfo`], for levels kept as a slice (`&[Obstacle<S>]` is an
/// [`ObstacleSource`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Obstacle<S> {
    /// The shape at its start-of-frame position.
    pub shape: S,
    /// Its properties.
    pub info: ObstacleInfo,
}

/// Where a controller's obstacles come from: every obstacle whose bounds may overlap an area,
/// handed to a visitor, with no collection on the caller's side.
///
/// Implemented for `&[S]` (ids are the indices, every obstacle two-way and at rest), for
/// `&[Obstacle<S>]`, and for `&Vec` and `&[_; N]` of both. A broadphase index or a tile map implements it in a
/// few lines (see docs/collide2d.md). A moving obstacle must be reported when its bounds at the
/// start *or* the end of the frame overlap `area` (a broadphase's fattened box does that).
pub trait ObstacleSource<'a> {
    /// The obstacles' shape type.
    type Shape: Shape + 'a;
    /// Calls `visit` for every obstacle that may overlap `area` (extra ones are harmless).
    fn query(self, area: &Aabb, visit: impl FnMut(&'a Self::Shape, ObstacleInfo));
}

fn moved_bounds<S: Shape>(shape: &S, velocity: Vec2, dt: f32) -> Aabb {
    let b = shape.bounds();
    if velocity == Vec2::ZERO { b } else { b.union(&b.translated(velocity * dt)) }
}

impl<'a, S: Shape + 'a> ObstacleSource<'a> for &'a [S] {
    type Shape = S;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a S, ObstacleInfo)) {
        for (i, s) in self.iter().enumerate() {
            if s.bounds().overlaps(area) {
                visit(s, ObstacleInfo::new(i as u64));
            }
        }
    }
}

impl<'a, S: Shape + 'a> ObstacleSource<'a> for &'a Vec<S> {
    type Shape = S;
    fn query(self, area: &Aabb, visit: impl FnMut(&'a S, ObstacleInfo)) {
        self.as_slice().query(area, visit);
    }
}

impl<'a, S: Shape + 'a, const N: usize> ObstacleSource<'a> for &'a [S; N] {
    type Shape = S;
    fn query(self, area: &Aabb, visit: impl FnMut(&'a S, ObstacleInfo)) {
        self.as_slice().query(area, visit);
    }
}

impl<'a, S: Shape + 'a, const N: usize> ObstacleSource<'a> for &'a [Obstacle<S>; N] {
    type Shape = S;
    fn query(self, area: &Aabb, visit: impl FnMut(&'a S, ObstacleInfo)) {
        self.as_slice().query(area, visit);
    }
}

/// The time step the slice of obstacles assumes for its moving obstacles' swept bounds: none
/// is given to `query`, so a slice reports a moving obstacle whose bounds, grown by one second
/// of its motion, overlap the area (a superset, which is harmless).
const SLICE_SWEEP: f32 = 1.0;

impl<'a, S: Shape + 'a> ObstacleSource<'a> for &'a [Obstacle<S>] {
    type Shape = S;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a S, ObstacleInfo)) {
        for o in self {
            if moved_bounds(&o.shape, o.info.velocity, SLICE_SWEEP).overlaps(area)
                || moved_bounds(&o.shape, -o.info.velocity, SLICE_SWEEP).overlaps(area)
            {
                visit(&o.shape, o.info);
            }
        }
    }
}

impl<'a, S: Shape + 'a> ObstacleSource<'a> for &'a Vec<Obstacle<S>> {
    type Shape = S;
    fn query(self, area: &Aabb, visit: impl FnMut(&'a S, ObstacleInfo)) {
        self.as_slice().query(area, visit);
    }
}

/// An obstacle touched during a move.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Touch {
    /// The obstacle's id.
    pub id: u64,
    /// The surface normal, pointing toward the body.
    pub normal: Vec2,
    /// The touched point on the obstacle.
    pub point: Vec2,
}

/// The floor a character stands on.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Floor {
    /// Its normal.
    pub normal: Vec2,
    /// The obstacle's id.
    pub id: u64,
    /// The obstacle's velocity.
    pub velocity: Vec2,
}

/// How many touched obstacles a [`CharacterMove`] lists.
pub const MAX_TOUCHES: usize = 8;

/// How many obstacles near a move are gathered without allocating.
pub const INLINE_OBSTACLES: usize = 48;

/// The result of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterMove {
    /// The new centre.
    pub position: Vec2,
    /// The velocity to carry into the next move: the given one with what surfaces stopped
    /// removed (on a floor, all of the motion into it, so gravity never builds up), plus the
    /// floor's velocity when the body left a moving floor (a jump off a lift keeps its speed).
    pub velocity: Vec2,
    /// The velocity achieved: the displacement of this move divided by `dt` (carrying and
    /// pushing platforms included).
    pub achieved_velocity: Vec2,
    /// The floor stood on at the end, if any.
    pub floor: Option<Floor>,
    /// The normal of a wall touched, if any.
    pub wall: Option<Vec2>,
    /// The normal of a ceiling touched, if any.
    pub ceiling: Option<Vec2>,
    /// Whether a step-up was taken.
    pub stepped: bool,
    /// Whether the body was snapped down to the ground.
    pub snapped: bool,
    /// Whether the body is squeezed: a moving obstacle overlaps it beyond the tolerance at the
    /// end of the move (it could not be pushed or carried clear). It is never pushed through a
    /// static obstacle to get out; the game decides what crushing means.
    pub crushed: bool,
    touches: [Touch; MAX_TOUCHES],
    touch_count: u8,
    /// Obstacles touched beyond the first [`MAX_TOUCHES`], not listed.
    pub touches_dropped: u32,
}

impl CharacterMove {
    /// Standing on a floor.
    #[must_use]
    pub fn on_floor(&self) -> bool {
        self.floor.is_some()
    }
    /// Touching a wall.
    #[must_use]
    pub fn on_wall(&self) -> bool {
        self.wall.is_some()
    }
    /// Touching a ceiling.
    #[must_use]
    pub fn on_ceiling(&self) -> bool {
        self.ceiling.is_some()
    }
    /// Every obstacle touched during the move (each once, first touch first), at most
    /// [`MAX_TOUCHES`].
    #[must_use]
    pub fn touches(&self) -> &[Touch] {
        &self.touches[..usize::from(self.touch_count)]
    }
    /// Compatibility with the first controller: standing on a floor.
    #[must_use]
    pub fn grounded(&self) -> bool {
        self.on_floor()
    }

    fn note(&mut self, t: Touch) {
        if self.touches().iter().any(|o| o.id == t.id) {
            return;
        }
        if usize::from(self.touch_count) < MAX_TOUCHES {
            self.touches[usize::from(self.touch_count)] = t;
            self.touch_count += 1;
        } else {
            self.touches_dropped += 1;
        }
    }
}

/// Settings of a character: its shape, its floors, and what it collides with.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterController {
    /// The body.
    pub shape: CharacterShape,
    /// The unit `up` direction (floors face it, gravity is the caller's and opposes it).
    pub up: Vec2,
    /// Floors, or none (top-down).
    pub mode: FloorMode,
    /// Steepest walkable slope, radians from `up`'s perpendicular, in `[0, pi/2)`. Steeper
    /// surfaces are walls: walking into them stops, and standing on them slides down.
    pub max_slope: f32,
    /// Move up and down walkable slopes at the speed walked on flat ground (the motion along
    /// the floor keeps its length) rather than at its horizontal speed.
    pub constant_speed_on_slopes: bool,
    /// Highest ledge stepped onto while walking (0 disables step-up).
    pub step_height: f32,
    /// How far down the body is pulled to the ground when walking off a slope's crest or down
    /// stairs (0 disables snapping). Never while rising.
    pub snap_length: f32,
    /// How far from the body a surface still counts as touched (floor, wall, ceiling).
    pub ground_distance: f32,
    /// Layer mask: obstacles whose layers share no bit with it are ignored.
    pub mask: u32,
    /// Options of the underlying swept moves.
    pub options: SlideOptions,
}

impl CharacterController {
    /// A disk controller (see [`CharacterController::with_shape`]).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotPositive`] for a bad radius.
    pub fn new(radius: f32) -> Result<Self, Error> {
        Self::with_shape(CharacterShape::Disk { radius })
    }

    /// A controller for `shape`, `up = +y`, a 50 degree slope limit, `step_height` and
    /// `snap_length` half the body's smaller half size, `ground_distance` a twentieth of it, every
    /// layer, constant speed on slopes off.
    ///
    /// # Errors
    /// A shape with a size not finite or not positive.
    pub fn with_shape(shape: CharacterShape) -> Result<Self, Error> {
        shape.check()?;
        let s = shape.scale();
        Ok(Self {
            shape,
            up: Vec2::Y,
            mode: FloorMode::Platformer,
            max_slope: 50f32.to_radians(),
            constant_speed_on_slopes: false,
            step_height: 0.5 * s,
            snap_length: 0.5 * s,
            ground_distance: 0.05 * s,
            mask: u32::MAX,
            options: SlideOptions::default(),
        })
    }

    fn check(&self) -> Result<(), Error> {
        self.shape.check()?;
        finite(self.up, "up")?;
        if (self.up.length() - 1.0).abs() > 1e-3 {
            return Err(Error::OutOfRange { what: "up (not a unit vector)", value: self.up.length() });
        }
        if !(self.max_slope >= 0.0 && self.max_slope < core::f32::consts::FRAC_PI_2) {
            return Err(Error::OutOfRange { what: "max_slope", value: self.max_slope });
        }
        for (v, what) in [
            (self.step_height, "step_height"),
            (self.snap_length, "snap_length"),
            (self.ground_distance, "ground_distance"),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::OutOfRange { what, value: v });
            }
        }
        Ok(())
    }

    /// Whether a surface with this normal can be stood on.
    #[must_use]
    pub fn walkable(&self, normal: Vec2) -> bool {
        self.mode == FloorMode::Platformer && normal.dot(self.up) >= cos(self.max_slope) - 1e-6
    }

    /// The walkable ground within `ground_distance` of the body at `position` among static
    /// `shapes`, if any (its normal).
    #[must_use]
    pub fn ground<S: Shape>(&self, position: Vec2, shapes: &[S]) -> Option<Vec2> {
        let set: Vec<Slot<'_, S>> =
            shapes.iter().map(|s| Slot(Some(Entry::new(s, ObstacleInfo::default(), 1.0)))).collect();
        with_kin!(self, position, Vec2::ZERO, |k| k.floor(position, &set[..]).map(|f| f.0.normal))
    }

    /// Move by `desired` (a displacement, gravity included by the caller) among static `shapes`:
    /// [`CharacterController::move_and_slide`] with `dt = 1`.
    ///
    /// # Errors
    /// Non-finite input or settings out of range.
    pub fn move_by<S: Shape>(&self, position: Vec2, desired: Vec2, shapes: &[S]) -> Result<CharacterMove, Error> {
        self.move_and_slide(position, desired, 1.0, shapes)
    }

    /// Move the character from `position` with `velocity` for `dt` seconds among the obstacles
    /// of `world` (each at its start-of-frame position, moving by its velocity over the frame).
    ///
    /// The order, as in Godot's `move_and_slide`: a body on a moving floor is carried by it;
    /// moving obstacles that reach it push it (never through a static obstacle: a body that
    /// cannot be pushed clear is reported `crushed`); then it moves by `velocity * dt`, sliding
    /// along what it meets, stepping up ledges up to `step_height` and snapping down to the
    /// ground within `snap_length`.
    ///
    /// # Errors
    /// Non-finite input, a `dt` not > 0, or settings out of range.
    pub fn move_and_slide<'a, W: ObstacleSource<'a>>(
        &self,
        position: Vec2,
        velocity: Vec2,
        dt: f32,
        world: W,
    ) -> Result<CharacterMove, Error> {
        self.move_and_slide_with(position, velocity, dt, world, false, |_| true)
    }

    /// [`CharacterController::move_and_slide`] with a drop-through request (one-way obstacles
    /// do not block this move) and a predicate on top of the layer mask (an obstacle counts when
    /// `filter` returns `true`).
    ///
    /// # Errors
    /// Non-finite input, a `dt` not > 0, or settings out of range.
    pub fn move_and_slide_with<'a, W: ObstacleSource<'a>>(
        &self,
        position: Vec2,
        velocity: Vec2,
        dt: f32,
        world: W,
        drop_through: bool,
        mut filter: impl FnMut(&ObstacleInfo) -> bool,
    ) -> Result<CharacterMove, Error> {
        self.check()?;
        self.options.check()?;
        finite(position, "position")?;
        finite(velocity, "velocity")?;
        positive(dt, "dt")?;
        let motion = velocity * dt;
        finite(motion, "velocity * dt")?;
        let reach = self.step_height + self.snap_length + self.ground_distance + 4.0 * self.shape.scale();
        let start = self.shape.bounds(position);
        let area = start.union(&start.translated(motion)).grown(reach);
        let mut inline: [Slot<'a, W::Shape>; INLINE_OBSTACLES] = [Slot(None); INLINE_OBSTACLES];
        let mut spill: Vec<Slot<'a, W::Shape>> = Vec::new();
        let mut n = 0usize;
        let mask = self.mask;
        world.query(&area, |shape, info| {
            if info.layers & mask == 0 || !filter(&info) {
                return;
            }
            let e = Slot(Some(Entry::new(shape, info, dt)));
            if n < INLINE_OBSTACLES {
                inline[n] = e;
            } else {
                if spill.is_empty() {
                    spill.extend_from_slice(&inline);
                }
                spill.push(e);
            }
            n += 1;
        });
        let set: &mut [Slot<'a, W::Shape>] = if spill.is_empty() { &mut inline[..n] } else { &mut spill[..] };
        Ok(with_kin!(self, position, motion, |k| k.run(position, velocity, dt, set, drop_through)))
    }

    /// The length scale and the coordinates' spacing of a move from `p` by `motion`.
    fn spacing(&self, p: Vec2, motion: Vec2) -> f32 {
        spacing(p, motion, self.shape.extent(Vec2::X).max(self.shape.extent(Vec2::Y)))
    }
}

/// Runs `$f(kin)` with a [`Kin`] for the controller's shape (monomorphised per mover).
macro_rules! with_kin {
    ($ctl:expr, $p:expr, $motion:expr, |$k:ident| $body:expr) => {{
        let ctl: &CharacterController = $ctl;
        let ulp = ctl.spacing($p, $motion);
        match ctl.shape {
            CharacterShape::Disk { radius } => {
                let $k = Kin::new(ctl, DiskMover(radius), ulp, $p, $motion);
                $body
            }
            CharacterShape::Aabb { half_extents } => {
                let $k = Kin::new(ctl, BoxMover::new(half_extents, ctl.options.rounding, ulp), ulp, $p, $motion);
                $body
            }
            CharacterShape::Capsule { half_height, radius } => {
                let $k = Kin::new(ctl, BoxMover::capsule(half_height, radius), ulp, $p, $motion);
                $body
            }
        }
    }};
}
use with_kin;

/// What the sweeps of a move met: touches for the report, normals that clip the velocity, and
/// whether a wall stopped the walk (a step-up is tried then).
#[derive(Clone, Copy)]
struct Rec {
    out: CharacterMove,
    clips: [Vec2; 16],
    n_clips: usize,
    hit_wall: bool,
    /// The walk met a walkable edge (see [`EDGE_TILT`]): a step-up is tried then too.
    edge: bool,
}

/// The cosine of the tilt from `up` beyond which a walkable surface met at the end of a piece
/// (a ledge's edge under the body's rounded part) makes the controller try a step-up: the walk
/// along it keeps `cos^2` of its length along the ground, under half past 45 degrees.
const EDGE_TILT: f32 = 0.94;

impl Rec {
    fn clip(&mut self, n: Vec2) {
        if self.n_clips < self.clips.len() {
            self.clips[self.n_clips] = n;
            self.n_clips += 1;
        }
    }
}

/// A floor found under the body: the floor and the obstacle's index.
type FloorHit = (Floor, usize);

/// A move in progress: the controller, its body as a mover, and the move's tolerances.
struct Kin<'c, M> {
    c: &'c CharacterController,
    body: M,
    up: Vec2,
    walk_cos: f32,
    tol: f32,
    touch: f32,
    skin: f32,
    probe: f32,
}

fn set_time<S>(set: &mut [Slot<'_, S>], t: f32) {
    for e in set.iter_mut().filter_map(|s| s.0.as_mut()) {
        e.offset = e.shift * t;
    }
}

impl<'c, M: Mover> Kin<'c, M> {
    fn new(c: &'c CharacterController, body: M, ulp: f32, p: Vec2, motion: Vec2) -> Self {
        let _ = (p, motion);
        let scale = body.scale();
        let tol = tolerance(&c.options, scale, ulp);
        let touch = (1e-5 * scale).max(2.0 * ulp);
        let skin = (c.options.skin * scale).max(4.0 * touch);
        let probe = c.ground_distance.max(2.0 * skin) + tol;
        let up = c.up.normalize_or_zero();
        Self { c, body, up, walk_cos: cos(c.max_slope) - 1e-6, tol, touch, skin, probe }
    }

    fn platformer(&self) -> bool {
        self.c.mode == FloorMode::Platformer
    }

    fn walkable(&self, n: Vec2) -> bool {
        self.platformer() && n.dot(self.up) >= self.walk_cos
    }

    /// The walkable surface nearest below the body at `p` (along `-up`, within the probe
    /// distance) and the index of its obstacle. A surface the body is in (by
    /// rounding, within the tolerance) counts by its contact normal, any other by the normal
    /// where a cast down first touches it: a contact of the body grown by the probe distance
    /// would report, near the end of a piece of a steep slope, a normal tilted toward `up` by
    /// up to `sqrt(2 probe / r)`, which made steep slopes walkable for round bodies.
    fn floor<S: Shape>(&self, p: Vec2, set: &[Slot<'_, S>]) -> Option<FloorHit> {
        if !self.platformer() {
            return None;
        }
        let down = -self.up * self.probe;
        // Every surface below: (distance down, normal, point, index, whether the point is the
        // body's position where a cast met it, the touched point left to find if needed); a
        // surface the body is in counts at minus its depth.
        let mut hits: [(f32, Vec2, Vec2, usize, bool); 8] = [(0.0, Vec2::ZERO, Vec2::ZERO, 0, false); 8];
        let mut n = 0;
        let mut first = f32::INFINITY;
        for (i, s) in set.iter().enumerate() {
            // A surface within the touch margin is touched (a cast from there is unreliable:
            // a start a spacing inside the grown shape is no entering hit, and the cast then
            // finds the end of the piece instead), as in the swept move; the rest is cast.
            let hit = if let Some(c) = self.body.contact(s, p, self.touch) {
                (self.touch - c.depth, c.normal, c.point, i, false)
            } else if let Some(h) = self.body.cast(s, p, down) {
                (h.t * self.probe, h.normal, p + down * h.t, i, true)
            } else {
                continue;
            };
            // A wall beside the body (its normal across `up`) holds nothing up.
            if hit.1.dot(self.up) <= 0.05 {
                continue;
            }
            first = first.min(hit.0);
            if n < hits.len() {
                hits[n] = hit;
                n += 1;
            } else if let Some(k) = (0..n).max_by(|&a, &b| hits[a].0.total_cmp(&hits[b].0))
                && hits[k].0 > hit.0
            {
                hits[k] = hit;
            }
        }
        // The surfaces met first, the most walkable of them. A walkable surface met later is
        // under the body only where the body reaches over the end of a piece near its side,
        // whose normal, from the end to the body's round part, tilts toward `up` by up to
        // `sqrt(2 d / r)` at a distance `d` (the end of a piece of a steep slope looked
        // walkable): only a face (its point inside the piece, not at an end) counts a little
        // later, up to one and a half skins, since a body resting on a floor is a skin above
        // it and may touch the edge of a steep ledge beside it at the same time.
        let near = first + 0.25 * self.skin;
        let face_near = first + 1.5 * self.skin;
        let face = |h: &(f32, Vec2, Vec2, usize, bool)| {
            let s = &set[h.3];
            let point = if h.4 { self.body.contact(s, h.2, self.skin).map_or(h.2, |c| c.point) } else { h.2 };
            self.on_face(s, point, h.1)
        };
        let best = hits[..n]
            .iter()
            .filter(|h| self.walkable(h.1) && (h.0 <= near || (h.0 <= face_near && face(h))))
            .max_by(|a, b| a.1.dot(self.up).total_cmp(&b.1.dot(self.up)))?;
        let info = set[best.3].0.as_ref().map_or(ObstacleInfo::default(), |e| e.info);
        Some((Floor { normal: best.1, id: info.id, velocity: info.velocity }, best.3))
    }

    /// Whether `point` of `s`, touched with normal `n`, lies inside a face (not at an end of
    /// the piece along the surface).
    fn on_face<S: Shape>(&self, s: &Slot<'_, S>, point: Vec2, n: Vec2) -> bool {
        let t = n.perp();
        s.support(t) > point.dot(t) + self.touch && s.support(-t) > -point.dot(t) + self.touch
    }

    /// A swept move down by `motion` that stops on the first floor it meets (no slide down a
    /// slope): the settling, snapping and step-down moves.
    fn drop_to<S: Shape>(&self, p: Vec2, motion: Vec2, set: &[Slot<'_, S>], rec: &mut Rec) -> Vec2 {
        if motion == Vec2::ZERO {
            return p;
        }
        let body = self.body;
        let grow = 2.0 * self.skin;
        let up = self.up;
        swept(body, p, motion, set, &self.c.options, |n, s, at, _| {
            let point = body.contact(s, at, grow).map_or(at, |c| c.point);
            let id = s.0.as_ref().map_or(0, |e| e.info.id);
            rec.out.note(Touch { id, normal: n, point });
            // A floor stops the drop where it is met (a slope is not slid down); anything else
            // (the edge of a step glanced on the way down) is slid past.
            if self.walkable(n) { up } else { n }
        })
        .position
    }

    /// A swept move by `motion`; `walk` turns steep slopes the motion would climb into walls
    /// and clips the velocity by what it meets.
    fn sweep<S: Shape>(&self, p: Vec2, motion: Vec2, set: &[Slot<'_, S>], walk: bool, rec: &mut Rec) -> Vec2 {
        if motion == Vec2::ZERO {
            return p;
        }
        let up = self.up;
        let rising = motion.dot(up) > 0.0;
        let body = self.body;
        let grow = 2.0 * self.skin;
        swept(body, p, motion, set, &self.c.options, |n, s, at, rem| {
            let mut out = n;
            let nu = n.dot(up);
            if walk && self.platformer() && !rising && nu > 0.0 && nu < self.walk_cos {
                // A steep slope the motion would climb is a wall.
                let t = n.perp();
                if (t * rem.dot(t)).dot(up) > 0.0 {
                    let w = (n - up * nu).normalize_or_zero();
                    if w != Vec2::ZERO {
                        out = w;
                    }
                }
            }
            if walk {
                rec.clip(out);
                if out.dot(up).abs() < self.walk_cos || !self.platformer() {
                    rec.hit_wall = true;
                }
            }
            let point = body.contact(s, at, grow).map_or(at, |c| c.point);
            if walk
                && self.platformer()
                && !rising
                && self.walkable(out)
                && out.dot(up) < EDGE_TILT
                && !self.on_face(s, point, n)
            {
                // A walkable tilt met at the end of a piece: the rounded part of the body
                // riding over a ledge's edge, which a step-up may clear.
                rec.edge = true;
            }
            let id = s.0.as_ref().map_or(0, |e| e.info.id);
            rec.out.note(Touch { id, normal: n, point });
            out
        })
        .position
    }

    /// Depth of the body at `p` against one obstacle, whatever its solidity.
    fn depth_in<S: Shape>(&self, slot: &Slot<'_, S>, p: Vec2) -> f32 {
        let mut s = *slot;
        let Some(e) = s.0.as_mut() else { return 0.0 };
        e.solid = true;
        self.body.contact(&s, p, 0.0).map_or(0.0, |c| c.depth)
    }

    /// Makes the solid moving obstacles the body at `p` is inside (beyond the tolerance) block
    /// nothing: a push out of them could go through a wall.
    fn hide_inside<S: Shape>(&self, set: &mut [Slot<'_, S>], p: Vec2) {
        for s in set.iter_mut() {
            let moving = s.0.as_ref().is_some_and(|e| e.shift != Vec2::ZERO && e.solid);
            if moving
                && self.depth_in(s, p) > self.tol
                && let Some(e) = s.0.as_mut()
            {
                e.solid = false;
            }
        }
    }

    #[allow(clippy::too_many_lines)]
    fn run<S: Shape>(
        &self,
        position: Vec2,
        velocity: Vec2,
        dt: f32,
        set: &mut [Slot<'_, S>],
        drop_through: bool,
    ) -> CharacterMove {
        let up = self.up;
        let shape = self.c.shape;
        let motion = velocity * dt;
        let rising = motion.dot(up) > 0.0;
        let mut rec = Rec {
            out: CharacterMove {
                position,
                velocity,
                achieved_velocity: Vec2::ZERO,
                floor: None,
                wall: None,
                ceiling: None,
                stepped: false,
                snapped: false,
                crushed: false,
                touches: [Touch::default(); MAX_TOUCHES],
                touch_count: 0,
                touches_dropped: 0,
            },
            clips: [Vec2::ZERO; 16],
            n_clips: 0,
            hit_wall: false,
            edge: false,
        };
        // One-way obstacles block only a body wholly on their open side at the start. `passable`
        // marks those that do not block this move (they never count as crushing either).
        let mut passable = [false; INLINE_OBSTACLES];
        let ow_tol = 2.0 * self.tol;
        for (i, s) in set.iter_mut().enumerate() {
            if let Some(e) = s.0.as_mut()
                && let Some(d) = e.info.one_way
            {
                let d = d.normalize_or_zero();
                let clear = position.dot(d) - shape.extent(d) >= e.shape.support(d) - ow_tol;
                e.solid = !drop_through && clear;
                if !e.solid && i < INLINE_OBSTACLES {
                    passable[i] = true;
                }
            }
        }
        let is_passable = |set: &[Slot<'_, S>], i: usize| {
            if i < INLINE_OBSTACLES {
                passable[i]
            } else {
                set[i].0.as_ref().is_some_and(|e| e.info.one_way.is_some() && !e.solid)
            }
        };
        // The floor at the start of the frame.
        set_time(set, 0.0);
        let floor0 = self.floor(position, set);
        // Moving obstacles the body is already inside (squeezed last frame) block nothing.
        self.hide_inside(set, position);
        set_time(set, 1.0);
        let mut p = position;
        let floor_idx = floor0.map(|f| f.1);
        // Carried by the floor: moved with it, every other moving obstacle out of the way (the
        // pushes below handle them).
        if let Some(i) = floor_idx {
            let carry = set[i].0.as_ref().map_or(Vec2::ZERO, |e| e.shift);
            if carry != Vec2::ZERO {
                let saved = self.hide_moving(set, Some(i));
                let mut scratch = rec;
                p = self.sweep(p, carry, set, false, &mut scratch);
                rec.out = scratch.out;
                self.restore(set, &saved);
            }
        }
        // Pushed by moving obstacles that reach it this frame.
        for i in 0..set.len() {
            if Some(i) == floor_idx {
                continue;
            }
            let Some(e) = set[i].0 else { continue };
            if e.shift == Vec2::ZERO || !e.solid {
                continue;
            }
            let at_start = Slot(Some(Entry { offset: Vec2::ZERO, ..e }));
            let hit = self.body.cast(&at_start, p, -e.shift);
            let Some(h) = hit else { continue };
            let need = (1.0 - h.t) * e.shift.dot(h.normal);
            if need <= 0.0 {
                continue;
            }
            let saved = self.hide_moving(set, None);
            let mut scratch = rec;
            p = self.sweep(p, h.normal * (need + self.skin), set, false, &mut scratch);
            rec.out = scratch.out;
            self.restore(set, &saved);
        }
        // Moving obstacles overlapping the body now (it could not be moved clear) block nothing
        // for the rest of the move.
        self.hide_inside(set, p);
        // The character's own motion.
        let on_floor0 = floor0.is_some() && !rising;
        let lat = motion - up * motion.dot(up);
        let mut walk = motion;
        if on_floor0 {
            // Standing: the floor holds the body up (no creep down a walkable slope), and the
            // walk follows the floor.
            walk = lat;
            if let Some((f, _)) = floor0
                && self.c.constant_speed_on_slopes
                && lat != Vec2::ZERO
            {
                let mut t = f.normal.perp();
                if t.dot(lat) < 0.0 {
                    t = -t;
                }
                walk = t * lat.length();
            }
        }
        let from = p;
        p = self.sweep(p, walk, set, true, &mut rec);
        if self.platformer() && on_floor0 && self.c.step_height > 0.0 && (rec.hit_wall || rec.edge) && lat != Vec2::ZERO
        {
            let dir = lat.normalize();
            let plain = (p - from).dot(dir);
            let mut trial = rec;
            trial.hit_wall = false;
            trial.edge = false;
            let raised = self.sweep(from, up * self.c.step_height, set, false, &mut trial);
            let rise = (raised - from).dot(up);
            let across = self.sweep(raised, lat, set, true, &mut trial);
            let down = self.drop_to(across, -up * (rise + self.probe), set, &mut trial);
            let height = (down - from).dot(up);
            if (down - from).dot(dir) > plain + self.tol
                && height <= self.c.step_height + self.tol
                && height > -self.tol
                && self.floor(down, set).is_some()
            {
                p = down;
                rec = trial;
                rec.out.stepped = true;
            }
        }
        // Settle onto the floor (it was within the probe distance) or snap down to one within
        // the snap length; a drop that finds no floor is not taken.
        // The floor found last and where (the report's floor when the body stayed there).
        let mut known: Option<(Vec2, Option<FloorHit>)> = None;
        if self.platformer() && on_floor0 && !rec.out.stepped {
            let here = self.floor(p, set);
            known = Some((p, here));
            let near = here.is_some();
            let reach = if near { self.probe } else { self.c.snap_length };
            if reach > 0.0 {
                let mut trial = rec;
                let down = self.drop_to(p, -up * reach, set, &mut trial);
                let there = self.floor(down, set);
                if there.is_some() {
                    p = down;
                    rec = trial;
                    rec.out.snapped = !near;
                    known = Some((p, there));
                }
            }
        }
        // The report.
        let floor = if rising {
            None
        } else {
            match known {
                Some((at, f)) if at == p => f,
                _ => self.floor(p, set),
            }
        };
        let grow = self.probe;
        for s in set.iter() {
            let Some(c) = self.body.contact(s, p, grow) else { continue };
            let nu = c.normal.dot(up);
            if self.walkable(c.normal) {
                // Floors are reported by `floor`.
            } else if self.platformer() && nu <= -self.walk_cos {
                rec.out.ceiling.get_or_insert(c.normal);
            } else if c.normal.dot(lat) < 0.0 || rec.out.wall.is_none() {
                rec.out.wall = Some(c.normal);
            }
            let id = s.0.as_ref().map_or(0, |e| e.info.id);
            rec.out.note(Touch { id, normal: c.normal, point: c.point });
        }
        // The velocity kept: a floor (walkable surface) met takes the motion down into it and
        // nothing else (clipping a walk by a slope's normal would turn it into a rise, and the
        // next move would leave the slope); other surfaces take the motion into them.
        let mut v = velocity;
        if floor.is_some() {
            v -= up * v.dot(up).min(0.0);
        }
        for &n in &rec.clips[..rec.n_clips] {
            if self.walkable(n) {
                v -= up * v.dot(up).min(0.0);
                continue;
            }
            let into = v.dot(n);
            if into < 0.0 {
                v -= n * into;
            }
        }
        if let Some((f0, _)) = floor0
            && f0.velocity != Vec2::ZERO
            && floor.is_none_or(|(f, _)| f.id != f0.id)
        {
            v += f0.velocity;
        }
        let mut crushed = false;
        for i in 0..set.len() {
            let moving = set[i].0.as_ref().is_some_and(|e| e.shift != Vec2::ZERO);
            if moving && !is_passable(set, i) && self.depth_in(&set[i], p) > self.tol {
                crushed = true;
            }
        }
        let mut out = rec.out;
        out.position = p;
        out.velocity = v;
        out.achieved_velocity = (p - position) / dt;
        out.floor = floor.map(|f| f.0);
        out.crushed = crushed;
        out
    }

    /// Makes every solid moving obstacle but `keep` non-blocking, returning which were.
    fn hide_moving<S>(&self, set: &mut [Slot<'_, S>], keep: Option<usize>) -> HiddenMask {
        let mut hidden = HiddenMask::default();
        for (i, s) in set.iter_mut().enumerate() {
            if let Some(e) = s.0.as_mut()
                && e.shift != Vec2::ZERO
                && e.solid
                && Some(i) != keep
            {
                e.solid = false;
                hidden.set(i);
            }
        }
        // The carried floor itself does not block its own carry.
        if let Some(i) = keep
            && let Some(e) = set[i].0.as_mut()
            && e.solid
        {
            e.solid = false;
            hidden.set(i);
        }
        hidden
    }

    fn restore<S>(&self, set: &mut [Slot<'_, S>], hidden: &HiddenMask) {
        for (i, s) in set.iter_mut().enumerate() {
            if hidden.get(i)
                && let Some(e) = s.0.as_mut()
            {
                e.solid = true;
            }
        }
    }
}

/// Which obstacles a phase of the move made non-blocking: the inline ones in a bit set, the
/// rest (a neighbourhood that spilled past the inline array, which allocates anyway) listed.
#[derive(Default)]
struct HiddenMask {
    bits: [u64; INLINE_OBSTACLES.div_ceil(64)],
    rest: Vec<usize>,
}

impl HiddenMask {
    fn set(&mut self, i: usize) {
        if i < INLINE_OBSTACLES {
            self.bits[i / 64] |= 1 << (i % 64);
        } else {
            self.rest.push(i);
        }
    }
    fn get(&self, i: usize) -> bool {
        if i < INLINE_OBSTACLES { self.bits[i / 64] & (1 << (i % 64)) != 0 } else { self.rest.contains(&i) }
    }
}

/// An obstacle of a move: the caller's shape, its info, its displacement over the frame and
/// the current time (0: start of the frame, 1: end), and whether it blocks now.
struct Entry<'a, S> {
    shape: &'a S,
    /// The shape's bounds at the start of the frame, the test that lets the contacts and casts
    /// of a body far from it skip the exact computation.
    lo: Vec2,
    hi: Vec2,
    info: ObstacleInfo,
    shift: Vec2,
    offset: Vec2,
    solid: bool,
}

impl<S> Clone for Entry<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Entry<'_, S> {}

impl<'a, S: Shape> Entry<'a, S> {
    fn new(shape: &'a S, info: ObstacleInfo, dt: f32) -> Self {
        let b = shape.bounds();
        Self { shape, lo: b.min(), hi: b.max(), info, shift: info.velocity * dt, offset: Vec2::ZERO, solid: true }
    }
}

impl<S> Entry<'_, S> {
    /// Whether the box from `lo` to `hi` (the obstacle's frame: the offset removed) is apart
    /// from the obstacle's bounds by more than a margin (a hundredth of the body's reach plus
    /// a few hundred spacings of the coordinates), so no contact or cast can find it.
    #[inline]
    fn apart(&self, lo: Vec2, hi: Vec2, reach: f32) -> bool {
        let m = 0.01 * reach + 1e-5 * lo.abs().max(hi.abs()).max_element();
        lo.x > self.hi.x + m || lo.y > self.hi.y + m || hi.x < self.lo.x - m || hi.y < self.lo.y - m
    }
}

/// A gathered obstacle, or an unused slot of the inline array.
struct Slot<'a, S>(Option<Entry<'a, S>>);

impl<S> Clone for Slot<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Slot<'_, S> {}

impl<S: Shape> Shape for Slot<'_, S> {
    #[inline]
    fn disk_contact(&self, center: Vec2, radius: f32) -> Option<Contact> {
        let e = self.0.as_ref().filter(|e| e.solid)?;
        let c = center - e.offset;
        let r = Vec2::splat(radius);
        if e.apart(c - r, c + r, radius) {
            return None;
        }
        let k = e.shape.disk_contact(c, radius)?;
        Some(Contact { point: k.point + e.offset, ..k })
    }
    #[inline]
    fn disk_cast(&self, center: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        let e = self.0.as_ref().filter(|e| e.solid)?;
        let c = center - e.offset;
        let r = Vec2::splat(radius);
        if e.apart(c.min(c + motion) - r, c.max(c + motion) + r, radius) {
            return None;
        }
        e.shape.disk_cast(c, radius, motion)
    }
    #[inline]
    fn box_contact(&self, center: Vec2, half: Vec2, radius: f32) -> Option<Contact> {
        let e = self.0.as_ref().filter(|e| e.solid)?;
        let c = center - e.offset;
        let r = half + radius;
        if e.apart(c - r, c + r, r.max_element()) {
            return None;
        }
        let k = e.shape.box_contact(c, half, radius)?;
        Some(Contact { point: k.point + e.offset, ..k })
    }
    #[inline]
    fn box_cast(&self, center: Vec2, half: Vec2, radius: f32, motion: Vec2) -> Option<Hit> {
        let e = self.0.as_ref().filter(|e| e.solid)?;
        let c = center - e.offset;
        let r = half + radius;
        if e.apart(c.min(c + motion) - r, c.max(c + motion) + r, r.max_element()) {
            return None;
        }
        e.shape.box_cast(c, half, radius, motion)
    }
    fn bounds(&self) -> Aabb {
        self.0
            .as_ref()
            .map_or(Aabb::covering(Vec2::ZERO, Vec2::ZERO), |e| Aabb::covering(e.lo, e.hi).translated(e.offset))
    }
    fn support(&self, dir: Vec2) -> f32 {
        self.0.as_ref().map_or(f32::NEG_INFINITY, |e| e.shape.support(dir) + e.offset.dot(dir))
    }
}
