//! Rice coding of the residuals: zigzag mapping, the parameter of a partition, the partitions
//! of a block, their exact cost and writer, and the cost estimates from residual sums that let
//! the encoder compare predictors without coding each.

use crate::bits::{BitWriter, low_mask};

// Called per sample from the other files: inlinable there (they may sit in other codegen units).
#[inline]
pub(super) fn zigzag(r: i64) -> u64 {
    ((r << 1) ^ (r >> 63)) as u64
}

#[inline]
pub(super) fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Longest unary quotient a decoder reads.
pub(super) const MAX_QUOTIENT: u64 = 1 << 24;

/// Cost in bits and parameter of one Rice partition (31 = escape).
pub(super) fn rice_choice(u: &[u64]) -> (u64, u32) {
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
        // The decoder reads quotients of at most 2^24 (a bound on corrupt input): a parameter
        // that would need a longer one is not a choice.
        if or >> k > MAX_QUOTIENT {
            continue;
        }
        let c = 5 + q[(k - lo) as usize] + (1 + u64::from(k)) * u.len() as u64;
        if c < best.0 {
            best = (c, k);
        }
    }
    best
}

#[inline]
pub(super) fn partitions(m: usize, po: u32) -> impl Iterator<Item = (usize, usize)> {
    let parts = 1usize << po;
    let len = m.div_ceil(parts).max(1);
    (0..parts).map(move |i| ((i * len).min(m), ((i + 1) * len).min(m)))
}

pub(super) fn rice_cost(u: &[u64], po: u32) -> u64 {
    partitions(u.len(), po).map(|(a, b)| rice_choice(&u[a..b]).0).sum()
}

pub(super) fn write_rice(w: &mut BitWriter, u: &[u64], po: u32) {
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
pub(super) fn rice_code(v: u64, k: u32) -> Option<(u64, u32)> {
    let q = v >> k;
    (q + 1 + u64::from(k) <= 56).then(|| ((1 << q) | ((v & low_mask(k)) << (q + 1)), q as u32 + 1 + k))
}

/// Writes the Rice codes of `part` with parameter `k < 31`, two per write where they fit.
pub(super) fn write_rice_part(w: &mut BitWriter, part: &[u64], k: u32) {
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
pub(super) const MAX_PO: u32 = 6;
/// Partitions at [`MAX_PO`].
pub(super) const FINE: usize = 1 << MAX_PO;

/// Sums of the zigzag residuals over the partitions of order [`MAX_PO`] (`m` residuals, `len`
/// to a partition): enough to estimate the Rice cost of every partition order.
#[derive(Clone, Copy)]
pub(super) struct Sums {
    pub(super) s: [u64; FINE],
    pub(super) m: usize,
    pub(super) len: usize,
}

/// [`Sums`] of `m` residuals, residual `j` being `u(j)`.
#[inline(always)]
pub(super) fn sums_of(m: usize, mut u: impl FnMut(usize) -> u64) -> Sums {
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
pub(super) fn estimate_part(sum: u64, n: u64) -> u64 {
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
pub(super) fn estimate_rice(sums: &Sums) -> (u64, u32) {
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
