//! The serde support: ids, ray hits, statistics and advice round-trip through JSON, and a
//! saved id still names its box in the index that issued it.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use glam::vec2;
use lore_broadphase::{Aabb, Axis, ProxyId, QueryStats, Ray, RayHit, SpatialIndex, Tree, suggest_cell_size};

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

#[test]
fn saved_ids_name_the_same_boxes() {
    let mut tree = Tree::new();
    let mut saved = Vec::new();
    for i in 0..50 {
        let b = Aabb::new(vec2(i as f32, 0.0), vec2(i as f32 + 0.5, 1.0)).unwrap();
        saved.push((tree.insert(b).unwrap(), b));
    }
    // Reuse slots so some ids carry a later generation.
    for k in [5, 17, 30] {
        tree.remove(saved[k].0).unwrap();
        let b = Aabb::new(vec2(k as f32, 5.0), vec2(k as f32 + 1.0, 6.0)).unwrap();
        saved[k] = (tree.insert(b).unwrap(), b);
    }
    let back: Vec<(ProxyId, Aabb)> = round_trip(&saved);
    assert_eq!(back, saved);
    for (id, b) in back {
        assert_eq!(tree.aabb(id), Some(b));
    }
}

#[test]
fn hits_stats_axis_and_advice_round_trip() {
    let mut tree = Tree::new();
    let id = tree.insert(Aabb::new(vec2(2.0, -1.0), vec2(3.0, 1.0)).unwrap()).unwrap();
    let (hit, stats) = tree.raycast(&Ray::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 10.0).unwrap(), &mut |_| true);
    let hit = hit.unwrap();
    assert_eq!(hit.id, id);
    assert_eq!(round_trip::<RayHit>(&hit), hit);
    assert_eq!(round_trip::<QueryStats>(&stats), stats);
    assert_eq!(serde_json::to_string(&Axis::Y).unwrap(), r#""Y""#);
    assert_eq!(round_trip(&Axis::Y), Axis::Y);
    let advice = suggest_cell_size((0..10).map(|i| Aabb::from_center(vec2(i as f32, 0.0), vec2(0.5, 0.25)).unwrap()));
    let advice = advice.unwrap();
    assert_eq!(round_trip(&advice), advice);
}

#[test]
fn boxes_read_for_an_index_are_checked() {
    let err = serde_json::from_str::<Aabb>(r#"{"min":[1.0,0.0],"max":[0.0,1.0]}"#).unwrap_err().to_string();
    assert!(err.contains("box min exceeds max"), "{err}");
    let err = serde_json::from_str::<ProxyId>(r#"{"index":1}"#).unwrap_err().to_string();
    assert!(err.contains("missing field `generation`"), "{err}");
}
