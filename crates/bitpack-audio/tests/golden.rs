//! Conformance with the reference C code of the post (golden vectors made by
//! `tests/data/regen.sh`, gcc 12 -O2 on x86-64): option 3 streams are equal bit for bit.

use lore_bitpack_audio::classic::{self, Options};

fn vectors() -> Vec<(String, Vec<i16>, Vec<u8>, u64)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let manifest = std::fs::read_to_string(format!("{dir}/golden.txt")).expect("manifest");
    manifest
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let name = f[0].to_string();
            let n: usize = f[1].parse().unwrap();
            let bits: u64 = f[2].parse().unwrap();
            let pcm = std::fs::read(format!("{dir}/{name}.pcm")).unwrap();
            let samples: Vec<i16> = pcm.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            assert_eq!(samples.len(), n, "{name}");
            let packed = std::fs::read(format!("{dir}/{name}.bits")).unwrap();
            (name, samples, packed, bits)
        })
        .collect()
}

#[test]
fn our_option_3_stream_equals_the_reference_bit_for_bit() {
    let v = vectors();
    assert_eq!(v.len(), 10);
    for (name, samples, packed, bits) in &v {
        let ours = classic::pack(samples, Options::DELTA_GRAY).unwrap();
        assert_eq!(ours.bits, *bits, "{name}: packed size");
        assert_eq!(&ours.bytes, packed, "{name}: stream");
    }
}

#[test]
fn reference_streams_decode() {
    for (name, samples, packed, bits) in vectors() {
        let back = classic::unpack(&packed, bits, samples.len(), Options::DELTA_GRAY).unwrap();
        assert_eq!(back, samples, "{name}");
    }
}

#[test]
fn the_posts_sine_packs_to_301534_bits() {
    let v = vectors();
    let (_, sine, _, bits) = &v[0];
    assert_eq!(*bits, 301_534);
    // 18.8 % of 16-bit PCM, as the post's test program prints.
    let ratio = 100.0 * *bits as f64 / (sine.len() as f64 * 16.0);
    assert!((ratio - 18.8).abs() < 0.05, "{ratio}");
}

#[test]
fn truncated_reference_stream_is_an_error_not_a_panic() {
    let v = vectors();
    let (_, samples, packed, bits) = &v[0];
    for cut in [0u64, 1, 2, 33, bits / 2, bits - 1] {
        let r = classic::unpack(packed, cut, samples.len(), Options::DELTA_GRAY);
        assert!(r.is_err(), "cut at {cut}");
    }
    assert!(classic::unpack(&packed[..10], *bits, samples.len(), Options::DELTA_GRAY).is_err());
}
