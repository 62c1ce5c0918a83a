#!/usr/bin/env bash
# Runs the unit and integration tests of the given packages under AddressSanitizer on the
# installed nightly: the crates whose hot loops use `unsafe` outside the allocators (mazegen's
# uniform carver, bitpack-audio's SSE2 transposition, the prefetch hints). Separate target dir so
# the normal build is not invalidated. Usage (from the workspace root):
#   scripts/asan.sh -p lore-mazegen -p lore-bitpack-audio
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS=-Zsanitizer=address RUSTDOCFLAGS=-Zsanitizer=address \
  cargo +nightly test --target x86_64-unknown-linux-gnu --target-dir target/asan --lib --tests "$@"
