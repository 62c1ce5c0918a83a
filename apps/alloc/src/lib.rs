//! `alloc`: one allocation trace replayed through four heaps (first, next, best and good fit),
//! drawn as region maps and fragmentation over time.
//!
//! The world is the rectangle [`WORLD`]; band `i` (policy `Policy::ALL[i]`) has its region map
//! in [`map_rect`] and its time plot in [`plot_rect`], so tests can find them in a picture.
#![cfg_attr(docsrs, feature(doc_cfg))]

use lore_allocators::Policy;
use lore_allocators::trace::{Event, Replay, Trace};
use lore_render::demo::Demo;
use lore_render::glam::{Vec2, vec2};
use lore_render::{Anchor, Batch, Camera, Color, Input, Key};

/// The world rectangle the camera fits into the frame (about 37 pixels per unit at 1280×720).
/// It reaches below y = 0 to leave a strip for the caption a headless frame draws at the bottom.
pub const WORLD: (Vec2, Vec2) = (Vec2::new(0.0, -1.4), Vec2::new(32.0, 18.0));
/// Bytes in each heap's region.
pub const REGION: usize = 384 * 1024;
/// Trace events applied per step.
pub const EVENTS_PER_STEP: usize = 40;
/// Objects allocated by one trace (about twice as many events).
pub const TRACE_OBJECTS: u32 = 8000;

/// Color of free space in the maps.
pub const FREE: Color = Color::rgb(52, 58, 74);
/// Color of blocks under 128 bytes.
pub const SMALL: Color = Color::CYAN;
/// Color of blocks of 128 bytes to 1 KiB.
pub const MEDIUM: Color = Color::GREEN;
/// Color of blocks over 1 KiB.
pub const LARGE: Color = Color::ORANGE;
/// Color of the fragmentation curve.
pub const FRAGMENTATION: Color = Color::YELLOW;
/// Color of the occupancy (used / capacity) curve.
pub const OCCUPANCY: Color = Color::MAGENTA;

const LEFT: f32 = 1.0;
const RIGHT: f32 = 24.0;
const BAND: f32 = 4.2;
const TOP: f32 = 17.0;
/// Steps shown across a plot (the plot scrolls after that).
pub const PLOT_STEPS: usize = 120;

/// The region map of band `i`: `(min, max)` in world units.
#[must_use]
pub fn map_rect(i: usize) -> (Vec2, Vec2) {
    let top = TOP - i as f32 * BAND;
    (vec2(LEFT, top - 1.5), vec2(RIGHT, top))
}

/// The time plot of band `i`: `(min, max)` in world units (0 at the bottom, 1 at the top).
#[must_use]
pub fn plot_rect(i: usize) -> (Vec2, Vec2) {
    let top = TOP - i as f32 * BAND - 1.8;
    (vec2(LEFT, top - 2.0), vec2(RIGHT, top))
}

/// One heap and its history.
#[derive(Debug)]
struct Lane {
    replay: Replay,
    /// `(fragmentation, occupancy)` after each step.
    history: Vec<(f32, f32)>,
}

/// The demo state.
#[derive(Debug)]
pub struct AllocDemo {
    seed: u64,
    trace: Trace,
    next_event: usize,
    lanes: Vec<Lane>,
    paused: bool,
}

/// The demo, boxed for the runner.
#[must_use]
pub fn demo() -> Box<dyn Demo> {
    Box::new(AllocDemo::new())
}

impl Default for AllocDemo {
    fn default() -> Self {
        Self::new()
    }
}

impl AllocDemo {
    /// A new demo (call `reset` before stepping).
    #[must_use]
    pub fn new() -> Self {
        Self { seed: 0, trace: Trace::game_like(0, 0), next_event: 0, lanes: Vec::new(), paused: false }
    }

    /// `(policy, failed allocations, fragmentation, occupancy)` for each lane.
    #[must_use]
    pub fn summary(&self) -> Vec<(Policy, u64, f64, f64)> {
        self.lanes
            .iter()
            .map(|l| {
                let s = l.replay.stats();
                (l.replay.heap().policy(), l.replay.failures(), s.fragmentation(), s.used as f64 / s.capacity as f64)
            })
            .collect()
    }

    fn restart(&mut self, seed: u64) {
        self.seed = seed;
        self.trace = Trace::game_like(seed, TRACE_OBJECTS);
        self.next_event = 0;
        self.lanes = Policy::ALL
            .iter()
            .map(|&p| Lane {
                replay: Replay::new(REGION, p).expect("the region size is within the heap's limits"),
                history: Vec::new(),
            })
            .collect();
    }
}

fn block_color(size: usize) -> Color {
    if size < 128 + 16 {
        SMALL
    } else if size <= 1024 + 16 {
        MEDIUM
    } else {
        LARGE
    }
}

impl Demo for AllocDemo {
    fn name(&self) -> &'static str {
        "alloc"
    }

    fn description(&self) -> &'static str {
        "One allocation trace through first-, next-, best- and good-fit heaps: region maps and fragmentation. Space pauses, R restarts."
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[("Space", "pause or go on"), ("R", "restart the trace")]
    }

    fn reset(&mut self, seed: u64) {
        self.paused = false;
        self.restart(seed);
    }

    fn step(&mut self, input: &Input) {
        if input.key_pressed(Key::Space) {
            self.paused = !self.paused;
        }
        if input.key_pressed(Key::Char('r')) {
            self.restart(self.seed);
        }
        if self.paused {
            return;
        }
        if self.next_event >= self.trace.events().len() {
            // The trace ran out: a new one, so a window run keeps moving.
            self.restart(self.seed.wrapping_add(1));
        }
        let end = (self.next_event + EVENTS_PER_STEP).min(self.trace.events().len());
        let events: Vec<Event> = self.trace.events()[self.next_event..end].to_vec();
        self.next_event = end;
        for lane in &mut self.lanes {
            for &e in &events {
                lane.replay.apply(e);
            }
            let s = lane.replay.stats();
            lane.history.push((s.fragmentation() as f32, s.used as f32 / s.capacity as f32));
        }
    }

    fn draw(&self, batch: &mut Batch) {
        let steps = (PLOT_STEPS - 1) as f32;
        for (i, lane) in self.lanes.iter().enumerate() {
            let heap = lane.replay.heap();
            let (min, max) = map_rect(i);
            batch.rect(min, max, FREE);
            let scale = (max.x - min.x) / heap.capacity() as f32;
            // Small blocks are far under a pixel wide: draw them last, at least 2 pixels wide.
            for small_pass in [false, true] {
                for b in heap.blocks().filter(|b| b.used && (block_color(b.size) == SMALL) == small_pass) {
                    let x0 = min.x + b.offset as f32 * scale;
                    let x1 = (min.x + (b.offset + b.size) as f32 * scale).max(x0 + 0.05);
                    batch.rect(vec2(x0, min.y), vec2(x1, max.y), block_color(b.size));
                }
            }
            batch.rect_outline(min, max, 0.04, Color::GREY);

            let (pmin, pmax) = plot_rect(i);
            batch.rect_outline(pmin, pmax, 0.03, Color::GREY);
            let point = |t: usize, v: f32| {
                vec2(pmin.x + (pmax.x - pmin.x) * t as f32 / steps, pmin.y + (pmax.y - pmin.y) * v.clamp(0.0, 1.0))
            };
            let recent = &lane.history[lane.history.len().saturating_sub(PLOT_STEPS)..];
            let frag: Vec<Vec2> = recent.iter().enumerate().map(|(t, h)| point(t, h.0)).collect();
            let occ: Vec<Vec2> = recent.iter().enumerate().map(|(t, h)| point(t, h.1)).collect();
            if occ.len() >= 2 {
                batch.polyline(&occ, false, 0.08, OCCUPANCY);
                batch.polyline(&frag, false, 0.08, FRAGMENTATION);
            }

            let s = lane.replay.stats();
            let x = RIGHT + 0.8;
            let y = max.y - 0.3;
            batch.text_anchored(vec2(x, y), Anchor::Left, heap.policy().name(), 22.0, Color::WHITE);
            let lines = [
                format!("used {:>5.1}%", 100.0 * s.used as f64 / s.capacity as f64),
                format!("fragmentation {:.2}", s.fragmentation()),
                format!("largest free {} KiB", s.largest_free / 1024),
                format!("failed allocs {}", lane.replay.failures()),
            ];
            for (k, line) in lines.into_iter().enumerate() {
                batch.text_anchored(vec2(x, y - 0.75 - 0.65 * k as f32), Anchor::Left, line, 16.0, Color::WHITE);
            }
        }
        let legend = [
            ("blocks < 128 B", SMALL),
            ("128 B - 1 KiB", MEDIUM),
            ("> 1 KiB", LARGE),
            ("free", FREE),
            ("fragmentation", FRAGMENTATION),
            ("used / capacity", OCCUPANCY),
        ];
        for (k, (label, color)) in legend.into_iter().enumerate() {
            let x = LEFT + 3.9 * k as f32;
            batch.rect(vec2(x, 17.35), vec2(x + 0.4, 17.75), color);
            batch.text_anchored(vec2(x + 0.55, 17.55), Anchor::Left, label, 15.0, Color::GREY);
        }
    }

    fn camera(&self) -> Camera {
        Camera::fit(WORLD.0, WORLD.1, 0.0)
    }

    fn stats(&self) -> String {
        let parts: Vec<String> = self
            .summary()
            .iter()
            .map(|(p, fails, frag, occ)| {
                format!("{} {:.0}% used, frag {:.2}, {} failed", p.name(), occ * 100.0, frag, fails)
            })
            .collect();
        format!("event {}/{} | {}", self.next_event, self.trace.events().len(), parts.join(" | "))
    }
}

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
