#!/usr/bin/env bash
# Compiles every criterion bench (ours and the peers') without running them, so they do not
# rot. Run it before you stop when you touched a crate's public API.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p lore-benches --no-run "$@"
