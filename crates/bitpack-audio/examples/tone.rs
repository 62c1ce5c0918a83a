//! Synthesises one second of a decaying 440 Hz tone, packs it as the classic klystrack stream and
//! as a `.bpk` file, decodes both back and prints the sizes:
//!
//! `cargo run -p lore-bitpack-audio --example tone`
//!
//! Nothing is written to disk; [`lore_bitpack_audio::wav::write`] turns the clip into WAV bytes
//! when you want to listen to it.

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container::{self, Limits};
use lore_bitpack_audio::{Audio, Effort, Error, Settings};

fn main() -> Result<(), Error> {
    let rate = 22_050u32;
    let samples: Vec<i16> = (0..rate)
        .map(|i| {
            let t = f64::from(i) / f64::from(rate);
            let envelope = (-3.0 * t).exp();
            (envelope * (t * 440.0 * std::f64::consts::TAU).sin() * 20_000.0) as i16
        })
        .collect();
    let raw = 2 * samples.len();

    // The classic stream: the caller keeps the option and the sample count.
    let packed = classic::pack(&samples, Options::DELTA_GRAY)?;
    let back = classic::unpack(&packed.bytes, packed.bits, samples.len(), Options::DELTA_GRAY)?;
    assert_eq!(back, samples);
    println!("classic option 3: {} of {raw} bytes ({:.1} %)", packed.bytes.len(), pct(packed.bytes.len(), raw));

    // A .bpk file: header, CRC-checked chunks, everything needed to decode it.
    let audio = Audio { sample_rate: rate, channels: 1, bits: 16, samples };
    for effort in [Effort::Classic, Effort::Fast, Effort::Max] {
        let file = container::encode(&audio, Settings { effort, chunk_frames: 4096 })?;
        // A file from elsewhere gets a cap on what it may decode to (here 16 MiB of PCM).
        let decoded = container::decode_with_limits(&file, Limits::pcm_bytes(16 << 20))?;
        assert_eq!(decoded, audio);
        println!("bpk {effort:?}: {} of {raw} bytes ({:.1} %)", file.len(), pct(file.len(), raw));
    }
    Ok(())
}

fn pct(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole as f64
}
