//! The serde support: shapes, colliders, options and reports round-trip through JSON, and
//! shapes the constructors refuse are refused when read.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use glam::vec2;
use lore_collide2d::{
    Aabb, AabbMode, Body, Capsule, CharacterController, Collider, ConvexPolygon, Disk, Order, Segment, SlideOptions,
    slide_disk_swept,
};

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
fn a_level_of_mixed_colliders_round_trips() {
    let level = vec![
        Collider::Segment(Segment::new(vec2(-5.0, 0.0), vec2(5.0, 0.0)).unwrap()),
        Collider::Aabb(Aabb::new(vec2(2.0, 0.0), vec2(3.0, 1.0)).unwrap()),
        Collider::Capsule(Capsule::new(vec2(-3.0, 2.0), vec2(-1.0, 2.5), 0.25).unwrap()),
        Collider::Polygon(ConvexPolygon::hull(&[vec2(0.0, 3.0), vec2(1.0, 3.0), vec2(0.5, 4.0)]).unwrap()),
        Collider::Polygon(ConvexPolygon::from_aabb(&Aabb::new(vec2(6.0, 0.0), vec2(7.0, 2.0)).unwrap())),
    ];
    let back: Vec<Collider> = round_trip(&level);
    assert_eq!(back, level);
    // The loaded level behaves as the original: the same move gives the same answer.
    let opts = SlideOptions::default();
    let a = slide_disk_swept(vec2(0.0, 0.6), 0.5, vec2(3.0, -0.2), &level, &opts).unwrap();
    let b = slide_disk_swept(vec2(0.0, 0.6), 0.5, vec2(3.0, -0.2), &back, &opts).unwrap();
    assert_eq!(a, b);
}

#[test]
fn disks_and_capsules_have_plain_records() {
    let d = Disk::new(vec2(1.0, 2.0), 0.5).unwrap();
    assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"center":[1.0,2.0],"radius":0.5}"#);
    assert_eq!(round_trip(&d), d);
    let c = Capsule::new(vec2(0.0, 0.0), vec2(0.0, 1.0), 0.25).unwrap();
    assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"segment":{"a":[0.0,0.0],"b":[0.0,1.0]},"radius":0.25}"#);
    assert_eq!(round_trip(&c), c);
}

#[test]
fn shapes_the_constructors_refuse_are_refused() {
    let err = read::<Disk>(r#"{"center":[0.0,0.0],"radius":-1.0}"#).unwrap_err();
    assert!(err.contains("disk radius must be > 0"), "{err}");
    let err = read::<Disk>(r#"{"center":[0.0,0.0],"radius":0.0}"#).unwrap_err();
    assert!(err.contains("must be > 0"), "{err}");
    let err = read::<Capsule>(r#"{"segment":{"a":[0.0,0.0],"b":[1.0,0.0]},"radius":-0.5}"#).unwrap_err();
    assert!(err.contains("capsule radius must be > 0"), "{err}");
    let err = read::<ConvexPolygon>(r#"{"points":[[0.0,0.0],[1.0,1.0],[2.0,2.0]]}"#).unwrap_err();
    assert!(err.contains("span no area"), "{err}");
    let err = read::<ConvexPolygon>(r#"{"points":[]}"#).unwrap_err();
    assert!(err.contains("span no area"), "{err}");
    // Inside a collider the box is lore-geom's, checked by its constructor.
    let err = read::<Collider>(r#"{"Aabb":{"min":[1.0,0.0],"max":[0.0,1.0]}}"#).unwrap_err();
    assert!(err.contains("box min exceeds max"), "{err}");
}

#[test]
fn a_polygon_is_read_as_the_hull_of_its_points() {
    // Clockwise, with an interior point: read back as the counter-clockwise hull.
    let p: ConvexPolygon = read(r#"{"points":[[0.0,0.0],[0.0,2.0],[1.0,1.0],[2.0,2.0],[2.0,0.0]]}"#).unwrap();
    let hull = ConvexPolygon::hull(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(2.0, 2.0), vec2(0.0, 2.0)]).unwrap();
    assert_eq!(p, hull);
}

#[test]
fn options_and_reports_round_trip() {
    let opts = SlideOptions { iterations: 3, order: Order::FirstFound, ..SlideOptions::default() };
    assert_eq!(round_trip(&opts), opts);
    let ctl = CharacterController { max_slope: 0.5, options: opts, ..CharacterController::new(0.4).unwrap() };
    assert_eq!(round_trip(&ctl), ctl);
    assert_eq!(round_trip(&AabbMode::Teleport), AabbMode::Teleport);
    let body = Body { aabb: Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap(), motion: vec2(0.5, 0.0), priority: 2 };
    assert_eq!(round_trip(&body), body);

    let floor = [Segment::new(vec2(-5.0, 0.0), vec2(5.0, 0.0)).unwrap()];
    let out = slide_disk_swept(vec2(0.0, 1.0), 0.5, vec2(1.0, -2.0), &floor, &SlideOptions::default()).unwrap();
    assert!(out.last_normal.is_some());
    assert_eq!(round_trip(&out), out);
    let m = ctl.move_by(vec2(0.0, 0.6), vec2(0.2, -0.3), &floor).unwrap();
    assert_eq!(round_trip(&m), m);
}

#[test]
fn loaded_options_out_of_range_are_refused_by_the_move_that_takes_them() {
    let opts: SlideOptions =
        read(r#"{"iterations":0,"order":"DeepestFirst","skin":0.001,"tolerance":0.0001,"rounding":0.01}"#).unwrap();
    let floor = [Segment::new(vec2(-5.0, 0.0), vec2(5.0, 0.0)).unwrap()];
    let err = slide_disk_swept(vec2(0.0, 1.0), 0.5, vec2(1.0, 0.0), &floor, &opts).unwrap_err();
    assert!(err.to_string().contains("iterations"), "{err}");
}
