//! Word-at-a-time LSB-first bit I/O.
//!
//! Bits fill each byte from bit 0 up, the order of the reference `bit_w`/`bit_r`.

use alloc::vec::Vec;

use crate::Error;

/// Mask of the low `n` bits (`n <= 64`).
#[inline]
pub(crate) fn low_mask(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Appends bits, least significant first, 64 at a time.
#[derive(Debug, Default, Clone)]
pub struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    fill: u32,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bits written so far.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64 * 8 + u64::from(self.fill)
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the low `n` bits of `v` (`n` is capped at 64; higher bits of `v` are ignored).
    #[inline]
    pub fn put(&mut self, v: u64, n: u32) {
        let n = n.min(64);
        if n == 0 {
            return;
        }
        let v = v & low_mask(n);
        self.acc |= v << self.fill;
        let room = 64 - self.fill;
        if n >= room {
            self.bytes.extend_from_slice(&self.acc.to_le_bytes());
            self.acc = if room == 64 { 0 } else { v >> room };
            self.fill = n - room;
        } else {
            self.fill += n;
        }
    }

    /// Writes `v` (at least 1) as an Elias-gamma code in the reference's bit order:
    /// `floor(log2 v)` zeros, a one, then the bits below the leading one, highest first.
    #[inline]
    pub fn put_gamma(&mut self, v: u32) {
        debug_assert!(v != 0);
        let l = 31 - v.leading_zeros();
        let rev = if l == 0 { 0 } else { u64::from(v).reverse_bits() >> (64 - l) };
        self.put((1u64 << l) | (rev << (l + 1)), 2 * l + 1);
    }

    /// Writes `q` zeros then a one (unary code of `q`).
    pub fn put_unary(&mut self, mut q: u64) {
        while q >= 63 {
            self.put(0, 63);
            q -= 63;
        }
        self.put(1u64 << q, q as u32 + 1);
    }

    /// The bytes and the exact length in bits; bits past the length in the last byte are zero.
    pub fn finish(mut self) -> (Vec<u8>, u64) {
        let bits = self.len();
        let tail = self.fill.div_ceil(8) as usize;
        self.bytes.extend_from_slice(&self.acc.to_le_bytes()[..tail]);
        (self.bytes, bits)
    }
}

/// Elias-gamma cost in bits of `v >= 1`.
#[inline]
pub(crate) fn gamma_len(v: u64) -> u64 {
    2 * u64::from(63 - v.leading_zeros()) + 1
}

/// Reads bits, least significant first, never past `len` bits.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    data: &'a [u8],
    pos: u64,
    len: u64,
}

impl<'a> BitReader<'a> {
    /// A reader of the first `bits` bits of `data`.
    pub fn new(data: &'a [u8], bits: u64) -> Result<Self, Error> {
        if bits > data.len() as u64 * 8 {
            return Err(Error::BitsBeyondBuffer { bits, bytes: data.len() });
        }
        Ok(Self { data, pos: 0, len: bits })
    }

    /// Bits read so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Bits left.
    pub fn remaining(&self) -> u64 {
        self.len - self.pos
    }

    /// The next 64 bits without consuming them; bits past the end read as zero.
    #[inline]
    pub fn peek(&self) -> u64 {
        let byte = (self.pos / 8) as usize;
        let sh = (self.pos % 8) as u32;
        let mut w = if byte + 9 <= self.data.len() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.data[byte..byte + 8]);
            let lo = u64::from_le_bytes(b) >> sh;
            if sh == 0 { lo } else { lo | (u64::from(self.data[byte + 8]) << (64 - sh)) }
        } else {
            let mut b = [0u8; 9];
            let end = self.data.len().min(byte + 9);
            if byte < end {
                b[..end - byte].copy_from_slice(&self.data[byte..end]);
            }
            let mut lo = [0u8; 8];
            lo.copy_from_slice(&b[..8]);
            let lo = u64::from_le_bytes(lo) >> sh;
            if sh == 0 { lo } else { lo | (u64::from(b[8]) << (64 - sh)) }
        };
        let left = self.remaining();
        if left < 64 {
            w &= low_mask(left as u32);
        }
        w
    }

    /// Reads `n <= 64` bits.
    #[inline]
    pub fn take(&mut self, n: u32) -> Result<u64, Error> {
        if u64::from(n) > self.remaining() {
            return Err(Error::Truncated { needed: self.pos + u64::from(n), len: self.len });
        }
        let v = self.peek() & low_mask(n);
        self.pos += u64::from(n);
        Ok(v)
    }

    /// Reads one Elias-gamma code (values up to `2^32 - 1`).
    #[inline]
    pub fn gamma(&mut self) -> Result<u64, Error> {
        let w = self.peek();
        let l = w.trailing_zeros();
        if l > 31 {
            return Err(if self.remaining() <= u64::from(l) {
                Error::Truncated { needed: self.pos + u64::from(l) + 1, len: self.len }
            } else {
                Error::BadCode
            });
        }
        let n = 2 * l + 1;
        if u64::from(n) > self.remaining() {
            return Err(Error::Truncated { needed: self.pos + u64::from(n), len: self.len });
        }
        self.pos += u64::from(n);
        let low = (w >> (l + 1)) & low_mask(l);
        let rev = if l == 0 { 0 } else { low.reverse_bits() >> (64 - l) };
        Ok((1u64 << l) | rev)
    }

    /// Reads a unary code: zeros up to a one; returns the count of zeros.
    #[inline]
    pub fn unary(&mut self, limit: u64) -> Result<u64, Error> {
        let mut q = 0u64;
        loop {
            let w = self.peek();
            if w != 0 {
                let z = u64::from(w.trailing_zeros());
                q += z;
                self.pos += z + 1;
                break;
            }
            let step = self.remaining().min(64);
            if step < 64 {
                return Err(Error::Truncated { needed: self.len + 1, len: self.len });
            }
            q += 64;
            self.pos += 64;
            if q > limit {
                return Err(Error::BadCode);
            }
        }
        if q > limit { Err(Error::BadCode) } else { Ok(q) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_take_roundtrip_mixed_widths() {
        let mut w = BitWriter::new();
        let items: Vec<(u64, u32)> =
            (0..300u64).map(|i| ((i * 0x9E37_79B9) & low_mask((i % 65) as u32), (i % 65) as u32)).collect();
        for &(v, n) in &items {
            w.put(v, n);
        }
        let (bytes, bits) = w.finish();
        let mut r = BitReader::new(&bytes, bits).unwrap();
        for &(v, n) in &items {
            assert_eq!(r.take(n).unwrap(), v);
        }
        assert_eq!(r.remaining(), 0);
        assert!(matches!(r.take(1), Err(Error::Truncated { .. })));
    }

    #[test]
    fn gamma_matches_reference_bit_order() {
        // 5 = 101b: two zeros, a one, then 0 then 1 -> bits 0,0,1,0,1 (LSB first) = 0b10100.
        let mut w = BitWriter::new();
        w.put_gamma(5);
        let (bytes, bits) = w.finish();
        assert_eq!((bytes[0], bits), (0b1_0100, 5));
        let mut w = BitWriter::new();
        for v in [1u32, 2, 3, 4, 7, 8, 1000, u32::MAX] {
            w.put_gamma(v);
        }
        let (bytes, bits) = w.finish();
        let mut r = BitReader::new(&bytes, bits).unwrap();
        for v in [1u64, 2, 3, 4, 7, 8, 1000, u64::from(u32::MAX)] {
            assert_eq!(r.gamma().unwrap(), v);
        }
    }

    #[test]
    fn reader_refuses_claims_past_the_buffer_and_zero_gamma() {
        assert!(BitReader::new(&[0u8; 2], 17).is_err());
        let zeros = [0u8; 16];
        let mut r = BitReader::new(&zeros, 128).unwrap();
        assert_eq!(r.gamma(), Err(Error::BadCode));
        let mut r = BitReader::new(&zeros, 20).unwrap();
        assert!(matches!(r.gamma(), Err(Error::Truncated { .. })));
    }

    #[test]
    fn unary_roundtrip() {
        let mut w = BitWriter::new();
        for q in [0u64, 1, 62, 63, 64, 200] {
            w.put_unary(q);
        }
        let (bytes, bits) = w.finish();
        let mut r = BitReader::new(&bytes, bits).unwrap();
        for q in [0u64, 1, 62, 63, 64, 200] {
            assert_eq!(r.unary(1000).unwrap(), q);
        }
    }
}
