//! The game's sound effects: scores for lore-bitpack-audio's small synthesiser
//! ([`lore_bitpack_audio::synth`]: square, triangle and saw oscillators, noise, linear
//! envelopes, nothing recorded), shipped as `.bpk` files encoded with lore-bitpack-audio,
//! decoded at start. The synthesiser gives the same samples on every platform, so a committed
//! `.bpk` file decodes to exactly what [`synthesise`] makes; a test checks it.

use lore_bitpack_audio::Audio;
use lore_bitpack_audio::synth::{Note, Wave, note};

use lore_bitpack_audio::mix::{ClipError, Mixer, decode_clip};

/// Sample rate of every effect.
pub const SAMPLE_RATE: u32 = 22_050;

/// Longest effect accepted from a file: 2 s.
pub const MAX_EFFECT_SAMPLES: u64 = 2 * SAMPLE_RATE as u64;

/// The effects, in asset order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// A shot fired.
    Shot,
    /// An enemy hit.
    Hit,
    /// A key picked up.
    Key,
    /// Doors opening.
    Door,
    /// The player hurt.
    Hurt,
    /// The exit reached.
    Exit,
}

impl Effect {
    /// Every effect.
    pub const ALL: [Effect; 6] = [Effect::Shot, Effect::Hit, Effect::Key, Effect::Door, Effect::Hurt, Effect::Exit];

    /// The asset's file name under `assets/sfx/`.
    #[must_use]
    pub fn file_name(self) -> &'static str {
        match self {
            Effect::Shot => "shot.bpk",
            Effect::Hit => "hit.bpk",
            Effect::Key => "key.bpk",
            Effect::Door => "door.bpk",
            Effect::Hurt => "hurt.bpk",
            Effect::Exit => "exit.bpk",
        }
    }

    /// The committed `.bpk` bytes, compiled in.
    #[must_use]
    pub fn asset(self) -> &'static [u8] {
        match self {
            Effect::Shot => include_bytes!("../assets/sfx/shot.bpk"),
            Effect::Hit => include_bytes!("../assets/sfx/hit.bpk"),
            Effect::Key => include_bytes!("../assets/sfx/key.bpk"),
            Effect::Door => include_bytes!("../assets/sfx/door.bpk"),
            Effect::Hurt => include_bytes!("../assets/sfx/hurt.bpk"),
            Effect::Exit => include_bytes!("../assets/sfx/exit.bpk"),
        }
    }
}

fn score(effect: Effect) -> Vec<Note> {
    use Wave::{Noise, Saw, Square, Triangle};
    match effect {
        Effect::Shot => vec![note(Square, 0.0, 0.09, 1100.0, 320.0, 0.22)],
        Effect::Hit => vec![note(Noise, 0.0, 0.14, 2000.0, 400.0, 0.3), note(Triangle, 0.0, 0.12, 180.0, 60.0, 0.5)],
        Effect::Key => vec![
            note(Triangle, 0.0, 0.09, 1047.0, 1047.0, 0.45),
            note(Triangle, 0.08, 0.09, 1319.0, 1319.0, 0.45),
            note(Triangle, 0.16, 0.16, 1568.0, 1568.0, 0.45),
        ],
        Effect::Door => vec![note(Saw, 0.0, 0.4, 70.0, 140.0, 0.3), note(Noise, 0.0, 0.3, 300.0, 150.0, 0.08)],
        Effect::Hurt => vec![note(Square, 0.0, 0.22, 420.0, 140.0, 0.25)],
        Effect::Exit => vec![
            note(Triangle, 0.0, 0.1, 523.0, 523.0, 0.4),
            note(Triangle, 0.1, 0.1, 659.0, 659.0, 0.4),
            note(Triangle, 0.2, 0.1, 784.0, 784.0, 0.4),
            note(Triangle, 0.3, 0.3, 1047.0, 1047.0, 0.4),
            note(Square, 0.3, 0.3, 523.0, 523.0, 0.1),
        ],
    }
}

/// The effect as the synthesiser makes it: mono, [`SAMPLE_RATE`] Hz, 16-bit.
#[must_use]
pub fn synthesise(effect: Effect) -> Audio {
    lore_bitpack_audio::synth::synthesise(&score(effect), SAMPLE_RATE)
}

/// Why the effects could not be loaded (every message names the asset).
pub type SoundError = ClipError;

/// Decodes one `.bpk` effect, refusing one longer than [`MAX_EFFECT_SAMPLES`].
///
/// # Errors
/// [`ClipError::Decode`] for a truncated or corrupt file.
pub fn decode_effect(name: &'static str, bytes: &[u8]) -> Result<Audio, SoundError> {
    decode_clip(name, bytes, MAX_EFFECT_SAMPLES)
}

/// A mixer holding every effect (clip `i` is `Effect::ALL[i]`), decoded from the shipped assets.
///
/// # Errors
/// [`ClipError`] when an asset does not decode or is not mono at [`SAMPLE_RATE`], or for a
/// voice count the mixer refuses.
pub fn effects_mixer(voices: usize) -> Result<Mixer, SoundError> {
    let clips = Effect::ALL.map(|e| (e.file_name(), e.asset()));
    Mixer::from_encoded(SAMPLE_RATE, voices, &clips, MAX_EFFECT_SAMPLES)
}

/// The clip index of `effect` in [`effects_mixer`].
#[must_use]
pub fn clip_of(effect: Effect) -> usize {
    Effect::ALL.iter().position(|&e| e == effect).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_effect_decodes_to_the_synthesisers_output() {
        for effect in Effect::ALL {
            let decoded = decode_effect(effect.file_name(), effect.asset()).unwrap();
            assert_eq!(decoded, synthesise(effect), "{} differs from the synthesiser", effect.file_name());
            assert!(decoded.samples.iter().any(|&s| s.unsigned_abs() > 2000), "{effect:?} is silent");
        }
    }

    #[test]
    fn a_truncated_effect_is_an_error_not_a_panic() {
        for effect in Effect::ALL {
            let bytes = effect.asset();
            for cut in [0, 1, 10, 27, 28, bytes.len() / 2, bytes.len() - 1] {
                let err = decode_effect(effect.file_name(), &bytes[..cut]).unwrap_err();
                assert!(err.to_string().starts_with(&format!("sound {}", effect.file_name())), "{err}");
            }
        }
    }

    #[test]
    fn the_mixer_holds_every_effect() {
        let mut mixer = effects_mixer(8).unwrap();
        assert_eq!(mixer.play(clip_of(Effect::Exit), 1.0), Ok(true));
        let mut out = vec![0; 2000];
        mixer.mix(&mut out);
        assert!(out.iter().any(|&s| s != 0));
    }
}
