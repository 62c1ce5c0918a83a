//! Bit-plane transposition of 64 samples at a time: 64 16-bit values to 16 plane words (bit `i` of
//! word `p` is bit `p` of value `i`) and back.
//!
//! On x86-64 both directions use SSE2 (part of the x86-64 baseline, so no runtime detection). To
//! planes: `pmovmskb` gathers the top bit of 16 bytes at once, and doubling the bytes brings the
//! next bit up. Back to values ([`words_to_samples`], the decoder's step): planes `p` and `p + 8`
//! share a register, three rounds of masked shift-and-swap between registers transpose the 8x8 bit
//! blocks, and byte interleaving plus an 8x8 transpose of 16-bit lanes put the values in order,
//! with the Gray undo before and the running sums after, all in registers. Elsewhere a portable version transposes
//! 8x8 bit blocks held in a `u64`.

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

/// One block's samples from its 16 plane words, with the Gray undo (`gray`: value bits are the
/// xor of plane bits `p..16`, plane 15 flipped) and the running sums (`delta`: from `prev`) done on
/// the way; returns the last of the 64 values written (the next block's predecessor).
///
/// On x86-64 the words go into vector registers, and the samples come out of them, without a trip
/// through memory between the steps (a 16-byte load of values just stored as 8- or 2-byte pieces
/// waits for those stores to retire: that stall was most of the old transposition's time).
#[inline]
pub(crate) fn words_to_samples(w: &[u64; 16], gray: bool, delta: bool, prev: i16, out: &mut [i16; 64]) -> i16 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the 16 words of `w` and the
        // stores write the 64 values of `out`.
        unsafe { sse2::words_to_samples(w.as_ptr().cast(), gray, delta, prev, out.as_mut_ptr()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        words_to_samples_portable(*w, gray, delta, prev, out)
    }
}

/// [`words_to_samples`] with the words held in the block itself (word `p` in values `4p..4p + 4`,
/// least significant first), overwritten by the samples.
#[inline]
pub(crate) fn block_to_samples(block: &mut [i16; 64], gray: bool, delta: bool, prev: i16) -> i16 {
    #[cfg(target_arch = "x86_64")]
    {
        let at = block.as_mut_ptr();
        // SAFETY: as above; every word is loaded before the first store (the loads happen in
        // `words_to_samples`' first step, the stores in its last).
        unsafe { sse2::words_to_samples(at.cast_const().cast(), gray, delta, prev, at) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let w: [u64; 16] = core::array::from_fn(|p| {
            let q = &block[4 * p..4 * p + 4];
            u64::from(q[0] as u16)
                | u64::from(q[1] as u16) << 16
                | u64::from(q[2] as u16) << 32
                | u64::from(q[3] as u16) << 48
        });
        words_to_samples_portable(w, gray, delta, prev, block)
    }
}

/// Portable [`words_to_samples`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn words_to_samples_portable(mut w: [u64; 16], gray: bool, delta: bool, prev: i16, out: &mut [i16; 64]) -> i16 {
    if gray {
        for p in (0..15).rev() {
            w[p] ^= w[p + 1];
        }
        w[15] = !w[15];
    }
    let mut v = [0u16; 64];
    from_words_portable(&w, &mut v);
    if delta {
        prefix_sums(&v, prev, out)
    } else {
        for (o, &x) in out.iter_mut().zip(&v) {
            *o = x as i16;
        }
        out[63]
    }
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

    /// See [`super::words_to_samples`]: the 16 words are read from `w` (8 bytes each, unaligned)
    /// before anything is written to the 64 values at `out`.
    ///
    /// # Safety
    /// `w` must be valid for reading 128 bytes and `out` for writing 64 `i16`s (they may overlap).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn words_to_samples(w: *const u64, gray: bool, delta: bool, prev: i16, out: *mut i16) -> i16 {
        // SAFETY: the caller's promise; word p at byte 8p < 128.
        let mut r: [__m128i; 16] = core::array::from_fn(|p| unsafe { _mm_loadl_epi64(w.add(p).cast()) });
        if gray {
            for p in (0..15).rev() {
                r[p] = _mm_xor_si128(r[p], r[p + 1]);
            }
            r[15] = _mm_xor_si128(r[15], _mm_set1_epi32(-1));
        }
        // Bit level first, on the plane words: planes p and p + 8 share a register, and the 8x8
        // bit blocks (rows: 8 planes, columns: the 8 values of one byte) are transposed across
        // registers by swapping bits between rows p and p + s (s = 1, 2, 4): bit c + s of row p
        // with bit c of row p + s, for c with bit s clear. Afterwards byte j of register p holds
        // value 8j + p: its low byte in the low half, its high byte in the high half.
        let mut x: [__m128i; 8] = core::array::from_fn(|p| _mm_unpacklo_epi64(r[p], r[p + 8]));
        macro_rules! swap {
            ($s:literal, $m:literal, $($p:literal)*) => {$(
                let t = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64::<$s>(x[$p]), x[$p + $s]), _mm_set1_epi8($m));
                x[$p + $s] = _mm_xor_si128(x[$p + $s], t);
                x[$p] = _mm_xor_si128(x[$p], _mm_slli_epi64::<$s>(t));
            )*};
        }
        swap!(1, 0x55, 0 2 4 6);
        swap!(2, 0x33, 0 1 4 5);
        swap!(4, 0x0f, 0 1 2 3);
        // The two halves' bytes interleaved: lane j of a[p] is value 8j + p.
        let mut a: [__m128i; 8] = core::array::from_fn(|p| _mm_unpacklo_epi8(x[p], _mm_unpackhi_epi64(x[p], x[p])));
        if delta {
            // Running sums in this layout: a[p] = a[0] + ... + a[p] makes lane j the sum of values
            // 8j ..= 8j + p; lane j of `c` is `prev` plus all the values before 8j (the sums of the
            // groups before j, from a[7]'s lanes).
            for p in 1..8 {
                a[p] = _mm_add_epi16(a[p], a[p - 1]);
            }
            let mut c = _mm_slli_si128::<2>(a[7]);
            c = _mm_add_epi16(c, _mm_slli_si128::<2>(c));
            c = _mm_add_epi16(c, _mm_slli_si128::<4>(c));
            c = _mm_add_epi16(c, _mm_slli_si128::<8>(c));
            c = _mm_add_epi16(c, _mm_set1_epi16(prev));
            for v in &mut a {
                *v = _mm_add_epi16(*v, c);
            }
        }
        // An 8x8 transpose of 16-bit lanes, so that lane p of o[j] is value 8j + p. t[2i] holds
        // lanes 0..4 of a[2i] and a[2i + 1] interleaved, t[2i + 1] lanes 4..8.
        let t: [__m128i; 8] = core::array::from_fn(|k| {
            let (u, v) = (a[k / 2 * 2], a[k / 2 * 2 + 1]);
            if k % 2 == 0 { _mm_unpacklo_epi16(u, v) } else { _mm_unpackhi_epi16(u, v) }
        });
        // u[k] (k < 4): lane p < 4 of values 8j + p for j = 2k, 2k + 1; u[4 + k]: p = 4..8.
        let u: [__m128i; 8] = core::array::from_fn(|k| {
            let base = if k < 4 { 0 } else { 4 };
            let (m, n) = (t[base + (k % 4) / 2], t[base + 2 + (k % 4) / 2]);
            if k % 2 == 0 { _mm_unpacklo_epi32(m, n) } else { _mm_unpackhi_epi32(m, n) }
        });
        let o: [__m128i; 8] = core::array::from_fn(|j| {
            let (m, n) = (u[j / 2], u[4 + j / 2]);
            if j % 2 == 0 { _mm_unpacklo_epi64(m, n) } else { _mm_unpackhi_epi64(m, n) }
        });
        for (j8, &v) in o.iter().enumerate() {
            // SAFETY: the caller's promise; values 8 j8 .. 8 j8 + 8, j8 < 8.
            unsafe { _mm_storeu_si128(out.add(8 * j8).cast(), v) };
        }
        _mm_extract_epi16::<7>(o[7]) as i16
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
                let mut back = [0i16; 64];
                words_to_samples(&w, false, false, 0, &mut back);
                assert_eq!(back.map(|x| x as u16), v);
                let mut back = [0xffffu16; 64];
                from_words_portable(&w, &mut back);
                assert_eq!(back, v);
            }
        }
    }

    #[test]
    fn samples_undo_gray_and_delta_in_every_layout() {
        for seed in 0..50 {
            let w: [u64; 16] = core::array::from_fn(|p| {
                let a = u64::from(values(seed + p as u32)[p]);
                a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (a << 29)
            });
            let prev = (seed as i16).wrapping_mul(-7919);
            for (gray, delta) in [(false, false), (false, true), (true, false), (true, true)] {
                // The definition, one value at a time.
                let mut want = [0i16; 64];
                let mut acc = prev;
                for (i, o) in want.iter_mut().enumerate() {
                    let g = (0..16).fold(0u16, |x, p| x | (((w[p] >> i) & 1) as u16) << p);
                    let mut u = g;
                    if gray {
                        for s in 1..16 {
                            u ^= g >> s;
                        }
                        u ^= 0x8000;
                    }
                    acc = if delta { acc.wrapping_add(u as i16) } else { u as i16 };
                    *o = acc;
                }
                let mut got = [0i16; 64];
                assert_eq!(words_to_samples(&w, gray, delta, prev, &mut got), want[63]);
                assert_eq!(got, want, "gray {gray} delta {delta}");
                let mut got = [0i16; 64];
                assert_eq!(words_to_samples_portable(w, gray, delta, prev, &mut got), want[63]);
                assert_eq!(got, want);
                // The words held in the block itself, 4 values per word.
                let mut block: [i16; 64] = core::array::from_fn(|i| (w[i / 4] >> (16 * (i % 4))) as i16);
                assert_eq!(block_to_samples(&mut block, gray, delta, prev), want[63]);
                assert_eq!(block, want);
            }
        }
    }
}
