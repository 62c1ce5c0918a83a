//! `bitpack`: encode, decode, verify and inspect `.bpk` files and classic klystrack streams.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use lore_bitpack_audio::classic::{self, Options};
use lore_bitpack_audio::container::{self, Encoder, Limits, StreamDecoder};
use lore_bitpack_audio::{Audio, Effort, Error, Settings, wav};

/// Default cap on the samples one decoded file may produce: 2^28 (512 MiB of 16-bit PCM, about 50
/// minutes of 44.1 kHz stereo). A `.bpk` file of silence claims about 190,000 times its size.
const DEFAULT_MAX_SAMPLES: u64 = 1 << 28;

#[derive(Parser, Debug)]
#[command(name = "bitpack", version, about = "Lossless audio compression in the klystrack family")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Most samples (all channels together) that decoding one file may produce; files claiming
    /// more are refused before decoding. Default 2^28 = 512 MiB of 16-bit PCM.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_SAMPLES)]
    max_samples: u64,
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
    /// The raw reference stream of the post (mono, option 3 unless `--option`); the sample count,
    /// option and bit length are printed, since the stream does not hold them.
    Classic,
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
        /// Classic option (0..=3) for `--format classic`; default: best of four.
        #[arg(long)]
        option: Option<u8>,
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
        /// Classic stream: sample count.
        #[arg(long)]
        samples: Option<usize>,
        /// Classic stream: length in bits (default: 8 × file size).
        #[arg(long)]
        bits: Option<u64>,
        /// Classic stream: option 0..=3.
        #[arg(long, default_value_t = 3)]
        option: u8,
        /// Classic stream: sample rate written to the WAV.
        #[arg(long, default_value_t = 44100)]
        rate: u32,
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
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x.eq_ignore_ascii_case(ext)))
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        return Err(format!("no .{ext} input files"));
    }
    Ok(out)
}

fn target(input: &Path, out: &Option<PathBuf>, ext: &str) -> Res<PathBuf> {
    let name = input.with_extension(ext);
    Ok(match out {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            dir.join(name.file_name().ok_or("bad input name")?)
        }
        None => name,
    })
}

fn read(p: &Path) -> Res<Vec<u8>> {
    std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn write(p: &Path, b: &[u8]) -> Res<()> {
    std::fs::write(p, b).map_err(|e| format!("{}: {e}", p.display()))
}

/// A progress bar on stderr, drawn when the work is long enough to need one.
struct Progress {
    total: u64,
    done: u64,
    shown: u64,
}

impl Progress {
    fn new(total: u64) -> Self {
        Progress { total: total.max(1), done: 0, shown: u64::MAX }
    }

    fn step(&mut self, n: u64) {
        self.done += n;
        let pct = self.done * 100 / self.total;
        if self.total >= 64 && pct != self.shown {
            self.shown = pct;
            let filled = (pct / 4) as usize;
            eprint!("\r[{}{}] {pct:3}%", "#".repeat(filled), " ".repeat(25 - filled.min(25)));
            if self.done >= self.total {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    }
}

fn effort(p: Preset) -> Effort {
    match p {
        Preset::Classic => Effort::Classic,
        Preset::Fast => Effort::Fast,
        Preset::Max => Effort::Max,
    }
}

fn encode(
    inputs: &[PathBuf],
    out: &Option<PathBuf>,
    preset: Preset,
    chunk: u32,
    format: Format,
    option: Option<u8>,
) -> Res<()> {
    let list = files(inputs, "wav")?;
    let mut clips = Vec::new();
    for f in &list {
        clips.push(wav::read(&read(f)?).map_err(|e| format!("{}: {e}", f.display()))?);
    }
    let total: u64 = clips.iter().map(|a| a.frames() as u64).sum();
    let mut bar = Progress::new(total.div_ceil(u64::from(chunk.max(1))));
    for (f, audio) in list.iter().zip(&clips) {
        match format {
            Format::Bpk => {
                let settings = Settings { effort: effort(preset), chunk_frames: chunk };
                let (mut enc, mut bytes) =
                    Encoder::new(audio.sample_rate, audio.channels, audio.bits, audio.frames() as u64, settings)
                        .map_err(|e| format!("{}: {e}", f.display()))?;
                let per = chunk as usize * usize::from(audio.channels);
                for part in audio.samples.chunks(per.max(1)) {
                    enc.feed(part, &mut bytes).map_err(|e| format!("{}: {e}", f.display()))?;
                    bar.step(1);
                }
                enc.finish(&mut bytes).map_err(|e| format!("{}: {e}", f.display()))?;
                let t = target(f, out, "bpk")?;
                write(&t, &bytes)?;
                let raw = audio.samples.len() * usize::from(audio.bits / 8);
                println!(
                    "{} -> {}: {:.1} % of PCM, {:.2} bits/sample",
                    f.display(),
                    t.display(),
                    100.0 * bytes.len() as f64 / raw.max(1) as f64,
                    8.0 * bytes.len() as f64 / audio.samples.len().max(1) as f64
                );
            }
            Format::Classic => {
                if audio.channels != 1 {
                    return Err(format!("{}: the classic stream is mono only", f.display()));
                }
                let (packed, o) = match option {
                    Some(k) => {
                        let o = Options::from_flags(k).map_err(|e| e.to_string())?;
                        (classic::pack(&audio.samples, o).map_err(|e| e.to_string())?, o)
                    }
                    None => classic::pack_best(&audio.samples).map_err(|e| e.to_string())?,
                };
                bar.step(audio.frames().div_ceil(chunk.max(1) as usize) as u64);
                let t = target(f, out, "bits")?;
                write(&t, &packed.bytes)?;
                println!(
                    "{} -> {}: samples={} bits={} option={} ({:.1} % of 16-bit PCM)",
                    f.display(),
                    t.display(),
                    audio.samples.len(),
                    packed.bits,
                    o.flags(),
                    100.0 * packed.bits as f64 / (16.0 * audio.samples.len().max(1) as f64)
                );
            }
        }
    }
    Ok(())
}

/// The message for a decoding error of file `f`, with a hint where the output limit refused it.
fn decode_error(f: &Path, e: Error) -> String {
    match e {
        Error::OutputLimit { .. } => format!("{}: {e} (raise it with --max-samples)", f.display()),
        e => format!("{}: {e}", f.display()),
    }
}

fn decode_bpk(f: &Path, limits: Limits, bar: Option<&mut Progress>) -> Res<Audio> {
    let file = std::fs::File::open(f).map_err(|e| format!("{}: {e}", f.display()))?;
    let mut dec = StreamDecoder::with_limits(std::io::BufReader::new(file), limits).map_err(|e| decode_error(f, e))?;
    let h = *dec.header();
    let mut samples = Vec::new();
    let mut bar = bar;
    while let Some(chunk) = dec.next_chunk().map_err(|e| format!("{}: {e}", f.display()))? {
        samples.extend(chunk);
        if let Some(b) = bar.as_deref_mut() {
            b.step(1);
        }
    }
    Ok(Audio { sample_rate: h.sample_rate, channels: h.channels, bits: h.bits, samples })
}

fn chunk_count(f: &Path) -> u64 {
    std::fs::File::open(f)
        .ok()
        .and_then(|file| StreamDecoder::new(std::io::BufReader::new(file)).ok().map(|d| d.header().chunks()))
        .unwrap_or(0)
}

fn run(cli: Cli) -> Res<()> {
    let limits = Limits::samples(cli.max_samples);
    match cli.command {
        Command::Encode { inputs, out, preset, chunk, format, option } => {
            encode(&inputs, &out, preset, chunk, format, option)
        }
        Command::Decode { inputs, out, format: Format::Classic, samples, bits, option, rate } => {
            let [f] = inputs.as_slice() else { return Err("decode --format classic takes one file".into()) };
            let n = samples.ok_or("--samples is required for a classic stream")?;
            if n as u64 > cli.max_samples {
                let e = Error::OutputLimit { claimed: n as u64, limit: cli.max_samples };
                return Err(decode_error(f, e));
            }
            let data = read(f)?;
            let bits = bits.unwrap_or(data.len() as u64 * 8);
            let o = Options::from_flags(option).map_err(|e| e.to_string())?;
            let s = classic::unpack(&data, bits, n, o).map_err(|e| format!("{}: {e}", f.display()))?;
            let t = target(f, &out, "wav")?;
            write(&t, &wav::write(&Audio { sample_rate: rate, channels: 1, bits: 16, samples: s }))?;
            println!("{} -> {}", f.display(), t.display());
            Ok(())
        }
        Command::Decode { inputs, out, .. } => {
            let list = files(&inputs, "bpk")?;
            let mut bar = Progress::new(list.iter().map(|f| chunk_count(f)).sum());
            for f in &list {
                let audio = decode_bpk(f, limits, Some(&mut bar))?;
                let t = target(f, &out, "wav")?;
                write(&t, &wav::write(&audio))?;
                println!("{} -> {}", f.display(), t.display());
            }
            Ok(())
        }
        Command::Test { inputs } => {
            let list = files(&inputs, "bpk")?;
            let mut bad = 0;
            for f in &list {
                match decode_bpk(f, limits, None) {
                    Ok(a) => println!("{}: OK ({} frames, {} ch)", f.display(), a.frames(), a.channels),
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
    let mut list = files(inputs, "wav").unwrap_or_default();
    list.extend(files(inputs, "bpk").unwrap_or_default());
    list.dedup();
    if list.is_empty() {
        return Err("no .wav or .bpk input files".into());
    }
    println!(
        "file\tchunk\tsamples\topt0 %\topt1 %\topt2 %\topt3 %\tbest classic %\tbpk fast %\tbpk max %\tmax bits/sample"
    );
    for f in &list {
        let is_bpk = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("bpk"));
        let audio = if is_bpk {
            decode_bpk(f, limits, None)?
        } else {
            wav::read(&read(f)?).map_err(|e| format!("{}: {e}", f.display()))?
        };
        let ch = usize::from(audio.channels);
        let per = chunk.max(1) as usize * ch;
        let mut totals = [0u64; 4];
        let mut best_total = 0u64;
        for (i, part) in audio.samples.chunks(per).enumerate() {
            let mut row = [0u64; 4];
            for c in 0..ch {
                let s: Vec<i16> = part.iter().skip(c).step_by(ch).copied().collect();
                for o in Options::ALL {
                    row[o.flags() as usize] += classic::packed_bits(&s, o);
                }
            }
            let best = *row.iter().min().unwrap_or(&0);
            for k in 0..4 {
                totals[k] += row[k];
            }
            best_total += best;
            if per_chunk {
                let raw = 16.0 * part.len() as f64;
                println!(
                    "{}\t{i}\t{}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t\t\t",
                    f.display(),
                    part.len(),
                    100.0 * row[0] as f64 / raw,
                    100.0 * row[1] as f64 / raw,
                    100.0 * row[2] as f64 / raw,
                    100.0 * row[3] as f64 / raw,
                    100.0 * best as f64 / raw
                );
            }
        }
        let raw = 16.0 * audio.samples.len().max(1) as f64;
        let fast = container::encode(&audio, Settings { effort: Effort::Fast, chunk_frames: chunk })
            .map_err(|e| e.to_string())?
            .len();
        let max = container::encode(&audio, Settings { effort: Effort::Max, chunk_frames: chunk })
            .map_err(|e| e.to_string())?
            .len();
        println!(
            "{}\tall\t{}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{:.2}",
            f.display(),
            audio.samples.len(),
            100.0 * totals[0] as f64 / raw,
            100.0 * totals[1] as f64 / raw,
            100.0 * totals[2] as f64 / raw,
            100.0 * totals[3] as f64 / raw,
            100.0 * best_total as f64 / raw,
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
