//! Samples to bit planes and back, after and before the delta and Gray steps; where the decoders
//! put the words of each plane.

use alloc::vec::Vec;

use super::options::Options;
use crate::bits::low_mask;
use crate::planes;

/// Bit planes of `samples` after the option's delta and Gray steps: plane `p` occupies words
/// `p * nw .. (p + 1) * nw` (`nw = ceil(n / 64)`, returned); bits past `n` are zero.
///
/// Gray coding works on whole planes: bit `p` of `u ^ (u >> 1)` is `u_p ^ u_(p+1)`, and `u = x +
/// 32768` flips plane 15.
#[inline(never)]
pub(super) fn to_planes(samples: &[i16], options: Options, planes: &mut Vec<u64>) -> usize {
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
pub(super) trait Planes {
    /// Stores the word.
    fn set(&mut self, p: usize, k: usize, w: u64);
}

/// Planes one after the other, `stride` words apart.
pub(super) struct PlaneMajor<'a> {
    pub(super) words: &'a mut [u64],
    pub(super) stride: usize,
}

impl Planes for PlaneMajor<'_> {
    #[inline(always)]
    fn set(&mut self, p: usize, k: usize, w: u64) {
        self.words[p * self.stride + k] = w;
    }
}

/// The 16 words of each block of 64 samples in the 64 samples' own place in the output (4 samples
/// per word), so that the output is the only buffer and each block turns into its samples in place.
pub(super) struct InPlace<'a> {
    pub(super) blocks: &'a mut [[i16; 64]],
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
pub(super) fn from_planes(planes: &[u64], stride: usize, options: Options, out: &mut [i16]) {
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
pub(super) fn from_planes_in_place(out: &mut [i16], options: Options) {
    let (gray, delta) = (options.gray(), options.delta());
    let mut prev = 0i16;
    for block in out.as_chunks_mut::<64>().0 {
        prev = planes::block_to_samples(block, gray, delta, prev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

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
}
