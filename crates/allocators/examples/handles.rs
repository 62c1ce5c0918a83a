//! Typed keys, a secondary map, retain, drain, iteration with keys, indexing and disjoint
//! mutable access: a small battle between enemies, with health kept beside them.
//!
//! `cargo run -p lore-allocators --example handles`

use lore_allocators::{Error, HandleArray, SecondaryMap, new_key_type};

new_key_type! {
    /// Names an enemy (cannot be used on another array's keys by mistake).
    struct EnemyKey;
}

fn main() -> Result<(), Error> {
    let mut names: HandleArray<&str, EnemyKey> = HandleArray::with_key();
    let mut health: SecondaryMap<i32, EnemyKey> = SecondaryMap::new();
    for (name, hp) in [("orc", 30), ("bat", 5), ("imp", 12), ("troll", 60)] {
        let key = names.insert(name);
        health.insert(key, hp)?;
    }

    // Every enemy takes 8 damage (iter_mut yields each key with its value).
    for (_, hp) in health.iter_mut() {
        *hp -= 8;
    }

    // The orc and the troll trade blows: two values borrowed mutably at once.
    let orc = names.iter().find(|(_, n)| **n == "orc").map(|(k, _)| k).expect("the orc");
    let troll = names.iter().find(|(_, n)| **n == "troll").map(|(k, _)| k).expect("the troll");
    let [a, b] = health.get_disjoint_mut([orc, troll])?;
    *a -= 10;
    *b -= 5;
    assert_eq!(health.get_disjoint_mut([orc, orc]).err(), Some(Error::AliasedHandles { first: 0, second: 1 }));

    // The dead leave: retain in the primary array, then the secondary map follows.
    names.retain(|key, _| health[key] > 0);
    health.retain_live(&names);
    println!("alive: {:?}", names.iter().map(|(k, n)| (*n, health[k])).collect::<Vec<_>>());
    assert_eq!(names.len(), 3);

    // End of the level: everything goes, and every key is stale afterwards.
    let left: Vec<(EnemyKey, &str)> = names.drain().collect();
    println!("cleared {} enemies", left.len());
    assert!(left.iter().all(|&(k, _)| !names.contains(k)));
    health.retain_live(&names);
    assert!(health.is_empty());
    Ok(())
}
