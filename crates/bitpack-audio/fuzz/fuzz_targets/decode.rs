//! Container and classic decoders on arbitrary bytes: no panic, no over-read (ASan), memory
//! bounded by the input. Run: `cargo +nightly fuzz run decode -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container;

fuzz_target!(|data: &[u8]| {
    let _ = container::decode(data);
    if let Some((&head, rest)) = data.split_first() {
        // First byte: option and a sample count of up to 4,095 (bounded memory).
        let n = usize::from(head) * 16;
        let bits = rest.len() as u64 * 8 - u64::from(head % 8).min(rest.len() as u64 * 8);
        let _ = classic::unpack(rest, bits, n, Options::from_flags(head & 3).unwrap());
    }
});
