//! A small character-controller helper on the swept disk move: walkable slopes up to a
//! maximum angle, ground detection, step-up onto small ledges.

use glam::Vec2;

use super::slide::{DiskMover, SlideOptions, swept};
use crate::collider::Shape;
use crate::error::{Error, finite, positive};
use crate::math::cos;

/// Settings of a disk-shaped character (y is up).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterController {
    /// Radius of the character's disk.
    pub radius: f32,
    /// Steepest walkable slope, radians from horizontal, in `[0, pi/2)`. Steeper surfaces act
    /// as walls: the character slides along them but never climbs them.
    pub max_slope: f32,
    /// Highest ledge stepped onto without jumping (0 disables step-up).
    pub step_height: f32,
    /// How far below the disk the ground is still detected.
    pub ground_distance: f32,
    /// Options of the underlying swept moves.
    pub options: SlideOptions,
}

/// The result of [`CharacterController::move_by`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterMove {
    /// The new centre.
    pub position: Vec2,
    /// Standing on a walkable surface.
    pub grounded: bool,
    /// The ground's normal when grounded.
    pub ground_normal: Option<Vec2>,
    /// Whether a step-up was taken.
    pub stepped: bool,
}

impl CharacterController {
    /// A controller with a 50 degree slope limit, `step_height = radius / 2` and
    /// `ground_distance = radius / 10`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotPositive`] for a bad radius.
    pub fn new(radius: f32) -> Result<Self, Error> {
        positive(radius, "radius")?;
        Ok(Self {
            radius,
            max_slope: 50f32.to_radians(),
            step_height: radius * 0.5,
            ground_distance: radius * 0.1,
            options: SlideOptions::default(),
        })
    }

    fn check(&self) -> Result<(), Error> {
        positive(self.radius, "radius")?;
        if !(self.max_slope >= 0.0 && self.max_slope < core::f32::consts::FRAC_PI_2) {
            return Err(Error::OutOfRange { what: "max_slope", value: self.max_slope });
        }
        if !(self.step_height >= 0.0 && self.step_height.is_finite()) {
            return Err(Error::OutOfRange { what: "step_height", value: self.step_height });
        }
        if !(self.ground_distance >= 0.0 && self.ground_distance.is_finite()) {
            return Err(Error::OutOfRange { what: "ground_distance", value: self.ground_distance });
        }
        Ok(())
    }

    /// Whether a surface with this normal can be stood on.
    #[must_use]
    pub fn walkable(&self, normal: Vec2) -> bool {
        normal.y >= cos(self.max_slope) - 1e-6
    }

    /// The walkable ground within `ground_distance` below `position`, if any (its normal).
    #[must_use]
    pub fn ground<S: Shape>(&self, position: Vec2, shapes: &[S]) -> Option<Vec2> {
        let r = self.radius + self.ground_distance + self.options.skin * self.radius;
        let mut best: Option<(f32, Vec2)> = None;
        for s in shapes {
            if let Some(c) = s.disk_contact(position, r)
                && self.walkable(c.normal)
                && best.is_none_or(|b| c.depth > b.0)
            {
                best = Some((c.depth, c.normal));
            }
        }
        best.map(|b| b.1)
    }

    fn sweep<S: Shape>(&self, from: Vec2, motion: Vec2, shapes: &[S]) -> Vec2 {
        let walkable_cos = cos(self.max_slope);
        let climbing = motion.y <= 0.0 || motion.x != 0.0;
        swept(DiskMover(self.radius), from, motion, shapes, &self.options, |n| {
            // A steep slope met while walking acts as a vertical wall: no climbing it.
            if climbing && n.y > 0.0 && n.y < walkable_cos - 1e-6 { Vec2::new(n.x.signum(), 0.0) } else { n }
        })
        .position
    }

    /// Move the character by `desired` (gravity included by the caller).
    ///
    /// # Errors
    /// Non-finite input or settings out of range.
    pub fn move_by<S: Shape>(&self, position: Vec2, desired: Vec2, shapes: &[S]) -> Result<CharacterMove, Error> {
        self.check()?;
        finite(position, "position")?;
        finite(desired, "desired motion")?;
        let was_grounded = self.ground(position, shapes).is_some();
        let mut p = self.sweep(position, desired, shapes);
        let mut stepped = false;
        let wanted = desired.x.abs();
        if was_grounded && self.step_height > 0.0 && wanted > 0.0 && (p.x - position.x).abs() < 0.5 * wanted {
            // Step up: rise, walk, settle back down; keep it if it got further and landed.
            let up = self.sweep(position, Vec2::new(0.0, self.step_height), shapes);
            let across = self.sweep(up, Vec2::new(desired.x, 0.0), shapes);
            let down = self.sweep(across, Vec2::new(0.0, -(up.y - position.y) - self.ground_distance), shapes);
            if (down.x - position.x).abs() > (p.x - position.x).abs() + 1e-6 && self.ground(down, shapes).is_some() {
                p = down;
                stepped = true;
            }
        }
        let ground_normal = self.ground(p, shapes);
        Ok(CharacterMove { position: p, grounded: ground_normal.is_some(), ground_normal, stepped })
    }
}
