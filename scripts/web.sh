#!/usr/bin/env bash
# The showcase as a web page: every demo in the browser (WebGPU where the browser has it,
# WebGL2 otherwise), built into target/web/.
#
#   scripts/web.sh [--serve [PORT]]
#
# 1. builds lore-showcase's library for wasm32-unknown-unknown as a cdylib, in release mode
#    (toolchain: scripts/wasm-common.sh; target dir target/wasm);
# 2. runs wasm-bindgen's CLI, installed with `cargo install wasm-bindgen-cli --version X` when
#    missing, X being the wasm-bindgen of Cargo.lock (the two must match exactly);
# 3. writes target/web/: index.html, lore_showcase.js and lore_showcase_bg.wasm;
# 4. with --serve, serves target/web/ on http://127.0.0.1:PORT/ (default 8000) until stopped.
#
# The page's address picks the demo, seed and frames: /?demo=maze&seed=3 (see
# lore_render::web and docs/render.md, "Web").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
. scripts/wasm-common.sh

serve=0
port=8000
while [ $# -gt 0 ]; do
  case $1 in
    --serve)
      serve=1
      if [ $# -gt 1 ] && [[ $2 =~ ^[0-9]+$ ]]; then port=$2; shift; fi
      ;;
    *) echo "usage: scripts/web.sh [--serve [PORT]]" >&2; exit 2 ;;
  esac
  shift
done

# The wasm-bindgen of Cargo.lock, which the CLI must equal.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  echo "web.sh: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
bindgen=$(command -v wasm-bindgen || true)
[ -n "$bindgen" ] || bindgen=${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | cut -d' ' -f2)" != "$bindgen_version" ]; then
  echo "web.sh: installing wasm-bindgen-cli $bindgen_version (the version Cargo.lock holds)"
  # Not --locked: its lock file names a dependency version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$bindgen_version"
  bindgen=${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen
fi

use_wasm_toolchain
start=$SECONDS
echo "web.sh: building lore-showcase for $WASM_TARGET ($WASM_HOW)"
"${WASM_CARGO[@]}" rustc --locked -p lore-showcase --lib --release --crate-type cdylib "${WASM_ARGS[@]}"
wasm=$CARGO_TARGET_DIR/$WASM_TARGET/release/lore_showcase.wasm
out=target/web
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
"$bindgen" --target web --no-typescript --out-dir "$out.tmp" "$wasm"
cp apps/showcase/web/index.html "$out.tmp/"
rm -rf "$out"
mv "$out.tmp" "$out"
size=$(stat -c %s "$out/lore_showcase_bg.wasm")
gz=$(gzip -9 -c "$out/lore_showcase_bg.wasm" | wc -c)
echo "web.sh: $out/ written in $((SECONDS - start)) s; lore_showcase_bg.wasm $((size / 1024)) KiB ($((gz / 1024)) KiB gzipped)"

if [ "$serve" -eq 1 ]; then
  echo "web.sh: serving $out/ on http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
fi
