//! A small deterministic synthesiser for game sound effects: square, triangle and saw
//! oscillators and a noise generator, each note gliding in pitch with a linear attack and a
//! linear decay (nothing recorded). It uses only additions, multiplications and divisions of
//! `f32` (no `sin`, no `exp`), which IEEE 754 rounds the same way everywhere, so a game can
//! commit the `.bpk` files it encodes and check that they decode to exactly what the
//! synthesiser makes (feature `std`).
//!
//! ```
//! use lore_bitpack_audio::synth::{Wave, note, synthesise};
//! let blip = synthesise(&[note(Wave::Square, 0.0, 0.05, 880.0, 440.0, 0.3)], 22_050);
//! assert_eq!(blip.samples.len(), (0.05f32 * 22_050.0) as usize + 1);
//! assert!(blip.samples.iter().any(|&s| s.unsigned_abs() > 2000));
//! ```

use alloc::vec;

use crate::Audio;

/// Waveforms of the synthesiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wave {
    /// A square wave (full scale, 50 % duty).
    Square,
    /// A triangle wave.
    Triangle,
    /// A rising saw wave.
    Saw,
    /// Noise: a new random level each time the phase wraps, so its pitch sets its colour.
    Noise,
}

/// One note: a waveform gliding from `from` to `to` Hz over `seconds` from `start` seconds,
/// with a linear attack of `attack` seconds and a linear decay to silence, at `level` (0..1) of
/// full scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Note {
    /// The waveform.
    pub wave: Wave,
    /// Start, seconds from the effect's start.
    pub start: f32,
    /// Length, seconds.
    pub seconds: f32,
    /// Pitch at the start, Hz.
    pub from: f32,
    /// Pitch at the end, Hz.
    pub to: f32,
    /// Attack, seconds.
    pub attack: f32,
    /// Level, 0..1 of full scale.
    pub level: f32,
}

/// A note with a 4 ms attack.
#[must_use]
pub const fn note(wave: Wave, start: f32, seconds: f32, from: f32, to: f32, level: f32) -> Note {
    Note { wave, start, seconds, from, to, attack: 0.004, level }
}

/// The notes mixed: mono, 16-bit, at `sample_rate`, long enough for the last note to end.
#[must_use]
pub fn synthesise(notes: &[Note], sample_rate: u32) -> Audio {
    let end = notes.iter().map(|n| n.start + n.seconds).fold(0.0f32, f32::max);
    let len = (end * sample_rate as f32) as usize + 1;
    let mut mix = vec![0f32; len];
    let dt = 1.0 / sample_rate as f32;
    for n in notes {
        let first = (n.start * sample_rate as f32) as usize;
        let count = (n.seconds * sample_rate as f32) as usize;
        let mut phase = 0f32;
        let mut noise: u32 = 0x1234_5678;
        let mut held = 0f32;
        for i in 0..count {
            let t = i as f32 / count as f32;
            let freq = n.from + (n.to - n.from) * t;
            let before = phase;
            phase += freq * dt;
            if phase >= 1.0 {
                phase -= 1.0;
            }
            let v = match n.wave {
                Wave::Square => {
                    if phase < 0.5 {
                        1.0
                    } else {
                        -1.0
                    }
                }
                Wave::Triangle => {
                    if phase < 0.5 {
                        4.0 * phase - 1.0
                    } else {
                        3.0 - 4.0 * phase
                    }
                }
                Wave::Saw => 2.0 * phase - 1.0,
                Wave::Noise => {
                    // A new random level each time the phase wraps: noise pitched by `freq`.
                    if phase < before || i == 0 {
                        noise ^= noise << 13;
                        noise ^= noise >> 17;
                        noise ^= noise << 5;
                        held = (noise >> 8) as f32 / 8_388_608.0 - 1.0;
                    }
                    held
                }
            };
            let age = i as f32 * dt;
            let env = if age < n.attack { age / n.attack } else { 1.0 - t };
            if let Some(s) = mix.get_mut(first + i) {
                *s += v * env * n.level;
            }
        }
    }
    let samples = mix.iter().map(|&s| (s * 32767.0).round().clamp(-32768.0, 32767.0) as i16).collect();
    Audio { sample_rate, channels: 1, bits: 16, samples }
}
