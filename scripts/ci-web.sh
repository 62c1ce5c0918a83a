#!/usr/bin/env bash
# The showcase's page tested in a real browser: built with scripts/web.sh (target/web/), the
# same demos rendered natively headless (target/web-test/native/), then scripts/web-test.py
# drives Debian's Chromium (installed when missing) through them: frames counted, no console
# error, a key press that reaches the demo, screenshots compared with the native frames.
#
#   scripts/ci-web.sh [--frames N]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

frames=60
case ${1:-} in
  --frames) frames=$2 ;;
  '') ;;
  *) echo "usage: scripts/ci-web.sh [--frames N]" >&2; exit 2 ;;
esac
demos=(dungeon slide maze pixels swarm platformer)

ensure_packages chromium python3
scripts/web.sh
native=target/web-test/native
rm -rf "$native"
demo_args=()
for d in "${demos[@]}"; do demo_args+=(--demo "$d"); done
cargo run --locked -q -p lore-showcase -- --headless --frames "$frames" --seed 1 --out "$native" "${demo_args[@]}"
python3 scripts/web-test.py --frames "$frames" --seed 1 --shots "$native" "${demo_args[@]}"
