//! Minimal RIFF WAVE reading and writing: integer PCM, 8, 16, 24 or 32 bits, 1 to 8 channels,
//! plain or WAVE_FORMAT_EXTENSIBLE headers (the channel mask is kept).
//!
//! Hand-written rather than taken from `hound` (3.5): hound computes the byte rate as a `u32`
//! product that overflows for sample rates above about 10^9 Hz, writes no pad byte after an
//! odd-length data chunk, and needs `std`; this module does neither wrong and is `no_std`.
//! For writing a file piece by piece (a decoder that streams), [`header`] (or
//! [`header_with_mask`]) gives the bytes that start it, [`put_samples`] (or [`put_samples_i32`])
//! the data and [`pad`] the byte that may end it.
//!
//! Two sample paths, as for [`Audio`]: `i16` ([`read`], [`write()`]: 8- and 16-bit files, 8-bit
//! scaled up to 16) and `i32` ([`read_i32`], [`write_i32`]: every depth, at the file's own
//! scale). Refusals are [`Error::WavUnsupported`] (float samples, more than 8 channels, a block
//! align that does not match...) or [`Error::Wav`] (a broken file).

use alloc::vec::Vec;
use core::ops::Range;

use crate::{Audio, Error, WavUnsupported};

/// The type of [`Error::WavUnsupported`]'s reasons, under this module's name.
pub use crate::WavUnsupported as Unsupported;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Most channels read or written.
pub const MAX_CHANNELS: u8 = 8;

/// The tail (bytes 2..16) of the KSDATAFORMAT sub-format GUIDs of WAVE_FORMAT_EXTENSIBLE; the
/// first two bytes are the format code (1 PCM, 3 float).
const GUID_TAIL: [u8; 14] = [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71];

/// What [`inspect`] found in a WAV file, before any sample is decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channels: 1 to 8.
    pub channels: u8,
    /// Bits per sample (of the container): 8, 16, 24 or 32.
    pub bits: u8,
    /// Byte range of the sample data in the file (whole frames only).
    pub data: Range<usize>,
    /// Samples per channel.
    pub frames: u64,
    /// Samples after the last whole frame (a stereo file whose data ends with one channel's
    /// sample has 1): [`read`] leaves them out, and callers should say so.
    pub partial_samples: usize,
    /// The channel mask (speaker positions) of a WAVE_FORMAT_EXTENSIBLE header; `None` for a
    /// plain PCM header.
    pub channel_mask: Option<u32>,
}

/// Whether a sample depth is one this module reads and writes.
fn check_layout(channels: u16, bits: u16) -> Result<(), Error> {
    if !(1..=u16::from(MAX_CHANNELS)).contains(&channels) {
        return Err(Error::WavUnsupported(WavUnsupported::Channels(channels)));
    }
    if !matches!(bits, 8 | 16 | 24 | 32) {
        return Err(Error::WavUnsupported(WavUnsupported::Bits(bits)));
    }
    Ok(())
}

/// The format of a `fmt ` chunk body: (channels, sample rate, bits, channel mask).
fn parse_fmt(b: &[u8]) -> Result<(u16, u32, u16, Option<u32>), Error> {
    let (mut tag, channels, sample_rate, align, bits) =
        (u16_at(b, 0), u16_at(b, 2), u32_at(b, 4), u16_at(b, 12), u16_at(b, 14));
    let mut mask = None;
    if tag == 0xFFFE {
        if b.len() < 40 || u16_at(b, 16) < 22 {
            return Err(Error::Wav("short WAVE_FORMAT_EXTENSIBLE fmt chunk"));
        }
        if b[26..40] != GUID_TAIL {
            return Err(Error::WavUnsupported(WavUnsupported::Encoding(0xFFFE)));
        }
        let valid = u16_at(b, 18);
        tag = u16_at(b, 24);
        if tag == 1 && (valid == 0 || valid > bits) {
            return Err(Error::WavUnsupported(WavUnsupported::ValidBits { valid, container: bits }));
        }
        mask = Some(u32_at(b, 20));
    }
    match tag {
        1 => {}
        3 => return Err(Error::WavUnsupported(WavUnsupported::Float)),
        t => return Err(Error::WavUnsupported(WavUnsupported::Encoding(t))),
    }
    check_layout(channels, bits)?;
    let expected = u32::from(channels) * u32::from(bits / 8);
    if u32::from(align) != expected {
        return Err(Error::WavUnsupported(WavUnsupported::BlockAlign { expected, found: align }));
    }
    Ok((channels, sample_rate, bits, mask))
}

/// Parses the chunks of a WAV file and locates its sample data, without decoding it.
pub fn inspect(data: &[u8]) -> Result<Info, Error> {
    if data.len() < 12 || &data[..4] != b"RIFF" || &data[8..12] != b"WAVE" {
        return Err(Error::Wav("not a RIFF WAVE file"));
    }
    let mut at = 12usize;
    let mut fmt: Option<(u16, u32, u16, Option<u32>)> = None;
    while at.saturating_add(8) <= data.len() {
        let id = &data[at..at + 4];
        let len = u32_at(data, at + 4) as usize;
        let body_start = at + 8;
        let body_end = body_start.checked_add(len).ok_or(Error::Wav("chunk too large"))?;
        if id == b"fmt " {
            if len < 16 || body_end > data.len() {
                return Err(Error::Wav("short fmt chunk"));
            }
            fmt = Some(parse_fmt(&data[body_start..body_end])?);
        } else if id == b"data" {
            let (channels, sample_rate, bits, channel_mask) = fmt.ok_or(Error::Wav("data before fmt"))?;
            let bytes_per = usize::from(bits / 8);
            let samples = (body_end.min(data.len()) - body_start) / bytes_per;
            let partial_samples = samples % usize::from(channels);
            let whole = samples - partial_samples;
            return Ok(Info {
                sample_rate,
                channels: channels as u8,
                bits: bits as u8,
                data: body_start..body_start + whole * bytes_per,
                frames: (whole / usize::from(channels)) as u64,
                partial_samples,
                channel_mask,
            });
        }
        at = body_end.saturating_add(len & 1);
    }
    Err(Error::Wav("no data chunk"))
}

/// Decodes the samples of `data` (the bytes of [`Info::data`]) at `bits` per sample (8 or 16),
/// appending them to `out`. 8-bit samples become `(u8 - 128) << 8`. Deeper samples do not fit
/// `i16`: [`get_samples_i32`] reads them (here they would be read as 16-bit pieces).
pub fn get_samples(data: &[u8], bits: u8, out: &mut Vec<i16>) {
    if bits == 8 {
        out.extend(data.iter().map(|&b| (i16::from(b) - 128) << 8));
    } else {
        out.extend(data.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])));
    }
}

/// Decodes the samples of `data` at `bits` per sample (8, 16, 24 or 32) at the file's own scale
/// (8-bit: `u8 - 128`), appending them to `out`.
pub fn get_samples_i32(data: &[u8], bits: u8, out: &mut Vec<i32>) {
    match bits {
        8 => out.extend(data.iter().map(|&b| i32::from(b) - 128)),
        16 => out.extend(data.chunks_exact(2).map(|c| i32::from(i16::from_le_bytes([c[0], c[1]])))),
        24 => out.extend(data.chunks_exact(3).map(|c| i32::from_le_bytes([0, c[0], c[1], c[2]]) >> 8)),
        _ => out.extend(data.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
    }
}

/// Parses an 8- or 16-bit WAV file into `i16` samples. 8-bit samples become `(u8 - 128) << 8`;
/// samples after the last whole frame are left out ([`inspect`] counts them). Deeper files are
/// refused with [`Error::NeedsI32`]: [`read_i32`] reads them.
pub fn read(data: &[u8]) -> Result<Audio, Error> {
    let info = inspect(data)?;
    if info.bits > 16 {
        return Err(Error::NeedsI32 { bits: info.bits });
    }
    let mut samples = Vec::new();
    get_samples(&data[info.data.clone()], info.bits, &mut samples);
    Ok(Audio { sample_rate: info.sample_rate, channels: info.channels, bits: info.bits, samples })
}

/// Parses a WAV file of any supported depth into `i32` samples at the file's own scale (see
/// [`Audio`]); the channel mask is in [`inspect`]'s [`Info`].
pub fn read_i32(data: &[u8]) -> Result<Audio<i32>, Error> {
    let info = inspect(data)?;
    let mut samples = Vec::new();
    get_samples_i32(&data[info.data.clone()], info.bits, &mut samples);
    Ok(Audio { sample_rate: info.sample_rate, channels: info.channels, bits: info.bits, samples })
}

/// Bytes of sample data of `frames` frames (without the pad byte), or an error when the file would
/// be larger than a WAV's 32-bit sizes allow.
pub fn data_len(channels: u8, bits: u8, frames: u64) -> Result<u64, Error> {
    let len = frames.saturating_mul(u64::from(channels)).saturating_mul(u64::from(bits / 8));
    // The RIFF size field holds the header after it (60 bytes at most) + data + pad.
    if len.saturating_add(60 + 1) > u64::from(u32::MAX) {
        return Err(Error::Wav("more than 4 GiB of samples: too large for a WAV file"));
    }
    Ok(len)
}

/// The channel mask [`write_i32`] gives `channels` channels (the usual layouts: mono centre,
/// stereo, 2.1, quad, 5.0, 5.1, 6.1, 7.1), as WAVE_FORMAT_EXTENSIBLE expects.
pub fn default_channel_mask(channels: u8) -> u32 {
    match channels {
        1 => 0x4,
        2 => 0x3,
        3 => 0xB,
        4 => 0x33,
        5 => 0x37,
        6 => 0x3F,
        7 => 0x13F,
        _ => 0x63F,
    }
}

/// The header [`write_i32`] and a streaming writer use: plain PCM for 8/16-bit mono and stereo,
/// WAVE_FORMAT_EXTENSIBLE with [`default_channel_mask`] otherwise (as hound does).
pub fn default_mask_for(channels: u8, bits: u8) -> Option<u32> {
    if channels <= 2 && bits <= 16 { None } else { Some(default_channel_mask(channels)) }
}

/// The 44-byte header of a canonical PCM WAV file of `frames` frames, refusing what a WAV file
/// cannot describe: other than 1 to 8 channels or 8, 16, 24 or 32 bits, a byte rate
/// (`sample_rate × channels × bytes per sample`) or a size beyond 32 bits.
pub fn header(sample_rate: u32, channels: u8, bits: u8, frames: u64) -> Result<[u8; 44], Error> {
    let h = header_with_mask(sample_rate, channels, bits, None, frames)?;
    let mut out = [0u8; 44];
    out.copy_from_slice(&h);
    Ok(out)
}

/// The header of a WAV file of `frames` frames: the canonical 44-byte PCM header with no
/// `channel_mask`, else the 68-byte WAVE_FORMAT_EXTENSIBLE one (valid bits = `bits`, sub-format
/// PCM) with that mask. Refuses what [`header`] refuses.
pub fn header_with_mask(
    sample_rate: u32,
    channels: u8,
    bits: u8,
    channel_mask: Option<u32>,
    frames: u64,
) -> Result<Vec<u8>, Error> {
    check_layout(u16::from(channels), u16::from(bits))?;
    let data = data_len(channels, bits, frames)?;
    let block = u16::from(channels) * u16::from(bits / 8);
    let byte_rate =
        sample_rate.checked_mul(u32::from(block)).ok_or(Error::Wav("sample rate too high for a WAV file"))?;
    let pad = data & 1;
    let fmt_len: u32 = if channel_mask.is_some() { 40 } else { 16 };
    let mut h = Vec::with_capacity(68);
    h.extend_from_slice(b"RIFF");
    h.extend_from_slice(&((u64::from(fmt_len) + 20 + data + pad) as u32).to_le_bytes());
    h.extend_from_slice(b"WAVEfmt ");
    h.extend_from_slice(&fmt_len.to_le_bytes());
    h.extend_from_slice(&(if channel_mask.is_some() { 0xFFFEu16 } else { 1 }).to_le_bytes());
    h.extend_from_slice(&u16::from(channels).to_le_bytes());
    h.extend_from_slice(&sample_rate.to_le_bytes());
    h.extend_from_slice(&byte_rate.to_le_bytes());
    h.extend_from_slice(&block.to_le_bytes());
    h.extend_from_slice(&u16::from(bits).to_le_bytes());
    if let Some(mask) = channel_mask {
        h.extend_from_slice(&22u16.to_le_bytes());
        h.extend_from_slice(&u16::from(bits).to_le_bytes());
        h.extend_from_slice(&mask.to_le_bytes());
        h.extend_from_slice(&1u16.to_le_bytes());
        h.extend_from_slice(&GUID_TAIL);
    }
    h.extend_from_slice(b"data");
    h.extend_from_slice(&(data as u32).to_le_bytes());
    Ok(h)
}

/// Appends the bytes of `samples` at `bits` per sample (8: `(s >> 8) + 128`, else 16) to `out`.
pub fn put_samples(samples: &[i16], bits: u8, out: &mut Vec<u8>) {
    if bits == 8 {
        out.extend(samples.iter().map(|&s| ((s >> 8) + 128) as u8));
    } else {
        for &s in samples {
            out.extend_from_slice(&s.to_le_bytes());
        }
    }
}

/// Appends the bytes of `samples`, at the file's own scale, at `bits` per sample (8: `s + 128`;
/// 24: the low three bytes) to `out`.
pub fn put_samples_i32(samples: &[i32], bits: u8, out: &mut Vec<u8>) {
    match bits {
        8 => out.extend(samples.iter().map(|&s| (s + 128) as u8)),
        16 => samples.iter().for_each(|&s| out.extend_from_slice(&(s as i16).to_le_bytes())),
        24 => {
            // Sized once, then filled three bytes at a time (no capacity check per sample).
            let start = out.len();
            out.resize(start + 3 * samples.len(), 0);
            for (o, &s) in out[start..].chunks_exact_mut(3).zip(samples) {
                o.copy_from_slice(&s.to_le_bytes()[..3]);
            }
        }
        _ => samples.iter().for_each(|&s| out.extend_from_slice(&s.to_le_bytes())),
    }
}

/// The pad byte RIFF requires after a data chunk of odd length (8- or 24-bit data with an odd
/// sample count): empty or one zero byte.
pub fn pad(channels: u8, bits: u8, frames: u64) -> &'static [u8] {
    let odd = (bits == 8 || bits == 24) && (frames * u64::from(channels)) % 2 == 1;
    if odd { &[0] } else { &[] }
}

/// Writes an 8- or 16-bit clip: the canonical 44-byte header for mono and stereo, the
/// WAVE_FORMAT_EXTENSIBLE one with [`default_channel_mask`] for more channels, then the data
/// (with the pad byte after odd-length 8-bit data).
pub fn write(audio: &Audio) -> Result<Vec<u8>, Error> {
    if audio.bits > 16 {
        return Err(Error::NeedsI32 { bits: audio.bits });
    }
    let frames = frames_of(audio)?;
    let head = header_with_mask(
        audio.sample_rate,
        audio.channels,
        audio.bits,
        default_mask_for(audio.channels, audio.bits),
        frames,
    )?;
    let mut out = Vec::with_capacity(head.len() + 1 + audio.samples.len() * usize::from(audio.bits / 8));
    out.extend_from_slice(&head);
    put_samples(&audio.samples, audio.bits, &mut out);
    out.extend_from_slice(pad(audio.channels, audio.bits, frames));
    Ok(out)
}

fn frames_of<S: Copy>(audio: &Audio<S>) -> Result<u64, Error> {
    let frames = audio.frames() as u64;
    if audio.samples.len() as u64 != frames * u64::from(audio.channels.max(1)) {
        return Err(Error::Wav("sample count is not a multiple of the channel count"));
    }
    Ok(frames)
}

/// Writes a clip of `i32` samples at its own scale, with the header [`default_mask_for`] gives.
/// A sample outside `bits` is refused ([`Error::SampleRange`]).
pub fn write_i32(audio: &Audio<i32>) -> Result<Vec<u8>, Error> {
    write_i32_with_mask(audio, default_mask_for(audio.channels, audio.bits))
}

/// [`write_i32`] with the header [`header_with_mask`] gives for `channel_mask` (`None`: plain
/// PCM whatever the layout; `Some`: extensible with that mask), to write back what
/// [`Info::channel_mask`] read.
pub fn write_i32_with_mask(audio: &Audio<i32>, channel_mask: Option<u32>) -> Result<Vec<u8>, Error> {
    let frames = frames_of(audio)?;
    let head = header_with_mask(audio.sample_rate, audio.channels, audio.bits, channel_mask, frames)?;
    if audio.bits < 32 {
        let (lo, hi) = (-(1i32 << (audio.bits - 1)), (1i32 << (audio.bits - 1)) - 1);
        if audio.samples.iter().any(|&s| s < lo || s > hi) {
            return Err(Error::SampleRange);
        }
    }
    let mut out = Vec::with_capacity(head.len() + 1 + audio.samples.len() * usize::from(audio.bits / 8));
    out.extend_from_slice(&head);
    put_samples_i32(&audio.samples, audio.bits, &mut out);
    out.extend_from_slice(pad(audio.channels, audio.bits, frames));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn a_sample_rate_whose_byte_rate_overflows_32_bits_is_refused() {
        // 16-bit stereo: 4 bytes per frame, so 2^30 - 1 Hz is the last rate that fits.
        let mut a = Audio { sample_rate: (1 << 30) - 1, channels: 2, bits: 16, samples: vec![1, 2, 3, 4] };
        let ok = write(&a).unwrap();
        assert_eq!(u32_at(&ok, 28), u32::MAX - 3);
        assert_eq!(read(&ok).unwrap(), a);
        a.sample_rate = 1 << 30;
        assert_eq!(write(&a), Err(Error::Wav("sample rate too high for a WAV file")));
        // 8-bit mono: one byte per frame, every rate fits.
        assert_eq!(u32_at(&header(u32::MAX, 1, 8, 10).unwrap(), 28), u32::MAX);
        assert!(header(u32::MAX, 1, 16, 10).is_err());
    }

    #[test]
    fn odd_length_8_bit_data_gets_a_pad_byte_and_reads_back() {
        let a = Audio { sample_rate: 8000, channels: 1, bits: 8, samples: vec![-256, 0, 256] };
        let w = write(&a).unwrap();
        assert_eq!(w.len(), 44 + 3 + 1);
        assert_eq!(w[47], 0);
        // The RIFF size counts the pad byte, the data size does not.
        assert_eq!((u32_at(&w, 4), u32_at(&w, 40)), (36 + 4, 3));
        assert_eq!(read(&w).unwrap(), a);
        // A chunk after the padded data chunk is found where RIFF puts it.
        let mut with_list = w.clone();
        with_list.extend_from_slice(b"LIST\x02\x00\x00\x00ab");
        assert_eq!(read(&with_list).unwrap(), a);
        // Even lengths and 16-bit data have none.
        let even = Audio { samples: vec![0, 256], ..a.clone() };
        assert_eq!(write(&even).unwrap().len(), 44 + 2);
        let sixteen = Audio { bits: 16, samples: vec![5, 6, 7], ..a };
        assert_eq!(write(&sixteen).unwrap().len(), 44 + 6);
    }

    #[test]
    fn a_trailing_partial_frame_is_counted() {
        let a = Audio { sample_rate: 8000, channels: 2, bits: 16, samples: vec![1, 2, 3, 4] };
        let mut w = write(&a).unwrap();
        w.extend_from_slice(&9i16.to_le_bytes());
        let size = u32_at(&w, 40) + 2;
        w[40..44].copy_from_slice(&size.to_le_bytes());
        let info = inspect(&w).unwrap();
        assert_eq!((info.frames, info.partial_samples, info.data), (2, 1, 44..52));
        assert_eq!(read(&w).unwrap(), a);
        assert_eq!(inspect(&write(&a).unwrap()).unwrap().partial_samples, 0);
    }
}
