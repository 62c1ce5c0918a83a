//! `reflect_remote!`: reflecting structs of other crates through a newtype.

use lore_reflect::{Reflect, Registry, Typed, TypedReflectSerializer, deserialize_into, reflect_remote};

/// Stands for another crate: its types know nothing of lore-reflect.
mod foreign {
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Stats {
        pub hp: i32,
        pub name: String,
        pub resist: Vec<f32>,
        secret: u8,
    }

    impl Stats {
        pub fn new(hp: i32, name: &str) -> Self {
            Stats { hp, name: name.into(), resist: vec![0.5], secret: 9 }
        }
        pub fn secret(&self) -> u8 {
            self.secret
        }
    }

    /// No `Default`.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Id {
        pub raw: u64,
    }
}

reflect_remote! {
    /// A foreign struct's public fields.
    pub struct StatsDef(foreign::Stats) { hp: i32, name: String, resist: Vec<f32> }
}

#[allow(clippy::derivable_impls)] // the newtype is declared by the macro, which takes no derives
impl Default for StatsDef {
    fn default() -> Self {
        Self(foreign::Stats::default())
    }
}

reflect_remote! {
    pub struct IdDef(foreign::Id) { raw: u64 }
}

#[derive(Reflect, Default)]
struct Monster {
    stats: StatsDef,
    ids: Vec<IdDef>,
}

#[test]
fn remote_fields_are_reflected_through_the_newtype() {
    let mut m = Monster { stats: foreign::Stats::new(10, "orc").into(), ids: vec![] };
    let r: &mut dyn Reflect = &mut m;
    r.set_text("stats.hp", "25").unwrap();
    r.set_text("stats.resist", "0.25 , 1").unwrap();
    assert_eq!(m.stats.hp, 25);
    assert_eq!(m.stats.resist, [0.25, 1.0]);
    assert_eq!(m.stats.secret(), 9, "unlisted fields are kept as they are");
    let r: &dyn Reflect = &m;
    assert_eq!(r.text("stats").unwrap(), r#"25 , "orc" , [0.25 , 1]"#);
    assert_eq!(<StatsDef as Typed>::INFO.name, "StatsDef");
    assert_eq!(<StatsDef as Typed>::INFO.docs, "A foreign struct's public fields.");
    assert!(r.path("stats.secret").is_err());
    let stats: foreign::Stats = std::mem::take(&mut m.stats).into();
    assert_eq!(stats.name, "orc");
}

#[test]
fn remote_types_without_default_cannot_be_created_and_serde_round_trips() {
    assert!(<IdDef as Typed>::create().is_none());
    let mut m = Monster { stats: StatsDef::default(), ids: vec![foreign::Id { raw: 1 }.into()] };
    let err = (&mut m as &mut dyn Reflect).set_text("ids", "(1) , (2)").unwrap_err();
    assert!(matches!(err, lore_reflect::Error::NoDefault { type_name: "IdDef", .. }), "{err}");
    (&mut m as &mut dyn Reflect).set_text("ids", "(7)").unwrap();
    assert_eq!(m.ids[0].raw, 7);

    let json = serde_json::to_string(&TypedReflectSerializer::new(&m)).unwrap();
    assert_eq!(json, r#"{"stats":{"hp":0,"name":"","resist":[]},"ids":[{"raw":7}]}"#);
    let mut back = Monster { stats: StatsDef::default(), ids: vec![foreign::Id { raw: 0 }.into()] };
    deserialize_into(&mut back, &mut serde_json::Deserializer::from_str(&json)).unwrap();
    assert_eq!(back.ids[0].raw, 7);

    let mut registry = Registry::new();
    registry.register::<StatsDef>().unwrap();
    let created = registry.create("StatsDef").unwrap();
    assert_eq!(created.downcast_ref::<StatsDef>().map(|s| s.hp), Some(0));
}
