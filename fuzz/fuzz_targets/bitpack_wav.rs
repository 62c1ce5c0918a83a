//! The WAV reader on arbitrary bytes. Run: `cargo +nightly fuzz run bitpack_wav -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::wav;

fuzz_target!(|data: &[u8]| {
    if let Ok(audio) = wav::read(data) {
        assert!(audio.samples.len() <= data.len(), "more samples than bytes");
        assert_eq!(audio.samples.len() % usize::from(audio.channels), 0);
    }
});
