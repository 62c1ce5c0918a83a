//! Belongs in lore-pixel-collide: the one documented place where a y-up world meets the y-down
//! collision space (`PixelSpace`), and a solid disk sprite (`disk_sprite`), so a game places
//! sprites by world position without writing the flip itself.

use glam::{Vec2, vec2};
#[cfg(doc)]
use lore_pixel_collide::Mask;
use lore_pixel_collide::{Error, Pose, Sprite};

/// A y-up world seen as a y-down pixel grid: world point `p` is pixel
/// `((p.x − left) · scale, (top − p.y) · scale)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelSpace {
    /// World x of pixel column 0.
    pub left: f32,
    /// World y of pixel row 0 (the top of the world).
    pub top: f32,
    /// Pixels per world unit.
    pub scale: f32,
}

impl PixelSpace {
    /// A space with pixel `(0, 0)` at world `(left, top)` and `scale` pixels per world unit.
    ///
    /// # Errors
    /// [`Error::BadPose`] when `scale` is not finite and positive or a corner is not finite.
    pub fn new(left: f32, top: f32, scale: f32) -> Result<Self, Error> {
        if !(scale.is_finite() && scale > 0.0 && left.is_finite() && top.is_finite()) {
            return Err(Error::BadPose("pixel space needs a finite corner and a positive scale"));
        }
        Ok(Self { left, top, scale })
    }

    /// The collision-space pixel position of world point `p`.
    #[must_use]
    pub fn to_pixels(&self, p: Vec2) -> Vec2 {
        vec2((p.x - self.left) * self.scale, (self.top - p.y) * self.scale)
    }

    /// The top-left pixel at which an unrotated `width × height` sprite centred at world point
    /// `p` starts, rounded to whole pixels: where [`Mask::set_position`] puts a prebuilt mask
    /// (no rasterization, no allocation; positions snap to the pixel grid).
    #[must_use]
    pub fn top_left(&self, p: Vec2, width: u32, height: u32) -> (i32, i32) {
        let c = self.to_pixels(p) - vec2(width as f32, height as f32) * 0.5;
        (c.x.round() as i32, c.y.round() as i32)
    }

    /// A pose centred at world point `p`, turned `angle` radians counter-clockwise in the
    /// world (which is clockwise on the y-down grid, the rotation a [`Pose`] takes).
    #[must_use]
    pub fn pose(&self, p: Vec2, angle: f32) -> Pose {
        Pose::at(self.to_pixels(p)).rotated(-angle)
    }
}

/// A solid disk of `radius` pixels, in the smallest square sprite that holds it; pixel centres
/// within the radius are solid.
///
/// # Errors
/// As [`Sprite::from_fn`] (a radius that gives no pixels or too many).
pub fn disk_sprite(radius: f32) -> Result<Sprite, Error> {
    let side = (2.0 * radius).ceil().max(1.0);
    if !side.is_finite() || side > 1.0e5 {
        return Err(Error::BadPose("disk radius out of range"));
    }
    let c = side / 2.0;
    Sprite::from_fn(side as u32, side as u32, |x, y| vec2(x as f32 + 0.5 - c, y as f32 + 0.5 - c).length() <= radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_pixel_collide::overlaps;

    #[test]
    fn the_world_is_flipped_once() {
        let space = PixelSpace::new(-1.0, 10.0, 16.0).unwrap();
        assert_eq!(space.to_pixels(vec2(-1.0, 10.0)), Vec2::ZERO);
        assert_eq!(space.to_pixels(vec2(0.0, 9.0)), vec2(16.0, 16.0));
        // Up in the world is up on screen: a smaller row.
        assert!(space.to_pixels(vec2(0.0, 9.5)).y < space.to_pixels(vec2(0.0, 9.0)).y);
        assert!(PixelSpace::new(0.0, 0.0, 0.0).is_err());
        assert!(PixelSpace::new(f32::NAN, 0.0, 1.0).is_err());
    }

    #[test]
    fn disks_touch_when_their_centres_are_closer_than_the_radii() {
        let space = PixelSpace::new(0.0, 20.0, 16.0).unwrap();
        let (big, small) = (disk_sprite(4.0).unwrap(), disk_sprite(1.5).unwrap());
        assert_eq!(big.width(), 8);
        let at = |x: f32| space.pose(vec2(x, 10.0), 0.0);
        // Radii 0.25 + 0.094 world units: overlapping at 0.2 apart, apart at 0.5.
        assert!(overlaps(&big, at(5.0), &small, at(5.2)).unwrap());
        assert!(!overlaps(&big, at(5.0), &small, at(5.5)).unwrap());
        assert!(disk_sprite(f32::INFINITY).is_err());
    }

    #[test]
    fn prebuilt_masks_moved_to_the_snapped_corner_touch_as_the_disks_do_within_a_pixel() {
        use lore_pixel_collide::Mask;
        let space = PixelSpace::new(0.0, 20.0, 16.0).unwrap();
        let (rb, rs) = (4.0, 1.5);
        let (big, small) = (disk_sprite(rb).unwrap(), disk_sprite(rs).unwrap());
        let (mut mb, mut ms) = (Mask::from_sprite(&big, 0, 0), Mask::from_sprite(&small, 0, 0));
        let (mut touching, mut apart) = (0, 0);
        for i in 0..400 {
            let pb = vec2(5.0, 10.0);
            let ps = pb + Vec2::from_angle(i as f32 * 0.37) * (i as f32 / 400.0) * 0.6;
            let (bx, by) = space.top_left(pb, big.width(), big.height());
            let (sx, sy) = space.top_left(ps, small.width(), small.height());
            mb.set_position(bx, by);
            ms.set_position(sx, sy);
            let gap_px = pb.distance(ps) * space.scale - (rb + rs);
            if gap_px < -2.0 {
                assert!(mb.overlaps(&ms), "step {i}: disks overlap by {} px", -gap_px);
                touching += 1;
            } else if gap_px > 2.0 {
                assert!(!mb.overlaps(&ms), "step {i}: disks {gap_px} px apart");
                apart += 1;
            }
        }
        assert!(touching > 50 && apart > 50);
    }
}
