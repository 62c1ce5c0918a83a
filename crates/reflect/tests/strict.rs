//! The strict loader: typed values from a thing document, refused whole on any problem but a
//! missing parameter.

use lore_reflect::{Document, Limits, Reflect, Registry, StrictError, load_strict, thing_value};

#[derive(Reflect, Clone, Debug, PartialEq)]
struct Mover {
    speed: f32,
    count: u32,
}

impl Default for Mover {
    fn default() -> Self {
        Self { speed: 2.5, count: 7 }
    }
}

#[derive(Reflect, Clone, Debug, Default, PartialEq)]
struct Other {
    x: f32,
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<Mover>().unwrap();
    r.register::<Other>().unwrap();
    r
}

fn load(text: &str) -> Result<Document, StrictError> {
    load_strict(text, &registry(), &Limits::default())
}

#[test]
fn values_come_out_typed_and_missing_parameters_keep_defaults() {
    let doc = load(
        r#"<things><thing kind="Mover" name="fast"><parameter name="speed" value="9"/></thing>
           <thing kind="Other" name="o"><parameter name="x" value="1"/></thing></things>"#,
    )
    .unwrap();
    assert_eq!(thing_value::<Mover>(&doc, "fast").unwrap(), Mover { speed: 9.0, count: 7 });
    assert_eq!(thing_value::<Other>(&doc, "o").unwrap(), Other { x: 1.0 });
    let missing = thing_value::<Mover>(&doc, "slow").unwrap_err();
    assert!(matches!(missing, StrictError::MissingThing { kind: "Mover", .. }), "{missing}");
    assert!(missing.to_string().contains("\"slow\""), "{missing}");
    let wrong = thing_value::<Mover>(&doc, "o").unwrap_err();
    assert!(matches!(wrong, StrictError::WrongKind { expected: "Mover", found: "Other", .. }), "{wrong}");
}

#[test]
fn any_other_problem_refuses_the_document_with_its_line() {
    let bad_value = load(
        "<things>\n<thing kind=\"Mover\" name=\"m\">\n<parameter name=\"speed\" value=\"fast\"/>\n</thing></things>",
    )
    .unwrap_err();
    let text = bad_value.to_string();
    assert!(text.contains("line 3") && text.contains("speed"), "{text}");
    let unknown = load(r#"<things><thing kind="Mover" name="m"><parameter name="sped" value="1"/></thing></things>"#);
    assert!(matches!(unknown, Err(StrictError::Problem(_))));
    let kind = load(r#"<things><thing kind="Nope" name="m"/></things>"#);
    assert!(matches!(kind, Err(StrictError::Problem(_))));
    let broken = load(r#"<things><thing kind="Mover" name="m">"#);
    assert!(matches!(broken, Err(StrictError::Load(_))));
}

#[test]
fn the_forgiving_loader_takes_what_the_strict_one_refuses() {
    // The same typo: the editor's loader keeps the document and reports the problem.
    let text = r#"<things><thing kind="Mover" name="m"><parameter name="sped" value="1"/></thing></things>"#;
    let (doc, report) = Document::from_xml(text, &registry()).unwrap();
    assert!(!report.is_clean());
    assert!(doc.get("m").is_some());
    assert!(load(text).is_err());
}

#[test]
fn limits_apply() {
    let text = r#"<things><thing kind="Mover" name="m"><parameter name="speed" value="1"/></thing></things>"#;
    let tiny = Limits { max_value_len: 2, ..Limits::default() };
    assert!(matches!(load_strict(text, &registry(), &tiny), Err(StrictError::Load(_))));
    // Three things, each missing `count`: missing parameters are notes, not problems, so
    // they cannot fill the report and hide a real problem behind them.
    let many = r#"<things><thing kind="Mover" name="a"/><thing kind="Mover" name="b"/>
        <thing kind="Mover" name="c"/></things>"#;
    assert!(load(many).is_ok());
    let short = Limits { max_problems: 2, ..Limits::default() };
    assert!(load_strict(many, &registry(), &short).is_ok());
    let typo = r#"<things><thing kind="Mover" name="a"/><thing kind="Mover" name="b">
        <parameter name="sped" value="1"/></thing></things>"#;
    let err = load_strict(typo, &registry(), &short).unwrap_err();
    assert!(matches!(err, StrictError::Problem(_)), "{err}");
    // A report that keeps no problem at all cannot vouch for the document.
    let none = Limits { max_problems: 0, ..Limits::default() };
    let err = load_strict(typo, &registry(), &none).unwrap_err();
    assert!(matches!(err, StrictError::Unchecked { kept: 0, omitted: 1 }), "{err}");
}

#[test]
fn read_capped_reads_a_file_refuses_a_larger_one_and_names_a_missing_one() {
    let dir = std::env::temp_dir().join(format!("lore-reflect-read-capped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kinds.xml");
    std::fs::write(&file, "<things/>").unwrap();
    assert_eq!(lore_reflect::read_capped(&file, 9).unwrap(), "<things/>");
    let err = lore_reflect::read_capped(&file, 8).unwrap_err();
    assert!(matches!(err, lore_reflect::FileError::TooLarge { len: 9, max: 8, .. }), "{err:?}");
    assert!(err.to_string().ends_with("kinds.xml: 9 bytes, more than the 8 allowed"), "{err}");
    let missing = dir.join("missing.xml");
    let err = lore_reflect::read_capped(&missing, 100).unwrap_err();
    assert!(matches!(err, lore_reflect::FileError::Io { .. }) && err.to_string().contains("missing.xml"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
