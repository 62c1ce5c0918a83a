//! Minimal RIFF WAVE reading and writing: PCM, 8 or 16 bits, mono or stereo.
//!
//! Hand-written rather than taken from `hound` (3.5): hound computes the byte rate as a `u32`
//! product that overflows for sample rates above about 10^9 Hz, writes no pad byte after an
//! odd-length 8-bit data chunk, and needs `std`; this module does neither wrong and is `no_std`.
//! For writing a file piece by piece (a decoder that streams), [`header`] gives the 44 bytes that
//! start it, [`put_samples`] the data and [`pad`] the byte that may end it.

use alloc::vec::Vec;
use core::ops::Range;

use crate::{Audio, Error};

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// What [`inspect`] found in a WAV file, before any sample is decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Channels: 1 or 2.
    pub channels: u8,
    /// Bits per sample: 8 or 16.
    pub bits: u8,
    /// Byte range of the sample data in the file (whole frames only).
    pub data: Range<usize>,
    /// Samples per channel.
    pub frames: u64,
    /// Samples after the last whole frame (a stereo file whose data ends with one channel's
    /// sample has 1): [`read`] leaves them out, and callers should say so.
    pub partial_samples: usize,
}

/// Parses the chunks of a WAV file and locates its sample data, without decoding it.
pub fn inspect(data: &[u8]) -> Result<Info, Error> {
    if data.len() < 12 || &data[..4] != b"RIFF" || &data[8..12] != b"WAVE" {
        return Err(Error::Wav("not a RIFF WAVE file"));
    }
    let mut at = 12usize;
    let mut fmt: Option<(u16, u16, u32, u16)> = None;
    while at.saturating_add(8) <= data.len() {
        let id = &data[at..at + 4];
        let len = u32_at(data, at + 4) as usize;
        let body_start = at + 8;
        let body_end = body_start.checked_add(len).ok_or(Error::Wav("chunk too large"))?;
        if id == b"fmt " {
            if len < 16 || body_end > data.len() {
                return Err(Error::Wav("short fmt chunk"));
            }
            let b = &data[body_start..body_end];
            let mut tag = u16_at(b, 0);
            if tag == 0xFFFE && len >= 26 {
                tag = u16_at(b, 24);
            }
            fmt = Some((tag, u16_at(b, 2), u32_at(b, 4), u16_at(b, 14)));
        } else if id == b"data" {
            let (tag, channels, sample_rate, bits) = fmt.ok_or(Error::Wav("data before fmt"))?;
            if tag != 1 {
                return Err(Error::Wav("only PCM WAV is supported"));
            }
            if channels != 1 && channels != 2 {
                return Err(Error::Wav("only mono and stereo are supported"));
            }
            if bits != 8 && bits != 16 {
                return Err(Error::Wav("only 8- and 16-bit PCM is supported"));
            }
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
            });
        }
        at = body_end.saturating_add(len & 1);
    }
    Err(Error::Wav("no data chunk"))
}

/// Decodes the samples of `data` (the bytes of [`Info::data`]) at `bits` per sample, appending
/// them to `out`. 8-bit samples become `(u8 - 128) << 8`.
pub fn get_samples(data: &[u8], bits: u8, out: &mut Vec<i16>) {
    if bits == 8 {
        out.extend(data.iter().map(|&b| (i16::from(b) - 128) << 8));
    } else {
        out.extend(data.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])));
    }
}

/// Parses a WAV file. 8-bit samples become `(u8 - 128) << 8`; samples after the last whole frame
/// are left out ([`inspect`] counts them).
pub fn read(data: &[u8]) -> Result<Audio, Error> {
    let info = inspect(data)?;
    let mut samples = Vec::new();
    get_samples(&data[info.data.clone()], info.bits, &mut samples);
    Ok(Audio { sample_rate: info.sample_rate, channels: info.channels, bits: info.bits, samples })
}

/// Bytes of sample data of `frames` frames (without the pad byte), or an error when the file would
/// be larger than a WAV's 32-bit sizes allow.
pub fn data_len(channels: u8, bits: u8, frames: u64) -> Result<u64, Error> {
    let len = frames.saturating_mul(u64::from(channels)).saturating_mul(u64::from(bits / 8));
    // The RIFF size field holds 36 + data + pad.
    if len + 36 + 1 > u64::from(u32::MAX) {
        return Err(Error::Wav("more than 4 GiB of samples: too large for a WAV file"));
    }
    Ok(len)
}

/// The 44-byte header of a canonical PCM WAV file of `frames` frames, refusing what a WAV file
/// cannot describe: other than 1 or 2 channels or 8 or 16 bits, a byte rate (`sample_rate ×
/// channels × bytes per sample`) or a size beyond 32 bits.
pub fn header(sample_rate: u32, channels: u8, bits: u8, frames: u64) -> Result<[u8; 44], Error> {
    if channels != 1 && channels != 2 {
        return Err(Error::Wav("only mono and stereo are supported"));
    }
    if bits != 8 && bits != 16 {
        return Err(Error::Wav("only 8- and 16-bit PCM is supported"));
    }
    let data = data_len(channels, bits, frames)?;
    let block = u16::from(channels) * u16::from(bits / 8);
    let byte_rate =
        sample_rate.checked_mul(u32::from(block)).ok_or(Error::Wav("sample rate too high for a WAV file"))?;
    let pad = data & 1;
    let mut h = [0u8; 44];
    let mut put = |at: usize, b: &[u8]| h[at..at + b.len()].copy_from_slice(b);
    put(0, b"RIFF");
    put(4, &((36 + data + pad) as u32).to_le_bytes());
    put(8, b"WAVEfmt ");
    put(16, &16u32.to_le_bytes());
    put(20, &1u16.to_le_bytes());
    put(22, &u16::from(channels).to_le_bytes());
    put(24, &sample_rate.to_le_bytes());
    put(28, &byte_rate.to_le_bytes());
    put(32, &block.to_le_bytes());
    put(34, &u16::from(bits).to_le_bytes());
    put(36, b"data");
    put(40, &(data as u32).to_le_bytes());
    Ok(h)
}

/// Appends the bytes of `samples` at `bits` per sample (8-bit: `(s >> 8) + 128`) to `out`.
pub fn put_samples(samples: &[i16], bits: u8, out: &mut Vec<u8>) {
    if bits == 8 {
        out.extend(samples.iter().map(|&s| ((s >> 8) + 128) as u8));
    } else {
        for &s in samples {
            out.extend_from_slice(&s.to_le_bytes());
        }
    }
}

/// The pad byte RIFF requires after a data chunk of odd length (only 8-bit data with an odd
/// sample count has one): empty or one zero byte.
pub fn pad(channels: u8, bits: u8, frames: u64) -> &'static [u8] {
    let odd = bits == 8 && (frames * u64::from(channels)) % 2 == 1;
    if odd { &[0] } else { &[] }
}

/// Writes a canonical 44-byte-header WAV file (with the pad byte after odd-length 8-bit data).
pub fn write(audio: &Audio) -> Result<Vec<u8>, Error> {
    let frames = audio.frames() as u64;
    if audio.samples.len() as u64 != frames * u64::from(audio.channels.max(1)) {
        return Err(Error::Wav("sample count is not a multiple of the channel count"));
    }
    let head = header(audio.sample_rate, audio.channels, audio.bits, frames)?;
    let mut out = Vec::with_capacity(45 + audio.samples.len() * usize::from(audio.bits / 8));
    out.extend_from_slice(&head);
    put_samples(&audio.samples, audio.bits, &mut out);
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
