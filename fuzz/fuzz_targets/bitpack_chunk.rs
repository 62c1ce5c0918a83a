//! One `.bpk` chunk payload straight into the block decoders (constant, classic, fixed
//! prediction + Rice, LPC + Rice; 16-bit and wide, 1 to 8 channels), past the CRC that guards them in a file.
//! Run: `cargo +nightly fuzz run bitpack_chunk -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::container;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    // Bit 0 of byte 0: stereo; the rest of bytes 0..2: frames, up to 32,767 (bounded memory).
    let head = u16::from_le_bytes([data[0], data[1]]);
    let channels = 1 + (head & 1) as u8;
    let frames = usize::from(head >> 1);
    let mut out = vec![0i16; frames * usize::from(channels)];
    let _ = container::decode_chunk(&data[2..], channels, &mut out);
    // The same payload as 24-bit audio (wide blocks), and both depths as 3 to 8 channels, each
    // channel on its own.
    let mut wide = vec![0i32; frames * usize::from(channels)];
    let _ = container::decode_chunk_i32(&data[2..], channels, &mut wide);
    let many = 3 + (frames % 6) as u8;
    let n = (frames / 8 * usize::from(many)).min(out.len());
    let _ = container::decode_chunk(&data[2..], many, &mut out[..n]);
    let _ = container::decode_chunk_i32(&data[2..], many, &mut wide[..n]);
});
