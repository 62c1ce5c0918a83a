//! A user's files survive every failure: the level given on the command line is the one
//! opened, a file the session did not read is never replaced without a second save, and a
//! save that fails (read-only directory, full disk) leaves the file as it was.
//!
//! The read-only and full-disk tests mount a small tmpfs, which needs root: they are ignored in a
//! plain `cargo test` and run by `scripts/test.sh` as root (`cargo test -- --ignored`); without
//! root they fail with a message saying so.

use lore_editor::EditorDemo;
use lore_editor::editor::{Editor, SaveOutcome};
use lore_render::Demo;
use lore_render::glam::Vec2;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lore-editor-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// A tmpfs of `size` mounted on a fresh directory, unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn new(name: &str, size: &str) -> Self {
        let dir = scratch(name);
        let status =
            Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(&dir).status();
        assert!(
            status.is_ok_and(|s| s.success()),
            "mounting a tmpfs on {} failed: this test needs root (it simulates a full disk / read-only directory)",
            dir.display()
        );
        Self(dir)
    }

    fn read_only(&self) {
        let ok = Command::new("mount").args(["-o", "remount,ro"]).arg(&self.0).status().is_ok_and(|s| s.success());
        assert!(ok, "remounting {} read-only failed", self.0.display());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An editor on `file` holding `n` disks.
fn editor_with(file: PathBuf, n: usize) -> Editor {
    let mut ed = Editor::new(file);
    for i in 0..n {
        ed.add("Disk", Vec2::new(i as f32, 0.0)).unwrap();
    }
    ed
}

#[test]
fn the_level_on_the_command_line_is_opened_and_a_missing_one_created_on_save() {
    let dir = scratch("open");
    let mine = dir.join("mine.xml");
    // Missing: an empty level, nothing written until the first save.
    let mut demo = EditorDemo::opening(mine.clone());
    demo.reset(1);
    assert!(demo.editor().doc.things.is_empty());
    assert!(demo.editor().status.contains("created on the first save"), "{}", demo.editor().status);
    assert!(!mine.exists());
    // Stepping with no input plays no scripted session over the user's level.
    for _ in 0..120 {
        demo.step(&lore_render::Input::default());
    }
    assert!(demo.editor().doc.things.is_empty());

    let mut ed = editor_with(mine.clone(), 3);
    assert_eq!(ed.save(), SaveOutcome::Saved, "{}", ed.status);
    let saved = std::fs::read_to_string(&mine).unwrap();
    // Existing: opened as it is.
    let mut demo = EditorDemo::opening(mine.clone());
    demo.reset(1);
    assert_eq!(demo.editor().doc.things.len(), 3);
    assert_eq!(demo.editor().doc.to_xml(), saved);
    assert_eq!(demo.editor().history(), (0, 0));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_built_in_level_is_not_saved_over_a_users_file_without_a_second_save() {
    let dir = scratch("builtin");
    let mine = dir.join("level.xml");
    std::fs::write(&mine, "<things/>\n<!-- my work -->\n").unwrap();
    let mut demo = EditorDemo::new(mine.clone());
    demo.reset(1);
    let mut ed = Editor::new(mine.clone());
    ed.load_xml(lore_editor::LEVEL).unwrap();
    assert_eq!(ed.save(), SaveOutcome::NeedsConfirmation);
    assert!(ed.status.contains("save again"), "{}", ed.status);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "<things/>\n<!-- my work -->\n");
    assert_eq!(ed.save(), SaveOutcome::Saved, "the second save is the confirmation");
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), ed.doc.to_xml());
    // Saved once, the file is the session's: later saves need no confirmation.
    ed.add("Disk", Vec2::ZERO).unwrap();
    assert_eq!(ed.save(), SaveOutcome::Saved);
    // Where no file exists, the built-in level saves at once.
    let mut fresh = Editor::new(dir.join("new.xml"));
    fresh.load_xml(lore_editor::LEVEL).unwrap();
    assert_eq!(fresh.save(), SaveOutcome::Saved);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn after_a_failed_load_the_file_is_not_saved_over_until_the_user_confirms() {
    let dir = scratch("broken");
    let mine = dir.join("mine.xml");
    let mut good = editor_with(mine.clone(), 2);
    assert_eq!(good.save(), SaveOutcome::Saved);
    // The user's file loses one `</thing>`: fixable by hand, and must survive.
    let broken = std::fs::read_to_string(&mine).unwrap().replacen("  </thing>\n", "", 1);
    std::fs::write(&mine, &broken).unwrap();

    let mut ed = editor_with(mine.clone(), 5);
    ed.load();
    assert!(ed.status.contains("could not load"), "{}", ed.status);
    assert_eq!(ed.doc.things.len(), 5, "the document on screen stays");
    assert_eq!(ed.save(), SaveOutcome::NeedsConfirmation);
    assert!(ed.status.contains("could not be loaded"), "{}", ed.status);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), broken);
    assert_eq!(ed.save(), SaveOutcome::Saved);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), ed.doc.to_xml());

    // The same when opening it at start.
    std::fs::write(&mine, &broken).unwrap();
    let mut demo = EditorDemo::opening(mine.clone());
    demo.reset(1);
    assert!(demo.editor().status.contains("could not load"), "{}", demo.editor().status);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn names_xml_cannot_carry_are_refused_on_save() {
    let dir = scratch("names");
    let mine = dir.join("mine.xml");
    let mut ed = editor_with(mine.clone(), 1);
    ed.doc.things[0].name = "a\u{0}b".into();
    assert_eq!(ed.save(), SaveOutcome::Failed);
    assert!(ed.status.contains("U+0000") && ed.status.contains("untouched"), "{}", ed.status);
    assert!(!mine.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
#[ignore = "mounts a tmpfs: run as root with --ignored"]
fn a_save_into_a_read_only_directory_fails_and_says_the_file_is_untouched() {
    let fs = Tmpfs::new("readonly", "256k");
    let mine = fs.0.join("mine.xml");
    let mut ed = editor_with(mine.clone(), 3);
    assert_eq!(ed.save(), SaveOutcome::Saved);
    let before = std::fs::read(&mine).unwrap();
    fs.read_only();
    ed.add("Disk", Vec2::ZERO).unwrap();
    assert_eq!(ed.save(), SaveOutcome::Failed);
    assert!(ed.status.contains("could not save") && ed.status.contains("untouched"), "{}", ed.status);
    assert_eq!(std::fs::read(&mine).unwrap(), before);
    assert_eq!(names_in(&fs.0), ["mine.xml"]);
}

#[test]
#[ignore = "mounts a tmpfs: run as root with --ignored"]
fn a_save_onto_a_full_disk_leaves_the_level_as_it_was() {
    let fs = Tmpfs::new("full", "64k");
    let mine = fs.0.join("mine.xml");
    let mut ed = editor_with(mine.clone(), 180);
    assert_eq!(ed.save(), SaveOutcome::Saved, "{}", ed.status);
    let before = std::fs::read(&mine).unwrap();
    assert!(before.len() > 32 << 10, "the level fills over half the disk: {} bytes", before.len());
    for i in 0..50 {
        ed.add("Disk", Vec2::new(0.0, i as f32)).unwrap();
    }
    assert_eq!(ed.save(), SaveOutcome::Failed, "{}", ed.status);
    assert!(ed.status.contains("untouched"), "{}", ed.status);
    assert_eq!(std::fs::read(&mine).unwrap(), before, "the level on disk is whole");
    assert_eq!(names_in(&fs.0), ["mine.xml"], "no temporary file left behind");
    // Once there is room again, the save goes through.
    ed.doc.things.truncate(100);
    assert_eq!(ed.save(), SaveOutcome::Saved, "{}", ed.status);
}
