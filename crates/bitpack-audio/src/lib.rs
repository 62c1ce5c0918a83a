//! Lossless compression of 16-bit audio in the klystrack family: delta and Gray coding, bit
//! planes, Elias-gamma run lengths.
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
//!   detection for upscaled 8-bit data, and a chunk table for seeking.
//! - [`wav`]: 8- and 16-bit PCM WAV in and out, whole or piece by piece.
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
pub use error::Error;
pub use predict::Effort;

use alloc::vec::Vec;

/// A clip of PCM audio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audio {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channels: 1 (mono) or 2 (stereo).
    pub channels: u8,
    /// Bits per sample of the source: 16, or 8 (then every sample is a multiple of 256).
    pub bits: u8,
    /// Interleaved 16-bit samples; 8-bit sources are stored as `(u8 - 128) << 8`.
    pub samples: Vec<i16>,
}

impl Audio {
    /// Samples per channel.
    pub fn frames(&self) -> usize {
        self.samples.len() / usize::from(self.channels.max(1))
    }

    /// The samples of channel `k` (0 = left), de-interleaved; empty when `k` is not a channel.
    #[must_use]
    pub fn channel(&self, k: usize) -> Vec<i16> {
        let ch = usize::from(self.channels.max(1));
        if k >= ch {
            return Vec::new();
        }
        self.samples.iter().skip(k).step_by(ch).copied().collect()
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
}
