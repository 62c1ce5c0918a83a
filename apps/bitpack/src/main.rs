//! `bitpack`: encode, decode, verify and inspect `.bpk` files and classic klystrack streams.
//!
//! Every output goes through [`output::Output`] (a temporary file renamed over the target when
//! complete); all targets are planned and checked (no two inputs onto one output, no input
//! overwritten, no existing file replaced without `--force`) before anything is written.

mod output;
mod progress;
mod sidecar;
mod stream;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container::{Encoder, Limits};
use lore_bitpack_audio::plan::{self, Job, PlanError, files_of};
use lore_bitpack_audio::{Audio, Effort, Settings, stats, wav};

use output::{Batch, Output};
use progress::{Progress, When};
use sidecar::Sidecar;

/// Default cap on the samples one decoded file may produce: 2^28 (512 MiB of 16-bit PCM, about 50
/// minutes of 44.1 kHz stereo).
const DEFAULT_MAX_SAMPLES: u64 = 1 << 28;

/// Default cap on how many bytes of 16-bit PCM one byte of input may decode to. Real recordings
/// compress 2 to 10 times, a chunk of digital silence about 750 times; a crafted file of silence
/// claims 190,000 times its size.
const DEFAULT_MAX_RATIO: u64 = 1000;

#[derive(Parser, Debug)]
#[command(name = "bitpack", version, about = "Lossless audio compression in the klystrack family")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Most samples (all channels together) that decoding one file may produce; files claiming
    /// more are refused before decoding. Default 2^28 = 512 MiB of 16-bit PCM.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_SAMPLES)]
    max_samples: u64,
    /// Most bytes of 16-bit PCM that one byte of input may decode to; files claiming more are
    /// refused before decoding (a small file of silence can claim gigabytes).
    #[arg(long, global = true, value_name = "R", default_value_t = DEFAULT_MAX_RATIO)]
    max_ratio: u64,
    /// Replace output files that already exist (each is still written to a temporary file first
    /// and renamed over the old one only when complete).
    #[arg(long, global = true)]
    force: bool,
    /// Progress bar on stderr: `auto` draws it only when stderr is a terminal.
    #[arg(long, global = true, value_enum, default_value_t = When::Auto)]
    progress: When,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Preset {
    /// Classic bit planes only, best of the four options per chunk.
    Classic,
    /// Fixed order-2 prediction and Rice codes.
    Fast,
    /// Every predictor and the classic options; smallest per chunk.
    Max,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    /// The `.bpk` container.
    Bpk,
    /// The raw reference stream of the post (mono; option 3 unless `--option`). The stream does
    /// not hold the sample count, option, length in bits or rate: they go to a sidecar file
    /// `NAME.bits.meta` that decoding reads.
    Classic,
}

/// The classic option to encode with: one of the four, or the best of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClassicChoice {
    Fixed(Options),
    Best,
}

fn parse_choice(s: &str) -> Result<ClassicChoice, String> {
    if s.eq_ignore_ascii_case("best") {
        return Ok(ClassicChoice::Best);
    }
    let k: u8 = s.parse().map_err(|_| format!("{s:?}: expected 0, 1, 2, 3 or best"))?;
    Options::from_flags(k).map(ClassicChoice::Fixed).map_err(|e| e.to_string())
}

#[derive(Subcommand, Debug)]
enum Command {
    /// WAV files (or folders of them) to .bpk (or a raw classic stream).
    Encode {
        /// Input WAV files or folders.
        inputs: Vec<PathBuf>,
        /// Output folder (default: next to each input).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Encoder preset.
        #[arg(long, value_enum, default_value_t = Preset::Fast)]
        preset: Preset,
        /// Frames per chunk.
        #[arg(long, default_value_t = 4096)]
        chunk: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Bpk)]
        format: Format,
        /// Classic option for `--format classic`: 0..=3, or `best` for the smallest of the four
        /// (klystron's bitpack_best). Default: 3, the reference stream.
        #[arg(long, value_parser = parse_choice)]
        option: Option<ClassicChoice>,
    },
    /// .bpk files (or folders of them) back to WAV; or a raw classic stream with its parameters.
    Decode {
        /// Input .bpk files or folders (or one classic stream).
        inputs: Vec<PathBuf>,
        /// Output folder (default: next to each input).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Input format.
        #[arg(long, value_enum, default_value_t = Format::Bpk)]
        format: Format,
        /// Classic stream: sample count (default: from the sidecar `NAME.bits.meta`).
        #[arg(long)]
        samples: Option<usize>,
        /// Classic stream: length in bits (default: the sidecar's, else 8 × file size).
        #[arg(long)]
        bits: Option<u64>,
        /// Classic stream: option 0..=3 (default: the sidecar's, else 3).
        #[arg(long)]
        option: Option<u8>,
        /// Classic stream: sample rate written to the WAV (required without a sidecar).
        #[arg(long)]
        rate: Option<u32>,
    },
    /// Verifies .bpk files: header, chunk table, every chunk's CRC32 and decode.
    Test {
        /// Input .bpk files or folders.
        inputs: Vec<PathBuf>,
    },
    /// Ratio per chunk and per classic option, and bits per sample, of WAV or .bpk files.
    Stats {
        /// Input WAV or .bpk files or folders.
        inputs: Vec<PathBuf>,
        /// Frames per chunk for WAV inputs.
        #[arg(long, default_value_t = 4096)]
        chunk: u32,
        /// Print every chunk, not only the totals.
        #[arg(long)]
        chunks: bool,
    },
}

type Res<T> = Result<T, String>;

fn files(inputs: &[PathBuf], ext: &str) -> Res<Vec<PathBuf>> {
    files_of(inputs, &[ext]).map_err(|e| e.to_string())
}

/// The targets of `inputs` (extension `ext`, with a `.meta` sidecar when asked), checked before
/// anything is written by [`plan::plan`]; unless `force` is `Some(true)`, no existing file is
/// replaced (`None`: the caller checks that later, with [`refuse_existing`]). Creates the
/// output folder.
fn plan(inputs: &[PathBuf], out: &Option<PathBuf>, ext: &str, sidecar: bool, force: Option<bool>) -> Res<Vec<Job>> {
    let path_for: &dyn Fn(&Path) -> PathBuf = &sidecar::path_for;
    let jobs = plan::plan(inputs, out.as_deref(), ext, sidecar.then_some(path_for)).map_err(|e| match e {
        PlanError::SameTarget { .. } => format!("{e} (rename one, or send them to different folders with -o)"),
        e => e.to_string(),
    })?;
    if force == Some(false) {
        refuse_existing(&jobs)?;
    }
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(jobs)
}

/// Refuses the jobs if any of their targets exists.
fn refuse_existing(jobs: &[Job]) -> Res<()> {
    for job in jobs {
        for t in std::iter::once(&job.target).chain(&job.sidecar) {
            if output::occupied(t) {
                return Err(output::exists_message(t));
            }
        }
    }
    Ok(())
}

fn read(p: &Path) -> Res<Vec<u8>> {
    let mut buf = Vec::new();
    read_into(p, &mut buf)?;
    Ok(buf)
}

/// Reads `p` into `buf` (its old contents dropped, its memory kept for the next file).
fn read_into(p: &Path, buf: &mut Vec<u8>) -> Res<()> {
    use std::io::Read;
    buf.clear();
    let mut f = std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
    f.read_to_end(buf).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(())
}

/// Writes `bytes` to `target` through a temporary file.
fn write(target: &Path, bytes: &[u8], force: bool) -> Res<()> {
    let mut o = Output::create(target, force)?;
    o.write_all(bytes)?;
    o.commit()
}

/// Parses a WAV file's layout, warning when its data ends inside a frame.
fn inspect_wav(f: &Path, data: &[u8]) -> Res<wav::Info> {
    let info = wav::inspect(data).map_err(|e| format!("{}: {e}", f.display()))?;
    if info.partial_samples > 0 {
        eprintln!(
            "bitpack: warning: {}: the data ends inside a frame; the last {} sample(s) of an incomplete \
             {}-channel frame are left out",
            f.display(),
            info.partial_samples,
            info.channels
        );
    }
    Ok(info)
}

fn effort(p: Preset) -> Effort {
    match p {
        Preset::Classic => Effort::Classic,
        Preset::Fast => Effort::Fast,
        Preset::Max => Effort::Max,
    }
}

struct EncodeArgs {
    preset: Preset,
    chunk: u32,
    format: Format,
    option: Option<ClassicChoice>,
    force: bool,
    progress: When,
}

fn encode(inputs: &[PathBuf], out: &Option<PathBuf>, a: &EncodeArgs) -> Res<()> {
    let list = files(inputs, "wav")?;
    let classic = a.format == Format::Classic;
    let jobs = plan(&list, out, if classic { "bits" } else { "bpk" }, classic, Some(a.force))?;
    let total: u64 = list.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    let mut bar = Progress::new(total, a.progress);
    let mut batch = Batch::new();
    let encoded = encode_jobs(&jobs, a, &mut batch, &mut bar);
    // The outputs before a failure are kept, as if each had been committed when written.
    let committed = commit(&mut batch);
    match (encoded, committed) {
        (Ok(()), Ok(())) => {
            bar.done();
            Ok(())
        }
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(later), Err(e)) => {
            eprintln!("bitpack: {later}");
            Err(e)
        }
    }
}

/// Commits `batch`, then prints the line of each output now in place.
fn commit(batch: &mut Batch<Option<String>>) -> Res<()> {
    let c = batch.commit();
    for line in c.done.into_iter().flatten() {
        println!("{line}");
    }
    c.error.map_or(Ok(()), Err)
}

/// Encodes each job into `batch`, committing it whenever it is full.
fn encode_jobs(jobs: &[Job], a: &EncodeArgs, batch: &mut Batch<Option<String>>, bar: &mut Progress) -> Res<()> {
    // One file in memory at a time; its chunks are encoded and written as they come. The
    // buffers are kept from file to file.
    let mut data = Vec::new();
    let mut samples = Vec::new();
    let mut wide = Vec::new();
    for job in jobs {
        let f = &job.input;
        read_into(f, &mut data)?;
        let info = inspect_wav(f, &data)?;
        let pcm = &data[info.data.clone()];
        if a.format == Format::Classic {
            encode_classic(job, &info, pcm, a, batch)?;
        } else {
            let settings = Settings { effort: effort(a.preset), chunk_frames: a.chunk };
            let fail = |e: lore_bitpack_audio::Error| format!("{}: {e}", f.display());
            // The channel mask of an extensible WAV goes into the file, so decoding writes it back.
            let (mut enc, mut bytes) = Encoder::with_channel_mask(
                info.sample_rate,
                info.channels,
                info.bits,
                info.frames,
                info.channel_mask,
                settings,
            )
            .map_err(fail)?;
            let mut o = Output::create(&job.target, a.force)?;
            let bytes_per = usize::from(info.bits / 8);
            let piece = (a.chunk as usize * usize::from(info.channels) * bytes_per).max(1);
            let mut size = 0u64;
            for part in pcm.chunks(piece) {
                if info.bits <= 16 {
                    samples.clear();
                    wav::get_samples(part, info.bits, &mut samples);
                    enc.feed(&samples, &mut bytes).map_err(fail)?;
                } else {
                    wide.clear();
                    wav::get_samples_i32(part, info.bits, &mut wide);
                    enc.feed_i32(&wide, &mut bytes).map_err(fail)?;
                }
                o.write_all(&bytes)?;
                size += bytes.len() as u64;
                bytes.clear();
                bar.step(part.len() as u64);
            }
            enc.finish(&mut bytes).map_err(fail)?;
            o.write_all(&bytes)?;
            size += bytes.len() as u64;
            let n = info.frames * u64::from(info.channels);
            let line = format!(
                "{} -> {}: {:.1} % of PCM, {:.2} bits/sample",
                f.display(),
                job.target.display(),
                100.0 * size as f64 / (pcm.len().max(1)) as f64,
                8.0 * size as f64 / n.max(1) as f64
            );
            batch.push(o, Some(line))?;
        }
        bar.step((data.len() - pcm.len()) as u64);
        if batch.is_full() {
            commit(batch)?;
        }
    }
    Ok(())
}

fn encode_classic(
    job: &Job,
    info: &wav::Info,
    pcm: &[u8],
    a: &EncodeArgs,
    batch: &mut Batch<Option<String>>,
) -> Res<()> {
    let f = &job.input;
    if info.channels != 1 {
        return Err(format!("{}: the classic stream is mono only; nothing was written", f.display()));
    }
    let mut samples = Vec::new();
    wav::get_samples(pcm, info.bits, &mut samples);
    let fail = |e: lore_bitpack_audio::Error| format!("{}: {e}", f.display());
    let (packed, o) = match a.option.unwrap_or(ClassicChoice::Fixed(Options::DELTA_GRAY)) {
        ClassicChoice::Fixed(o) => (classic::pack(&samples, o).map_err(fail)?, o),
        ClassicChoice::Best => classic::pack_best(&samples).map_err(fail)?,
    };
    let meta = Sidecar {
        samples: Some(samples.len() as u64),
        bits: Some(packed.bits),
        option: Some(o.flags()),
        rate: Some(info.sample_rate),
    };
    let line = format!(
        "{} -> {}: samples={} bits={} option={} ({:.1} % of 16-bit PCM)",
        f.display(),
        job.target.display(),
        samples.len(),
        packed.bits,
        o.flags(),
        100.0 * packed.bits as f64 / (16.0 * samples.len().max(1) as f64)
    );
    // The line is printed once the last of the job's files is in place.
    let mut stream = Output::create(&job.target, a.force)?;
    stream.write_all(&packed.bytes)?;
    match &job.sidecar {
        None => batch.push(stream, Some(line)),
        Some(side) => {
            batch.push(stream, None)?;
            let mut m = Output::create(side, a.force)?;
            m.write_all(meta.to_text().as_bytes())?;
            batch.push(m, Some(line))
        }
    }
}

fn decode_classic(f: &Path, out: &Option<PathBuf>, given: Sidecar, limits: Limits, force: bool) -> Res<()> {
    let side = sidecar::path_for(f);
    let stored = Sidecar::read(&side)?;
    let pick = |a: Option<u64>, b: Option<u64>| a.or(b);
    let n = pick(given.samples, stored.as_ref().and_then(|s| s.samples))
        .ok_or_else(|| format!("--samples is required for a classic stream (or a sidecar {})", side.display()))?;
    let len = std::fs::metadata(f).map_err(|e| format!("{}: {e}", f.display()))?.len();
    stream::check_claim(f, limits, n, 2, len)?;
    let rate = given.rate.or(stored.as_ref().and_then(|s| s.rate)).ok_or_else(|| {
        format!(
            "--rate is required for a classic stream: the stream does not hold its sample rate (or a sidecar {})",
            side.display()
        )
    })?;
    let option = given.option.or(stored.as_ref().and_then(|s| s.option)).unwrap_or(3);
    let o = Options::from_flags(option).map_err(|e| e.to_string())?;
    let jobs = plan(&[f.to_path_buf()], out, "wav", false, Some(force))?;
    let data = read(f)?;
    let bits = pick(given.bits, stored.as_ref().and_then(|s| s.bits)).unwrap_or(data.len() as u64 * 8);
    let n = usize::try_from(n).map_err(|_| format!("{}: too many samples", f.display()))?;
    let s = classic::unpack(&data, bits, n, o).map_err(|e| format!("{}: {e}", f.display()))?;
    let wav = wav::write(&Audio { sample_rate: rate, channels: 1, bits: 16, samples: s })
        .map_err(|e| format!("{}: {e}; nothing was written", f.display()))?;
    write(&jobs[0].target, &wav, force)?;
    println!("{} -> {}", f.display(), jobs[0].target.display());
    Ok(())
}

fn run(cli: Cli) -> Res<()> {
    let limits = Limits::samples(cli.max_samples).with_max_ratio(cli.max_ratio);
    let force = cli.force;
    match cli.command {
        Command::Encode { inputs, out, preset, chunk, format, option } => {
            encode(&inputs, &out, &EncodeArgs { preset, chunk, format, option, force, progress: cli.progress })
        }
        Command::Decode { inputs, out, format: Format::Classic, samples, bits, option, rate } => {
            let [f] = inputs.as_slice() else { return Err("decode --format classic takes one file".into()) };
            let given = Sidecar { samples: samples.map(|n| n as u64), bits, option, rate };
            decode_classic(f, &out, given, limits, force)
        }
        Command::Decode { inputs, out, .. } => {
            let list = files(&inputs, "bpk")?;
            let jobs = plan(&list, &out, "wav", false, None)?;
            // Every input's header and caps first: a file that cannot be decoded is reported as
            // such, before any output is considered.
            for job in &jobs {
                stream::check_header(&job.input, limits)?;
            }
            if !force {
                refuse_existing(&jobs)?;
            }
            let mut bar = Progress::new(list.iter().map(|f| stream::chunk_count(f)).sum(), cli.progress);
            for job in &jobs {
                stream::decode_file(&job.input, &job.target, limits, force, &mut bar)?;
                println!("{} -> {}", job.input.display(), job.target.display());
            }
            bar.done();
            Ok(())
        }
        Command::Test { inputs } => {
            let list = files(&inputs, "bpk")?;
            let mut bad = 0;
            for f in &list {
                match stream::verify(f, limits) {
                    Ok((frames, channels)) => println!("{}: OK ({frames} frames, {channels} ch)", f.display()),
                    Err(e) => {
                        bad += 1;
                        println!("FAILED: {e}");
                    }
                }
            }
            if bad == 0 { Ok(()) } else { Err(format!("{bad} of {} files failed", list.len())) }
        }
        Command::Stats { inputs, chunk, chunks } => stats(&inputs, chunk, chunks, limits),
    }
}

fn stats(inputs: &[PathBuf], chunk: u32, per_chunk: bool, limits: Limits) -> Res<()> {
    // Each file once, at its first place (named twice, or named and found in a folder given).
    let mut seen = std::collections::HashSet::new();
    let mut list = files_of(inputs, &["wav", "bpk"]).map_err(|e| e.to_string())?;
    list.retain(|f| seen.insert(f.clone()));
    println!(
        "file\tchunk\tsamples\topt0 %\topt1 %\topt2 %\topt3 %\tbest classic %\tbpk fast %\tbpk max %\tmax bits/sample"
    );
    let percent = |bits: u64, of: f64| 100.0 * bits as f64 / of;
    for f in &list {
        let is_bpk = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("bpk"));
        let audio = if is_bpk {
            stream::decode_in_memory(f, limits)?
        } else {
            let data = read(f)?;
            let info = inspect_wav(f, &data)?;
            if info.bits > 16 {
                return Err(stream::stats_depth(f, info.bits));
            }
            wav::read(&data).map_err(|e| format!("{}: {e}", f.display()))?
        };
        let chunks = stats::classic_chunks(&audio, chunk);
        if per_chunk {
            for (i, c) in chunks.iter().enumerate() {
                let raw = c.pcm_bits() as f64;
                let [o0, o1, o2, o3] = c.bits.map(|b| percent(b, raw));
                println!(
                    "{}\t{i}\t{}\t{o0:.1}\t{o1:.1}\t{o2:.1}\t{o3:.1}\t{:.1}\t\t\t",
                    f.display(),
                    c.samples,
                    percent(c.best_bits, raw)
                );
            }
        }
        let totals = chunks.iter().fold([0u64; 4], |mut t, c| {
            (0..4).for_each(|k| t[k] += c.bits[k]);
            t
        });
        let best_total: u64 = chunks.iter().map(|c| c.best_bits).sum();
        let raw = 16.0 * audio.samples.len().max(1) as f64;
        let (fast, max) = stats::encoded_sizes(&audio, chunk).map_err(|e| e.to_string())?;
        let [o0, o1, o2, o3] = totals.map(|b| percent(b, raw));
        println!(
            "{}\tall\t{}\t{o0:.1}\t{o1:.1}\t{o2:.1}\t{o3:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.2}",
            f.display(),
            audio.samples.len(),
            percent(best_total, raw),
            100.0 * 8.0 * fast as f64 / raw,
            100.0 * 8.0 * max as f64 / raw,
            8.0 * max as f64 / audio.samples.len().max(1) as f64
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bitpack: {e}");
            ExitCode::FAILURE
        }
    }
}
