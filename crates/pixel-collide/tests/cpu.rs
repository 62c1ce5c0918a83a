//! Properties of the CPU twin and of the bitmap-to-shapes conversions.

use lore_pixel_collide::glam::Vec2;
use lore_pixel_collide::shapes::{outlines, rectangles, signed_area};
use lore_pixel_collide::{Mask, Placement, Pose, Sprite};
use proptest::prelude::*;

fn sprite_strategy() -> impl Strategy<Value = Sprite> {
    (1u32..40, 1u32..40).prop_flat_map(|(w, h)| {
        (prop::collection::vec(any::<u8>(), (w * h) as usize), 1u8..=255)
            .prop_map(move |(a, t)| Sprite::from_alpha(w, h, a, t).unwrap())
    })
}

fn pose_strategy() -> impl Strategy<Value = Pose> {
    (-50.0f32..50.0, -50.0f32..50.0, -7.0f32..7.0, 0.2f32..3.0, -3.0f32..-0.2, any::<bool>()).prop_map(
        |(x, y, r, sx, sy, flip)| Pose {
            position: Vec2::new(x, y),
            rotation: r,
            scale: Vec2::new(sx, if flip { sy } else { -sy }),
        },
    )
}

fn naive_area(a: &Mask, b: &Mask) -> u64 {
    let r = a.bounds().intersection(&b.bounds());
    let mut n = 0;
    for y in r.y0..r.y1 {
        for x in r.x0..r.x1 {
            n += u64::from(a.get(x, y) && b.get(x, y));
        }
    }
    n
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn mask_equals_per_pixel_placement(s in sprite_strategy(), p in pose_strategy()) {
        let pl = Placement::new(s.width(), s.height(), p).unwrap();
        let m = Mask::from_placement(&s, &pl);
        let b = pl.bounds;
        for y in b.y0 - 1..=b.y1 {
            for x in b.x0 - 1..=b.x1 {
                prop_assert_eq!(m.get(x, y), pl.covers(&s, x, y));
            }
        }
    }

    #[test]
    fn word_parallel_tests_equal_naive(a in sprite_strategy(), pa in pose_strategy(), b in sprite_strategy(), pb in pose_strategy()) {
        let (ma, mb) = (Mask::rasterize(&a, pa).unwrap(), Mask::rasterize(&b, pb).unwrap());
        let n = naive_area(&ma, &mb);
        prop_assert_eq!(ma.overlap_area(&mb), n);
        prop_assert_eq!(mb.overlap_area(&ma), n);
        prop_assert_eq!(ma.overlaps(&mb), n > 0);
        prop_assert_eq!(ma.intersection(&mb).count(), n);
    }

    #[test]
    fn unscaled_unrotated_pose_copies_the_sprite(s in sprite_strategy(), x in -100i32..100, y in -100i32..100) {
        let r = Mask::rasterize(&s, Pose::top_left(x, y, s.width(), s.height())).unwrap();
        let c = Mask::from_sprite(&s, x, y);
        prop_assert_eq!(r.count(), c.count());
        prop_assert_eq!(r.overlap_area(&c), c.count());
        prop_assert_eq!(c.count(), s.solid_count() as u64);
    }

    #[test]
    fn rectangles_and_outlines_account_for_every_pixel(s in sprite_strategy()) {
        let m = Mask::from_sprite(&s, 3, -2);
        let rects = rectangles(&m);
        let area: f32 = rects.iter().map(|r| (r.max().x - r.min().x) * (r.max().y - r.min().y)).sum();
        prop_assert_eq!(area as u64, m.count());
        // Solid loops (counter-clockwise) minus holes (clockwise) give the pixel count.
        let loops = outlines(&m);
        let total: f32 = loops.iter().map(|l| signed_area(l)).sum();
        prop_assert_eq!(total as u64, m.count());
        for l in &loops {
            prop_assert!(l.len() >= 4 && signed_area(l) != 0.0);
        }
    }
}
