//! What each format would make of a recording: the numbers behind `bitpack stats`.
//!
//! [`classic_chunks`] packs each chunk of each channel with every classic option
//! ([`Options::ALL`]) and keeps the bits each needs, plus the best of the four per chunk (the
//! choice `pack_best` would make for that chunk). [`encoded_sizes`] encodes the whole recording
//! as a `.bpk` file with [`Effort::Fast`] and [`Effort::Max`].

use alloc::vec::Vec;

use crate::classic::{self, Options};
use crate::container::{self, Settings};
use crate::{Audio, Effort, Error};

/// The classic stream's sizes for one chunk (every channel of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkStats {
    /// Samples in the chunk, all channels together.
    pub samples: usize,
    /// Packed bits with each option, indexed by [`Options::flags`], channels packed apart.
    pub bits: [u64; 4],
    /// The fewest of [`ChunkStats::bits`].
    pub best_bits: u64,
}

impl ChunkStats {
    /// The bits of 16-bit PCM for the same samples.
    pub fn pcm_bits(&self) -> u64 {
        16 * self.samples as u64
    }
}

/// The classic sizes of every chunk of `chunk_frames` frames (0 counts as 1), in order; the
/// channels of a chunk are packed one by one, as the classic stream is mono.
pub fn classic_chunks(audio: &Audio, chunk_frames: u32) -> Vec<ChunkStats> {
    let channels = usize::from(audio.channels.max(1));
    let per = chunk_frames.max(1) as usize * channels;
    let mut out = Vec::new();
    let mut lane = Vec::new();
    for part in audio.samples.chunks(per) {
        let mut bits = [0u64; 4];
        for c in 0..channels {
            lane.clear();
            lane.extend(part.iter().skip(c).step_by(channels).copied());
            for o in Options::ALL {
                bits[usize::from(o.flags())] += classic::packed_bits(&lane, o);
            }
        }
        let best_bits = bits.iter().copied().min().unwrap_or(0);
        out.push(ChunkStats { samples: part.len(), bits, best_bits });
    }
    out
}

/// The sizes in bytes of `audio` as a `.bpk` file with [`Effort::Fast`] and with
/// [`Effort::Max`], `chunk_frames` frames a chunk.
///
/// # Errors
/// What [`container::encode`] refuses (a chunk size of 0, an unsupported layout).
pub fn encoded_sizes(audio: &Audio, chunk_frames: u32) -> Result<(usize, usize), Error> {
    let fast = container::encode(audio, Settings { effort: Effort::Fast, chunk_frames })?.len();
    let max = container::encode(audio, Settings { effort: Effort::Max, chunk_frames })?.len();
    Ok((fast, max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn audio(channels: u8, samples: Vec<i16>) -> Audio {
        Audio { sample_rate: 8000, channels, bits: 16, samples }
    }

    #[test]
    fn chunks_split_by_frames_and_best_is_the_minimum() {
        let samples: Vec<i16> = (0..1000).map(|i| ((i * 37) % 200 - 100) as i16).collect();
        let a = audio(2, samples.clone());
        let chunks = classic_chunks(&a, 128);
        assert_eq!(chunks.len(), 1000usize.div_ceil(256));
        assert_eq!(chunks.iter().map(|c| c.samples).sum::<usize>(), 1000);
        for (i, c) in chunks.iter().enumerate() {
            assert_eq!(c.best_bits, *c.bits.iter().min().unwrap());
            // Each option's count is the sum of its channels packed alone.
            let part = &samples[i * 256..((i + 1) * 256).min(1000)];
            for o in Options::ALL {
                let left: Vec<i16> = part.iter().step_by(2).copied().collect();
                let right: Vec<i16> = part.iter().skip(1).step_by(2).copied().collect();
                let want = classic::packed_bits(&left, o) + classic::packed_bits(&right, o);
                assert_eq!(c.bits[usize::from(o.flags())], want);
            }
            assert_eq!(c.pcm_bits(), 16 * c.samples as u64);
        }
        // A chunk size of 0 counts as one frame.
        assert_eq!(classic_chunks(&audio(1, vec![1, 2, 3]), 0).len(), 3);
    }

    #[test]
    fn encoded_sizes_are_the_encoders_lengths() {
        let a = audio(1, (0..5000).map(|i| (i % 64) as i16).collect());
        let (fast, max) = encoded_sizes(&a, 1024).unwrap();
        assert_eq!(fast, container::encode(&a, Settings { effort: Effort::Fast, chunk_frames: 1024 }).unwrap().len());
        assert_eq!(max, container::encode(&a, Settings { effort: Effort::Max, chunk_frames: 1024 }).unwrap().len());
        assert!(encoded_sizes(&a, 0).is_err());
    }
}
