//! Minimal RIFF WAVE reading and writing: PCM, 8 or 16 bits, mono or stereo.

use alloc::vec::Vec;

use crate::{Audio, Error};

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Parses a WAV file. 8-bit samples become `(u8 - 128) << 8`.
pub fn read(data: &[u8]) -> Result<Audio, Error> {
    if data.len() < 12 || &data[..4] != b"RIFF" || &data[8..12] != b"WAVE" {
        return Err(Error::Wav("not a RIFF WAVE file"));
    }
    let mut at = 12usize;
    let mut fmt: Option<(u16, u16, u32, u16)> = None;
    while at + 8 <= data.len() {
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
            let (tag, channels, rate, bits) = fmt.ok_or(Error::Wav("data before fmt"))?;
            if tag != 1 {
                return Err(Error::Wav("only PCM WAV is supported"));
            }
            if channels != 1 && channels != 2 {
                return Err(Error::Wav("only mono and stereo are supported"));
            }
            let body = &data[body_start..body_end.min(data.len())];
            let samples: Vec<i16> = match bits {
                8 => body.iter().map(|&b| (i16::from(b) - 128) << 8).collect(),
                16 => body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect(),
                _ => return Err(Error::Wav("only 8- and 16-bit PCM is supported")),
            };
            let whole = samples.len() - samples.len() % usize::from(channels);
            let mut samples = samples;
            samples.truncate(whole);
            return Ok(Audio { sample_rate: rate, channels: channels as u8, bits: bits as u8, samples });
        }
        at = body_end.saturating_add(len & 1);
    }
    Err(Error::Wav("no data chunk"))
}

/// Writes a canonical 44-byte-header WAV file.
pub fn write(audio: &Audio) -> Vec<u8> {
    let bytes_per = usize::from(audio.bits / 8).max(1);
    let data_len = audio.samples.len() * bytes_per;
    let mut out = Vec::with_capacity(44 + data_len);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&((36 + data_len) as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&u16::from(audio.channels).to_le_bytes());
    out.extend_from_slice(&audio.sample_rate.to_le_bytes());
    let block = u16::from(audio.channels) * bytes_per as u16;
    out.extend_from_slice(&(audio.sample_rate * u32::from(block)).to_le_bytes());
    out.extend_from_slice(&block.to_le_bytes());
    out.extend_from_slice(&u16::from(audio.bits).to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data_len as u32).to_le_bytes());
    if audio.bits == 8 {
        out.extend(audio.samples.iter().map(|&s| ((s >> 8) + 128) as u8));
    } else {
        for &s in &audio.samples {
            out.extend_from_slice(&s.to_le_bytes());
        }
    }
    out
}
