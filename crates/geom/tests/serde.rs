//! The serde support: values round-trip through JSON, and data the constructors refuse is
//! refused when read.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use lore_geom::glam::vec2;
use lore_geom::{Aabb, Ray, Segment};
use proptest::prelude::*;

fn read<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn the_records_are_plain_and_readable() {
    let b = Aabb::new(vec2(-1.0, 2.0), vec2(3.5, 4.0)).unwrap();
    assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"min":[-1.0,2.0],"max":[3.5,4.0]}"#);
    let s = Segment::new(vec2(0.0, 0.0), vec2(1.0, -1.0)).unwrap();
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"a":[0.0,0.0],"b":[1.0,-1.0]}"#);
    let r = Ray::new(vec2(0.0, 1.0), vec2(1.0, 0.0), 5.0).unwrap();
    assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"origin":[0.0,1.0],"dir":[1.0,0.0],"max_t":5.0}"#);
}

#[test]
fn an_unbounded_ray_leaves_max_t_out_and_reads_back_infinite() {
    let r = Ray::new(vec2(0.0, 1.0), vec2(0.0, -2.0), f32::INFINITY).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#"{"origin":[0.0,1.0],"dir":[0.0,-2.0]}"#);
    assert_eq!(read::<Ray>(&json).unwrap(), r);
    let null: Ray = read(r#"{"origin":[0.0,1.0],"dir":[0.0,-2.0],"max_t":null}"#).unwrap();
    assert_eq!(null.max_t(), f32::INFINITY);
}

#[test]
fn an_inverted_box_is_refused_with_the_constructors_message() {
    let err = read::<Aabb>(r#"{"min":[2.0,0.0],"max":[1.0,1.0]}"#).unwrap_err();
    assert!(err.contains("box min exceeds max"), "{err}");
    let err = read::<Aabb>(r#"{"min":[0.0,0.0],"max":[1.0,1e30]}"#).unwrap_err();
    assert!(err.contains("beyond the supported range"), "{err}");
    // JSON has no NaN; its `null` is not a number either.
    assert!(read::<Aabb>(r#"{"min":[0.0,null],"max":[1.0,1.0]}"#).is_err());
    assert!(read::<Aabb>(r#"{"min":[0.0,0.0]}"#).unwrap_err().contains("missing field `max`"));
}

#[test]
fn a_bad_ray_is_refused() {
    let err = read::<Ray>(r#"{"origin":[0.0,0.0],"dir":[0.0,0.0],"max_t":1.0}"#).unwrap_err();
    assert!(err.contains("ray direction is zero"), "{err}");
    let err = read::<Ray>(r#"{"origin":[0.0,0.0],"dir":[1.0,0.0],"max_t":-1.0}"#).unwrap_err();
    assert!(err.contains("ray direction is zero or its length is negative"), "{err}");
    let err = read::<Ray>(r#"{"origin":[2e18,0.0],"dir":[1.0,0.0]}"#).unwrap_err();
    assert!(err.contains("beyond the supported range"), "{err}");
}

/// A format that carries NaN and infinities (unlike JSON, e.g. a binary one): the checks
/// still hold. serde's own value deserializers stand in for such a format.
#[test]
fn non_finite_values_are_refused_by_a_format_that_has_them() {
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
    fn vector(x: f32, y: f32) -> SeqDeserializer<std::vec::IntoIter<f32>, Error> {
        SeqDeserializer::new(vec![x, y].into_iter())
    }
    let aabb = |min: (f32, f32), max: (f32, f32)| {
        let fields = vec![("min", vector(min.0, min.1)), ("max", vector(max.0, max.1))];
        let map = MapDeserializer::<_, Error>::new(fields.into_iter().map(|(k, v)| (k.into_deserializer(), v)));
        <Aabb as serde::Deserialize>::deserialize(map)
    };
    assert!(aabb((0.0, 0.0), (1.0, 1.0)).is_ok());
    let err = aabb((f32::NAN, 0.0), (1.0, 1.0)).unwrap_err().to_string();
    assert!(err.contains("NaN or infinite"), "{err}");
    let err = aabb((0.0, 0.0), (f32::INFINITY, 1.0)).unwrap_err().to_string();
    assert!(err.contains("NaN or infinite"), "{err}");
    let segment = |b: (f32, f32)| {
        let fields = vec![("a", vector(0.0, 0.0)), ("b", vector(b.0, b.1))];
        let map = MapDeserializer::<_, Error>::new(fields.into_iter().map(|(k, v)| (k.into_deserializer(), v)));
        <Segment as serde::Deserialize>::deserialize(map)
    };
    assert!(segment((1.0, 2.0)).is_ok());
    assert!(segment((f32::NEG_INFINITY, 2.0)).unwrap_err().to_string().contains("NaN or infinite"));
}

fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![-1e6f32..1e6, -1e18f32..1e18, Just(0.0), Just(-0.0), Just(f32::MIN_POSITIVE)]
}

proptest! {
    #[test]
    fn boxes_round_trip_exactly(a in (coord(), coord()), b in (coord(), coord())) {
        let b = Aabb::covering(vec2(a.0, a.1), vec2(b.0, b.1));
        let back: Aabb = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
        prop_assert_eq!(back, b);
    }

    #[test]
    fn rays_and_segments_round_trip_exactly(
        o in (coord(), coord()), d in (coord(), coord()), max_t in prop_oneof![0.0f32..1e9, Just(f32::INFINITY)],
    ) {
        if let Ok(r) = Ray::new(vec2(o.0, o.1), vec2(d.0, d.1), max_t) {
            let back: Ray = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
            prop_assert_eq!(back, r);
        }
        let s = Segment::new(vec2(o.0, o.1), vec2(d.0, d.1)).unwrap();
        let back: Segment = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        prop_assert_eq!(back, s);
    }
}
