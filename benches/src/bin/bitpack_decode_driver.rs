//! A small driver for instruction-count profiling (`valgrind --tool=callgrind`): packs every
//! channel of a folder of WAV files with classic option 3 (or the `.bpk` fast preset with `fast`
//! as the third argument), then decodes it `reps` times (second argument, default 1).
//!
//! `valgrind --tool=callgrind target/release/bitpack_decode_driver target/bitpack-corpus/wav 1`
//!
//! It also prints the fastest rep's throughput in wall time (MB = 10^6 bytes of 16-bit PCM): a
//! rep takes a few milliseconds, so with many reps some run undisturbed even on a shared machine.

/// Nanoseconds since the first call.
fn cpu_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
}

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Effort, Settings, container, wav};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "target/bitpack-corpus/wav".into());
    let reps: usize = args.next().map_or(1, |r| r.parse().expect("reps"));
    let what = args.next().unwrap_or_else(|| "classic".into());
    let mut clips = Vec::new();
    for e in std::fs::read_dir(&dir).expect("corpus folder") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wav")) {
            clips.push(wav::read(&std::fs::read(&p).expect("read")).expect("wav"));
        }
    }
    let mut checksum = 0u64;
    let mut best = u64::MAX;
    let bytes: u64 = clips.iter().map(|a| 2 * a.samples.len() as u64).sum();
    if what == "classic" {
        let mono: Vec<Vec<i16>> =
            clips.iter().flat_map(|a| (0..usize::from(a.channels)).map(move |k| a.channel(k))).collect();
        let packed: Vec<_> = mono.iter().map(|s| classic::pack(s, Options::DELTA_GRAY).expect("pack")).collect();
        for (p, s) in packed.iter().zip(&mono) {
            assert!(classic::unpack(&p.bytes, p.bits, s.len(), Options::DELTA_GRAY).expect("unpack") == *s);
        }
        for _ in 0..reps {
            let t = cpu_ns();
            for (p, s) in packed.iter().zip(&mono) {
                let back = classic::unpack(&p.bytes, p.bits, s.len(), Options::DELTA_GRAY).expect("unpack");
                assert_eq!(back.len(), s.len());
                checksum += back.len() as u64;
            }
            best = best.min(cpu_ns() - t);
        }
    } else {
        let effort = if what == "fast" { Effort::Fast } else { Effort::Classic };
        let s = Settings { effort, chunk_frames: 4096 };
        let files: Vec<_> = clips.iter().map(|a| container::encode(a, s).expect("encode")).collect();
        for _ in 0..reps {
            let t = cpu_ns();
            for f in &files {
                checksum += container::decode(f).expect("decode").samples.len() as u64;
            }
            best = best.min(cpu_ns() - t);
        }
    }
    println!("{checksum} samples decoded; fastest rep {:.0} MB/s", bytes as f64 * 1e3 / best.max(1) as f64);
}
