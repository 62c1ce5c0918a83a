#!/usr/bin/env python3
"""Makes the 24-bit corpus of docs/benchmarks.md from the 8/16-bit one (fetch.sh's wav/).

For each WAV in SRC it writes two 24-bit WAVE_FORMAT_EXTENSIBLE files (mask 0x4 mono, 0x3 stereo):
  DEST/wav24/NAME:  the samples moved up to 24 bits (16-bit << 8, 8-bit (u8 - 128) << 16): the
                    low bits are zero (wasted bits), as in a 16-bit master exported at 24 bits;
  DEST/wav24n/NAME: the same plus a noise floor in the low 8 bits, uniform in -128..127 from a
                    seeded 64-bit LCG (the same bytes on every run), clamped to 24 bits.

Usage (from the workspace root, after fetch.sh):
  python3 crates/bitpack-audio/corpus/to24.py target/bitpack-corpus/wav target/bitpack-corpus
"""
import os
import struct
import sys

GUID = b"\x01\x00\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
state = 0x853C49E6748FEA9B


def noise():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
    return (state >> 56) - 128


def samples(path):
    b = open(path, "rb").read()
    at, fmt = 12, None
    while at + 8 <= len(b):
        cid, n = b[at : at + 4], struct.unpack("<I", b[at + 4 : at + 8])[0]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", b[at + 8 : at + 24])
        if cid == b"data":
            _, ch, rate, _, _, bits = fmt
            data = b[at + 8 : at + 8 + n]
            if bits == 16:
                xs = [v << 8 for (v,) in struct.iter_unpack("<h", data[: len(data) // 2 * 2])]
            else:
                xs = [(v - 128) << 16 for v in data]
            return ch, rate, xs[: len(xs) // ch * ch]
        at += 8 + n + (n & 1)
    raise ValueError(f"{path}: no data chunk")


def write(path, ch, rate, ys):
    pcm = b"".join(struct.pack("<i", y)[:3] for y in ys)
    pad = b"\0" if len(pcm) & 1 else b""
    fmt = struct.pack("<HHIIHHHHI", 0xFFFE, ch, rate, rate * ch * 3, ch * 3, 24, 22, 24, 4 if ch == 1 else 3)
    body = b"WAVEfmt " + struct.pack("<I", 40) + fmt + GUID + b"data" + struct.pack("<I", len(pcm)) + pcm + pad
    open(path, "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)


src, dest = sys.argv[1], sys.argv[2]
for d in ("wav24", "wav24n"):
    os.makedirs(os.path.join(dest, d), exist_ok=True)
for name in sorted(os.listdir(src)):
    ch, rate, xs = samples(os.path.join(src, name))
    write(os.path.join(dest, "wav24", name), ch, rate, xs)
    write(os.path.join(dest, "wav24n", name), ch, rate, [max(-(1 << 23), min((1 << 23) - 1, x + noise())) for x in xs])
