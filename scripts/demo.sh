#!/usr/bin/env bash
# Runs lore's showcase: a window with every demo when there is a display, otherwise each demo
# rendered headless into target/lore-shots/ (printed at the end). Flags are passed through,
# e.g. `scripts/demo.sh --demo bounce --frames 300` or `scripts/demo.sh --headless --out shots`.
#
# Installs a C compiler and linker (gcc, libc6-dev) when there is no `cc`: rustup installs none.
# When no graphics adapter can be found it installs Debian's software Vulkan driver
# (mesa-vulkan-drivers) if it may (root or passwordless sudo), and otherwise says what to
# install and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

# rustup installs no C compiler or linker; Rust needs one to link the showcase.
if ! command -v cc >/dev/null 2>&1; then
  echo "lore: no C compiler (cc) found; Rust needs one to link"
  ensure_packages gcc libc6-dev
fi
# The dungeon plays its sound through ALSA on Linux (cpal), whose headers the build needs.
if [ "$(uname -s)" = Linux ] && ! pkg-config --exists alsa 2>/dev/null; then
  ensure_packages pkg-config libasound2-dev
fi
cargo build --release -p lore-showcase
bin=${CARGO_TARGET_DIR:-target}/release/lore-showcase
[ -x "$bin" ] || { echo "lore: the build did not produce $bin" >&2; exit 1; }
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi
if ! "$bin" --probe >/dev/null 2>&1; then
  echo "lore: no graphics adapter found; the software Vulkan driver is needed"
  ensure_packages mesa-vulkan-drivers
  "$bin" --probe
fi
exec "$bin" "$@"
