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
//!
//! Wide blocks (24-bit files, `.bpk` version 2) have the same layout with 24-bit constants and
//! warm-up samples (25-bit for a stereo difference channel) and no method 1: the classic bit
//! planes are 16 wide. Their encoder searches as for 16-bit samples (`Classic` as `Fast`), and
//! never leaves a residual of 2^31 or more (the escape width field holds 31 at most).
//!
//! The files follow the ideas: `rice` (residual coding), `lpc` (the predictors), `block` (the
//! method choice and the block layout above).

mod block;
mod lpc;
mod rice;

pub(crate) use block::{WIDE, decode_block, decode_block_wide, encode_block, encode_block_wide};

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
