//! Lossless compression of 8-, 16- and 24-bit audio of 1 to 8 channels in the klystrack family:
//! delta and Gray coding, bit planes, Elias-gamma run lengths, and prediction + Rice codes.
//!
//! Three layers:
//!
//! - [`classic`]: the reference bit stream of the "Lossless Audio Compression" post and of
//!   klystron's `bitpack`/`bitunpack`/`bitpack_best`, bit for bit, with word-at-a-time bit I/O and
//!   64-sample bit-plane transposition. Options and the sample count are kept by the caller.
//! - [`container`]: the `.bpk` file: a header, chunks (each with its CRC32, each channel coded as a
//!   constant, as classic bit planes with the best of the four options, or as a fixed-order or
//!   LPC prediction residual with partitioned Rice codes, whichever is smallest for the chosen
//!   [`Effort`]), stereo with the second channel optionally coded against the first, wasted-bits
//!   detection for upscaled 8-bit data, and a chunk table for seeking; 24-bit samples and 3 to
//!   8 channels in version 2 files.
//! - [`wav`]: 8- to 32-bit integer PCM WAV of 1 to 8 channels in and out (plain and
//!   WAVE_FORMAT_EXTENSIBLE headers), whole or piece by piece.
//!
//! Samples travel as `i16` ([`Audio`], the fast path: 8 and 16 bits) or as `i32` at the source's
//! scale (`Audio<i32>`: every depth, 24-bit included); see [`Audio`].
//!
//! Beside them, [`mix`] plays decoded clips: a fixed-voice [`Mixer`](mix::Mixer) with gains and
//! saturating 16-bit output, allocating nothing per mixed block.
//!
//! The guide (docs/bitpack-audio.md in the repository) says which layer to choose and why.
//!
//! Every decoder returns [`Error`] on truncated or corrupt input; none panics, loops forever or
//! reads past its buffer.
//!
//! # Feature flags
//!
//! - `std` (default): `std::error::Error` and the `io` helpers. Without it: `no_std` + `alloc`.
//! - `serde`: `Serialize` / `Deserialize` for the encoder's choices, [`Settings`], [`Effort`],
//!   [`Limits`] and [`classic::Options`] (flags outside `0..=3` are refused when read), `no_std`
//!   too.
//!
//! ```
//! use lore_bitpack_audio::{classic, container, Audio, Effort, Settings};
//!
//! // The classic stream, as klystrack stores a sample.
//! let sine: Vec<i16> = (0..4000).map(|i| ((i as f32 * 0.05).sin() * 12000.0) as i16).collect();
//! let (packed, options) = classic::pack_best(&sine)?;
//! assert!(packed.bits < 16 * sine.len() as u64); // smaller than raw PCM
//! assert_eq!(classic::unpack(&packed.bytes, packed.bits, sine.len(), options)?, sine);
//!
//! // A .bpk file.
//! let audio = Audio { sample_rate: 22050, channels: 1, bits: 16, samples: sine };
//! let file = container::encode(&audio, Settings { effort: Effort::Max, chunk_frames: 1024 })?;
//! assert_eq!(container::decode(&file)?, audio);
//! # Ok::<(), lore_bitpack_audio::Error>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

// The README's examples are compiled and run as doctests, so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

extern crate alloc;

pub mod bits;
pub mod classic;
pub mod container;
mod crc;
mod error;
pub mod mix;
#[cfg(feature = "std")]
pub mod plan;
mod planes;
pub mod predict;
pub mod stats;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod synth;
pub mod wav;

/// The guide, docs/bitpack-audio.md: its examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/bitpack-audio.md")]
struct GuideDoctests;

pub use container::{Limits, Settings, decode, decode_with_limits, encode};
pub use crc::crc32;
pub use error::{Error, WavUnsupported};
pub use predict::Effort;

use alloc::vec::Vec;

/// A clip of PCM audio, with samples of type `S`: `i16` (the default, and the fast path) or
/// `i32` (every depth the crate handles, 24-bit included).
///
/// The two sample types scale differently, each as its users expect:
///
/// - `Audio<i16>` (plain `Audio`): 16-bit samples; 8-bit sources are stored as `(u8 - 128) << 8`,
///   so every clip plays at the same loudness. 24-bit sources do not fit and are refused with
///   [`Error::NeedsI32`].
/// - `Audio<i32>`: samples at the source's own scale, as FLAC and hound give them: a `bits`-bit
///   sample lies in `-2^(bits-1) .. 2^(bits-1)` (8-bit: `u8 - 128`, 16-bit: as is, 24-bit:
///   ±8,388,608).
///
/// [`Audio::to_i32`] and [`Audio::to_i16`] convert between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audio<S = i16> {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channels: 1 to 8 (1 mono, 2 stereo; WAV's order for more: front left, front right,
    /// centre, LFE, back left, back right, side left, side right).
    pub channels: u8,
    /// Bits per sample of the source: 8, 16 or 24 (32 in WAV files only).
    pub bits: u8,
    /// Interleaved samples, scaled as the type's docs say.
    pub samples: Vec<S>,
}

impl<S: Copy> Audio<S> {
    /// Samples per channel.
    pub fn frames(&self) -> usize {
        self.samples.len() / usize::from(self.channels.max(1))
    }

    /// The samples of channel `k` (0 = left), de-interleaved; empty when `k` is not a channel.
    #[must_use]
    pub fn channel(&self, k: usize) -> Vec<S> {
        let ch = usize::from(self.channels.max(1));
        if k >= ch {
            return Vec::new();
        }
        self.samples.iter().skip(k).step_by(ch).copied().collect()
    }
}

impl Audio<i16> {
    /// The clip with `i32` samples at the source's scale (8-bit: `s >> 8`).
    #[must_use]
    pub fn to_i32(&self) -> Audio<i32> {
        let shift = if self.bits == 8 { 8 } else { 0 };
        let samples = self.samples.iter().map(|&s| i32::from(s) >> shift).collect();
        Audio { sample_rate: self.sample_rate, channels: self.channels, bits: self.bits, samples }
    }
}

impl Audio<i32> {
    /// The clip with `i16` samples (8-bit: `s << 8`), or [`Error::NeedsI32`] for a source of more
    /// than 16 bits and [`Error::SampleRange`] for a sample outside its `bits`.
    pub fn to_i16(&self) -> Result<Audio<i16>, Error> {
        if self.bits > 16 {
            return Err(Error::NeedsI32 { bits: self.bits });
        }
        let shift = if self.bits == 8 { 8 } else { 0 };
        let (lo, hi) = if self.bits == 8 { (-128, 127) } else { (-32768, 32767) };
        let samples = self
            .samples
            .iter()
            .map(|&s| if (lo..=hi).contains(&s) { Ok((s << shift) as i16) } else { Err(Error::SampleRange) })
            .collect::<Result<_, _>>()?;
        Ok(Audio { sample_rate: self.sample_rate, channels: self.channels, bits: self.bits, samples })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn channels_de_interleave() {
        let a = Audio { sample_rate: 8000, channels: 2, bits: 16, samples: vec![1, -1, 2, -2, 3, -3] };
        assert_eq!(a.channel(0), [1, 2, 3]);
        assert_eq!(a.channel(1), [-1, -2, -3]);
        assert!(a.channel(2).is_empty());
        assert_eq!(a.frames(), 3);
    }

    #[test]
    fn i16_and_i32_clips_convert_both_ways_at_each_scale() {
        let eight = Audio { sample_rate: 8000, channels: 1, bits: 8, samples: vec![-32768, 0, 256, 32512] };
        let wide = eight.to_i32();
        assert_eq!(wide.samples, [-128, 0, 1, 127]);
        assert_eq!(wide.to_i16().unwrap(), eight);
        let sixteen = Audio { bits: 16, ..eight.clone() };
        assert_eq!(sixteen.to_i32().samples, [-32768, 0, 256, 32512]);
        assert_eq!(Audio { samples: vec![128], ..wide.clone() }.to_i16(), Err(Error::SampleRange));
        assert_eq!(Audio { bits: 24, ..wide }.to_i16(), Err(Error::NeedsI32 { bits: 24 }));
    }
}
