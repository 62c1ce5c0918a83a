//! Quick single-core throughput check of the classic codec and the presets on a folder of WAV
//! files (the criterion bench in `benches/` is the reference; this is for iterating).
//!
//! `cargo run --release -p lore-benches --bin bitpack_speed -- target/bitpack-corpus/wav`
//!
//! Times are the process's CPU time where Linux reports it (`/proc/self/schedstat`), so that other
//! work on a shared machine does not count against the codec; elsewhere, wall time. The kernel
//! updates that figure only at scheduler ticks (every 1–10 ms) while the process keeps running,
//! so each measurement repeats its pass over the corpus until at least half a second has been
//! counted: the tick then costs under 2 % of the figure.

/// A stopwatch of this process's CPU time (wall time where that is not available).
struct Instant(Result<u64, std::time::Instant>);

impl Instant {
    fn now() -> Self {
        Instant(cpu_ns().ok_or_else(std::time::Instant::now))
    }

    fn elapsed(&self) -> std::time::Duration {
        match (&self.0, cpu_ns()) {
            (Ok(start), Some(now)) => std::time::Duration::from_nanos(now - start),
            (Err(start), _) => start.elapsed(),
            (Ok(_), None) => unreachable!("CPU time went away"),
        }
    }
}

/// Nanoseconds this process has run on a CPU (Linux).
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// Runs `pass` over and over until at least half a second has been counted; returns the passes
/// per second.
fn passes_per_second(mut pass: impl FnMut()) -> f64 {
    let t = Instant::now();
    let mut passes = 0u32;
    loop {
        pass();
        passes += 1;
        let secs = t.elapsed().as_secs_f64();
        if secs >= 0.5 {
            return f64::from(passes) / secs;
        }
    }
}

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Effort, Settings, container, wav};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "target/bitpack-corpus/wav".into());
    let mut clips = Vec::new();
    for e in std::fs::read_dir(&dir).expect("corpus folder") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wav")) {
            clips.push(wav::read(&std::fs::read(&p).expect("read")).expect("wav"));
        }
    }
    let mono: Vec<Vec<i16>> =
        clips.iter().flat_map(|a| (0..usize::from(a.channels)).map(move |k| a.channel(k))).collect();
    let bytes: f64 = mono.iter().map(|s| 2.0 * s.len() as f64).sum();
    let mb = |per_second: f64| bytes * per_second / 1e6;
    let mut packed = Vec::new();
    let enc = passes_per_second(|| {
        packed = mono.iter().map(|s| classic::pack(s, Options::DELTA_GRAY).expect("pack")).collect();
    });
    let dec = passes_per_second(|| {
        for (p, s) in packed.iter().zip(&mono) {
            let back = classic::unpack(&p.bytes, p.bits, s.len(), Options::DELTA_GRAY).expect("unpack");
            assert_eq!(back.len(), s.len());
        }
    });
    let size: f64 = packed.iter().map(|p| p.bytes.len() as f64).sum();
    println!(
        "classic option 3: encode {:.0} MB/s, decode {:.0} MB/s, {size} bytes, {:.1} %",
        mb(enc),
        mb(dec),
        100.0 * size / bytes
    );
    for e in [Effort::Classic, Effort::Fast, Effort::Max] {
        let s = Settings { effort: e, chunk_frames: 4096 };
        let mut files = Vec::new();
        let enc = passes_per_second(|| {
            files = clips.iter().map(|a| container::encode(a, s).expect("encode")).collect();
        });
        let dec = passes_per_second(|| {
            for f in &files {
                container::decode(f).expect("decode");
            }
        });
        let size: f64 = files.iter().map(|f| f.len() as f64).sum();
        let (mut b8, mut n8) = (0.0, 0.0);
        for (f, a) in files.iter().zip(&clips) {
            if a.bits == 8 {
                b8 += 8.0 * f.len() as f64;
                n8 += a.samples.len() as f64;
            }
        }
        if n8 > 0.0 {
            println!("bpk {e:?} on the 8-bit files: {:.2} bits/sample over {n8} samples", b8 / n8);
        }
        println!(
            "bpk {e:?}: encode {:.0} MB/s, decode {:.0} MB/s, {size} bytes, {:.1} %",
            mb(enc),
            mb(dec),
            100.0 * size / bytes
        );
    }
}
