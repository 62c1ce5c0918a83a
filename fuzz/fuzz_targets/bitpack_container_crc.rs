//! `.bpk` files whose CRCs, magics and chunk table the target fixes up before decoding, so the
//! fuzzer reaches the chunk walk, the chunk table checks and the block decoders behind them
//! (raw bytes almost never carry a right CRC32). Run:
//! `cargo +nightly fuzz run bitpack_container_crc -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lore_bitpack_audio::container::{self, END_MAGIC, HEADER_LEN, HEADER_LEN_WIDE, MAGIC, VERSION, VERSION_WIDE};
use lore_bitpack_audio::crc32;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Makes the header CRC, the chunk CRCs, the chunk table and the trailer consistent with
/// whatever chunk lengths the input holds.
/// Byte 4's low bit picks the version (and so the header's length).
fn fix_up(data: &mut [u8]) {
    let (version, header_len) =
        if data.get(4).is_some_and(|v| v & 1 == 0) { (VERSION_WIDE, HEADER_LEN_WIDE) } else { (VERSION, HEADER_LEN) };
    if data.len() < header_len {
        return;
    }
    data[..4].copy_from_slice(MAGIC);
    data[4] = version;
    let c = crc32(&data[..header_len - 4]);
    data[header_len - 4..header_len].copy_from_slice(&c.to_le_bytes());
    let frames = u64::from_le_bytes(data[12..20].try_into().unwrap());
    let per = u64::from(u32_at(data, 20)).max(1);
    let chunks = frames.div_ceil(per);
    let Some(table_len) =
        chunks.checked_mul(8).filter(|&t| t.saturating_add(8 + header_len as u64) <= data.len() as u64)
    else {
        return;
    };
    let end = data.len();
    let table_start = end - 8 - table_len as usize;
    let mut o = header_len;
    for i in 0..chunks as usize {
        if o + 8 > table_start {
            break;
        }
        let len = u32_at(data, o) as usize;
        let Some(payload_end) = (o + 8).checked_add(len).filter(|&e| e <= table_start) else { break };
        let c = crc32(&data[o + 8..payload_end]);
        data[o + 4..o + 8].copy_from_slice(&c.to_le_bytes());
        data[table_start + 8 * i..table_start + 8 * i + 8].copy_from_slice(&(o as u64).to_le_bytes());
        o = payload_end;
    }
    let c = crc32(&data[table_start..end - 8]);
    data[end - 8..end - 4].copy_from_slice(&c.to_le_bytes());
    data[end - 4..].copy_from_slice(END_MAGIC);
}

fuzz_target!(|data: &[u8]| {
    let mut file = data.to_vec();
    fix_up(&mut file);
    let whole = container::decode(&file);
    let mut streamed = Vec::new();
    let mut stream_ok = false;
    if let Ok(mut s) = container::StreamDecoder::new(&file[..]) {
        loop {
            match s.next_chunk() {
                Ok(Some(c)) => streamed.extend(c),
                Ok(None) => {
                    stream_ok = true;
                    break;
                }
                Err(_) => break,
            }
        }
    }
    // The two decoders agree on every file they both accept.
    if let (Ok(a), true) = (&whole, stream_ok) {
        assert_eq!(a.samples, streamed, "whole-file and streaming decoders differ");
    }
    // The same on the i32 path, which reads every file (24-bit ones too); where both paths
    // accept a file they give the same samples at their scales.
    let whole_i32 = container::decode_i32(&file);
    let mut streamed_i32 = Vec::new();
    let mut stream_i32_ok = false;
    if let Ok(mut s) = container::StreamDecoder::new(&file[..]) {
        loop {
            match s.next_chunk_i32() {
                Ok(Some(c)) => streamed_i32.extend(c),
                Ok(None) => {
                    stream_i32_ok = true;
                    break;
                }
                Err(_) => break,
            }
        }
    }
    if let (Ok(a), true) = (&whole_i32, stream_i32_ok) {
        assert_eq!(a.samples, streamed_i32, "whole-file and streaming i32 decoders differ");
    }
    if let (Ok(a), Ok(b)) = (&whole, &whole_i32) {
        assert_eq!(a.to_i32(), *b, "the i16 and i32 paths differ");
    }
});
