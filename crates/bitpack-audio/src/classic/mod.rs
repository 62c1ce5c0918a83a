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
//!
//! The module stacks as: [`Options`] and [`Packed`] (`options`) at the bottom; the bit-plane layout
//! (`layout`: samples to plane words and back) on them; the encoder (`encode`) and the decoder
//! (`decode`) each on the layout, never on each other.

mod decode;
mod encode;
mod layout;
mod options;

pub use decode::{unpack, unpack_from};
pub(crate) use encode::best_within;
pub use encode::{pack, pack_best, pack_into, packed_bits};
pub use options::{MAX_SAMPLES, Options, Packed};
