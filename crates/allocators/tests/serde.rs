//! The serde support: handles round-trip through JSON and still find their value; a handle no
//! array can have issued is refused when read.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use lore_allocators::{DenseHandleArray, Handle, HandleArray};

fn read(json: &str) -> Result<Handle, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn handles_round_trip_and_find_their_values() {
    let mut sparse = HandleArray::new();
    let mut dense = DenseHandleArray::new();
    let mut handles = Vec::new();
    for i in 0..20u32 {
        handles.push((sparse.insert(i), dense.insert(i)));
    }
    // Reuse a few slots so generations above 1 are written too.
    for i in [3usize, 7, 11] {
        let (s, d) = handles[i];
        sparse.remove(s).unwrap();
        dense.remove(d).unwrap();
        handles[i] = (sparse.insert(100 + i as u32), dense.insert(100 + i as u32));
    }
    let json = serde_json::to_string(&handles).unwrap();
    let back: Vec<(Handle, Handle)> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, handles);
    for (i, &(s, d)) in back.iter().enumerate() {
        let want = if [3, 7, 11].contains(&i) { 100 + i as u32 } else { i as u32 };
        assert_eq!(sparse.get(s), Some(&want));
        assert_eq!(dense.get(d), Some(&want));
    }
    assert!(back.iter().any(|(s, _)| s.generation() > 1));
}

#[test]
fn the_record_names_index_and_generation() {
    let mut a = HandleArray::new();
    let _ = a.insert('x');
    let h = a.insert('y');
    assert_eq!(serde_json::to_string(&h).unwrap(), r#"{"index":1,"generation":1}"#);
    assert_eq!(read(r#"{"index":1,"generation":1}"#).unwrap(), h);
}

#[test]
fn even_or_zero_generations_are_refused() {
    let err = read(r#"{"index":4,"generation":2}"#).unwrap_err();
    assert!(err.contains("even generation"), "{err}");
    assert!(read(r#"{"index":4,"generation":0}"#).unwrap_err().contains("even generation"));
    assert!(read(r#"{"index":4,"generation":-1}"#).is_err());
    assert!(read(r#"{"index":4}"#).unwrap_err().contains("missing field `generation`"));
    // A well-formed handle for a slot that never held a value is just stale.
    let a: HandleArray<u8> = HandleArray::new();
    assert_eq!(a.get(read(r#"{"index":4,"generation":3}"#).unwrap()), None);
}
