//! Unit tests of the handle arrays and the secondary map.

use alloc::vec::Vec;

use super::*;
use crate::{DenseHandleArray, HandleArray, SecondaryMap};

#[test]
fn a_full_array_refuses_with_an_error_and_keeps_working() {
    let mut sparse = HandleArray::new();
    let mut dense = DenseHandleArray::new();
    let handles: Vec<Handle> = (0..MAX_SLOTS).map(|i| sparse.try_insert(i).unwrap()).collect();
    for i in 0..MAX_SLOTS {
        dense.try_insert(i).unwrap();
    }
    assert_eq!(sparse.try_insert(7), Err(Error::Full { limit: MAX_SLOTS as usize }));
    assert_eq!(dense.try_insert(7), Err(Error::Full { limit: MAX_SLOTS as usize }));
    assert_eq!(sparse.len(), MAX_SLOTS as usize);
    assert_eq!(sparse.get(handles[5]), Some(&5));
    // A removed value frees a slot for the next insert.
    sparse.remove(handles[5]).unwrap();
    let again = sparse.try_insert(99).unwrap();
    assert_eq!(sparse.get(again), Some(&99));
    assert_eq!(sparse.get(handles[5]), None);
}

#[test]
#[should_panic(expected = "handle array is full")]
fn insert_panics_when_full() {
    let mut sparse = HandleArray::new();
    for i in 0..=MAX_SLOTS {
        sparse.insert(i);
    }
}

#[test]
fn handle_is_eight_bytes_with_a_niche() {
    assert_eq!(core::mem::size_of::<Handle>(), 8);
    assert_eq!(core::mem::size_of::<Option<Handle>>(), 8);
}

#[test]
fn bits_round_trip() {
    let mut a = HandleArray::new();
    let h = a.insert(3);
    a.remove(h).unwrap();
    let h2 = a.insert(4);
    assert_eq!(Handle::from_bits(h2.to_bits()), Some(h2));
    assert_eq!(Handle::from_bits(2 << 32), None);
    assert_eq!(format!("{h2:?}"), "0v3");
}

#[test]
fn values_are_dropped_once_and_cloned_deeply() {
    use alloc::rc::Rc;
    let token = Rc::new(());
    let mut a = HandleArray::new();
    let hs: Vec<_> = (0..6).map(|_| a.insert(Rc::clone(&token))).collect();
    drop(a.remove(hs[1]).unwrap());
    drop(a.remove(hs[4]).unwrap());
    assert_eq!(Rc::strong_count(&token), 5);
    let b = a.clone();
    assert_eq!(Rc::strong_count(&token), 9);
    let h = a.insert(Rc::clone(&token));
    assert_eq!(h.index(), hs[4].index(), "free slots are reused, last freed first");
    assert_eq!(b.get(h), None, "the clone has its own free list");
    drop(a);
    assert_eq!(Rc::strong_count(&token), 5);
    drop(b);
    assert_eq!(Rc::strong_count(&token), 1);
}

#[test]
fn dense_remove_keeps_other_handles_valid() {
    let mut d = DenseHandleArray::new();
    let hs: Vec<_> = (0..10).map(|i| d.insert(i)).collect();
    d.remove(hs[0]).unwrap();
    d.remove(hs[5]).unwrap();
    assert_eq!(d.remove(hs[5]), Err(Error::StaleHandle));
    for (i, h) in hs.iter().enumerate() {
        if i != 0 && i != 5 {
            assert_eq!(d.get(*h), Some(&i));
        }
    }
    let mut vals: Vec<_> = d.values().to_vec();
    vals.sort_unstable();
    assert_eq!(vals, [1, 2, 3, 4, 6, 7, 8, 9]);
    for (h, v) in d.iter() {
        assert_eq!(d.get(h), Some(v));
    }
}

crate::new_key_type! {
    struct EnemyKey;
    struct BulletKey;
}

#[test]
fn typed_keys_work_like_handles() {
    let mut enemies: HandleArray<&str, EnemyKey> = HandleArray::with_key();
    let mut dense: DenseHandleArray<u8, BulletKey> = DenseHandleArray::with_key();
    let orc = enemies.insert("orc");
    let b = dense.insert(7);
    assert_eq!(enemies[orc], "orc");
    assert_eq!(dense[b], 7);
    let h: Handle = orc.into();
    assert_eq!(EnemyKey::from(h), orc);
    assert_eq!(enemies.remove(orc), Ok("orc"));
    assert_eq!(enemies.get(orc), None);
    assert_eq!(core::mem::size_of::<Option<EnemyKey>>(), 8);
}

#[test]
#[should_panic(expected = "stale or foreign handle")]
fn indexing_with_a_stale_key_panics_with_a_message() {
    let mut a = HandleArray::new();
    let k = a.insert(1);
    a.remove(k).unwrap();
    let _ = a[k];
}

#[test]
fn disjoint_access_refuses_duplicates_and_stale_keys() {
    let mut a = HandleArray::new();
    let mut d = DenseHandleArray::new();
    let ks: Vec<Handle> = (0..4).map(|i| a.insert(i)).collect();
    let kd: Vec<Handle> = (0..4).map(|i| d.insert(i)).collect();
    let [x, y, z] = a.get_disjoint_mut([ks[3], ks[0], ks[2]]).unwrap();
    (*x, *y, *z) = (*x + 10, *y + 20, *z + 30);
    assert_eq!(a.values().copied().collect::<Vec<_>>(), [20, 1, 32, 13]);
    assert_eq!(a.get_disjoint_mut([ks[1], ks[2], ks[1]]).err(), Some(Error::AliasedHandles { first: 0, second: 2 }));
    a.remove(ks[2]).unwrap();
    let reused = a.insert(9);
    assert_eq!(a.get_disjoint_mut([ks[0], ks[2]]).err(), Some(Error::StaleHandle));
    assert_eq!(a.get_disjoint_mut([reused, ks[2]]).err(), Some(Error::StaleHandle));
    let [p, q] = d.get_disjoint_mut([kd[1], kd[2]]).unwrap();
    core::mem::swap(p, q);
    assert_eq!((d[kd[1]], d[kd[2]]), (2, 1));
    assert_eq!(d.get_disjoint_mut([kd[0], kd[0]]).err(), Some(Error::AliasedHandles { first: 0, second: 1 }));
    let mut s = SecondaryMap::new();
    s.insert(ks[0], 'a').unwrap();
    s.insert(ks[1], 'b').unwrap();
    let [u, v] = s.get_disjoint_mut([ks[1], ks[0]]).unwrap();
    core::mem::swap(u, v);
    assert_eq!((s[ks[0]], s[ks[1]]), ('b', 'a'));
    assert_eq!(s.get_disjoint_mut([ks[0], ks[3]]).err(), Some(Error::StaleHandle), "no value for ks[3]");
    assert_eq!(s.get_disjoint_mut([ks[0], ks[0]]).err(), Some(Error::AliasedHandles { first: 0, second: 1 }));
}

#[test]
fn retain_drain_and_iter_mut_keep_the_arrays_consistent() {
    use alloc::rc::Rc;
    let token = Rc::new(());
    let mut a = HandleArray::new();
    let mut d = DenseHandleArray::new();
    let ka: Vec<Handle> = (0..10).map(|i| a.insert((i, Rc::clone(&token)))).collect();
    let kd: Vec<Handle> = (0..10).map(|i| d.insert((i, Rc::clone(&token)))).collect();
    a.retain(|_, v| v.0 % 3 != 0);
    d.retain(|_, v| v.0 % 3 != 0);
    assert_eq!(Rc::strong_count(&token), 1 + 6 + 6);
    for i in 0..10 {
        assert_eq!(a.contains(ka[i]), i % 3 != 0);
        assert_eq!(d.contains(kd[i]), i % 3 != 0);
    }
    for (k, v) in a.iter_mut() {
        assert_eq!(ka[v.0], k);
        v.0 += 100;
    }
    for (k, v) in d.iter_mut() {
        assert_eq!(kd[v.0], k);
        v.0 += 100;
    }
    let mut drained: Vec<(Handle, usize)> = a.drain().map(|(k, v)| (k, v.0)).collect();
    drained.sort_unstable();
    let expect: Vec<(Handle, usize)> = (0..10).filter(|i| i % 3 != 0).map(|i| (ka[i], i + 100)).collect();
    assert_eq!(drained, expect);
    assert!(a.is_empty() && ka.iter().all(|&k| !a.contains(k)));
    // A drain stopped early still removes (and drops) every value.
    let first = d.drain().next().map(|(k, v)| (k, v.0));
    assert!(first.is_some());
    assert!(d.is_empty() && kd.iter().all(|&k| !d.contains(k)));
    assert_eq!(Rc::strong_count(&token), 1);
    // The arrays keep working after a drain: slots are reused with new generations.
    let k = a.insert((0, Rc::clone(&token)));
    assert!(!ka.contains(&k));
    assert_eq!(a.len(), 1);
}

#[test]
fn secondary_map_follows_generations() {
    let mut a = HandleArray::new();
    let mut s = SecondaryMap::new();
    let old = a.insert(1);
    assert_eq!(s.insert(old, "old"), Ok(None));
    assert_eq!(s.insert(old, "old2"), Ok(Some("old")));
    a.remove(old).unwrap();
    let new = a.insert(2);
    assert_eq!(new.index(), old.index());
    assert_eq!(s.get(new), None);
    assert_eq!(s.insert(new, "new"), Ok(None), "a newer key replaces the dead one's value");
    assert_eq!(s.len(), 1);
    assert_eq!(s.get(old), None);
    assert_eq!(s.insert(old, "again"), Err(Error::StaleHandle), "an older key is refused");
    assert_eq!(s.remove(old), Err(Error::StaleHandle));
    assert_eq!(s.remove(new), Ok("new"));
    assert_eq!(s.remove(new), Err(Error::StaleHandle));
    assert!(s.is_empty());
    // A generation that wrapped past u32::MAX still counts as newer.
    let before_wrap = Handle::from_bits(u64::from(u32::MAX) << 32 | 5).unwrap();
    let after_wrap = Handle::from_bits(1 << 32 | 5).unwrap();
    assert_eq!(s.insert(before_wrap, "before"), Ok(None));
    assert_eq!(s.insert(after_wrap, "after"), Ok(None));
    assert_eq!(s.insert(before_wrap, "before"), Err(Error::StaleHandle));
    assert_eq!((s.len(), s.get(after_wrap)), (1, Some(&"after")));
}
