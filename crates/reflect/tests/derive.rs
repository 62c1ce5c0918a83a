//! The derive on every supported shape: type info, access by name, index and path, enums,
//! generics, typed paths.

use glam::Vec2;
use lore_reflect::{Error, Reflect, ReflectRef, Shape, StructStyle, Typed, TypedPath};
use std::collections::HashMap;

#[derive(Reflect, Default, Debug, PartialEq)]
struct Transform {
    position: Vec2,
    /// Rotation in radians.
    #[reflect(range = -3.5..=3.5, step = 0.01)]
    angle: f32,
}

#[derive(Reflect, Default, Debug, PartialEq)]
enum Shape2 {
    #[default]
    Empty,
    Circle(f32),
    Rect {
        size: Vec2,
        #[reflect(rename = "round")]
        rounded: bool,
    },
}

/// A level object.
#[derive(Reflect, Default, Debug, PartialEq)]
#[reflect(rename = "Object")]
struct Obj {
    transform: Transform,
    items: Vec<i32>,
    shape: Shape2,
    tag: Option<String>,
    stats: HashMap<String, f32>,
    #[reflect(color)]
    color: [f32; 4],
    #[reflect(skip)]
    cache: u64,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Meters(f32);

#[derive(Reflect, Default, Debug, PartialEq)]
struct Marker;

#[derive(Reflect, Default, Debug, PartialEq)]
struct Pair<T> {
    a: T,
    b: T,
}

#[derive(Reflect, Debug, PartialEq)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[test]
fn type_info_lists_fields_docs_and_attributes() {
    let info = <Obj as Typed>::INFO;
    assert_eq!(info.name, "Object");
    assert_eq!(info.docs, "A level object.");
    let s = info.struct_info().expect("a struct");
    let names: Vec<_> = s.fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["transform", "items", "shape", "tag", "stats", "color"]);
    assert!(s.fields[5].attrs.color);
    assert!((s.fields[0].type_name)().ends_with("Transform"));
    let t = <Transform as Typed>::INFO.struct_info().unwrap();
    assert_eq!(t.fields[1].docs, "Rotation in radians.");
    assert_eq!(t.fields[1].attrs.range, Some((-3.5, 3.5)));
    assert_eq!(t.fields[1].attrs.step, Some(0.01));
    assert_eq!(<Meters as Typed>::INFO.struct_info().unwrap().style, StructStyle::Tuple);
    assert_eq!(<Marker as Typed>::INFO.struct_info().unwrap().style, StructStyle::Unit);
    let Shape::Enum(e) = &<Shape2 as Typed>::INFO.shape else { panic!("an enum") };
    assert_eq!(e.variants.iter().map(|v| v.name).collect::<Vec<_>>(), ["Empty", "Circle", "Rect"]);
    assert_eq!(e.variants[2].fields[1].name, "round");
}

#[test]
fn get_and_set_by_name_and_nested_path() -> Result<(), Error> {
    let mut obj = Obj::default();
    let r: &mut dyn Reflect = &mut obj;
    r.set("transform.position.x", 3.5f32)?;
    r.set_text("transform.angle", "1e-2")?;
    r.set_text("items", "1 , 2 , 3 , 4")?;
    r.set_text("items[3]", "40")?;
    r.set_text("stats", r#""hp": 10 , "mp": 2.5"#)?;
    r.set_text("stats[\"mp\"]", "3")?;
    r.set_text("tag", r#"Some("boss")"#)?;
    r.set_text("shape", "Rect((1 , 2) , true)")?;
    r.set_text("shape.size.y", "7")?;
    assert_eq!(*r.get::<f32>("transform.position.x")?, 3.5);
    assert_eq!(r.field("items").and_then(|v| v.downcast_ref::<Vec<i32>>()), Some(&vec![1, 2, 3, 40]));
    assert_eq!(obj.transform.angle, 0.01);
    assert_eq!(obj.stats["mp"], 3.0);
    assert_eq!(obj.tag.as_deref(), Some("boss"));
    assert_eq!(obj.shape, Shape2::Rect { size: Vec2::new(1.0, 7.0), rounded: true });
    Ok(())
}

#[test]
fn errors_name_the_path_and_the_expected_type() {
    let mut obj = Obj::default();
    let r: &mut dyn Reflect = &mut obj;
    let e = r.set_text("transform.angle", "fast").unwrap_err();
    assert!(matches!(&e, Error::Parse { path, expected: "f32", .. } if path == "transform.angle"), "{e}");
    assert!(e.to_string().contains("transform.angle") && e.to_string().contains("f32"));
    let e = r.set_text("items", "1 , x").unwrap_err();
    assert!(matches!(&e, Error::Parse { path, expected: "i32", .. } if path == "items[1]"), "{e}");
    let e = r.set_text("transform.position.q", "1").unwrap_err();
    assert!(matches!(&e, Error::NoField { field, .. } if field == "q"), "{e}");
    let e = r.set_text("items[9]", "1").unwrap_err();
    assert!(matches!(e, Error::NoIndex { index: 9, len: 4, .. }) || matches!(e, Error::NoIndex { .. }), "{e}");
    let e = r.get::<i32>("transform.angle").unwrap_err();
    assert!(matches!(e, Error::WrongType { expected: "i32", found: "f32", .. }), "{e}");
    let e = r.set_text("color", "1 , 2").unwrap_err();
    assert!(matches!(e, Error::FixedLength { len: 4, found: 2, .. }), "{e}");
    let e = r.set_text("shape", "Hexagon").unwrap_err();
    assert!(matches!(&e, Error::NoVariant { variant, .. } if variant == "Hexagon"), "{e}");
    assert!(matches!(r.path("a..b"), Err(Error::BadPath { .. })));
    assert!(matches!(r.path("items[x]"), Err(Error::BadPath { .. })));
}

#[test]
fn text_form_matches_the_post() -> Result<(), Error> {
    let mut obj = Obj::default();
    let r: &mut dyn Reflect = &mut obj;
    r.set_text("color", "1 , 0 , 0.5 , 1")?;
    assert_eq!(r.text("color")?, "1 , 0 , 0.5 , 1");
    r.set_text("transform.position.x", "1e+20")?;
    assert_eq!(r.text("transform.position")?, "1e20 , 0");
    r.set_text("transform.position", "111.11 , -1e-20")?;
    assert_eq!(r.text("transform.position")?, "111.11 , -1e-20");
    r.set_text("transform", "x: 1, y: 2").expect_err("named fields must be the struct's own");
    r.set_text("transform", "position: (1 , 2) , angle: 0.5")?;
    assert_eq!(r.text("transform")?, "(1 , 2) , 0.5");
    Ok(())
}

#[test]
fn enums_switch_variants_and_expose_active_fields() -> Result<(), Error> {
    let mut s = Shape2::Circle(2.0);
    let r: &mut dyn Reflect = &mut s;
    assert_eq!(*r.get::<f32>("0")?, 2.0);
    let ReflectRef::Enum(e) = r.reflect_ref() else { panic!("an enum") };
    assert_eq!(e.variant_name(), "Circle");
    r.set_text("", "Rect")?;
    assert_eq!(s, Shape2::Rect { size: Vec2::ZERO, rounded: false });
    let r: &mut dyn Reflect = &mut s;
    assert!(r.field("round").is_some() && r.field("0").is_none());
    assert_eq!(r.to_text(), "Rect((0 , 0) , false)");
    Ok(())
}

#[test]
fn generics_tuple_and_unit_structs() -> Result<(), Error> {
    let mut p = Pair { a: Meters(1.0), b: Meters(2.5) };
    let r: &mut dyn Reflect = &mut p;
    assert_eq!(r.to_text(), "(1) , (2.5)");
    r.set_text("", "3 , 4")?;
    assert_eq!(p, Pair { a: Meters(3.0), b: Meters(4.0) });
    assert_eq!(<Pair<Meters> as Typed>::INFO.name, "Pair");
    assert!((<Pair<Meters> as Typed>::INFO.type_path)().contains("Meters"));
    let mut e: Either<i32, String> = Either::Right("x".into());
    let r: &mut dyn Reflect = &mut e;
    assert_eq!(r.to_text(), "Right(\"x\")");
    r.set_text("", "Left(5)")?;
    assert_eq!(e, Either::Left(5));
    let mut m = Marker;
    let r: &mut dyn Reflect = &mut m;
    assert_eq!(r.to_text(), "");
    r.set_text("", "")?;
    Ok(())
}

#[test]
fn handles_resolve_once_and_follow_the_same_fields() -> Result<(), Error> {
    let mut objs: Vec<Obj> = (0..4).map(|_| Obj::default()).collect();
    for o in &mut objs {
        o.items = vec![0; 3];
    }
    let x = TypedPath::<f32>::resolve(&objs[0], "transform.position.x")?;
    let item = TypedPath::<i32>::resolve(&objs[0], "items[2]")?;
    for (i, o) in objs.iter_mut().enumerate() {
        *x.get_mut(o)? = i as f32;
        *item.get_mut(o)? = i as i32 * 10;
    }
    assert_eq!(objs[3].transform.position.x, 3.0);
    assert_eq!(objs[2].items[2], 20);
    objs[1].items.clear();
    assert!(item.get(&objs[1]).is_err(), "a shorter list is an error, not a panic");
    assert!(matches!(x.get(&Marker), Err(Error::WrongType { .. })));
    assert!(matches!(TypedPath::<i32>::resolve(&objs[0], "transform.angle"), Err(Error::WrongType { .. })));
    let mut s = Shape2::Circle(1.0);
    let r = TypedPath::<f32>::resolve(&s, "0")?;
    *r.get_mut(&mut s)? = 4.0;
    assert_eq!(s, Shape2::Circle(4.0));
    s = Shape2::Empty;
    assert!(r.get(&s).is_err(), "another variant is an error");
    Ok(())
}

#[test]
fn field_lookup_finds_every_field_of_a_wide_struct() {
    #[derive(Reflect, Default)]
    struct Wide {
        a0: u8,
        a1: u8,
        a2: u8,
        a3: u8,
        a4: u8,
        a5: u8,
        a6: u8,
        a7: u8,
        a8: u8,
        a9: u8,
        b0: u8,
        b1: u8,
        b2: u8,
        b3: u8,
        b4: u8,
        b5: u8,
        b6: u8,
        b7: u8,
        b8: u8,
        b9: u8,
    }
    let w = Wide::default();
    let r: &dyn Reflect = &w;
    let info = <Wide as Typed>::INFO.struct_info().unwrap();
    for (i, f) in info.fields.iter().enumerate() {
        assert_eq!(info.index_of(f.name), Some(i));
        assert!(r.field(f.name).is_some());
    }
    assert!(r.field("c0").is_none());
}

#[test]
fn apply_copies_structurally_between_same_and_similar_types() -> Result<(), Error> {
    let mut src = Obj::default();
    {
        let r: &mut dyn Reflect = &mut src;
        r.set_text("items", "1 , 2 , 3")?;
        r.set_text("shape", "Circle(2.5)")?;
        r.set_text("stats", r#""hp": 3"#)?;
        r.set_text("tag", r#"Some("x")"#)?;
        r.set_text("transform", "(1 , 2) , 0.5")?;
    }
    let mut dst = Obj { items: vec![9; 7], ..Obj::default() };
    (&mut dst as &mut dyn Reflect).apply(&src)?;
    assert_eq!((&dst as &dyn Reflect).to_text(), (&src as &dyn Reflect).to_text());
    assert_eq!(dst.items, [1, 2, 3]);

    // Another type with the same field names (and f64 instead of f32) takes the values too.
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Transform64 {
        angle: f64,
        position: Vec2,
    }
    let mut t = Transform64::default();
    (&mut t as &mut dyn Reflect).apply(&src.transform)?;
    assert_eq!(t, Transform64 { angle: 0.5, position: Vec2::new(1.0, 2.0) });
    // A missing field or another shape is an error naming the path.
    let e = (&mut Meters(0.0) as &mut dyn Reflect).apply(&src.transform).unwrap_err();
    assert!(matches!(e, Error::NoField { .. }), "{e}");
    let e = (&mut dst as &mut dyn Reflect).apply(&5i32).unwrap_err();
    assert!(matches!(e, Error::WrongType { .. }), "{e}");
    Ok(())
}

#[test]
fn names_whose_hashes_collide_are_told_apart() {
    // "costarring" and "liquid" have the same FNV-1a 32-bit hash, as do "altarage" and "zinke".
    #[derive(Reflect, Default)]
    struct Clash {
        costarring: u8,
        liquid: u16,
        altarage: u32,
        zinke: u64,
    }
    assert_eq!(lore_reflect::fnv1a(b"costarring"), lore_reflect::fnv1a(b"liquid"));
    let mut c = Clash::default();
    let r: &mut dyn Reflect = &mut c;
    r.set_text("costarring", "1").unwrap();
    r.set_text("liquid", "2").unwrap();
    r.set_text("altarage", "3").unwrap();
    r.set_text("zinke", "4").unwrap();
    assert_eq!((c.costarring, c.liquid, c.altarage, c.zinke), (1, 2, 3, 4));
    let r: &dyn Reflect = &c;
    assert!(r.field("liquid").unwrap().is::<u16>());
    assert!(r.field("zinke").unwrap().is::<u64>());
    assert!(r.field("costarrin").is_none());
    // The enum path (NameTable) sees the same collisions.
    let info = <Clash as Typed>::INFO.struct_info().unwrap();
    assert_eq!(info.index_of("zinke"), Some(3));
    assert_eq!(info.index_of("altarage"), Some(2));
}

#[test]
fn by_name_lookup_finds_each_field_and_nothing_else() {
    // Same lengths, shared prefixes and suffixes, a rename with non-ASCII bytes.
    #[derive(Reflect, Default)]
    struct Names {
        spawn_rate: u8,
        spawn_time: u8,
        spawn_tide: u8,
        spawn_rats: u8,
        x: u8,
        y: u8,
        xy: u8,
        yx: u8,
        #[reflect(rename = "größe")]
        size: u8,
    }
    let mut v = Names::default();
    let r: &mut dyn Reflect = &mut v;
    let info = <Names as Typed>::INFO.struct_info().unwrap();
    for (i, f) in info.fields.iter().enumerate() {
        r.set_text(f.name, &i.to_string()).unwrap();
    }
    // Each name reached its own field.
    assert_eq!(
        [v.spawn_rate, v.spawn_time, v.spawn_tide, v.spawn_rats, v.x, v.y, v.xy, v.yx, v.size],
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
    );
    let r: &dyn Reflect = &v;
    for f in info.fields {
        let found = r.field(f.name).and_then(|x| x.downcast_ref::<u8>()).copied();
        let by_index = info.index_of(f.name).and_then(|i| (&v as &dyn lore_reflect::Struct).field_at(i));
        assert_eq!(found, by_index.and_then(|x| x.downcast_ref::<u8>()).copied(), "{}", f.name);
        // Every one-byte change, a shorter and a longer name: no field.
        let bytes = f.name.as_bytes();
        for at in 0..bytes.len() {
            let mut near = bytes.to_vec();
            near[at] ^= 0x01;
            if let Ok(near) = std::str::from_utf8(&near)
                && info.fields.iter().all(|g| g.name != near)
            {
                assert!(r.field(near).is_none(), "{near}");
            }
        }
        if let Some(short) = f.name.get(..f.name.len() - 1) {
            assert!(info.fields.iter().any(|g| g.name == short) || r.field(short).is_none(), "{short}");
        }
        assert!(r.field(&format!("{}_", f.name)).is_none());
    }
    assert!(r.field("").is_none());
    // Tuple structs answer to their field numbers by name too.
    let t = Meters(2.5);
    assert_eq!((&t as &dyn Reflect).field("0").and_then(|x| x.downcast_ref::<f32>()), Some(&2.5));
    assert!((&t as &dyn Reflect).field("1").is_none());
}

#[test]
fn by_name_lookup_tests_the_first_field_first_and_nothing_else_matches() {
    // The first declared field shares its length with the other fields and its bytes with
    // absent names; a name longer by a zero byte reads as the same integer key.
    #[derive(Reflect, Default)]
    struct Head {
        ab: u8,
        ac: u8,
        ba: u8,
        abc: u8,
        a: u8,
    }
    let mut h = Head::default();
    let r: &mut dyn Reflect = &mut h;
    for (i, name) in ["ab", "ac", "ba", "abc", "a"].into_iter().enumerate() {
        *r.field_mut(name).and_then(|f| f.downcast_mut::<u8>()).unwrap() = i as u8 + 1;
    }
    assert_eq!([h.ab, h.ac, h.ba, h.abc, h.a], [1, 2, 3, 4, 5]);
    let r: &dyn Reflect = &h;
    for (name, want) in [("ab", 1), ("ac", 2), ("ba", 3), ("abc", 4), ("a", 5)] {
        assert_eq!(r.field(name).and_then(|f| f.downcast_ref::<u8>()), Some(&want), "{name}");
    }
    for absent in ["aa", "ad", "bb", "Ab", "ab\0", "a\0", "\0ab", "abd", "b", "", "abcd", "ab ab"] {
        assert!((&h as &dyn Reflect).field(absent).is_none(), "{absent:?}");
        assert!((&mut h as &mut dyn Reflect).field_mut(absent).is_none(), "{absent:?}");
    }

    // One field: the first test is the whole lookup.
    #[derive(Reflect, Default)]
    struct One {
        only: u8,
    }
    let mut one = One { only: 7 };
    assert_eq!((&one as &dyn Reflect).field("only").and_then(|f| f.downcast_ref::<u8>()), Some(&7));
    for absent in ["onlx", "onl", "only_", "only\0", "", "x"] {
        assert!((&one as &dyn Reflect).field(absent).is_none(), "{absent:?}");
    }
    (&mut one as &mut dyn Reflect).set_text("only", "9").unwrap();
    assert_eq!(one.only, 9);

    // No field: nothing matches.
    #[derive(Reflect, Default)]
    struct Nothing {}
    let mut nothing = Nothing {};
    for name in ["", "x", "only"] {
        assert!((&nothing as &dyn Reflect).field(name).is_none());
        assert!((&mut nothing as &mut dyn Reflect).field_mut(name).is_none());
        assert!((&Marker as &dyn Reflect).field(name).is_none());
    }

    // The first reflected field is the first one tested: a skipped field before it is not
    // found, a renamed one answers to its new name only, and long names (more than 8 bytes)
    // and the empty name take the same path.
    #[derive(Reflect, Default)]
    struct Renamed {
        #[reflect(skip)]
        hidden: u8,
        #[reflect(rename = "größe")]
        size: u8,
        #[reflect(rename = "")]
        blank: u8,
        a_long_name_1: u8,
        a_long_name_2: u8,
    }
    let mut v = Renamed::default();
    let r: &mut dyn Reflect = &mut v;
    // (Through `field_mut`: the empty path of `set_text` is the whole value.)
    for (i, name) in ["größe", "", "a_long_name_1", "a_long_name_2"].into_iter().enumerate() {
        *r.field_mut(name).and_then(|f| f.downcast_mut::<u8>()).unwrap() = i as u8 + 1;
    }
    assert_eq!([v.hidden, v.size, v.blank, v.a_long_name_1, v.a_long_name_2], [0, 1, 2, 3, 4]);
    for absent in ["hidden", "size", "a_long_name_3", "a_long_name_", "größ"] {
        assert!((&v as &dyn Reflect).field(absent).is_none(), "{absent:?}");
    }
    #[derive(Reflect, Default)]
    struct LongFirst {
        a_long_name_1: u8,
        #[reflect(rename = "")]
        blank: u8,
        a_long_name_2: u8,
    }
    let mut v = LongFirst::default();
    let r: &mut dyn Reflect = &mut v;
    for (i, name) in ["a_long_name_1", "", "a_long_name_2"].into_iter().enumerate() {
        *r.field_mut(name).and_then(|f| f.downcast_mut::<u8>()).unwrap() = i as u8 + 1;
    }
    assert_eq!([v.a_long_name_1, v.blank, v.a_long_name_2], [1, 2, 3]);
    assert!((&v as &dyn Reflect).field("a_long_name_3").is_none());
    assert!((&v as &dyn Reflect).field("a_long_name_1\0").is_none());
}
