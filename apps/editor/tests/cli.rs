//! `lore-editor --level FILE` itself, headless, with scripted edits and saves (`--set`,
//! `--save`): the bytes on disk afterwards are what the user had, apart from what was edited,
//! whatever the file holds that the editor does not understand; a file that did not load, or
//! loaded with problems, is replaced only on a second save.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lore-editor-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the editor on `file` with `args`: its exit code and what it printed.
fn editor(file: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lore-editor"))
        .arg("--level")
        .arg(file)
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the editor runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().expect("an exit code, not a signal"), text)
}

fn bytes(file: &Path) -> Vec<u8> {
    std::fs::read(file).unwrap()
}

/// The issue's file: values written as child elements, a comment.
const HAND_WRITTEN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<things>
  <!-- my level, written by hand -->
  <thing kind="Star" name="sun">
    <position>1 2</position>
    <points>7</points>
    <radius>2.5</radius>
  </thing>
  <thing kind="Disk" name="rock">
    <position>4 -3</position>
    <radius>1</radius>
  </thing>
</things>
"#;

#[test]
fn a_hand_written_file_is_not_saved_over_silently_and_comes_back_byte_for_byte() {
    let dir = scratch("hand");
    let mine = dir.join("mine.xml");
    std::fs::write(&mine, HAND_WRITTEN).unwrap();
    // One save asks first, naming what the editor did not understand.
    let (code, out) = editor(&mine, &["--save"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("only partly understood") && out.contains("element <position>"), "{out}");
    assert!(out.contains("save again"), "{out}");
    assert_eq!(bytes(&mine), HAND_WRITTEN.as_bytes());
    // Confirmed, the save writes back exactly what was read.
    let (code, out) = editor(&mine, &["--save", "--save"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("saved"), "{out}");
    assert_eq!(String::from_utf8(bytes(&mine)).unwrap(), HAND_WRITTEN);
    // An edit adds the one parameter and touches nothing else.
    let (code, out) = editor(&mine, &["--set", "sun", "radius", "3", "--save", "--save"]);
    assert_eq!(code, 0, "{out}");
    let want = HAND_WRITTEN.replace(
        "    <radius>2.5</radius>\n  </thing>\n  <thing kind=\"Disk\"",
        "    <radius>2.5</radius>\n    <parameter name=\"radius\" value=\"3\"/>\n  </thing>\n  <thing kind=\"Disk\"",
    );
    assert_eq!(String::from_utf8(bytes(&mine)).unwrap(), want);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A file with everything the editor does not understand: unknown kinds, unknown elements and
/// attributes, values that do not read, a misplaced thing, comments, odd spacing and quotes.
const MIXED: &str = "<?xml version='1.0'?>\r\n<!-- level 3 -->\r\n<things version=\"9\">\r\n\
  <thing kind=\"Star\" name=\"sun\" layer=\"2\">\r\n\
  \t<parameter name=\"position\"  value=\"-4 , 4.50\"/>\r\n\
  \t<parameter name=\"points\" value=\"seven\"/>\r\n\
  \t<parameter name=\"radius\" value='1.5' unit=\"m\"/>\r\n\
  \t<glow strength=\"3\"><!-- future --></glow>\r\n\
  \t<parameter name=\"sparkle\" value=\"yes\"/>\r\n\
  </thing>\r\n\
  <thing kind=\"Dragon\" name=\"smaug\"><parameter name=\"fire\" value=\"9000\"/></thing>\r\n\
  <group><thing kind=\"Disk\" name=\"hidden\"/></group>\r\n\
  <thing kind=\"Disk\" name=\"rock\">\r\n\
  \t<parameter name=\"position\" value=\"4 , -3\"/>\r\n\
  \t<parameter name=\"radius\" value=\"1\"/>\r\n\
  \t<parameter name=\"color\" value=\"0.5 , 0.5 , 0.5 , 1\"/>\r\n\
  </thing>\r\n\
</things>\r\n<!-- end -->\r\n";

#[test]
fn what_the_editor_does_not_understand_survives_edits_byte_for_byte() {
    let dir = scratch("mixed");
    let mine = dir.join("mine.xml");
    std::fs::write(&mine, MIXED).unwrap();
    let (code, out) = editor(&mine, &["--save", "--save"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(String::from_utf8(bytes(&mine)).unwrap(), MIXED, "open and save changes nothing");

    // Edits: a value as written, the value that did not read, and a rename are replaced in
    // place; a parameter missing from the file is added; nothing else moves.
    let args = ["--set", "sun", "position", "1 , 2", "--set", "sun", "points", "6", "--set", "rock", "radius", "2"];
    let mut args = args.to_vec();
    args.extend(["--set", "sun", "inner", "0.25", "--save", "--save"]);
    let (code, out) = editor(&mine, &args);
    assert_eq!(code, 0, "{out}");
    let want = MIXED
        .replace("value=\"-4 , 4.50\"", "value=\"1 , 2\"")
        .replace("value=\"seven\"", "value=\"6\"")
        .replace("\t<parameter name=\"radius\" value=\"1\"/>\r\n", "\t<parameter name=\"radius\" value=\"2\"/>\r\n")
        .replace(
            "\t<parameter name=\"sparkle\" value=\"yes\"/>\r\n",
            "\t<parameter name=\"sparkle\" value=\"yes\"/>\r\n\t<parameter name=\"inner\" value=\"0.25\"/>\r\n",
        );
    assert_eq!(String::from_utf8(bytes(&mine)).unwrap(), want);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn missing_parameters_are_information_and_need_no_confirmation() {
    // A clean file from an older version: fewer fields than the kinds have now.
    let older = "<things>\n  <thing kind=\"Disk\" name=\"rock\">\n    <parameter name=\"radius\" value=\"1\"/>\n  </thing>\n</things>\n";
    let dir = scratch("older");
    let mine = dir.join("mine.xml");
    std::fs::write(&mine, older).unwrap();
    let (code, out) = editor(&mine, &["--save"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("loaded 1 things (2 parameters missing, defaults used)"), "{out}");
    assert!(!out.contains("problem"), "{out}");
    assert_eq!(String::from_utf8(bytes(&mine)).unwrap(), older, "defaults are not written");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_existing_a_missing_and_a_malformed_level() {
    let dir = scratch("files");
    // Existing, clean: saved at once, as it was.
    let existing = dir.join("existing.xml");
    std::fs::write(&existing, lore_editor::LEVEL).unwrap();
    let (code, out) = editor(&existing, &["--save"]);
    assert_eq!((code, bytes(&existing)), (0, lore_editor::LEVEL.as_bytes().to_vec()), "{out}");

    // Missing: nothing is written until a save, which creates an empty level.
    let missing = dir.join("missing.xml");
    let (code, out) = editor(&missing, &["--set", "sun", "radius", "1"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no thing called \"sun\""), "{out}");
    assert!(!missing.exists(), "a failed scripted edit writes nothing");
    let (code, out) = editor(&missing, &["--save"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("created on the first save"), "{out}");
    assert_eq!(
        String::from_utf8(bytes(&missing)).unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n</things>\n"
    );

    // Malformed: one save writes nothing and says why; the second replaces it (the user
    // confirmed), atomically: no temporary file is left behind.
    let malformed = dir.join("malformed.xml");
    let broken = lore_editor::LEVEL.replacen("  </thing>\n", "", 1);
    std::fs::write(&malformed, &broken).unwrap();
    let (code, out) = editor(&malformed, &["--save"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("could not load") && out.contains("could not be loaded"), "{out}");
    assert_eq!(bytes(&malformed), broken.as_bytes());
    // An edit that does not read changes nothing on disk either.
    let (code, out) = editor(&existing, &["--set", "pond", "radius", "wide", "--save"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("radius"), "{out}");
    assert_eq!(bytes(&existing), lore_editor::LEVEL.as_bytes());
    let (code, out) = editor(&malformed, &["--save", "--save"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        String::from_utf8(bytes(&malformed)).unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<things>\n</things>\n"
    );
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["existing.xml", "malformed.xml", "missing.xml"]);
    std::fs::remove_dir_all(dir).unwrap();
}
