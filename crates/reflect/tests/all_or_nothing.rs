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
