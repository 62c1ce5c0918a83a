//! The secondary map against a model, keyed by a typed key: after every step it holds exactly
//! the model's values, and it never returns a value for a key removed from it, for a key older
//! than one stored since for the same slot, or (after `retain_live`) for a key the primary
//! array no longer holds.

use std::collections::HashMap;

use lore_allocators::{Error, HandleArray, Key, SecondaryMap, new_key_type};
use proptest::prelude::*;

new_key_type! {
    struct Ent;
}

#[derive(Clone, Debug)]
enum Op {
    /// Insert into the primary array.
    Spawn,
    /// Remove a live key from the primary; with `true`, from the secondary map too.
    Despawn(usize, bool),
    /// Store a value under a live key.
    Set(usize, u32),
    /// Store a value under any key ever issued (stale ones included).
    SetAny(usize, u32),
    /// Remove the value of any key ever issued.
    Unset(usize),
    /// Drop the values of keys the primary no longer holds.
    RetainLive,
    /// Keep the even values.
    RetainEven,
    /// Take every value out.
    Drain,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Spawn),
        3 => (any::<usize>(), any::<bool>()).prop_map(|(i, b)| Op::Despawn(i, b)),
        4 => (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Op::Set(i, v)),
        2 => (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Op::SetAny(i, v)),
        2 => any::<usize>().prop_map(Op::Unset),
        1 => Just(Op::RetainLive),
        1 => Just(Op::RetainEven),
        1 => Just(Op::Drain),
    ]
}

fn newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut primary: HandleArray<(), Ent> = HandleArray::with_key();
    let mut map: SecondaryMap<u32, Ent> = SecondaryMap::new();
    let mut issued: Vec<Ent> = Vec::new();
    let mut live: Vec<Ent> = Vec::new();
    let mut model: HashMap<Ent, u32> = HashMap::new();
    // The newest generation stored in the map per slot index.
    let mut newest: HashMap<u32, u32> = HashMap::new();
    for op in ops {
        let mut synced = false;
        match *op {
            Op::Spawn => {
                let k = primary.insert(());
                issued.push(k);
                live.push(k);
            }
            Op::Despawn(i, also) if !live.is_empty() => {
                let k = live.swap_remove(i % live.len());
                primary.remove(k).unwrap();
                if also {
                    prop_assert_eq!(map.remove(k).ok(), model.remove(&k));
                }
            }
            Op::Set(i, v) if !live.is_empty() => set(&mut map, &mut model, &mut newest, live[i % live.len()], v)?,
            Op::SetAny(i, v) if !issued.is_empty() => {
                set(&mut map, &mut model, &mut newest, issued[i % issued.len()], v)?
            }
            Op::Unset(i) if !issued.is_empty() => {
                let k = issued[i % issued.len()];
                let expect = model.remove(&k).ok_or(Error::StaleHandle);
                prop_assert_eq!(map.remove(k), expect);
            }
            Op::RetainLive => {
                map.retain_live(&primary);
                model.retain(|k, _| live.contains(k));
                synced = true;
            }
            Op::RetainEven => {
                map.retain(|_, v| *v % 2 == 0);
                model.retain(|_, v| *v % 2 == 0);
            }
            Op::Drain => {
                let mut got: Vec<(Ent, u32)> = map.drain().collect();
                got.sort_unstable();
                let mut expect: Vec<(Ent, u32)> = model.drain().collect();
                expect.sort_unstable();
                prop_assert_eq!(got, expect);
            }
            _ => {}
        }
        prop_assert_eq!(map.len(), model.len());
        for &k in &issued {
            let got = map.get(k);
            prop_assert_eq!(got, model.get(&k));
            let h = k.handle();
            if newest.get(&h.index()).is_some_and(|&g| newer(g, h.generation())) {
                prop_assert_eq!(got, None, "a key older than one stored since finds nothing");
            }
            if synced && !live.contains(&k) {
                prop_assert_eq!(got, None, "after retain_live a key the primary lost finds nothing");
            }
        }
        let mut all: Vec<(Ent, u32)> = map.iter().map(|(k, v)| (k, *v)).collect();
        all.sort_unstable();
        let mut expect: Vec<(Ent, u32)> = model.iter().map(|(k, v)| (*k, *v)).collect();
        expect.sort_unstable();
        prop_assert_eq!(all, expect);
    }
    Ok(())
}

fn set(
    map: &mut SecondaryMap<u32, Ent>,
    model: &mut HashMap<Ent, u32>,
    newest: &mut HashMap<u32, u32>,
    k: Ent,
    v: u32,
) -> Result<(), TestCaseError> {
    let h = k.handle();
    let (index, generation) = (h.index(), h.generation());
    let got = map.insert(k, v);
    if newest.get(&index).is_some_and(|&g| newer(g, generation)) {
        prop_assert_eq!(got, Err(Error::StaleHandle));
        return Ok(());
    }
    // A value under an older key of the slot is dropped.
    model.retain(|other, _| other.handle().index() != index || *other == k);
    newest.insert(index, generation);
    prop_assert_eq!(got, Ok(model.insert(k, v)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn secondary_map_matches_the_model(ops in prop::collection::vec(op(), 1..200)) {
        run(&ops)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "long run: cargo test --release -p lore-allocators -- --ignored"]
    fn long_secondary_map(ops in prop::collection::vec(op(), 1..600)) {
        run(&ops)?;
    }
}
