//! Reading text is all or nothing: a value whose text fails part-way is left exactly as it
//! was, bit for bit; numbers out of a type's range are errors, not infinities.

use glam::Vec2;
use lore_reflect::{Document, ProblemKind, Reflect, Registry, Thing};
use proptest::prelude::*;

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
enum Shape {
    #[default]
    Empty,
    Circle(Vec2, f32),
    Poly {
        points: Vec<Vec2>,
        closed: bool,
    },
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Piece {
    at: Vec2,
    #[reflect(color)]
    color: [f32; 4],
    shape: Shape,
    points: Vec<Vec2>,
    tags: std::collections::BTreeMap<String, i32>,
    label: Option<String>,
}

/// Every float of a piece by bits, so that "unchanged" means bit for bit (NaN payloads too).
fn bits(p: &Piece) -> Vec<u32> {
    let mut out = vec![p.at.x.to_bits(), p.at.y.to_bits()];
    out.extend(p.color.iter().map(|c| c.to_bits()));
    match &p.shape {
        Shape::Empty => out.push(0),
        Shape::Circle(c, r) => out.extend([1, c.x.to_bits(), c.y.to_bits(), r.to_bits()]),
        Shape::Poly { points, closed } => {
            out.extend([2, u32::from(*closed)]);
            out.extend(points.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits()]));
        }
    }
    out.extend(p.points.iter().flat_map(|q| [q.x.to_bits(), q.y.to_bits()]));
    out
}

#[test]
fn a_bad_color_component_changes_nothing() {
    let mut piece = Piece { color: [0.25, 0.5, 0.95, 1.0], ..Piece::default() };
    let r: &mut dyn Reflect = &mut piece;
    let err = r.set_text("color", "1 , 2 , x , 4").unwrap_err();
    assert!(err.to_string().contains("color[2]"), "{err}");
    assert_eq!(piece.color, [0.25, 0.5, 0.95, 1.0]);
}

#[test]
fn a_bad_enum_payload_keeps_the_old_variant_and_its_fields() {
    let mut piece = Piece { shape: Shape::Circle(Vec2::new(1.0, 2.0), 3.0), ..Piece::default() };
    let before = piece.clone();
    let r: &mut dyn Reflect = &mut piece;
    assert!(r.set_text("shape", "Poly((1 , 2) , flase)").is_err());
    assert!(r.set_text("shape", "Circle((5 , 6) , x)").is_err());
    assert!(r.set_text("shape", "Circle((5 , 6) , 1 , 2)").is_err());
    assert_eq!(piece, before);
}

#[test]
fn a_bad_list_element_keeps_the_old_length_and_elements() {
    let mut piece = Piece { points: vec![Vec2::new(1.0, 2.0)], ..Piece::default() };
    let before = piece.clone();
    let r: &mut dyn Reflect = &mut piece;
    assert!(r.set_text("points", "(0 , 0) , (1 , 1) , (2 , y)").is_err());
    assert!(r.set_text("", "(9 , 9) , (1 , 1 , 1 , 1) , Empty , [] , {} , Some(\"x\") , extra").is_err());
    assert_eq!(piece, before);
    // And a good text still applies whole.
    (&mut piece as &mut dyn Reflect).set_text("points", "(0 , 0) , (1 , 1)").unwrap();
    assert_eq!(piece.points, [Vec2::ZERO, Vec2::ONE]);
}

#[test]
fn a_bad_map_entry_keeps_the_old_map() {
    let mut piece = Piece::default();
    piece.tags.insert("a".into(), 1);
    let before = piece.clone();
    assert!((&mut piece as &mut dyn Reflect).set_text("tags", r#""b": 2 , "c": z"#).is_err());
    assert_eq!(piece, before);
}

#[test]
fn a_failed_apply_changes_nothing() {
    #[derive(Reflect, Default, Debug, PartialEq, Clone)]
    struct Looser {
        at: Vec2,
        label: String,
    }
    #[derive(Reflect, Default, Debug, PartialEq, Clone)]
    struct Stricter {
        at: Vec2,
        label: f32,
    }
    let mut target = Stricter { at: Vec2::new(1.0, 2.0), label: 3.0 };
    let source = Looser { at: Vec2::new(7.0, 8.0), label: "not a number".into() };
    assert!((&mut target as &mut dyn Reflect).apply(&source).is_err());
    assert_eq!(target, Stricter { at: Vec2::new(1.0, 2.0), label: 3.0 });
}

#[test]
fn numbers_beyond_the_range_of_their_type_are_errors() {
    let mut x = 1.5f32;
    for text in ["1e39", "3.4028236e38", "-1e39"] {
        let err = (&mut x as &mut dyn Reflect).set_text("", text).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{text}: {err}");
        assert_eq!(x, 1.5);
    }
    // The largest f32 and the spelled-out infinities still read.
    for (text, want) in [("3.4028235e38", f32::MAX), ("inf", f32::INFINITY), ("-Infinity", f32::NEG_INFINITY)] {
        (&mut x as &mut dyn Reflect).set_text("", text).unwrap();
        assert_eq!(x, want, "{text}");
    }
    let mut d = 0.0f64;
    assert!((&mut d as &mut dyn Reflect).set_text("", "1e309").is_err());
    (&mut d as &mut dyn Reflect).set_text("", "1e39").unwrap();
    assert_eq!(d, 1e39);
}

#[test]
fn a_document_value_out_of_range_is_reported_and_the_default_kept() {
    let mut registry = Registry::new();
    registry.register::<Piece>().unwrap();
    let xml = r#"<things>
  <thing kind="Piece" name="p">
    <parameter name="at" value="1 , 1e39"/>
    <parameter name="color" value="1 , 2 , x , 4"/>
  </thing>
</things>"#;
    let (doc, report) = Document::from_xml(xml, &registry).unwrap();
    let piece = doc.things[0].value.downcast_ref::<Piece>().unwrap();
    assert_eq!(*piece, Piece::default(), "nothing half-applied");
    let bad: Vec<_> = report
        .problems
        .iter()
        .filter(|p| matches!(p.reason, ProblemKind::BadValue(_)))
        .map(|p| (p.line, p.column, p.parameter.clone().unwrap()))
        .collect();
    assert_eq!(bad, [(3, 26, "at".to_string()), (4, 29, "color".to_string())], "{report}");
    let text = report.problems[1].to_string();
    assert!(
        text.ends_with("`color[2]`: cannot read \"x\" as f32: not a number; value left at its default, text kept"),
        "{text}"
    );
    // The rejected texts are saved back as written, not as a mixed value.
    let saved = doc.to_xml();
    assert!(saved.contains(r#"value="1 , 2 , x , 4""#) && saved.contains(r#"value="1 , 1e39""#), "{saved}");
}

fn vec2() -> impl Strategy<Value = Vec2> {
    (any::<f32>(), any::<f32>()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Empty),
        (vec2(), any::<f32>()).prop_map(|(c, r)| Shape::Circle(c, r)),
        (prop::collection::vec(vec2(), 0..4), any::<bool>())
            .prop_map(|(points, closed)| Shape::Poly { points, closed }),
    ]
}

prop_compose! {
    fn piece()(
        at in vec2(), color in prop::array::uniform4(any::<f32>()), shape in shape(),
        points in prop::collection::vec(vec2(), 0..4),
        tags in prop::collection::btree_map("[a-c]", any::<i32>(), 0..3),
        label in prop::option::of("[a-z]{0,4}"),
    ) -> Piece {
        Piece { at, color, shape, points, tags, label }
    }
}

/// Text that is often almost right: real text forms with one part broken.
fn almost_right() -> impl Strategy<Value = String> {
    (piece(), 0usize..6, 0usize..200, prop_oneof![Just("x"), Just("1e39"), Just(" , 1"), Just(")"), Just("Nope(")])
        .prop_map(|(p, field, at, junk)| {
            let name = ["at", "color", "shape", "points", "tags", "label"][field];
            let text = (&p as &dyn Reflect).text(name).unwrap();
            let mut cut = at.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{name}\u{0}{}{junk}{}", &text[..cut], &text[cut..])
        })
}

proptest! {
    #[test]
    fn a_failed_set_text_leaves_the_value_bit_for_bit_unchanged(start in piece(), edit in almost_right()) {
        let (path, text) = edit.split_once('\u{0}').unwrap();
        let mut registry = Registry::new();
        registry.register::<Piece>().unwrap();
        let mut thing = Thing::new("t", Box::new(start.clone()));
        let before = bits(&start);
        match thing.set_text(path, text) {
            Ok(()) => {}
            Err(_) => {
                let now = thing.value.downcast_ref::<Piece>().unwrap();
                prop_assert_eq!(bits(now), before);
                prop_assert_eq!(&now.tags, &start.tags);
                prop_assert_eq!(&now.label, &start.label);
            }
        }
        // The whole value at once, too.
        let mut value = start.clone();
        if (&mut value as &mut dyn Reflect).set_text("", text).is_err() {
            prop_assert_eq!(bits(&value), bits(&start));
            prop_assert_eq!(value.tags, start.tags);
        }
    }
}

// `apply()` is all or nothing at any depth: a source whose leaves are wider types (f64 for f32,
// i64 for i32) applies through the leaves' text forms, and one leaf that does not fit (out of
// the narrower type's range), wherever it sits, leaves the target exactly as it was.

#[derive(Reflect, Default, Debug, Clone)]
struct Top {
    a: f32,
    kids: Vec<Kid>,
    tags: std::collections::BTreeMap<String, Leafy>,
    spare: Option<Leafy>,
}

#[derive(Reflect, Default, Debug, Clone)]
struct Kid {
    b: f32,
    n: i32,
    deeper: Vec<Leafy>,
}

#[derive(Reflect, Default, Debug, Clone)]
struct Leafy {
    c: f32,
    leaves: Vec<f32>,
}

/// [`Top`] with wider leaves (the same field names).
#[derive(Reflect, Default, Debug, Clone)]
struct WideTop {
    a: f64,
    kids: Vec<WideKid>,
    tags: std::collections::BTreeMap<String, WideLeafy>,
    spare: Option<WideLeafy>,
}

#[derive(Reflect, Default, Debug, Clone)]
struct WideKid {
    b: f64,
    n: i64,
    deeper: Vec<WideLeafy>,
}

#[derive(Reflect, Default, Debug, Clone)]
struct WideLeafy {
    c: f64,
    leaves: Vec<f64>,
}

/// Every leaf of a [`Top`] as `path=bits`, and every list, map and option as its length:
/// "unchanged" then means bit for bit (signed zeros and NaN payloads included) and shape.
fn top_bits(t: &Top) -> Vec<String> {
    fn leafy(out: &mut Vec<String>, at: &str, l: &Leafy) {
        out.push(format!("{at}.c={:08x}", l.c.to_bits()));
        out.push(format!("{at}.leaves#{}", l.leaves.len()));
        out.extend(l.leaves.iter().enumerate().map(|(i, v)| format!("{at}.leaves[{i}]={:08x}", v.to_bits())));
    }
    let mut out = vec![format!("a={:08x}", t.a.to_bits()), format!("kids#{}", t.kids.len())];
    for (i, k) in t.kids.iter().enumerate() {
        out.push(format!("kids[{i}].b={:08x}", k.b.to_bits()));
        out.push(format!("kids[{i}].n={}", k.n));
        out.push(format!("kids[{i}].deeper#{}", k.deeper.len()));
        for (j, l) in k.deeper.iter().enumerate() {
            leafy(&mut out, &format!("kids[{i}].deeper[{j}]"), l);
        }
    }
    out.push(format!("tags#{}", t.tags.len()));
    for (key, l) in &t.tags {
        leafy(&mut out, &format!("tags[{key:?}]"), l);
    }
    match &t.spare {
        None => out.push("spare=None".into()),
        Some(l) => leafy(&mut out, "spare", l),
    }
    out
}

/// The [`Top`] that applying `w` (every leaf in range) must give: each leaf narrowed, exactly
/// (the wide leaves are made from narrow values).
fn narrowed(w: &WideTop) -> Top {
    let leafy = |l: &WideLeafy| Leafy { c: l.c as f32, leaves: l.leaves.iter().map(|&v| v as f32).collect() };
    Top {
        a: w.a as f32,
        kids: w
            .kids
            .iter()
            .map(|k| Kid {
                b: k.b as f32,
                n: i32::try_from(k.n).unwrap(),
                deeper: k.deeper.iter().map(leafy).collect(),
            })
            .collect(),
        tags: w.tags.iter().map(|(key, l)| (key.clone(), leafy(l))).collect(),
        spare: w.spare.as_ref().map(leafy),
    }
}

/// A leaf of a [`WideTop`] and how deep it sits (1: a field of the top).
enum WideLeaf<'a> {
    Float(&'a mut f64, usize),
    Int(&'a mut i64, usize),
}

/// Every leaf of `w`, in a fixed order.
fn wide_leaves(w: &mut WideTop) -> Vec<WideLeaf<'_>> {
    fn leafy<'a>(out: &mut Vec<WideLeaf<'a>>, l: &'a mut WideLeafy, depth: usize) {
        out.push(WideLeaf::Float(&mut l.c, depth + 1));
        out.extend(l.leaves.iter_mut().map(|v| WideLeaf::Float(v, depth + 2)));
    }
    let mut out = vec![WideLeaf::Float(&mut w.a, 1)];
    for k in &mut w.kids {
        out.push(WideLeaf::Float(&mut k.b, 3));
        out.push(WideLeaf::Int(&mut k.n, 3));
        for l in &mut k.deeper {
            leafy(&mut out, l, 4);
        }
    }
    for l in w.tags.values_mut() {
        leafy(&mut out, l, 2);
    }
    if let Some(l) = &mut w.spare {
        leafy(&mut out, l, 2);
    }
    out
}

/// Finite floats (so that a good apply can be checked bit for bit; NaN's text form does not
/// keep its payload), signed zeros and subnormals included.
fn narrow_float() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0f32),
        Just(f32::MIN_POSITIVE / 8.0),
        any::<f32>().prop_filter("finite", |v| v.is_finite()),
    ]
}

fn top() -> impl Strategy<Value = Top> {
    let leafy =
        || (narrow_float(), prop::collection::vec(narrow_float(), 0..4)).prop_map(|(c, leaves)| Leafy { c, leaves });
    let kid = (narrow_float(), any::<i32>(), prop::collection::vec(leafy(), 0..3)).prop_map(|(b, n, deeper)| Kid {
        b,
        n,
        deeper,
    });
    (
        narrow_float(),
        prop::collection::vec(kid, 0..3),
        prop::collection::btree_map("[a-c]{1,2}", leafy(), 0..3),
        prop::option::of(leafy()),
    )
        .prop_map(|(a, kids, tags, spare)| Top { a, kids, tags, spare })
}

/// The wide twin of a [`Top`].
fn widened(t: &Top) -> WideTop {
    let leafy = |l: &Leafy| WideLeafy { c: f64::from(l.c), leaves: l.leaves.iter().map(|&v| f64::from(v)).collect() };
    WideTop {
        a: f64::from(t.a),
        kids: t
            .kids
            .iter()
            .map(|k| WideKid { b: f64::from(k.b), n: i64::from(k.n), deeper: k.deeper.iter().map(leafy).collect() })
            .collect(),
        tags: t.tags.iter().map(|(key, l)| (key.clone(), leafy(l))).collect(),
        spare: t.spare.as_ref().map(leafy),
    }
}

proptest! {
    #[test]
    fn a_failed_apply_leaves_the_target_bit_for_bit_unchanged_whatever_the_depth_of_the_bad_leaf(
        start in top(), source in top(), pick in any::<prop::sample::Index>(), huge in 1e39f64..1e300,
    ) {
        let before = top_bits(&start);
        // The good source applies whole: the target becomes it, bit for bit, whatever it was.
        let good = widened(&source);
        let mut target = start.clone();
        (&mut target as &mut dyn Reflect).apply(&good).unwrap();
        prop_assert_eq!(top_bits(&target), top_bits(&narrowed(&good)));
        // One leaf out of range, picked among all of them (deep ones included).
        let mut bad = good.clone();
        let mut leaves = wide_leaves(&mut bad);
        let i = pick.index(leaves.len());
        let depth = match &mut leaves[i] {
            WideLeaf::Float(v, d) => {
                **v = huge.copysign(**v);
                *d
            }
            WideLeaf::Int(v, d) => {
                **v = if **v < 0 { i64::MIN } else { i64::MAX };
                *d
            }
        };
        let mut target = start.clone();
        let err = (&mut target as &mut dyn Reflect).apply(&bad).unwrap_err();
        prop_assert_eq!(top_bits(&target), before, "leaf {} of {} at depth {}: {}", i, leaves_len(&good), depth, err);
    }
}

fn leaves_len(w: &WideTop) -> usize {
    wide_leaves(&mut w.clone()).len()
}

// The whole value at once: the text of a whole struct (every field, nested values included)
// with one fault in its last field, read only after everything before it.

#[derive(Reflect, Default, Debug, Clone)]
struct Late {
    piece: Piece,
    top: Top,
    last: f32,
}

/// Every leaf of a [`Late`] by bits; with `any_nan`, every NaN of the piece counts as one (the
/// text form writes `NaN` without its payload, so a value read from text has the default one).
fn late_bits(l: &Late, any_nan: bool) -> Vec<String> {
    let canon = |b: u32| if any_nan && f32::from_bits(b).is_nan() { f32::NAN.to_bits() } else { b };
    let mut out: Vec<String> = bits(&l.piece).iter().map(|&b| format!("{:08x}", canon(b))).collect();
    out.push(format!("{:?} {:?}", l.piece.tags, l.piece.label));
    out.extend(top_bits(&l.top));
    out.push(format!("last={:08x}", l.last.to_bits()));
    out
}

proptest! {
    #[test]
    fn whole_struct_text_with_a_late_fault_changes_nothing(
        start_piece in piece(), start_top in top(), start_last in narrow_float(),
        new_piece in piece(), new_top in top(), new_last in narrow_float(),
        fault in prop_oneof![Just("1e39"), Just("x"), Just("Nope("), Just("(1 , 2)"), Just("")],
    ) {
        let start = Late { piece: start_piece, top: start_top, last: start_last };
        let new = Late { piece: new_piece, top: new_top, last: new_last };
        let text = (&new as &dyn Reflect).to_text();
        // The last field's value is the text's tail: the fault replaces it.
        let last_text = (&new as &dyn Reflect).text("last").unwrap();
        let at = text.rfind(&last_text).unwrap();
        let tail = &text[at + last_text.len()..];
        prop_assert!(tail.chars().all(|c| c == ')' || c.is_whitespace()), "{}", text);
        prop_assert!(at > text.len() / 2, "{}", text);
        // The good text reads whole (so the fields before the fault do parse) ...
        let mut value = start.clone();
        (&mut value as &mut dyn Reflect).set_text("", &text).unwrap();
        prop_assert_eq!(late_bits(&value, true), late_bits(&new, true));
        // ... and the faulty one changes nothing.
        let bad = format!("{}{fault}{}", &text[..at], &text[at + last_text.len()..]);
        let mut value = start.clone();
        prop_assert!((&mut value as &mut dyn Reflect).set_text("", &bad).is_err(), "{}", bad);
        prop_assert_eq!(late_bits(&value, false), late_bits(&start, false));
    }
}
