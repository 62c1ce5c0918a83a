//! The classic encoder: the choice of plane code (static, RLE or literal) and the run writer.

use alloc::vec::Vec;

use super::layout::to_planes;
use super::options::{MAX_SAMPLES, Options, Packed};
use crate::Error;
use crate::bits::{BitWriter, gamma_code, gamma_len, low_mask};

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
        // A byte of transitions at a time, as `write_runs` does.
        while t != 0 {
            let j = t.trailing_zeros() / 8;
            let e = BYTE_RUNS[((t >> (8 * j)) & 0xff) as usize];
            t &= !(0xff << (8 * j));
            let at = k * 64 + 8 * j as usize;
            cost += gamma_len((at + (e >> 21 & 7) as usize - start) as u64) + u64::from(e >> 16 & 31);
            start = at + (e >> 24) as usize;
        }
        if cost > limit {
            return None;
        }
    }
    cost += gamma_len((n - start) as u64);
    (cost <= limit).then_some(cost)
}

/// How one plane is coded.
enum PlaneCode {
    /// STATIC0 or STATIC1: every bit is this one.
    Static(u64),
    /// RLE, this many bits after the 2-bit code.
    Rle(u64),
    /// LITERAL.
    Literal,
}

/// The encoder's choice for plane `words` of `n >= 1` bits (bits past `n` are zero), where
/// `exact` asks for the RLE cost; without it an RLE answer may be wrong (cost above `n`), for the
/// caller to find out while writing.
#[inline]
fn plane_code(words: &[u64], n: usize, exact: bool) -> PlaneCode {
    if is_static(words, n) {
        return PlaneCode::Static(words[0] & 1);
    }
    if rle_lower_bound(words, n) > n as u64 {
        return PlaneCode::Literal;
    }
    if !exact {
        return PlaneCode::Rle(0);
    }
    match rle_cost(words, n, n as u64) {
        Some(c) => PlaneCode::Rle(c),
        None => PlaneCode::Literal,
    }
}

/// Whether the first `n` bits of a plane are all equal.
#[inline]
fn is_static(words: &[u64], n: usize) -> bool {
    let nw = words.len();
    let last = low_mask(((n - 1) % 64) as u32 + 1);
    let fill = (words[0] & 1).wrapping_neg();
    words[..nw - 1].iter().all(|&x| x == fill) && (words[nw - 1] ^ fill) & last == 0
}

/// A lower bound of the RLE cost of a plane, word-parallel: a run costs 1 bit, 3 from length 2, 5
/// from length 4, so the cost is at least the runs plus twice the runs of length 2 or more plus
/// twice those of length 4 or more. Noise planes (about as many runs as bits / 2) come out above
/// `n` here without a look at each run.
#[inline(never)]
fn rle_lower_bound(words: &[u64], n: usize) -> u64 {
    let nw = words.len();
    // Run starts: bit i set when sample i starts a run. Past the last sample every bit counts as
    // a start, so the last run ends there.
    let past = !low_mask(((n - 1) % 64) as u32 + 1);
    let starts = |k: usize| -> u64 {
        if k >= nw {
            return u64::MAX;
        }
        let w = words[k];
        let before = if k == 0 { !w & 1 } else { words[k - 1] >> 63 };
        let t = w ^ ((w << 1) | before);
        if k == nw - 1 { t | past } else { t }
    };
    let mut bound = 1u64;
    let mut t = starts(0);
    for k in 0..nw {
        let next = starts(k + 1);
        let live = if k == nw - 1 { t & !past } else { t };
        // Starts 1, 1..=2 and 1..=3 samples later.
        let s1 = (t >> 1) | (next << 63);
        let s2 = (t >> 2) | (next << 62);
        let s3 = (t >> 3) | (next << 61);
        let ge2 = live & !s1;
        let ge4 = ge2 & !s2 & !s3;
        bound += u64::from(live.count_ones() + 2 * ge2.count_ones() + 2 * ge4.count_ones());
        t = next;
    }
    bound
}

/// Packs `samples` with `options`, bit for bit as the reference (and klystron's `bitpack`).
pub fn pack(samples: &[i16], options: Options) -> Result<Packed, Error> {
    let mut w = BitWriter::with_capacity(16 * (samples.len() as u64 + 2));
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
    w.reserve(16 * (n as u64 + 2));
    let mut planes = Vec::new();
    let nw = to_planes(samples, options, &mut planes);
    for p in 0..16 {
        let words = &planes[p * nw..(p + 1) * nw];
        let mut code = plane_code(words, n, false);
        if let PlaneCode::Rle(_) = code {
            // Written straight away; if it comes out longer than `n + 2` bits, it is taken back.
            let mark = w.mark();
            let before = w.len();
            w.put_small(3 | (words[0] & 1) << 2, 3);
            write_runs(words, n, w);
            if w.len() - before > n as u64 + 2 {
                w.rewind(mark);
                code = PlaneCode::Literal;
            }
        }
        match code {
            PlaneCode::Rle(_) => {}
            PlaneCode::Static(bit) => w.put_small(bit, 2),
            PlaneCode::Literal => {
                w.put_small(2, 2);
                let (full, rest) = words.split_at(nw - 1);
                for &x in full {
                    w.put(x, 64);
                }
                w.put(rest[0], ((n - 1) % 64) as u32 + 1);
            }
        }
    }
    Ok(())
}

/// For each non-zero byte of a transition mask (bit `i`: a run ends before position `i`): the
/// gamma codes of the runs between its set bits, in stream order (bits 0..16), their length in bits
/// (16..21), the first set bit (21..24) and the last (24..27).
static BYTE_RUNS: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 1;
    while b < 256 {
        let first = (b as u32).trailing_zeros();
        let (mut code, mut len, mut prev, mut i) = (0u32, 0u32, first, first + 1);
        while i < 8 {
            if b >> i & 1 == 1 {
                let run = i - prev;
                let l = 31 - run.leading_zeros();
                let n = 2 * l + 1;
                code |= (run.reverse_bits() >> (32 - n)) << len;
                len += n;
                prev = i;
            }
            i += 1;
        }
        t[b] = code | len << 16 | first << 21 | prev << 24;
        b += 1;
    }
    t
};

/// Writes the gamma codes of the runs of plane `words` (`n >= 1` bits), the first bit's run
/// first. Runs end at the set bits of the transition mask `w ^ (w << 1)`, found by trailing zeros.
#[inline(never)]
fn write_runs(words: &[u64], n: usize, w: &mut BitWriter) {
    // At most 2n + 1 bits: every run of length r takes at most 2r - 1 bits, plus the 2 + 1 above.
    let mut s = w.sink(2 * n as u64 + 64);
    let mut start = 0usize;
    let mut carry = words[0] & 1;
    let last = words.len() - 1;
    let tail = low_mask(((n - 1) % 64) as u32 + 1);
    for (k, &x) in words.iter().enumerate() {
        let mut t = x ^ ((x << 1) | carry);
        carry = x >> 63;
        if k == last {
            t &= tail;
        }
        // A byte of the transition mask at a time: the run that ends at its first transition
        // (begun before it) from the gamma table, those between its transitions from `BYTE_RUNS`,
        // all in one write.
        while t != 0 {
            let j = t.trailing_zeros() / 8;
            let e = BYTE_RUNS[((t >> (8 * j)) & 0xff) as usize];
            t &= !(0xff << (8 * j));
            let at = k * 64 + 8 * j as usize;
            let (c1, n1) = gamma_code((at + (e >> 21 & 7) as usize - start) as u32);
            let (inner, ni) = (u64::from(e & 0xffff), e >> 16 & 31);
            if n1 + ni <= 56 {
                s.put(c1 | inner << n1, n1 + ni);
            } else {
                s.put_long(c1, n1);
                s.put(inner, ni);
            }
            start = at + (e >> 24) as usize;
        }
    }
    let (c, n) = gamma_code((n - start) as u32);
    s.put_long(c, n);
    let state = s.state();
    w.resume(state);
}

/// The packed size in bits of `samples` with `options`, without building the stream.
pub fn packed_bits(samples: &[i16], options: Options) -> u64 {
    let n = samples.len();
    if n == 0 {
        return 32;
    }
    let mut planes = Vec::new();
    let nw = to_planes(samples, options, &mut planes);
    (0..16)
        .map(|p| {
            2 + match plane_code(&planes[p * nw..(p + 1) * nw], n, true) {
                PlaneCode::Static(_) => 0,
                PlaneCode::Rle(c) => c,
                PlaneCode::Literal => n as u64,
            }
        })
        .sum()
}

/// The bits of a classic stream with bit planes `planes` (`nw` words each, `n >= 1` samples),
/// or `None` once they pass `limit`. A first pass adds up cheap lower bounds (static planes 0,
/// literal ones `n`, the rest their word-parallel RLE bound), so a stream that cannot win is
/// given up before any exact RLE cost is counted.
fn planes_bits_within(planes: &[u64], nw: usize, n: usize, limit: u64) -> Option<u64> {
    // Per plane: None when static (0 bits), else its lower bound (n when literal).
    let mut bounds = [None; 16];
    let mut total = 32u64;
    if total > limit {
        return None;
    }
    for (p, bound) in bounds.iter_mut().enumerate() {
        let words = &planes[p * nw..(p + 1) * nw];
        if is_static(words, n) {
            continue;
        }
        let b = rle_lower_bound(words, n).min(n as u64);
        *bound = Some(b);
        total += b;
        if total > limit {
            return None;
        }
    }
    // Exact: each RLE plane's cost replaces its bound.
    for (p, bound) in bounds.iter().enumerate() {
        let Some(b) = *bound else { continue };
        if b == n as u64 {
            continue;
        }
        let room = limit - (total - b);
        let c = match rle_cost(&planes[p * nw..(p + 1) * nw], n, (n as u64).min(room)) {
            Some(c) => c,
            // Over `n`: literal. Over only the room left: the stream is over the limit.
            None if room >= n as u64 => n as u64,
            None => return None,
        };
        total = total - b + c;
        if total > limit {
            return None;
        }
    }
    Some(total)
}

/// The smallest of the four options' streams if it is at most `limit` bits: `(bits, option)`,
/// ties to the lower option, the bits those of [`packed_bits`]. Two transpositions serve the
/// four options: Gray planes are the plain ones xor-ed with their upper neighbours.
pub(crate) fn best_within(samples: &[i16], limit: u64) -> Option<(u64, Options)> {
    let n = samples.len();
    if n == 0 {
        return (32 <= limit).then_some((32, Options::RAW));
    }
    let (mut plain, mut gray) = (Vec::new(), Vec::new());
    let mut best: Option<(u64, Options)> = None;
    for (flat, coded) in [(Options::RAW, Options::GRAY), (Options::DELTA, Options::DELTA_GRAY)] {
        let nw = to_planes(samples, flat, &mut plain);
        gray.clear();
        gray.resize(16 * nw, 0);
        for p in 0..15 {
            for k in 0..nw {
                gray[p * nw + k] = plain[p * nw + k] ^ plain[(p + 1) * nw + k];
            }
        }
        for k in 0..nw {
            gray[15 * nw + k] = !plain[15 * nw + k];
        }
        gray[16 * nw - 1] &= low_mask(((n - 1) % 64) as u32 + 1);
        for (o, planes) in [(flat, &plain), (coded, &gray)] {
            let room = best.map_or(limit, |b| b.0.min(limit));
            if let Some(bits) = planes_bits_within(planes, nw, n, room)
                && best.is_none_or(|b| (bits, o.flags()) < (b.0, b.1.flags()))
            {
                best = Some((bits, o));
            }
        }
    }
    best
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::unpack;
    use alloc::vec;

    #[test]
    fn best_within_agrees_with_packed_bits() {
        let mut seed = 7u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 8
        };
        for len in [1usize, 2, 63, 64, 65, 200, 1000] {
            for kind in 0..4 {
                let x: Vec<i16> = (0..len)
                    .map(|i| match kind {
                        0 => (rnd() % 7) as i16 - 3,
                        1 => ((i as f32 * 0.05).sin() * 9000.0) as i16,
                        2 => rnd() as i16,
                        _ => ((i / 10) as i16 & 3) << 8,
                    })
                    .collect();
                let expect = Options::ALL.iter().map(|&o| (packed_bits(&x, o), o.flags())).min().unwrap();
                let got = best_within(&x, u64::MAX).unwrap();
                assert_eq!((got.0, got.1.flags()), expect, "len {len} kind {kind}");
                assert_eq!(best_within(&x, expect.0).map(|b| b.0), Some(expect.0));
                assert_eq!(best_within(&x, expect.0 - 1), None);
            }
        }
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
}
