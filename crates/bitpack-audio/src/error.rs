//! The one error type of the crate.

use alloc::boxed::Box;

/// Everything that can go wrong while packing, unpacking or parsing.
///
/// Decoders never panic on bad input: every truncation or corruption is one of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bit stream ended before the decoder had read all it needed.
    #[error("bit stream ends early: needed bit {needed}, stream holds {len} bits")]
    Truncated {
        /// Index one past the last bit the decoder wanted.
        needed: u64,
        /// Length of the stream in bits.
        len: u64,
    },
    /// The caller claimed more bits than the byte buffer holds.
    #[error("{bits} bits claimed but the buffer holds only {bytes} bytes")]
    BitsBeyondBuffer {
        /// Claimed length in bits.
        bits: u64,
        /// Buffer length in bytes.
        bytes: usize,
    },
    /// A run in an RLE bit plane goes past the last sample.
    #[error("bit plane {plane}: run of {run} at sample {at} goes past the {samples} samples")]
    RunTooLong {
        /// Bit plane (0 = least significant).
        plane: u8,
        /// The run length read.
        run: u64,
        /// Sample index where the run starts.
        at: u64,
        /// Sample count of the block.
        samples: u64,
    },
    /// An Elias-gamma or Rice code is longer than any valid one.
    #[error("invalid variable-length code")]
    BadCode,
    /// Classic option flags outside 0..=3.
    #[error("invalid classic option {0} (expected 0..=3)")]
    BadOption(u8),
    /// More samples than the format can describe.
    #[error("too many samples: {0}")]
    TooLong(u64),
    /// A decoded sample does not fit in 16 bits.
    #[error("decoded sample out of the 16-bit range")]
    SampleRange,
    /// The file does not start with the `.bpk` magic.
    #[error("not a .bpk file (bad magic)")]
    BadMagic,
    /// The `.bpk` version is not one this crate reads.
    #[error("unsupported .bpk version {0}")]
    Version(u8),
    /// A header or table field is invalid.
    #[error("bad .bpk header: {0}")]
    Header(&'static str),
    /// A stored CRC32 does not match the data.
    #[error("CRC32 mismatch in {what}: stored {stored:#010x}, computed {computed:#010x}")]
    Crc {
        /// Which part: "header", "chunk table" or "chunk".
        what: &'static str,
        /// CRC32 stored in the file.
        stored: u32,
        /// CRC32 computed from the bytes.
        computed: u32,
    },
    /// An error inside one chunk of a `.bpk` file.
    #[error("chunk {chunk}: {source}")]
    InChunk {
        /// Chunk index (0-based).
        chunk: u32,
        /// What went wrong in it.
        source: Box<Error>,
    },
    /// A `.bpk` header claims more samples than the caller allows (see [`crate::container::Limits`]);
    /// refused before any sample is decoded or allocated.
    #[error("file claims {claimed} samples, more than the limit of {limit} samples")]
    OutputLimit {
        /// Samples (all channels together) the header claims.
        claimed: u64,
        /// The caller's limit.
        limit: u64,
    },
    /// An input claims more output per byte of its own size than the caller allows (see
    /// [`crate::container::Limits::max_ratio`]); refused before any sample is decoded.
    #[error(
        "file claims {claimed} samples, more than the limit of {limit} samples: {} bytes of PCM from a \
         {input_bytes}-byte file is over {max_ratio} times its size",
        .claimed.saturating_mul(2)
    )]
    RatioLimit {
        /// Samples (all channels together) the input claims.
        claimed: u64,
        /// The most samples the ratio allows for this input (`max_ratio × input_bytes / 2`).
        limit: u64,
        /// The input's size in bytes.
        input_bytes: u64,
        /// The caller's cap: bytes of 16-bit PCM per byte of input.
        max_ratio: u64,
    },
    /// A `.bpk` stream ended early (truncated file).
    #[error("file ends early (truncated?) in the {0}")]
    UnexpectedEnd(&'static str),
    /// A WAV file this crate cannot read.
    #[error("WAV: {0}")]
    Wav(&'static str),
    /// Reading the input failed for a reason other than its end (a disk error, a closed pipe,
    /// permission denied): the file may be fine, the read was not.
    ///
    /// Only the `std` readers ([`crate::container::StreamDecoder`]) do I/O, so the variant exists
    /// with the `std` feature; it keeps the [`std::io::ErrorKind`] rather than the
    /// [`std::io::Error`] so that `Error` stays `Clone + PartialEq` like the rest of the enum.
    #[cfg(feature = "std")]
    #[error("I/O error while reading the {what}: {kind}")]
    Io {
        /// The part of the file being read ("header", "chunk", "chunk table", "trailer").
        what: &'static str,
        /// What the operating system reported.
        kind: std::io::ErrorKind,
    },
}

impl Error {
    /// Wraps `self` as an error of chunk `chunk`.
    pub fn in_chunk(self, chunk: u32) -> Error {
        Error::InChunk { chunk, source: Box::new(self) }
    }
}
