//! Nothing lost: a document read from XML saves back exactly as it was read, and an edit
//! changes only the bytes of what it edited, whatever the file holds that the loader did not
//! understand (elements, attributes, kinds, values, comments, whitespace).

use glam::Vec2;
use lore_reflect::{Document, ProblemKind, Reflect, Registry, Thing};
use proptest::prelude::*;

/// A star, as the editor has one.
#[derive(Reflect, Debug, PartialEq, Clone)]
struct Star {
    position: Vec2,
    points: u32,
    radius: f32,
    #[reflect(default)]
    spin: f32,
}

impl Default for Star {
    fn default() -> Self {
        Self { position: Vec2::ZERO, points: 5, radius: 2.0, spin: 0.0 }
    }
}

/// A kind that is not a struct: its one parameter is called `value`.
#[derive(Reflect, Debug, PartialEq, Clone, Default)]
enum Mood {
    #[default]
    Calm,
    Angry,
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<Star>().unwrap();
    r.register::<Mood>().unwrap();
    r
}

fn load(text: &str) -> (Document, lore_reflect::Report) {
    Document::from_xml(text, &registry()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn star(doc: &Document, name: &str) -> Star {
    doc.get(name).and_then(|t| t.value.downcast_ref::<Star>()).cloned().expect("a star")
}

/// The issue's file: values written as child elements, a comment, things the loader only
/// partly understands.
const HAND_WRITTEN: &str = r#"<?xml version="1.0"?>
<things>
  <!-- my level: two stars -->
  <thing kind="Star" name="sun">
    <position>1 2</position>
    <points>7</points>
    <parameter name="radius" value="3.5"/>
  </thing>
  <thing kind="Star" name="moon"><position>-4 0.5</position></thing>
</things>
"#;

#[test]
fn the_issues_hand_written_file_saves_back_byte_for_byte() {
    let (doc, report) = load(HAND_WRITTEN);
    assert_eq!(doc.things.len(), 2);
    let unexpected: Vec<_> = report
        .problems
        .iter()
        .filter_map(|p| match &p.reason {
            ProblemKind::UnexpectedElement(e) => Some((p.line, p.thing.as_str(), e.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(unexpected, [(5, "sun", "position"), (6, "sun", "points"), (9, "moon", "position")], "{report}");
    assert_eq!(report.total(), 3, "{report}");
    // Missing parameters are information, not problems.
    assert_eq!(report.notes_total(), 2 + 3, "sun lacks position and points, moon all but spin");
    assert!(report.notes.iter().all(|n| n.reason == ProblemKind::MissingParameter));
    assert_eq!(star(&doc, "sun").radius, 3.5);
    assert_eq!(doc.to_xml(), HAND_WRITTEN);

    // What was not understood is listed for an inspector.
    let kept = doc.get("sun").unwrap().kept();
    let kept: Vec<_> = kept.iter().map(|k| (k.name.as_str(), k.text.as_str())).collect();
    assert_eq!(kept, [("position", "<position>1 2</position>"), ("points", "<points>7</points>")]);
}

#[test]
fn an_edit_changes_only_the_edited_value() {
    let (mut doc, _) = load(HAND_WRITTEN);
    doc.get_mut("sun").unwrap().set_text("radius", "4").unwrap();
    assert_eq!(doc.to_xml(), HAND_WRITTEN.replace(r#"value="3.5""#, r#"value="4""#));

    // A parameter missing from the file is added once it differs from what was loaded, on a
    // line of its own, indented as its neighbours.
    let (mut doc, _) = load(HAND_WRITTEN);
    doc.get_mut("sun").unwrap().set_text("points", "9").unwrap();
    let want = HAND_WRITTEN.replace(
        "    <parameter name=\"radius\" value=\"3.5\"/>\n",
        "    <parameter name=\"radius\" value=\"3.5\"/>\n    <parameter name=\"points\" value=\"9\"/>\n",
    );
    assert_eq!(doc.to_xml(), want);
    let (again, _) = load(&want);
    assert_eq!(star(&again, "sun").points, 9);
    assert_eq!(again.to_xml(), want);

    // Inside a thing written on one line, the new element goes before the end tag.
    let (mut doc, _) = load(HAND_WRITTEN);
    doc.get_mut("moon").unwrap().set_text("position", "1 , 1").unwrap();
    let out = doc.to_xml();
    assert!(
        out.contains(
            "<thing kind=\"Star\" name=\"moon\"><position>-4 0.5</position>\n    <parameter name=\"position\" value=\"1 , 1\"/></thing>"
        ),
        "{out}"
    );
    assert_eq!(star(&load(&out).0, "moon").position, Vec2::ONE);

    // A rename touches only the name.
    let (mut doc, _) = load(HAND_WRITTEN);
    doc.get_mut("moon").unwrap().name = "luna & co".into();
    assert_eq!(doc.to_xml(), HAND_WRITTEN.replace(r#"name="moon""#, r#"name="luna &amp; co""#));
}

#[test]
fn values_as_written_stay_until_edited() {
    // `3.50` reads as 3.5 and is written back as written; other spellings likewise.
    let text = "<things>\n\t<thing kind='Star' name='a' layer='2'>\n\t\t<parameter value='1 ,2' name='position'/>\n\t\t<parameter name='radius' value='3.50' unit='m'></parameter>\n\t</thing>\n</things>";
    let (mut doc, report) = load(text);
    assert_eq!(report.total(), 2, "two unknown attributes: {report}");
    assert_eq!(doc.to_xml(), text);
    doc.things[0].set_text("radius", "0.25").unwrap();
    assert_eq!(doc.to_xml(), text.replace("'3.50'", "'0.25'"), "the quotes and the unknown attribute stay");
}

#[test]
fn unknown_kinds_unreadable_values_and_stray_content_stay_in_place() {
    let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- before the root -->
<level version="3">
  <thing kind="Dragon" name="smaug"><parameter name="fire" value="9000"/></thing>
  <thing kind="Star" name="a">
    <parameter name="points" value="many"/>
    <parameter name="radius" value="1"/>
    <parameter name="radius" value="2"/>
    <parameter name="colour" value="red"/>
    <rejected name="spin" value="fast"/>
    <rejected name="gone" value="?"/>
    <parameter name="position"/>
    text &amp; <![CDATA[ raw <stuff> ]]>
    <thing kind="Star" name="nested"/>
  </thing>
  <group><thing kind="Star" name="lost"/></group>
  <thing name="no kind"/>
  <thing kind="Mood" name="m"><parameter name="value" value="Angry"/></thing>
  <thing kind="Star" name="b"/>
</level>
<!-- after the root -->
"#;
    let (mut doc, report) = load(text);
    assert_eq!(doc.things.len(), 3, "{report}");
    assert_eq!(doc.unknown.len(), 1);
    assert_eq!(star(&doc, "a").radius, 2.0, "the last value wins");
    assert_eq!(doc.to_xml(), text);

    // Setting the value that did not read replaces it in place.
    doc.get_mut("a").unwrap().set_text("points", "6").unwrap();
    doc.get_mut("a").unwrap().set_text("spin", "0.5").unwrap();
    let out = doc.to_xml();
    let want = text
        .replace(r#"<parameter name="points" value="many"/>"#, r#"<parameter name="points" value="6"/>"#)
        .replace(r#"<rejected name="spin" value="fast"/>"#, r#"<parameter name="spin" value="0.5"/>"#);
    assert_eq!(out, want);
    // Things of unknown kinds stay where they were while the document holds them...
    let (mut doc, _) = load(text);
    doc.unknown.clear();
    doc.get_mut("a").unwrap().unknown.clear();
    let out = doc.to_xml();
    assert!(!out.contains("smaug") && !out.contains("colour"), "{out}");
    assert!(out.contains("<!-- after the root -->") && out.contains(r#"name="lost""#), "{out}");
    // ...and a thing added in code goes after the others, in the canonical form.
    let (mut doc, _) = load(text);
    doc.things.push(Thing::new("new", Box::new(Star::default())));
    let out = doc.to_xml();
    assert!(out.contains("<thing kind=\"Star\" name=\"b\"/>\n  <thing kind=\"Star\" name=\"new\">\n"), "{out}");
    let (again, _) = load(&out);
    assert_eq!(again.to_xml(), out);
}

#[test]
fn removing_a_thing_removes_its_text_and_nothing_else() {
    let (mut doc, _) = load(HAND_WRITTEN);
    doc.things.remove(1);
    assert_eq!(
        doc.to_xml(),
        HAND_WRITTEN.replace("\n  <thing kind=\"Star\" name=\"moon\"><position>-4 0.5</position></thing>", "")
    );
    // An empty root opens when a thing is added.
    let (mut doc, _) = load("<things/>\n<!-- end -->");
    doc.things.push(Thing::new("s", Box::new(Star::default())));
    let out = doc.to_xml();
    assert!(out.starts_with("<things>\n  <thing kind=\"Star\" name=\"s\">"), "{out}");
    assert!(out.ends_with("  </thing>\n</things>\n<!-- end -->"), "{out}");
    assert_eq!(load(&out).0.to_xml(), out);
}

#[test]
fn line_endings_and_a_byte_order_mark_come_back_as_read() {
    let text = "\u{FEFF}<things>\r\n  <thing kind=\"Star\" name=\"a\">\r\n    <parameter name=\"radius\" value=\"1\"/>\r\n  </thing>\r\n</things>\r\n";
    let (doc, _) = load(text);
    assert_eq!(doc.to_xml(), text);
}

#[test]
fn a_document_made_in_code_is_written_in_the_canonical_form() {
    let mut doc = Document::new();
    doc.comments.push(" hi ".into());
    doc.things.push(Thing::new("s", Box::new(Star::default())));
    let out = doc.to_xml();
    assert_eq!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n  <!-- hi -->\n  <thing kind=\"Star\" name=\"s\">\n    \
         <parameter name=\"position\" value=\"0 , 0\"/>\n    <parameter name=\"points\" value=\"5\"/>\n    \
         <parameter name=\"radius\" value=\"2\"/>\n    <parameter name=\"spin\" value=\"0\"/>\n  </thing>\n</things>\n"
    );
    // Forgetting the source of a loaded document gives the same form.
    let (mut loaded, _) = load(&out.replace("  <!-- hi -->\n", "<!-- hi -->"));
    loaded.forget_source();
    assert_eq!(loaded.to_xml(), out);
}

// ---------------------------------------------------------------------------------------------
// Property: random documents with random unknown elements at random depths.

/// XML-safe text for names and values (escaped where needed).
fn attr_text() -> impl Strategy<Value = String> {
    "[a-z0-9 ,.&<>\"'-]{0,8}"
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Some stray content: an element with attributes and children, nested up to `depth`.
fn stray(depth: u32) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        ("[a-z]{1,6}", attr_text()).prop_map(|(n, v)| format!("<{n} a=\"{}\"/>", escape(&v))),
        attr_text().prop_map(|c| format!("<!--{}-->", c.replace('-', "_"))),
        ("[a-z]{1,6}", "[a-z0-9 ]{0,6}").prop_map(|(n, t)| format!("<{n}>{t}</{n}>")),
        Just("<![CDATA[ <x> ]]>".to_string()),
        Just("<thing kind=\"Star\" name=\"deep\"/>".to_string()),
    ];
    leaf.prop_recursive(depth, 16, 4, |inner| {
        ("[a-z]{1,6}", prop::collection::vec(inner, 0..4), "[ \n\t]{0,3}")
            .prop_map(|(n, kids, ws)| format!("<{n} x='1'>{ws}{}{ws}</{n}>", kids.concat()))
    })
}

fn ws() -> impl Strategy<Value = String> {
    "[ \n\t]{0,4}"
}

/// One parameter element of a star: a good value, a bad one, an unknown parameter, or a
/// parameter element with stray content inside.
fn param() -> impl Strategy<Value = String> {
    prop_oneof![
        (-100i32..100).prop_map(|p| format!("<parameter name=\"points\" value=\"{}\"/>", p.unsigned_abs())),
        (-1e3f32..1e3).prop_map(|r| format!("<parameter name=\"radius\" value=\"{r}\"/>")),
        ((-9i8..9), (-9i8..9)).prop_map(|(x, y)| format!("<parameter name='position' value='{x} , {y}'/>")),
        attr_text().prop_map(|v| format!("<parameter name=\"points\" value=\"{}\"/>", escape(&v))),
        ("[a-z]{1,5}", attr_text()).prop_map(|(n, v)| format!("<parameter name=\"{n}\" value=\"{}\"/>", escape(&v))),
        stray(2).prop_map(|s| format!("<parameter name=\"spin\" value=\"1\">{s}</parameter>")),
        ("points|radius|gone", attr_text())
            .prop_map(|(n, v)| format!("<rejected name=\"{n}\" value=\"{}\"/>", escape(&v))),
    ]
}

fn thing() -> impl Strategy<Value = String> {
    let content = prop::collection::vec((ws(), prop_oneof![3 => param(), 1 => stray(3)]), 0..6);
    prop_oneof![
        (attr_text(), content, ws()).prop_map(|(name, parts, end)| {
            let body: String = parts.into_iter().map(|(w, p)| format!("{w}{p}")).collect();
            format!("<thing kind=\"Star\" name=\"{}\">{body}{end}</thing>", escape(&name))
        }),
        attr_text().prop_map(|name| format!("<thing kind=\"Star\" name=\"{}\" />", escape(&name))),
        Just("<thing kind=\"Dragon\" name=\"d\"><parameter name=\"fire\" value=\"1\"/></thing>".to_string()),
        stray(3),
    ]
}

fn document() -> impl Strategy<Value = String> {
    (prop::collection::vec((ws(), thing()), 0..6), ws(), any::<bool>()).prop_map(|(things, end, decl)| {
        let body: String = things.into_iter().map(|(w, t)| format!("{w}{t}")).collect();
        let decl = if decl { "<?xml version=\"1.0\"?>\n" } else { "" };
        format!("{decl}<things>{body}{end}</things>\n")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Open and save with no edit writes back exactly what was read.
    #[test]
    fn open_and_save_is_the_identity(text in document()) {
        let (doc, _) = load(&text);
        prop_assert_eq!(doc.to_xml(), text);
    }

    /// After an edit of one parameter of one star, the saved file reads back with that value,
    /// every other thing and the rest of the text unchanged, and saves back unchanged.
    #[test]
    fn an_edit_reads_back_and_leaves_the_rest(
        text in document(),
        star in thing().prop_filter("a star", |t| t.starts_with("<thing kind=\"Star\"")),
        pick in any::<prop::sample::Index>(),
        radius in -1e3f32..1e3,
        rename in any::<bool>(),
    ) {
        // At least one star to edit.
        let text = text.replacen("<things>", &format!("<things>{star}"), 1);
        let (mut doc, _) = load(&text);
        let i = pick.index(doc.things.len());
        if rename {
            doc.things[i].name = format!("renamed <{radius}> & \"co\"");
        } else {
            doc.things[i].set_text("radius", &radius.to_string()).unwrap();
        }
        let names: Vec<String> = doc.things.iter().map(|t| t.name.clone()).collect();
        let others: Vec<String> = doc.things.iter().map(|t| t.value.to_text()).collect();
        let saved = doc.to_xml();
        let (again, _) = load(&saved);
        let now: Vec<String> = again.things.iter().map(|t| t.value.to_text()).collect();
        prop_assert_eq!(now, others);
        let names_now: Vec<String> = again.things.iter().map(|t| t.name.clone()).collect();
        prop_assert_eq!(names_now, names);
        prop_assert_eq!(again.to_xml(), saved.clone());
        // The edit changed one contiguous region of the old text, inside one tag (a value, or
        // a `<rejected` element renamed with its value), or only inserted an element.
        let common_prefix = text.bytes().zip(saved.bytes()).take_while(|(a, b)| a == b).count();
        let common_suffix = text.bytes().rev().zip(saved.bytes().rev()).take_while(|(a, b)| a == b).count();
        let common_suffix = common_suffix.min(text.len() - common_prefix);
        let changed = &text[common_prefix..text.len() - common_suffix];
        prop_assert!(!changed.contains(['<', '>']), "more than one value changed:\n{}\n---\n{}", text, saved);
    }
}
