//! The `.bpk` decode path of the tool: a [`StreamDecoder`] (every check the library has: header,
//! caps, chunk lengths, CRCs, the 8-bit check, the chunk table, the trailer), one chunk in memory
//! at a time, written out as WAV as it comes.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use lore_bitpack_audio::container::{Header, Limits, StreamDecoder};
use lore_bitpack_audio::{Audio, Error, wav};

use crate::Res;
use crate::output::Output;
use crate::progress::Progress;

/// Checks `claimed` samples of `sample_bytes` bytes each from the `len`-byte input `f` against
/// the caps ([`Limits::check_claim_bytes`]), naming the flag that raises the cap that refused it.
pub fn check_claim(f: &Path, limits: Limits, claimed: u64, sample_bytes: u8, len: u64) -> Res<()> {
    limits.check_claim_bytes(claimed, sample_bytes, len).map_err(|e| match e {
        Error::RatioLimit { .. } => format!("{}: {e} (raise it with --max-ratio)", f.display()),
        _ => format!("{}: {e} (raise it with --max-samples)", f.display()),
    })
}

/// Why a decode failed: the input (bad file, with the library's error) or the output.
#[derive(Debug, PartialEq)]
pub enum Failure {
    /// The input is not a valid `.bpk` file, or is refused by a cap.
    Input(String),
    /// Writing the output failed (the message says what happened to the target).
    Output(String),
}

/// The message for library error `e` in file `f`, with a hint where a cap refused it.
fn input_error(f: &Path, e: Error) -> String {
    match e {
        Error::OutputLimit { .. } => format!("{}: {e} (raise it with --max-samples)", f.display()),
        e => format!("{}: {e}", f.display()),
    }
}

/// Opens `input` (of `len` bytes) as a `.bpk` stream and checks its header against the caps and
/// against what a WAV file can hold; returns the decoder and the WAV header (extensible with
/// the file's channel mask when it keeps one, else plain PCM).
pub fn open<R: Read>(f: &Path, input: R, len: u64, limits: Limits) -> Res<(StreamDecoder<R>, Vec<u8>)> {
    let dec = StreamDecoder::with_limits(input, limits).map_err(|e| input_error(f, e))?;
    let h = *dec.header();
    check_claim(f, limits, h.samples(), h.sample_bytes(), len)?;
    let head = wav::header_with_mask(h.sample_rate, h.channels, h.bits, h.channel_mask, h.frames)
        .map_err(|e| format!("{}: cannot be written as WAV: {e}", f.display()))?;
    Ok((dec, head))
}

/// Decodes every chunk of `dec` as WAV bytes into `sink` (the header first, the pad byte last),
/// calling `tick` per chunk. Returns the header.
pub fn pump<R: Read>(
    f: &Path,
    mut dec: StreamDecoder<R>,
    head: &[u8],
    sink: &mut dyn FnMut(&[u8]) -> Res<()>,
    tick: &mut dyn FnMut(),
) -> Result<Header, Failure> {
    let h = *dec.header();
    sink(head).map_err(Failure::Output)?;
    let mut bytes = Vec::new();
    let mut frames = 0u64;
    if h.bits <= 16 {
        while let Some(chunk) = dec.next_chunk().map_err(|e| Failure::Input(input_error(f, e)))? {
            frames += (chunk.len() / usize::from(h.channels)) as u64;
            bytes.clear();
            wav::put_samples(&chunk, h.bits, &mut bytes);
            sink(&bytes).map_err(Failure::Output)?;
            tick();
        }
    } else {
        while let Some(chunk) = dec.next_chunk_i32().map_err(|e| Failure::Input(input_error(f, e)))? {
            frames += (chunk.len() / usize::from(h.channels)) as u64;
            bytes.clear();
            wav::put_samples_i32(&chunk, h.bits, &mut bytes);
            sink(&bytes).map_err(Failure::Output)?;
            tick();
        }
    }
    // The decoder has checked the chunk table, so the frames are the header's.
    debug_assert_eq!(frames, h.frames);
    sink(wav::pad(h.channels, h.bits, h.frames)).map_err(Failure::Output)?;
    Ok(h)
}

fn open_file(f: &Path) -> Res<(BufReader<File>, u64)> {
    let file = File::open(f).map_err(|e| format!("{}: {e}", f.display()))?;
    let len = file.metadata().map_err(|e| format!("{}: {e}", f.display()))?.len();
    Ok((BufReader::new(file), len))
}

/// Checks the header of `f` against the caps without decoding it.
pub fn check_header(f: &Path, limits: Limits) -> Res<()> {
    let (file, len) = open_file(f)?;
    open(f, file, len, limits).map(|_| ())
}

/// Decodes `f` to the WAV file `target` through a temporary file.
pub fn decode_file(f: &Path, target: &Path, limits: Limits, force: bool, bar: &mut Progress) -> Res<()> {
    let (file, len) = open_file(f)?;
    let (dec, head) = open(f, file, len, limits)?;
    let mut out = Output::create(target, force)?;
    let mut sink = |b: &[u8]| out.write_all(b);
    match pump(f, dec, &head, &mut sink, &mut || bar.step(1)) {
        Ok(_) => out.commit(),
        Err(Failure::Output(e)) => Err(e),
        Err(Failure::Input(e)) => Err(out.failure(&e)),
    }
}

/// Decodes `f` without keeping its samples: (frames, channels).
pub fn verify(f: &Path, limits: Limits) -> Res<(u64, u8)> {
    let (file, len) = open_file(f)?;
    let (dec, head) = open(f, file, len, limits)?;
    match pump(f, dec, &head, &mut |_| Ok(()), &mut || {}) {
        Ok(h) => Ok((h.frames, h.channels)),
        Err(Failure::Input(e) | Failure::Output(e)) => Err(e),
    }
}

/// Why `stats` refuses a file of `bits` bits per sample.
pub fn stats_depth(f: &Path, bits: u8) -> String {
    format!(
        "{}: {bits}-bit audio: stats compares the classic bit-plane options, which code 8- and 16-bit \
         samples only",
        f.display()
    )
}

/// Decodes `f` into memory (within the caps; 8- and 16-bit files).
pub fn decode_in_memory(f: &Path, limits: Limits) -> Res<Audio> {
    let (file, len) = open_file(f)?;
    let (mut dec, _) = open(f, file, len, limits)?;
    let h = *dec.header();
    if h.bits > 16 {
        return Err(stats_depth(f, h.bits));
    }
    let mut samples = Vec::new();
    while let Some(chunk) = dec.next_chunk().map_err(|e| input_error(f, e))? {
        samples.extend(chunk);
    }
    Ok(Audio { sample_rate: h.sample_rate, channels: h.channels, bits: h.bits, samples })
}

/// Chunks of `f` according to its header (0 when it cannot be read): the progress bar's units.
pub fn chunk_count(f: &Path) -> u64 {
    File::open(f)
        .ok()
        .and_then(|file| StreamDecoder::new(BufReader::new(file)).ok().map(|d| d.header().chunks()))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_bitpack_audio::{Settings, container};
    use proptest::prelude::*;

    const CAPS: Limits = Limits::samples(1 << 20).with_max_ratio(1000);

    /// The CLI's decode path on `data` in memory: WAV bytes, or the message.
    fn cli_decode(data: &[u8]) -> Result<Vec<u8>, String> {
        let f = Path::new("x.bpk");
        let (dec, head) = open(f, data, data.len() as u64, CAPS)?;
        let mut wav = Vec::new();
        let mut sink = |b: &[u8]| {
            wav.extend_from_slice(b);
            Ok(())
        };
        pump(f, dec, &head, &mut sink, &mut || {}).map_err(|e| format!("{e:?}"))?;
        Ok(wav)
    }

    fn sample_file(seed: u64, channels: u8, bits: u8) -> (Audio, Vec<u8>) {
        let mut x = seed | 1;
        let samples: Vec<i16> = (0..300 * usize::from(channels))
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = ((i as f32 * 0.05).sin() * 3000.0) as i16 + (x % 64) as i16;
                if bits == 8 { v & !0xff } else { v }
            })
            .collect();
        let audio = Audio { sample_rate: 11025, channels, bits, samples };
        let file = container::encode(&audio, Settings { chunk_frames: 100, ..Settings::default() }).unwrap();
        (audio, file)
    }

    #[test]
    fn valid_files_decode_to_the_wav_the_library_writes() {
        for (channels, bits) in [(1, 16), (2, 16), (1, 8), (2, 8)] {
            let (audio, file) = sample_file(7, channels, bits);
            assert_eq!(cli_decode(&file).unwrap(), wav::write(&audio).unwrap(), "{channels} ch {bits} bits");
        }
    }

    #[test]
    fn a_header_claiming_8_bits_over_16_bit_data_fails() {
        let (mut audio, _) = sample_file(3, 1, 16);
        audio.bits = 8;
        let crafted = container::encode(&audio, Settings { chunk_frames: 100, ..Settings::default() }).unwrap();
        let e = cli_decode(&crafted).unwrap_err();
        assert!(e.contains("chunk 0: bad .bpk header: 8-bit file decodes to samples with low bits set"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Arbitrary bytes never panic the decode path, and whatever it accepts is exactly what
        /// the library decodes.
        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
            if let Ok(w) = cli_decode(&data) {
                let lib = container::decode(&data).unwrap();
                prop_assert_eq!(w, wav::write(&lib).unwrap());
            }
        }

        /// Valid files with bytes changed, cut or extended never panic it, and only a file the
        /// library also accepts decodes.
        #[test]
        fn damaged_files_never_panic(
            seed in any::<u64>(),
            layout in 0usize..4,
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
            cut in any::<usize>(),
            fix_crcs in any::<bool>(),
        ) {
            let (channels, bits) = [(1, 16), (2, 16), (1, 8), (2, 8)][layout];
            let (_, mut file) = sample_file(seed, channels, bits);
            for (at, v) in edits {
                let at = at % file.len();
                file[at] = v;
            }
            if fix_crcs && file.len() >= 28 {
                // Past the header CRC, so that edits to the header fields reach the checks after it.
                let c = lore_bitpack_audio::crc32(&file[..24]);
                file[24..28].copy_from_slice(&c.to_le_bytes());
            }
            if cut % 3 == 0 {
                file.truncate(cut % (file.len() + 1));
            }
            let lib = container::decode(&file);
            if let Ok(w) = cli_decode(&file) {
                prop_assert_eq!(w, wav::write(&lib.unwrap()).unwrap());
            }
        }
    }
}
