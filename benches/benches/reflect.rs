//! lore-reflect against bevy_reflect (by-name access, set from text, apply, create by kind
//! name) and against serde + quick-xml (XML documents of 10k things), side by side.
//!
//! Run: `cargo bench -p lore-benches --bench reflect`. Results: docs/benchmarks.md, "reflect".

use bevy_reflect::PartialReflect;
use bevy_reflect::std_traits::ReflectDefault;
use bevy_reflect::structs::Struct as _;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use lore_reflect::{Document, Kind, Reflect, Registry, Thing, TypedPath};
use std::hint::black_box;

// The 128- and 8-field twins and Thing1 live in the library, shared with the instruction-count
// driver (src/bin/reflect_lookup.rs).
use lore_benches::reflect_types::{BevyNarrow, BevyThing1, BevyWide, LoreNarrow, LoreWide, Thing1};

/// Thing2 of the world editor post.
#[derive(lore_reflect::Reflect, Default, Clone, Debug, PartialEq)]
struct Thing2 {
    x: f32,
    y: f32,
    j: i32,
}

/// One by-name case: the field count, lore's value, bevy_reflect's twin, the names looked up.
type Case<'a> = (&'a str, &'a dyn Reflect, &'a dyn bevy_reflect::structs::Struct, [&'a str; 3]);

fn by_name(c: &mut Criterion) {
    // Both through trait objects, as a level editor holds its values.
    let (lore_wide, bevy_wide) = (LoreWide::default(), BevyWide::default());
    let (lore_narrow, bevy_narrow) = (LoreNarrow::default(), BevyNarrow::default());
    let cases: [Case<'_>; 2] =
        [("128", &lore_wide, &bevy_wide, ["f0", "f64", "f127"]), ("8", &lore_narrow, &bevy_narrow, ["f0", "f4", "f7"])];
    let mut g = c.benchmark_group("reflect/get_by_name");
    for (fields, lore, bevy, names) in cases {
        for name in names {
            // Each peer right after the other, so both see the same machine load.
            g.bench_function(format!("lore/{fields}/{name}"), |b| {
                b.iter(|| black_box(lore).field(black_box(name)).is_some())
            });
            g.bench_function(format!("bevy_reflect/{fields}/{name}"), |b| {
                b.iter(|| black_box(bevy).field(black_box(name)).is_some())
            });
        }
    }
    g.finish();
}

fn set_from_text(c: &mut Criterion) {
    let mut g = c.benchmark_group("reflect/set_x_from_text_111.11");
    let mut lore = Thing1::default();
    g.bench_function("lore/set_text", |b| {
        b.iter(|| black_box(&mut lore as &mut dyn Reflect).set_text(black_box("x"), black_box("111.11")).is_ok())
    });
    let handle = TypedPath::<f32>::resolve(&Thing1::default(), "x").expect("x");
    g.bench_function("lore/handle+parse", |b| {
        b.iter(|| {
            let x = handle.get_mut(black_box(&mut lore as &mut dyn Reflect)).expect("x");
            *x = black_box("111.11").parse().expect("number");
        })
    });
    // bevy_reflect has no text setter: look the field up by name, downcast, parse. Once
    // through a trait object (as lore's `set_text`), once on the concrete type (the compiler
    // may inline its lookup).
    let mut bevy = BevyThing1::default();
    g.bench_function("bevy_reflect/dyn_field_mut+parse", |b| {
        b.iter(|| {
            let value: &mut dyn bevy_reflect::structs::Struct = black_box(&mut bevy);
            let x = value.field_mut(black_box("x")).and_then(|f| f.try_downcast_mut::<f32>()).expect("x");
            *x = black_box("111.11").parse().expect("number");
        })
    });
    g.bench_function("bevy_reflect/field_mut+parse", |b| {
        b.iter(|| {
            let x = bevy.field_mut(black_box("x")).and_then(|f| f.try_downcast_mut::<f32>()).expect("x");
            *x = black_box("111.11").parse().expect("number");
        })
    });
    g.finish();
}

fn apply(c: &mut Criterion) {
    let mut g = c.benchmark_group("reflect/apply_128_fields");
    let mut src = LoreWide::default();
    for i in 0..128 {
        let _ = (&mut src as &mut dyn Reflect).set_text(&format!("f{i}"), &format!("{i}.5"));
    }
    let mut dst = LoreWide::default();
    g.bench_function("lore", |b| b.iter(|| (&mut dst as &mut dyn Reflect).apply(black_box(&src)).is_ok()));
    let mut bsrc = BevyWide::default();
    for i in 0..128 {
        if let Some(f) = bsrc.field_at_mut(i).and_then(|f| f.try_downcast_mut::<f32>()) {
            *f = i as f32 + 0.5;
        }
    }
    let mut bdst = BevyWide::default();
    g.bench_function("bevy_reflect", |b| b.iter(|| bdst.try_apply(black_box(&bsrc as &dyn PartialReflect)).is_ok()));
    g.finish();
}

fn create(c: &mut Criterion) {
    let mut g = c.benchmark_group("reflect/create_by_kind_name");
    let mut registry = Registry::new();
    // 999 other kinds (leaked names stand in for 999 types: the registry sees names and
    // constructors) plus Thing1.
    for i in 0..999 {
        let name: &'static str = Box::leak(format!("Kind{i}").into_boxed_str());
        let info: &'static lore_reflect::TypeInfo = Box::leak(Box::new(lore_reflect::TypeInfo {
            name,
            type_path: <Thing2 as lore_reflect::Typed>::INFO.type_path,
            docs: "",
            shape: lore_reflect::Shape::Value(lore_reflect::ValueKind::Bool),
        }));
        registry.register_kind(Kind::from_parts(info, || Box::new(Thing2::default()))).expect("distinct");
    }
    registry.register::<Thing1>().expect("distinct");
    g.bench_function("lore/1000_kinds", |b| b.iter(|| registry.create(black_box("Thing1")).is_ok()));
    let mut types = bevy_reflect::TypeRegistry::new();
    types.register::<BevyThing1>();
    types.register::<BevyWide>();
    g.bench_function("bevy_reflect/short_path+ReflectDefault", |b| {
        b.iter(|| {
            let reg = types.get_with_short_type_path(black_box("BevyThing1")).expect("registered");
            reg.data::<ReflectDefault>().expect("Default").default()
        })
    });
    g.finish();
}

// ---- XML documents: lore's reflection-driven reader/writer against hand-written serde code.

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename = "things")]
struct SDoc {
    #[serde(rename = "thing", default)]
    things: Vec<SThing>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct SThing {
    #[serde(rename = "@kind")]
    kind: String,
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "parameter", default)]
    params: Vec<SParam>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct SParam {
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "@value")]
    value: String,
}

enum Typed {
    T1(String, Thing1),
    T2(String, Thing2),
}

fn param(name: &str, value: String) -> SParam {
    SParam { name: name.to_string(), value }
}

/// What a serde user writes by hand for each kind: typed values to the post's shape.
fn to_serde(things: &[Typed]) -> SDoc {
    let things = things
        .iter()
        .map(|t| match t {
            Typed::T1(name, v) => SThing {
                kind: "Thing1".into(),
                name: name.clone(),
                params: vec![
                    param("x", v.x.to_string()),
                    param("y", v.y.to_string()),
                    param("i", v.i.to_string()),
                    param("color", format!("{} , {} , {} , {}", v.color[0], v.color[1], v.color[2], v.color[3])),
                ],
            },
            Typed::T2(name, v) => SThing {
                kind: "Thing2".into(),
                name: name.clone(),
                params: vec![param("x", v.x.to_string()), param("y", v.y.to_string()), param("j", v.j.to_string())],
            },
        })
        .collect();
    SDoc { things }
}

/// And back: the post's shape to typed values.
fn from_serde(doc: SDoc) -> Vec<Typed> {
    doc.things
        .into_iter()
        .filter_map(|t| match t.kind.as_str() {
            "Thing1" => {
                let mut v = Thing1::default();
                for p in &t.params {
                    match p.name.as_str() {
                        "x" => v.x = p.value.trim().parse().ok()?,
                        "y" => v.y = p.value.trim().parse().ok()?,
                        "i" => v.i = p.value.trim().parse().ok()?,
                        "color" => {
                            for (c, s) in v.color.iter_mut().zip(p.value.split(',')) {
                                *c = s.trim().parse().ok()?;
                            }
                        }
                        _ => {}
                    }
                }
                Some(Typed::T1(t.name, v))
            }
            "Thing2" => {
                let mut v = Thing2::default();
                for p in &t.params {
                    match p.name.as_str() {
                        "x" => v.x = p.value.trim().parse().ok()?,
                        "y" => v.y = p.value.trim().parse().ok()?,
                        "j" => v.j = p.value.trim().parse().ok()?,
                        _ => {}
                    }
                }
                Some(Typed::T2(t.name, v))
            }
            _ => None,
        })
        .collect()
}

fn xml(c: &mut Criterion) {
    let mut rng = lore_benches::rng(7);
    use rand::RngExt as _;
    let mut typed = Vec::new();
    let mut doc = Document::new();
    for n in 0..10_000 {
        let name = format!("item {n}");
        if n % 2 == 0 {
            let v = Thing1 {
                x: rng.random_range(-1e3..1e3),
                y: rng.random_range(-1e3..1e3),
                i: rng.random_range(-100..100),
                color: [rng.random(), rng.random(), rng.random(), 1.0],
            };
            doc.things.push(Thing::new(name.clone(), Box::new(v.clone())));
            typed.push(Typed::T1(name, v));
        } else {
            let v = Thing2 { x: rng.random_range(-1e3..1e3), y: rng.random(), j: rng.random_range(0..1000) };
            doc.things.push(Thing::new(name.clone(), Box::new(v.clone())));
            typed.push(Typed::T2(name, v));
        }
    }
    let mut registry = Registry::new();
    registry.register::<Thing1>().expect("distinct");
    registry.register::<Thing2>().expect("distinct");
    let lore_xml = doc.to_xml();
    let serde_xml = quick_xml::se::to_string(&to_serde(&typed)).expect("serialize");
    // Both texts hold the same things.
    assert_eq!(from_serde(quick_xml::de::from_str(&lore_xml).expect("serde reads lore's XML")).len(), 10_000);

    let mut g = c.benchmark_group("reflect/xml_10k_things");
    g.sample_size(20);
    g.bench_function("write/lore", |b| b.iter(|| doc.to_xml().len()));
    g.bench_function("write/serde+quick-xml", |b| {
        b.iter(|| quick_xml::se::to_string(&to_serde(black_box(&typed))).expect("serialize").len())
    });
    g.bench_function("read/lore", |b| {
        b.iter(|| Document::from_xml(black_box(&lore_xml), &registry).expect("read").0.things.len())
    });
    g.bench_function("read/serde+quick-xml", |b| {
        b.iter(|| from_serde(quick_xml::de::from_str(black_box(&serde_xml)).expect("read")).len())
    });
    g.finish();
    let _ = BatchSize::SmallInput;
}

criterion_group!(benches, by_name, set_from_text, apply, create, xml);
criterion_main!(benches);
