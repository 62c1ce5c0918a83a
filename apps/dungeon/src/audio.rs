//! Live sound in a window (feature `audio`, on by default): the game's mix, made at
//! [`SAMPLE_RATE`] Hz mono one step at a time, goes into a short queue that cpal's output
//! callback drains at the device's rate and channel count (nearest-sample resampling: the
//! effects are chiptune squares and noise, which it suits). When the queue runs dry the
//! output is silence; when the game runs ahead, the oldest samples are dropped so the sound
//! never lags the picture by more than [`MAX_QUEUE_SECONDS`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};

use crate::sound::SAMPLE_RATE;

/// Most sound queued ahead of the device, in seconds.
pub const MAX_QUEUE_SECONDS: f32 = 0.25;

type Queue = Arc<Mutex<VecDeque<i16>>>;

/// The default audio output, playing what [`LiveAudio::push`] gives it.
pub struct LiveAudio {
    // Playing while it lives (cpal streams are not `Send` on every platform, so the demo keeps
    // it on the thread that made it).
    _stream: cpal::Stream,
    queue: Queue,
    device: String,
}

impl std::fmt::Debug for LiveAudio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveAudio").field("device", &self.device).finish_non_exhaustive()
    }
}

impl LiveAudio {
    /// Opens the default output device and starts it (silent until samples come).
    ///
    /// # Errors
    /// A message when there is no output device or it refuses a stream.
    pub fn open() -> Result<Self, String> {
        // alsa-lib prints its own lines on stderr when there is no sound card; route them on
        // this thread (where cpal opens the device) into a buffer, so the caller's one warning
        // line is all the user sees.
        #[cfg(any(target_os = "linux", target_os = "dragonfly", target_os = "freebsd", target_os = "netbsd"))]
        let _alsa_messages = alsa::Output::local_error_handler().ok();
        let host = cpal::default_host();
        let device = host.default_output_device().ok_or("no audio output device")?;
        let name = device.description().map(|d| d.to_string()).unwrap_or_else(|_| "audio output".to_owned());
        let supported = device.default_output_config().map_err(|e| format!("{name}: {e}"))?;
        let config = supported.config();
        let queue: Queue = Arc::default();
        let stream = match supported.sample_format() {
            SampleFormat::F32 => build::<f32>(&device, &config, Arc::clone(&queue)),
            SampleFormat::I16 => build::<i16>(&device, &config, Arc::clone(&queue)),
            SampleFormat::U16 => build::<u16>(&device, &config, Arc::clone(&queue)),
            SampleFormat::I32 => build::<i32>(&device, &config, Arc::clone(&queue)),
            other => return Err(format!("{name}: sample format {other} is not supported")),
        }
        .map_err(|e| format!("{name}: {e}"))?;
        stream.play().map_err(|e| format!("{name}: {e}"))?;
        Ok(Self { _stream: stream, queue, device: name })
    }

    /// The device in words.
    #[must_use]
    pub fn device(&self) -> &str {
        &self.device
    }

    /// Queues one step's mix ([`SAMPLE_RATE`] Hz mono).
    pub fn push(&self, samples: &[i16]) {
        let Ok(mut q) = self.queue.lock() else { return };
        q.extend(samples.iter().copied());
        let max = (MAX_QUEUE_SECONDS * SAMPLE_RATE as f32) as usize;
        if q.len() > max {
            let extra = q.len() - max;
            q.drain(..extra);
        }
    }
}

fn build<T: SizedSample + FromSample<f32>>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    queue: Queue,
) -> Result<cpal::Stream, cpal::Error> {
    let channels = usize::from(config.channels.max(1));
    // Source samples per device frame.
    let step = f64::from(SAMPLE_RATE) / f64::from(config.sample_rate.max(1));
    let mut phase = 0.0f64;
    let mut current = 0.0f32;
    device.build_output_stream(
        *config,
        move |out: &mut [T], _| {
            let mut q = queue.lock().ok();
            for frame in out.chunks_mut(channels) {
                phase += step;
                while phase >= 1.0 {
                    phase -= 1.0;
                    current = q.as_mut().and_then(|q| q.pop_front()).map_or(0.0, |s| f32::from(s) / 32768.0);
                }
                let v = T::from_sample(current);
                frame.fill(v);
            }
        },
        |e| eprintln!("lore-dungeon: audio output: {e}"),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_opens_or_says_why_and_its_queue_stays_short() {
        match LiveAudio::open() {
            Ok(live) => {
                live.push(&[0; 1000]);
                live.push(&vec![1000; 4 * SAMPLE_RATE as usize]);
                let queued = live.queue.lock().unwrap().len();
                assert!(queued <= (MAX_QUEUE_SECONDS * SAMPLE_RATE as f32) as usize, "{queued} samples queued");
            }
            Err(e) => assert!(!e.is_empty()),
        }
    }
}
