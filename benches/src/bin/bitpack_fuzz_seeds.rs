//! Writes small seed inputs for the fuzz targets in `fuzz/` (one folder per target under the
//! given directory, default `fuzz/corpus`), all made by this crate's encoders:
//! `cargo run -p lore-benches --bin bitpack_fuzz_seeds -- DIR`; the seeds checked in under
//! `fuzz/seeds/bitpack_<target>/` were made this way.

use std::path::{Path, PathBuf};

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Audio, Effort, Settings, container, wav};

fn signals() -> Vec<(&'static str, Vec<i16>)> {
    let sine = |n: usize, f: f64, a: f64| (0..n).map(|i| ((i as f64 * f).sin() * a) as i16).collect::<Vec<_>>();
    let mut noise = 0x2545_f491u32;
    let mut next = move || {
        noise ^= noise << 13;
        noise ^= noise >> 17;
        noise ^= noise << 5;
        noise as i16
    };
    vec![
        ("silence", vec![0; 96]),
        ("constant", vec![-1234; 50]),
        ("single", vec![7]),
        ("sine", sine(256, 0.05, 12000.0)),
        (
            "two-sines",
            (0..320).map(|i| ((i as f64 * 0.031).sin() * 9000.0 + (i as f64 * 0.173).sin() * 4000.0) as i16).collect(),
        ),
        // Long and smooth enough for the LPC method (3) at `Effort::Max`.
        (
            "lpc",
            (0..1024).map(|i| ((i as f64 * 0.031).sin() * 9000.0 + (i as f64 * 0.173).sin() * 4000.0) as i16).collect(),
        ),
        ("quiet", sine(200, 0.2, 6.0)),
        ("noise", (0..160).map(|_| next()).collect()),
        ("eight-bit", (0..128).map(|i| (((i * 7) % 200) as i16 - 100) << 8).collect()),
        ("alternating", (0..64).map(|i| if i % 2 == 0 { i16::MAX } else { i16::MIN }).collect()),
    ]
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("writing {}: {e}", dir.join(name).display()));
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::env::args().nth(1).map_or_else(|| PathBuf::from("fuzz/corpus"), PathBuf::from);
    let dirs = ["decode", "container_crc", "chunk", "wav"].map(|t| root.join(t));
    for d in &dirs {
        std::fs::create_dir_all(d)?;
    }
    let [decode, crc, chunk, wav_dir] = &dirs;
    let mut count = 0;
    for (name, s) in signals() {
        let eight = s.iter().all(|&v| v & 0xff == 0);
        for (stereo, channels) in [("mono", 1u8), ("stereo", 2)] {
            let mut samples = s.clone();
            if channels == 2 {
                samples.truncate(samples.len() & !1);
                if samples.is_empty() {
                    continue;
                }
            }
            let audio = Audio { sample_rate: 8000, channels, bits: if eight { 8 } else { 16 }, samples };
            for (e, effort) in [("classic", Effort::Classic), ("fast", Effort::Fast), ("max", Effort::Max)] {
                let file = container::encode(
                    &audio,
                    Settings { effort, chunk_frames: if name == "lpc" { 1024 } else { 64 } },
                )?;
                let tag = format!("{name}-{stereo}-{e}");
                write(decode, &format!("{tag}.bpk"), &file);
                write(crc, &format!("{tag}.bpk"), &file);
                // The first chunk's payload behind the `chunk` target's 2-byte head.
                let r = container::Reader::new(&file)?;
                let frames = r.header().chunk_len(0) as u16;
                let mut c = ((frames << 1) | u16::from(channels - 1)).to_le_bytes().to_vec();
                c.extend_from_slice(r.chunk_payload(0)?);
                write(chunk, &format!("{tag}.chunk"), &c);
                count += 3;
            }
            write(wav_dir, &format!("{name}-{stereo}.wav"), &wav::write(&audio).expect("wav"));
            count += 1;
        }
        // A classic stream behind the `decode` target's head byte: option in bits 0..2, the
        // sample count / 16 in the byte, bits cut from the last byte in bits 0..3.
        let most = (s.len() / 16).min(255);
        for o in Options::ALL {
            let o16 = usize::from(o.flags());
            if most >= o16 {
                // The largest head byte <= `most` that holds the option.
                let head = (most - (most - o16) % 4) as u8;
                let p = classic::pack(&s[..usize::from(head) * 16], o)?;
                let mut b = vec![head];
                b.extend_from_slice(&p.bytes);
                write(decode, &format!("{name}-classic{}.bits", o.flags()), &b);
                count += 1;
            }
        }
    }
    println!("{count} seeds under {}", root.display());
    Ok(())
}
