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
use crate::bits::{BitReader, BitWriter, gamma_code, gamma_len, load_u64, low_mask, peek_at};
use crate::planes;

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

/// Bit planes of `samples` after the option's delta and Gray steps: plane `p` occupies words
/// `p * nw .. (p + 1) * nw` (`nw = ceil(n / 64)`, returned); bits past `n` are zero.
///
/// Gray coding works on whole planes: bit `p` of `u ^ (u >> 1)` is `u_p ^ u_(p+1)`, and `u = x +
/// 32768` flips plane 15.
#[inline(never)]
fn to_planes(samples: &[i16], options: Options, planes: &mut Vec<u64>) -> usize {
    let nw = samples.len().div_ceil(64);
    planes.clear();
    planes.resize(16 * nw, 0);
    let mut prev = 0i16;
    for (k, block) in samples.chunks(64).enumerate() {
        let mut v = [0u16; 64];
        if options.delta() {
            v[0] = block[0].wrapping_sub(prev) as u16;
            for (o, pair) in v[1..].iter_mut().zip(block.windows(2)) {
                *o = pair[1].wrapping_sub(pair[0]) as u16;
            }
            prev = block[block.len() - 1];
        } else {
            for (o, &s) in v.iter_mut().zip(block) {
                *o = s as u16;
            }
        }
        let mut w = planes::to_words(&v);
        if options.gray() {
            w[15] = !w[15];
            for p in 0..15 {
                w[p] ^= w[p + 1];
            }
        }
        if block.len() < 64 {
            let m = low_mask(block.len() as u32);
            for x in &mut w {
                *x &= m;
            }
        }
        for (p, &x) in w.iter().enumerate() {
            planes[p * nw + k] = x;
        }
    }
    nw
}

/// Where the plane decoders put plane `p`'s word `k` (`k < ceil(n / 64)`): every word of every
/// plane is written once, so the storage needs no clearing.
trait Planes {
    /// Stores the word.
    fn set(&mut self, p: usize, k: usize, w: u64);
}

/// Planes one after the other, `stride` words apart.
struct PlaneMajor<'a> {
    words: &'a mut [u64],
    stride: usize,
}

impl Planes for PlaneMajor<'_> {
    #[inline(always)]
    fn set(&mut self, p: usize, k: usize, w: u64) {
        self.words[p * self.stride + k] = w;
    }
}

/// The 16 words of each block of 64 samples in the 64 samples' own place in the output (4 samples
/// per word), so that the output is the only buffer and each block turns into its samples in place.
struct InPlace<'a> {
    blocks: &'a mut [[i16; 64]],
}

impl Planes for InPlace<'_> {
    #[inline(always)]
    fn set(&mut self, p: usize, k: usize, w: u64) {
        // `p < 16` always; the mask lets the compiler see that the 4 values lie inside the block.
        let at = 4 * (p & 15);
        self.blocks[k][at..at + 4].copy_from_slice(&[w as i16, (w >> 16) as i16, (w >> 32) as i16, (w >> 48) as i16]);
    }
}

/// Samples from bit planes stored `stride` words apart (inverse of [`to_planes`]).
#[inline(never)]
fn from_planes(planes: &[u64], stride: usize, options: Options, out: &mut [i16]) {
    let (gray, delta) = (options.gray(), options.delta());
    let mut prev = 0i16;
    for (k, block) in out.chunks_mut(64).enumerate() {
        let w: [u64; 16] = core::array::from_fn(|p| planes[p * stride + k]);
        if let Ok(block) = <&mut [i16; 64]>::try_from(&mut *block) {
            prev = planes::words_to_samples(&w, gray, delta, prev, block);
        } else {
            let mut whole = [0i16; 64];
            prev = planes::words_to_samples(&w, gray, delta, prev, &mut whole);
            block.copy_from_slice(&whole[..block.len()]);
        }
    }
}

/// Samples of `n` from planes held [`InPlace`] in `out` (`64 ceil(n / 64)` values), in place:
/// each block's words turn into its samples in registers (Gray undo, transposition and running
/// sums in one step, see [`planes::block_to_samples`]).
#[inline(never)]
fn from_planes_in_place(out: &mut [i16], options: Options) {
    let (gray, delta) = (options.gray(), options.delta());
    let mut prev = 0i16;
    for block in out.as_chunks_mut::<64>().0 {
        prev = planes::block_to_samples(block, gray, delta, prev);
    }
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
    let nw = words.len();
    let last = low_mask(((n - 1) % 64) as u32 + 1);
    let first = words[0] & 1;
    let fill = first.wrapping_neg();
    if words[..nw - 1].iter().all(|&x| x == fill) && (words[nw - 1] ^ fill) & last == 0 {
        return PlaneCode::Static(first);
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

    #[test]
    fn planes_hold_the_coded_values_and_come_back() {
        let samples: Vec<i16> = (0..200u32).map(|i| (i.wrapping_mul(40503) ^ (i << 7)) as i16).collect();
        for o in Options::ALL {
            let mut prev = 0i16;
            let coded: Vec<u16> = samples
                .iter()
                .map(|&s| {
                    let x = if o.delta() { s.wrapping_sub(prev) } else { s } as u16;
                    prev = s;
                    if o.gray() { (x ^ 0x8000) ^ ((x ^ 0x8000) >> 1) } else { x }
                })
                .collect();
            let mut planes = Vec::new();
            let nw = to_planes(&samples, o, &mut planes);
            for p in 0..16 {
                for i in 0..nw * 64 {
                    let bit = coded.get(i).map_or(0, |&v| u64::from((v >> p) & 1));
                    assert_eq!((planes[p * nw + i / 64] >> (i % 64)) & 1, bit, "{o:?} plane {p} sample {i}");
                }
            }
            let mut back = vec![0i16; samples.len()];
            from_planes(&planes, nw, o, &mut back);
            assert_eq!(back, samples);
        }
    }

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
