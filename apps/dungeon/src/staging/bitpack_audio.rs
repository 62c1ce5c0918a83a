//! Belongs in lore-bitpack-audio: mixing decoded clips (`Mixer`) — a fixed number of voices
//! playing mono clips with a gain, summed into 16-bit output with saturation, no allocation
//! per mixed block.

use lore_bitpack_audio::Audio;

/// One clip playing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Voice {
    clip: usize,
    pos: usize,
    gain: f32,
}

/// Plays mono clips of one sample rate on up to `voices` voices at once; a clip started when
/// every voice is busy replaces the voice closest to its end.
#[derive(Clone, Debug)]
pub struct Mixer {
    clips: Vec<Vec<i16>>,
    voices: Vec<Voice>,
    max_voices: usize,
    sample_rate: u32,
}

/// Why a clip could not be added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MixError {
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
}

impl Mixer {
    /// A mixer at `sample_rate` Hz with up to `voices` clips sounding at once (at least 1).
    #[must_use]
    pub fn new(sample_rate: u32, voices: usize) -> Self {
        let max_voices = voices.max(1);
        Self { clips: Vec::new(), voices: Vec::with_capacity(max_voices), max_voices, sample_rate }
    }

    /// The mixer's sample rate.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Adds a decoded clip; returns its index for [`Mixer::play`].
    ///
    /// # Errors
    /// [`MixError`] for a clip that is not mono or not at the mixer's rate.
    pub fn add_clip(&mut self, audio: &Audio) -> Result<usize, MixError> {
        if audio.channels != 1 {
            return Err(MixError::NotMono(audio.channels));
        }
        if audio.sample_rate != self.sample_rate {
            return Err(MixError::Rate { clip: audio.sample_rate, mixer: self.sample_rate });
        }
        self.clips.push(audio.samples.clone());
        Ok(self.clips.len() - 1)
    }

    /// Starts clip `clip` at `gain` (clamped to `0..=4`); unknown clips are ignored.
    pub fn play(&mut self, clip: usize, gain: f32) {
        let Some(len) = self.clips.get(clip).map(Vec::len) else { return };
        let gain = if gain.is_finite() { gain.clamp(0.0, 4.0) } else { 0.0 };
        let voice = Voice { clip, pos: 0, gain };
        if self.voices.len() < self.max_voices {
            self.voices.push(voice);
        } else if let Some(slot) = self
            .voices
            .iter_mut()
            .min_by_key(|v| self_len(&self.clips, v).saturating_sub(v.pos))
            .filter(|v| self_len(&self.clips, v).saturating_sub(v.pos) < len)
        {
            *slot = voice;
        }
    }

    /// Voices sounding now.
    #[must_use]
    pub fn playing(&self) -> usize {
        self.voices.len()
    }

    /// Mixes the next `out.len()` samples into `out` (replacing it) and advances every voice;
    /// voices that end are freed.
    pub fn mix(&mut self, out: &mut [i16]) {
        let mut acc = [0f32; 256];
        for block in out.chunks_mut(acc.len()) {
            let acc = &mut acc[..block.len()];
            acc.fill(0.0);
            for v in &mut self.voices {
                let clip = &self.clips[v.clip];
                let n = clip.len().saturating_sub(v.pos).min(acc.len());
                for (a, &s) in acc[..n].iter_mut().zip(&clip[v.pos..v.pos + n]) {
                    *a += f32::from(s) * v.gain;
                }
                v.pos += n;
            }
            for (o, a) in block.iter_mut().zip(acc.iter()) {
                *o = a.round().clamp(-32768.0, 32767.0) as i16;
            }
            let clips = &self.clips;
            self.voices.retain(|v| v.pos < clips[v.clip].len());
        }
    }
}

fn self_len(clips: &[Vec<i16>], v: &Voice) -> usize {
    clips[v.clip].len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(samples: Vec<i16>) -> Audio {
        Audio { sample_rate: 8000, channels: 1, bits: 16, samples }
    }

    #[test]
    fn clips_sum_saturate_and_end() {
        let mut m = Mixer::new(8000, 4);
        let a = m.add_clip(&clip(vec![1000; 300])).unwrap();
        let b = m.add_clip(&clip(vec![30000; 100])).unwrap();
        m.play(a, 1.0);
        m.play(b, 0.5);
        m.play(b, 1.0);
        let mut out = vec![7; 400];
        m.mix(&mut out);
        assert_eq!(out[0], 32767, "saturates instead of wrapping");
        assert_eq!(out[150], 1000);
        assert_eq!(out[350], 0, "silence after every clip ends");
        assert_eq!(m.playing(), 0);
    }

    #[test]
    fn wrong_clips_are_refused_and_voices_are_capped() {
        let mut m = Mixer::new(8000, 2);
        let stereo = Audio { sample_rate: 8000, channels: 2, bits: 16, samples: vec![0; 4] };
        assert_eq!(m.add_clip(&stereo), Err(MixError::NotMono(2)));
        let fast = Audio { sample_rate: 44100, ..clip(vec![0; 4]) };
        assert!(matches!(m.add_clip(&fast), Err(MixError::Rate { .. })));
        let c = m.add_clip(&clip(vec![100; 50])).unwrap();
        for _ in 0..5 {
            m.play(c, 1.0);
        }
        m.play(99, 1.0);
        assert_eq!(m.playing(), 2);
        let mut out = vec![0; 10];
        m.mix(&mut out);
        assert_eq!(out[0], 200);
    }
}
