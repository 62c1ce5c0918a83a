//! The bridge to world space: lore-geom's [`Aabb`] (y-up, world units), as the broad phase
//! and collide2d use it, against collision space (y-down pixels: [`Pose`], [`Placement`],
//! [`PixelRect`]).
//!
//! A [`PixelSpace`] says how many collision pixels make one world unit; the world origin is
//! pixel `(0, 0)` and world y points the other way from pixel y. With it a body's world centre
//! and angle become a [`Pose`] ([`PixelSpace::pose`]), a placed sprite's pixels become the world
//! box a broad phase stores ([`Placement::world_aabb`]), and a world box from a broad phase
//! selects the objects whose pixels it may touch ([`Placement::overlaps_aabb`],
//! [`PixelSpace::pixel_rect`]): no conversion code in the caller.
//!
//! [`PixelRect`] stays the integer pixel rectangle it was: a different concept (half-open,
//! whole pixels, y-down) from the closed, real-valued, y-up [`Aabb`].

use glam::Vec2;
use lore_geom::Aabb;

use crate::{Error, Mask, MeshPlacement, PixelRect, Placement, Pose};

/// The smallest and largest number of pixels per world unit a [`PixelSpace`] accepts.
pub const PIXELS_PER_UNIT_RANGE: (f32, f32) = (1.0 / 1024.0, 65_536.0);

/// How world space (y-up, world units) maps onto collision space (y-down pixels): world point
/// `(x, y)` is pixel position `(x · k, −y · k)` for `k` pixels per unit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::SpaceRecord", try_from = "crate::serde_impls::SpaceRecord")
)]
pub struct PixelSpace {
    pixels_per_unit: f32,
}

impl PixelSpace {
    /// A space of `pixels_per_unit` collision pixels per world unit.
    ///
    /// # Errors
    /// [`Error::BadPixelsPerUnit`] unless it is finite and within [`PIXELS_PER_UNIT_RANGE`].
    pub fn new(pixels_per_unit: f32) -> Result<Self, Error> {
        let (lo, hi) = PIXELS_PER_UNIT_RANGE;
        if !(lo..=hi).contains(&pixels_per_unit) {
            return Err(Error::BadPixelsPerUnit(pixels_per_unit));
        }
        Ok(Self { pixels_per_unit })
    }

    /// Collision pixels per world unit.
    pub fn pixels_per_unit(&self) -> f32 {
        self.pixels_per_unit
    }

    /// The pixel position of world point `world`.
    pub fn to_pixels(&self, world: Vec2) -> Vec2 {
        Vec2::new(world.x, -world.y) * self.pixels_per_unit
    }

    /// The world point at pixel position `pixel`.
    pub fn to_world(&self, pixel: Vec2) -> Vec2 {
        Vec2::new(pixel.x, -pixel.y) / self.pixels_per_unit
    }

    /// The pose of a sprite whose centre is at world point `center`, turned `rotation` radians
    /// counter-clockwise in the y-up world (as collide2d and the renderer turn things), its
    /// texels `scale` pixels wide and high (the sprite's own axes; negative mirrors).
    pub fn pose(&self, center: Vec2, rotation: f32, scale: Vec2) -> Pose {
        // Flipping y turns a counter-clockwise angle into a clockwise one on screen.
        Pose { position: self.to_pixels(center), rotation: -rotation, scale }
    }

    /// The top-left pixel of an unrotated, unscaled `width × height` sprite centred at world
    /// point `center`, rounded to whole pixels: where [`Mask::set_position`] moves a mask built
    /// once with [`Mask::from_sprite`], so a moving body is tested with no rasterization and no
    /// allocation (its position snaps to the pixel grid). Coordinates beyond the i32 range are
    /// clamped to it.
    ///
    /// ```
    /// use lore_pixel_collide::{Mask, PixelSpace, Sprite, glam::Vec2};
    ///
    /// let space = PixelSpace::new(16.0)?;
    /// let ball = Sprite::disk(4.0)?;
    /// let mut mask = Mask::from_sprite(&ball, 0, 0);
    /// let (x, y) = space.top_left(Vec2::new(2.0, 1.0), ball.width(), ball.height());
    /// assert_eq!((x, y), (28, -20)); // centre pixel (32, -16), less half the sprite
    /// mask.set_position(x, y);
    /// assert!(mask.get(32, -16));
    /// # Ok::<(), lore_pixel_collide::Error>(())
    /// ```
    pub fn top_left(&self, center: Vec2, width: u32, height: u32) -> (i32, i32) {
        let c = self.to_pixels(center) - Vec2::new(width as f32, height as f32) * 0.5;
        let to_i32 = |v: f32| v.round().clamp(i32::MIN as f32, i32::MAX as f32) as i32;
        (to_i32(c.x), to_i32(c.y))
    }

    /// The world box covering every pixel of `rect` (an empty rectangle gives the point box at
    /// its corner). Clamped into lore-geom's range, so it never fails.
    pub fn aabb(&self, rect: &PixelRect) -> Aabb {
        let (x1, y1) = (rect.x1.max(rect.x0), rect.y1.max(rect.y0));
        let a = self.to_world(Vec2::new(rect.x0 as f32, rect.y0 as f32));
        let b = self.to_world(Vec2::new(x1 as f32, y1 as f32));
        Aabb::covering(a, b)
    }

    /// The pixels whose area meets the closed world box `aabb` (at least one pixel; rows and
    /// columns beyond the i32 range are clamped to it).
    pub fn pixel_rect(&self, aabb: &Aabb) -> PixelRect {
        let (a, b) = (self.to_pixels(aabb.min()), self.to_pixels(aabb.max()));
        let (lo, hi) = (a.min(b), a.max(b));
        let to_i32 = |v: f32| v.clamp(i32::MIN as f32, i32::MAX as f32) as i32;
        let (x0, y0) = (to_i32(lo.x.floor()), to_i32(lo.y.floor()));
        // A box edge exactly on a pixel edge touches the pixel beyond it too (boxes are closed).
        let (x1, y1) = (to_i32(hi.x.floor()).saturating_add(1), to_i32(hi.y.floor()).saturating_add(1));
        PixelRect { x0, y0, x1, y1 }
    }
}

impl Placement {
    /// The world box of every pixel the placed sprite may cover (its [`bounds`](Placement::bounds),
    /// which keep a pixel of margin): the box to give a broad phase.
    pub fn world_aabb(&self, space: &PixelSpace) -> Aabb {
        space.aabb(&self.bounds)
    }

    /// Whether the world box `aabb` meets the pixels the placed sprite may cover: the candidate
    /// test for a body a broad phase found near this one (no false negatives; a true answer
    /// still needs the pixel test).
    pub fn overlaps_aabb(&self, aabb: &Aabb, space: &PixelSpace) -> bool {
        !self.bounds.intersection(&space.pixel_rect(aabb)).is_empty()
    }
}

impl MeshPlacement {
    /// The world box of every pixel the placed mesh may cover.
    pub fn world_aabb(&self, space: &PixelSpace) -> Aabb {
        space.aabb(&self.bounds)
    }

    /// Whether the world box `aabb` meets the pixels the placed mesh may cover.
    pub fn overlaps_aabb(&self, aabb: &Aabb, space: &PixelSpace) -> bool {
        !self.bounds.intersection(&space.pixel_rect(aabb)).is_empty()
    }
}

impl Mask {
    /// The world box of the mask's pixel rectangle.
    pub fn world_aabb(&self, space: &PixelSpace) -> Aabb {
        space.aabb(&self.bounds())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MAX_SPRITE_SIDE, Sprite};
    use proptest::prelude::*;

    #[test]
    fn bad_scales_are_errors() {
        for k in [0.0, -1.0, f32::NAN, f32::INFINITY, 1e-6, 1e6] {
            assert!(matches!(PixelSpace::new(k), Err(Error::BadPixelsPerUnit(_))), "{k}");
        }
        assert!(PixelSpace::new(16.0).is_ok());
    }

    #[test]
    fn world_y_up_is_pixel_y_down() {
        let s = PixelSpace::new(10.0).unwrap();
        assert_eq!(s.to_pixels(Vec2::new(1.0, 2.0)), Vec2::new(10.0, -20.0));
        assert_eq!(s.to_world(Vec2::new(10.0, -20.0)), Vec2::new(1.0, 2.0));
        let r = PixelRect { x0: 10, y0: -20, x1: 30, y1: -10 };
        let b = s.aabb(&r);
        assert_eq!((b.min(), b.max()), (Vec2::new(1.0, 1.0), Vec2::new(3.0, 2.0)));
        assert_eq!(s.pixel_rect(&Aabb::new(Vec2::new(1.05, 1.05), Vec2::new(2.95, 1.95)).unwrap()), r);
    }

    #[test]
    fn a_counter_clockwise_world_turn_moves_the_sprites_right_end_up_on_screen() {
        // A 4×1 bar turned a quarter counter-clockwise in the world stands up: its right end
        // (texel 3) is above the centre in the world, so at a smaller pixel y.
        let bar = Sprite::from_fn(4, 1, |x, _| x == 3).unwrap();
        let s = PixelSpace::new(1.0).unwrap();
        let pose = s.pose(Vec2::new(50.0, -50.0), std::f32::consts::FRAC_PI_2, Vec2::ONE);
        let mask = Mask::rasterize(&bar, pose).unwrap();
        let b = mask.bounds();
        let covered: Vec<(i32, i32)> =
            (b.y0..b.y1).flat_map(|y| (b.x0..b.x1).map(move |x| (x, y))).filter(|&(x, y)| mask.get(x, y)).collect();
        assert!(!covered.is_empty() && covered.iter().all(|&(_, y)| y < 50), "{covered:?}");
    }

    #[test]
    fn disks_touch_when_their_centres_are_closer_than_the_radii() {
        let space = PixelSpace::new(16.0).unwrap();
        let (big, small) = (Sprite::disk(4.0).unwrap(), Sprite::disk(1.5).unwrap());
        assert_eq!((big.width(), big.height(), small.width()), (8, 8, 3));
        let at = |x: f32| space.pose(Vec2::new(x, 10.0), 0.0, Vec2::ONE);
        // Radii 0.25 + 0.094 world units: overlapping at 0.2 apart, apart at 0.5.
        assert!(crate::overlaps(&big, at(5.0), &small, at(5.2)).unwrap());
        assert!(!crate::overlaps(&big, at(5.0), &small, at(5.5)).unwrap());
    }

    #[test]
    fn bad_disk_radii_are_errors() {
        for r in [f32::INFINITY, f32::NAN, -0.5, 2049.0] {
            assert!(matches!(Sprite::disk(r), Err(Error::BadRadius(_))), "{r}");
        }
        let dot = Sprite::disk(0.0).unwrap();
        assert_eq!((dot.width(), dot.solid_count()), (1, 1));
        assert_eq!(Sprite::disk(2048.0).unwrap().width(), MAX_SPRITE_SIDE);
    }

    #[test]
    fn a_disks_solid_texels_are_those_within_the_radius() {
        let r = 5.3;
        let disk = Sprite::disk(r).unwrap();
        let c = disk.width() as f32 / 2.0;
        for y in 0..disk.height() {
            for x in 0..disk.width() {
                let d = Vec2::new(x as f32 + 0.5 - c, y as f32 + 0.5 - c).length();
                assert_eq!(disk.solid(x.into(), y.into()), d <= r, "({x}, {y}) at {d}");
            }
        }
    }

    #[test]
    fn prebuilt_masks_moved_to_the_snapped_corner_touch_as_the_disks_do_within_a_pixel() {
        let space = PixelSpace::new(16.0).unwrap();
        let (rb, rs) = (4.0, 1.5);
        let (big, small) = (Sprite::disk(rb).unwrap(), Sprite::disk(rs).unwrap());
        let (mut mb, mut ms) = (Mask::from_sprite(&big, 0, 0), Mask::from_sprite(&small, 0, 0));
        let (mut touching, mut apart) = (0, 0);
        for i in 0..400 {
            let pb = Vec2::new(5.0, 10.0);
            let ps = pb + Vec2::from_angle(i as f32 * 0.37) * (i as f32 / 400.0) * 0.6;
            let (bx, by) = space.top_left(pb, big.width(), big.height());
            let (sx, sy) = space.top_left(ps, small.width(), small.height());
            mb.set_position(bx, by);
            ms.set_position(sx, sy);
            let gap_px = pb.distance(ps) * space.pixels_per_unit() - (rb + rs);
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

    #[test]
    fn top_left_centres_the_sprite_and_clamps_far_points() {
        let space = PixelSpace::new(4.0).unwrap();
        assert_eq!(space.top_left(Vec2::new(1.0, -1.0), 2, 4), (3, 2));
        assert_eq!(space.top_left(Vec2::new(1e30, 1e30), 2, 2), (i32::MAX, i32::MIN));
        assert_eq!(space.top_left(Vec2::NAN, 2, 2), (0, 0));
    }

    proptest! {
        /// A body's world box from its placement holds every pixel the sprite covers, and a
        /// world box around any covered pixel is a candidate.
        #[test]
        fn world_boxes_hold_the_covered_pixels(
            k in prop::sample::select(vec![0.25f32, 1.0, 3.0, 16.0]),
            cx in -40.0f32..40.0, cy in -40.0f32..40.0,
            rotation in -4.0f32..4.0, sx in 0.5f32..3.0,
        ) {
            let space = PixelSpace::new(k).unwrap();
            let disk = Sprite::from_fn(9, 7, |x, y| (x as i32 - 4).pow(2) + (y as i32 - 3).pow(2) <= 9).unwrap();
            let pose = space.pose(Vec2::new(cx, cy), rotation, Vec2::new(sx, sx));
            let placement = Placement::new(9, 7, pose).unwrap();
            let mask = Mask::from_placement(&disk, &placement);
            let world = placement.world_aabb(&space);
            prop_assert!(world.contains_point(Vec2::new(cx, cy)));
            let b = mask.bounds();
            for y in b.y0..b.y1 {
                for x in b.x0..b.x1 {
                    if !mask.get(x, y) {
                        continue;
                    }
                    let centre = space.to_world(Vec2::new(x as f32 + 0.5, y as f32 + 0.5));
                    prop_assert!(world.contains_point(centre));
                    let probe = Aabb::from_center(centre, Vec2::splat(0.01 / k)).unwrap();
                    prop_assert!(placement.overlaps_aabb(&probe, &space));
                }
            }
        }

        /// A world box far from the placement is not a candidate.
        #[test]
        fn far_boxes_are_not_candidates(k in prop::sample::select(vec![0.5f32, 1.0, 8.0]), dx in 1.5f32..50.0) {
            let space = PixelSpace::new(k).unwrap();
            let placement = Placement::new(8, 8, space.pose(Vec2::ZERO, 0.7, Vec2::ONE)).unwrap();
            let world = placement.world_aabb(&space);
            let far = world.translated(Vec2::new(world.size().x * dx, 0.0));
            prop_assert!(!placement.overlaps_aabb(&far, &space));
        }
    }
}
