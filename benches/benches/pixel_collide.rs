//! lore-pixel-collide: the CPU twin (word-parallel bitmasks) and the GPU path (one instanced
//! draw of pair quads, compute areas) on the same sprites and poses, plus a naive per-pixel CPU
//! test as the baseline. No Rust peer crate does posed pixel-perfect sprite tests; the issue's
//! anchor is pygame-ce's `Mask.overlap` (4–6 M tests/s on 64×64 masks, translated only).
//! Run: `cargo bench -p lore-benches --bench pixel_collide` (GPU groups need an adapter:
//! lavapipe from `mesa-vulkan-drivers` on a machine without a GPU).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lore_benches::pixel_scenes::{blob, poses};
use lore_pixel_collide::{GpuCollider, Mask, QueryBatch};
use lore_render::gpu::Gpu;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

fn naive_overlaps(a: &Mask, b: &Mask) -> bool {
    let r = a.bounds().intersection(&b.bounds());
    (r.y0..r.y1).any(|y| (r.x0..r.x1).any(|x| a.get(x, y) && b.get(x, y)))
}

fn cpu(c: &mut Criterion) {
    let sprites = [blob(64, 1), blob(64, 2)];
    let mut rng = Pcg32::seed_from_u64(3);
    // Translated only (pygame's case): masks rasterized once, moved by offsets.
    let base = [Mask::from_sprite(&sprites[0], 0, 0), Mask::from_sprite(&sprites[1], 0, 0)];
    let offsets: Vec<(i32, i32)> = (0..4096).map(|_| (rng.random_range(-63..64), rng.random_range(-63..64))).collect();
    let mut g = c.benchmark_group("pixel_collide_cpu");
    g.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(offsets.len() as u64));
    g.bench_function("translated_64_overlaps", |b| {
        let mut m = base[1].clone();
        b.iter(|| {
            let mut hits = 0;
            for &(x, y) in &offsets {
                m.set_position(x, y);
                hits += usize::from(base[0].overlaps(black_box(&m)));
            }
            hits
        });
    });
    g.bench_function("translated_64_overlap_area", |b| {
        let mut m = base[1].clone();
        b.iter(|| {
            let mut n = 0;
            for &(x, y) in &offsets {
                m.set_position(x, y);
                n += base[0].overlap_area(black_box(&m));
            }
            n
        });
    });
    g.bench_function("translated_64_naive_per_pixel", |b| {
        let mut m = base[1].clone();
        b.iter(|| {
            let mut hits = 0;
            for &(x, y) in &offsets {
                m.set_position(x, y);
                hits += usize::from(naive_overlaps(&base[0], black_box(&m)));
            }
            hits
        });
    });
    // Rotated and scaled: re-rasterize (masks/s), then test.
    let posed = poses(4096, true);
    g.bench_function("rasterize_64_posed", |b| {
        b.iter(|| posed.iter().map(|&p| Mask::rasterize(&sprites[0], p).unwrap().count()).sum::<u64>())
    });
    let masks: Vec<Mask> =
        posed.iter().enumerate().map(|(i, &p)| Mask::rasterize(&sprites[i % 2], p).unwrap()).collect();
    g.bench_function("posed_64_overlaps_after_rasterize", |b| {
        b.iter(|| (0..4096).filter(|&i| masks[i].overlaps(&masks[(i + 1) % 4096])).count())
    });
    g.bench_function("posed_64_rasterize_and_test_4096_pairs", |b| {
        b.iter(|| {
            let m: Vec<Mask> =
                posed.iter().enumerate().map(|(i, &p)| Mask::rasterize(&sprites[i % 2], p).unwrap()).collect();
            (0..4096).filter(|&i| m[i].overlaps(&m[(i + 1) % 4096])).count()
        });
    });
    g.finish();
}

fn gpu(c: &mut Criterion) {
    let gpu = Gpu::headless().expect("a graphics adapter (install mesa-vulkan-drivers)");
    eprintln!("pixel_collide GPU benches on {}", gpu.describe());
    let collider = GpuCollider::new(&gpu.device);
    let sprites = [blob(64, 1), blob(64, 2)];
    let posed = poses(4097, true);
    let mut pairs = QueryBatch::new();
    let ids = [pairs.add_sprite(&sprites[0]), pairs.add_sprite(&sprites[1])];
    let objs: Vec<_> = posed.iter().enumerate().map(|(i, &p)| pairs.add_object(ids[i % 2], p).unwrap()).collect();
    for i in 0..4096 {
        pairs.pair(objs[i], objs[i + 1]).unwrap();
    }
    // Groups: 64 players, each against a group of 64 enemies.
    let mut groups = QueryBatch::new();
    let gids = [groups.add_sprite(&sprites[0]), groups.add_sprite(&sprites[1])];
    let enemies: Vec<_> = posed[..64].iter().map(|&p| groups.add_object(gids[1], p).unwrap()).collect();
    let group = groups.add_group(&enemies).unwrap();
    for &p in &posed[64..128] {
        let o = groups.add_object(gids[0], p).unwrap();
        groups.group(o, group).unwrap();
    }
    let mut areas = QueryBatch::new();
    let aids = [areas.add_sprite(&sprites[0]), areas.add_sprite(&sprites[1])];
    let aobjs: Vec<_> =
        posed[..1025].iter().enumerate().map(|(i, &p)| areas.add_object(aids[i % 2], p).unwrap()).collect();
    for i in 0..1024 {
        areas.area(aobjs[i], aobjs[i + 1]).unwrap();
    }
    let stats = collider.run(&gpu.device, &gpu.queue, &pairs).unwrap().stats();
    eprintln!("batch of 4,096 pairs: {stats:?}");
    let mut g = c.benchmark_group("pixel_collide_gpu");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(4096));
    g.bench_function("batch_4096_pairs_latency", |b| b.iter(|| collider.run(&gpu.device, &gpu.queue, &pairs).unwrap()));
    g.throughput(Throughput::Elements(64));
    g.bench_function("batch_64_groups_of_64", |b| b.iter(|| collider.run(&gpu.device, &gpu.queue, &groups).unwrap()));
    g.throughput(Throughput::Elements(1024));
    g.bench_function("batch_1024_exact_areas", |b| b.iter(|| collider.run(&gpu.device, &gpu.queue, &areas).unwrap()));
    g.finish();
}

criterion_group!(benches, cpu, gpu);
criterion_main!(benches);
