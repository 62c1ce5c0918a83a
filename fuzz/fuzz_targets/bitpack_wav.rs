//! The WAV reader (both sample paths, plain and extensible headers) on arbitrary bytes. Run: `cargo +nightly fuzz run bitpack_wav -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::wav;

fuzz_target!(|data: &[u8]| {
    if let Ok(audio) = wav::read(data) {
        assert!(audio.samples.len() <= data.len(), "more samples than bytes");
        assert_eq!(audio.samples.len() % usize::from(audio.channels), 0);
    }
    if let Ok(audio) = wav::read_i32(data) {
        assert!(audio.samples.len() <= data.len(), "more samples than bytes");
        assert!((1..=8).contains(&audio.channels));
        assert_eq!(audio.samples.len() % usize::from(audio.channels), 0);
        // What was read writes back (unless its byte rate overflows 32 bits: the reader does not
        // need it) and reads back to the same samples, mask included.
        let info = wav::inspect(data).unwrap();
        if let Ok(again) = wav::write_i32_with_mask(&audio, info.channel_mask) {
            assert_eq!(wav::read_i32(&again).unwrap(), audio);
            assert_eq!(wav::inspect(&again).unwrap().channel_mask, info.channel_mask);
        }
    }
});
