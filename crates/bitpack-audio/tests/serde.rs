//! The serde support: encoder settings, limits and classic options round-trip through JSON
//! and encode the same; options the stream has no meaning for are refused.

// In the repository the crate's dev-dependency on itself turns `serde` on, so these tests always
// run; the gate keeps `cargo test` of the published package (which drops that dev-dependency)
// compiling.
#![cfg(feature = "serde")]

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Audio, Effort, Limits, Settings, container};

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

#[test]
fn settings_round_trip_and_encode_the_same() {
    let samples: Vec<i16> = (0..3000).map(|i| ((i as f32 * 0.03).sin() * 9000.0) as i16).collect();
    let audio = Audio { sample_rate: 22050, channels: 1, bits: 16, samples };
    for effort in [Effort::Classic, Effort::Fast, Effort::Max] {
        let settings = Settings { effort, chunk_frames: 700 };
        let back: Settings = round_trip(&settings);
        assert_eq!(back, settings);
        assert_eq!(container::encode(&audio, back).unwrap(), container::encode(&audio, settings).unwrap());
    }
    assert_eq!(serde_json::to_string(&Settings::default()).unwrap(), r#"{"effort":"Fast","chunk_frames":4096}"#);
}

#[test]
fn limits_round_trip() {
    for limits in [Limits::NONE, Limits::samples(1 << 20), Limits::pcm_bytes(3)] {
        assert_eq!(round_trip(&limits), limits);
    }
}

#[test]
fn options_are_their_flags_and_unpack_the_same() {
    let sine: Vec<i16> = (0..500).map(|i| ((i as f32 * 0.1).sin() * 3000.0) as i16).collect();
    let (packed, options) = classic::pack_best(&sine).unwrap();
    let back: Options = round_trip(&options);
    assert_eq!(back, options);
    assert_eq!(classic::unpack(&packed.bytes, packed.bits, sine.len(), back).unwrap(), sine);
    for o in Options::ALL {
        assert_eq!(serde_json::to_string(&o).unwrap(), o.flags().to_string());
    }
}

#[test]
fn options_out_of_range_are_refused() {
    let err = serde_json::from_str::<Options>("4").unwrap_err().to_string();
    assert!(err.contains('4'), "{err}");
    assert!(serde_json::from_str::<Options>("-1").is_err());
    assert!(serde_json::from_str::<Options>("256").is_err());
    assert!(serde_json::from_str::<Effort>(r#""Fastest""#).is_err());
}
