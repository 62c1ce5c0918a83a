//! The serde support: sprites, poses, rectangles and pixel spaces round-trip through JSON and
//! collide the same; sprites and spaces the constructors refuse are refused when read.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use glam::Vec2;
use lore_pixel_collide::{Mask, PixelRect, PixelSpace, Pose, Sprite};

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn sprites_and_poses_round_trip_and_collide_the_same() {
    let ring = Sprite::from_fn(16, 12, |x, y| {
        let d = Vec2::new(x as f32 - 7.5, y as f32 - 5.5).length();
        (3.0..6.0).contains(&d)
    })
    .unwrap();
    let dot = Sprite::from_alpha(2, 1, vec![200, 90], 100).unwrap();
    let pose = Pose::at(Vec2::new(20.0, 30.0)).rotated(0.4).scaled(Vec2::new(1.5, -1.0));
    let (ring2, dot2, pose2): (Sprite, Sprite, Pose) = round_trip(&(ring.clone(), dot.clone(), pose));
    assert_eq!((&ring2, &dot2, pose2), (&ring, &dot, pose));
    let a = Mask::rasterize(&ring, pose).unwrap();
    let b = Mask::rasterize(&ring2, pose2).unwrap();
    assert_eq!(a, b);
    let rect = a.bounds();
    assert!(!rect.is_empty());
    assert_eq!(round_trip::<PixelRect>(&rect), rect);
    let space = PixelSpace::new(32.0).unwrap();
    assert_eq!(round_trip(&space), space);
}

#[test]
fn the_sprite_record_is_plain() {
    let s = Sprite::from_alpha(2, 1, vec![255, 0], 128).unwrap();
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"width":2,"height":1,"alpha":[255,0],"threshold":128}"#);
}

#[test]
fn sprites_and_spaces_the_constructors_refuse_are_refused() {
    let err = read::<Sprite>(r#"{"width":2,"height":2,"alpha":[1,2,3],"threshold":1}"#).unwrap_err();
    assert!(err.contains("sprite data has 3 bytes, expected 4"), "{err}");
    let err = read::<Sprite>(r#"{"width":0,"height":2,"alpha":[],"threshold":1}"#).unwrap_err();
    assert!(err.contains("sprite size 0x2 is invalid"), "{err}");
    let err = read::<Sprite>(r#"{"width":1,"height":1,"alpha":[9],"threshold":0}"#).unwrap_err();
    assert!(err.contains("alpha threshold must be 1..=255"), "{err}");
    let err = read::<PixelSpace>(r#"{"pixels_per_unit":0.0}"#).unwrap_err();
    assert!(err.contains("pixels per world unit"), "{err}");
    let err = read::<PixelSpace>(r#"{"pixels_per_unit":1e9}"#).unwrap_err();
    assert!(err.contains("pixels per world unit"), "{err}");
}
