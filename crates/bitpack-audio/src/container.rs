//! The `.bpk` container: header, CRC-checked chunks, a chunk table for seeking.
//!
//! All integers are little endian. Layout:
//!
//! | offset | size | field                                                            |
//! |--------|------|------------------------------------------------------------------|
//! | 0      | 4    | magic `LBPK`                                                      |
//! | 4      | 1    | version: 1, or 2 for what version 1 cannot hold (see below)      |
//! | 5      | 1    | mode the encoder used: 0 classic, 1 fast, 2 max (information only) |
//! | 6      | 1    | channels (version 1: 1 or 2; version 2: 1 ..= 8)                 |
//! | 7      | 1    | bits per sample of the source (version 1: 8 or 16; version 2: 8, 16 or 24) |
//! | 8      | 4    | sample rate (Hz)                                                 |
//! | 12     | 8    | frames (samples per channel)                                     |
//! | 20     | 4    | frames per chunk (1 ..= 2^20); the last chunk may be shorter     |
//! | 24     | 4    | version 1: CRC32 of bytes 0..24                                  |
//! |        |      | version 2: WAV channel mask (speaker positions), 0 when absent   |
//! | 28     | 1    | version 2 only: flags, bit 0 = a channel mask is present; others 0 |
//! | 29     | 3    | version 2 only: zero                                             |
//! | 32     | 4    | version 2 only: CRC32 of bytes 0..32                             |
//! | 28 / 36 | ...  | chunks, each: u32 payload length, u32 CRC32 of the payload, payload |
//! | end-8k-8 | 8k | chunk table: per chunk u64 offset of its length field              |
//! | end-8  | 4    | CRC32 of the chunk table                                         |
//! | end-4  | 4    | magic `KPBL`                                                     |
//!
//! The encoder writes version 1 whenever it can (8 or 16 bits, mono or stereo, no channel
//! mask), so such files are the same bytes as before version 2 existed; version 2 for 24-bit
//! samples, 3 to 8 channels, or a channel mask to keep.
//!
//! A chunk payload is a bit stream: for stereo one bit (1 = the second channel is stored as
//! its difference from the first: wrapping in 16 bits for 8/16-bit files, a 25-bit value for
//! 24-bit ones), then one [`predict`] block per channel; for 3 to 8 channels, one block per
//! channel, each on its own (no inter-channel decorrelation). 24-bit files use the wide blocks
//! (24-bit warm-up samples, no classic method).

use alloc::vec;
use alloc::vec::Vec;

use crate::bits::{BitReader, BitWriter};
use crate::crc::crc32;
use crate::predict::{self, Effort, WIDE};
use crate::{Audio, Error};

/// File magic.
pub const MAGIC: &[u8; 4] = b"LBPK";
/// Trailer magic.
pub const END_MAGIC: &[u8; 4] = b"KPBL";
/// Format version this crate writes for 8/16-bit mono and stereo (and reads).
pub const VERSION: u8 = 1;
/// Format version for 24-bit samples, 3 to 8 channels or a channel mask (written and read).
pub const VERSION_WIDE: u8 = 2;
/// Most channels a `.bpk` file holds.
pub const MAX_CHANNELS: u8 = 8;
/// Largest frames-per-chunk value accepted (bounds memory on corrupt input).
pub const MAX_CHUNK_FRAMES: u32 = 1 << 20;
/// Header length in bytes (version 1).
pub const HEADER_LEN: usize = 28;
/// Header length in bytes of a version 2 file.
pub const HEADER_LEN_WIDE: usize = 36;

/// Encoder settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings {
    /// Search effort (the "mode").
    pub effort: Effort,
    /// Frames per chunk (1 ..= [`MAX_CHUNK_FRAMES`]).
    pub chunk_frames: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { effort: Effort::Fast, chunk_frames: 4096 }
    }
}

/// Caps on what a `.bpk` decoder will produce from input it does not trust.
///
/// The header states the sample count, and a chunk of silence takes a few bytes for up to 2^20
/// frames, so a small valid file can claim an output about 190,000 times its own size (a 3 KiB
/// file, 512 MiB of PCM). A decoder given limits checks the header's claim against them before
/// it decodes or allocates anything and refuses the file with [`Error::OutputLimit`]. A
/// compression-ratio cap ([`Limits::max_ratio`]) bounds the output by the input's size as
/// well ([`Error::RatioLimit`]): it is checked wherever the input's length is known
/// ([`Reader::with_limits`], [`decode_with_limits`], and [`Limits::check_claim`] for a caller
/// that knows its file's size, such as the `bitpack` CLI with a streaming decoder). The plain
/// [`decode`], [`Reader::new`] and [`StreamDecoder::new`] use [`Limits::NONE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limits {
    /// Most samples, all channels together, a file may claim (2 bytes each as 16-bit PCM, 3 as
    /// 24-bit).
    pub max_samples: u64,
    /// Most bytes of PCM a file may claim per byte of its own size, counting 2 bytes a sample
    /// for 8- and 16-bit files and 3 for 24-bit ones (`u64::MAX`: no cap; a record without the
    /// field reads as no cap).
    #[cfg_attr(feature = "serde", serde(default = "no_ratio_cap"))]
    pub max_ratio: u64,
}

/// The serde default of [`Limits::max_ratio`]: no cap.
#[cfg(feature = "serde")]
fn no_ratio_cap() -> u64 {
    u64::MAX
}

impl Limits {
    /// No limit: every header the format allows is accepted.
    pub const NONE: Limits = Limits { max_samples: u64::MAX, max_ratio: u64::MAX };

    /// At most `max_samples` samples, all channels together.
    pub const fn samples(max_samples: u64) -> Limits {
        Limits { max_samples, max_ratio: u64::MAX }
    }

    /// At most `max_bytes` bytes of 16-bit PCM output (`max_bytes / 2` samples; for 24-bit
    /// files that is `max_bytes × 3 / 2` bytes of PCM: use [`Limits::samples`] to cap a count).
    pub const fn pcm_bytes(max_bytes: u64) -> Limits {
        Limits { max_samples: max_bytes / 2, max_ratio: u64::MAX }
    }

    /// These limits with at most `max_ratio` bytes of PCM (2 a sample for 8/16-bit files, 3 for
    /// 24-bit) per byte of input.
    #[must_use]
    pub const fn with_max_ratio(self, max_ratio: u64) -> Limits {
        Limits { max_ratio, ..self }
    }

    /// Whether a file with this header may be decoded (the sample cap; the ratio cap needs the
    /// input's size: [`Limits::check_claim`]).
    pub fn check(&self, header: &Header) -> Result<(), Error> {
        let claimed = header.samples();
        if claimed > self.max_samples {
            return Err(Error::OutputLimit { claimed, limit: self.max_samples });
        }
        Ok(())
    }

    /// Whether an input of `input_bytes` bytes may produce `claimed` samples (all channels
    /// together): the sample cap first ([`Error::OutputLimit`]), then the ratio cap
    /// ([`Error::RatioLimit`]: more than `max_ratio × input_bytes / 2` samples; `u64::MAX`
    /// checks nothing).
    pub fn check_claim(&self, claimed: u64, input_bytes: u64) -> Result<(), Error> {
        self.check_claim_bytes(claimed, 2, input_bytes)
    }

    /// [`Limits::check_claim`] for samples of `sample_bytes` bytes each (3 for 24-bit audio):
    /// the ratio cap allows `max_ratio × input_bytes / sample_bytes` samples.
    pub fn check_claim_bytes(&self, claimed: u64, sample_bytes: u8, input_bytes: u64) -> Result<(), Error> {
        if claimed > self.max_samples {
            return Err(Error::OutputLimit { claimed, limit: self.max_samples });
        }
        let limit = self.max_ratio.saturating_mul(input_bytes) / u64::from(sample_bytes.max(1));
        if self.max_ratio != u64::MAX && claimed > limit {
            return Err(Error::RatioLimit { claimed, limit, input_bytes, max_ratio: self.max_ratio, sample_bytes });
        }
        Ok(())
    }

    /// Both caps for a file with this header and `input_bytes` bytes, at the header's bytes per
    /// sample ([`Header::sample_bytes`]).
    pub fn check_file(&self, header: &Header, input_bytes: u64) -> Result<(), Error> {
        self.check_claim_bytes(header.samples(), header.sample_bytes(), input_bytes)
    }
}

impl Default for Limits {
    /// [`Limits::NONE`].
    fn default() -> Self {
        Limits::NONE
    }
}

/// The parsed header of a `.bpk` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Encoder mode (0 classic, 1 fast, 2 max).
    pub mode: u8,
    /// Channels (1 ..= 8; 1 or 2 in a version 1 file).
    pub channels: u8,
    /// Source bits per sample (8, 16 or 24; 8 or 16 in a version 1 file).
    pub bits: u8,
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Samples per channel.
    pub frames: u64,
    /// Frames per chunk.
    pub chunk_frames: u32,
    /// The WAV channel mask of the source (speaker positions, as WAVE_FORMAT_EXTENSIBLE holds
    /// it), when it had one; always `None` in a version 1 file.
    pub channel_mask: Option<u32>,
}

impl Header {
    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.frames.div_ceil(u64::from(self.chunk_frames))
    }

    /// Samples of all channels together (`frames * channels`): what a decoder will produce.
    pub fn samples(&self) -> u64 {
        self.frames.saturating_mul(u64::from(self.channels))
    }

    /// The format version of this header: [`VERSION`] where version 1 can hold it (8 or 16 bits,
    /// mono or stereo, no channel mask), else [`VERSION_WIDE`].
    pub fn version(&self) -> u8 {
        if self.bits <= 16 && self.channels <= 2 && self.channel_mask.is_none() { VERSION } else { VERSION_WIDE }
    }

    /// Length of this header in the file: [`HEADER_LEN`] or [`HEADER_LEN_WIDE`].
    pub fn byte_len(&self) -> usize {
        if self.version() == VERSION { HEADER_LEN } else { HEADER_LEN_WIDE }
    }

    /// Bytes a sample takes as PCM, for the ratio cap: 2 for 8- and 16-bit files, 3 for 24-bit.
    pub fn sample_bytes(&self) -> u8 {
        if self.bits > 16 { 3 } else { 2 }
    }

    /// Frames in chunk `i` (0 past the last chunk).
    pub fn chunk_len(&self, i: u64) -> usize {
        let start = i * u64::from(self.chunk_frames);
        self.frames.saturating_sub(start).min(u64::from(self.chunk_frames)) as usize
    }

    fn parse(b: &[u8]) -> Result<Header, Error> {
        if b.len() < 4 || &b[..4] != MAGIC {
            return Err(Error::BadMagic);
        }
        if b.len() < HEADER_LEN {
            return Err(Error::Header("file shorter than the header"));
        }
        let version = b[4];
        let len = match version {
            VERSION => HEADER_LEN,
            VERSION_WIDE => HEADER_LEN_WIDE,
            v => return Err(Error::Version(v)),
        };
        if b.len() < len {
            return Err(Error::Header("file shorter than the header"));
        }
        let stored = u32_at(b, len - 4);
        let computed = crc32(&b[..len - 4]);
        if stored != computed {
            return Err(Error::Crc { what: "header", stored, computed });
        }
        let channel_mask = if version == VERSION_WIDE {
            if b[28] > 1 || b[29..32] != [0, 0, 0] {
                return Err(Error::Header("unknown flags in a version 2 header"));
            }
            (b[28] == 1).then(|| u32_at(b, 24))
        } else {
            None
        };
        let h = Header {
            mode: b[5],
            channels: b[6],
            bits: b[7],
            sample_rate: u32_at(b, 8),
            frames: u64_at(b, 12),
            chunk_frames: u32_at(b, 20),
            channel_mask,
        };
        if version == VERSION && !(1..=2).contains(&h.channels) {
            return Err(Error::Header("channels must be 1 or 2 in version 1"));
        }
        if version == VERSION && h.bits != 8 && h.bits != 16 {
            return Err(Error::Header("bits per sample must be 8 or 16 in version 1"));
        }
        h.check()?;
        if h.version() != version {
            return Err(Error::Header("a version 2 header for what version 1 holds"));
        }
        Ok(h)
    }

    fn check(&self) -> Result<(), Error> {
        if self.mode > 2 {
            return Err(Error::Header("mode must be 0, 1 or 2"));
        }
        if !(1..=MAX_CHANNELS).contains(&self.channels) {
            return Err(Error::Header("channels must be 1 ..= 8"));
        }
        if !matches!(self.bits, 8 | 16 | 24) {
            return Err(Error::Header("bits per sample must be 8, 16 or 24"));
        }
        if self.chunk_frames == 0 || self.chunk_frames > MAX_CHUNK_FRAMES {
            return Err(Error::Header("frames per chunk must be 1 ..= 2^20"));
        }
        if self.frames > u64::from(u32::MAX) * u64::from(self.chunk_frames) {
            return Err(Error::Header("too many frames"));
        }
        Ok(())
    }

    fn write(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[self.version(), self.mode, self.channels, self.bits]);
        out.extend_from_slice(&self.sample_rate.to_le_bytes());
        out.extend_from_slice(&self.frames.to_le_bytes());
        out.extend_from_slice(&self.chunk_frames.to_le_bytes());
        if self.version() == VERSION_WIDE {
            out.extend_from_slice(&self.channel_mask.unwrap_or(0).to_le_bytes());
            out.extend_from_slice(&[u8::from(self.channel_mask.is_some()), 0, 0, 0]);
        }
        let c = crc32(&out[start..]);
        out.extend_from_slice(&c.to_le_bytes());
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

fn mode_of(e: Effort) -> u8 {
    match e {
        Effort::Classic => 0,
        Effort::Fast => 1,
        Effort::Max => 2,
    }
}

/// Encodes one chunk (`frames` interleaved frames) into a payload. `channels` is 1 ..= 8; for 2,
/// `frames` holds left/right pairs.
pub fn encode_chunk(frames: &[i16], channels: u8, effort: Effort) -> Result<Vec<u8>, Error> {
    let mut w = BitWriter::new();
    if channels == 1 {
        predict::encode_block(frames, effort, &mut w)?;
    } else if channels == 2 {
        let left: Vec<i16> = frames.iter().step_by(2).copied().collect();
        let right: Vec<i16> = frames.iter().skip(1).step_by(2).copied().collect();
        let side: Vec<i16> = left.iter().zip(&right).map(|(&l, &r)| r.wrapping_sub(l)).collect();
        let mut a = BitWriter::new();
        predict::encode_block(&right, effort, &mut a)?;
        let mut b = BitWriter::new();
        predict::encode_block(&side, effort, &mut b)?;
        let use_side = b.len() < a.len();
        w.put(u64::from(use_side), 1);
        predict::encode_block(&left, effort, &mut w)?;
        w.append(if use_side { &b } else { &a });
    } else {
        let ch = usize::from(channels);
        for k in 0..ch {
            let one: Vec<i16> = frames.iter().skip(k).step_by(ch).copied().collect();
            predict::encode_block(&one, effort, &mut w)?;
        }
    }
    Ok(w.finish().0)
}

/// [`encode_chunk`] for 24-bit samples (each in `-2^23 .. 2^23`, which the caller checks), with
/// the wide blocks of a version 2 file.
pub fn encode_chunk_i32(frames: &[i32], channels: u8, effort: Effort) -> Result<Vec<u8>, Error> {
    let mut w = BitWriter::new();
    let ch = usize::from(channels.max(1));
    if ch == 2 {
        let left: Vec<i32> = frames.iter().step_by(2).copied().collect();
        let right: Vec<i32> = frames.iter().skip(1).step_by(2).copied().collect();
        let side: Vec<i32> = left.iter().zip(&right).map(|(&l, &r)| r - l).collect();
        let mut a = BitWriter::new();
        predict::encode_block_wide(&right, WIDE, effort, &mut a)?;
        let mut b = BitWriter::new();
        predict::encode_block_wide(&side, WIDE + 1, effort, &mut b)?;
        let use_side = b.len() < a.len();
        w.put(u64::from(use_side), 1);
        predict::encode_block_wide(&left, WIDE, effort, &mut w)?;
        w.append(if use_side { &b } else { &a });
    } else {
        for k in 0..ch {
            let one: Vec<i32> = frames.iter().skip(k).step_by(ch).copied().collect();
            predict::encode_block_wide(&one, WIDE, effort, &mut w)?;
        }
    }
    Ok(w.finish().0)
}

/// Decodes one chunk payload into `out` (interleaved, `frames * channels` samples).
pub fn decode_chunk(payload: &[u8], channels: u8, out: &mut [i16]) -> Result<(), Error> {
    let mut r = BitReader::new(payload, payload.len() as u64 * 8)?;
    if channels == 1 {
        return predict::decode_block(&mut r, out);
    }
    let ch = usize::from(channels.max(1));
    let frames = out.len() / ch;
    if ch > 2 {
        let mut one = vec![0i16; frames];
        for k in 0..ch {
            predict::decode_block(&mut r, &mut one)?;
            for (o, &s) in out.iter_mut().skip(k).step_by(ch).zip(&one) {
                *o = s;
            }
        }
        return Ok(());
    }
    let use_side = r.take(1)? == 1;
    let mut left = vec![0i16; frames];
    let mut right = vec![0i16; frames];
    predict::decode_block(&mut r, &mut left)?;
    predict::decode_block(&mut r, &mut right)?;
    for (i, o) in out.chunks_exact_mut(2).enumerate() {
        o[0] = left[i];
        o[1] = if use_side { right[i].wrapping_add(left[i]) } else { right[i] };
    }
    Ok(())
}

/// Decodes one 24-bit chunk payload (written by [`encode_chunk_i32`]) into `out` (interleaved,
/// `frames * channels` samples, each in `-2^23 .. 2^23`).
pub fn decode_chunk_i32(payload: &[u8], channels: u8, out: &mut [i32]) -> Result<(), Error> {
    let mut r = BitReader::new(payload, payload.len() as u64 * 8)?;
    let ch = usize::from(channels.max(1));
    let frames = out.len() / ch;
    if ch == 2 {
        let use_side = r.take(1)? == 1;
        let mut left = vec![0i32; frames];
        let mut right = vec![0i32; frames];
        predict::decode_block_wide(&mut r, &mut left, WIDE)?;
        predict::decode_block_wide(&mut r, &mut right, if use_side { WIDE + 1 } else { WIDE })?;
        let (lo, hi) = (-(1i32 << (WIDE - 1)), (1i32 << (WIDE - 1)) - 1);
        for (i, o) in out.chunks_exact_mut(2).enumerate() {
            o[0] = left[i];
            o[1] = if use_side { right[i] + left[i] } else { right[i] };
            if o[1] < lo || o[1] > hi {
                return Err(Error::SampleRange);
            }
        }
        return Ok(());
    }
    if ch == 1 {
        return predict::decode_block_wide(&mut r, out, WIDE);
    }
    let mut one = vec![0i32; frames];
    for k in 0..ch {
        predict::decode_block_wide(&mut r, &mut one, WIDE)?;
        for (o, &s) in out.iter_mut().skip(k).step_by(ch).zip(&one) {
            *o = s;
        }
    }
    Ok(())
}

/// Refuses decoded samples that the header's bit depth cannot hold: an 8-bit file's samples are
/// multiples of 256 (`(u8 - 128) << 8`), so one with low bits set is corrupt or crafted, and
/// writing it back as 8-bit would lose data.
pub fn check_bits(header: &Header, samples: &[i16]) -> Result<(), Error> {
    if header.bits == 8 && samples.iter().any(|&s| s & 0xff != 0) {
        return Err(Error::Header("8-bit file decodes to samples with low bits set"));
    }
    Ok(())
}

/// Streaming encoder: feed interleaved samples, get bytes out as chunks fill.
///
/// 8- and 16-bit audio takes `i16` samples ([`Encoder::feed`]) or `i32` ones at the source's
/// scale ([`Encoder::feed_i32`]); 24-bit audio takes `i32` samples only.
#[derive(Debug)]
pub struct Encoder {
    header: Header,
    effort: Effort,
    pending: Vec<i16>,
    pending_wide: Vec<i32>,
    offsets: Vec<u64>,
    written: u64,
    fed: u64,
}

impl Encoder {
    /// Starts a file; returns the encoder and the header bytes to write first.
    ///
    /// `audio_frames` is the total frame count, stored in the header.
    pub fn new(
        sample_rate: u32,
        channels: u8,
        bits: u8,
        audio_frames: u64,
        settings: Settings,
    ) -> Result<(Encoder, Vec<u8>), Error> {
        Self::with_channel_mask(sample_rate, channels, bits, audio_frames, None, settings)
    }

    /// [`Encoder::new`] keeping a WAV channel mask (speaker positions) in the header, for a
    /// decoder to write back ([`Header::channel_mask`]); a mask makes the file version 2.
    pub fn with_channel_mask(
        sample_rate: u32,
        channels: u8,
        bits: u8,
        audio_frames: u64,
        channel_mask: Option<u32>,
        settings: Settings,
    ) -> Result<(Encoder, Vec<u8>), Error> {
        let header = Header {
            mode: mode_of(settings.effort),
            channels,
            bits,
            sample_rate,
            frames: audio_frames,
            chunk_frames: settings.chunk_frames,
            channel_mask,
        };
        header.check()?;
        let mut out = Vec::with_capacity(header.byte_len());
        header.write(&mut out);
        let enc = Encoder {
            header,
            effort: settings.effort,
            pending: Vec::new(),
            pending_wide: Vec::new(),
            offsets: Vec::new(),
            written: header.byte_len() as u64,
            fed: 0,
        };
        Ok((enc, out))
    }

    /// The header being written.
    pub fn header(&self) -> &Header {
        &self.header
    }

    fn count(&mut self, samples: usize) -> Result<(), Error> {
        let total = self.header.samples();
        if self.fed + samples as u64 > total {
            return Err(Error::Header("more samples fed than the header's frame count"));
        }
        self.fed += samples as u64;
        Ok(())
    }

    /// Feeds interleaved `i16` samples (8-bit as `(u8 - 128) << 8`); appends the bytes of every
    /// completed chunk to `out`. A 24-bit file is refused ([`Error::NeedsI32`]).
    pub fn feed(&mut self, samples: &[i16], out: &mut Vec<u8>) -> Result<(), Error> {
        if self.header.bits > 16 {
            return Err(Error::NeedsI32 { bits: self.header.bits });
        }
        self.count(samples.len())?;
        self.pending.extend_from_slice(samples);
        let per = self.header.chunk_frames as usize * usize::from(self.header.channels);
        while self.pending.len() >= per {
            let rest = self.pending.split_off(per);
            let chunk = core::mem::replace(&mut self.pending, rest);
            self.emit(&chunk, out)?;
        }
        Ok(())
    }

    /// Feeds interleaved `i32` samples at the source's scale (see [`Audio`]); a sample outside
    /// the header's bits is refused with [`Error::SampleRange`], before anything is fed.
    pub fn feed_i32(&mut self, samples: &[i32], out: &mut Vec<u8>) -> Result<(), Error> {
        let bits = u32::from(self.header.bits);
        let (lo, hi) = (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1);
        if samples.iter().any(|&s| s < lo || s > hi) {
            return Err(Error::SampleRange);
        }
        if bits <= 16 {
            let shift = if bits == 8 { 8 } else { 0 };
            let narrow: Vec<i16> = samples.iter().map(|&s| (s << shift) as i16).collect();
            return self.feed(&narrow, out);
        }
        self.count(samples.len())?;
        self.pending_wide.extend_from_slice(samples);
        let per = self.header.chunk_frames as usize * usize::from(self.header.channels);
        while self.pending_wide.len() >= per {
            let rest = self.pending_wide.split_off(per);
            let chunk = core::mem::replace(&mut self.pending_wide, rest);
            let payload = encode_chunk_i32(&chunk, self.header.channels, self.effort)?;
            self.put_chunk(&payload, out)?;
        }
        Ok(())
    }

    fn emit(&mut self, chunk: &[i16], out: &mut Vec<u8>) -> Result<(), Error> {
        let payload = encode_chunk(chunk, self.header.channels, self.effort)?;
        self.put_chunk(&payload, out)
    }

    fn put_chunk(&mut self, payload: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.offsets.push(self.written);
        let len = u32::try_from(payload.len()).map_err(|_| Error::TooLong(payload.len() as u64))?;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&crc32(payload).to_le_bytes());
        out.extend_from_slice(payload);
        self.written += 8 + payload.len() as u64;
        Ok(())
    }

    /// Flushes the last partial chunk and appends the chunk table and trailer.
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        if self.fed != self.header.samples() {
            return Err(Error::Header("fewer samples fed than the header's frame count"));
        }
        if !self.pending.is_empty() {
            let chunk = core::mem::take(&mut self.pending);
            self.emit(&chunk, out)?;
        }
        if !self.pending_wide.is_empty() {
            let chunk = core::mem::take(&mut self.pending_wide);
            let payload = encode_chunk_i32(&chunk, self.header.channels, self.effort)?;
            self.put_chunk(&payload, out)?;
        }
        let start = out.len();
        for o in &self.offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        let c = crc32(&out[start..]);
        out.extend_from_slice(&c.to_le_bytes());
        out.extend_from_slice(END_MAGIC);
        Ok(())
    }
}

/// Encodes a whole clip of `i16` samples (8 or 16 bits, 1 to 8 channels) into `.bpk` bytes.
pub fn encode(audio: &Audio, settings: Settings) -> Result<Vec<u8>, Error> {
    let ch = u64::from(audio.channels.max(1));
    let (mut enc, mut out) =
        Encoder::new(audio.sample_rate, audio.channels, audio.bits, audio.samples.len() as u64 / ch, settings)?;
    if !(audio.samples.len() as u64).is_multiple_of(ch) {
        return Err(Error::Header("sample count is not a multiple of the channel count"));
    }
    enc.feed(&audio.samples, &mut out)?;
    enc.finish(&mut out)?;
    Ok(out)
}

/// Encodes a whole clip of `i32` samples at the source's scale (8, 16 or 24 bits, 1 to 8
/// channels) into `.bpk` bytes; 8- and 16-bit clips give the same bytes as [`encode`].
pub fn encode_i32(audio: &Audio<i32>, settings: Settings) -> Result<Vec<u8>, Error> {
    encode_i32_with_channel_mask(audio, None, settings)
}

/// [`encode_i32`] keeping a WAV channel mask in the header (see [`Encoder::with_channel_mask`]).
pub fn encode_i32_with_channel_mask(
    audio: &Audio<i32>,
    channel_mask: Option<u32>,
    settings: Settings,
) -> Result<Vec<u8>, Error> {
    let ch = u64::from(audio.channels.max(1));
    let frames = audio.samples.len() as u64 / ch;
    let (mut enc, mut out) =
        Encoder::with_channel_mask(audio.sample_rate, audio.channels, audio.bits, frames, channel_mask, settings)?;
    if !(audio.samples.len() as u64).is_multiple_of(ch) {
        return Err(Error::Header("sample count is not a multiple of the channel count"));
    }
    enc.feed_i32(&audio.samples, &mut out)?;
    enc.finish(&mut out)?;
    Ok(out)
}

/// A parsed `.bpk` file for random access to chunks.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    header: Header,
    offsets: Vec<u64>,
}

impl<'a> Reader<'a> {
    /// Parses the header and the chunk table (checked against its CRC and the file size), with no
    /// limit on the samples the file claims (see [`Reader::with_limits`]).
    pub fn new(data: &'a [u8]) -> Result<Reader<'a>, Error> {
        Self::with_limits(data, Limits::NONE)
    }

    /// [`Reader::new`] that first refuses a file whose header claims more than `limits` allow
    /// ([`Error::OutputLimit`], or [`Error::RatioLimit`] against `data`'s length).
    pub fn with_limits(data: &'a [u8], limits: Limits) -> Result<Reader<'a>, Error> {
        let header = Header::parse(data)?;
        limits.check_file(&header, data.len() as u64)?;
        let chunks = header.chunks();
        let table_len = chunks.checked_mul(8).ok_or(Error::Header("chunk table too large"))?;
        let min_len = (header.byte_len() as u64).saturating_add(chunks.saturating_mul(8)).saturating_add(table_len + 8);
        if (data.len() as u64) < min_len {
            return Err(Error::Header("file too short for its chunk table (truncated?)"));
        }
        let end = data.len();
        if &data[end - 4..] != END_MAGIC {
            return Err(Error::Header("missing trailer (truncated?)"));
        }
        let table = &data[end - 8 - table_len as usize..end - 8];
        let stored = u32_at(data, end - 8);
        let computed = crc32(table);
        if stored != computed {
            return Err(Error::Crc { what: "chunk table", stored, computed });
        }
        let offsets: Vec<u64> = table.chunks_exact(8).map(|b| u64_at(b, 0)).collect();
        let mut expect = header.byte_len() as u64;
        let table_start = (end - 8 - table_len as usize) as u64;
        for (i, &o) in offsets.iter().enumerate() {
            if o != expect || o + 8 > table_start {
                return Err(Error::Header("chunk table does not match the chunks").in_chunk(i as u32));
            }
            let len = u64::from(u32_at(data, o as usize));
            expect = o + 8 + len;
        }
        if expect != table_start {
            return Err(Error::Header("chunks do not end where the table starts"));
        }
        Ok(Reader { data, header, offsets })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Payload bytes of chunk `i` (CRC checked).
    pub fn chunk_payload(&self, i: usize) -> Result<&'a [u8], Error> {
        let o = *self.offsets.get(i).ok_or(Error::Header("chunk index out of range"))? as usize;
        let len = u32_at(self.data, o) as usize;
        let stored = u32_at(self.data, o + 4);
        let payload = &self.data[o + 8..o + 8 + len];
        let computed = crc32(payload);
        if stored != computed {
            return Err(Error::Crc { what: "chunk", stored, computed }.in_chunk(i as u32));
        }
        Ok(payload)
    }

    /// Decodes chunk `i` into interleaved `i16` samples ([`Error::NeedsI32`] for a 24-bit file).
    pub fn decode_chunk(&self, i: usize) -> Result<Vec<i16>, Error> {
        if self.header.bits > 16 {
            return Err(Error::NeedsI32 { bits: self.header.bits });
        }
        let payload = self.chunk_payload(i)?;
        let n = self.header.chunk_len(i as u64) * usize::from(self.header.channels);
        let mut out = vec![0i16; n];
        decode_chunk(payload, self.header.channels, &mut out)
            .and_then(|()| check_bits(&self.header, &out))
            .map_err(|e| e.in_chunk(i as u32))?;
        Ok(out)
    }

    /// Decodes chunk `i` into interleaved `i32` samples at the source's scale (any file).
    pub fn decode_chunk_i32(&self, i: usize) -> Result<Vec<i32>, Error> {
        if self.header.bits <= 16 {
            return Ok(widen(&self.header, &self.decode_chunk(i)?));
        }
        let payload = self.chunk_payload(i)?;
        let n = self.header.chunk_len(i as u64) * usize::from(self.header.channels);
        let mut out = vec![0i32; n];
        decode_chunk_i32(payload, self.header.channels, &mut out).map_err(|e| e.in_chunk(i as u32))?;
        Ok(out)
    }

    /// Number of chunks.
    pub fn chunks(&self) -> usize {
        self.offsets.len()
    }
}

/// `i16` samples of an 8- or 16-bit file at the source's scale.
fn widen(header: &Header, samples: &[i16]) -> Vec<i32> {
    let shift = if header.bits == 8 { 8 } else { 0 };
    samples.iter().map(|&s| i32::from(s) >> shift).collect()
}

/// Decodes a whole `.bpk` file, however many samples it claims; for files that come from
/// elsewhere, [`decode_with_limits`] caps the output.
pub fn decode(data: &[u8]) -> Result<Audio, Error> {
    decode_with_limits(data, Limits::NONE)
}

/// Decodes a whole `.bpk` file, first refusing it with [`Error::OutputLimit`] if its header claims
/// more samples than `limits` allow (nothing is decoded or allocated for the samples then).
/// A 24-bit file is refused with [`Error::NeedsI32`]: [`decode_i32_with_limits`] reads it.
pub fn decode_with_limits(data: &[u8], limits: Limits) -> Result<Audio, Error> {
    let r = Reader::with_limits(data, limits)?;
    if r.header().bits > 16 {
        return Err(Error::NeedsI32 { bits: r.header().bits });
    }
    let h = *r.header();
    let mut samples = Vec::new();
    for i in 0..r.chunks() {
        samples.extend_from_slice(&r.decode_chunk(i)?);
    }
    Ok(Audio { sample_rate: h.sample_rate, channels: h.channels, bits: h.bits, samples })
}

/// Decodes a whole `.bpk` file of any depth into `i32` samples at the source's scale.
pub fn decode_i32(data: &[u8]) -> Result<Audio<i32>, Error> {
    decode_i32_with_limits(data, Limits::NONE)
}

/// [`decode_i32`] within `limits` (checked as [`decode_with_limits`] does).
pub fn decode_i32_with_limits(data: &[u8], limits: Limits) -> Result<Audio<i32>, Error> {
    let r = Reader::with_limits(data, limits)?;
    let h = *r.header();
    let mut samples = Vec::new();
    for i in 0..r.chunks() {
        samples.extend_from_slice(&r.decode_chunk_i32(i)?);
    }
    Ok(Audio { sample_rate: h.sample_rate, channels: h.channels, bits: h.bits, samples })
}

/// Streaming decoder over any [`std::io::Read`]: the header first, then one chunk at a time (each
/// CRC-checked and decoded before the next is read), then the chunk table, checked against the
/// chunks seen. Memory stays bounded by one chunk whatever the input; the output a caller collects
/// is not, unless it sets [`Limits`] with [`StreamDecoder::with_limits`].
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct StreamDecoder<R> {
    input: R,
    header: Header,
    next: u64,
    offset: u64,
    offsets: Vec<u64>,
}

#[cfg(feature = "std")]
impl<R: std::io::Read> StreamDecoder<R> {
    /// Reads and checks the header, with no limit on the samples the file claims.
    pub fn new(input: R) -> Result<Self, Error> {
        Self::with_limits(input, Limits::NONE)
    }

    /// Reads and checks the header, and refuses a file whose header claims more than `limits`
    /// allow ([`Error::OutputLimit`]) before any chunk is read.
    pub fn with_limits(mut input: R, limits: Limits) -> Result<Self, Error> {
        let mut head = [0u8; HEADER_LEN_WIDE];
        read_exact(&mut input, &mut head[..HEADER_LEN], "header")?;
        let mut len = HEADER_LEN;
        if &head[..4] == MAGIC && head[4] == VERSION_WIDE {
            read_exact(&mut input, &mut head[HEADER_LEN..], "header")?;
            len = HEADER_LEN_WIDE;
        }
        let header = Header::parse(&head[..len])?;
        limits.check(&header)?;
        Ok(StreamDecoder { input, header, next: 0, offset: len as u64, offsets: Vec::new() })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Decodes the next chunk into interleaved `i16` samples; `None` after the last chunk, once
    /// the chunk table and trailer have been read and checked. A 24-bit file is refused with
    /// [`Error::NeedsI32`] ([`StreamDecoder::next_chunk_i32`] reads it).
    pub fn next_chunk(&mut self) -> Result<Option<Vec<i16>>, Error> {
        if self.header.bits > 16 {
            return Err(Error::NeedsI32 { bits: self.header.bits });
        }
        let Some((payload, i)) = self.next_payload()? else { return Ok(None) };
        let mut out = vec![0i16; self.header.chunk_len(u64::from(i)) * usize::from(self.header.channels)];
        decode_chunk(&payload, self.header.channels, &mut out)
            .and_then(|()| check_bits(&self.header, &out))
            .map_err(|e| e.in_chunk(i))?;
        Ok(Some(out))
    }

    /// Decodes the next chunk into interleaved `i32` samples at the source's scale (any file).
    pub fn next_chunk_i32(&mut self) -> Result<Option<Vec<i32>>, Error> {
        if self.header.bits <= 16 {
            return Ok(self.next_chunk()?.map(|c| widen(&self.header, &c)));
        }
        let Some((payload, i)) = self.next_payload()? else { return Ok(None) };
        let mut out = vec![0i32; self.header.chunk_len(u64::from(i)) * usize::from(self.header.channels)];
        decode_chunk_i32(&payload, self.header.channels, &mut out).map_err(|e| e.in_chunk(i))?;
        Ok(Some(out))
    }

    /// Reads and checks the next chunk's payload: with its index, `None` after the last.
    fn next_payload(&mut self) -> Result<Option<(Vec<u8>, u32)>, Error> {
        let chunks = self.header.chunks();
        if self.next == chunks {
            if self.offsets.len() as u64 == chunks {
                self.finish()?;
                self.offsets.push(u64::MAX);
            }
            return Ok(None);
        }
        let i = self.next as u32;
        let ch = usize::from(self.header.channels);
        let frames = self.header.chunk_len(self.next);
        let mut head = [0u8; 8];
        read_exact(&mut self.input, &mut head, "chunk").map_err(|e| e.in_chunk(i))?;
        let len = u32_at(&head, 0) as usize;
        // No valid payload is near this size: classic is at most 16 (n + 2) bits per channel, a
        // wide block at most 26 bits a sample plus its partition headers.
        if len > frames * ch * 4 + 1024 {
            return Err(Error::Header("chunk longer than any valid chunk").in_chunk(i));
        }
        let mut payload = vec![0u8; len];
        read_exact(&mut self.input, &mut payload, "chunk").map_err(|e| e.in_chunk(i))?;
        let (stored, computed) = (u32_at(&head, 4), crc32(&payload));
        if stored != computed {
            return Err(Error::Crc { what: "chunk", stored, computed }.in_chunk(i));
        }
        self.offsets.push(self.offset);
        self.offset += 8 + len as u64;
        self.next += 1;
        Ok(Some((payload, i)))
    }

    fn finish(&mut self) -> Result<(), Error> {
        let mut table = vec![0u8; self.offsets.len() * 8];
        read_exact(&mut self.input, &mut table, "chunk table")?;
        let mut tail = [0u8; 8];
        read_exact(&mut self.input, &mut tail, "trailer")?;
        let (stored, computed) = (u32_at(&tail, 0), crc32(&table));
        if stored != computed {
            return Err(Error::Crc { what: "chunk table", stored, computed });
        }
        if &tail[4..] != END_MAGIC {
            return Err(Error::Header("missing trailer"));
        }
        if table.chunks_exact(8).map(|b| u64_at(b, 0)).ne(self.offsets.iter().copied()) {
            return Err(Error::Header("chunk table does not match the chunks"));
        }
        let mut extra = [0u8; 1];
        loop {
            return match self.input.read(&mut extra) {
                Ok(0) => Ok(()),
                Ok(_) => Err(Error::Header("bytes after the trailer")),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => Err(Error::Io { what: "end of the file", kind: e.kind() }),
            };
        }
    }
}

#[cfg(feature = "std")]
fn read_exact(r: &mut impl std::io::Read, buf: &mut [u8], what: &'static str) -> Result<(), Error> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => Error::UnexpectedEnd(what),
        kind => Error::Io { what, kind },
    })
}
