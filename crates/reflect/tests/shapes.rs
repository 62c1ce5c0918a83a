//! Tuples, `Box<T>`, sets, maps keyed by any value with a text form, and types without
//! `Default`: paths, text, XML documents and all-or-nothing `apply` on each.

use lore_reflect::{Document, Error, Reflect, Registry, Set, Thing, Typed};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Reflect, Default, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Color {
    #[default]
    Red,
    Green,
    Blue,
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Shapes {
    pair: (i32, f32),
    triple: (u8, String, bool),
    one: (char,),
    boxed: Box<(i16, i16)>,
    tags: BTreeSet<String>,
    ids: HashSet<u32>,
    colors: BTreeSet<Color>,
    by_id: BTreeMap<u32, String>,
    by_color: HashMap<Color, f32>,
    by_char: BTreeMap<char, Vec<i8>>,
    by_pair: BTreeMap<(u8, u8), bool>,
}

/// Has no `Default`: reflected, read and written in containers, never created by them.
#[derive(Reflect, Debug, PartialEq, Clone)]
struct Token {
    id: u32,
    name: String,
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Holder {
    tokens: Vec<Token>,
    maybe: Option<Token>,
    named: BTreeMap<String, Token>,
    fixed: [Token; 0],
}

fn tok(id: u32, name: &str) -> Token {
    Token { id, name: name.into() }
}

/// Made by a factory instead of `Default`.
#[derive(Reflect, Debug, PartialEq, Clone)]
#[reflect(create = Seeded::planted)]
struct Seeded {
    seed: u64,
}

impl Seeded {
    fn planted() -> Self {
        Seeded { seed: 7 }
    }
}

fn sample() -> Shapes {
    Shapes {
        pair: (-3, 1.5),
        triple: (9, "a \"q\" , b".into(), true),
        one: ('x',),
        boxed: Box::new((4, -4)),
        tags: ["b", "a c"].into_iter().map(String::from).collect(),
        ids: [3, 1, 2].into_iter().collect(),
        colors: [Color::Blue, Color::Red].into_iter().collect(),
        by_id: [(10, "ten".into()), (2, "two".into())].into_iter().collect(),
        by_color: [(Color::Green, 0.25)].into_iter().collect(),
        by_char: [('z', vec![1, -2])].into_iter().collect(),
        by_pair: [((1, 2), true), ((0, 9), false)].into_iter().collect(),
    }
}

fn text_round_trip<T: Reflect + Typed + Clone>(value: &T, mut blank: T) -> T {
    let text = (value as &dyn Reflect).to_text();
    (&mut blank as &mut dyn Reflect).set_text("", &text).unwrap_or_else(|e| panic!("{e} reading back {text:?}"));
    blank
}

#[test]
fn paths_reach_into_tuples_boxes_and_keyed_maps() {
    let mut s = sample();
    let r: &mut dyn Reflect = &mut s;
    assert_eq!(*r.get::<f32>("pair.1").unwrap(), 1.5);
    assert_eq!(*r.get::<f32>("pair[1]").unwrap(), 1.5);
    assert_eq!(r.get::<String>("triple.1").unwrap(), "a \"q\" , b");
    assert_eq!(*r.get::<i16>("boxed.0").unwrap(), 4);
    assert_eq!(r.get::<String>("by_id[10]").unwrap(), "ten");
    assert_eq!(r.get::<String>("by_id[\"2\"]").unwrap(), "two");
    assert_eq!(r.get::<String>("by_id.2").unwrap(), "two");
    assert_eq!(*r.get::<f32>("by_color.Green").unwrap(), 0.25);
    assert_eq!(*r.get::<i8>("by_char.z[1]").unwrap(), -2);
    assert!(*r.get::<bool>("by_pair[\"1 , 2\"]").unwrap());
    r.set_text("by_id[10]", "TEN").unwrap();
    r.set_text("by_color[\"Green\"]", "-1").unwrap();
    r.set_text("pair.0", "+8").unwrap();
    assert_eq!(s.by_id[&10], "TEN");
    assert_eq!(s.by_color[&Color::Green], -1.0);
    assert_eq!(s.pair.0, 8);
    let r: &dyn Reflect = &s;
    assert!(matches!(r.path("by_id[11]"), Err(Error::NoKey { .. })));
    assert!(matches!(r.path("by_color.Purple"), Err(Error::NoKey { .. })));
    assert!(matches!(r.path("pair.2"), Err(Error::NoIndex { .. })));
    // A typed path through an integer key.
    let p = lore_reflect::TypedPath::<String>::resolve(r, "by_id[2]").unwrap();
    assert_eq!(p.get(r).unwrap(), "two");
}

#[test]
fn text_forms_of_the_new_shapes() {
    let s = sample();
    let r: &dyn Reflect = &s;
    assert_eq!(r.text("pair").unwrap(), "-3 , 1.5");
    assert_eq!(r.text("tags").unwrap(), r#""a c" , "b""#);
    assert_eq!(r.text("ids").unwrap(), "1 , 2 , 3");
    assert_eq!(r.text("colors").unwrap(), "Red , Blue");
    assert_eq!(r.text("by_id").unwrap(), r#""2": "two" , "10": "ten""#);
    assert_eq!(r.text("by_pair").unwrap(), r#""0 , 9": false , "1 , 2": true"#);
    assert_eq!(text_round_trip(&s, Shapes::default()), s);
}

#[test]
fn reading_text_into_sets_and_keyed_maps_is_all_or_nothing() {
    let mut s = sample();
    let before = s.clone();
    let r: &mut dyn Reflect = &mut s;
    // The second key is not a u32: nothing changes, the error names the key.
    let e = r.set_text("by_id", r#""5": "five" , "x": "bad""#).unwrap_err();
    assert!(matches!(&e, Error::Parse { path, .. } if path == r#"by_id["x"]"#), "{e}");
    let e = r.set_text("ids", "4 , -1").unwrap_err();
    assert!(matches!(&e, Error::Parse { path, expected: "u32", .. } if path == "ids[1]"), "{e}");
    let e = r.set_text("colors", "Green , Purple").unwrap_err();
    assert!(matches!(e, Error::NoVariant { .. }), "{e}");
    assert_eq!(s, before);
    // `+3` and `3` are one integer key; stale keys go.
    let r: &mut dyn Reflect = &mut s;
    r.set_text("by_id", r#""+3": "three" , "2": "deux""#).unwrap();
    assert_eq!(s.by_id, [(2, "deux".into()), (3, "three".into())].into_iter().collect());
    let r: &mut dyn Reflect = &mut s;
    r.set_text("ids", "7 , 7 , 8").unwrap();
    assert_eq!(s.ids, [7, 8].into_iter().collect());
}

#[test]
fn apply_copies_the_new_shapes_and_is_all_or_nothing() {
    let src = sample();
    let mut dst = Shapes::default();
    (&mut dst as &mut dyn Reflect).apply(&src).unwrap();
    assert_eq!(dst, src);
    // A map whose values do not fit: nothing changes.
    #[derive(Reflect, Default)]
    struct Other {
        pair: (i32, f32),
        by_color: BTreeMap<u32, f32>,
    }
    let other = Other { pair: (1, 2.0), by_color: [(1, 0.5)].into_iter().collect() };
    let before = dst.clone();
    assert!((&mut dst as &mut dyn Reflect).apply(&other).is_err());
    assert_eq!(dst, before);
}

#[test]
fn documents_round_trip_the_new_shapes_through_xml() {
    let mut registry = Registry::new();
    registry.register::<Shapes>().unwrap();
    let mut doc = Document::new();
    doc.things.push(Thing::new("s", Box::new(sample())));
    let xml = doc.to_xml();
    let (back, report) = Document::from_xml(&xml, &registry).unwrap();
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(back.things[0].value.downcast_ref::<Shapes>(), Some(&sample()));
}

#[test]
fn the_set_view_inserts_checks_and_removes() {
    let mut s = sample();
    let ReflectMutSet(set) = set_of(&mut s.tags);
    assert!(set.insert_text("z").unwrap());
    assert!(!set.insert_text("z").unwrap());
    assert!(set.contains(&String::from("z")));
    assert!(set.remove(&String::from("z")));
    assert!(!set.contains(&7u32), "another type is never an element");
    assert_eq!(set.len(), 2);
}

struct ReflectMutSet<'a>(&'a mut dyn Set);

fn set_of(value: &mut dyn Reflect) -> ReflectMutSet<'_> {
    match value.reflect_mut() {
        lore_reflect::ReflectMut::Set(s) => ReflectMutSet(s),
        _ => panic!("not a set"),
    }
}

#[test]
fn containers_of_types_without_default_read_and_write() {
    let mut h = Holder {
        tokens: vec![tok(1, "a"), tok(2, "b")],
        maybe: Some(tok(3, "c")),
        named: [("k".to_string(), tok(4, "d"))].into_iter().collect(),
        fixed: [],
    };
    let r: &mut dyn Reflect = &mut h;
    assert_eq!(*r.get::<u32>("tokens[1].id").unwrap(), 2);
    r.set_text("tokens[0].name", "A").unwrap();
    r.set_text("maybe", "Some((30 , \"C\"))").unwrap();
    r.set_text("named.k", "40 , \"D\"").unwrap();
    // Same length: no element needs creating.
    r.set_text("tokens", "(5 , \"e\") , (6 , \"f\")").unwrap();
    assert_eq!(h.tokens, [tok(5, "e"), tok(6, "f")]);
    assert_eq!(h.maybe, Some(tok(30, "C")));
    assert_eq!(h.named["k"], tok(40, "D"));
    // Shrinking needs no new element either.
    let r: &mut dyn Reflect = &mut h;
    r.set_text("tokens", "(5 , \"e\")").unwrap();
    assert_eq!(h.tokens, [tok(5, "e")]);
    assert_eq!(text_round_trip(&h, h.clone()), h);
}

#[test]
fn growing_a_container_of_types_without_default_is_a_typed_error_and_changes_nothing() {
    let mut h = Holder { tokens: vec![tok(1, "a")], maybe: None, named: BTreeMap::new(), fixed: [] };
    let before = h.clone();
    let r: &mut dyn Reflect = &mut h;
    let e = r.set_text("tokens", "(9 , \"z\") , (2 , \"b\")").unwrap_err();
    assert!(matches!(&e, Error::NoDefault { path, type_name: "Token" } if path == "tokens"), "{e}");
    let e = r.set_text("maybe", "Some((1 , \"x\"))").unwrap_err();
    assert!(matches!(&e, Error::NoDefault { path, .. } if path == "maybe"), "{e}");
    let e = r.set_text("named", r#""new": (1 , "x")"#).unwrap_err();
    assert!(matches!(&e, Error::NoDefault { path, type_name: "Token" } if path == r#"named["new"]"#), "{e}");
    let grown = Holder { tokens: vec![tok(1, "a"), tok(2, "b")], ..before.clone() };
    let e = (&mut h as &mut dyn Reflect).apply(&grown).unwrap_err();
    assert!(matches!(e, Error::NoDefault { .. }), "{e}");
    assert_eq!(h, before);
    assert!(<Token as Typed>::create().is_none());
    // Shrinking that fails part-way must not lose the elements it would have cut: they
    // could not be made again.
    let mut h = Holder {
        tokens: vec![tok(1, "a"), tok(2, "b")],
        maybe: None,
        named: [("j".to_string(), tok(1, "j")), ("k".to_string(), tok(2, "k"))].into_iter().collect(),
        fixed: [],
    };
    let before = h.clone();
    let r: &mut dyn Reflect = &mut h;
    assert!(r.set_text("tokens", "(x , \"e\")").is_err());
    assert!(r.set_text("named", r#""j": (x , "e")"#).is_err());
    assert_eq!(h, before, "a failed shrink keeps every element");
    let r: &mut dyn Reflect = &mut h;
    assert!(r.apply(&Holder { tokens: vec![], named: BTreeMap::new(), ..before.clone() }).is_ok());
    assert_eq!(h.tokens, []);
    let r: &mut dyn Reflect = &mut h;
    assert!(r.set_text("tokens", "(1 , \"a\") , (2 , \"b\")").is_err(), "cannot grow again");
    let mut h = before.clone();
    #[derive(Reflect, Default)]
    struct Bad {
        named: BTreeMap<String, (u32, bool)>,
    }
    let bad = Bad { named: [("j".to_string(), (5, true))].into_iter().collect() };
    assert!((&mut h as &mut dyn Reflect).apply(&bad).is_err());
    assert_eq!(h, before);
}

#[test]
fn a_factory_creates_values_without_default() {
    assert_eq!(<Seeded as Typed>::create(), Some(Seeded { seed: 7 }));
    let mut v: Vec<Seeded> = Vec::new();
    (&mut v as &mut dyn Reflect).set_text("", "(1) , (2)").unwrap();
    assert_eq!(v, [Seeded { seed: 1 }, Seeded { seed: 2 }]);
    let mut registry = Registry::new();
    registry.register_kind(lore_reflect::Kind::from_parts(Seeded::INFO, || Box::new(Seeded::planted()))).unwrap();
    assert_eq!(registry.create("Seeded").unwrap().downcast_ref::<Seeded>(), Some(&Seeded { seed: 7 }));
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Red), Just(Color::Green), Just(Color::Blue)]
}

prop_compose! {
    fn shapes()(
        pair in (any::<i32>(), any::<f32>().prop_filter("NaN", |f| !f.is_nan())),
        triple in (any::<u8>(), any::<String>(), any::<bool>()),
        one in any::<char>(),
        boxed in (any::<i16>(), any::<i16>()),
        tags in prop::collection::btree_set(any::<String>(), 0..4),
        ids in prop::collection::hash_set(any::<u32>(), 0..4),
        colors in prop::collection::btree_set(color(), 0..3),
        by_id in prop::collection::btree_map(any::<u32>(), any::<String>(), 0..4),
        by_color in prop::collection::hash_map(color(), -1e6f32..1e6, 0..3),
        by_char in prop::collection::btree_map(any::<char>(), prop::collection::vec(any::<i8>(), 0..3), 0..3),
        by_pair in prop::collection::btree_map((any::<u8>(), any::<u8>()), any::<bool>(), 0..3),
    ) -> Shapes {
        Shapes { pair, triple, one: (one,), boxed: Box::new(boxed), tags, ids, colors, by_id, by_color, by_char, by_pair }
    }
}

proptest! {
    #[test]
    fn every_new_shape_round_trips_through_text(s in shapes()) {
        prop_assert_eq!(text_round_trip(&s, Shapes::default()), s);
    }

    /// Text that fails part-way leaves the value as it was.
    #[test]
    fn failed_text_changes_nothing(s in shapes(), cut in 0usize..200, junk in "[,()\\[\\]{}\":a-z0-9 ]{0,6}") {
        let text = (&s as &dyn Reflect).to_text();
        let mut cut_at = cut.min(text.len());
        while !text.is_char_boundary(cut_at) {
            cut_at -= 1;
        }
        let bad = format!("{}{junk}", &text[..cut_at]);
        let mut target = sample();
        if (&mut target as &mut dyn Reflect).set_text("", &bad).is_err() {
            prop_assert_eq!(target, sample());
        }
    }
}

/// Generic and without `Default`: made field by field.
#[derive(Reflect, Debug, PartialEq, Clone)]
struct Span<T> {
    from: T,
    to: T,
    #[reflect(skip)]
    cache: Option<u8>,
}

#[test]
fn generic_structs_are_made_field_by_field() {
    assert_eq!(<Span<f32> as Typed>::create(), Some(Span { from: 0.0, to: 0.0, cache: None }));
    assert_eq!(<Span<Token> as Typed>::create(), None, "a field that cannot be made");
    let mut spans: Vec<Span<i8>> = Vec::new();
    (&mut spans as &mut dyn Reflect).set_text("", "(1 , 2) , (3 , 4)").unwrap();
    assert_eq!(spans[1], Span { from: 3, to: 4, cache: None });
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Flag;

#[test]
fn keys_spelt_differently_name_one_entry_whatever_the_value() {
    // Zero-sized values share one address: keys must be compared by the map's own text.
    let mut flags: BTreeMap<u32, Flag> = [(3, Flag), (4, Flag)].into_iter().collect();
    (&mut flags as &mut dyn Reflect).set_text("", r#""+3": ()"#).unwrap();
    assert_eq!(flags, [(3, Flag)].into_iter().collect());
    let mut by_id: BTreeMap<u32, String> = [(3, "a".into()), (4, "b".into())].into_iter().collect();
    (&mut by_id as &mut dyn Reflect).set_text("", r#""+3": "c" , "04": "d""#).unwrap();
    assert_eq!(by_id, [(3, "c".into()), (4, "d".into())].into_iter().collect());
}
