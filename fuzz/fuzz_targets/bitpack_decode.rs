//! Container (both sample paths, versions 1 and 2) and classic decoders on arbitrary bytes: no panic, no over-read (ASan), memory
//! bounded by the input. Run: `cargo +nightly fuzz run bitpack_decode -- -max_total_time=60`.
//!
//! Raw bytes rarely get past the header and chunk CRCs; `bitpack_container_crc` fixes them up and
//! `bitpack_chunk` feeds payloads to the block decoders directly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::bits::BitReader;
use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container;

fuzz_target!(|data: &[u8]| {
    let _ = container::decode(data);
    // With an output limit, nothing over it comes out.
    let limits = container::Limits::samples(1 << 16);
    if let Ok(a) = container::decode_with_limits(data, limits) {
        assert!(a.samples.len() as u64 <= limits.max_samples);
    }
    // The i32 path reads every depth (24-bit files, version 2).
    if let Ok(a) = container::decode_i32_with_limits(data, limits) {
        assert!(a.samples.len() as u64 <= limits.max_samples);
    }
    if let Ok(r) = container::Reader::new(data) {
        for i in 0..r.chunks() + 1 {
            let _ = r.decode_chunk(i);
            let _ = r.decode_chunk_i32(i);
        }
    }
    if let Ok(mut s) = container::StreamDecoder::new(data) {
        while let Ok(Some(_)) = s.next_chunk() {}
    }
    if let Ok(mut s) = container::StreamDecoder::new(data) {
        while let Ok(Some(_)) = s.next_chunk_i32() {}
    }
    if let Some((&head, rest)) = data.split_first() {
        // First byte: option and a sample count of up to 4,080 (bounded memory).
        let n = usize::from(head) * 16;
        let bits = rest.len() as u64 * 8 - u64::from(head % 8).min(rest.len() as u64 * 8);
        let _ = classic::unpack(rest, bits, n, Options::from_flags(head & 3).unwrap());
        // The public bit reader's variable-length codes.
        if let Ok(mut r) = BitReader::new(rest, bits) {
            while r.remaining() > 0 {
                let ok = match head >> 6 {
                    0 => r.gamma().is_ok(),
                    1 => r.unary(u64::from(head)).is_ok(),
                    _ => r.take(u32::from(head & 63) + 1).is_ok(),
                };
                if !ok {
                    break;
                }
            }
        }
    }
});
