//! The showcase in a browser page (wasm32 only): every demo, behind the same `Demo` trait, run
//! by lore-render's web runner. `scripts/web.sh` builds it into `target/web/`; the page's
//! address picks the demo, seed and frames (see `lore_render::web`).
//!
//! Sound: the dungeon's mix (the same samples the desktop showcase writes to `dungeon.wav`)
//! plays through the page's WebAudio once the page is clicked (browsers start audio only after
//! a user gesture). Where there is no audio (no `AudioContext`, or the effects did not decode)
//! the page stays silent with one console warning.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;

/// The module's entry point, called by wasm-bindgen's JS glue once the module is loaded.
#[wasm_bindgen(start)]
pub fn start() {
    let (demos, recordings) = crate::demos::all_recording();
    let recording = recordings.into_iter().find(|(name, _)| *name == "dungeon").map(|(_, r)| r);
    // `start` reports a failure itself, on the page and in the console; there is no one else
    // to hand it to, and no sound without the demos.
    if lore_render::web::start(demos).is_ok() {
        match recording {
            Some(recording) => {
                if let Err(e) = Sound::install(recording) {
                    lore_render::web::console_warn(&format!("lore: {e}; the page stays silent"));
                }
            }
            None => lore_render::web::console_warn("lore: the dungeon's sounds did not decode; the page stays silent"),
        }
    }
}

/// Seconds of sound scheduled ahead of the audio clock at most (more is dropped, so the sound
/// never lags the picture).
const AHEAD: f64 = 0.25;

/// The dungeon's mix on its way to WebAudio: every 50 ms the samples the game made since are
/// taken out of the recording (so it never fills up) and, once the page has been clicked,
/// queued as one buffer after the last.
struct Sound {
    recording: lore_dungeon::demo::Recording,
    context: Option<web_sys::AudioContext>,
    /// The audio clock time at which the next buffer starts.
    next: f64,
    /// Whether the no-audio warning was given (once).
    warned: bool,
}

impl Sound {
    fn install(recording: lore_dungeon::demo::Recording) -> Result<(), String> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let sound = Rc::new(RefCell::new(Sound { recording, context: None, next: 0.0, warned: false }));
        let on_click = {
            let sound = Rc::clone(&sound);
            Closure::<dyn FnMut()>::new(move || sound.borrow_mut().start())
        };
        document
            .add_event_listener_with_callback("pointerdown", on_click.as_ref().unchecked_ref())
            .map_err(|e| format!("no click listener for sound: {e:?}"))?;
        on_click.forget(); // for the page's lifetime
        let tick = Closure::<dyn FnMut()>::new(move || sound.borrow_mut().tick());
        window
            .set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), 50)
            .map_err(|e| format!("no timer for sound: {e:?}"))?;
        tick.forget(); // for the page's lifetime
        Ok(())
    }

    /// On a click: the audio context, made (or resumed) inside the user gesture.
    fn start(&mut self) {
        match &self.context {
            Some(ctx) => {
                let _ = ctx.resume();
            }
            None => match web_sys::AudioContext::new() {
                Ok(ctx) => {
                    let _ = ctx.resume();
                    self.context = Some(ctx);
                }
                Err(e) => self.warn(&format!("no WebAudio here ({e:?})")),
            },
        }
    }

    fn warn(&mut self, what: &str) {
        if !std::mem::replace(&mut self.warned, true) {
            lore_render::web::console_warn(&format!("lore: {what}; the page stays silent"));
        }
    }

    fn tick(&mut self) {
        let samples: Vec<i16> = match self.recording.lock() {
            Ok(mut rec) => std::mem::take(&mut *rec),
            Err(_) => return,
        };
        let Some(ctx) = &self.context else { return };
        if samples.is_empty() {
            return;
        }
        if let Err(e) = self.queue(ctx.clone(), &samples) {
            self.warn(&e);
            self.context = None;
        }
    }

    fn queue(&mut self, ctx: web_sys::AudioContext, samples: &[i16]) -> Result<(), String> {
        let rate = lore_dungeon::sound::SAMPLE_RATE as f32;
        let now = ctx.current_time();
        if self.next < now {
            self.next = now + 0.02;
        }
        if self.next > now + AHEAD {
            return Ok(()); // running ahead of the audio clock: drop this block
        }
        let data: Vec<f32> = samples.iter().map(|&s| f32::from(s) / 32768.0).collect();
        let buffer =
            ctx.create_buffer(1, data.len() as u32, rate).map_err(|e| format!("WebAudio refused a buffer ({e:?})"))?;
        buffer.copy_to_channel(&data, 0).map_err(|e| format!("WebAudio refused the samples ({e:?})"))?;
        let source = ctx.create_buffer_source().map_err(|e| format!("WebAudio refused a source ({e:?})"))?;
        source.set_buffer(Some(&buffer));
        source
            .connect_with_audio_node(&ctx.destination())
            .map_err(|e| format!("WebAudio refused a connection ({e:?})"))?;
        source.start_with_when(self.next).map_err(|e| format!("WebAudio refused to play ({e:?})"))?;
        self.next += f64::from(data.len() as u32) / f64::from(rate);
        Ok(())
    }
}
