//! Runs the `bitpack` binary on generated WAV files.

use std::path::Path;

use lore_bitpack_audio::{Audio, container, wav};

mod common;
use common::{bitpack, scratch};

fn clips() -> Vec<(&'static str, Audio)> {
    let tone: Vec<i16> = (0..20000).map(|i| ((i as f32 * 0.02).sin() * 15000.0) as i16).collect();
    let stereo: Vec<i16> =
        (0..12000).map(|i| ((i / 2) as f32 * 0.011).sin() as i16 * 9000 + (i % 2) as i16 * 40).collect();
    let eight: Vec<i16> = (0..9000).map(|i| (((i as f32 * 0.05).sin() * 100.0) as i16) << 8).collect();
    vec![
        ("tone", Audio { sample_rate: 22050, channels: 1, bits: 16, samples: tone }),
        ("stereo", Audio { sample_rate: 44100, channels: 2, bits: 16, samples: stereo }),
        ("eight", Audio { sample_rate: 8363, channels: 1, bits: 8, samples: eight }),
    ]
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn folder_encode_test_decode_round_trip() {
    let dir = scratch("folder");
    let (inp, bpk, back) = (dir.join("in"), dir.join("bpk"), dir.join("back"));
    std::fs::create_dir_all(&inp).unwrap();
    for (name, a) in clips() {
        std::fs::write(inp.join(format!("{name}.wav")), wav::write(&a).unwrap()).unwrap();
    }
    for preset in ["classic", "fast", "max"] {
        let (ok, out, err) = bitpack(&[
            "encode",
            path(&inp),
            "-o",
            path(&bpk),
            "--preset",
            preset,
            "--chunk",
            "256",
            "--force",
            "--progress",
            "always",
        ]);
        assert!(ok, "{err}");
        assert_eq!(out.lines().count(), 3, "{out}");
        assert!(err.contains("100%"), "progress bar: {err}");
        let (ok, out, _) = bitpack(&["test", path(&bpk)]);
        assert!(ok && out.matches(": OK").count() == 3, "{out}");
        let (ok, _, err) = bitpack(&["decode", path(&bpk), "-o", path(&back), "--force"]);
        assert!(ok, "{err}");
        for (name, a) in clips() {
            let got = wav::read(&std::fs::read(back.join(format!("{name}.wav"))).unwrap()).unwrap();
            assert_eq!(got, a, "{preset} {name}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_file_fails_test_naming_the_chunk() {
    let dir = scratch("corrupt");
    let (_, a) = clips().remove(0);
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&a).unwrap()).unwrap();
    assert!(bitpack(&["encode", path(&w), "--chunk", "1024"]).0);
    let b = dir.join("tone.bpk");
    let clean = std::fs::read(&b).unwrap();
    let mut bytes = clean.clone();
    let first_len = u32::from_le_bytes(bytes[28..32].try_into().unwrap()) as usize;
    bytes[28 + 8 + first_len + 8 + 3] ^= 0x40; // inside chunk 1's payload
    std::fs::write(&b, &bytes).unwrap();
    let (ok, out, err) = bitpack(&["test", path(&b)]);
    assert!(!ok);
    assert!(out.contains("FAILED: ") && out.contains("tone.bpk: chunk 1: CRC32 mismatch"), "{out}");
    assert!(err.contains("1 of 1 files failed"), "{err}");
    std::fs::write(&b, &clean[..clean.len() / 2]).unwrap();
    let (ok, _, err) = bitpack(&["decode", path(&b), "--force"]);
    assert!(!ok && err.contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn classic_format_round_trip_and_stats() {
    let dir = scratch("classic");
    let (_, a) = clips().remove(0);
    let w = dir.join("tone.wav");
    std::fs::write(&w, wav::write(&a).unwrap()).unwrap();
    let (ok, out, err) = bitpack(&["encode", path(&w), "--format", "classic", "--option", "3"]);
    assert!(ok, "{err}");
    let bits = out.split("bits=").nth(1).unwrap().split_whitespace().next().unwrap().to_string();
    let (ok, _, err) = bitpack(&[
        "decode",
        path(&dir.join("tone.bits")),
        "--format",
        "classic",
        "--samples",
        "20000",
        "--bits",
        &bits,
        "--rate",
        "22050",
        "-o",
        path(&dir.join("back")),
    ]);
    assert!(ok, "{err}");
    assert_eq!(wav::read(&std::fs::read(dir.join("back/tone.wav")).unwrap()).unwrap(), a);
    let (ok, out, _) = bitpack(&["stats", path(&w), "--chunks", "--chunk", "5000"]);
    assert!(ok);
    // Header, four chunk rows and the total row.
    assert_eq!(out.lines().count(), 6, "{out}");
    let total: Vec<&str> = out.lines().last().unwrap().split('\t').collect();
    let opt: Vec<f64> = total[3..7].iter().map(|s| s.parse().unwrap()).collect();
    // Delta + Gray beats raw bits on a smooth tone, as in the post's table.
    assert!(opt[3] < opt[0], "{opt:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_limit_refuses_a_file_of_silence_claiming_gigabytes_and_the_flag_raises_it() {
    use lore_bitpack_audio::container::{Encoder, MAX_CHUNK_FRAMES};
    use lore_bitpack_audio::{Effort, Settings};
    let dir = scratch("limit");
    // 160 chunks of 2^20 stereo frames of silence: 640 MiB of PCM (more than the default 2^28
    // samples) in a file of a few KiB.
    let chunks = 160u64;
    let settings = Settings { effort: Effort::Fast, chunk_frames: MAX_CHUNK_FRAMES };
    let (mut enc, mut bytes) = Encoder::new(44_100, 2, 16, chunks << 20, settings).unwrap();
    let zeros = vec![0i16; 2 << 20];
    for _ in 0..chunks {
        enc.feed(&zeros, &mut bytes).unwrap();
    }
    enc.finish(&mut bytes).unwrap();
    assert!(bytes.len() < 4096, "{} bytes", bytes.len());
    let bomb = dir.join("bomb.bpk");
    std::fs::write(&bomb, &bytes).unwrap();
    let claimed = (2 * chunks) << 20;
    for cmd in ["decode", "test", "stats"] {
        let (ok, out, err) = bitpack(&[cmd, path(&bomb)]);
        assert!(!ok, "{cmd}: {out}");
        let said = format!("file claims {claimed} samples, more than the limit of {} samples", 1u64 << 28);
        assert!(out.contains(&said) || err.contains(&said), "{cmd}: {out} {err}");
    }
    assert!(!dir.join("bomb.wav").exists());
    // A small real file passes the default and is refused below its size.
    let (_, a) = clips().remove(1);
    let w = dir.join("stereo.wav");
    std::fs::write(&w, wav::write(&a).unwrap()).unwrap();
    assert!(bitpack(&["encode", path(&w)]).0);
    let b = dir.join("stereo.bpk");
    let n = a.samples.len().to_string();
    let below = (a.samples.len() - 1).to_string();
    assert!(bitpack(&["test", path(&b), "--max-samples", &n]).0);
    let (ok, _, err) = bitpack(&["decode", path(&b), "--max-samples", &below]);
    assert!(!ok && err.contains("raise it with --max-samples"), "{err}");
    // The classic stream's caller-given count is held to the same limit.
    let (ok, _, err) =
        bitpack(&["decode", path(&b), "--format", "classic", "--samples", "1000", "--max-samples", "999"]);
    assert!(!ok && err.contains("file claims 1000 samples, more than the limit of 999"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `file` column of `stats`' rows (header left out).
fn stats_rows(out: &str) -> Vec<String> {
    out.lines().skip(1).map(|l| l.split('\t').next().unwrap().to_string()).collect()
}

#[test]
fn stats_reports_each_file_once_for_several_files_and_a_folder() {
    let dir = scratch("stats-many");
    let (tone, stereo) = (clips().remove(0).1, clips().remove(1).1);
    let (a, b) = (dir.join("a.wav"), dir.join("b.wav"));
    std::fs::write(&a, wav::write(&tone).unwrap()).unwrap();
    std::fs::write(&b, wav::write(&stereo).unwrap()).unwrap();
    // Two files: one total row each, in the order given.
    let (ok, out, err) = bitpack(&["stats", path(&a), path(&b)]);
    assert!(ok, "{err}");
    assert_eq!(stats_rows(&out), [path(&a), path(&b)], "{out}");
    // A folder with a WAV, a .bpk and a file of neither kind; the same WAV also named on its
    // own: every WAV and .bpk of the folder once, the file named twice only at its first place.
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let c = sub.join("c.wav");
    std::fs::write(&c, wav::write(&tone).unwrap()).unwrap();
    std::fs::write(sub.join("notes.txt"), b"not audio").unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&b), "-o", path(&sub)]);
    assert!(ok, "{err}");
    let (ok, out, err) = bitpack(&["stats", path(&a), path(&sub), path(&a), path(&c)]);
    assert!(ok, "{err}");
    let bpk = sub.join("b.bpk");
    assert_eq!(stats_rows(&out), [path(&a), path(&bpk), path(&c)], "{out}");
    // The .bpk is read back decoded: its sample count is the WAV's.
    let row = out.lines().find(|l| l.starts_with(path(&bpk))).unwrap();
    assert_eq!(row.split('\t').nth(2), Some(stereo.samples.len().to_string().as_str()), "{row}");
    // A folder with neither kind is an error, not an empty table.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (ok, out, err) = bitpack(&["stats", path(&empty)]);
    assert!(!ok && err.contains("no .wav or .bpk input files"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder that cannot be listed fails `stats` with its name, instead of being left out of
/// the table (or, with nothing else given, reported as "no input files").
#[test]
#[cfg(unix)]
fn stats_on_a_folder_that_cannot_be_listed_fails_naming_it() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = scratch("stats-unlistable");
    let a = dir.join("a.wav");
    std::fs::write(&a, wav::write(&clips().remove(0).1).unwrap()).unwrap();
    let locked = dir.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::write(locked.join("b.wav"), wav::write(&clips().remove(0).1).unwrap()).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root lists any folder: the binary then runs as the unprivileged user `nobody`, for whom
    // the permission bits hold, from a copy in the scratch folder (the build may sit in a
    // folder only its owner can enter).
    let privileged = std::fs::read_dir(&locked).is_ok();
    let mut cmd = if privileged {
        let bin = dir.join("bitpack");
        std::fs::copy(env!("CARGO_BIN_EXE_bitpack"), &bin).unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = std::process::Command::new(bin);
        cmd.uid(65534).gid(65534);
        cmd
    } else {
        std::process::Command::new(env!("CARGO_BIN_EXE_bitpack"))
    };
    cmd.args(["stats", path(&a), path(&locked)]);
    let o = cmd.output().unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(!o.status.success(), "privileged {privileged}: {out}{err}");
    assert!(err.contains(path(&locked)) && err.contains("cannot list the folder"), "privileged {privileged}: {err}");
    assert!(err.contains("Permission denied"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 24-bit 6-channel clip (5.1) with the 24-bit limits, silence and a full-scale square.
fn surround() -> Audio<i32> {
    let samples = (0..6 * 5000)
        .map(|i: i32| match (i % 6, i / 6) {
            (0, f) => ((f as f64 * 0.013).sin() * 8_000_000.0) as i32,
            (1, f) => ((f as f64 * 0.017).sin() * 7_000_000.0) as i32 + f % 7,
            (2, f) => [-(1 << 23), (1 << 23) - 1][(f as usize / 40) % 2],
            (3, _) => 0,
            (4, f) => (f.wrapping_mul(48_271) % (1 << 23)) - (1 << 22),
            (_, f) => [-(1 << 23), (1 << 23) - 1, -1, 0][f as usize % 4],
        })
        .collect();
    Audio { sample_rate: 48_000, channels: 6, bits: 24, samples }
}

#[test]
fn a_24_bit_6_channel_wav_file_comes_back_bit_for_bit() {
    let dir = scratch("surround");
    let audio = surround();
    // Extensible (5.1 mask) as hound and ffmpeg write it, and a plain PCM header as some tools do.
    let files = [
        ("ext", wav::write_i32(&audio).unwrap()),
        ("plain", wav::write_i32_with_mask(&audio, None).unwrap()),
        ("odd", wav::write_i32_with_mask(&Audio { channels: 3, ..audio.clone() }, Some(0x7)).unwrap()),
    ];
    for (name, original) in &files {
        let (wav_in, bpk_dir) = (dir.join(format!("{name}.wav")), dir.join("bpk"));
        let bpk = bpk_dir.join(format!("{name}.bpk"));
        std::fs::write(&wav_in, original).unwrap();
        for preset in ["classic", "fast", "max"] {
            let back = dir.join(preset);
            let (ok, out, err) = bitpack(&[
                "encode",
                path(&wav_in),
                "-o",
                path(&bpk_dir),
                "--preset",
                preset,
                "--chunk",
                "1000",
                "--force",
            ]);
            assert!(ok, "{err}");
            assert!(out.contains("bits/sample"), "{out}");
            let bpk_bytes = std::fs::read(&bpk).unwrap();
            assert_eq!(bpk_bytes[4], container::VERSION_WIDE);
            assert!(bpk_bytes.len() < original.len(), "{name} {preset}: {} bytes", bpk_bytes.len());
            let (ok, out, err) = bitpack(&["test", path(&bpk)]);
            assert!(ok && out.contains(": OK"), "{out} {err}");
            let (ok, _, err) = bitpack(&["decode", path(&bpk), "-o", path(&back), "--force"]);
            assert!(ok, "{err}");
            let got = std::fs::read(back.join(format!("{name}.wav"))).unwrap();
            assert!(got == *original, "{name} {preset}: the WAV file differs");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wav_files_the_codec_cannot_take_fail_with_one_clear_line() {
    let dir = scratch("refused");
    let thirty_two = Audio { sample_rate: 8000, channels: 1, bits: 32, samples: vec![1i32 << 30; 100] };
    let f = dir.join("deep.wav");
    std::fs::write(&f, wav::write_i32(&thirty_two).unwrap()).unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&f), "-o", path(&dir.join("out"))]);
    assert!(!ok);
    assert!(err.contains("deep.wav: bad .bpk header: bits per sample must be 8, 16 or 24"), "{err}");
    let mut float = wav::write_i32(&Audio { bits: 24, samples: vec![0; 100], ..thirty_two }).unwrap();
    float[44] = 3; // the extensible sub-format: IEEE float
    let g = dir.join("float.wav");
    std::fs::write(&g, &float).unwrap();
    let (ok, _, err) = bitpack(&["encode", path(&g), "-o", path(&dir.join("out"))]);
    assert!(!ok);
    assert!(err.contains("float.wav: WAV: floating-point samples are not supported"), "{err}");
    let s = dir.join("surround.wav");
    std::fs::write(&s, wav::write_i32(&surround()).unwrap()).unwrap();
    let (ok, _, err) = bitpack(&["stats", path(&s)]);
    assert!(!ok && err.contains("24-bit audio: stats compares the classic bit-plane options"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
