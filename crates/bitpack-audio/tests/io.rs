//! A failing reader is reported as an I/O error naming the part being read, not as a bad header
//! or a truncated file.

use std::io::{self, Read};

use lore_bitpack_audio::container::{self, StreamDecoder};
use lore_bitpack_audio::{Audio, Error, Settings};

/// Gives `good` bytes of `data`, then fails every read with `kind`.
struct FailsAfter<'a> {
    data: &'a [u8],
    good: usize,
    kind: io::ErrorKind,
}

impl Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.good == 0 {
            return Err(io::Error::new(self.kind, "injected"));
        }
        let n = buf.len().min(self.good).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.good -= n;
        Ok(n)
    }
}

fn file() -> Vec<u8> {
    let samples: Vec<i16> = (0..3000).map(|i| ((i as f32 * 0.03).sin() * 9000.0) as i16).collect();
    let audio = Audio { sample_rate: 8000, channels: 1, bits: 16, samples };
    container::encode(&audio, Settings { chunk_frames: 1000, ..Settings::default() }).unwrap()
}

fn decode_all(r: impl Read) -> Result<usize, Error> {
    let mut d = StreamDecoder::new(r)?;
    let mut n = 0;
    while let Some(c) = d.next_chunk()? {
        n += c.len();
    }
    Ok(n)
}

#[test]
fn a_failing_read_is_an_io_error_of_the_part_being_read() {
    let data = file();
    assert_eq!(decode_all(&data[..]), Ok(3000));
    let kind = io::ErrorKind::PermissionDenied;
    let at_header = decode_all(FailsAfter { data: &data, good: 10, kind });
    assert_eq!(at_header, Err(Error::Io { what: "header", kind }));
    let e = decode_all(FailsAfter { data: &data, good: 40, kind: io::ErrorKind::Other }).unwrap_err();
    match &e {
        Error::InChunk { chunk: 0, source } => {
            assert_eq!(**source, Error::Io { what: "chunk", kind: io::ErrorKind::Other })
        }
        other => panic!("{other:?}"),
    }
    assert!(!e.to_string().contains("header"), "{e}");
    assert!(e.to_string().contains("I/O error while reading the chunk"), "{e}");
    // After the whole file, a failing read at the end check is still an I/O error.
    let at_end = decode_all(FailsAfter { data: &data, good: data.len(), kind });
    assert_eq!(at_end, Err(Error::Io { what: "end of the file", kind }));
    // A short file is still reported as truncated, not as I/O.
    let short = decode_all(&data[..data.len() - 3]);
    assert_eq!(short, Err(Error::UnexpectedEnd("trailer")));
}
