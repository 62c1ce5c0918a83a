//! Property tests: value → text → value is exact for every supported type, document → XML →
//! document is exact, and no input text or XML makes the readers panic.

use glam::{Vec2, Vec3, Vec4};
use lore_reflect::{Document, Reflect, Registry, Thing};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
enum Mode {
    #[default]
    Off,
    Fixed(f64),
    Range {
        lo: i16,
        hi: i16,
    },
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Inner {
    label: String,
    at: Vec2,
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Everything {
    f: f32,
    d: f64,
    i8_: i8,
    i64_: i64,
    u16_: u16,
    u64_: u64,
    b: bool,
    c: char,
    s: String,
    v3: Vec3,
    v4: Vec4,
    list: Vec<String>,
    nested: Vec<Vec<i32>>,
    arr: [f32; 3],
    opt: Option<Inner>,
    opt_s: Option<String>,
    map: HashMap<String, f32>,
    tree: BTreeMap<String, Mode>,
    mode: Mode,
    inners: Vec<Inner>,
}

/// Floats compared by bits, except that every NaN equals every NaN (the text `NaN` does not
/// carry a payload).
fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![any::<f32>(), Just(1e20), Just(-1e-20), Just(111.11), -1e3f32..1e3]
}

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![any::<f64>(), -1e3f64..1e3]
}

fn not_nan_f32() -> impl Strategy<Value = f32> {
    any::<f32>().prop_filter("NaN", |f| !f.is_nan())
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Off),
        (-1e300f64..1e300).prop_map(Mode::Fixed),
        (any::<i16>(), any::<i16>()).prop_map(|(lo, hi)| Mode::Range { lo, hi }),
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<String>(), not_nan_f32(), not_nan_f32()).prop_map(|(label, x, y)| Inner { label, at: Vec2::new(x, y) })
}

prop_compose! {
    fn everything()(
        f in not_nan_f32(), d in any::<f64>().prop_filter("NaN", |f| !f.is_nan()),
        i8_ in any::<i8>(), i64_ in any::<i64>(), u16_ in any::<u16>(), u64_ in any::<u64>(),
        b in any::<bool>(), c in any::<char>(), s in any::<String>(),
        v in prop::array::uniform3(not_nan_f32()), w in prop::array::uniform4(not_nan_f32()),
        list in prop::collection::vec(any::<String>(), 0..4),
        nested in prop::collection::vec(prop::collection::vec(any::<i32>(), 0..3), 0..3),
        arr in prop::array::uniform3(not_nan_f32()),
        opt in prop::option::of(inner()), opt_s in prop::option::of(any::<String>()),
        map in prop::collection::hash_map(any::<String>(), not_nan_f32(), 0..4),
        tree in prop::collection::btree_map(any::<String>(), mode(), 0..4),
        mode in mode(),
        inners in prop::collection::vec(inner(), 0..3),
    ) -> Everything {
        Everything {
            f, d, i8_, i64_, u16_, u64_, b, c, s, v3: Vec3::from(v), v4: Vec4::from(w), list, nested, arr,
            opt, opt_s, map, tree, mode, inners,
        }
    }
}

fn round_trip<T: Reflect + Default>(value: &T) -> T {
    let text = (value as &dyn Reflect).to_text();
    let mut back = T::default();
    (&mut back as &mut dyn Reflect).set_text("", &text).unwrap_or_else(|e| panic!("{e} reading back {text:?}"));
    back
}

proptest! {
    #[test]
    fn floats_round_trip_exactly(f in any_f32(), d in any_f64()) {
        prop_assert!(same_f32(round_trip(&f), f));
        prop_assert!(same_f64(round_trip(&d), d));
    }

    #[test]
    fn leaves_round_trip(i in any::<i32>(), u in any::<usize>(), b in any::<bool>(), c in any::<char>(), s in any::<String>()) {
        prop_assert_eq!(round_trip(&i), i);
        prop_assert_eq!(round_trip(&u), u);
        prop_assert_eq!(round_trip(&b), b);
        prop_assert_eq!(round_trip(&c), c);
        prop_assert_eq!(round_trip(&s), s);
    }

    #[test]
    fn containers_and_structs_round_trip(value in everything()) {
        prop_assert_eq!(round_trip(&value), value);
    }

    #[test]
    fn each_field_round_trips_through_its_own_text(value in everything()) {
        let src: &dyn Reflect = &value;
        let mut back = Everything::default();
        let dst: &mut dyn Reflect = &mut back;
        for field in <Everything as lore_reflect::Typed>::INFO.struct_info().unwrap().fields {
            let text = src.text(field.name).unwrap();
            dst.set_text(field.name, &text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
        }
        prop_assert_eq!(back, value);
    }

    #[test]
    fn documents_round_trip_through_xml(values in prop::collection::vec(everything(), 0..4), names in prop::collection::vec(any::<String>(), 4)) {
        let mut registry = Registry::new();
        registry.register::<Everything>().unwrap();
        let mut doc = Document::new();
        for (v, name) in values.iter().zip(&names) {
            // Names and strings go into attributes as they are (escaped); see the `Err` arm for
            // the characters XML 1.0 cannot carry at all.
            doc.things.push(Thing::new(name.clone(), Box::new(v.clone())));
        }
        let xml = doc.to_xml();
        match Document::from_xml(&xml, &registry) {
            Ok((back, report)) => {
                prop_assert!(report.is_clean(), "{}", report);
                let got: Vec<&Everything> = back.things.iter().map(|t| t.value.downcast_ref().unwrap()).collect();
                prop_assert_eq!(got, values.iter().collect::<Vec<_>>());
                let back_names: Vec<&str> = back.things.iter().map(|t| t.name.as_str()).collect();
                prop_assert_eq!(back_names, names.iter().take(values.len()).map(String::as_str).collect::<Vec<_>>());
            }
            // Characters XML 1.0 forbids (e.g. U+0000, U+FFFE) make the file ill-formed; that
            // must be a clean error, and only happen when such a character is present.
            Err(e) => {
                prop_assert!(xml.chars().any(|c| !lore_reflect::xml::is_xml_char(c)), "{e}");
                prop_assert!(doc.try_to_xml().is_err());
            }
        }
    }

    #[test]
    fn any_text_into_any_field_never_panics(text in any::<String>(), pick in 0usize..20) {
        let mut value = Everything::default();
        let r: &mut dyn Reflect = &mut value;
        let name = <Everything as lore_reflect::Typed>::INFO.struct_info().unwrap().fields[pick].name;
        let _ = r.set_text(name, &text);
        let _ = r.set_text("", &text);
        let _ = r.path(&text);
    }

    #[test]
    fn structured_garbage_text_never_panics(parts in prop::collection::vec(prop_oneof![
        Just("("), Just(")"), Just("["), Just("]"), Just("{"), Just("}"), Just(","), Just(":"), Just("\""),
        Just("\\"), Just("Some"), Just("Range"), Just("1"), Just("x"), Just(" "),
    ], 0..40)) {
        let text: String = parts.concat();
        let mut value = Everything::default();
        let _ = (&mut value as &mut dyn Reflect).set_text("", &text);
        let _ = (&mut value as &mut dyn Reflect).set_text("tree", &text);
        let _ = (&mut value as &mut dyn Reflect).set_text("mode", &text);
    }

    #[test]
    fn mutated_xml_never_panics(cut in 0usize..2000, insert in any::<String>(), at in 0usize..2000) {
        let mut registry = Registry::new();
        registry.register::<Everything>().unwrap();
        let mut doc = Document::new();
        doc.things.push(Thing::new("a", Box::new(Everything::default())));
        let xml = doc.to_xml();
        let cut = floor_char(&xml, cut.min(xml.len()));
        let at = floor_char(&xml[..cut], at.min(cut));
        let mutated = format!("{}{}{}", &xml[..at], insert, &xml[at..cut]);
        let _ = Document::from_xml(&mutated, &registry);
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Long runs of the same properties: `cargo test --release -p lore-reflect -- --ignored`.
#[test]
#[ignore = "long: run in release with --ignored"]
fn long_round_trips() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(100_000));
    runner
        .run(&everything(), |value| {
            prop_assert_eq!(round_trip(&value), value);
            Ok(())
        })
        .unwrap();
    runner
        .run(&(any::<String>(), 0usize..20), |(text, pick)| {
            let mut value = Everything::default();
            let name = <Everything as lore_reflect::Typed>::INFO.struct_info().unwrap().fields[pick].name;
            let _ = (&mut value as &mut dyn Reflect).set_text(name, &text);
            Ok(())
        })
        .unwrap();
}

/// XML-ish pieces, so that the loader's states (things, parameters, unknown elements, nesting,
/// entities, comments, bad values) are reached far more often than by random text.
fn xml_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("<things>"),
            Just("</things>"),
            Just("<thing kind=\"Everything\" name=\"a\">"),
            Just("<thing kind=\"Nope\" name=\"b\">"),
            Just("<thing>"),
            Just("</thing>"),
            Just("<thing/>"),
            Just("<parameter name=\"f\" value=\"1e39\"/>"),
            Just("<parameter name=\"v3\" value=\"1 , x , 3\"/>"),
            Just("<parameter name=\"mode\" value=\"Range(1 , \"/>"),
            Just("<rejected name=\"s\" value=\"&#0;\"/>"),
            Just("<parameter name=\"s\" value=\"&amp;&lt;\"/>"),
            Just("<parameter"),
            Just(" name=\"b\""),
            Just(" value=\"1\""),
            Just("/>"),
            Just(">"),
            Just("<group>"),
            Just("</group>"),
            Just("<!-- c -->"),
            Just("<!DOCTYPE x>"),
            Just("<![CDATA[x]]>"),
            Just("&bogus;"),
            Just("text"),
            Just("\n"),
            Just("\u{0}"),
            Just("\""),
            Just("<"),
            Just("<?xml version=\"1.0\"?>"),
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn the_document_loader_never_panics_and_its_report_is_bounded(text in xml_soup(), max in 0usize..8) {
        let mut registry = Registry::new();
        registry.register::<Everything>().unwrap();
        let limits = lore_reflect::Limits { max_problems: max, max_depth: 6, ..lore_reflect::Limits::default() };
        match Document::from_xml_with(&text, &registry, &limits) {
            Ok((doc, report)) => {
                prop_assert!(report.problems.len() <= max);
                // What loads saves, and the save loads again.
                if let Ok(xml) = doc.try_to_xml() {
                    prop_assert!(Document::from_xml(&xml, &registry).is_ok(), "{}", xml);
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
