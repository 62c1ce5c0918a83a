//! The game's sound: the effects mixer, the live output and the recording of the mix.

use std::sync::{Arc, Mutex};

use lore_bitpack_audio::mix::Mixer;

use super::Dungeon;
use crate::sound::{Effect, SAMPLE_RATE, clip_of, effects_mixer};

/// Longest recording of the mix kept for `dungeon.wav`: 10 minutes.
pub const MAX_RECORDING_SAMPLES: usize = 10 * 60 * SAMPLE_RATE as usize;

/// The run's mix, shared with whoever writes it out after the run.
pub type Recording = Arc<Mutex<Vec<i16>>>;

/// Writes a run's mix (see [`Dungeon::recording_sound`]) as a 16-bit mono WAV at `path`,
/// atomically (a temporary file renamed over the target), and prints one line saying so.
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

/// The sound side of the demo: what the effects play through and where the mix goes.
#[derive(Debug, Default)]
pub(super) struct Mixing {
    pub(super) mixer: Option<Mixer>,
    pub(super) recording: Option<Recording>,
    /// The samples of one step, kept from step to step.
    pub(super) block: Vec<i16>,
    /// Effects played in the current level.
    pub(super) sounds: u64,
    /// Time the mix takes a step, smoothed (ms).
    pub(super) audio_ms: f32,
    /// The audio output the mix plays through, in a window.
    #[cfg(feature = "audio")]
    pub(super) live: Option<crate::audio::LiveAudio>,
}

impl Mixing {
    /// Plays the step's `events` and mixes the samples due at step `frame` (60 per second) into
    /// the live output and the recording.
    pub(super) fn play_step(&mut self, events: &[Effect], frame: u64) {
        let t = lore_render::time::Instant::now();
        if let Some(mixer) = self.mixer.as_mut() {
            for &e in events {
                let gain = match e {
                    Effect::Shot => 0.35,
                    Effect::Hit => 0.6,
                    _ => 1.0,
                };
                let played = mixer.play(clip_of(e), gain);
                debug_assert!(played.is_ok(), "every effect is a clip of the mixer");
                self.sounds += 1;
            }
            // Samples due this step: the 60 Hz steps split the rate exactly over a second.
            let f = frame;
            let due = (f * u64::from(SAMPLE_RATE) / 60 - (f - 1) * u64::from(SAMPLE_RATE) / 60) as usize;
            self.block.resize(due, 0);
            mixer.mix(&mut self.block);
            #[cfg(feature = "audio")]
            if let Some(live) = &self.live {
                live.push(&self.block);
            }
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

impl Dungeon {
    /// Plays the game's sound effects through the default audio output (feature `audio`).
    /// Without an output device it prints one warning line and the game goes on silent.
    ///
    /// # Errors
    /// [`crate::sound::SoundError`] when a shipped effect does not decode.
    #[cfg(feature = "audio")]
    pub fn playing_sound(mut self) -> Result<Self, crate::sound::SoundError> {
        if self.sound.mixer.is_none() {
            self.sound.mixer = Some(effects_mixer(16)?);
        }
        match crate::audio::LiveAudio::open() {
            Ok(live) => self.sound.live = Some(live),
            Err(e) => eprintln!("lore-dungeon: warning: {e}; the game goes on without sound"),
        }
        Ok(self)
    }

    /// Mixes the game's sound effects (decoded from the shipped `.bpk` assets) and appends the
    /// mix to the returned recording (up to [`MAX_RECORDING_SAMPLES`]); the caller writes it
    /// out after the run. Without it the game is silent.
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
