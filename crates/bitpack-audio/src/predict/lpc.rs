//! Prediction: the fixed polynomial predictors of order 0 to 4 and linear prediction (LPC:
//! Welch window, autocorrelation, Levinson-Durbin recursion, quantized coefficients), and the
//! residual sums of each predictor that the Rice estimates need.

use alloc::vec;
use alloc::vec::Vec;

use super::rice::{Sums, sums_of, zigzag};

/// Zigzag-mapped residuals of the fixed predictor of `order` (0..=4) into `out`.
pub(super) fn residuals(x: &[i32], order: usize, out: &mut Vec<u64>) {
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
pub(super) fn predict(order: usize, at: impl Fn(usize) -> i64) -> i64 {
    match order {
        0 => 0,
        1 => at(1),
        2 => 2 * at(1) - at(2),
        3 => 3 * at(1) - 3 * at(2) + at(3),
        _ => 4 * at(1) - 6 * at(2) + 4 * at(3) - at(4),
    }
}

/// Largest LPC order (method 3).
pub(super) const MAX_LPC: usize = 12;
/// Coefficient precision in bits, sign included.
pub(super) const LPC_PREC: u32 = 15;

/// The LPC analysis of a block: for each order `p` in 1..=`max` (until the error vanishes),
/// the real coefficients and the prediction error the Levinson-Durbin recursion leaves.
pub(super) struct Analysis {
    pub(super) coefs: Vec<Vec<f64>>,
    pub(super) errors: Vec<f64>,
}

/// Welch window, autocorrelation (all lags in one pass), Levinson-Durbin recursion.
pub(super) fn lpc_analysis(x: &[i32], max: usize) -> Analysis {
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
pub(super) fn autocorrelation(w: &[f64], max: usize) -> Vec<f64> {
    (0..=max).map(|l| dot(&w[l..], &w[..w.len() - l])).collect()
}

/// `a · b` over their common length, in four interleaved sums (two SSE2 registers of two on
/// x86-64; the same sums in the same order elsewhere, so the result does not depend on it).
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
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
pub(super) fn log2_approx(x: f64) -> f64 {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let t = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52)) - 1.0;
    e as f64 + t * (1.346_555_3 - 0.346_555_3 * t)
}

pub(super) fn quantize(c: &[f64]) -> Option<(Vec<i32>, u32)> {
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
pub(super) fn lpc_predict(q: &[i32], shift: u32, at: impl Fn(usize) -> i64) -> i64 {
    let mut sum = 0i64;
    for (j, &c) in q.iter().enumerate() {
        sum += i64::from(c) * at(j + 1);
    }
    sum >> shift
}

/// Zigzag residual `j` of LPC `q` (order `P`) over `x`: predicts `x[j + P]`.
#[inline(always)]
pub(super) fn lpc_residual<const P: usize>(x: &[i32], q: &[i32; P], shift: u32, j: usize) -> u64 {
    let w = &x[j..j + P];
    let mut sum = 0i64;
    for k in 0..P {
        sum += i64::from(q[k]) * i64::from(w[P - 1 - k]);
    }
    zigzag(i64::from(x[j + P]) - (sum >> shift))
}

/// The [`Sums`] of LPC `q`'s residuals, and the residuals themselves into `out` when asked.
pub(super) fn lpc_pass<const P: usize>(x: &[i32], q: &[i32], shift: u32, out: Option<&mut Vec<u64>>) -> Sums {
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
pub(super) fn lpc_sums(x: &[i32], q: &[i32], shift: u32, out: Option<&mut Vec<u64>>) -> Sums {
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
pub(super) fn fixed_sums(x: &[i32], order: usize) -> Sums {
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
