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
    /// A sample does not fit in its bit depth (16 bits for the classic codec and the `i16` path,
    /// the file's bits for the `i32` path).
    #[error("sample out of the range of its bit depth")]
    SampleRange,
    /// Audio of more than 16 bits asked for as `i16` samples: use the `i32` path
    /// ([`crate::container::decode_i32`], [`crate::wav::read_i32`]).
    #[error("{bits}-bit audio does not fit i16 samples: use the i32 path")]
    NeedsI32 {
        /// The audio's bits per sample.
        bits: u8,
    },
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
        .claimed.saturating_mul(u64::from(*.sample_bytes))
    )]
    RatioLimit {
        /// Samples (all channels together) the input claims.
        claimed: u64,
        /// The most samples the ratio allows for this input (`max_ratio × input_bytes /
        /// sample_bytes`).
        limit: u64,
        /// The input's size in bytes.
        input_bytes: u64,
        /// The caller's cap: bytes of PCM per byte of input.
        max_ratio: u64,
        /// Bytes of PCM a sample counts for: 2 for 8- and 16-bit files, 3 for 24-bit ones.
        sample_bytes: u8,
    },
    /// A `.bpk` stream ended early (truncated file).
    #[error("file ends early (truncated?) in the {0}")]
    UnexpectedEnd(&'static str),
    /// A WAV file this crate cannot read (a broken or missing chunk).
    #[error("WAV: {0}")]
    Wav(&'static str),
    /// A well-formed WAV file in a format this crate does not handle, or a layout it cannot
    /// write.
    #[error("WAV: {0}")]
    WavUnsupported(WavUnsupported),
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

/// What a WAV file asks for that this crate does not handle (the reader) or a WAV file cannot
/// describe (the writer): [`Error::WavUnsupported`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WavUnsupported {
    /// IEEE float samples (format 3, or its extensible sub-format): lossless integer PCM only.
    #[error("floating-point samples are not supported (integer PCM only)")]
    Float,
    /// A format code other than PCM (1), float (3) or extensible (0xFFFE), or an extensible
    /// sub-format other than PCM and float: compressed WAV (ADPCM, mu-law...).
    #[error("format code {0:#06x} is not supported (integer PCM only)")]
    Encoding(u16),
    /// A channel count outside 1 ..= 8.
    #[error("{0} channels: 1 to 8 are supported")]
    Channels(u16),
    /// Bits per sample other than 8, 16, 24 or 32.
    #[error("{0} bits per sample: 8, 16, 24 and 32 are supported")]
    Bits(u16),
    /// A block align (bytes per frame) other than channels × bytes per sample.
    #[error("block align {found}, expected {expected} (channels × bytes per sample)")]
    BlockAlign {
        /// Channels × bytes per sample.
        expected: u32,
        /// What the file says.
        found: u16,
    },
    /// An extensible header whose valid bits per sample are 0 or more than its container's.
    #[error("{valid} valid bits in a {container}-bit sample")]
    ValidBits {
        /// Valid bits per sample.
        valid: u16,
        /// Bits per sample of the container.
        container: u16,
    },
}

impl Error {
    /// Wraps `self` as an error of chunk `chunk`.
    pub fn in_chunk(self, chunk: u32) -> Error {
        Error::InChunk { chunk, source: Box::new(self) }
    }
}
