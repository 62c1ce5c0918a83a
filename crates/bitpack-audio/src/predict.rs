//! One channel of one chunk: constant, classic bit planes, or fixed or LPC prediction + Rice codes.
//!
//! Block layout (bits, low first): 2-bit method, 4-bit wasted shift `w`, then
//! - method 0 (constant): 16-bit value;
//! - method 1 (classic): 2-bit option, then a classic stream of the `n` samples;
//! - method 2 (fixed prediction): 3-bit order `o` (0..=4), `o` warm-up samples of 16 bits,
//!   4-bit partition order `po`, then `2^po` partitions of the `n - o` residuals, each a 5-bit
//!   Rice parameter `k` (0..=30; 31 = escape: 5-bit width `b`, then `b`-bit raw zigzag values)
//!   followed by its residuals, zigzag mapped, as unary quotient (zeros then a one) and `k` low bits;
//! - method 3 (LPC): 4-bit order `p` (1..=12), 4-bit coefficient precision minus one `c`, 5-bit
//!   shift `s`, `p` coefficients of `c + 1` bits (two's complement), `p` warm-up samples of 16 bits,
//!   then the residuals as in method 2; the prediction is `sum(q[j] * x[i-1-j]) >> s`.
//!
//! Samples are shifted right by `w` before coding and left by `w` after decoding.

use alloc::vec;
use alloc::vec::Vec;

use crate::Error;
use crate::bits::{BitReader, BitWriter, load_u64, low_mask};
use crate::classic::{self, Options};

/// How hard the encoder searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Effort {
    /// Classic bit planes only, best of the four options per chunk and channel.
    Classic,
    /// Fixed prediction of order 0, 1 or 2 (smallest wins), Rice codes in 4 partitions.
    Fast,
    /// Every fixed order and LPC up to order 12 (Welch window, Levinson-Durbin, 15-bit
    /// coefficients), partition orders up to 6, and the classic options; the smallest wins.
    /// Residual sums estimate the predictors' Rice costs, and the LPC orders tried are the two
    /// the analysis's prediction errors promise most from; the winner's cost is then exact.
    Max,
}

fn zigzag(r: i64) -> u64 {
    ((r << 1) ^ (r >> 63)) as u64
}

fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Zigzag-mapped residuals of the fixed predictor of `order` (0..=4) into `out`.
fn residuals(x: &[i32], order: usize, out: &mut Vec<u64>) {
    out.clear();
    let at = |i: usize| i64::from(x[i]);
    match order {
        0 => out.extend(x.iter().map(|&s| zigzag(i64::from(s)))),
        1 => out.extend(x.windows(2).map(|w| zigzag(i64::from(w[1]) - i64::from(w[0])))),
        2 => out.extend(x.windows(3).map(|w| zigzag(i64::from(w[2]) - 2 * i64::from(w[1]) + i64::from(w[0])))),
        _ => out.extend((order..x.len()).map(|i| zigzag(at(i) - predict(order, |k| at(i - k))))),
    }
}

#[inline]
fn predict(order: usize, at: impl Fn(usize) -> i64) -> i64 {
    match order {
        0 => 0,
        1 => at(1),
        2 => 2 * at(1) - at(2),
        3 => 3 * at(1) - 3 * at(2) + at(3),
        _ => 4 * at(1) - 6 * at(2) + 4 * at(3) - at(4),
    }
}

/// The predictor of a method 2 or 3 block.
enum Predictor {
    /// Fixed polynomial of this order (0..=4).
    Fixed(usize),
    /// Quantized LPC coefficients and their right shift.
    Lpc(Vec<i32>, u32),
}

/// Largest LPC order (method 3).
const MAX_LPC: usize = 12;
/// Coefficient precision in bits, sign included.
const LPC_PREC: u32 = 15;

/// The LPC analysis of a block: for each order `p` in 1..=`max` (until the error vanishes),
/// the real coefficients and the prediction error the Levinson-Durbin recursion leaves.
struct Analysis {
    coefs: Vec<Vec<f64>>,
    errors: Vec<f64>,
}

/// Welch window, autocorrelation (all lags in one pass), Levinson-Durbin recursion.
fn lpc_analysis(x: &[i32], max: usize) -> Analysis {
    let mut out = Analysis { coefs: Vec::new(), errors: Vec::new() };
    let n = x.len();
    if n <= max + 1 || max == 0 {
        return out;
    }
    let half = (n as f64 - 1.0) / 2.0;
    let w: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let t = (i as f64 - half) / (half + 1.0);
            f64::from(v) * (1.0 - t * t)
        })
        .collect();
    let autoc = autocorrelation(&w, max);
    let mut err = autoc[0];
    if err <= 0.0 {
        return out;
    }
    let mut lpc = vec![0.0f64; max];
    for i in 0..max {
        let mut r = -autoc[i + 1];
        for j in 0..i {
            r -= lpc[j] * autoc[i - j];
        }
        r /= err;
        lpc[i] = r;
        let mut j = 0;
        while j < i / 2 {
            let t = lpc[j];
            lpc[j] += r * lpc[i - 1 - j];
            lpc[i - 1 - j] += r * t;
            j += 1;
        }
        if i % 2 == 1 {
            lpc[j] += lpc[j] * r;
        }
        err *= 1.0 - r * r;
        out.coefs.push(lpc[..=i].iter().map(|&v| -v).collect());
        out.errors.push(err);
        if err <= 0.0 {
            break;
        }
    }
    out
}

/// Autocorrelation of `w` at lags 0..=`max`.
fn autocorrelation(w: &[f64], max: usize) -> Vec<f64> {
    (0..=max).map(|l| dot(&w[l..], &w[..w.len() - l])).collect()
}

/// `a · b` over their common length, in four interleaved sums (two SSE2 registers of two on
/// x86-64; the same sums in the same order elsewhere, so the result does not depend on it).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let m = a.len().min(b.len());
    let whole = m / 4 * 4;
    #[cfg(target_arch = "x86_64")]
    let (lo, hi) = {
        use core::arch::x86_64::{_mm_add_pd, _mm_loadu_pd, _mm_mul_pd, _mm_setzero_pd, _mm_storeu_pd};
        let (mut l, mut h) = ([0.0f64; 2], [0.0f64; 2]);
        // SAFETY: SSE2 is part of x86-64. Every load reads four f64 at `i + 4 <= whole <= m`,
        // within both slices; the stores write two f64 into each two-element array.
        unsafe {
            let (mut lo, mut hi) = (_mm_setzero_pd(), _mm_setzero_pd());
            let mut i = 0;
            while i < whole {
                let (pa, pb) = (a.as_ptr().add(i), b.as_ptr().add(i));
                lo = _mm_add_pd(lo, _mm_mul_pd(_mm_loadu_pd(pa), _mm_loadu_pd(pb)));
                hi = _mm_add_pd(hi, _mm_mul_pd(_mm_loadu_pd(pa.add(2)), _mm_loadu_pd(pb.add(2))));
                i += 4;
            }
            _mm_storeu_pd(l.as_mut_ptr(), lo);
            _mm_storeu_pd(h.as_mut_ptr(), hi);
        }
        (l, h)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (lo, hi) = {
        let (mut lo, mut hi) = ([0.0f64; 2], [0.0f64; 2]);
        for (x, y) in a[..whole].chunks_exact(4).zip(b[..whole].chunks_exact(4)) {
            lo[0] += x[0] * y[0];
            lo[1] += x[1] * y[1];
            hi[0] += x[2] * y[2];
            hi[1] += x[3] * y[3];
        }
        (lo, hi)
    };
    let tail: f64 = a[whole..m].iter().zip(&b[whole..m]).map(|(x, y)| x * y).sum();
    (lo[0] + lo[1]) + (hi[0] + hi[1]) + tail
}

/// `log2(x)` for `x > 0` to within about 0.005, the same with and without `std` (so the encoder's
/// choices, and its output, do not depend on the platform's `log2`).
fn log2_approx(x: f64) -> f64 {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let t = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52)) - 1.0;
    e as f64 + t * (1.346_555_3 - 0.346_555_3 * t)
}

fn quantize(c: &[f64]) -> Option<(Vec<i32>, u32)> {
    let cmax = c.iter().fold(0.0f64, |m, &v| m.max(v.abs()));
    if !cmax.is_finite() || cmax <= 0.0 {
        return None;
    }
    let qmax = f64::from((1i32 << (LPC_PREC - 1)) - 1);
    // Largest shift (at most 20) that keeps the biggest coefficient within the precision.
    let mut shift = 0u32;
    while shift < 20 && cmax * f64::from(1u32 << (shift + 1)) <= qmax {
        shift += 1;
    }
    let scale = f64::from(1u32 << shift);
    let mut carry = 0.0;
    let q = c
        .iter()
        .map(|&v| {
            let t = v * scale + carry;
            // Round half away from zero (`as` truncates; no libm in no_std).
            let r = (if t >= 0.0 { (t + 0.5) as i64 } else { (t - 0.5) as i64 } as f64).clamp(-qmax - 1.0, qmax);
            carry = t - r;
            r as i32
        })
        .collect();
    Some((q, shift))
}

#[inline]
fn lpc_predict(q: &[i32], shift: u32, at: impl Fn(usize) -> i64) -> i64 {
    let mut sum = 0i64;
    for (j, &c) in q.iter().enumerate() {
        sum += i64::from(c) * at(j + 1);
    }
    sum >> shift
}

/// Cost in bits and parameter of one Rice partition (31 = escape).
fn rice_choice(u: &[u64]) -> (u64, u32) {
    // The highest set bit of the largest value is the highest set bit of them all or-ed.
    let (sum, or) = u.iter().fold((0u64, 0u64), |(s, o), &v| (s + v, o | v));
    let width = 64 - or.leading_zeros();
    let escape = 5 + 5 + u64::from(width) * u.len() as u64;
    let mean = if u.is_empty() { 0 } else { sum / u.len() as u64 };
    let k0 = (64 - mean.leading_zeros()).saturating_sub(1).min(30);
    let (lo, hi) = (k0.saturating_sub(1), (k0 + 1).min(30));
    // The quotient sums of the (up to three) candidate parameters in one pass.
    let mut q = [0u64; 3];
    for &v in u {
        q[0] += v >> lo;
        q[1] += v >> (lo + 1);
        q[2] += v >> (lo + 2);
    }
    let mut best = (escape, 31u32);
    for k in lo..=hi {
        let c = 5 + q[(k - lo) as usize] + (1 + u64::from(k)) * u.len() as u64;
        if c < best.0 {
            best = (c, k);
        }
    }
    best
}

fn partitions(m: usize, po: u32) -> impl Iterator<Item = (usize, usize)> {
    let parts = 1usize << po;
    let len = m.div_ceil(parts).max(1);
    (0..parts).map(move |i| ((i * len).min(m), ((i + 1) * len).min(m)))
}

fn rice_cost(u: &[u64], po: u32) -> u64 {
    partitions(u.len(), po).map(|(a, b)| rice_choice(&u[a..b]).0).sum()
}

fn write_rice(w: &mut BitWriter, u: &[u64], po: u32) {
    w.put(u64::from(po), 4);
    for (a, b) in partitions(u.len(), po) {
        let part = &u[a..b];
        let (_, k) = rice_choice(part);
        w.put(u64::from(k), 5);
        if k == 31 {
            let width = 64 - part.iter().fold(0, |o, &v| o | v).leading_zeros();
            w.put(u64::from(width), 5);
            for &v in part {
                w.put(v, width);
            }
        } else {
            write_rice_part(w, part, k);
        }
    }
}

/// The Rice code of `v` with parameter `k` as one write (`q = v >> k` zeros, a one, the `k` low
/// bits) and its length, or `None` when it is longer than 56 bits.
#[inline(always)]
fn rice_code(v: u64, k: u32) -> Option<(u64, u32)> {
    let q = v >> k;
    (q + 1 + u64::from(k) <= 56).then(|| ((1 << q) | ((v & low_mask(k)) << (q + 1)), q as u32 + 1 + k))
}

/// Writes the Rice codes of `part` with parameter `k < 31`, two per write where they fit.
fn write_rice_part(w: &mut BitWriter, part: &[u64], k: u32) {
    let mut i = 0;
    while i < part.len() {
        let mut s = w.sink(56 * (part.len() - i) as u64 + 64);
        while let Some(&v) = part.get(i) {
            let Some((c1, n1)) = rice_code(v, k) else { break };
            if let Some((c2, n2)) = part.get(i + 1).and_then(|&v| rice_code(v, k))
                && n1 + n2 <= 56
            {
                s.put(c1 | c2 << n1, n1 + n2);
                i += 2;
            } else {
                s.put(c1, n1);
                i += 1;
            }
        }
        let state = s.state();
        w.resume(state);
        if let Some(&v) = part.get(i) {
            // A long quotient, written in pieces.
            w.put_unary(v >> k);
            w.put(v & low_mask(k), k);
            i += 1;
        }
    }
}

/// Finest partition order of the Rice codes (method 2 and 3 blocks).
const MAX_PO: u32 = 6;
/// Partitions at [`MAX_PO`].
const FINE: usize = 1 << MAX_PO;

/// Sums of the zigzag residuals over the partitions of order [`MAX_PO`] (`m` residuals, `len`
/// to a partition): enough to estimate the Rice cost of every partition order.
#[derive(Clone, Copy)]
struct Sums {
    s: [u64; FINE],
    m: usize,
    len: usize,
}

/// [`Sums`] of `m` residuals, residual `j` being `u(j)`.
#[inline(always)]
fn sums_of(m: usize, mut u: impl FnMut(usize) -> u64) -> Sums {
    let len = m.div_ceil(FINE).max(1);
    let mut s = [0u64; FINE];
    for (p, sum) in s.iter_mut().enumerate() {
        let (a, b) = ((p * len).min(m), ((p + 1) * len).min(m));
        let mut t = 0u64;
        for j in a..b {
            t += u(j);
        }
        *sum = t;
    }
    Sums { s, m, len }
}

/// Estimated bits of a Rice partition of `n` values summing to `sum`: the parameter from the
/// mean and its neighbours, `sum(v >> k)` taken as `(sum >> k) - n / 2` for `k > 0` (the low
/// bits shifted out average one half).
#[inline]
fn estimate_part(sum: u64, n: u64) -> u64 {
    if n == 0 {
        return 5;
    }
    let mean = sum / n;
    let k0 = (64 - mean.leading_zeros()).saturating_sub(1).min(30);
    let cost = |k: u32| {
        let q = if k == 0 { sum } else { (sum >> k).saturating_sub(n / 2) };
        5 + q + n * (1 + u64::from(k))
    };
    let mut best = cost(k0);
    if k0 > 0 {
        best = best.min(cost(k0 - 1));
    }
    if k0 < 30 {
        best = best.min(cost(k0 + 1));
    }
    best
}

/// Estimated Rice bits (partition order field included) and the partition order that gives
/// them, from the finest sums merged pairwise.
fn estimate_rice(sums: &Sums) -> (u64, u32) {
    let mut level = [(0u64, 0u64); FINE];
    for (p, l) in level.iter_mut().enumerate() {
        let (a, b) = ((p * sums.len).min(sums.m), ((p + 1) * sums.len).min(sums.m));
        *l = (sums.s[p], (b - a) as u64);
    }
    let mut parts = FINE;
    let mut best = (u64::MAX, 0);
    for po in (0..=MAX_PO).rev() {
        let c = 4 + level[..parts].iter().map(|&(s, n)| estimate_part(s, n)).sum::<u64>();
        if c <= best.0 {
            best = (c, po);
        }
        parts /= 2;
        for i in 0..parts {
            level[i] = (level[2 * i].0 + level[2 * i + 1].0, level[2 * i].1 + level[2 * i + 1].1);
        }
    }
    best
}

/// Zigzag residual `j` of LPC `q` (order `P`) over `x`: predicts `x[j + P]`.
#[inline(always)]
fn lpc_residual<const P: usize>(x: &[i32], q: &[i32; P], shift: u32, j: usize) -> u64 {
    let w = &x[j..j + P];
    let mut sum = 0i64;
    for k in 0..P {
        sum += i64::from(q[k]) * i64::from(w[P - 1 - k]);
    }
    zigzag(i64::from(x[j + P]) - (sum >> shift))
}

/// The [`Sums`] of LPC `q`'s residuals, and the residuals themselves into `out` when asked.
fn lpc_pass<const P: usize>(x: &[i32], q: &[i32], shift: u32, out: Option<&mut Vec<u64>>) -> Sums {
    let q: [i32; P] = q.try_into().unwrap_or([0; P]);
    let m = x.len() - P;
    match out {
        None => sums_of(m, |j| lpc_residual(x, &q, shift, j)),
        Some(out) => {
            out.clear();
            out.extend((0..m).map(|j| lpc_residual(x, &q, shift, j)));
            sums_of(m, |j| out[j])
        }
    }
}

/// [`lpc_pass`] for an order known at run time (1..=[`MAX_LPC`]).
fn lpc_sums(x: &[i32], q: &[i32], shift: u32, out: Option<&mut Vec<u64>>) -> Sums {
    match q.len() {
        1 => lpc_pass::<1>(x, q, shift, out),
        2 => lpc_pass::<2>(x, q, shift, out),
        3 => lpc_pass::<3>(x, q, shift, out),
        4 => lpc_pass::<4>(x, q, shift, out),
        5 => lpc_pass::<5>(x, q, shift, out),
        6 => lpc_pass::<6>(x, q, shift, out),
        7 => lpc_pass::<7>(x, q, shift, out),
        8 => lpc_pass::<8>(x, q, shift, out),
        9 => lpc_pass::<9>(x, q, shift, out),
        10 => lpc_pass::<10>(x, q, shift, out),
        11 => lpc_pass::<11>(x, q, shift, out),
        _ => lpc_pass::<12>(x, q, shift, out),
    }
}

/// The [`Sums`] of the fixed predictor of `order`'s residuals.
fn fixed_sums(x: &[i32], order: usize) -> Sums {
    let at = |i: usize| i64::from(x[i]);
    let m = x.len() - order;
    match order {
        0 => sums_of(m, |j| zigzag(at(j))),
        1 => sums_of(m, |j| zigzag(at(j + 1) - at(j))),
        2 => sums_of(m, |j| zigzag(at(j + 2) - 2 * at(j + 1) + at(j))),
        3 => sums_of(m, |j| zigzag(at(j + 3) - 3 * at(j + 2) + 3 * at(j + 1) - at(j))),
        _ => sums_of(m, |j| zigzag(at(j + 4) - 4 * at(j + 3) + 6 * at(j + 2) - 4 * at(j + 1) + at(j))),
    }
}

/// LPC orders the `Max` search computes residuals for: the ones the analysis's errors promise
/// the fewest bits, best first.
const LPC_TRIES: usize = 1;

/// The `Max` search: estimates from residual sums pick the predictor (every fixed order, and the
/// LPC orders the analysis promises most from); the winner's partition order is then settled
/// with exact Rice costs. Returns (exact cost, predictor, partition order, zigzag residuals).
fn search_max(x: &[i32]) -> (u64, Predictor, u32, Vec<u64>) {
    let n = x.len();
    let mut best: (u64, Predictor) = (u64::MAX, Predictor::Fixed(0));
    for o in 0..=4 {
        let c = 3 + 16 * o as u64 + estimate_rice(&fixed_sums(x, o)).0;
        if c < best.0 {
            best = (c, Predictor::Fixed(o));
        }
    }
    let analysis = lpc_analysis(x, MAX_LPC.min(n - 1));
    // Expected bits per residual from the analysis's error (FLAC's estimate), plus the header.
    let scale = 0.5 / n as f64;
    let mut orders: Vec<(f64, usize)> = analysis
        .errors
        .iter()
        .enumerate()
        .map(|(i, &e)| {
            let p = i + 1;
            let bps = if e > 0.0 { (0.5 * log2_approx(e * scale)).max(0.0) } else { 0.0 };
            (bps * (n - p) as f64 + ((LPC_PREC + 16) * p as u32) as f64, p)
        })
        .collect();
    orders.sort_by(|a, b| a.0.total_cmp(&b.0));
    // The best LPC try keeps its residuals.
    let (mut u, mut spare) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut lpc_best: Option<Sums> = None;
    for &(_, p) in orders.iter().take(LPC_TRIES) {
        let Some((q, qs)) = quantize(&analysis.coefs[p - 1]) else { continue };
        let sums = lpc_sums(x, &q, qs, Some(&mut spare));
        let c = 13 + (u64::from(LPC_PREC) + 16) * p as u64 + estimate_rice(&sums).0;
        if c < best.0 {
            best = (c, Predictor::Lpc(q, qs));
            lpc_best = Some(sums);
            core::mem::swap(&mut u, &mut spare);
        }
    }
    let (head, sums) = match (&best.1, lpc_best) {
        (Predictor::Lpc(q, _), Some(sums)) => (13 + (u64::from(LPC_PREC) + 16) * q.len() as u64, sums),
        (Predictor::Fixed(o), _) => {
            residuals(x, *o, &mut u);
            (3 + 16 * *o as u64, sums_of(u.len(), |j| u[j]))
        }
        (Predictor::Lpc(q, qs), None) => {
            (13 + (u64::from(LPC_PREC) + 16) * q.len() as u64, lpc_sums(x, q, *qs, Some(&mut u)))
        }
    };
    let (_, po) = estimate_rice(&sums);
    let cost = head + 4 + rice_cost(&u, po);
    (cost, best.1, po, u)
}

/// Encodes one channel block of `x` (16-bit samples) at `effort`.
pub(crate) fn encode_block(x: &[i16], effort: Effort, w: &mut BitWriter) -> Result<(), Error> {
    let n = x.len();
    if n > classic::MAX_SAMPLES {
        return Err(Error::TooLong(n as u64));
    }
    if n > 0 && x.iter().all(|&s| s == x[0]) {
        w.put(0, 2);
        w.put(0, 4);
        w.put(u64::from(x[0] as u16), 16);
        return Ok(());
    }
    let or = x.iter().fold(0u16, |a, &s| a | s as u16);
    let shift = if effort == Effort::Classic || or == 0 { 0 } else { or.trailing_zeros().min(15) };
    let shifted: Vec<i16> = x.iter().map(|&s| s >> shift).collect();
    let wide: Vec<i32> = shifted.iter().map(|&s| i32::from(s)).collect();
    // (cost, predictor, partition order, zigzag residuals)
    let mut best: Option<(u64, Predictor, u32, Vec<u64>)> = None;
    if effort == Effort::Max && n > 4 {
        best = Some(search_max(&wide));
    } else if effort == Effort::Fast && n > 4 {
        // Residuals of the candidate in hand; the best so far keeps its own buffer (swapped, not
        // copied).
        let mut u = Vec::with_capacity(n);
        let mut spare = Vec::with_capacity(n);
        for o in 0..=2 {
            residuals(&wide, o, &mut u);
            let c = 3 + 16 * o as u64 + 4 + rice_cost(&u, 2);
            if best.as_ref().is_none_or(|b| c < b.0) {
                let old = best.replace((c, Predictor::Fixed(o), 2, core::mem::take(&mut u)));
                u = old.map_or_else(|| core::mem::take(&mut spare), |b| b.3);
            }
        }
    }
    // The classic options, only where one could beat the prediction (`c >= classic + 2` below).
    let (classic_bits, classic_opt) = match effort {
        Effort::Classic | Effort::Max => {
            let limit = best.as_ref().map_or(u64::MAX, |b| b.0.saturating_sub(2));
            classic::best_within(&shifted, limit).unwrap_or((u64::MAX, Options::RAW))
        }
        Effort::Fast => (u64::MAX, Options::RAW),
    };
    match best {
        Some((c, Predictor::Fixed(o), po, u)) if c < classic_bits.saturating_add(2) => {
            w.put(2, 2);
            w.put(u64::from(shift), 4);
            w.put(o as u64, 3);
            for &s in &shifted[..o] {
                w.put(u64::from(s as u16), 16);
            }
            write_rice(w, &u, po);
        }
        Some((c, Predictor::Lpc(q, qs), po, u)) if c < classic_bits.saturating_add(2) => {
            w.put(3, 2);
            w.put(u64::from(shift), 4);
            w.put(q.len() as u64, 4);
            w.put(u64::from(LPC_PREC - 1), 4);
            w.put(u64::from(qs), 5);
            for &c in &q {
                w.put(u64::from(c as u32) & low_mask(LPC_PREC), LPC_PREC);
            }
            for &s in &shifted[..q.len()] {
                w.put(u64::from(s as u16), 16);
            }
            write_rice(w, &u, po);
        }
        _ => {
            w.put(1, 2);
            w.put(u64::from(shift), 4);
            w.put(u64::from(classic_opt.flags()), 2);
            classic::pack_into(&shifted, classic_opt, w)?;
        }
    }
    Ok(())
}

/// Rebuilds a sample from its residual: the fixed predictors keep their last samples in registers
/// (no store-to-load chain through `x`); LPC reads them from `x`.
trait Rebuild {
    fn next(&mut self, x: &[i64], i: usize, residual: i64) -> i64;
}

/// Fixed predictor of order `N` (0..=4) with the last `N` samples, newest first.
struct Fixed<const N: usize>([i64; 4]);

impl<const N: usize> Fixed<N> {
    fn new(x: &[i64]) -> Self {
        let mut h = [0i64; 4];
        for (j, v) in h.iter_mut().enumerate().take(N) {
            *v = x[N - 1 - j];
        }
        Fixed(h)
    }
}

impl<const N: usize> Rebuild for Fixed<N> {
    #[inline(always)]
    fn next(&mut self, _: &[i64], _: usize, residual: i64) -> i64 {
        let [a, b, c, d] = self.0;
        let s = residual
            + match N {
                0 => 0,
                1 => a,
                2 => 2 * a - b,
                3 => 3 * a - 3 * b + c,
                _ => 4 * a - 6 * b + 4 * c - d,
            };
        self.0 = [s, a, b, c];
        s
    }
}

/// Quantized LPC.
struct Lpc<'q>(&'q [i32], u32);

impl Rebuild for Lpc<'_> {
    #[inline(always)]
    fn next(&mut self, x: &[i64], i: usize, residual: i64) -> i64 {
        lpc_predict(self.0, self.1, |j| x[i - j]) + residual
    }
}

/// Reads the Rice-coded residuals after `order` warm-up samples and rebuilds `x` with `pred`.
#[inline]
fn residual_loop(
    r: &mut BitReader<'_>,
    x: &mut [i64],
    order: usize,
    po: u32,
    mut pred: impl Rebuild,
) -> Result<(), Error> {
    let m = x.len() - order;
    let data = r.data;
    let mut i = order;
    for (a, b) in partitions(m, po) {
        let k = r.take(5)? as u32;
        let width = if k == 31 { r.take(5)? as u32 } else { 0 };
        let end = order + b;
        debug_assert_eq!(i, order + a);
        while i < end {
            let mut decoded = false;
            if k != 31 {
                // Several codes from one load (57 bits) while they fit in it and the stream.
                let byte = (r.pos / 8) as usize;
                if byte + 8 <= data.len() {
                    let mut w = load_u64(data, byte) >> (r.pos % 8);
                    let room = (r.len - r.pos).min(57);
                    let mut used = 0u64;
                    while i < end {
                        let q = w.trailing_zeros();
                        let n = u64::from(q + 1 + k);
                        if used + n > room {
                            break;
                        }
                        let u = (u64::from(q) << k) | ((w >> (q + 1)) & low_mask(k));
                        w >>= n;
                        used += n;
                        let s = pred.next(x, i, unzigzag(u));
                        if s < i64::from(i16::MIN) || s > i64::from(i16::MAX) {
                            return Err(Error::SampleRange);
                        }
                        x[i] = s;
                        i += 1;
                        decoded = true;
                    }
                    r.pos += used;
                }
            }
            if !decoded {
                let u = if k == 31 {
                    r.take(width)?
                } else {
                    let q = r.unary(1 << 24)?;
                    (q << k) | r.take(k)?
                };
                let s = pred.next(x, i, unzigzag(u));
                if s < i64::from(i16::MIN) || s > i64::from(i16::MAX) {
                    return Err(Error::SampleRange);
                }
                x[i] = s;
                i += 1;
            }
        }
    }
    Ok(())
}

/// Decodes one channel block into `out`.
pub(crate) fn decode_block(r: &mut BitReader<'_>, out: &mut [i16]) -> Result<(), Error> {
    let n = out.len();
    let method = r.take(2)?;
    let shift = r.take(4)? as u32;
    match method {
        0 => {
            let v = r.take(16)? as u16 as i16;
            out.fill(v);
        }
        1 => {
            let o = Options::from_flags(r.take(2)? as u8)?;
            classic::unpack_from(r, o, out)?;
        }
        _ => {
            let (order, lpc) = if method == 2 {
                let order = r.take(3)? as usize;
                if order > 4 {
                    return Err(Error::BadCode);
                }
                (order, None)
            } else {
                let order = r.take(4)? as usize;
                let prec = r.take(4)? as u32 + 1;
                let qs = r.take(5)? as u32;
                if order == 0 || order > MAX_LPC {
                    return Err(Error::BadCode);
                }
                let mut q = Vec::with_capacity(order);
                for _ in 0..order {
                    let v = r.take(prec)?;
                    // Sign-extend `prec` bits.
                    q.push(((v << (64 - prec)) as i64 >> (64 - prec)) as i32);
                }
                (order, Some((q, qs)))
            };
            if order > n {
                return Err(Error::BadCode);
            }
            let mut x = vec![0i64; n];
            for s in &mut x[..order] {
                *s = i64::from(r.take(16)? as u16 as i16);
            }
            let po = r.take(4)? as u32;
            match (&lpc, order) {
                (Some((q, qs)), _) => residual_loop(r, &mut x, order, po, Lpc(q, *qs))?,
                (None, 0) => residual_loop(r, &mut x, 0, po, Fixed::<0>([0; 4]))?,
                (None, 1) => {
                    let p = Fixed::<1>::new(&x);
                    residual_loop(r, &mut x, 1, po, p)?
                }
                (None, 2) => {
                    let p = Fixed::<2>::new(&x);
                    residual_loop(r, &mut x, 2, po, p)?
                }
                (None, 3) => {
                    let p = Fixed::<3>::new(&x);
                    residual_loop(r, &mut x, 3, po, p)?
                }
                (None, _) => {
                    let p = Fixed::<4>::new(&x);
                    residual_loop(r, &mut x, 4, po, p)?
                }
            }
            for (o, &s) in out.iter_mut().zip(&x) {
                *o = s as i16;
            }
        }
    }
    if shift > 0 {
        for s in out.iter_mut() {
            let v = i32::from(*s) << shift;
            *s = i16::try_from(v).map_err(|_| Error::SampleRange)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(x: &[i16], e: Effort) -> u64 {
        let mut w = BitWriter::new();
        encode_block(x, e, &mut w).unwrap();
        let (bytes, bits) = w.finish();
        let mut r = BitReader::new(&bytes, bits).unwrap();
        let mut out = vec![0i16; x.len()];
        decode_block(&mut r, &mut out).unwrap();
        assert_eq!(out, x);
        bits
    }

    #[test]
    fn every_effort_roundtrips_a_ramp_and_8_bit_data() {
        let ramp: Vec<i16> = (0..3000).map(|i| ((i * 37) % 60000 - 30000) as i16).collect();
        let eight: Vec<i16> = (0..3000).map(|i| (((i * 7) % 200) as i16 - 100) << 8).collect();
        for e in [Effort::Classic, Effort::Fast, Effort::Max] {
            roundtrip(&ramp, e);
            roundtrip(&eight, e);
            roundtrip(&[5; 10], e);
            roundtrip(&[i16::MIN, i16::MAX, i16::MIN], e);
            roundtrip(&[], e);
        }
        // Upscaled 8-bit data: the wasted 8 bits cost nothing.
        assert!(roundtrip(&eight, Effort::Max) < 3000 * 8);
    }

    #[test]
    fn max_picks_lpc_for_a_complex_wave_and_it_roundtrips() {
        let x: Vec<i16> =
            (0..4096).map(|i| ((i as f64 * 0.031).sin() * 9000.0 + (i as f64 * 0.173).sin() * 4000.0) as i16).collect();
        let mut w = BitWriter::new();
        encode_block(&x, Effort::Max, &mut w).unwrap();
        let (bytes, bits) = w.finish();
        assert_eq!(bytes[0] & 3, 3, "method 3 (LPC)");
        assert!(bits < roundtrip(&x, Effort::Fast));
        roundtrip(&x, Effort::Max);
    }

    #[test]
    fn escape_partition_for_full_scale_noise() {
        let x: Vec<i16> = (0..500u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 16) as i16).collect();
        roundtrip(&x, Effort::Max);
        roundtrip(&x, Effort::Fast);
    }
}
