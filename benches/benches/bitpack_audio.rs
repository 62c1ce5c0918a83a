//! lore-bitpack-audio against FLAC (flacenc to encode, claxon to decode, both pure Rust) on a
//! small real corpus of WAV files from Debian packages.
//! Fetch it first: `sh crates/bitpack-audio/corpus/fetch.sh` (into target/bitpack-corpus/wav, or
//! set BITPACK_CORPUS to a folder of WAV files). Run: `cargo bench -p lore-benches --bench bitpack_audio`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flacenc::component::BitRepr;
use flacenc::error::Verify;
use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::{Audio, Effort, Settings, container, wav};

fn corpus() -> Vec<Audio> {
    let dir = std::env::var_os("BITPACK_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bitpack-corpus/wav"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run sh crates/bitpack-audio/corpus/fetch.sh", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wav")))
        .collect();
    files.sort();
    files.iter().filter_map(|f| wav::read(&std::fs::read(f).ok()?).ok()).collect()
}

fn flac_encode(a: &Audio, level_block: usize) -> Vec<u8> {
    let mut config = flacenc::config::Encoder::default();
    config.block_size = level_block;
    config.multithread = false; // one core, like the lore side
    let config = config.into_verified().expect("flacenc config");
    let samples: Vec<i32> =
        a.samples.iter().map(|&s| if a.bits == 8 { i32::from(s >> 8) } else { i32::from(s) }).collect();
    let source = flacenc::source::MemSource::from_samples(
        &samples,
        usize::from(a.channels),
        usize::from(a.bits),
        a.sample_rate as usize,
    );
    let stream = flacenc::encode_with_fixed_block_size(&config, source, config.block_size).expect("flacenc");
    let mut sink = flacenc::bitsink::ByteSink::new();
    stream.write(&mut sink).expect("flac write");
    sink.as_slice().to_vec()
}

fn claxon_decode(bytes: &[u8]) -> Result<usize, claxon::Error> {
    let mut r = claxon::FlacReader::new(bytes)?;
    r.samples().try_fold(0usize, |n, s| s.map(|_| n + 1))
}

fn bench(c: &mut Criterion) {
    let clips = corpus();
    assert!(!clips.is_empty(), "empty corpus");
    let pcm_bytes: u64 = clips.iter().map(|a| 2 * a.samples.len() as u64).sum();
    let mono: Vec<Vec<i16>> =
        clips.iter().flat_map(|a| (0..usize::from(a.channels)).map(move |k| a.channel(k))).collect();

    // Ratios, printed once (sizes are deterministic).
    let pct = |bytes: u64| 100.0 * bytes as f64 / pcm_bytes as f64;
    let classic3: u64 = mono.iter().map(|s| classic::packed_bits(s, Options::DELTA_GRAY).div_ceil(8)).sum();
    let best: u64 =
        mono.iter().map(|s| Options::ALL.iter().map(|&o| classic::packed_bits(s, o)).min().unwrap().div_ceil(8)).sum();
    let bpk = |e| {
        clips
            .iter()
            .map(|a| container::encode(a, Settings { effort: e, chunk_frames: 4096 }).unwrap().len() as u64)
            .sum::<u64>()
    };
    let flac: u64 = clips.iter().map(|a| flac_encode(a, 4096).len() as u64).sum();
    eprintln!(
        "corpus: {} files, {} bytes of 16-bit PCM; classic option 3 {:.1} %, classic best {:.1} %, bpk classic {:.1} %, bpk fast {:.1} %, bpk max {:.1} %, flacenc default {:.1} %",
        clips.len(),
        pcm_bytes,
        pct(classic3),
        pct(best),
        pct(bpk(Effort::Classic)),
        pct(bpk(Effort::Fast)),
        pct(bpk(Effort::Max)),
        pct(flac)
    );

    let mut g = c.benchmark_group("bitpack_encode");
    g.throughput(Throughput::Bytes(pcm_bytes));
    g.sample_size(10).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    g.bench_function("lore_classic_option3", |b| {
        b.iter(|| {
            for s in &mono {
                black_box(classic::pack(s, Options::DELTA_GRAY).unwrap());
            }
        })
    });
    g.bench_function("lore_classic_best_of_4", |b| {
        b.iter(|| {
            for s in &mono {
                black_box(classic::pack_best(s).unwrap());
            }
        })
    });
    for (name, e) in
        [("lore_bpk_classic", Effort::Classic), ("lore_bpk_fast", Effort::Fast), ("lore_bpk_max", Effort::Max)]
    {
        g.bench_function(name, |b| {
            b.iter(|| {
                for a in &clips {
                    black_box(container::encode(a, Settings { effort: e, chunk_frames: 4096 }).unwrap());
                }
            })
        });
    }
    g.bench_function("flacenc_default", |b| {
        b.iter(|| {
            for a in &clips {
                black_box(flac_encode(a, 4096));
            }
        })
    });
    g.finish();

    let packed: Vec<(classic::Packed, usize)> =
        mono.iter().map(|s| (classic::pack(s, Options::DELTA_GRAY).unwrap(), s.len())).collect();
    let files = |e| {
        clips
            .iter()
            .map(|a| container::encode(a, Settings { effort: e, chunk_frames: 4096 }).unwrap())
            .collect::<Vec<_>>()
    };
    // claxon refuses some of flacenc's files; those are left out of the claxon timing (and said so).
    let (flacs, refused): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
        clips.iter().map(|a| flac_encode(a, 4096)).partition(|f| claxon_decode(f).is_ok());
    if let Some(f) = refused.first() {
        eprintln!(
            "claxon refused {} of {} flacenc files, e.g. {:?}",
            refused.len(),
            clips.len(),
            claxon_decode(f).unwrap_err()
        );
    }
    let mut g = c.benchmark_group("bitpack_decode");
    g.throughput(Throughput::Bytes(pcm_bytes));
    g.sample_size(10).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    g.bench_function("lore_classic_option3", |b| {
        b.iter(|| {
            for (p, n) in &packed {
                black_box(classic::unpack(&p.bytes, p.bits, *n, Options::DELTA_GRAY).unwrap());
            }
        })
    });
    for (name, e) in
        [("lore_bpk_classic", Effort::Classic), ("lore_bpk_fast", Effort::Fast), ("lore_bpk_max", Effort::Max)]
    {
        let fs = files(e);
        g.bench_function(name, |b| {
            b.iter(|| {
                for f in &fs {
                    black_box(container::decode(f).unwrap());
                }
            })
        });
    }
    let claxon_bytes: u64 = flacs.iter().map(|f| 2 * claxon_decode(f).unwrap() as u64).sum();
    g.throughput(Throughput::Bytes(claxon_bytes));
    g.bench_function("claxon", |b| {
        b.iter(|| {
            for f in &flacs {
                black_box(claxon_decode(f).unwrap());
            }
        })
    });
    g.finish();
}

/// The `.bpk` checksum as the crate computes it against `crc32fast` called directly (SIMD
/// `pclmulqdq` where the CPU has it, detected at run time), on a chunk-sized and a file-sized
/// buffer: the crate's must not be slower (it was 25 times slower with its own slicing-by-8
/// tables). Needs no corpus: `cargo bench -p lore-benches --bench bitpack_audio -- crc32`.
fn crc(c: &mut Criterion) {
    let mut g = c.benchmark_group("bitpack_audio/crc32");
    for len in [8 << 10, 1 << 20] {
        let data: Vec<u8> = (0..len as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        assert_eq!(lore_bitpack_audio::crc32(&data), crc32fast::hash(&data));
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_function(format!("lore/{len}"), |b| b.iter(|| lore_bitpack_audio::crc32(black_box(&data))));
        g.bench_function(format!("crc32fast/{len}"), |b| b.iter(|| crc32fast::hash(black_box(&data))));
    }
    g.finish();
}

criterion_group!(crc_benches, crc);
criterion_group!(benches, bench);
criterion_main!(crc_benches, benches);
