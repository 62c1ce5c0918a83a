//! Output limits of the `.bpk` decoders: a small valid file that claims a huge output is refused
//! before anything is decoded, with an error naming the claim and the limit.

use lore_bitpack_audio::container::{self, Encoder, Limits, MAX_CHUNK_FRAMES, Reader, Settings, StreamDecoder};
use lore_bitpack_audio::{Audio, Effort, Error};

/// A valid stereo file of `chunks` chunks of 2^20 frames of silence, encoded a chunk at a time.
fn silent_bomb(chunks: u64) -> Vec<u8> {
    let frames = chunks * u64::from(MAX_CHUNK_FRAMES);
    let settings = Settings { effort: Effort::Fast, chunk_frames: MAX_CHUNK_FRAMES };
    let (mut enc, mut out) = Encoder::new(44_100, 2, 16, frames, settings).unwrap();
    let zeros = vec![0i16; 2 * MAX_CHUNK_FRAMES as usize];
    for _ in 0..chunks {
        enc.feed(&zeros, &mut out).unwrap();
    }
    enc.finish(&mut out).unwrap();
    out
}

#[test]
fn a_tiny_file_claiming_a_huge_output_is_refused_before_decoding() {
    let file = silent_bomb(4);
    let claimed = 4 * 2 * u64::from(MAX_CHUNK_FRAMES);
    // 16 MiB of PCM from a file of a few dozen bytes per chunk.
    let ratio = 2 * claimed / file.len() as u64;
    assert!(ratio > 100_000, "{} bytes claim {claimed} samples: only {ratio}x", file.len());
    let limits = Limits::pcm_bytes(1 << 20);
    let refused = Error::OutputLimit { claimed, limit: 1 << 19 };
    assert_eq!(container::decode_with_limits(&file, limits), Err(refused.clone()));
    assert_eq!(Reader::with_limits(&file, limits).err(), Some(refused.clone()));
    assert_eq!(StreamDecoder::with_limits(&file[..], limits).err(), Some(refused.clone()));
    assert_eq!(
        refused.to_string(),
        format!("file claims {claimed} samples, more than the limit of {} samples", 1 << 19)
    );
    // Without a limit (or with one that fits) it is a valid file of silence.
    let audio = container::decode(&file).unwrap();
    assert_eq!(audio.samples.len() as u64, claimed);
    assert!(audio.samples.iter().all(|&s| s == 0));
    assert_eq!(container::decode_with_limits(&file, Limits::samples(claimed)).unwrap(), audio);
}

#[test]
fn the_limit_is_inclusive_and_counts_every_channel() {
    let audio = Audio {
        sample_rate: 8000,
        channels: 2,
        bits: 16,
        samples: (0..2000).map(|i| ((i * 37) % 1000 - 500) as i16).collect(),
    };
    let file = container::encode(&audio, Settings { effort: Effort::Max, chunk_frames: 300 }).unwrap();
    assert_eq!(container::decode_with_limits(&file, Limits::samples(2000)).unwrap(), audio);
    assert_eq!(container::decode_with_limits(&file, Limits::pcm_bytes(4000)).unwrap(), audio);
    let refused = Err(Error::OutputLimit { claimed: 2000, limit: 1999 });
    assert_eq!(container::decode_with_limits(&file, Limits::samples(1999)), refused);
    assert_eq!(container::decode_with_limits(&file, Limits::pcm_bytes(3999)), refused);
    let mut ok = StreamDecoder::with_limits(&file[..], Limits::samples(2000)).unwrap();
    let mut back = Vec::new();
    while let Some(chunk) = ok.next_chunk().unwrap() {
        back.extend(chunk);
    }
    assert_eq!(back, audio.samples);
    assert_eq!(StreamDecoder::with_limits(&file[..], Limits::samples(1999)).err(), refused.err());
    assert_eq!(Reader::with_limits(&file, Limits::samples(2000)).unwrap().chunks(), 4);
    assert_eq!(Limits::default(), Limits::NONE);
}

#[test]
fn the_ratio_cap_bounds_the_output_by_the_input_size_and_is_inclusive() {
    let file = silent_bomb(1);
    let len = file.len() as u64;
    let claimed = 2 * u64::from(MAX_CHUNK_FRAMES);
    // Bytes of PCM per byte of file, rounded up: the smallest cap that admits the file.
    let needed = (2 * claimed).div_ceil(len);
    let fits = Limits::NONE.with_max_ratio(needed);
    assert_eq!(fits.check_claim(claimed, len), Ok(()));
    assert_eq!(container::decode_with_limits(&file, fits).unwrap().samples.len() as u64, claimed);
    let tight = Limits::NONE.with_max_ratio(needed - 1);
    let refused = Error::RatioLimit {
        claimed,
        limit: (needed - 1) * len / 2,
        input_bytes: len,
        max_ratio: needed - 1,
        sample_bytes: 2,
    };
    assert_eq!(tight.check_claim(claimed, len), Err(refused.clone()));
    assert_eq!(container::decode_with_limits(&file, tight), Err(refused.clone()));
    assert_eq!(Reader::with_limits(&file, tight).err(), Some(refused.clone()));
    assert_eq!(
        refused.to_string(),
        format!(
            "file claims {claimed} samples, more than the limit of {} samples: {} bytes of PCM from a {len}-byte \
             file is over {} times its size",
            (needed - 1) * len / 2,
            2 * claimed,
            needed - 1
        )
    );
    // The sample cap is checked first, and no ratio (`u64::MAX`) checks nothing.
    let both = Limits::samples(claimed - 1).with_max_ratio(1);
    assert_eq!(both.check_claim(claimed, len), Err(Error::OutputLimit { claimed, limit: claimed - 1 }));
    assert_eq!(Limits::NONE.check_claim(u64::MAX, 1), Ok(()));
    // A streaming decoder does not know the input's size: the caller checks the claim.
    assert!(StreamDecoder::with_limits(&file[..], tight).is_ok());
}
