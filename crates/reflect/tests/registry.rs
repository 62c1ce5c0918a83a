//! Kinds register themselves (link time) or by hand; unknown kinds are errors.

use lore_reflect::{Error, Kind, Reflect, Registry, Typed, register_kind};

/// Registered by the derive attribute, from this file only.
#[derive(Reflect, Default, Debug, PartialEq)]
#[reflect(register)]
struct Lamp {
    power: f32,
}

/// Registered with the macro, under its rename.
#[derive(Reflect, Default, Debug, PartialEq)]
#[reflect(rename = "Door")]
struct DoorThing {
    open: bool,
}
register_kind!(DoorThing);

/// Not registered at link time.
#[derive(Reflect, Default, Debug, PartialEq)]
struct Crate {
    weight: u32,
}

#[test]
fn linked_kinds_are_collected_without_a_central_list() -> Result<(), Error> {
    let registry = Registry::linked()?;
    let names: Vec<_> = registry.kinds().iter().map(|k| k.name()).collect();
    assert_eq!(names, ["Door", "Lamp"]);
    let lamp = registry.create("Lamp")?;
    assert_eq!(lamp.downcast_ref::<Lamp>(), Some(&Lamp::default()));
    let door = registry.create("Door")?;
    assert!(door.is::<DoorThing>());
    Ok(())
}

#[test]
fn explicit_registration_is_the_fallback() -> Result<(), Error> {
    let mut registry = Registry::new();
    registry.register::<Crate>()?;
    registry.register_kind(Kind::of::<Lamp>())?;
    assert_eq!(registry.len(), 2);
    assert!(registry.create("Crate")?.is::<Crate>());
    assert_eq!(registry.register::<Crate>(), Err(Error::DuplicateKind("Crate")));
    Ok(())
}

#[test]
fn unknown_kinds_are_errors() {
    let registry = Registry::linked().unwrap();
    assert_eq!(registry.create("Dragon").unwrap_err(), Error::UnknownKind("Dragon".into()));
    assert!(Registry::new().create("Lamp").is_err());
    assert!(Registry::new().kind("").is_none());
}

#[test]
fn a_thousand_kinds_are_all_found() {
    // Kinds need distinct names; a thousand static TypeInfos made with leaked names stand in for
    // a thousand types (what the registry sees is the name and the constructor).
    let mut registry = Registry::new();
    for i in 0..1000 {
        let name: &'static str = Box::leak(format!("Kind{i}").into_boxed_str());
        let info: &'static lore_reflect::TypeInfo = Box::leak(Box::new(lore_reflect::TypeInfo {
            name,
            type_path: <Crate as Typed>::INFO.type_path,
            docs: "",
            shape: lore_reflect::Shape::Value(lore_reflect::ValueKind::Bool),
        }));
        registry.register_kind(Kind::from_parts(info, || Box::new(Crate::default()))).unwrap();
    }
    for i in 0..1000 {
        assert_eq!(registry.kind(&format!("Kind{i}")).map(Kind::name), Some(format!("Kind{i}").as_str()));
    }
    assert!(registry.kind("Kind1000").is_none());
}

#[test]
fn documents_go_through_serde_json_too() -> Result<(), Box<dyn std::error::Error>> {
    use lore_reflect::{Document, DocumentData, Thing};
    let registry = Registry::linked()?;
    let mut doc = Document::new();
    let mut lamp = Thing::create(&registry, "Lamp", "desk lamp")?;
    lamp.set_text("power", "1e+20")?;
    doc.things.push(lamp);
    let json = serde_json::to_string(&doc.to_data())?;
    assert!(json.contains(r#"{"name":"power","value":"1e20"}"#), "{json}");
    let (back, report) = Document::from_data(serde_json::from_str::<DocumentData>(&json)?, &registry);
    assert!(report.is_clean());
    assert_eq!(back.things[0].value.downcast_ref::<Lamp>(), Some(&Lamp { power: 1e20 }));
    // Unknown kinds are kept, reported, and written back.
    let odd = r#"{"things":[{"kind":"Dragon","name":"smaug","parameters":[{"name":"fire","value":"9"}]}]}"#;
    let (doc, report) = Document::from_data(serde_json::from_str(odd)?, &registry);
    assert_eq!(report.problems.len(), 1);
    assert_eq!(serde_json::to_string(&doc.to_data())?, odd);
    Ok(())
}
