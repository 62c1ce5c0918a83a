#!/usr/bin/env bash
# Type-checks and lints every criterion bench (ours and the peers') without building or running
# them, so they do not rot. Run it before landing a change to a bench or to an API a bench uses.
# `cargo bench -p lore-benches --bench NAME` runs one for real.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo clippy -p lore-benches --benches "$@" -- -D warnings
