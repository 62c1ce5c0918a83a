//! The classic klystrack bit-plane codec, bit for bit.
//!
//! A block of `n` 16-bit samples is optionally delta coded (predecessor of the first sample is 0,
//! differences wrap in `i16`) and optionally Gray coded (`g = u ^ (u >> 1)` of `u = x + 32768`),
//! then cut into 16 bit planes, plane 0 (least significant) first. Each plane starts with a 2-bit
//! code, written low bit first:
//!
//! | code | name    | what follows                                                      |
//! |------|---------|-------------------------------------------------------------------|
//! | 0    | STATIC0 | nothing: every bit of the plane is 0                              |
//! | 1    | STATIC1 | nothing: every bit of the plane is 1                              |
//! | 2    | LITERAL | the `n` bits of the plane, sample 0 first                         |
//! | 3    | RLE     | the first bit, then Elias-gamma lengths of the alternating runs   |
//!
//! The encoder writes RLE unless it takes more than `n + 2` bits with its code, in which case it
//! writes LITERAL. Neither the options nor `n` are in the stream: the caller keeps them.
//!
//! Empty input (`n = 0`) has no reference (the original reads `buffer[0]`); this crate packs it as
//! 16 STATIC0 codes (32 zero bits) and decodes any well-formed 16 plane codes for `n = 0`.

use alloc::vec;
use alloc::vec::Vec;

use crate::Error;
use crate::bits::{BitReader, BitWriter, gamma_len, low_mask};

/// Which steps run before the bit planes: delta (`1`) and Gray (`2`), as klystron's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Options(u8);

impl Options {
    /// Option 0: the samples' bits as they are.
    pub const RAW: Options = Options(0);
    /// Option 1: delta coding only.
    pub const DELTA: Options = Options(1);
    /// Option 2: Gray coding only.
    pub const GRAY: Options = Options(2);
    /// Option 3: delta then Gray, what the post's code always does.
    pub const DELTA_GRAY: Options = Options(3);
    /// The four options in klystron's `bitpack_best` order.
    pub const ALL: [Options; 4] = [Options(0), Options(1), Options(2), Options(3)];

    /// Options from klystron's flags (`BITPACK_OPT_DELTA = 1`, `BITPACK_OPT_GRAY = 2`).
    pub fn from_flags(flags: u8) -> Result<Self, Error> {
        if flags > 3 { Err(Error::BadOption(flags)) } else { Ok(Options(flags)) }
    }

    /// The flags (0..=3).
    pub fn flags(self) -> u8 {
        self.0
    }

    /// Whether delta coding runs.
    pub fn delta(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether Gray coding runs.
    pub fn gray(self) -> bool {
        self.0 & 2 != 0
    }
}

/// A packed block: the bytes and the exact length in bits.
///
/// Bits past `bits` in the last byte are zero (the original leaves them undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// `ceil(bits / 8)` bytes.
    pub bytes: Vec<u8>,
    /// Length of the stream in bits (the reference's `packed_size`).
    pub bits: u64,
}

/// The largest block the reference's `int n` can describe.
pub const MAX_SAMPLES: usize = i32::MAX as usize;

/// Delta and Gray steps into `out`.
fn forward(samples: &[i16], options: Options, out: &mut Vec<u16>) {
    out.clear();
    out.reserve(samples.len());
    let mut prev = 0i16;
    for &s in samples {
        let x = if options.delta() { s.wrapping_sub(prev) } else { s } as u16;
        prev = s;
        out.push(if options.gray() {
            let u = x ^ 0x8000;
            u ^ (u >> 1)
        } else {
            x
        });
    }
}

/// Gray and delta steps undone in place.
fn inverse(values: &[u16], options: Options, out: &mut [i16]) {
    let mut prev = 0i16;
    for (o, &v) in out.iter_mut().zip(values) {
        let x = if options.gray() {
            let mut g = v;
            g ^= g >> 8;
            g ^= g >> 4;
            g ^= g >> 2;
            g ^= g >> 1;
            g ^ 0x8000
        } else {
            v
        } as i16;
        let s = if options.delta() { x.wrapping_add(prev) } else { x };
        prev = s;
        *o = s;
    }
}

/// Bit planes of `values`: plane `p` occupies words `p * nw .. (p + 1) * nw`.
fn to_planes(values: &[u16], planes: &mut Vec<u64>) -> usize {
    let nw = values.len().div_ceil(64);
    planes.clear();
    planes.resize(16 * nw, 0);
    for (k, block) in values.chunks(64).enumerate() {
        let mut w = [0u64; 16];
        // Eight samples at a time: gather bit p of each into a byte, spread over the word.
        for (j8, oct) in block.chunks(8).enumerate() {
            let mut lanes = [0u64; 2];
            for (j, &v) in oct.iter().enumerate() {
                // Byte j of lane holds the sample's low or high 8 bits.
                lanes[0] |= u64::from(v & 0xff) << (8 * j);
                lanes[1] |= u64::from(v >> 8) << (8 * j);
            }
            for (h, &lane) in lanes.iter().enumerate() {
                let t = transpose8(lane);
                for b in 0..8 {
                    // Byte b of t: bit b of the eight samples.
                    w[8 * h + b] |= ((t >> (8 * b)) & 0xff) << (8 * j8);
                }
            }
        }
        for (p, &wp) in w.iter().enumerate() {
            planes[p * nw + k] = wp;
        }
    }
    nw
}

/// Transposes an 8x8 bit matrix held in a `u64` (byte = row, bit = column).
#[inline]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Values from bit planes (inverse of [`to_planes`]).
fn from_planes(planes: &[u64], nw: usize, out: &mut [u16]) {
    for (k, block) in out.chunks_mut(64).enumerate() {
        let mut w = [0u64; 16];
        for (p, wp) in w.iter_mut().enumerate() {
            *wp = planes[p * nw + k];
        }
        for (j8, oct) in block.chunks_mut(8).enumerate() {
            for h in 0..2 {
                let mut t = 0u64;
                for b in 0..8 {
                    t |= ((w[8 * h + b] >> (8 * j8)) & 0xff) << (8 * b);
                }
                let lane = transpose8(t);
                for (j, v) in oct.iter_mut().enumerate() {
                    *v |= (((lane >> (8 * j)) & 0xff) as u16) << (8 * h);
                }
            }
        }
    }
}

/// Calls `f` with each run length of plane `words` (`n >= 1` bits), starting with the first bit's
/// run. Runs end at the set bits of the transition mask `w ^ (w << 1)`, found by trailing zeros.
#[inline]
fn for_each_run(words: &[u64], n: usize, mut f: impl FnMut(u64)) {
    let mut start = 0usize;
    let mut carry = words[0] & 1;
    let last = words.len() - 1;
    let tail = low_mask(((n - 1) % 64) as u32 + 1);
    for (k, &w) in words.iter().enumerate() {
        let mut t = w ^ ((w << 1) | carry);
        carry = w >> 63;
        if k == last {
            t &= tail;
        }
        while t != 0 {
            let pos = k * 64 + t.trailing_zeros() as usize;
            f((pos - start) as u64);
            start = pos;
            t &= t - 1;
        }
    }
    f((n - start) as u64);
}

/// The RLE cost of a plane (start bit + gamma codes), or `None` once it passes `limit`.
#[inline]
fn rle_cost(words: &[u64], n: usize, limit: u64) -> Option<u64> {
    let mut cost = 1u64;
    let mut start = 0usize;
    let mut carry = words[0] & 1;
    let last = words.len() - 1;
    let tail = low_mask(((n - 1) % 64) as u32 + 1);
    for (k, &w) in words.iter().enumerate() {
        let mut t = w ^ ((w << 1) | carry);
        carry = w >> 63;
        if k == last {
            t &= tail;
        }
        // Every run costs at least one bit: a plane with too many transitions is literal.
        if cost + u64::from(t.count_ones()) > limit {
            return None;
        }
        while t != 0 {
            let pos = k * 64 + t.trailing_zeros() as usize;
            cost += gamma_len((pos - start) as u64);
            start = pos;
            t &= t - 1;
        }
        if cost > limit {
            return None;
        }
    }
    cost += gamma_len((n - start) as u64);
    (cost <= limit).then_some(cost)
}

/// Packs `samples` with `options`, bit for bit as the reference (and klystron's `bitpack`).
pub fn pack(samples: &[i16], options: Options) -> Result<Packed, Error> {
    let mut w = BitWriter::new();
    pack_into(samples, options, &mut w)?;
    let (bytes, bits) = w.finish();
    Ok(Packed { bytes, bits })
}

/// Packs `samples` with `options`, appending to a bit writer (for containers).
pub fn pack_into(samples: &[i16], options: Options, w: &mut BitWriter) -> Result<(), Error> {
    let n = samples.len();
    if n > MAX_SAMPLES {
        return Err(Error::TooLong(n as u64));
    }
    if n == 0 {
        w.put(0, 32);
        return Ok(());
    }
    let mut values = Vec::new();
    forward(samples, options, &mut values);
    let mut planes = Vec::new();
    let nw = to_planes(&values, &mut planes);
    let last = low_mask(match n % 64 {
        0 => 64,
        r => r as u32,
    });
    for p in 0..16 {
        let words = &planes[p * nw..(p + 1) * nw];
        let first = words[0] & 1;
        let fill = if first == 1 { u64::MAX } else { 0 };
        let uniform = words[..nw - 1].iter().all(|&x| x == fill) && (words[nw - 1] ^ fill) & last == 0;
        if uniform {
            w.put(first, 2);
            continue;
        }
        if rle_cost(words, n, n as u64).is_some() {
            w.put(3, 2);
            w.put(first, 1);
            for_each_run(words, n, |r| w.put_gamma(r as u32));
        } else {
            w.put(2, 2);
            for (k, &x) in words.iter().enumerate() {
                let bits = if k + 1 == nw { 64 - last.leading_zeros() } else { 64 };
                w.put(x & low_mask(bits), bits);
            }
        }
    }
    Ok(())
}

/// The packed size in bits of `samples` with `options`, without building the stream.
pub fn packed_bits(samples: &[i16], options: Options) -> u64 {
    let n = samples.len();
    if n == 0 {
        return 32;
    }
    let mut values = Vec::new();
    forward(samples, options, &mut values);
    let mut planes = Vec::new();
    let nw = to_planes(&values, &mut planes);
    let last = low_mask(match n % 64 {
        0 => 64,
        r => r as u32,
    });
    let mut total = 0u64;
    for p in 0..16 {
        let words = &planes[p * nw..(p + 1) * nw];
        let fill = if words[0] & 1 == 1 { u64::MAX } else { 0 };
        let uniform = words[..nw - 1].iter().all(|&x| x == fill) && (words[nw - 1] ^ fill) & last == 0;
        total += 2;
        if !uniform {
            total += rle_cost(words, n, n as u64).unwrap_or(n as u64);
        }
    }
    total
}

/// Tries the four options and keeps the smallest stream (ties go to the lower option), as
/// klystron's `bitpack_best`.
pub fn pack_best(samples: &[i16]) -> Result<(Packed, Options), Error> {
    let mut best = Options::RAW;
    let mut best_bits = u64::MAX;
    for o in Options::ALL {
        let b = packed_bits(samples, o);
        if b < best_bits {
            best_bits = b;
            best = o;
        }
    }
    Ok((pack(samples, best)?, best))
}

/// Unpacks `samples` samples from the first `bits` bits of `bytes`.
///
/// Reads never go past `bits`; bits after the 16th plane are ignored, as the reference does.
pub fn unpack(bytes: &[u8], bits: u64, samples: usize, options: Options) -> Result<Vec<i16>, Error> {
    if samples > MAX_SAMPLES {
        return Err(Error::TooLong(samples as u64));
    }
    let mut r = BitReader::new(bytes, bits)?;
    let mut out = vec![0i16; samples];
    unpack_from(&mut r, options, &mut out)?;
    Ok(out)
}

/// Unpacks `out.len()` samples from a bit reader (for containers).
pub fn unpack_from(r: &mut BitReader<'_>, options: Options, out: &mut [i16]) -> Result<(), Error> {
    let n = out.len();
    if n > MAX_SAMPLES {
        return Err(Error::TooLong(n as u64));
    }
    let nw = n.div_ceil(64);
    let mut planes = vec![0u64; 16 * nw];
    for p in 0..16 {
        let words = &mut planes[p * nw..(p + 1) * nw];
        match r.take(2)? {
            0 => {}
            1 => set_range(words, 0, n),
            2 => {
                for (k, x) in words.iter_mut().enumerate() {
                    let b = (n - k * 64).min(64) as u32;
                    *x = r.take(b)?;
                }
            }
            _ => {
                let mut state = r.take(1)? == 1;
                let mut i = 0usize;
                while i < n {
                    let run = r.gamma()?;
                    if run > (n - i) as u64 {
                        return Err(Error::RunTooLong { plane: p as u8, run, at: i as u64, samples: n as u64 });
                    }
                    let end = i + run as usize;
                    if state {
                        set_range(words, i, end);
                    }
                    i = end;
                    state = !state;
                }
            }
        }
    }
    let mut values = vec![0u16; n];
    from_planes(&planes, nw, &mut values);
    inverse(&values, options, out);
    Ok(())
}

/// Sets bits `a..b` of a plane.
#[inline]
fn set_range(words: &mut [u64], a: usize, b: usize) {
    if a >= b {
        return;
    }
    let (ka, kb) = (a / 64, (b - 1) / 64);
    let head = u64::MAX << (a % 64);
    let tail = low_mask(((b - 1) % 64) as u32 + 1);
    if ka == kb {
        words[ka] |= head & tail;
    } else {
        words[ka] |= head;
        for x in &mut words[ka + 1..kb] {
            *x = u64::MAX;
        }
        words[kb] |= tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_roundtrip() {
        let values: Vec<u16> = (0..200u32).map(|i| (i.wrapping_mul(40503) ^ (i << 7)) as u16).collect();
        let mut planes = Vec::new();
        let nw = to_planes(&values, &mut planes);
        for (i, &v) in values.iter().enumerate() {
            for p in 0..16 {
                assert_eq!((planes[p * nw + i / 64] >> (i % 64)) & 1, u64::from((v >> p) & 1));
            }
        }
        let mut back = vec![0u16; values.len()];
        from_planes(&planes, nw, &mut back);
        assert_eq!(back, values);
    }

    #[test]
    fn silence_is_sixteen_static_codes() {
        let p = pack(&[0; 1000], Options::RAW).unwrap();
        assert_eq!((p.bits, p.bytes), (32, vec![0; 4]));
        // With Gray, 0 becomes 0x8000 -> 0xC000: planes 14 and 15 are STATIC1.
        let p = pack(&[0; 10], Options::GRAY).unwrap();
        assert_eq!(p.bits, 32);
        assert_eq!(unpack(&p.bytes, p.bits, 10, Options::GRAY).unwrap(), vec![0; 10]);
    }

    #[test]
    fn empty_input_is_defined() {
        for o in Options::ALL {
            let p = pack(&[], o).unwrap();
            assert_eq!(p.bits, 32);
            assert_eq!(unpack(&p.bytes, p.bits, 0, o).unwrap(), Vec::<i16>::new());
        }
    }

    #[test]
    fn size_only_matches_stream() {
        let s: Vec<i16> = (0..999).map(|i| ((i * i) % 5000 - 2500) as i16).collect();
        for o in Options::ALL {
            assert_eq!(packed_bits(&s, o), pack(&s, o).unwrap().bits);
        }
    }

    #[test]
    fn bad_flags() {
        assert_eq!(Options::from_flags(4), Err(Error::BadOption(4)));
    }
}
