//! Thing documents in XML: the post's sample, reports, lossless saving, hostile input.

use lore_reflect::{Document, Limits, LoadError, ProblemKind, Reflect, Registry, Thing};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Thing1 {
    x: f32,
    y: f32,
    i: i32,
    #[reflect(color)]
    color: [f32; 4],
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Thing2 {
    x: f32,
    y: f32,
    j: i32,
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<Thing1>().unwrap();
    r.register::<Thing2>().unwrap();
    r
}

/// The sample from "World Editor Beginnings", completed with the closing tags and root element
/// lost when the post was saved as text.
const POST: &str = r#"<things>
  <thing kind="Thing1" name="">
   <parameter name="x" value="1e+20"/>
   <parameter name="y" value="0"/>
   <parameter name="i" value="0"/>
   <parameter name="color" value="1 , 0 , 0.5 , 1"/>
  </thing>
  <thing kind="Thing2" name="item 1">
   <parameter name="x" value="111.11"/>
   <parameter name="y" value="0"/>
   <parameter name="j" value="0"/>
  </thing>
  <thing kind="Thing1" name="item 2">
   <parameter name="x" value="-1e-20"/>
   <parameter name="y" value="0"/>
   <parameter name="i" value="0"/>
   <parameter name="color" value="1 , 0 , 0.5 , 1"/>
  </thing>
  <thing kind="Thing1" name="item 3">
   <parameter name="x" value="0"/>
   <parameter name="y" value="0"/>
   <parameter name="i" value="0"/>
   <parameter name="color" value="23 , 42 , 86 , 99"/>
  </thing>
</things>
"#;

fn thing1(t: &Thing) -> &Thing1 {
    t.value.downcast_ref::<Thing1>().expect("a Thing1")
}

#[test]
fn the_posts_sample_loads_with_the_values_it_shows() {
    let (doc, report) = Document::from_xml(POST, &registry()).unwrap();
    assert!(report.is_clean(), "{report}");
    let names: Vec<_> = doc.things.iter().map(|t| (t.kind(), t.name.as_str())).collect();
    assert_eq!(names, [("Thing1", ""), ("Thing2", "item 1"), ("Thing1", "item 2"), ("Thing1", "item 3")]);
    assert_eq!(thing1(&doc.things[0]), &Thing1 { x: 1e20, y: 0.0, i: 0, color: [1.0, 0.0, 0.5, 1.0] });
    assert_eq!(doc.things[1].value.downcast_ref::<Thing2>(), Some(&Thing2 { x: 111.11, y: 0.0, j: 0 }));
    assert_eq!(thing1(&doc.things[2]).x, -1e-20);
    assert_eq!(thing1(&doc.things[3]).color, [23.0, 42.0, 86.0, 99.0]);

    // Saved again, it is the same text, byte for byte.
    assert_eq!(doc.to_xml(), POST);
    // In the canonical form (its source forgotten) it reads back to the same values.
    let mut doc = doc;
    doc.forget_source();
    let xml = doc.to_xml();
    assert!(xml.contains(r#"<parameter name="x" value="1e20"/>"#), "{xml}");
    assert!(xml.contains(r#"<parameter name="color" value="1 , 0 , 0.5 , 1"/>"#));
    let (again, report) = Document::from_xml(&xml, &registry()).unwrap();
    assert!(report.is_clean());
    assert_eq!(again.to_xml(), xml);
}

#[test]
fn problems_are_reported_with_line_thing_and_parameter_and_the_rest_loads() {
    let text = r#"<level>
  <thing kind="Thing2" name="a">
    <parameter name="x" value="fast"/>
    <parameter name="z" value="3"/>
    <parameter name="j" value="7"/>
  </thing>
  <thing kind="Dragon" name="smaug">
    <parameter name="fire" value="9000"/>
  </thing>
  <thing kind="Thing1" name="b">
    <parameter name="x" value="2"/>
    <parameter name="x" value="3"/>
  </thing>
</level>"#;
    let (doc, report) = Document::from_xml(text, &registry()).unwrap();
    let got: Vec<_> = report
        .problems
        .iter()
        .map(|p| (p.line, p.thing.as_str(), p.parameter.as_deref(), std::mem::discriminant(&p.reason)))
        .collect();
    use std::mem::discriminant as d;
    let bad = d(&ProblemKind::BadValue(lore_reflect::Error::UnknownKind(String::new())));
    assert_eq!(
        got,
        [
            (3, "a", Some("x"), bad),
            (4, "a", Some("z"), d(&ProblemKind::UnknownParameter)),
            (7, "smaug", None, d(&ProblemKind::UnknownKind)),
            (12, "b", Some("x"), d(&ProblemKind::DuplicateParameter)),
        ],
        "{report}"
    );
    // Missing parameters are information, not problems of the file.
    let notes: Vec<_> = report.notes.iter().map(|p| (p.line, p.thing.as_str(), p.parameter.as_deref())).collect();
    assert_eq!(notes, [(2, "a", Some("y")), (10, "b", Some("y")), (10, "b", Some("i")), (10, "b", Some("color"))]);
    assert!(report.notes.iter().all(|p| p.reason == ProblemKind::MissingParameter));
    let message = report.problems[0].to_string();
    assert!(message.contains("line 3") && message.contains("`x`") && message.contains("f32"), "{message}");
    // Everything valid loaded.
    assert_eq!(doc.things.len(), 2);
    assert_eq!(doc.things[0].value.downcast_ref::<Thing2>(), Some(&Thing2 { x: 0.0, y: 0.0, j: 7 }));
    assert_eq!(thing1(&doc.things[1]).x, 3.0);

    // Nothing the user wrote is dropped on save.
    let xml = doc.to_xml();
    for kept in
        [r#"name="z" value="3""#, r#"value="fast""#, r#"kind="Dragon" name="smaug""#, r#"name="fire" value="9000""#]
    {
        assert!(xml.contains(kept), "{kept} missing from\n{xml}");
    }
    let (again, _) = Document::from_xml(&xml, &registry()).unwrap();
    assert_eq!(again.to_xml(), xml, "saving is stable");

    // Setting the rejected parameter forgets the rejected text.
    let mut doc = again;
    doc.things[0].set_text("x", "1.5").unwrap();
    assert!(!doc.to_xml().contains("fast"));
}

#[test]
fn strings_with_markup_and_newlines_survive_a_round_trip() {
    #[derive(Reflect, Default)]
    struct Note {
        text: String,
        tags: Vec<String>,
    }
    let mut registry = Registry::new();
    registry.register::<Note>().unwrap();
    let note = Note {
        text: "a <b> & \"c\"\n\ttab\r, (x) [y] {z}: ok".into(),
        tags: vec!["one, two".into(), "\"q\"".into(), String::new()],
    };
    let mut doc = Document::new();
    doc.things.push(Thing::new("n <1>", Box::new(note)));
    let xml = doc.to_xml();
    let (back, report) = Document::from_xml(&xml, &registry).unwrap();
    assert!(report.is_clean(), "{report}");
    let n = back.things[0].value.downcast_ref::<Note>().unwrap();
    assert_eq!(back.things[0].name, "n <1>");
    assert_eq!(n.text, "a <b> & \"c\"\n\ttab\r, (x) [y] {z}: ok");
    assert_eq!(n.tags, ["one, two", "\"q\"", ""]);
}

fn load(text: &str) -> Result<Document, LoadError> {
    Document::from_xml(text, &registry()).map(|(d, _)| d)
}

#[test]
fn malformed_xml_is_an_error_with_a_line() {
    assert!(matches!(load("<things>\n<thing kind=\"Thing1\" name=\"a\">\n"), Err(LoadError::Unclosed { line: 3, .. })));
    assert!(matches!(load("<things>\n</thing>"), Err(LoadError::Malformed { line: 2, .. })));
    assert!(matches!(load("<things><thing kind=\"Thing1></things>"), Err(LoadError::Malformed { .. })));
    assert!(matches!(load(""), Err(LoadError::NoRoot)));
    assert!(matches!(load("just text"), Err(LoadError::NoRoot)));
    assert!(matches!(load("<a/><b/>"), Err(LoadError::AfterRoot { .. })));
    assert!(matches!(load("<things><thing kind=\"A\" kind=\"B\"/></things>"), Err(LoadError::Malformed { .. })));
    assert!(matches!(load("<things><thing kind=\"&bogus;\"/></things>"), Err(LoadError::Malformed { .. })));
}

#[test]
fn hostile_xml_is_refused_quickly() {
    // Entity expansion ("billion laughs"): DOCTYPE is refused, so no entity is ever defined.
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<things><thing kind="Thing2" name="&lol2;"/></things>"#;
    assert!(matches!(load(laughs), Err(LoadError::Doctype { line: 2 })));
    // Deep nesting.
    let deep = "<a>".repeat(100_000) + &"</a>".repeat(100_000);
    assert!(matches!(load(&deep), Err(LoadError::TooDeep { limit: 16, .. })));
    // A 100 MB attribute.
    let huge = format!(r#"<things><thing kind="Thing2" name="{}"/></things>"#, "x".repeat(100 << 20));
    assert!(matches!(load(&huge), Err(LoadError::TooLong { len, .. }) if len == 100 << 20));
    // Too many things for the limits given.
    let many = "<t>".to_string() + &r#"<thing kind="Thing2" name=""/>"#.repeat(11) + "</t>";
    let limits = Limits { max_things: 10, ..Limits::default() };
    assert!(matches!(Document::from_xml_with(&many, &registry(), &limits), Err(LoadError::TooMany { limit: 10, .. })));
    // A 100 MB value inside limits is an ordinary bad value, reported, not a crash.
    let limits = Limits { max_value_len: usize::MAX, ..Limits::default() };
    let big_value =
        format!(r#"<t><thing kind="Thing2" name=""><parameter name="x" value="{}"/></thing></t>"#, "9".repeat(1 << 20));
    let (doc, report) = Document::from_xml_with(&big_value, &registry(), &limits).unwrap();
    assert_eq!(doc.things.len(), 1);
    assert!(
        report
            .problems
            .iter()
            .any(|p| matches!(p.reason, ProblemKind::BadValue(_)) || p.parameter.as_deref() == Some("y"))
    );
}

#[test]
fn unexpected_elements_and_text_are_reported_and_skipped() {
    let text = r#"<things>
  hello
  <group><thing kind="Thing2" name="inner"/></group>
  <thing kind="Thing2" name="ok"><parameter name="x" value="1"><b/></parameter><parameter name="y" value="2"/><parameter name="j" value="3"/></thing>
</things>"#;
    let (doc, report) = Document::from_xml(text, &registry()).unwrap();
    assert_eq!(doc.things.len(), 1, "{report}");
    assert_eq!(doc.things[0].value.downcast_ref::<Thing2>(), Some(&Thing2 { x: 1.0, y: 2.0, j: 3 }));
    let kinds: Vec<_> = report.problems.iter().map(|p| (p.line, p.reason.clone())).collect();
    assert_eq!(
        kinds,
        [
            (2, ProblemKind::UnexpectedText),
            (3, ProblemKind::UnexpectedElement("group".into())),
            (3, ProblemKind::LostThing { kind: "Thing2".into(), name: "inner".into(), inside: "group".into() }),
            (4, ProblemKind::UnexpectedElement("b".into())),
        ]
    );
}

#[test]
fn comments_are_kept_and_unknown_attributes_reported() {
    let text = r#"<things version="2">
  <!-- level 1, by Ann -->
  <thing kind="Thing2" name="a" layer="3">
    <parameter name="x" value="1" unit="m"/>
    <parameter name="y" value="2"/>
    <parameter name="j" value="3"/>
  </thing>
</things>"#;
    let (doc, report) = Document::from_xml(text, &registry()).unwrap();
    let got: Vec<_> = report.problems.iter().map(|p| (p.line, p.parameter.clone(), p.reason.clone())).collect();
    assert_eq!(
        got,
        [
            (1, None, ProblemKind::UnknownAttribute("version".into())),
            (3, None, ProblemKind::UnknownAttribute("layer".into())),
            (4, Some("x".into()), ProblemKind::UnknownAttribute("unit".into())),
        ]
    );
    assert_eq!(doc.comments, [" level 1, by Ann "]);
    // The comment and the unknown attributes are written back where they were.
    let xml = doc.to_xml();
    assert_eq!(xml, text);
    let (again, report_again) = Document::from_xml(&xml, &registry()).unwrap();
    assert_eq!(report_again, report);
    assert_eq!(again.to_xml(), xml);
}

#[test]
fn errors_inside_tags_have_their_own_line_and_column() {
    // An attribute error on line 10 is reported on line 10, at the attribute.
    let mut text = String::from("<things>\n");
    for i in 0..8 {
        text.push_str(&format!("  <thing kind=\"Thing2\" name=\"t{i}\"/>\n"));
    }
    text.push_str("  <thing kind=\"Thing2\" name=\"a\" name=\"b\"/>\n</things>");
    match load(&text) {
        Err(LoadError::Malformed { line, column, .. }) => assert_eq!((line, column), (10, 33)),
        other => panic!("{other:?}"),
    }
    let text = "<things>\n\n  <thing kind=\"Thing2\"\n     name=\"a\" bad/>\n</things>";
    assert!(matches!(load(text), Err(LoadError::Malformed { line: 4, .. })), "{:?}", load(text));
    let text = "<things>\n  <thing kind=\"Thing2\" name=\"&bogus;\"/>\n</things>";
    assert!(matches!(load(text), Err(LoadError::Malformed { line: 2, column: 24, .. })), "{:?}", load(text));
    // Report lines carry columns too, and the message names both.
    let text = "<things>\n  <thing kind=\"Thing2\" name=\"a\">\n    <parameter name=\"x\" value=\"?\"/>  <oops/>\n  </thing>\n</things>";
    let (_, report) = Document::from_xml(text, &registry()).unwrap();
    let at: Vec<_> = report.problems.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(at, [(3, 25), (3, 38)], "{report}");
    let at: Vec<_> = report.notes.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(at, [(2, 3), (2, 3)], "missing y and j, at the thing: {report:?}");
    assert!(report.problems[0].to_string().starts_with("line 3, column 25,"), "{report}");
}

#[test]
fn characters_xml_cannot_carry_are_refused_on_load_and_on_save() {
    for (text, at) in [
        ("<things>\n  <thing kind=\"Thing2\" name=\"a\u{0}b\"/>\n</things>", (2, 31)),
        ("<things>\n  <thing kind=\"Thing2\" name=\"a&#0;b\"/>\n</things>", (2, 24)),
        ("<things>\n  <thing kind=\"Thing2\" name=\"a&#x1;b\"/>\n</things>", (2, 24)),
        ("<things>\n<!-- \u{FFFE} -->\n</things>", (2, 6)),
    ] {
        match load(text) {
            // quick-xml refuses some character references itself.
            Err(LoadError::InvalidChar { line, column, .. } | LoadError::Malformed { line, column, .. }) => {
                assert_eq!((line, column), at, "{text:?}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let mut doc = Document::new();
    doc.things.push(Thing::new("bad\u{0}name", Box::new(Thing2::default())));
    let err = doc.try_to_xml().unwrap_err();
    assert!(err.to_string().contains("U+0000") && err.to_string().contains("bad\u{FFFD}name"), "{err}");
    doc.things[0].name = "good".into();
    doc.things[0].set_text("x", "1").unwrap();
    let mut bad_value = Document::new();
    bad_value.unknown.push(lore_reflect::RawThing {
        kind: "Dragon".into(),
        name: "smaug".into(),
        params: vec![lore_reflect::Param::new("fire", "\u{1b}[31m")],
    });
    let err = bad_value.try_to_xml().unwrap_err();
    assert!(err.to_string().contains("parameter `fire`") && err.to_string().contains("U+001B"), "{err}");
    assert_eq!(doc.try_to_xml().unwrap(), doc.to_xml());
}

#[test]
fn things_where_things_have_no_place_are_named_in_the_report() {
    let text = r#"<things>
  <thing kind="Thing2" name="outer">
    <parameter name="x" value="1"/><parameter name="y" value="2"/><parameter name="j" value="3"/>
    <thing kind="Thing1" name="nested"><parameter name="x" value="9"/></thing>
  </thing>
  <layer><sub><thing kind="Dragon" name="deep"/></sub></layer>
</things>"#;
    let (doc, report) = Document::from_xml(text, &registry()).unwrap();
    assert_eq!(doc.things.len(), 1);
    assert_eq!(doc.things[0].value.downcast_ref::<Thing2>(), Some(&Thing2 { x: 1.0, y: 2.0, j: 3 }));
    let lost: Vec<_> = report
        .problems
        .iter()
        .filter_map(|p| match &p.reason {
            ProblemKind::LostThing { kind, name, inside } => {
                Some((p.line, kind.as_str(), name.as_str(), inside.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(lost, [(4, "Thing1", "nested", "thing"), (6, "Dragon", "deep", "sub")], "{report}");
    assert!(
        report.to_string().contains(r#"thing "deep" (Dragon) inside <sub> not loaded, kept as written"#),
        "{report}"
    );
    // Not loaded, but not lost either.
    assert_eq!(doc.to_xml(), text);
}

#[test]
fn a_report_keeps_a_bounded_number_of_problems_and_counts_the_rest() {
    let mut text = String::from("<things>");
    for _ in 0..50_000 {
        text.push_str("<junk/>");
    }
    text.push_str("<thing kind=\"Thing2\" name=\"kept\"/></things>");
    let limits = Limits { max_problems: 100, ..Limits::default() };
    let (doc, report) = Document::from_xml_with(&text, &registry(), &limits).unwrap();
    assert_eq!(doc.things.len(), 1);
    assert_eq!(report.problems.len(), 100);
    assert_eq!(report.omitted, 50_000 - 100);
    assert_eq!(report.total(), 50_000);
    assert_eq!(report.notes_total(), 3, "x, y and j are missing");
    assert!(!report.is_clean());
    assert!(report.to_string().ends_with("… and 49900 more problems not listed\n"));
    // The default keeps ten thousand.
    let (_, report) = Document::from_xml(&text, &registry()).unwrap();
    assert_eq!((report.problems.len(), report.omitted), (10_000, 40_000));
}
