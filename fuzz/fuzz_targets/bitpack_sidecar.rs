//! The `.bits.meta` sidecar of a classic bitpack stream (apps/bitpack/src/sidecar.rs, compiled
//! in from the app's source), on arbitrary text: no panic; what parses writes back to a
//! sidecar that parses to the same values.
//! Run: `cargo +nightly fuzz run bitpack_sidecar -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)] // the app's reading of files is not fuzzed here, only the text
#[path = "../../apps/bitpack/src/sidecar.rs"]
mod sidecar;

use sidecar::Sidecar;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = Sidecar::parse(text) else { return };
    let written = parsed.to_text();
    let back = Sidecar::parse(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    assert_eq!(back, parsed, "{written:?}");
});
