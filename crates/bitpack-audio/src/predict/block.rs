//! The block format: choosing a method for one channel of one chunk (constant, classic bit
//! planes, fixed or LPC prediction) and writing and reading it (the layout is in the parent
//! module's docs).

use alloc::vec;
use alloc::vec::Vec;

use super::Effort;
use super::lpc::{
    LPC_PREC, MAX_LPC, fixed_sums, log2_approx, lpc_analysis, lpc_predict, lpc_sums, quantize, residuals,
};
use super::rice::{MAX_QUOTIENT, Sums, estimate_rice, partitions, rice_cost, sums_of, unzigzag, write_rice};
use crate::Error;
use crate::bits::{BitReader, BitWriter, load_u64, low_mask};
use crate::classic::{self, Options};

/// The predictor of a method 2 or 3 block.
enum Predictor {
    /// Fixed polynomial of this order (0..=4).
    Fixed(usize),
    /// Quantized LPC coefficients and their right shift.
    Lpc(Vec<i32>, u32),
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
fn residual_loop<const W: u32>(
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
                        if s < -(1 << (W - 1)) || s >= 1 << (W - 1) {
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
                    let q = r.unary(MAX_QUOTIENT)?;
                    (q << k) | r.take(k)?
                };
                let s = pred.next(x, i, unzigzag(u));
                if s < -(1 << (W - 1)) || s >= 1 << (W - 1) {
                    return Err(Error::SampleRange);
                }
                x[i] = s;
                i += 1;
            }
        }
    }
    Ok(())
}

/// Reads the predictor (method 2 or 3) and the residuals of a block of `n` samples of `W` bits
/// each (16 for the 8/16-bit blocks, 24 or 25 for the wide ones) and rebuilds the samples.
fn decode_predicted<const W: u32>(r: &mut BitReader<'_>, method: u64, n: usize) -> Result<Vec<i64>, Error> {
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
        *s = sign_extend(r.take(W)?, W);
    }
    let po = r.take(4)? as u32;
    match (&lpc, order) {
        (Some((q, qs)), _) => residual_loop::<W>(r, &mut x, order, po, Lpc(q, *qs))?,
        (None, 0) => residual_loop::<W>(r, &mut x, 0, po, Fixed::<0>([0; 4]))?,
        (None, 1) => {
            let p = Fixed::<1>::new(&x);
            residual_loop::<W>(r, &mut x, 1, po, p)?
        }
        (None, 2) => {
            let p = Fixed::<2>::new(&x);
            residual_loop::<W>(r, &mut x, 2, po, p)?
        }
        (None, 3) => {
            let p = Fixed::<3>::new(&x);
            residual_loop::<W>(r, &mut x, 3, po, p)?
        }
        (None, _) => {
            let p = Fixed::<4>::new(&x);
            residual_loop::<W>(r, &mut x, 4, po, p)?
        }
    }
    Ok(x)
}

/// The low `width` bits of `v` as a two's complement number.
#[inline]
fn sign_extend(v: u64, width: u32) -> i64 {
    ((v << (64 - width)) as i64) >> (64 - width)
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
            let x = decode_predicted::<16>(r, method, n)?;
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

/// Widths of the wide blocks: 24-bit samples, and the 25-bit difference of two of them.
pub(crate) const WIDE: u32 = 24;

/// Encodes one channel block of `x`, samples of `width` bits (`WIDE` or `WIDE + 1`), at
/// `effort`. The layout is the 16-bit one with `width`-bit constants and warm-up samples;
/// there is no classic method (its bit planes are 16 wide), so `Classic` searches as `Fast`.
pub(crate) fn encode_block_wide(x: &[i32], width: u32, effort: Effort, w: &mut BitWriter) -> Result<(), Error> {
    let n = x.len();
    if n > classic::MAX_SAMPLES {
        return Err(Error::TooLong(n as u64));
    }
    debug_assert!(width == WIDE || width == WIDE + 1);
    if n > 0 && x.iter().all(|&s| s == x[0]) {
        w.put(0, 2);
        w.put(0, 4);
        w.put(u64::from(x[0] as u32) & low_mask(width), width);
        return Ok(());
    }
    let or = x.iter().fold(0u32, |a, &s| a | s as u32);
    let shift = if or == 0 { 0 } else { or.trailing_zeros().min(15) };
    let shifted: Vec<i32> = x.iter().map(|&s| s >> shift).collect();
    let mut best = if effort == Effort::Max && n > 4 {
        search_max(&shifted)
    } else {
        let mut u = Vec::with_capacity(n);
        let mut best: Option<(u64, Predictor, u32, Vec<u64>)> = None;
        for o in 0..=2usize.min(n) {
            residuals(&shifted, o, &mut u);
            let c = 3 + u64::from(width) * o as u64 + 4 + rice_cost(&u, 2);
            if best.as_ref().is_none_or(|b| c < b.0) {
                best = Some((c, Predictor::Fixed(o), 2, core::mem::take(&mut u)));
            }
        }
        best.unwrap_or((0, Predictor::Fixed(0), 0, Vec::new()))
    };
    // An escaped partition stores its width in 5 bits: residuals of 2^31 or more (a wild LPC
    // on crafted noise) fall back to order 0, whose residuals fit in `width + 1` bits.
    if best.3.iter().fold(0, |a, &u| a | u) >> 31 != 0 {
        let mut u = Vec::with_capacity(n);
        residuals(&shifted, 0, &mut u);
        best = (0, Predictor::Fixed(0), 0, u);
    }
    let (_, predictor, po, u) = best;
    match predictor {
        Predictor::Fixed(o) => {
            w.put(2, 2);
            w.put(u64::from(shift), 4);
            w.put(o as u64, 3);
            for &s in &shifted[..o] {
                w.put(u64::from(s as u32) & low_mask(width), width);
            }
        }
        Predictor::Lpc(q, qs) => {
            w.put(3, 2);
            w.put(u64::from(shift), 4);
            w.put(q.len() as u64, 4);
            w.put(u64::from(LPC_PREC - 1), 4);
            w.put(u64::from(qs), 5);
            for &c in &q {
                w.put(u64::from(c as u32) & low_mask(LPC_PREC), LPC_PREC);
            }
            for &s in &shifted[..q.len()] {
                w.put(u64::from(s as u32) & low_mask(width), width);
            }
        }
    }
    write_rice(w, &u, po);
    Ok(())
}

/// Decodes one wide channel block (samples of `width` bits: `WIDE` or `WIDE + 1`) into `out`.
pub(crate) fn decode_block_wide(r: &mut BitReader<'_>, out: &mut [i32], width: u32) -> Result<(), Error> {
    let n = out.len();
    let method = r.take(2)?;
    let shift = r.take(4)? as u32;
    match method {
        0 => out.fill(sign_extend(r.take(width)?, width) as i32),
        // Classic bit planes hold 16-bit samples only.
        1 => return Err(Error::BadCode),
        _ => {
            let x = if width == WIDE {
                decode_predicted::<WIDE>(r, method, n)?
            } else {
                decode_predicted::<{ WIDE + 1 }>(r, method, n)?
            };
            for (o, &s) in out.iter_mut().zip(&x) {
                *o = s as i32;
            }
        }
    }
    let (lo, hi) = (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1);
    if shift > 0 {
        for s in out.iter_mut() {
            let v = i64::from(*s) << shift;
            if v < lo || v > hi {
                return Err(Error::SampleRange);
            }
            *s = v as i32;
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
