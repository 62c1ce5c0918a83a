//! One GPU batch of posed sprite pairs (the `pixel_collide` bench's `batch_4096_pairs_latency`
//! pairs: 64×64 blobs, random rotation and scale 0.7..1.3, pair i against i + 1) against the CPU
//! twin, for instruction counts and a quick same-run timing.
//!
//! `pixel_collide_batch [PAIRS] [REPS] [MODE]` (defaults 4096, 9, `time`):
//! - `time`: checks every GPU answer against the CPU twin, prints the batch's quads, covered
//!   pixels and commands, then the median wall time of REPS batches, of REPS CPU twin runs
//!   (rasterise PAIRS + 1 masks and test) and of REPS `record` calls alone, interleaved.
//! - `area-time`: the same pairs as exact-area queries (the compute pass), mean wall time of
//!   REPS batches.
//! - `gpu`, `cpu`, `record`, `area`: runs only that, REPS times, for callgrind. Per batch =
//!   (count at REPS = 4 − count at REPS = 2) / 2; with lavapipe, set `LP_NUM_THREADS=0` so the
//!   rasterizer runs on the calling thread and the counts repeat exactly:
//!   `LP_NUM_THREADS=0 valgrind --tool=callgrind target/release/pixel_collide_batch 4096 4 gpu`.

use std::time::Instant;

use lore_benches::pixel_scenes::{blob, poses};
use lore_pixel_collide::{GpuCollider, Mask, QueryBatch};
use lore_render::gpu::Gpu;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pairs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4096);
    let reps: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(9).max(1);
    let mode = args.get(3).map_or("time", String::as_str);
    let gpu = Gpu::headless().expect("a graphics adapter (install mesa-vulkan-drivers)");
    let collider = GpuCollider::new(&gpu.device);
    let sprites = [blob(64, 1), blob(64, 2)];
    let posed = poses(pairs + 1, true);
    let mut batch = QueryBatch::new();
    let ids = [batch.add_sprite(&sprites[0]), batch.add_sprite(&sprites[1])];
    let objects: Vec<_> =
        posed.iter().enumerate().map(|(i, &p)| batch.add_object(ids[i % 2], p).expect("a valid pose")).collect();
    let queries: Vec<_> = if mode.starts_with("area") {
        // The same pairs as exact-area queries (the compute pass).
        (0..pairs).map(|i| batch.area(objects[i], objects[i + 1]).expect("known objects")).collect()
    } else {
        (0..pairs).map(|i| batch.pair(objects[i], objects[i + 1]).expect("known objects")).collect()
    };
    let cpu = || {
        let masks: Vec<Mask> = posed
            .iter()
            .enumerate()
            .map(|(i, &p)| Mask::rasterize(&sprites[i % 2], p).expect("a valid pose"))
            .collect();
        (0..pairs).map(|i| masks[i].overlaps(&masks[i + 1])).collect::<Vec<bool>>()
    };
    let run = || collider.run(&gpu.device, &gpu.queue, &batch).expect("the read-back");
    let record = || {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        // Recorded but never submitted: the CPU side of a batch alone.
        drop(std::hint::black_box(collider.record(&gpu.device, &batch, &mut encoder)));
    };
    match mode {
        "gpu" | "area" => (0..reps).for_each(|_| drop(std::hint::black_box(run()))),
        "area-time" => {
            let t = Instant::now();
            (0..reps).for_each(|_| drop(std::hint::black_box(run())));
            println!("{pairs} exact areas: {:.2} ms a batch", t.elapsed().as_secs_f64() * 1e3 / reps as f64);
        }
        "cpu" => (0..reps).for_each(|_| drop(std::hint::black_box(cpu()))),
        "record" => (0..reps).for_each(|_| record()),
        _ => {
            eprintln!("{}", gpu.describe());
            let (results, expect) = (run(), cpu());
            let differ = queries.iter().zip(&expect).filter(|&(&q, &c)| results.overlaps(q) != c).count();
            assert_eq!(differ, 0, "GPU and CPU twin differ on {differ} of {pairs} pairs");
            let s = results.stats();
            println!(
                "{pairs} pairs, {} overlap: {} quads, {} covered pixels ({:.0} per quad); {} submission, {} pass, {} draw",
                expect.iter().filter(|&&h| h).count(),
                s.quads,
                s.quad_pixels,
                s.quad_pixels as f64 / s.quads.max(1) as f64,
                s.submissions,
                s.render_passes,
                s.draw_calls
            );
            let (mut g, mut c, mut r) = (Vec::new(), Vec::new(), Vec::new());
            let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
            for _ in 0..reps {
                let t = Instant::now();
                drop(std::hint::black_box(run()));
                g.push(ms(t));
                let t = Instant::now();
                drop(std::hint::black_box(cpu()));
                c.push(ms(t));
                let t = Instant::now();
                record();
                r.push(ms(t));
            }
            let (g, c, r) = (median(g), median(c), median(r));
            println!("GPU batch {g:.2} ms (record alone {r:.2} ms), CPU twin {c:.2} ms: GPU / CPU {:.2}", g / c);
        }
    }
}
