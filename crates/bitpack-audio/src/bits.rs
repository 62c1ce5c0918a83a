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

/// Appends bits, least significant first.
///
/// The pending bits live in a 64-bit accumulator that is stored whole (eight bytes, unaligned) after
/// every write, so a write is a few register operations and one store with no data-dependent branch.
/// The byte buffer keeps eight bytes of slack past the last whole byte for that store.
#[derive(Debug, Default, Clone)]
pub struct BitWriter {
    /// Written bytes, then zero slack: `buf.len() >= byte + 8` after the first write.
    buf: Vec<u8>,
    /// Whole bytes written.
    byte: usize,
    /// Bits not yet in a whole byte (`fill < 8`), low first; higher bits are zero.
    acc: u64,
    fill: u32,
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `bits` bits before it grows.
    pub fn with_capacity(bits: u64) -> Self {
        let mut w = Self::default();
        w.reserve(bits);
        w
    }

    /// Bits written so far.
    pub fn len(&self) -> u64 {
        self.byte as u64 * 8 + u64::from(self.fill)
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Makes room for `bits` more bits without growing the buffer.
    #[inline]
    pub fn reserve(&mut self, bits: u64) {
        let need = self.byte + (bits / 8) as usize + 16;
        if need > self.buf.len() {
            self.grow(need);
        }
    }

    #[cold]
    fn grow(&mut self, need: usize) {
        let len = need.max(2 * self.buf.len()).max(64);
        self.buf.resize(len, 0);
    }

    /// Stores the accumulator and moves its whole bytes out.
    #[inline(always)]
    fn flush(&mut self) {
        if self.byte + 8 > self.buf.len() {
            self.grow(self.byte + 16);
        }
        self.buf[self.byte..self.byte + 8].copy_from_slice(&self.acc.to_le_bytes());
        let whole = self.fill & !7;
        self.byte += (whole / 8) as usize;
        // `whole <= 56` since `fill <= 63` here.
        self.acc >>= whole;
        self.fill &= 7;
    }

    /// Where the writer stands, to go back there with [`BitWriter::rewind`].
    #[inline]
    pub(crate) fn mark(&self) -> (usize, u64, u32) {
        (self.byte, self.acc, self.fill)
    }

    /// Drops everything written since `mark`.
    #[inline]
    pub(crate) fn rewind(&mut self, mark: (usize, u64, u32)) {
        (self.byte, self.acc, self.fill) = mark;
        // Stores the accumulator again over what was written after the mark.
        self.flush();
    }

    /// A writer on local variables for a hot loop, with room for `bits` bits; hand it back with
    /// [`BitWriter::resume`].
    #[inline]
    pub(crate) fn sink(&mut self, bits: u64) -> Sink<'_> {
        self.reserve(bits);
        Sink { buf: &mut self.buf, byte: self.byte, acc: self.acc, fill: self.fill }
    }

    /// Takes back the state of a [`Sink`].
    #[inline]
    pub(crate) fn resume(&mut self, state: (usize, u64, u32)) {
        (self.byte, self.acc, self.fill) = state;
    }

    /// Writes the low `n <= 56` bits of `v`; the bits of `v` from `n` up must be zero.
    #[inline(always)]
    pub(crate) fn put_small(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 56 && v >> n == 0);
        self.acc |= v << self.fill;
        self.fill += n;
        self.flush();
    }

    /// Writes the low `n` bits of `v` (`n` is capped at 64; higher bits of `v` are ignored).
    #[inline]
    pub fn put(&mut self, v: u64, n: u32) {
        let n = n.min(64);
        let v = v & low_mask(n);
        if n > 56 {
            self.put_small(v & 0xFFFF_FFFF, 32);
            self.put_small(v >> 32, n - 32);
        } else {
            self.put_small(v, n);
        }
    }

    /// Writes `v` (at least 1) as an Elias-gamma code in the reference's bit order:
    /// `floor(log2 v)` zeros, a one, then the bits below the leading one, highest first.
    #[inline]
    pub fn put_gamma(&mut self, v: u32) {
        debug_assert!(v != 0);
        let (code, n) = gamma_code(v);
        self.put(code, n);
    }

    /// Writes `q` zeros then a one (unary code of `q`).
    pub fn put_unary(&mut self, mut q: u64) {
        while q >= 56 {
            self.put_small(0, 56);
            q -= 56;
        }
        self.put_small(1u64 << q, q as u32 + 1);
    }

    /// Appends everything `other` holds, bit for bit.
    pub(crate) fn append(&mut self, other: &BitWriter) {
        self.reserve(other.len() + 64);
        for piece in other.buf[..other.byte].chunks(7) {
            let mut b = [0u8; 8];
            b[..piece.len()].copy_from_slice(piece);
            self.put_small(u64::from_le_bytes(b), 8 * piece.len() as u32);
        }
        self.put_small(other.acc, other.fill);
    }

    /// The bytes and the exact length in bits; bits past the length in the last byte are zero.
    pub fn finish(mut self) -> (Vec<u8>, u64) {
        let bits = self.len();
        // The accumulator's bytes were stored by the last write (zeros past `fill`).
        self.buf.truncate(self.byte + self.fill.div_ceil(8) as usize);
        (self.buf, bits)
    }
}

/// [`BitWriter`]'s state in local variables, writing into room reserved beforehand.
pub(crate) struct Sink<'a> {
    buf: &'a mut [u8],
    byte: usize,
    acc: u64,
    fill: u32,
}

impl Sink<'_> {
    /// Writes the low `n <= 56` bits of `v`; the bits of `v` from `n` up must be zero.
    #[inline(always)]
    pub(crate) fn put(&mut self, v: u64, n: u32) {
        debug_assert!(n <= 56 && v >> n == 0);
        self.acc |= v << self.fill;
        self.fill += n;
        self.buf[self.byte..self.byte + 8].copy_from_slice(&self.acc.to_le_bytes());
        let whole = self.fill & !7;
        self.byte += (whole / 8) as usize;
        self.acc >>= whole;
        self.fill &= 7;
    }

    /// Writes the low `n <= 64` bits of `v`; the bits of `v` from `n` up must be zero.
    #[inline(always)]
    pub(crate) fn put_long(&mut self, v: u64, n: u32) {
        if n > 56 {
            self.put(v & 0xFFFF_FFFF, 32);
            self.put(v >> 32, n - 32);
        } else {
            self.put(v, n);
        }
    }

    /// The state to hand back to the writer.
    #[inline]
    pub(crate) fn state(&self) -> (usize, u64, u32) {
        (self.byte, self.acc, self.fill)
    }
}

/// The Elias-gamma code of `v >= 1` in stream order and its length in bits: the code read highest
/// bit first is `v` itself in `2 floor(log2 v) + 1` bits, so the stream (lowest bit first) holds
/// those bits reversed.
#[inline(always)]
pub(crate) fn gamma_code(v: u32) -> (u64, u32) {
    if (v as usize) < GAMMA_CODES.len() {
        let e = GAMMA_CODES[v as usize];
        (u64::from(e & 0xFFFF), e >> 16)
    } else {
        gamma_code_wide(v)
    }
}

/// [`gamma_code`] without the table.
#[inline]
const fn gamma_code_wide(v: u32) -> (u64, u32) {
    let n = 2 * (31 - v.leading_zeros()) + 1;
    ((v as u64).reverse_bits() >> (64 - n), n)
}

/// Gamma codes of 0..256 for [`BitWriter::put_gamma`]: the code in the low 16 bits, its length
/// above (entry 0 unused).
const GAMMA_CODES: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut v = 1;
    while v < 256 {
        let (code, n) = gamma_code_wide(v as u32);
        t[v] = code as u32 | (n << 16);
        v += 1;
    }
    t
};

/// Elias-gamma cost in bits of `v >= 1`.
#[inline]
pub(crate) fn gamma_len(v: u64) -> u64 {
    2 * u64::from(63 - v.leading_zeros()) + 1
}

/// The 64 bits of `data` from bit `pos` on (bytes past the end read as zero).
#[inline(always)]
pub(crate) fn peek_at(data: &[u8], pos: u64) -> u64 {
    let byte = (pos / 8) as usize;
    let sh = (pos % 8) as u32;
    if byte + 9 <= data.len() {
        let lo = load_u64(data, byte) >> sh;
        // `(x << 1) << (63 - sh)` is `x << (64 - sh)`, and 0 for `sh == 0`.
        lo | ((u64::from(data[byte + 8]) << 1) << (63 - sh))
    } else {
        let mut b = [0u8; 16];
        if byte < data.len() {
            let end = data.len().min(byte + 9);
            b[..end - byte].copy_from_slice(&data[byte..end]);
        }
        let lo = load_u64(&b, 0) >> sh;
        lo | ((u64::from(b[8]) << 1) << (63 - sh))
    }
}

/// The little-endian `u64` at byte `at` (`at + 8 <= data.len()`).
#[inline(always)]
pub(crate) fn load_u64(data: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&data[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Reads bits, least significant first, never past `len` bits.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) pos: u64,
    pub(crate) len: u64,
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
        let mut w = peek_at(self.data, self.pos);
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
