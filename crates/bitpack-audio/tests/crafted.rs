//! Crafted `.bpk` files that are valid bit for bit but lie in their header are refused by every
//! decoder, in the chunk where the lie shows.

use lore_bitpack_audio::container::{self, Reader, StreamDecoder};
use lore_bitpack_audio::{Audio, Error, Settings};

#[test]
fn an_8_bit_header_over_16_bit_data_is_refused_by_every_decoder() {
    // Chunk 0 holds multiples of 256 (valid 8-bit), chunk 1 does not.
    let samples: Vec<i16> = (0..2000).map(|i| if i < 1000 { (i % 7) << 8 } else { i * 3 }).collect();
    let crafted = Audio { sample_rate: 8000, channels: 1, bits: 8, samples };
    let file = container::encode(&crafted, Settings { chunk_frames: 1000, ..Settings::default() }).unwrap();
    let refused = Error::Header("8-bit file decodes to samples with low bits set").in_chunk(1);
    assert_eq!(container::decode(&file), Err(refused.clone()));
    let r = Reader::new(&file).unwrap();
    assert!(r.decode_chunk(0).is_ok());
    assert_eq!(r.decode_chunk(1), Err(refused.clone()));
    let mut s = StreamDecoder::new(&file[..]).unwrap();
    assert!(s.next_chunk().unwrap().is_some());
    assert_eq!(s.next_chunk(), Err(refused));
    // The same samples under a 16-bit header are fine.
    let honest = Audio { bits: 16, ..crafted };
    let file = container::encode(&honest, Settings { chunk_frames: 1000, ..Settings::default() }).unwrap();
    assert_eq!(container::decode(&file).unwrap(), honest);
}
