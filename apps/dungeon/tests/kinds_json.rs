//! The game's kinds load from JSON as well as from XML: lore-reflect's serde bridge reads each
//! thing into a new value of its registered kind, with the same types and the same checks.

use lore_dungeon::kinds::{BulletKind, EnemyKind, Kinds, PickupKind, PlayerKind};
use lore_reflect::Reflect;

/// The shipped kinds (assets/kinds.xml), written out by hand as JSON.
const KINDS_JSON: &[(&str, &str, &str)] = &[
    ("player", "PlayerKind", r#"{ "speed": 4, "radius": 0.3, "fire_interval": 8 }"#),
    ("wanderer", "EnemyKind", r#"{ "count": 120, "speed": 1.2, "chase_speed": 0, "sight": 0, "radius": 0.22 }"#),
    ("chaser", "EnemyKind", r#"{ "count": 60, "speed": 1, "chase_speed": 2.2, "sight": 6, "radius": 0.25 }"#),
    ("bullet", "BulletKind", r#"{ "speed": 14, "radius": 0.08, "lifetime": 90 }"#),
    ("key", "PickupKind", r#"{ "radius": 0.3 }"#),
];

fn thing(kind: &str, json: &str) -> Result<Box<dyn Reflect>, serde_json::Error> {
    Kinds::registry().deserialize_kind(kind, &mut serde_json::Deserializer::from_str(json))
}

fn value<T: Reflect + Clone>(name: &str) -> T {
    let (_, kind, json) = KINDS_JSON.iter().find(|t| t.0 == name).unwrap();
    let value = thing(kind, json).unwrap_or_else(|e| panic!("{name}: {e}"));
    value.downcast_ref::<T>().unwrap_or_else(|| panic!("{name} is not a {kind}")).clone()
}

#[test]
fn the_kinds_from_json_are_the_shipped_ones() {
    let kinds = Kinds {
        player: value::<PlayerKind>("player"),
        wanderer: value::<EnemyKind>("wanderer"),
        chaser: value::<EnemyKind>("chaser"),
        bullet: value::<BulletKind>("bullet"),
        key: value::<PickupKind>("key"),
    };
    kinds.validate().unwrap();
    assert_eq!(kinds, Kinds::shipped());
}

#[test]
fn bad_json_kinds_are_errors_naming_what_is_wrong() {
    for (kind, json, says) in [
        ("PlayerKind", r#"{ "speed": "fast" }"#, "speed"),
        ("PlayerKind", r#"{ "speed": 4, "radius": 0.3, "fire_interval": -1 }"#, "fire_interval"),
        ("PlayerKind", r#"{ "sped": 4 }"#, "sped"),
        ("DragonKind", r#"{ "speed": 4 }"#, "DragonKind"),
        ("PlayerKind", r#"{ "speed": 4, "radius""#, ""),
    ] {
        let e = thing(kind, json).err().unwrap_or_else(|| panic!("{kind} {json} was accepted"));
        assert!(e.to_string().contains(says), "{kind} {json}: {e}");
    }
}
