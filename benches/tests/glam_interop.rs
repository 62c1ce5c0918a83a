//! lore and rapier2d 0.36 / parry2d 0.31 (and bevy 0.20) share one glam: their `Vec2` is lore's
//! `Vec2`, so values pass between them with no conversion. This file only compiles while that
//! holds (a second glam in the tree makes every call below a type error), and checks that the
//! two libraries agree on the values passed.

use lore_collide2d::Aabb;
use lore_collide2d::{Disk, Segment, SlideOptions, slide_disk_swept};
use rapier2d::math::Vector;
use rapier2d::parry::query::PointQuery;
use rapier2d::parry::shape;

#[test]
fn rapier_vectors_go_straight_into_lore() {
    // Points built with rapier's own vector type.
    let (a, b): (Vector, Vector) = (Vector::new(-2.0, 0.0), Vector::new(3.0, 1.0));
    let probes = [Vector::new(0.0, 2.0), Vector::new(-4.0, -1.0), Vector::new(5.0, 0.5), Vector::new(1.0, 0.2)];

    // Into lore's shapes, no conversion.
    let ours = Segment::new(a, b).unwrap();
    let theirs = shape::Segment::new(a, b);
    for p in probes {
        let d_ours = ours.distance_squared(p).sqrt();
        let d_theirs = theirs.distance_to_local_point(p, true);
        assert!((d_ours - d_theirs).abs() <= 1e-5 * d_theirs.max(1.0), "{p}: {d_ours} vs {d_theirs}");
    }

    let disk = Disk::new(Vector::new(0.5, 0.5), 0.25).unwrap();
    let bounds: Aabb = disk.aabb();
    assert!(bounds.contains_point(Vector::new(0.5, 0.7)));

    // And lore's results go straight back into rapier's API.
    let out = slide_disk_swept(Vector::new(0.0, 1.0), 0.5, Vector::new(1.0, -2.0), &[ours], &SlideOptions::default())
        .unwrap();
    let ball = shape::Ball::new(0.5);
    let gap = theirs.distance_to_local_point(out.position, true) - ball.radius;
    assert!(gap > -1e-3, "the disk stays out of the segment: gap {gap}");
}
