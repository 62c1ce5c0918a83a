//! The classic decoder: plane codes, literal planes read a word at a time, RLE planes through a
//! table of whole gamma codes.

use alloc::vec;
use alloc::vec::Vec;

use super::layout::{InPlace, PlaneMajor, Planes, from_planes, from_planes_in_place};
use super::options::{MAX_SAMPLES, Options};
use crate::Error;
use crate::bits::{BitReader, load_u64, low_mask, peek_at};

/// Unpacks `samples` samples from the first `bits` bits of `bytes`.
///
/// Reads never go past `bits`; bits after the 16th plane are ignored, as the reference does.
pub fn unpack(bytes: &[u8], bits: u64, samples: usize, options: Options) -> Result<Vec<i16>, Error> {
    if samples > MAX_SAMPLES {
        return Err(Error::TooLong(samples as u64));
    }
    let mut r = BitReader::new(bytes, bits)?;
    // The bit planes are decoded into the output itself (see `InPlace`): one buffer, rounded up to
    // whole blocks of 64, then cut to length.
    let mut out = vec![0i16; 64 * samples.div_ceil(64)];
    read_planes(&mut r, samples, &mut InPlace { blocks: out.as_chunks_mut::<64>().0 })?;
    from_planes_in_place(&mut out, options);
    out.truncate(samples);
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
    read_planes(r, n, &mut PlaneMajor { words: &mut planes, stride: nw })?;
    from_planes(&planes, nw, options, out);
    Ok(())
}

/// Reads the 16 planes of `n` samples into `planes`.
fn read_planes(r: &mut BitReader<'_>, n: usize, planes: &mut impl Planes) -> Result<(), Error> {
    let nw = n.div_ceil(64);
    for p in 0..16 {
        match r.take(2)? {
            c @ (0 | 1) => (0..nw).for_each(|k| planes.set(p, k, c.wrapping_neg())),
            2 if n > 0 && r.remaining() >= n as u64 => {
                // The whole plane is in the stream: 64 bits per load, no check per word; the last
                // word is cut to the plane's length.
                for k in 0..nw - 1 {
                    planes.set(p, k, peek_at(r.data, r.pos + 64 * k as u64));
                }
                let last = peek_at(r.data, r.pos + 64 * (nw - 1) as u64);
                planes.set(p, nw - 1, last & low_mask(((n - 1) % 64) as u32 + 1));
                r.pos += n as u64;
            }
            2 => {
                for k in 0..nw {
                    let b = (n - k * 64).min(64) as u32;
                    planes.set(p, k, r.take(b)?);
                }
            }
            _ => {
                let first = r.take(1)?;
                read_runs(r, n, first, p, planes)?;
            }
        }
    }
    Ok(())
}

/// Bits of the stream one run-table lookup reads.
const RUN_BITS: u32 = 12;
/// Largest span of samples one lookup may cover (its pattern fits bits 12..64 of an entry).
const RUN_SPAN: u32 = 52;
/// Lookups per refill of the bit buffer: a refill leaves at least 56 bits.
const RUN_LOOKUPS: usize = (56 / RUN_BITS) as usize;

/// For every `RUN_BITS`-bit window of a stream of gamma codes: bits 0..6 count the stream bits
/// taken by the whole codes at the window's start whose runs add up to at most `RUN_SPAN` (0:
/// none), bits 6..12 the samples those runs cover, and bits 12..64 how they flip the plane: bit
/// `12 + j` is set when an odd number of them end within `j + 1` samples of the window's start
/// (the prefix xor of the run ends), so the top bit is the parity of all of them and an
/// arithmetic shift extends it. The count sits in
/// the low bits so that `buffer >> entry` (x86's shift takes the count mod 64) consumes the codes
/// with no extra step on the decoder's critical path.
static RUN_TABLE: [u64; 1 << RUN_BITS] = {
    let mut t = [0u64; 1 << RUN_BITS];
    let mut b = 0u32;
    while b < 1 << RUN_BITS {
        let (mut pos, mut span, mut marks) = (0u32, 0u32, 0u64);
        loop {
            let rest = b >> pos;
            if rest == 0 {
                break;
            }
            let l = rest.trailing_zeros();
            if pos + 2 * l + 1 > RUN_BITS {
                break;
            }
            let low = (rest >> (l + 1)) & ((1 << l) - 1);
            let v = (1 << l) | if l == 0 { 0 } else { low.reverse_bits() >> (32 - l) };
            if span + v > RUN_SPAN {
                break;
            }
            span += v;
            marks |= 1 << (span - 1);
            pos += 2 * l + 1;
        }
        t[b as usize] = prefix_xor(marks) << 12 | (span as u64) << 6 | pos as u64;
        b += 1;
    }
    t
};

/// Bit `j` of the result is the xor of bits `0..=j` of `x`.
#[inline(always)]
const fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// All ones when the top bit of `x` is set, else zero.
#[inline(always)]
fn top(x: u64) -> u64 {
    ((x as i64) >> 63) as u64
}

/// Reads the gamma-coded runs of plane `p`, an RLE plane of `n` samples whose first bit is
/// `first`, and writes all its words into `words`. Bits past `n` are undefined.
///
/// Whole codes come from [`RUN_TABLE`], several per lookup, as long as their runs end before the
/// last sample and they lie inside the stream; the rest (long codes, the plane's end, errors) are
/// read one at a time.
///
/// The fast loop keeps the stream in a 64-bit buffer refilled eight bytes at a time (the refill's
/// load address is known one refill ahead, so its latency stays off the chain of lookups), and the
/// two plane words it is filling in registers: `lo` (word `k`) and `hi` (word `k + 1`), with the
/// bit value reached so far repeated in every bit that no run end has been placed before. A run
/// end at sample `i` flips every bit from `i` on: `lo` from bit `i % 64`, all of `hi`.
#[inline(never)]
fn read_runs(r: &mut BitReader<'_>, n: usize, first: u64, p: usize, words: &mut impl Planes) -> Result<(), Error> {
    if n == 0 {
        return Ok(());
    }
    // Bytes wholly inside the stream: the fast loop loads only from these, so every code it takes
    // ends inside `r.len` bits.
    let whole = (r.len / 8) as usize;
    let data = &r.data[..whole.min(r.data.len())];
    let mut pos = r.pos;
    let mut i = 0usize;
    let mut k = 0usize;
    let (mut lo, mut hi) = (first.wrapping_neg(), first.wrapping_neg());
    while i < n {
        let at = (pos / 8) as usize;
        if at + 8 <= data.len() && i + 1 < n {
            // The buffer holds `count` bits from `pos`; `ptr * 8 == pos + count` after each refill.
            let mut ptr = at + 7;
            let mut count = 56 - (pos % 8) as u32;
            let mut buf = load_u64(data, at) >> (pos % 8);
            // Samples left minus one, and where the next lookup's first run end can fall: bit
            // `off` of word `k` (`off < 128`, so word k or k + 1).
            let mut left1 = n - i - 1;
            let mut off = i + 1 - 64 * k;
            'fast: while ptr + 8 <= data.len() {
                buf |= load_u64(data, ptr) << count;
                ptr += ((63 - count) >> 3) as usize;
                count |= 56;
                for _ in 0..RUN_LOOKUPS {
                    let e = RUN_TABLE[(buf & low_mask(RUN_BITS)) as usize];
                    let span = ((e >> 6) & 63) as usize;
                    if span.wrapping_sub(1) >= left1 {
                        // The plane's last run: one at a time below, with its checks.
                        if span != 0 {
                            break 'fast;
                        }
                        // A code too long for the table (over 12 bits, or a run over 52): read
                        // here if the buffer holds it and it ends before the last sample.
                        let l = buf.trailing_zeros();
                        let len = 2 * l + 1;
                        if len > count {
                            break 'fast;
                        }
                        // l >= 5 here: every code of up to 9 bits (runs up to 31) is in the table.
                        let v = (1usize << l) | (((buf >> (l + 1)) & low_mask(l)).reverse_bits() >> (64 - l)) as usize;
                        if v > left1 {
                            break 'fast;
                        }
                        // Its run ends at bit `t` of word k and on: every bit from there flips.
                        let mut t = off + v - 1;
                        while t >= 64 {
                            words.set(p, k, lo);
                            lo = hi;
                            hi = top(hi);
                            k += 1;
                            t -= 64;
                        }
                        lo ^= u64::MAX << t;
                        hi = !hi;
                        off = t + 1;
                        left1 -= v;
                        buf >>= len;
                        count -= len;
                        // The buffer may now hold fewer bits than a lookup reads: refill first.
                        continue 'fast;
                    }
                    let flips = ((e as i64) >> 12) as u64;
                    // Moving on a word is done without a branch (it is taken at random): conditional moves.
                    let step = off >> 6;
                    words.set(p, k, lo);
                    let next = step != 0;
                    lo = core::hint::select_unpredictable(next, hi, lo);
                    hi = core::hint::select_unpredictable(next, top(hi), hi);
                    k += step;
                    off &= 63;
                    lo ^= flips << off;
                    hi ^= (((flips as i64) >> (63 - off)) >> 1) as u64;
                    off += span;
                    left1 -= span;
                    // The shift takes the low 6 bits of `e`: the stream bits of its codes.
                    buf = buf.wrapping_shr(e as u32);
                    count -= (e & 63) as u32;
                }
            }
            i = n - 1 - left1;
            pos = ptr as u64 * 8 - u64::from(count);
        }
        r.pos = pos;
        let run = r.gamma()?;
        pos = r.pos;
        if run > (n - i) as u64 {
            return Err(Error::RunTooLong { plane: p as u8, run, at: i as u64, samples: n as u64 });
        }
        i += run as usize;
        if i < n {
            while k < i / 64 {
                words.set(p, k, lo);
                lo = hi;
                hi = top(hi);
                k += 1;
            }
            lo ^= u64::MAX << (i % 64);
            hi = !hi;
        }
    }
    // The rest of the plane holds the last bit.
    let nw = n.div_ceil(64);
    words.set(p, k, lo);
    if k + 1 < nw {
        words.set(p, k + 1, hi);
    }
    for j in k + 2..nw {
        words.set(p, j, top(hi));
    }
    r.pos = pos;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::pack;

    /// The classic stream read one bit at a time, straight from the format's description.
    fn unpack_bitwise(bytes: &[u8], bits: u64, n: usize, options: Options) -> Result<Vec<i16>, Error> {
        let mut r = BitReader::new(bytes, bits)?;
        let mut coded = vec![0u16; n];
        for p in 0..16 {
            let mut set = |i: usize, bit: u64| coded[i] |= (bit as u16) << p;
            match r.take(2)? {
                0 => {}
                1 => (0..n).for_each(|i| set(i, 1)),
                2 => {
                    for i in 0..n {
                        let b = r.take(1)?;
                        set(i, b);
                    }
                }
                _ => {
                    let mut bit = r.take(1)?;
                    let mut i = 0;
                    while i < n {
                        let run = r.gamma()?;
                        if run > (n - i) as u64 {
                            return Err(Error::RunTooLong { plane: p, run, at: i as u64, samples: n as u64 });
                        }
                        for j in i..i + run as usize {
                            set(j, bit);
                        }
                        i += run as usize;
                        bit ^= 1;
                    }
                }
            }
        }
        let mut prev = 0i16;
        Ok(coded
            .into_iter()
            .map(|g| {
                let mut u = g;
                if options.gray() {
                    let mut s = 1;
                    while s < 16 {
                        u ^= u >> s;
                        s *= 2;
                    }
                    u ^= 0x8000;
                }
                let x = u as i16;
                if options.delta() {
                    prev = prev.wrapping_add(x);
                    prev
                } else {
                    x
                }
            })
            .collect())
    }

    #[test]
    fn word_decoder_agrees_with_a_bitwise_one_on_good_and_damaged_streams() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut damaged_errors = 0;
        for case in 0..600 {
            // Random walks with steps of a few bits to a few thousand, so planes come out static,
            // RLE with short and long runs, or literal; lengths around word boundaries and long.
            let n = match case % 4 {
                0 => (next() % 130) as usize,
                1 => 64 * (1 + (next() % 8) as usize) + (next() % 3) as usize,
                _ => (next() % 5000) as usize,
            };
            let step = 1i32 << (next() % 13);
            let mut x = 0i32;
            let samples: Vec<i16> = (0..n)
                .map(|_| {
                    x = (x + (next() % (2 * step as u64 + 1)) as i32 - step).clamp(-32768, 32767);
                    x as i16
                })
                .collect();
            let o = Options::ALL[case % 4];
            let p = pack(&samples, o).unwrap();
            assert_eq!(unpack(&p.bytes, p.bits, n, o).unwrap(), samples, "case {case}");
            assert_eq!(unpack_bitwise(&p.bytes, p.bits, n, o).unwrap(), samples, "case {case}");
            // Damage: flipped bits, a shorter length, or both; both decoders must agree on the
            // samples or on the kind of error.
            let mut bytes = p.bytes.clone();
            for _ in 0..1 + next() % 3 {
                if !bytes.is_empty() {
                    let at = (next() % bytes.len() as u64) as usize;
                    bytes[at] ^= 1 << (next() % 8);
                }
            }
            let bits = if next() % 2 == 0 { p.bits } else { next() % (p.bits + 1) };
            let fast = unpack(&bytes, bits, n, o);
            let slow = unpack_bitwise(&bytes, bits, n, o);
            // The planes-apart layout that containers use gives the same.
            let mut apart = vec![0i16; n];
            let got = BitReader::new(&bytes, bits).and_then(|mut r| unpack_from(&mut r, o, &mut apart));
            assert_eq!(got.map(|()| apart), fast, "case {case}");
            match (&fast, &slow) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "case {case}"),
                (Err(a), Err(b)) => {
                    damaged_errors += 1;
                    assert_eq!(core::mem::discriminant(a), core::mem::discriminant(b), "case {case}: {a:?} {b:?}");
                    if let Error::RunTooLong { .. } = a {
                        assert_eq!(a, b, "case {case}");
                    }
                }
                _ => panic!("case {case}: {fast:?} against {slow:?}"),
            }
        }
        assert!(damaged_errors > 100, "only {damaged_errors} damaged streams were refused");
    }

    #[test]
    fn run_table_entries_are_whole_codes() {
        // Bits 1, 0 1 0, 1 (low first): runs 1, 2 and 1, marked after 1, 3 and 4 samples; 5 bits.
        let e = RUN_TABLE[0b10101];
        // Marks 0b1101: the plane flips after 1 sample, back after 3, again after 4.
        assert_eq!((e >> 12, e >> 6 & 63, e & 63), (low_mask(52) ^ 0b100, 4, 5));
        // A code longer than the window: nothing.
        assert_eq!(RUN_TABLE[1 << 11], 0);
    }
}
