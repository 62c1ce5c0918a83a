//! Mixing decoded clips for playback: a [`Mixer`] holds mono clips of one sample rate and plays
//! them on a fixed number of voices, each with its own gain, summed into 16-bit output with
//! saturation (a loud sum clips instead of wrapping). Mixing allocates nothing: voices live in
//! a buffer sized once by [`Mixer::new`], and the sum goes through a small stack block.
//!
//! Works without `std` (on `alloc`), like the codec.
//!
//! ```
//! use lore_bitpack_audio::Audio;
//! use lore_bitpack_audio::mix::Mixer;
//!
//! let mut mixer = Mixer::new(8000, 4)?;
//! let beep = mixer.add_clip(&Audio { sample_rate: 8000, channels: 1, bits: 16, samples: vec![1000; 300] })?;
//! assert!(mixer.play(beep, 0.5)?);
//! let mut out = [0i16; 400];
//! mixer.mix(&mut out);
//! assert_eq!((out[0], out[299], out[300]), (500, 500, 0)); // the clip, then silence
//! assert_eq!(mixer.playing(), 0);
//! # Ok::<(), lore_bitpack_audio::mix::MixError>(())
//! ```

use alloc::vec::Vec;

use crate::{Audio, Limits, decode_with_limits};

/// The most voices a [`Mixer`] may have.
pub const MAX_VOICES: usize = 256;
/// The most clips a [`Mixer`] may hold.
pub const MAX_CLIPS: usize = 4096;
/// The largest gain [`Mixer::play`] applies; larger gains are clamped to it.
pub const MAX_GAIN: f32 = 4.0;

/// What a [`Mixer`] refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MixError {
    /// A voice count of 0 or above [`MAX_VOICES`].
    #[error("a mixer has 1..={max} voices, not {0}", max = MAX_VOICES)]
    Voices(usize),
    /// A sample rate of 0 Hz.
    #[error("a mixer's sample rate must be above 0 Hz")]
    ZeroRate,
    /// The clip is not mono.
    #[error("clip has {0} channels, the mixer plays mono")]
    NotMono(u8),
    /// The clip's rate differs from the mixer's.
    #[error("clip is {clip} Hz, the mixer runs at {mixer} Hz")]
    Rate {
        /// The clip's rate.
        clip: u32,
        /// The mixer's.
        mixer: u32,
    },
    /// The mixer already holds [`MAX_CLIPS`] clips.
    #[error("the mixer already holds {} clips", MAX_CLIPS)]
    TooManyClips,
    /// No clip has this index.
    #[error("no clip {clip} in the mixer (it holds {count})")]
    UnknownClip {
        /// The index asked for.
        clip: usize,
        /// Clips the mixer holds.
        count: usize,
    },
}

/// Why a set of encoded clips could not be loaded into a mixer ([`Mixer::from_encoded`]).
/// Every message starts with the clip's name (`sound NAME: ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClipError {
    /// A clip did not decode (truncated, corrupt, or past the sample cap).
    #[error("sound {name}: {source}")]
    Decode {
        /// The clip's name.
        name: &'static str,
        /// Why.
        source: crate::Error,
    },
    /// A clip decoded to something the mixer cannot play (not mono, another rate).
    #[error("sound {name}: {source}")]
    Format {
        /// The clip's name.
        name: &'static str,
        /// Why.
        source: MixError,
    },
    /// The mixer itself was refused (its voice count or rate).
    #[error("sound mixer: {0}")]
    Mixer(#[source] MixError),
}

/// Decodes one encoded (`.bpk`) clip called `name`, refusing one of more than `max_samples`
/// samples before decoding it.
///
/// # Errors
/// [`ClipError::Decode`] for a truncated or corrupt file, or one past the cap.
pub fn decode_clip(name: &'static str, bytes: &[u8], max_samples: u64) -> Result<Audio, ClipError> {
    decode_with_limits(bytes, Limits::samples(max_samples)).map_err(|source| ClipError::Decode { name, source })
}

/// One clip playing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Voice {
    clip: usize,
    pos: usize,
    gain: f32,
}

/// Plays mono clips of one sample rate on up to a fixed number of voices at once; a clip started
/// when every voice is busy replaces the voice closest to its end, if that one has fewer
/// samples left than the new clip.
#[derive(Clone, Debug)]
pub struct Mixer {
    clips: Vec<Vec<i16>>,
    voices: Vec<Voice>,
    max_voices: usize,
    sample_rate: u32,
}

impl Mixer {
    /// A mixer at `sample_rate` Hz with up to `voices` clips sounding at once.
    ///
    /// # Errors
    /// [`MixError::Voices`] unless `voices` is within `1..=`[`MAX_VOICES`];
    /// [`MixError::ZeroRate`] for a rate of 0.
    pub fn new(sample_rate: u32, voices: usize) -> Result<Self, MixError> {
        if !(1..=MAX_VOICES).contains(&voices) {
            return Err(MixError::Voices(voices));
        }
        if sample_rate == 0 {
            return Err(MixError::ZeroRate);
        }
        Ok(Self { clips: Vec::new(), voices: Vec::with_capacity(voices), max_voices: voices, sample_rate })
    }

    /// The mixer's sample rate in Hz.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// The most clips that sound at once.
    #[must_use]
    pub fn max_voices(&self) -> usize {
        self.max_voices
    }

    /// Clips held.
    #[must_use]
    pub fn clip_count(&self) -> usize {
        self.clips.len()
    }

    /// A mixer of `voices` voices at `sample_rate` holding the encoded (`.bpk`) clips `clips`
    /// (name and bytes; clip `i` is `clips[i]`), each decoded with at most `max_samples`
    /// samples: a game's sound effects, shipped as assets, in one call.
    ///
    /// # Errors
    /// [`ClipError::Mixer`] for a voice count or rate [`Mixer::new`] refuses;
    /// [`ClipError::Decode`] or [`ClipError::Format`] for the first clip that does not decode
    /// or is not mono at `sample_rate`.
    ///
    /// ```
    /// use lore_bitpack_audio::mix::{ClipError, Mixer};
    /// use lore_bitpack_audio::{Audio, Settings, encode};
    ///
    /// let beep = encode(&Audio { sample_rate: 8000, channels: 1, bits: 16, samples: vec![900; 400] }, Settings::default())?;
    /// let mut mixer = Mixer::from_encoded(8000, 4, &[("beep.bpk", &beep)], 8000)?;
    /// assert_eq!(mixer.clip_count(), 1);
    /// assert!(mixer.play(0, 1.0)?);
    /// let cut = Mixer::from_encoded(8000, 4, &[("beep.bpk", &beep[..10])], 8000).unwrap_err();
    /// assert!(matches!(cut, ClipError::Decode { name: "beep.bpk", .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_encoded(
        sample_rate: u32,
        voices: usize,
        clips: &[(&'static str, &[u8])],
        max_samples: u64,
    ) -> Result<Self, ClipError> {
        let mut mixer = Mixer::new(sample_rate, voices).map_err(ClipError::Mixer)?;
        for &(name, bytes) in clips {
            let audio = decode_clip(name, bytes, max_samples)?;
            mixer.add_clip(&audio).map_err(|source| ClipError::Format { name, source })?;
        }
        Ok(mixer)
    }

    /// Adds a decoded clip (copying its samples); returns its index for [`Mixer::play`].
    ///
    /// # Errors
    /// [`MixError::NotMono`] or [`MixError::Rate`] for a clip that is not mono or not at the
    /// mixer's rate, [`MixError::TooManyClips`] past [`MAX_CLIPS`]; the mixer is unchanged then.
    pub fn add_clip(&mut self, audio: &Audio) -> Result<usize, MixError> {
        if audio.channels != 1 {
            return Err(MixError::NotMono(audio.channels));
        }
        if audio.sample_rate != self.sample_rate {
            return Err(MixError::Rate { clip: audio.sample_rate, mixer: self.sample_rate });
        }
        if self.clips.len() >= MAX_CLIPS {
            return Err(MixError::TooManyClips);
        }
        self.clips.push(audio.samples.clone());
        Ok(self.clips.len() - 1)
    }

    /// Starts clip `clip` at `gain` (clamped to `0..=`[`MAX_GAIN`]; a non-finite gain is
    /// silence). Returns whether it sounds: `false` when every voice is busy with a clip that
    /// has at least as many samples left as this one has in all.
    ///
    /// # Errors
    /// [`MixError::UnknownClip`] for an index [`Mixer::add_clip`] did not return.
    pub fn play(&mut self, clip: usize, gain: f32) -> Result<bool, MixError> {
        let len = self.clips.get(clip).map(Vec::len).ok_or(MixError::UnknownClip { clip, count: self.clips.len() })?;
        let gain = if gain.is_finite() { gain.clamp(0.0, MAX_GAIN) } else { 0.0 };
        let voice = Voice { clip, pos: 0, gain };
        if self.voices.len() < self.max_voices {
            self.voices.push(voice);
            return Ok(true);
        }
        let clips = &self.clips;
        let left = |v: &Voice| clips.get(v.clip).map_or(0, Vec::len).saturating_sub(v.pos);
        match self.voices.iter_mut().min_by_key(|v| left(v)).filter(|v| left(v) < len) {
            Some(slot) => {
                *slot = voice;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Voices sounding now.
    #[must_use]
    pub fn playing(&self) -> usize {
        self.voices.len()
    }

    /// Silences every voice.
    pub fn stop_all(&mut self) {
        self.voices.clear();
    }

    /// Mixes the next `out.len()` samples into `out` (replacing what it held) and advances
    /// every voice; voices that end are freed. Each output sample is the sum of the voices'
    /// samples times their gains, rounded to the nearest integer (halves away from zero) and
    /// saturated to the i16 range. Allocates nothing.
    pub fn mix(&mut self, out: &mut [i16]) {
        let mut acc = [0f32; 256];
        for block in out.chunks_mut(acc.len()) {
            let acc = &mut acc[..block.len()];
            acc.fill(0.0);
            for v in &mut self.voices {
                let Some(clip) = self.clips.get(v.clip) else { continue };
                let rest = clip.get(v.pos..).unwrap_or(&[]);
                let n = rest.len().min(acc.len());
                for (a, &s) in acc[..n].iter_mut().zip(&rest[..n]) {
                    *a += f32::from(s) * v.gain;
                }
                v.pos += n;
            }
            for (o, &a) in block.iter_mut().zip(acc.iter()) {
                *o = saturate(a);
            }
            let clips = &self.clips;
            self.voices.retain(|v| clips.get(v.clip).is_some_and(|c| v.pos < c.len()));
        }
    }
}

/// `a` rounded to the nearest integer (halves away from zero) and clamped to the i16 range,
/// without `f32::round` (which `core` lacks).
fn saturate(a: f32) -> i16 {
    let a = a.clamp(-32768.0, 32767.0);
    let t = a as i32; // towards zero, exact for |a| <= 32768
    let frac = a - t as f32; // exact: both are small integers or a's own fraction
    let r = if frac >= 0.5 {
        t + 1
    } else if frac <= -0.5 {
        t - 1
    } else {
        t
    };
    r.clamp(-32768, 32767) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn clip(samples: Vec<i16>) -> Audio {
        Audio { sample_rate: 8000, channels: 1, bits: 16, samples }
    }

    #[test]
    fn clips_sum_saturate_and_end() {
        let mut m = Mixer::new(8000, 4).unwrap();
        let a = m.add_clip(&clip(vec![1000; 300])).unwrap();
        let b = m.add_clip(&clip(vec![30000; 100])).unwrap();
        assert_eq!(m.play(a, 1.0), Ok(true));
        assert_eq!(m.play(b, 0.5), Ok(true));
        assert_eq!(m.play(b, 1.0), Ok(true));
        let mut out = vec![7; 400];
        m.mix(&mut out);
        assert_eq!(out[0], 32767, "saturates instead of wrapping");
        assert_eq!(out[150], 1000);
        assert_eq!(out[350], 0, "silence after every clip ends");
        assert_eq!(m.playing(), 0);
        let low = m.add_clip(&clip(vec![-30000; 10])).unwrap();
        m.play(low, 2.0).unwrap();
        m.mix(&mut out[..10]);
        assert_eq!(out[0], -32768);
    }

    #[test]
    fn wrong_clips_and_settings_are_refused_and_voices_are_capped() {
        assert_eq!(Mixer::new(8000, 0).unwrap_err(), MixError::Voices(0));
        assert_eq!(Mixer::new(8000, MAX_VOICES + 1).unwrap_err(), MixError::Voices(MAX_VOICES + 1));
        assert_eq!(Mixer::new(0, 2).unwrap_err(), MixError::ZeroRate);
        let mut m = Mixer::new(8000, 2).unwrap();
        let stereo = Audio { sample_rate: 8000, channels: 2, bits: 16, samples: vec![0; 4] };
        assert_eq!(m.add_clip(&stereo), Err(MixError::NotMono(2)));
        let fast = Audio { sample_rate: 44100, ..clip(vec![0; 4]) };
        assert!(matches!(m.add_clip(&fast), Err(MixError::Rate { .. })));
        assert_eq!(m.clip_count(), 0);
        let c = m.add_clip(&clip(vec![100; 50])).unwrap();
        for _ in 0..5 {
            m.play(c, 1.0).unwrap();
        }
        assert_eq!(m.play(99, 1.0), Err(MixError::UnknownClip { clip: 99, count: 1 }));
        assert_eq!(m.playing(), 2);
        let mut out = vec![0; 10];
        m.mix(&mut out);
        assert_eq!(out[0], 200);
    }

    #[test]
    fn a_busy_mixer_replaces_the_voice_nearest_its_end_only_for_a_longer_clip() {
        let mut m = Mixer::new(8000, 1).unwrap();
        let long = m.add_clip(&clip(vec![10; 100])).unwrap();
        let short = m.add_clip(&clip(vec![20; 30])).unwrap();
        assert_eq!(m.play(long, 1.0), Ok(true));
        let mut out = vec![0; 60];
        m.mix(&mut out); // 40 samples of `long` left
        assert_eq!(m.play(short, 1.0), Ok(false), "30 < 40 left: the long clip keeps its voice");
        assert_eq!(m.play(long, 1.0), Ok(true), "100 > 40 left: restarts");
        m.mix(&mut out[..1]);
        assert_eq!(out[0], 10);
        m.stop_all();
        assert_eq!(m.playing(), 0);
        m.mix(&mut out);
        assert!(out.iter().all(|&s| s == 0));
    }

    #[test]
    fn gains_are_clamped_and_rounding_goes_half_away_from_zero() {
        let mut m = Mixer::new(8000, 4).unwrap();
        let c = m.add_clip(&clip(vec![3, -3, 5, -5, 1000])).unwrap();
        m.play(c, 0.5).unwrap();
        let mut out = [0i16; 5];
        m.mix(&mut out);
        assert_eq!(out, [2, -2, 3, -3, 500]);
        m.play(c, f32::NAN).unwrap();
        m.play(c, -1.0).unwrap();
        m.play(c, 100.0).unwrap();
        m.mix(&mut out);
        assert_eq!(out, [12, -12, 20, -20, 4000], "NaN and negative gains are silent, 100 is 4");
        for (a, want) in [(0.49f32, 0), (0.5, 1), (-0.5, -1), (-1.5, -2), (2.5, 3), (1e9, 32767), (-1e9, -32768)] {
            assert_eq!(saturate(a), want, "{a}");
        }
        assert_eq!(saturate(f32::NAN), 0);
    }

    #[test]
    fn long_outputs_are_mixed_across_blocks() {
        let mut m = Mixer::new(8000, 2).unwrap();
        let ramp: Vec<i16> = (0..1000).collect();
        let c = m.add_clip(&clip(ramp.clone())).unwrap();
        m.play(c, 1.0).unwrap();
        let mut out = vec![0; 1200];
        m.mix(&mut out[..700]);
        m.mix(&mut out[700..]);
        assert_eq!(&out[..1000], &ramp[..]);
        assert!(out[1000..].iter().all(|&s| s == 0));
    }

    proptest::proptest! {
        /// With voices enough for every clip, the mix is the saturated, rounded sum of each
        /// clip times its gain, however the output is split into calls.
        #[test]
        fn the_mix_is_the_clamped_sum_in_any_split(
            clips in proptest::collection::vec(
                (proptest::collection::vec(proptest::num::i16::ANY, 0..600), 0.0f32..4.0), 1..6),
            split in 0usize..900,
        ) {
            let mut m = Mixer::new(8000, clips.len()).unwrap();
            for (samples, gain) in &clips {
                let c = m.add_clip(&clip(samples.clone())).unwrap();
                proptest::prop_assert_eq!(m.play(c, *gain), Ok(true));
            }
            let mut out = vec![1i16; 900];
            let (head, tail) = out.split_at_mut(split);
            m.mix(head);
            m.mix(tail);
            for (i, &o) in out.iter().enumerate() {
                let sum: f32 = clips.iter().map(|(s, g)| s.get(i).map_or(0.0, |&v| f32::from(v) * g)).sum();
                proptest::prop_assert_eq!(o, saturate(sum), "sample {}", i);
                proptest::prop_assert!((f32::from(o) - sum.clamp(-32768.0, 32767.0)).abs() <= 0.5 + sum.abs() * 1e-6);
            }
            proptest::prop_assert_eq!(m.playing(), 0);
        }
    }
}
