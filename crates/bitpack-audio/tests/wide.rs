//! 24-bit samples and 1 to 8 channels: `.bpk` and WAV round trips bit for bit, version 1 files
//! unchanged, and typed errors (never a panic) for what is refused.

use lore_bitpack_audio::container::{self, Limits, Reader, StreamDecoder};
use lore_bitpack_audio::{Audio, Effort, Error, Settings, WavUnsupported, wav};
use proptest::prelude::*;

const MIN24: i32 = -(1 << 23);
const MAX24: i32 = (1 << 23) - 1;

/// One channel's worth of 24-bit samples: random, the limits, silence, full-scale squares,
/// slow sines, small noise, upscaled 16-bit data (wasted bits).
fn signal24(n: usize) -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![
        prop::collection::vec(MIN24..=MAX24, n),
        Just(vec![0; n]),
        Just((0..n).map(|i| if i % 2 == 0 { MAX24 } else { MIN24 }).collect()),
        (1usize..64).prop_map(move |p| (0..n).map(|i| if (i / p) % 2 == 0 { MAX24 } else { MIN24 }).collect()),
        prop::collection::vec(prop_oneof![Just(MIN24), Just(MAX24), Just(0), Just(-1), Just(1)], n),
        (0.001f64..0.3, 1.0f64..8_388_607.0)
            .prop_map(move |(f, a)| (0..n).map(|i| ((i as f64 * f).sin() * a) as i32).collect()),
        prop::collection::vec(-16i32..16, n),
        prop::collection::vec(any::<i16>(), n).prop_map(|v| v.into_iter().map(|s| i32::from(s) << 8).collect()),
    ]
}

/// A 24-bit clip of 1 to 8 channels, each channel its own kind of signal.
fn clip24() -> impl Strategy<Value = Audio<i32>> {
    (1u8..=8, 0usize..300).prop_flat_map(|(channels, frames)| {
        prop::collection::vec(signal24(frames), usize::from(channels)).prop_map(move |chans| {
            let samples = (0..frames).flat_map(|i| chans.iter().map(move |c| c[i])).collect();
            Audio { sample_rate: 96_000, channels, bits: 24, samples }
        })
    })
}

fn effort() -> impl Strategy<Value = Effort> {
    prop_oneof![Just(Effort::Classic), Just(Effort::Fast), Just(Effort::Max)]
}

/// Every decoder's samples for `file`: whole, by chunk, streamed.
fn all_decoders(file: &[u8]) -> [Vec<i32>; 3] {
    let whole = container::decode_i32(file).unwrap().samples;
    let r = Reader::new(file).unwrap();
    let by_chunk = (0..r.chunks()).flat_map(|i| r.decode_chunk_i32(i).unwrap()).collect();
    let mut s = StreamDecoder::new(file).unwrap();
    let mut streamed = Vec::new();
    while let Some(c) = s.next_chunk_i32().unwrap() {
        streamed.extend(c);
    }
    [whole, by_chunk, streamed]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn bpk_24_bit_round_trips_bit_for_bit(audio in clip24(), e in effort(), chunk in 1u32..200) {
        let file = container::encode_i32(&audio, Settings { effort: e, chunk_frames: chunk }).unwrap();
        prop_assert_eq!(file[4], container::VERSION_WIDE);
        for got in all_decoders(&file) {
            prop_assert_eq!(&got, &audio.samples);
        }
        prop_assert_eq!(container::decode_i32(&file).unwrap(), audio);
    }

    #[test]
    fn bpk_16_bit_multichannel_round_trips(channels in 1u8..=8, frames in 0usize..200, seed in any::<u64>(),
                                           e in effort(), chunk in 1u32..100) {
        let mut x = seed | 1;
        let samples: Vec<i16> = (0..frames * usize::from(channels)).map(|i| {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if i % 3 == 0 { (x >> 48) as i16 } else { ((i as f64 * 0.01).sin() * 20000.0) as i16 }
        }).collect();
        let audio = Audio { sample_rate: 44_100, channels, bits: 16, samples };
        let file = container::encode(&audio, Settings { effort: e, chunk_frames: chunk }).unwrap();
        prop_assert_eq!(file[4], if channels <= 2 { container::VERSION } else { container::VERSION_WIDE });
        prop_assert_eq!(container::decode(&file).unwrap(), audio.clone());
        // The i32 path gives the same file and the same samples.
        prop_assert_eq!(&container::encode_i32(&audio.to_i32(), Settings { effort: e, chunk_frames: chunk }).unwrap(), &file);
        prop_assert_eq!(container::decode_i32(&file).unwrap(), audio.to_i32());
    }

    #[test]
    fn wav_24_and_32_bit_write_read_gives_the_same_samples_and_header(audio in clip24(), mask in any::<Option<u32>>(),
                                                                      thirty_two in any::<bool>()) {
        let mut audio = audio;
        if thirty_two {
            audio.bits = 32;
            audio.samples.iter_mut().enumerate().for_each(|(i, s)| *s = s.wrapping_mul(256) | (i as i32 & 0xff));
        }
        let bytes = wav::write_i32_with_mask(&audio, mask).unwrap();
        let info = wav::inspect(&bytes).unwrap();
        prop_assert_eq!((info.sample_rate, info.channels, info.bits, info.channel_mask), (96_000, audio.channels, audio.bits, mask));
        prop_assert_eq!(info.frames, audio.frames() as u64);
        prop_assert_eq!(info.partial_samples, 0);
        prop_assert_eq!(wav::read_i32(&bytes).unwrap(), audio.clone());
        // Written back from what was read: the same bytes.
        prop_assert_eq!(wav::write_i32_with_mask(&wav::read_i32(&bytes).unwrap(), info.channel_mask).unwrap(), bytes.clone());
        // RIFF sizes: the data chunk and the file agree (pad byte for odd 24-bit data).
        let riff = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        prop_assert_eq!(riff + 8, bytes.len());
        prop_assert_eq!(bytes.len() % 2, 0);
    }

    #[test]
    fn wide_decoders_never_panic_on_flips_and_cuts(audio in clip24(), flips in prop::collection::vec((any::<usize>(), 0u8..8), 1..4),
                                                   cut in any::<usize>(), fix_crc in any::<bool>()) {
        let file = container::encode_i32(&audio, Settings { effort: Effort::Max, chunk_frames: 64 }).unwrap();
        let mut bad = file.clone();
        for (at, bit) in flips {
            let n = bad.len();
            bad[at % n] ^= 1 << bit;
        }
        if fix_crc {
            // Recompute the header CRC so the flips reach the header checks.
            let c = lore_bitpack_audio::crc32(&bad[..32]);
            bad[32..36].copy_from_slice(&c.to_le_bytes());
        }
        let _ = container::decode_i32(&bad);
        let _ = container::decode_i32(&bad[..cut % (bad.len() + 1)]);
        if let Ok(mut s) = StreamDecoder::new(&bad[..]) {
            while let Ok(Some(_)) = s.next_chunk_i32() {}
        }
        let _ = wav::read_i32(&bad);
    }

    #[test]
    fn wav_reader_never_panics_on_crafted_fmt(fields in prop::collection::vec(any::<u8>(), 40), data in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut f = b"RIFF\0\0\0\0WAVEfmt \x28\0\0\0".to_vec();
        f.extend_from_slice(&fields);
        f.extend_from_slice(b"data");
        f.extend_from_slice(&(data.len() as u32).to_le_bytes());
        f.extend_from_slice(&data);
        if let Ok(a) = wav::read_i32(&f) {
            prop_assert!((1..=8).contains(&a.channels));
            prop_assert_eq!(a.samples.len() % usize::from(a.channels), 0);
        }
    }
}

/// A 6-channel 24-bit clip with every edge value in every channel.
fn six_channels() -> Audio<i32> {
    let samples = (0..6000)
        .map(|i| match (i % 6, i / 6) {
            (0, f) => {
                if f % 50 < 25 {
                    MAX24
                } else {
                    MIN24
                }
            }
            (1, _) => 0,
            (2, f) => ((f as f64 * 0.02).sin() * 8_000_000.0) as i32,
            (3, f) => [MIN24, MAX24, 0, -1][f % 4],
            (4, f) => ((f as u32).wrapping_mul(2_654_435_761) >> 8) as i32 - (1 << 23),
            (_, f) => (f as i32 * 7919) % (1 << 23),
        })
        .collect();
    Audio { sample_rate: 48_000, channels: 6, bits: 24, samples }
}

#[test]
fn eight_channels_of_edges_round_trip_at_every_effort() {
    let frames = 2500;
    let samples = (0..frames * 8)
        .map(|i| match i % 8 {
            0 => MIN24,
            1 => MAX24,
            2 => 0,
            3 => {
                if (i / 8) % 2 == 0 {
                    MIN24
                } else {
                    MAX24
                }
            }
            4 => ((i / 8) as f64 * 0.05).sin().mul_add(8_388_000.0, 0.0) as i32,
            5 => ((i as u32).wrapping_mul(2_654_435_761) >> 8) as i32 - (1 << 23),
            6 => (i % 512) << 12,
            _ => -(i % 3),
        })
        .collect();
    let audio = Audio { sample_rate: 192_000, channels: 8, bits: 24, samples };
    for effort in [Effort::Classic, Effort::Fast, Effort::Max] {
        for chunk_frames in [1, 7, 1000, 4096] {
            let file = container::encode_i32(&audio, Settings { effort, chunk_frames }).unwrap();
            for got in all_decoders(&file) {
                assert_eq!(got, audio.samples, "{effort:?} {chunk_frames}");
            }
        }
    }
}

#[test]
fn stereo_24_bit_extremes_use_the_25_bit_difference_and_round_trip() {
    // Right = -left at full scale: the difference spans 25 bits.
    let samples: Vec<i32> = (0..4000).flat_map(|i| if i % 3 == 0 { [MAX24, MIN24] } else { [MIN24, MAX24] }).collect();
    let audio = Audio { sample_rate: 48_000, channels: 2, bits: 24, samples };
    for effort in [Effort::Fast, Effort::Max] {
        let file = container::encode_i32(&audio, Settings { effort, chunk_frames: 512 }).unwrap();
        assert_eq!(container::decode_i32(&file).unwrap(), audio);
    }
    // A smooth stereo image compresses well below raw 24-bit PCM.
    let samples: Vec<i32> = (0..20000)
        .flat_map(|i| {
            let l = ((i as f64 * 0.01).sin() * 4_000_000.0) as i32;
            [l, l + (i % 5)]
        })
        .collect();
    let audio = Audio { sample_rate: 48_000, channels: 2, bits: 24, samples };
    let file = container::encode_i32(&audio, Settings { effort: Effort::Max, chunk_frames: 4096 }).unwrap();
    assert_eq!(container::decode_i32(&file).unwrap(), audio);
    assert!(file.len() * 4 < audio.samples.len() * 3, "{} bytes", file.len());
}

#[test]
fn the_i16_path_refuses_24_bit_files_with_a_typed_error() {
    let audio = six_channels();
    let file = container::encode_i32(&audio, Settings::default()).unwrap();
    let needs = Error::NeedsI32 { bits: 24 };
    assert_eq!(container::decode(&file), Err(needs.clone()));
    assert_eq!(Reader::new(&file).unwrap().decode_chunk(0), Err(needs.clone()));
    assert_eq!(StreamDecoder::new(&file[..]).unwrap().next_chunk(), Err(needs.clone()));
    let w = wav::write_i32(&audio).unwrap();
    assert_eq!(wav::read(&w), Err(needs.clone()));
    assert_eq!(audio.to_i16(), Err(needs.clone()));
    let (mut enc, _) = container::Encoder::new(48_000, 6, 24, 10, Settings::default()).unwrap();
    assert_eq!(enc.feed(&[0; 6], &mut Vec::new()), Err(needs));
    // Out-of-range i32 samples are refused before they are fed.
    assert_eq!(enc.feed_i32(&[0, 0, 0, 0, 0, MAX24 + 1], &mut Vec::new()), Err(Error::SampleRange));
    let loud = Audio { samples: vec![MIN24 - 1; 6], ..audio.clone() };
    assert_eq!(container::encode_i32(&loud, Settings::default()), Err(Error::SampleRange));
    assert_eq!(wav::write_i32(&loud), Err(Error::SampleRange));
}

#[test]
fn the_channel_mask_survives_bpk_and_makes_a_version_2_file() {
    let audio = six_channels();
    let file = container::encode_i32_with_channel_mask(&audio, Some(0x60F), Settings::default()).unwrap();
    let r = Reader::new(&file).unwrap();
    assert_eq!(r.header().channel_mask, Some(0x60F));
    assert_eq!(StreamDecoder::new(&file[..]).unwrap().header().channel_mask, Some(0x60F));
    // Even 16-bit stereo keeps a mask, in version 2.
    let st = Audio { sample_rate: 8000, channels: 2, bits: 16, samples: vec![1, 2, 3, 4] };
    let file = container::encode_i32_with_channel_mask(&st.to_i32(), Some(0x3), Settings::default()).unwrap();
    assert_eq!((file[4], container::decode(&file).unwrap()), (2, st.clone()));
    assert_eq!(container::encode(&st, Settings::default()).unwrap()[4], 1);
}

#[test]
fn crafted_version_2_headers_are_refused_with_typed_errors() {
    let file = container::encode_i32(&six_channels(), Settings::default()).unwrap();
    let with = |at: usize, v: u8| {
        let mut b = file.clone();
        b[at] = v;
        let c = lore_bitpack_audio::crc32(&b[..32]);
        b[32..36].copy_from_slice(&c.to_le_bytes());
        container::decode_i32(&b)
    };
    assert_eq!(with(6, 9), Err(Error::Header("channels must be 1 ..= 8")));
    assert_eq!(with(6, 0), Err(Error::Header("channels must be 1 ..= 8")));
    assert_eq!(with(7, 32), Err(Error::Header("bits per sample must be 8, 16 or 24")));
    assert_eq!(with(7, 20), Err(Error::Header("bits per sample must be 8, 16 or 24")));
    assert_eq!(with(28, 2), Err(Error::Header("unknown flags in a version 2 header")));
    assert_eq!(with(30, 1), Err(Error::Header("unknown flags in a version 2 header")));
    assert_eq!(with(4, 3), Err(Error::Version(3)));
    // A version 1 file may not claim 24 bits or 6 channels.
    let v1 = container::encode(
        &Audio { sample_rate: 8000, channels: 1, bits: 16, samples: vec![1; 100] },
        Settings::default(),
    )
    .unwrap();
    for (at, v, e) in
        [(7, 24, "bits per sample must be 8 or 16 in version 1"), (6, 6, "channels must be 1 or 2 in version 1")]
    {
        let mut b = v1.clone();
        b[at] = v;
        let c = lore_bitpack_audio::crc32(&b[..24]);
        b[24..28].copy_from_slice(&c.to_le_bytes());
        assert_eq!(container::decode_i32(&b), Err(Error::Header(e)));
    }
    // A version 2 header for a layout version 1 holds is refused: one layout, one encoding.
    let mut b = file.clone();
    b[6] = 2;
    b[7] = 16;
    let c = lore_bitpack_audio::crc32(&b[..32]);
    b[32..36].copy_from_slice(&c.to_le_bytes());
    assert_eq!(container::decode_i32(&b), Err(Error::Header("a version 2 header for what version 1 holds")));
    // A truncated version 2 header.
    assert_eq!(container::decode_i32(&file[..30]).unwrap_err(), Error::Header("file shorter than the header"));
    assert_eq!(StreamDecoder::new(&file[..30]).unwrap_err(), Error::UnexpectedEnd("header"));
}

#[test]
fn the_ratio_cap_counts_3_bytes_a_24_bit_sample() {
    let audio = six_channels();
    let file = container::encode_i32(&audio, Settings::default()).unwrap();
    let (claimed, len) = (audio.samples.len() as u64, file.len() as u64);
    // The smallest ratio that admits the file: ceil(3 × claimed / len).
    let needed = (3 * claimed).div_ceil(len);
    assert!(container::decode_i32_with_limits(&file, Limits::NONE.with_max_ratio(needed)).is_ok());
    let refused = Error::RatioLimit {
        claimed,
        limit: (needed - 1) * len / 3,
        input_bytes: len,
        max_ratio: needed - 1,
        sample_bytes: 3,
    };
    assert_eq!(container::decode_i32_with_limits(&file, Limits::NONE.with_max_ratio(needed - 1)).unwrap_err(), refused);
    assert!(refused.to_string().contains(&format!("{} bytes of PCM", claimed * 3)), "{refused}");
}

fn fmt_chunk(tag: u16, channels: u16, align: u16, bits: u16, ext: Option<(u16, u16)>) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend_from_slice(&tag.to_le_bytes());
    f.extend_from_slice(&channels.to_le_bytes());
    f.extend_from_slice(&48_000u32.to_le_bytes());
    f.extend_from_slice(&(48_000 * u32::from(align)).to_le_bytes());
    f.extend_from_slice(&align.to_le_bytes());
    f.extend_from_slice(&bits.to_le_bytes());
    if let Some((valid, sub)) = ext {
        f.extend_from_slice(&22u16.to_le_bytes());
        f.extend_from_slice(&valid.to_le_bytes());
        f.extend_from_slice(&0x3Fu32.to_le_bytes());
        f.extend_from_slice(&sub.to_le_bytes());
        f.extend_from_slice(&[0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]);
    }
    let mut w = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
    w.extend_from_slice(&(f.len() as u32).to_le_bytes());
    w.extend_from_slice(&f);
    w.extend_from_slice(b"data\x24\0\0\0");
    w.extend_from_slice(&[0; 36]);
    w
}

#[test]
fn wav_formats_this_crate_does_not_handle_are_typed_errors() {
    use WavUnsupported::*;
    let refused = |w: Vec<u8>| wav::read_i32(&w).unwrap_err();
    assert_eq!(refused(fmt_chunk(3, 2, 8, 32, None)), Error::WavUnsupported(Float));
    assert_eq!(refused(fmt_chunk(0xFFFE, 2, 8, 32, Some((32, 3)))), Error::WavUnsupported(Float));
    assert_eq!(refused(fmt_chunk(2, 1, 2, 4, None)), Error::WavUnsupported(Encoding(2)));
    assert_eq!(refused(fmt_chunk(0xFFFE, 1, 2, 16, Some((16, 2)))), Error::WavUnsupported(Encoding(2)));
    assert_eq!(refused(fmt_chunk(1, 9, 18, 16, None)), Error::WavUnsupported(Channels(9)));
    assert_eq!(refused(fmt_chunk(1, 0, 0, 16, None)), Error::WavUnsupported(Channels(0)));
    assert_eq!(refused(fmt_chunk(1, 2, 6, 20, None)), Error::WavUnsupported(Bits(20)));
    assert_eq!(refused(fmt_chunk(1, 2, 5, 16, None)), Error::WavUnsupported(BlockAlign { expected: 4, found: 5 }));
    assert_eq!(refused(fmt_chunk(1, 6, 17, 24, None)), Error::WavUnsupported(BlockAlign { expected: 18, found: 17 }));
    assert_eq!(
        refused(fmt_chunk(0xFFFE, 6, 18, 24, Some((25, 1)))),
        Error::WavUnsupported(ValidBits { valid: 25, container: 24 })
    );
    assert_eq!(
        refused(fmt_chunk(0xFFFE, 6, 18, 24, Some((0, 1)))),
        Error::WavUnsupported(ValidBits { valid: 0, container: 24 })
    );
    let mut short = fmt_chunk(0xFFFE, 6, 18, 24, Some((24, 1)));
    short[16] = 18; // fmt length 18: the extension cut off
    assert!(matches!(wav::read_i32(&short), Err(Error::Wav(_))));
    // Writers refuse what a WAV file cannot describe.
    let nine = Audio { sample_rate: 8000, channels: 9, bits: 24, samples: vec![0i32; 9] };
    assert_eq!(wav::write_i32(&nine), Err(Error::WavUnsupported(Channels(9))));
    assert_eq!(wav::header(8000, 2, 12, 1), Err(Error::WavUnsupported(Bits(12))));
    // 20 valid bits in a 24-bit container read as 24-bit samples.
    let ok = wav::read_i32(&fmt_chunk(0xFFFE, 6, 18, 24, Some((20, 1)))).unwrap();
    assert_eq!((ok.channels, ok.bits, ok.samples.len()), (6, 24, 12));
    assert_eq!(wav::inspect(&fmt_chunk(0xFFFE, 6, 18, 24, Some((20, 1)))).unwrap().channel_mask, Some(0x3F));
}

#[test]
fn wav_24_bit_bytes_are_little_endian_three_byte_twos_complement() {
    let audio = Audio { sample_rate: 44_100, channels: 1, bits: 24, samples: vec![MIN24, MAX24, -1, 0x123456] };
    let w = wav::write_i32(&audio).unwrap();
    // Extensible header (more than 16 bits), 12 data bytes, no pad (even length).
    assert_eq!(w.len(), 68 + 12);
    assert_eq!(&w[68..], &[0, 0, 0x80, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x56, 0x34, 0x12]);
    assert_eq!(wav::inspect(&w).unwrap().channel_mask, Some(0x4));
    // Three samples: 9 bytes and a pad byte the RIFF size counts.
    let odd = Audio { samples: vec![1, 2, 3], ..audio };
    let w = wav::write_i32_with_mask(&odd, None).unwrap();
    assert_eq!(w.len(), 44 + 9 + 1);
    assert_eq!(wav::read_i32(&w).unwrap(), odd);
}
