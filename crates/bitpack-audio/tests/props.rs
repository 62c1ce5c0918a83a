//! Round trips for every option and effort, and no panics on corrupt input.

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Audio, Effort, Settings, container};
use proptest::prelude::*;

fn signal() -> impl Strategy<Value = Vec<i16>> {
    prop_oneof![
        prop::collection::vec(any::<i16>(), 0..600),
        (0usize..600).prop_map(|n| vec![0i16; n]),
        (0usize..600).prop_map(|n| (0..n).map(|i| if i % 2 == 0 { i16::MAX } else { i16::MIN }).collect()),
        (0usize..600, any::<i16>()).prop_map(|(n, v)| vec![v; n]),
        any::<i16>().prop_map(|v| vec![v]),
        prop::collection::vec(-8i16..8, 0..600),
        prop::collection::vec(any::<i8>(), 0..600).prop_map(|v| v.into_iter().map(|s| i16::from(s) << 8).collect()),
        (1usize..600, 0.001f64..0.5, 1.0f64..32767.0)
            .prop_map(|(n, f, a)| (0..n).map(|i| ((i as f64 * f).sin() * a) as i16).collect()),
    ]
}

fn effort() -> impl Strategy<Value = Effort> {
    prop_oneof![Just(Effort::Classic), Just(Effort::Fast), Just(Effort::Max)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn classic_roundtrip_every_option(s in signal()) {
        for o in Options::ALL {
            let p = classic::pack(&s, o).unwrap();
            prop_assert_eq!(p.bytes.len() as u64, p.bits.div_ceil(8));
            prop_assert!(p.bits <= 16 * (s.len() as u64 + 2));
            prop_assert_eq!(classic::unpack(&p.bytes, p.bits, s.len(), o).unwrap(), s.clone());
        }
        let (best, o) = classic::pack_best(&s).unwrap();
        for other in Options::ALL {
            prop_assert!(best.bits <= classic::packed_bits(&s, other));
        }
        prop_assert_eq!(classic::unpack(&best.bytes, best.bits, s.len(), o).unwrap(), s);
    }

    #[test]
    fn container_roundtrip(s in signal(), stereo in any::<bool>(), e in effort(), chunk in 1u32..300) {
        let mut samples = s;
        if stereo && samples.len() % 2 == 1 { samples.pop(); }
        let audio = Audio { sample_rate: 8000, channels: if stereo { 2 } else { 1 }, bits: 16, samples };
        let file = container::encode(&audio, Settings { effort: e, chunk_frames: chunk }).unwrap();
        prop_assert_eq!(container::decode(&file).unwrap(), audio);
    }

    #[test]
    fn classic_decoder_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), cut in 0u64..1700,
                                    n in 0usize..3000, o in 0u8..4) {
        let bits = cut.min(bytes.len() as u64 * 8);
        let _ = classic::unpack(&bytes, bits, n, Options::from_flags(o).unwrap());
    }

    #[test]
    fn container_decoder_never_panics_on_flips_and_cuts(s in signal(), flips in prop::collection::vec((any::<usize>(), 0u8..8), 1..4),
                                                         cut in any::<usize>()) {
        let audio = Audio { sample_rate: 8000, channels: 1, bits: 16, samples: s };
        let file = container::encode(&audio, Settings { effort: Effort::Max, chunk_frames: 64 }).unwrap();
        let mut bad = file.clone();
        // Distinct bits only: the same bit flipped twice would leave the file intact.
        let flips: std::collections::BTreeSet<(usize, u8)> = flips.into_iter().map(|(at, bit)| (at % bad.len(), bit)).collect();
        for (i, bit) in flips { bad[i] ^= 1 << bit; }
        prop_assert!(container::decode(&bad).is_err());
        let cut = cut % file.len();
        prop_assert!(container::decode(&file[..cut]).is_err());
    }
}

#[test]
fn corrupt_chunk_payload_names_the_chunk() {
    let samples: Vec<i16> = (0..1000).map(|i| (i * 31 % 2000) as i16).collect();
    let audio = Audio { sample_rate: 8000, channels: 1, bits: 16, samples };
    let mut file = container::encode(&audio, Settings { effort: Effort::Fast, chunk_frames: 256 }).unwrap();
    let r = container::Reader::new(&file).unwrap();
    assert_eq!(r.chunks(), 4);
    // Byte 8 past chunk 2's length and CRC fields is inside its payload.
    let second = {
        let mut o = 28usize;
        for _ in 0..2 {
            o += 8 + u32::from_le_bytes(file[o..o + 4].try_into().unwrap()) as usize;
        }
        o
    };
    file[second + 9] ^= 0x10;
    let e = container::decode(&file).unwrap_err();
    assert!(e.to_string().starts_with("chunk 2: CRC32 mismatch"), "{e}");
}

/// Long run for the CI slow stage: `cargo test --release -p lore-bitpack-audio -- --ignored`.
#[test]
#[ignore]
fn decoders_never_panic_long_run() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(8);
    for round in 0..200_000u32 {
        let n = rng.random_range(0..2000usize);
        let samples: Vec<i16> =
            (0..n).map(|i| ((i as f32 * 0.03).sin() * 9000.0) as i16 ^ (rng.random::<i16>() & 7)).collect();
        let audio = Audio { sample_rate: 8000, channels: 1, bits: 16, samples };
        let e = [Effort::Classic, Effort::Fast, Effort::Max][round as usize % 3];
        let mut file = container::encode(&audio, Settings { effort: e, chunk_frames: 128 }).unwrap();
        assert_eq!(container::decode(&file).unwrap(), audio);
        let i = rng.random_range(0..file.len());
        file[i] ^= 1 << rng.random_range(0..8u32);
        assert!(container::decode(&file).is_err());
        let bytes: Vec<u8> = (0..rng.random_range(0..300)).map(|_| rng.random()).collect();
        let bits = rng.random_range(0..=bytes.len() as u64 * 8);
        let _ = classic::unpack(&bytes, bits, rng.random_range(0..5000), Options::from_flags(round as u8 % 4).unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn stream_decoder_matches_and_never_panics(s in signal(), chunk in 1u32..200, cut in any::<usize>(),
                                               flip in any::<usize>()) {
        let audio = Audio { sample_rate: 8000, channels: 1, bits: 16, samples: s };
        let file = container::encode(&audio, Settings { effort: Effort::Fast, chunk_frames: chunk }).unwrap();
        let mut dec = container::StreamDecoder::new(&file[..]).unwrap();
        let mut got = Vec::new();
        while let Some(c) = dec.next_chunk().unwrap() { got.extend(c); }
        prop_assert_eq!(&got, &audio.samples);
        let stream_all = |bytes: &[u8]| -> Result<(), lore_bitpack_audio::Error> {
            let mut d = container::StreamDecoder::new(bytes)?;
            while d.next_chunk()?.is_some() {}
            Ok(())
        };
        prop_assert!(stream_all(&file[..cut % file.len()]).is_err());
        let mut bad = file.clone();
        bad[flip % file.len()] ^= 0x08;
        prop_assert!(stream_all(&bad).is_err());
    }
}
