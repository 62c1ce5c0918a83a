//! Extracts the 8-bit samples of ProTracker-style `.mod` files into 8-bit mono WAV files, to
//! build a corpus of real tracker samples (the material klystrack's codec was made for):
//!
//! `cargo run --release -p lore-benches --bin bitpack_mod_samples -- OUT_DIR FILE.mod...`
//!
//! `crates/bitpack-audio/corpus/fetch.sh` runs it on the modules of a Debian game package. A
//! module is 20 bytes of title, 31 sample headers of 30 bytes (name, length in 16-bit words
//! big-endian, finetune, volume, loop start and length), the song length, a restart byte, 128
//! pattern numbers, a 4-byte tag at offset 1080 that gives the channel count, the patterns
//! (64 rows × channels × 4 bytes each) and then the samples' signed 8-bit data in order.
//! Samples shorter than 64 bytes are skipped; the rate is Amiga C-3 (8,287 Hz), which only
//! labels the file.

use lore_bitpack_audio::{Audio, wav};
use std::path::Path;

/// Channels of a module from its tag, or `None` for a tag this extractor does not know.
fn channels(tag: &[u8]) -> Option<usize> {
    match tag {
        b"M.K." | b"M!K!" | b"FLT4" | b"4CHN" => Some(4),
        [d, b'C', b'H', b'N'] if d.is_ascii_digit() => Some(usize::from(d - b'0')),
        [a, b, b'C', b'H'] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some(usize::from(a - b'0') * 10 + usize::from(b - b'0'))
        }
        _ => None,
    }
}

/// The samples of one module as signed 8-bit data, or why it could not be read.
fn samples(module: &[u8]) -> Result<Vec<Vec<i8>>, String> {
    let tag = module.get(1080..1084).ok_or("shorter than a module header")?;
    let channels = channels(tag).ok_or_else(|| format!("unknown module tag {tag:?}"))?;
    let lengths: Vec<usize> = (0..31)
        .map(|i| {
            let h = 20 + 30 * i;
            2 * usize::from(u16::from_be_bytes([module[h + 22], module[h + 23]]))
        })
        .collect();
    let patterns = 1 + usize::from(*module[952..1080].iter().max().unwrap_or(&0));
    let mut at = 1084 + patterns * 64 * channels * 4;
    let mut out = Vec::new();
    for len in lengths {
        // The last sample of some modules is cut short: keep what is there.
        let end = (at + len).min(module.len());
        if end > at && end - at >= 64 {
            out.push(module[at..end].iter().map(|&b| b as i8).collect());
        }
        at += len;
    }
    Ok(out)
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: mod_samples OUT_DIR FILE.mod...");
        return std::process::ExitCode::FAILURE;
    };
    let out = Path::new(&out);
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("mod_samples: {}: {e}", out.display());
        return std::process::ExitCode::FAILURE;
    }
    let (mut files, mut total) = (0, 0);
    for path in args {
        let module = match std::fs::read(&path) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("mod_samples: {path}: {e}");
                continue;
            }
        };
        let stem = Path::new(&path).file_stem().map_or("module".into(), |s| s.to_string_lossy().into_owned());
        match samples(&module) {
            Ok(list) => {
                for (i, data) in list.iter().enumerate() {
                    let audio = Audio {
                        sample_rate: 8287,
                        channels: 1,
                        bits: 8,
                        samples: data.iter().map(|&s| i16::from(s) << 8).collect(),
                    };
                    let name = out.join(format!("{stem}-{:02}.wav", i + 1));
                    if let Err(e) = std::fs::write(&name, wav::write(&audio).expect("wav")) {
                        eprintln!("mod_samples: {}: {e}", name.display());
                        return std::process::ExitCode::FAILURE;
                    }
                    files += 1;
                    total += data.len();
                }
            }
            Err(e) => eprintln!("mod_samples: {path}: {e} (skipped)"),
        }
    }
    println!("{files} samples, {total} bytes of 8-bit data, in {}", out.display());
    std::process::ExitCode::SUCCESS
}
