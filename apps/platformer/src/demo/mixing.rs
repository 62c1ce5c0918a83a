//! The game's sound: the effects mixer and the recording of the mix (headless runs write it as
//! `platformer.wav`).

use std::sync::{Arc, Mutex};

use lore_bitpack_audio::mix::Mixer;

use super::Platformer;
use crate::sound::{Effect, SAMPLE_RATE, clip_of, effects_mixer};

/// Longest recording of the mix kept: 10 minutes.
pub const MAX_RECORDING_SAMPLES: usize = 10 * 60 * SAMPLE_RATE as usize;

/// The run's mix, shared with whoever writes it out after the run.
pub type Recording = Arc<Mutex<Vec<i16>>>;

/// Writes a run's mix as a 16-bit mono WAV at `path`, atomically, and prints one line saying so.
///
/// # Errors
/// A message naming the path when the recording was poisoned, does not encode or the file
/// cannot be written.
pub fn write_recording(path: &std::path::Path, rec: &Recording) -> Result<(), String> {
    let samples = rec.lock().map_err(|_| "the recording was poisoned".to_owned())?.clone();
    let audio = lore_bitpack_audio::Audio { sample_rate: SAMPLE_RATE, channels: 1, bits: 16, samples };
    let bytes = lore_bitpack_audio::wav::write(&audio).map_err(|e| format!("{}: {e}", path.display()))?;
    lore_render::file::write_atomic(path, &bytes).map_err(|e| e.to_string())?;
    println!("wrote {} ({:.1} s of sound)", path.display(), audio.samples.len() as f64 / f64::from(audio.sample_rate));
    Ok(())
}

/// The sound side of the demo.
#[derive(Debug, Default)]
pub(super) struct Mixing {
    pub(super) mixer: Option<Mixer>,
    pub(super) recording: Option<Recording>,
    block: Vec<i16>,
    /// Effects played in the current level.
    pub(super) sounds: u64,
    /// Time the mix takes a step, smoothed (ms).
    pub(super) audio_ms: f32,
}

impl Mixing {
    /// Plays the step's `events` and mixes the samples due at step `frame` (60 per second) into
    /// the recording.
    pub(super) fn play_step(&mut self, events: &[Effect], frame: u64) {
        let t = lore_render::time::Instant::now();
        if let Some(mixer) = self.mixer.as_mut() {
            for &e in events {
                let gain = match e {
                    Effect::Shot | Effect::Jump => 0.35,
                    Effect::Hit => 0.6,
                    _ => 1.0,
                };
                let played = mixer.play(clip_of(e), gain);
                debug_assert!(played.is_ok(), "every effect is a clip of the mixer");
                self.sounds += 1;
            }
            let f = frame.max(1);
            let due = (f * u64::from(SAMPLE_RATE) / 60 - (f - 1) * u64::from(SAMPLE_RATE) / 60) as usize;
            self.block.resize(due, 0);
            mixer.mix(&mut self.block);
            if let Some(rec) = &self.recording
                && let Ok(mut rec) = rec.lock()
            {
                let room = MAX_RECORDING_SAMPLES.saturating_sub(rec.len());
                rec.extend_from_slice(&self.block[..due.min(room)]);
            }
        }
        let audio_ms = t.elapsed().as_secs_f32() * 1e3;
        self.audio_ms += (audio_ms - self.audio_ms) * 0.05;
    }
}

impl Platformer {
    /// Mixes the game's sound effects (decoded from the shipped `.bpk` assets) and appends the
    /// mix to the returned recording; the caller writes it out after the run.
    ///
    /// # Errors
    /// [`crate::sound::SoundError`] when an asset does not decode.
    pub fn recording_sound(&mut self) -> Result<Recording, crate::sound::SoundError> {
        self.sound.mixer = Some(effects_mixer(16)?);
        let rec: Recording = Arc::default();
        self.sound.recording = Some(Arc::clone(&rec));
        Ok(rec)
    }
}
