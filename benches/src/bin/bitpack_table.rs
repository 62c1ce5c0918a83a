//! Prints the post's ratio table next to ours, for the signals defined in docs/bitpack-audio.md,
//! and writes an SVG bar chart of the ratio by option per signal.
//!
//! `cargo run --release -p lore-benches --bin bitpack_table -- [chart.svg]`

use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Audio, Effort, Settings, container};
use rand::{RngExt, SeedableRng};

/// The signals of the post's table, 100,000 samples each (see the guide for the definitions).
pub fn signals() -> Vec<(&'static str, [f64; 4], Vec<i16>)> {
    let n = 100_000;
    let mut rng = rand_pcg::Pcg32::seed_from_u64(2);
    // The post's constant 3.141, not pi: the samples must be the post's.
    #[allow(clippy::approx_constant)]
    let sine: Vec<i16> =
        (0..n).map(|i| ((i as f32 / 1000.0) as f64 * 3.141 * 2.0).sin() * 20000.0).map(|v| v as i16).collect();
    let noise: Vec<i16> = (0..n).map(|_| rng.random::<i16>()).collect();
    let complex = |i: usize| {
        let t = i as f64;
        (t * 0.0063).sin() * 12000.0 + (t * 0.0217).sin() * 6000.0 + (t * 0.0511).sin() * 3000.0
    };
    let complex_wave: Vec<i16> = (0..n).map(|i| complex(i) as i16).collect();
    let sine_noise: Vec<i16> = sine.iter().map(|&s| s.saturating_add(rng.random_range(-512..512))).collect();
    let quiet: Vec<i16> = (0..n).map(|_| rng.random_range(0..256)).collect();
    let saturated: Vec<i16> = (0..n).map(|i| (complex(i) * 4.0).clamp(-32768.0, 32767.0) as i16).collect();
    vec![
        ("Sine wave (loud)", [73.1, 29.6, 67.9, 22.6], sine),
        ("White noise (loud)", [100.0, 100.0, 99.8, 100.0], noise),
        ("Complex wave", [75.3, 38.2, 69.6, 30.0], complex_wave),
        ("Sine wave and noise", [84.7, 100.0, 80.9, 80.9], sine_noise),
        ("White noise (quiet)", [50.0, 100.0, 50.0, 55.9], quiet),
        ("Complex wave (saturated)", [38.9, 21.9, 37.2, 17.7], saturated),
    ]
}

fn main() {
    let rows = signals();
    println!("| signal | option | post | lore classic | lore chunked best (4096) | bpk fast | bpk max |");
    println!("|---|---|---|---|---|---|---|");
    let mut chart = Vec::new();
    for (name, post, s) in &rows {
        let raw = 16.0 * s.len() as f64;
        let audio = Audio { sample_rate: 44100, channels: 1, bits: 16, samples: s.clone() };
        let size =
            |e| 8.0 * container::encode(&audio, Settings { effort: e, chunk_frames: 4096 }).unwrap().len() as f64;
        let chunked = size(Effort::Classic);
        let (fast, max) = (size(Effort::Fast), size(Effort::Max));
        let mut ours = [0.0; 4];
        for o in Options::ALL {
            let k = o.flags() as usize;
            ours[k] = 100.0 * classic::packed_bits(s, o) as f64 / raw;
            let extra = if k == 0 {
                format!("{:.1} % | {:.1} % | {:.1} %", 100.0 * chunked / raw, 100.0 * fast / raw, 100.0 * max / raw)
            } else {
                " | | ".to_string()
            };
            println!("| {} | {k} | {:.1} % | {:.1} % | {extra} |", if k == 0 { name } else { "" }, post[k], ours[k]);
        }
        chart.push((*name, *post, ours));
    }
    if let Some(path) = std::env::args().nth(1) {
        std::fs::write(&path, svg(&chart)).unwrap();
        eprintln!("wrote {path}");
    }
}

fn svg(rows: &[(&str, [f64; 4], [f64; 4])]) -> String {
    let (w, row_h) = (760.0, 64.0);
    let h = 40.0 + row_h * rows.len() as f64;
    let colors = ["#888888", "#3b7dd8", "#d8a03b", "#3bb273"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
         <text x=\"10\" y=\"16\" font-size=\"13\">Classic ratio (% of 16-bit PCM) by option: bars = lore, ticks = the post's table</text>"
    );
    for (k, c) in colors.iter().enumerate() {
        s += &format!(
            "<rect x=\"{}\" y=\"22\" width=\"10\" height=\"10\" fill=\"{c}\"/><text x=\"{}\" y=\"31\">option {k}</text>",
            200 + k * 90,
            214 + k * 90
        );
    }
    for (i, (name, post, ours)) in rows.iter().enumerate() {
        let y0 = 40.0 + row_h * i as f64;
        s += &format!("<text x=\"10\" y=\"{}\">{name}</text>", y0 + 30.0);
        for k in 0..4 {
            let y = y0 + 6.0 + 13.0 * k as f64;
            let bw = ours[k] * 5.0;
            s += &format!("<rect x=\"180\" y=\"{y}\" width=\"{bw:.1}\" height=\"11\" fill=\"{}\"/>", colors[k]);
            s += &format!(
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{}\" y2=\"{}\" stroke=\"black\" stroke-width=\"2\"/>",
                y - 1.0,
                y + 12.0,
                x = 180.0 + post[k] * 5.0
            );
            s += &format!("<text x=\"{:.1}\" y=\"{}\">{:.1} %</text>", 186.0 + bw.max(post[k] * 5.0), y + 9.0, ours[k]);
        }
    }
    s + "</svg>"
}
