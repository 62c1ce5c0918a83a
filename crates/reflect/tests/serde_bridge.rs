//! The serde bridge: every reflected shape round-trips through JSON and CBOR; bad input is a
//! typed error naming the path, never a panic, and leaves the value as it was.

use lore_reflect::{
    Reflect, ReflectDeserializer, ReflectSerializer, Registry, Typed, TypedReflectDeserializer, TypedReflectSerializer,
    deserialize_into,
};
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeSeed;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Reflect, Default, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Color {
    #[default]
    Red,
    Green,
    Blue,
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
enum Mode {
    #[default]
    Off,
    Fixed(f64),
    Pair(i8, String),
    Range {
        lo: i16,
        hi: i16,
    },
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Meters(f32);

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Rgb(u8, u8, u8);

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Marker;

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Inner {
    label: String,
    at: glam::Vec2,
    mode: Mode,
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Everything {
    f: f32,
    d: f64,
    i: i64,
    u: u64,
    z: isize,
    b: bool,
    c: char,
    s: String,
    meters: Meters,
    rgb: Rgb,
    marker: Marker,
    pair: (i32, String),
    boxed: Box<Inner>,
    list: Vec<Vec<u16>>,
    arr: [i8; 3],
    opt: Option<Inner>,
    opt_none: Option<u8>,
    tags: BTreeSet<String>,
    ids: HashSet<u32>,
    by_id: BTreeMap<u32, Mode>,
    by_color: HashMap<Color, f32>,
    named: BTreeMap<String, Vec<Color>>,
    inners: Vec<Inner>,
}

fn finite_f32() -> impl Strategy<Value = f32> {
    any::<f32>().prop_filter("finite", |f| f.is_finite())
}

fn finite_f64() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite", |f| f.is_finite())
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Red), Just(Color::Green), Just(Color::Blue)]
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Off),
        finite_f64().prop_map(Mode::Fixed),
        (any::<i8>(), any::<String>()).prop_map(|(a, b)| Mode::Pair(a, b)),
        (any::<i16>(), any::<i16>()).prop_map(|(lo, hi)| Mode::Range { lo, hi }),
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<String>(), finite_f32(), finite_f32(), mode()).prop_map(|(label, x, y, mode)| Inner {
        label,
        at: glam::Vec2::new(x, y),
        mode,
    })
}

prop_compose! {
    fn everything()(
        f in finite_f32(), d in finite_f64(), i in any::<i64>(), u in any::<u64>(), z in any::<isize>(),
        b in any::<bool>(), c in any::<char>(), s in any::<String>(),
        meters in finite_f32(), rgb in any::<(u8, u8, u8)>(),
        pair in (any::<i32>(), any::<String>()),
        boxed in inner(),
        list in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..3), 0..3),
        arr in any::<[i8; 3]>(),
        opt in prop::option::of(inner()), opt_none in prop::option::of(any::<u8>()),
        tags in prop::collection::btree_set(any::<String>(), 0..3),
        ids in prop::collection::hash_set(any::<u32>(), 0..3),
        by_id in prop::collection::btree_map(any::<u32>(), mode(), 0..3),
        by_color in prop::collection::hash_map(color(), finite_f32(), 0..3),
        named in prop::collection::btree_map(any::<String>(), prop::collection::vec(color(), 0..3), 0..3),
        inners in prop::collection::vec(inner(), 0..2),
    ) -> Everything {
        Everything {
            f, d, i, u, z, b, c, s, meters: Meters(meters), rgb: Rgb(rgb.0, rgb.1, rgb.2), marker: Marker, pair,
            boxed: Box::new(boxed), list, arr, opt, opt_none, tags, ids, by_id, by_color, named, inners,
        }
    }
}

fn json_round_trip<T: Reflect + Typed + Default>(value: &T) -> T {
    let json = serde_json::to_string(&TypedReflectSerializer::new(value)).unwrap();
    let mut back = T::default();
    deserialize_into(&mut back, &mut serde_json::Deserializer::from_str(&json))
        .unwrap_or_else(|e| panic!("{e} reading back {json}"));
    back
}

thread_local! {
    /// The value a CBOR read fills (ciborium 0.2 reads only `DeserializeOwned` types, so the
    /// seed's target travels through here).
    static SLOT: RefCell<Option<Box<dyn Reflect>>> = const { RefCell::new(None) };
}

/// Reads into the value in [`SLOT`] through [`TypedReflectDeserializer`].
struct Filled;

impl<'de> Deserialize<'de> for Filled {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = SLOT.with(|s| s.borrow_mut().take()).ok_or_else(|| serde::de::Error::custom("no slot"))?;
        let result = TypedReflectDeserializer::new(&mut *value).deserialize(d);
        SLOT.with(|s| *s.borrow_mut() = Some(value));
        result.map(|()| Filled)
    }
}

fn cbor_round_trip<T: Reflect + Typed + Default + Clone>(value: &T) -> T {
    let mut bytes = Vec::new();
    ciborium::into_writer(&TypedReflectSerializer::new(value), &mut bytes).unwrap();
    SLOT.with(|s| *s.borrow_mut() = Some(Box::new(T::default())));
    ciborium::from_reader::<Filled, _>(bytes.as_slice()).unwrap_or_else(|e| panic!("{e}"));
    let back = SLOT.with(|s| s.borrow_mut().take()).unwrap();
    back.downcast_ref::<T>().unwrap().clone()
}

proptest! {
    #[test]
    fn every_shape_round_trips_through_json_and_cbor(e in everything()) {
        prop_assert_eq!(&json_round_trip(&e), &e);
        prop_assert_eq!(&cbor_round_trip(&e), &e);
    }

    /// CBOR keeps every float, NaN and infinities included (JSON has no spelling for them).
    #[test]
    fn cbor_keeps_every_float(f in any::<f32>(), d in any::<f64>()) {
        let back = cbor_round_trip(&(f, d));
        prop_assert!(back.0.to_bits() == f.to_bits() || (f.is_nan() && back.0.is_nan()));
        prop_assert!(back.1.to_bits() == d.to_bits() || (d.is_nan() && back.1.is_nan()));
    }

    /// Random JSON text, and valid JSON cut and spliced with junk: never a panic, and a
    /// failed read leaves the value exactly as it was.
    #[test]
    fn random_json_never_panics_and_is_all_or_nothing(
        e in everything(),
        random in ".{0,64}",
        cut in 0usize..400,
        junk in "[\\[\\]{}\":,0-9a-zA-Z. -]{0,8}",
    ) {
        let json = serde_json::to_string(&TypedReflectSerializer::new(&e)).unwrap();
        let mut at = cut.min(json.len());
        while !json.is_char_boundary(at) {
            at -= 1;
        }
        let spliced = format!("{}{junk}{}", &json[..at], &json[at..]);
        for text in [random.as_str(), spliced.as_str()] {
            let mut target = e.clone();
            let result = deserialize_into(&mut target, &mut serde_json::Deserializer::from_str(text));
            if result.is_err() {
                prop_assert_eq!(&target, &e);
            }
        }
    }
}

#[test]
fn the_data_model_is_the_one_serde_users_expect() {
    let e = Everything {
        pair: (1, "a".into()),
        meters: Meters(2.5),
        by_id: [(7, Mode::Range { lo: 1, hi: 2 })].into_iter().collect(),
        ..Everything::default()
    };
    let v: serde_json::Value = serde_json::to_value(TypedReflectSerializer::new(&e)).unwrap();
    assert_eq!(v["pair"], serde_json::json!([1, "a"]));
    assert_eq!(v["meters"], serde_json::json!(2.5));
    assert_eq!(v["rgb"], serde_json::json!([0, 0, 0]));
    assert_eq!(v["marker"], serde_json::Value::Null);
    assert_eq!(v["opt"], serde_json::Value::Null);
    assert_eq!(v["by_id"], serde_json::json!({"7": {"Range": {"lo": 1, "hi": 2}}}));
    assert_eq!(v["boxed"]["mode"], serde_json::json!("Off"));
    // The same JSON that serde's derive writes for these shapes is read back.
    let mut back = Everything::default();
    let text =
        r#"{"opt": {"label": "x", "at": {"x": 1, "y": 2}, "mode": {"Pair": [3, "p"]}}, "by_color": {"Blue": 0.5}}"#;
    deserialize_into(&mut back, &mut serde_json::Deserializer::from_str(text)).unwrap();
    assert_eq!(back.opt.as_ref().map(|o| &o.mode), Some(&Mode::Pair(3, "p".into())));
    assert_eq!(back.by_color[&Color::Blue], 0.5);
}

#[test]
fn bad_input_names_the_path_and_changes_nothing() {
    let e = Everything { inners: vec![Inner::default(), Inner::default()], ..Everything::default() };
    let cases = [
        (r#"{"f": 1.5, "inners": [{}, {"mode": {"Range": {"lo": "x"}}}]}"#, "`inners[1].mode.lo`"),
        (r#"{"by_id": {"7": "Off", "x": "Off"}}"#, r#"`by_id["x"]`"#),
        (r#"{"arr": [1, 2]}"#, "`arr`"),
        (r#"{"arr": [1, 2, 3, 4]}"#, "`arr`"),
        (r#"{"nope": 1}"#, "no field `nope`"),
        (r#"{"boxed": {"mode": "Sideways"}}"#, "no variant `Sideways`"),
        (r#"{"ids": [1, -1]}"#, "`ids[1]`"),
        (r#"{"i": 1e400}"#, "`i`"),
        (r#"{"c": "ab"}"#, "`c`"),
    ];
    for (text, want) in cases {
        let mut target = e.clone();
        let err = deserialize_into(&mut target, &mut serde_json::Deserializer::from_str(text)).unwrap_err();
        assert!(err.to_string().contains(want), "{text}: {err}");
        assert_eq!(target, e, "{text} changed the value");
    }
}

/// Has no `Default`: read and written in place, never created.
#[derive(Reflect, Debug, Clone, PartialEq)]
struct Token {
    id: u32,
}

#[derive(Reflect, Debug, Clone, PartialEq)]
struct Tokens {
    list: Vec<Token>,
    maybe: Option<Token>,
}

#[test]
fn types_without_default_round_trip_and_cannot_grow() {
    let t = Tokens { list: vec![Token { id: 1 }, Token { id: 2 }], maybe: Some(Token { id: 3 }) };
    let json = serde_json::to_string(&TypedReflectSerializer::new(&t)).unwrap();
    let mut back = Tokens { list: vec![Token { id: 0 }, Token { id: 0 }], maybe: Some(Token { id: 0 }) };
    deserialize_into(&mut back, &mut serde_json::Deserializer::from_str(&json)).unwrap();
    assert_eq!(back, t);
    let before = back.clone();
    let err = deserialize_into(
        &mut back,
        &mut serde_json::Deserializer::from_str(r#"{"list": [{"id":1},{"id":2},{"id":3}]}"#),
    )
    .unwrap_err();
    assert!(err.to_string().contains("cannot create a new Token"), "{err}");
    assert_eq!(back, before);
    // Shrinking and `null` need no new value.
    deserialize_into(&mut back, &mut serde_json::Deserializer::from_str(r#"{"list": [{"id":9}], "maybe": null}"#))
        .unwrap();
    assert_eq!(back, Tokens { list: vec![Token { id: 9 }], maybe: None });
}

#[test]
fn tagged_values_load_through_the_registry() {
    let mut registry = Registry::new();
    registry.register::<Everything>().unwrap();
    let e = Everything { s: "tagged".into(), ..Everything::default() };
    let json = serde_json::to_string(&ReflectSerializer::new(&e)).unwrap();
    assert!(json.starts_with(r#"{"Everything":{"#), "{json}");
    let value =
        ReflectDeserializer::new(&registry).deserialize(&mut serde_json::Deserializer::from_str(&json)).unwrap();
    assert_eq!(value.downcast_ref::<Everything>(), Some(&e));
    let err = ReflectDeserializer::new(&registry)
        .deserialize(&mut serde_json::Deserializer::from_str(r#"{"Nope": {}}"#))
        .unwrap_err();
    assert!(err.to_string().contains("unknown kind `Nope`"), "{err}");
    let untagged = serde_json::to_string(&TypedReflectSerializer::new(&e)).unwrap();
    let value = registry.deserialize_kind("Everything", &mut serde_json::Deserializer::from_str(&untagged)).unwrap();
    assert_eq!(value.downcast_ref::<Everything>(), Some(&e));
}
