#!/usr/bin/env bash
# Every library crate checked for wasm32-unknown-unknown (the browser's target), so that a
# dependency or an API without a web build is found on every run, not when someone first
# tries lore in a page:
#
#   scripts/ci-wasm.sh
#
# One `cargo check` of all the libraries together, with their default features plus
# broadphase's `parallel` (one thread in a browser) and lore-render's `window` (the web
# runner). A check does not link; scripts/web.sh builds and links the showcase's page. In the
# release profile, so that the build scripts and proc macros it compiles for the host are the
# ones scripts/web.sh's release build reuses. The toolchain: scripts/wasm-common.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
. scripts/wasm-common.sh

libs=(lore-geom lore-collide2d lore-broadphase lore-mazegen lore-bitpack-audio lore-allocators lore-reflect
  lore-reflect-egui lore-pixel-collide lore-render)

use_wasm_toolchain
packages=()
for p in "${libs[@]}"; do packages+=(-p "$p"); done
echo "ci-wasm: cargo check --lib for $WASM_TARGET ($WASM_HOW): ${libs[*]}"
"${WASM_CARGO[@]}" check --locked --release --lib "${WASM_ARGS[@]}" "${packages[@]}" \
  --features lore-broadphase/parallel,lore-render/window
echo "ci-wasm: every library crate checks for $WASM_TARGET"
