//! Instructions per sample of the classic stream (option 3) for `valgrind --tool=callgrind`: reads
//! a folder of WAV files, then packs every channel (`enc`) or unpacks the packed channels
//! (`dec`) five times. Divide the inclusive count of `classic::encode::pack` (six passes: one
//! to prepare, five timed) or `classic::decode::unpack` (five passes) by the samples printed.
//!
//! `valgrind --tool=callgrind target/release/bitpack_classic_ips target/bitpack-corpus/wav enc`

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::wav;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "target/bitpack-corpus/wav".into());
    let what = args.next().unwrap_or_else(|| "enc".into());
    let mut mono = Vec::new();
    for e in std::fs::read_dir(&dir).expect("corpus folder") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wav")) {
            let a = wav::read(&std::fs::read(&p).expect("read")).expect("wav");
            mono.extend((0..usize::from(a.channels)).map(|k| a.channel(k)));
        }
    }
    let samples: usize = mono.iter().map(|s| s.len()).sum();
    let packed: Vec<_> = mono.iter().map(|s| classic::pack(s, Options::DELTA_GRAY).expect("pack")).collect();
    let mut check = 0u64;
    for _ in 0..5 {
        if what == "enc" {
            for s in &mono {
                check += classic::pack(std::hint::black_box(s), Options::DELTA_GRAY).expect("pack").bits;
            }
        } else {
            for (p, s) in packed.iter().zip(&mono) {
                let back = classic::unpack(std::hint::black_box(&p.bytes), p.bits, s.len(), Options::DELTA_GRAY);
                check += u64::from(back.expect("unpack")[0] as u16);
            }
        }
    }
    println!("{samples} samples, five passes of {what} (checksum {check})");
}
