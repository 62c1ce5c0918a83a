//! Bit-plane transposition of 64 samples at a time: 64 16-bit values to 16 plane words (bit `i` of
//! word `p` is bit `p` of value `i`) and back.
//!
//! On x86-64 both directions use SSE2 (part of the x86-64 baseline, so no runtime detection):
//! `pmovmskb` gathers the top bit of 16 bytes at once, and doubling the bytes brings the next bit
//! up. Elsewhere a portable version transposes 8x8 bit blocks held in a `u64`.

/// Plane words of 64 values.
#[inline]
pub(crate) fn to_words(v: &[u16; 64]) -> [u64; 16] {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::to_words(v)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        to_words_portable(v)
    }
}

/// Values from 16 plane words (inverse of [`to_words`]).
#[inline]
pub(crate) fn from_words(w: &[u64; 16], out: &mut [u16; 64]) {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::from_words(w, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        from_words_portable(w, out)
    }
}

/// Running sums (wrapping) of `v` into `out`, starting from `prev`; returns the last sum.
#[inline]
pub(crate) fn prefix_sums(v: &[u16; 64], prev: i16, out: &mut [i16]) -> i16 {
    #[cfg(target_arch = "x86_64")]
    {
        if out.len() == 64 {
            return sse2::prefix_sums(v, prev, out);
        }
    }
    let mut prev = prev;
    for (o, &x) in out.iter_mut().zip(v) {
        prev = prev.wrapping_add(x as i16);
        *o = prev;
    }
    prev
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;

    #[inline]
    pub(super) fn prefix_sums(v: &[u16; 64], prev: i16, out: &mut [i16]) -> i16 {
        assert_eq!(out.len(), 64);
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read `v` (128 bytes) and the
        // stores write `out` (64 `i16`s, checked above), 16 bytes at a time at offsets below 128.
        unsafe { prefix_sums_sse2(v, prev, out) }
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn prefix_sums_sse2(v: &[u16; 64], prev: i16, out: &mut [i16]) -> i16 {
        let mut carry = _mm_set1_epi16(prev);
        for g in 0..8 {
            // SAFETY: see the caller; 8 values at 8g, g < 8.
            let mut x = unsafe { _mm_loadu_si128(v.as_ptr().add(8 * g).cast()) };
            x = _mm_add_epi16(x, _mm_slli_si128::<2>(x));
            x = _mm_add_epi16(x, _mm_slli_si128::<4>(x));
            x = _mm_add_epi16(x, _mm_slli_si128::<8>(x));
            x = _mm_add_epi16(x, carry);
            // SAFETY: as above, into `out`.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(8 * g).cast(), x) };
            // Lane 7 to every lane.
            carry = _mm_shuffle_epi32::<0xff>(_mm_shufflehi_epi16::<0xff>(x));
        }
        _mm_extract_epi16::<7>(carry) as i16
    }

    #[inline]
    pub(super) fn to_words(v: &[u16; 64]) -> [u64; 16] {
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are available; the only
        // memory they touch is read by the loads below, inside `v`.
        unsafe { to_words_sse2(v) }
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn to_words_sse2(v: &[u16; 64]) -> [u64; 16] {
        let mut w = [0u64; 16];
        let low = _mm_set1_epi16(0xff);
        for g in 0..4 {
            // SAFETY: `v` holds 64 `u16`s (128 bytes); the unaligned loads read bytes 32g..32g+32 of
            // it, in bounds for g < 4.
            let (a, b) = unsafe {
                let p = v.as_ptr().add(16 * g).cast::<__m128i>();
                (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)))
            };
            // Low and high bytes of the 16 values, in value order.
            let halves = [
                _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low)),
                _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8)),
            ];
            for (h, &x) in halves.iter().enumerate() {
                let mut x = x;
                for bit in (0..8).rev() {
                    let m = _mm_movemask_epi8(x) as u32 as u64;
                    w[8 * h + bit] |= m << (16 * g);
                    x = _mm_add_epi8(x, x);
                }
            }
        }
        w
    }

    #[inline]
    pub(super) fn from_words(w: &[u64; 16], out: &mut [u16; 64]) {
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics are available; they
        // touch no memory (values move in and out through registers).
        unsafe { from_words_sse2(w, out) }
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn from_words_sse2(w: &[u64; 16], out: &mut [u16; 64]) {
        // A 16x8 byte transpose: row p is plane word p (byte j = values 8j..8j+8), and x[j] gets
        // byte j of every plane, plane p in byte p.
        let r: [__m128i; 16] = core::array::from_fn(|p| _mm_cvtsi64_si128(w[p] as i64));
        let a: [__m128i; 8] = core::array::from_fn(|i| _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]));
        // b[2i] holds bytes 0..4 of planes 4i..4i+4 (one u32 per byte index), b[2i+1] bytes 4..8.
        let b: [__m128i; 8] = core::array::from_fn(|k| {
            let i = k / 2;
            if k % 2 == 0 {
                _mm_unpacklo_epi16(a[2 * i], a[2 * i + 1])
            } else {
                _mm_unpackhi_epi16(a[2 * i], a[2 * i + 1])
            }
        });
        // c[q][t]: bytes 2t and 2t+1 of planes 8q..8q+8, one u64 each.
        let c: [[__m128i; 4]; 2] = core::array::from_fn(|q| {
            let (lo0, hi0, lo1, hi1) = (b[4 * q], b[4 * q + 1], b[4 * q + 2], b[4 * q + 3]);
            [
                _mm_unpacklo_epi32(lo0, lo1),
                _mm_unpackhi_epi32(lo0, lo1),
                _mm_unpacklo_epi32(hi0, hi1),
                _mm_unpackhi_epi32(hi0, hi1),
            ]
        });
        for (t, (&low, &high)) in c[0].iter().zip(&c[1]).enumerate() {
            for (half, x) in [_mm_unpacklo_epi64(low, high), _mm_unpackhi_epi64(low, high)].into_iter().enumerate() {
                let j8 = 2 * t + half;
                // Bit 7 of byte p is bit 8 j8 + 7 of plane p: value 8 j8 + 7; doubling brings the
                // next value's bits up.
                let mut x = x;
                for j in (0..8).rev() {
                    out[8 * j8 + j] = _mm_movemask_epi8(x) as u16;
                    x = _mm_add_epi8(x, x);
                }
            }
        }
    }
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

/// Portable [`to_words`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn to_words_portable(v: &[u16; 64]) -> [u64; 16] {
    let mut w = [0u64; 16];
    for (j8, oct) in v.chunks_exact(8).enumerate() {
        let mut lanes = [0u64; 2];
        for (j, &x) in oct.iter().enumerate() {
            lanes[0] |= u64::from(x & 0xff) << (8 * j);
            lanes[1] |= u64::from(x >> 8) << (8 * j);
        }
        for (h, &lane) in lanes.iter().enumerate() {
            let t = transpose8(lane);
            for b in 0..8 {
                w[8 * h + b] |= ((t >> (8 * b)) & 0xff) << (8 * j8);
            }
        }
    }
    w
}

/// Portable [`from_words`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn from_words_portable(w: &[u64; 16], out: &mut [u16; 64]) {
    for (j8, oct) in out.chunks_exact_mut(8).enumerate() {
        oct.fill(0);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn values(seed: u32) -> [u16; 64] {
        core::array::from_fn(|i| ((i as u32 + seed).wrapping_mul(2_654_435_761) >> 13) as u16)
    }

    #[test]
    fn prefix_sums_wrap_like_the_scalar_loop() {
        for seed in 0..20 {
            let v = values(seed);
            let start = (seed as i16).wrapping_mul(4099);
            for len in [64, 63, 1] {
                let mut out = [0i16; 64];
                let last = prefix_sums(&v, start, &mut out[..len]);
                let mut prev = start;
                for (i, &x) in v[..len].iter().enumerate() {
                    prev = prev.wrapping_add(x as i16);
                    assert_eq!(out[i], prev);
                }
                assert_eq!(last, prev);
            }
        }
    }

    #[test]
    fn words_hold_the_bits_and_come_back() {
        for seed in 0..50 {
            let v = values(seed);
            for w in [to_words(&v), to_words_portable(&v)] {
                for (i, &x) in v.iter().enumerate() {
                    for (p, &wp) in w.iter().enumerate() {
                        assert_eq!((wp >> i) & 1, u64::from((x >> p) & 1));
                    }
                }
                let mut back = [0u16; 64];
                from_words(&w, &mut back);
                assert_eq!(back, v);
                let mut back = [0xffffu16; 64];
                from_words_portable(&w, &mut back);
                assert_eq!(back, v);
            }
        }
    }
}
