//! Nothing lost: outputs are written whole or not at all, never over an existing file unasked,
//! never two onto one; bad inputs and huge claims are refused before anything is written.

use std::path::Path;
#[cfg(unix)]
use std::process::Command;

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container::{Encoder, MAX_CHUNK_FRAMES};
use lore_bitpack_audio::{Audio, Effort, Settings, container, wav};

mod common;
use common::{bitpack, scratch};

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn tone(n: usize) -> Audio {
    let samples = (0..n).map(|i| ((i as f32 * 0.02).sin() * 15000.0) as i16).collect();
    Audio { sample_rate: 22050, channels: 1, bits: 16, samples }
}

/// The names in `dir`, sorted (temporary files would show here).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[cfg(unix)]
fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

#[cfg(unix)]
fn mount_tmpfs(dir: &Path, options: &str) {
    let ok = Command::new("mount").args(["-t", "tmpfs", "-o", options, "tmpfs", path(dir)]).status().unwrap();
    assert!(ok.success(), "mount -t tmpfs -o {options} failed");
}

#[cfg(unix)]
fn unmount(dir: &Path) {
    let _ = Command::new("umount").arg(dir).status();
}

#[test]
fn an_existing_output_is_replaced_only_with_force() {
    let dir = scratch("safety-force");
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&tone(5000)).unwrap()).unwrap();
    let b = dir.join("tone.bpk");
    std::fs::write(&b, b"precious").unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&w)]);
    assert!(!ok && err.contains("tone.bpk already exists; nothing was written (use --force"), "{err}");
    assert_eq!(std::fs::read(&b).unwrap(), b"precious");
    let (ok, _, err) = bitpack(&["encode", path(&w), "--force"]);
    assert!(ok, "{err}");
    assert_eq!(container::decode(&std::fs::read(&b).unwrap()).unwrap(), tone(5000));
    // Decoding next to the source WAV would replace it: refused.
    let (ok, _, err) = bitpack(&["decode", path(&b)]);
    assert!(!ok && err.contains("tone.wav already exists"), "{err}");
    assert_eq!(names(&dir), ["tone.bpk", "tone.wav"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_inputs_onto_one_output_are_refused_before_anything_is_written() {
    let dir = scratch("safety-same-name");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("x.wav"), wav::write(&tone(3000)).unwrap()).unwrap();
    }
    std::fs::write(dir.join("a/y.wav"), wav::write(&tone(2000)).unwrap()).unwrap();
    let out = dir.join("out");
    let (ok, _, err) = bitpack(&["encode", path(&dir.join("a")), path(&dir.join("b")), "-o", path(&out)]);
    assert!(!ok, "{err}");
    assert!(err.contains("a/x.wav and ") && err.contains("b/x.wav would both be written to"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    // Not even y.bpk, which comes first.
    assert!(!out.exists() || names(&out).is_empty());
    // The same file twice is the same case.
    let x = dir.join("a/x.wav");
    let (ok, _, err) = bitpack(&["encode", path(&x), path(&x), "--force"]);
    assert!(!ok && err.contains("would both be written"), "{err}");
    assert!(!dir.join("a/x.bpk").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A target that is a link to an input is the input: refused, even with --force.
#[test]
#[cfg(unix)]
fn a_target_linked_to_an_input_is_refused() {
    let dir = scratch("safety-link");
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&tone(3000)).unwrap()).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&w, out.join("tone.bpk")).unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&w), "-o", path(&out), "--force"]);
    assert!(!ok && err.contains("would be written over the input"), "{err}");
    assert_eq!(wav::read(&std::fs::read(&w).unwrap()).unwrap(), tone(3000));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg(unix)]
fn a_read_only_folder_fails_cleanly_and_keeps_the_original() {
    let dir = scratch("safety-read-only");
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&tone(4000)).unwrap()).unwrap();
    let ro = dir.join("ro");
    std::fs::create_dir_all(&ro).unwrap();
    // Root ignores permission bits, so as root the folder is a read-only tmpfs instead.
    let root = is_root();
    if root {
        mount_tmpfs(&ro, "size=1m");
    }
    std::fs::write(ro.join("tone.bpk"), b"precious").unwrap();
    if root {
        let ok = Command::new("mount").args(["-o", "remount,ro", path(&ro)]).status().unwrap();
        assert!(ok.success(), "remount ro");
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let (ok, _, err) = bitpack(&["encode", path(&w), "-o", path(&ro), "--force"]);
    let kept = std::fs::read(ro.join("tone.bpk")).unwrap();
    let left = names(&ro);
    if root {
        unmount(&ro);
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert!(!ok);
    assert!(err.contains("cannot create a temporary file") && err.contains("the original is untouched"), "{err}");
    assert_eq!(kept, b"precious");
    assert_eq!(left, ["tone.bpk"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tmpfs of 64 KiB fills up in the middle of a 400 KB encode and a 2.6 MB decode.
#[test]
#[cfg(unix)]
#[ignore = "mounts a tmpfs: run as root with --ignored"]
fn a_full_disk_leaves_the_original_whole() {
    assert!(is_root(), "this test mounts a 64 KiB tmpfs and needs root");
    let dir = scratch("safety-full");
    let noise: Vec<i16> = (0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 16) as i16).collect();
    let w = dir.join("noise.wav");
    std::fs::write(&w, wav::write(&Audio { sample_rate: 44100, channels: 1, bits: 16, samples: noise }).unwrap())
        .unwrap();
    let small = dir.join("small");
    std::fs::create_dir_all(&small).unwrap();
    mount_tmpfs(&small, "size=64k");
    std::fs::write(small.join("noise.bpk"), b"precious").unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&w), "-o", path(&small), "--force"]);
    let kept = std::fs::read(small.join("noise.bpk")).unwrap();
    let left = names(&small);
    // Decoding into the full folder fails the same way.
    let (_, _, _) = bitpack(&["encode", path(&w), "-o", path(&dir)]);
    std::fs::write(small.join("noise.wav"), b"also precious").unwrap();
    let (ok2, _, err2) = bitpack(&["decode", path(&dir.join("noise.bpk")), "-o", path(&small), "--force"]);
    let kept2 = std::fs::read(small.join("noise.wav")).unwrap();
    let left2 = names(&small);
    unmount(&small);
    assert!(!ok && err.contains("No space left on device") && err.contains("the original file is untouched"), "{err}");
    assert_eq!(kept, b"precious");
    assert_eq!(left, ["noise.bpk"]);
    assert!(!ok2 && err2.contains("the original file is untouched"), "{err2}");
    assert_eq!(kept2, b"also precious");
    assert_eq!(left2, ["noise.bpk", "noise.wav"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder encode fills the 64 KiB tmpfs at its second file: the first, still waiting in its
/// batch, is committed whole; the second and third leave no file and no temporary file.
#[test]
#[cfg(unix)]
#[ignore = "mounts a tmpfs: run as root with --ignored"]
fn a_full_disk_in_the_middle_of_a_folder_keeps_what_came_before() {
    assert!(is_root(), "this test mounts a 64 KiB tmpfs and needs root");
    let dir = scratch("safety-full-batch");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let noise: Vec<i16> = (0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 16) as i16).collect();
    let loud = Audio { sample_rate: 44100, channels: 1, bits: 16, samples: noise };
    std::fs::write(src.join("a.wav"), wav::write(&tone(5000)).unwrap()).unwrap();
    std::fs::write(src.join("b.wav"), wav::write(&loud).unwrap()).unwrap();
    std::fs::write(src.join("c.wav"), wav::write(&tone(3000)).unwrap()).unwrap();
    let small = dir.join("small");
    std::fs::create_dir_all(&small).unwrap();
    mount_tmpfs(&small, "size=64k");
    std::fs::write(small.join("c.bpk"), b"precious").unwrap();
    let (ok, out, err) = bitpack(&["encode", path(&src), "-o", path(&small), "--force"]);
    let a = std::fs::read(small.join("a.bpk"));
    let c = std::fs::read(small.join("c.bpk")).unwrap();
    let left = names(&small);
    unmount(&small);
    assert!(!ok && err.contains("b.bpk") && err.contains("No space left on device"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(container::decode(&a.unwrap()).unwrap(), tone(5000));
    assert!(out.contains("a.wav -> ") && !out.contains("b.wav -> "), "{out}");
    assert_eq!(c, b"precious");
    assert_eq!(left, ["a.bpk", "c.bpk"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn classic_defaults_to_option_3_and_decodes_from_its_sidecar() {
    let dir = scratch("safety-classic");
    // Quiet offset noise: Gray alone (option 2) beats delta + Gray here, as in the post's table.
    let mut x = 12345u32;
    let samples: Vec<i16> = (0..4000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 16) % 256) as i16
        })
        .collect();
    let (_, best) = classic::pack_best(&samples).unwrap();
    assert_ne!(best, Options::DELTA_GRAY, "the signal must tell the default from the best");
    let audio = Audio { sample_rate: 16000, channels: 1, bits: 16, samples: samples.clone() };
    let w = dir.join("voice.wav");
    std::fs::write(&w, wav::write(&audio).unwrap()).unwrap();
    let (ok, out, err) = bitpack(&["encode", path(&w), "--format", "classic"]);
    assert!(ok && out.contains("option=3"), "{out} {err}");
    let reference = classic::pack(&samples, Options::DELTA_GRAY).unwrap();
    assert_eq!(std::fs::read(dir.join("voice.bits")).unwrap(), reference.bytes);
    let meta = std::fs::read_to_string(dir.join("voice.bits.meta")).unwrap();
    assert!(meta.contains("rate = 16000") && meta.contains("option = 3"), "{meta}");
    let (ok, out, err) = bitpack(&["encode", path(&w), "--format", "classic", "--option", "best", "--force"]);
    assert!(ok && out.contains(&format!("option={}", best.flags())), "{out} {err}");
    assert_eq!(std::fs::read(dir.join("voice.bits")).unwrap(), classic::pack_best(&samples).unwrap().0.bytes);
    // Decoding next to the source is refused; into a folder it takes every parameter from the
    // sidecar, the sample rate included.
    let bits = dir.join("voice.bits");
    let (ok, _, err) = bitpack(&["decode", path(&bits), "--format", "classic"]);
    assert!(!ok && err.contains("voice.wav already exists"), "{err}");
    let back = dir.join("back");
    let (ok, _, err) = bitpack(&["decode", path(&bits), "--format", "classic", "-o", path(&back)]);
    assert!(ok, "{err}");
    assert_eq!(wav::read(&std::fs::read(back.join("voice.wav")).unwrap()).unwrap(), audio);
    // Without a sidecar, the rate must be given.
    std::fs::remove_file(dir.join("voice.bits.meta")).unwrap();
    let n = samples.len().to_string();
    let args = ["decode", path(&bits), "--format", "classic", "--samples", &n, "--option", "2", "-o", path(&back)];
    let (ok, _, err) = bitpack(&[&args[..], &["--force"]].concat());
    assert!(!ok && err.contains("--rate is required"), "{err}");
    let (ok, _, err) = bitpack(&[&args[..], &["--force", "--rate", "8000"]].concat());
    assert!(ok, "{err}");
    let got = wav::read(&std::fs::read(back.join("voice.wav")).unwrap()).unwrap();
    assert_eq!(got.sample_rate, 8000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crafted_8_bit_header_over_16_bit_data_fails_decode_and_test() {
    let dir = scratch("safety-crafted");
    let mut audio = tone(5000);
    audio.bits = 8;
    let file = container::encode(&audio, Settings::default()).unwrap();
    let b = dir.join("lie.bpk");
    std::fs::write(&b, &file).unwrap();
    let (ok, out, _) = bitpack(&["test", path(&b)]);
    assert!(
        !ok && out.contains("FAILED: ") && out.contains("8-bit file decodes to samples with low bits set"),
        "{out}"
    );
    let (ok, _, err) = bitpack(&["decode", path(&b)]);
    assert!(!ok && err.contains("low bits set") && err.contains("nothing was written"), "{err}");
    assert_eq!(names(&dir), ["lie.bpk"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A valid `.bpk` file of `chunks` chunks of 2^20 stereo frames of silence. The chunks are all the
/// same bytes, so one is encoded and repeated, with the chunk table the encoder would write.
fn silent_bomb(chunks: u64) -> Vec<u8> {
    let settings = Settings { effort: Effort::Fast, chunk_frames: MAX_CHUNK_FRAMES };
    let (mut enc, mut file) = Encoder::new(44_100, 2, 16, chunks << 20, settings).unwrap();
    let mut one = Vec::new();
    enc.feed(&vec![0i16; 2 << 20], &mut one).unwrap();
    let mut table = Vec::new();
    for _ in 0..chunks {
        table.extend_from_slice(&(file.len() as u64).to_le_bytes());
        file.extend_from_slice(&one);
    }
    file.extend_from_slice(&table);
    file.extend_from_slice(&lore_bitpack_audio::crc32(&table).to_le_bytes());
    file.extend_from_slice(b"KPBL");
    assert_eq!(container::Reader::new(&file).unwrap().chunks() as u64, chunks);
    file
}

#[test]
fn a_small_file_claiming_512_mib_is_refused_quickly_by_every_command() {
    let dir = scratch("safety-huge");
    // 128 chunks of 2^20 stereo frames of silence: exactly 2^28 samples (the --max-samples
    // default), 512 MiB of PCM, in under 3 KB.
    let bytes = silent_bomb(128);
    assert!(bytes.len() < 3000, "{} bytes", bytes.len());
    let bomb = dir.join("bomb.bpk");
    std::fs::write(&bomb, &bytes).unwrap();
    for cmd in ["decode", "test", "stats"] {
        let (ok, out, err) = bitpack(&[cmd, path(&bomb)]);
        assert!(!ok, "{cmd}: {out}");
        let said = format!("file claims {} samples", 1u64 << 28);
        let both = format!("{out}{err}");
        assert!(both.contains(&said) && both.contains("raise it with --max-ratio"), "{cmd}: {both}");
    }
    assert_eq!(names(&dir), ["bomb.bpk"]);
    // A raised ratio lets a smaller one through (8 chunks, 32 MiB of PCM from a few hundred bytes).
    let bytes = silent_bomb(8);
    let smaller = dir.join("smaller.bpk");
    std::fs::write(&smaller, &bytes).unwrap();
    let (ok, out, _) = bitpack(&["test", path(&smaller)]);
    assert!(!ok && out.contains("raise it with --max-ratio"), "{out}");
    let (ok, out, err) = bitpack(&["test", path(&smaller), "--max-ratio", "1000000"]);
    assert!(ok && out.contains("OK (8388608 frames, 2 ch)"), "{out} {err}");
    std::fs::remove_file(&smaller).unwrap();
    // The classic stream's sample count meets the same cap: 4 bytes cannot make a million samples.
    let bits = dir.join("tiny.bits");
    std::fs::write(&bits, [0u8; 4]).unwrap();
    let args = ["decode", path(&bits), "--format", "classic", "--samples", "1000000", "--rate", "8000"];
    let (ok, _, err) = bitpack(&args);
    assert!(!ok && err.contains("raise it with --max-ratio"), "{err}");
    assert!(!dir.join("tiny.wav").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trailing_incomplete_stereo_frame_is_reported() {
    let dir = scratch("safety-partial");
    let stereo =
        Audio { sample_rate: 8000, channels: 2, bits: 16, samples: (0..2000).map(|i| (i * 7) as i16).collect() };
    let mut bytes = wav::write(&stereo).unwrap();
    bytes.extend_from_slice(&5i16.to_le_bytes());
    let len = u32::from_le_bytes(bytes[40..44].try_into().unwrap()) + 2;
    bytes[40..44].copy_from_slice(&len.to_le_bytes());
    let riff = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) + 2;
    bytes[4..8].copy_from_slice(&riff.to_le_bytes());
    let w = dir.join("cut.wav");
    std::fs::write(&w, &bytes).unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&w)]);
    assert!(ok, "{err}");
    assert!(
        err.contains("cut.wav: the data ends inside a frame; the last 1 sample(s) of an incomplete 2-channel frame"),
        "{err}"
    );
    assert_eq!(container::decode(&std::fs::read(dir.join("cut.bpk")).unwrap()).unwrap(), stereo);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = scratch("safety-progress");
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&tone(200_000)).unwrap()).unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&w), "--chunk", "256"]);
    assert!(ok && err.is_empty(), "{err}");
    let (ok, _, err) = bitpack(&["encode", path(&w), "--chunk", "256", "--force", "--progress", "always"]);
    assert!(ok && err.contains("100%"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
