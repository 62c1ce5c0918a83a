#!/usr/bin/env bash
# Runs the lore-allocators tests under AddressSanitizer on the installed nightly, with freed
# blocks inside regions poisoned (`sanitize` feature). Separate target dir so the normal build
# is not invalidated. Usage (from the workspace root): crates/allocators/scripts/asan.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
RUSTFLAGS=-Zsanitizer=address RUSTDOCFLAGS=-Zsanitizer=address \
  cargo +nightly test -p lore-allocators --features sanitize \
  --target x86_64-unknown-linux-gnu --target-dir target/asan --lib --tests "$@"
