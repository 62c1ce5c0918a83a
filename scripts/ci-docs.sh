#!/usr/bin/env bash
# CI's docs check: `cargo doc --no-deps` of every package of the workspace but lore-benches, with
# every feature on (as docs.rs builds them) and RUSTDOCFLAGS="-D warnings": broken intra-doc
# links, unclosed HTML tags, bare URLs, private items linked from public docs all fail.
# One package at a time, so that the report names every package that fails.
#
#   scripts/ci-docs.sh [--docsrs] [PACKAGE...]
#
# --docsrs: as docs.rs builds: the nightly toolchain and `--cfg docsrs` (which turns on the
# `doc_cfg` feature badges of crates that ask for them), in target/docsrs so that the stable
# build is not invalidated.
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain=()
if [ "${1:-}" = --docsrs ]; then
  shift
  toolchain=(+nightly)
  export RUSTDOCFLAGS="${RUSTDOCFLAGS:+$RUSTDOCFLAGS }--cfg docsrs"
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/docsrs"
fi
export RUSTDOCFLAGS="${RUSTDOCFLAGS:+$RUSTDOCFLAGS }-D warnings"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  mapfile -t packages < <(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] != "lore-benches":
        print(p["name"])
')
fi

failed=()
for p in "${packages[@]}"; do
  echo
  echo "==> cargo ${toolchain[*]} doc --no-deps --all-features -p $p (RUSTDOCFLAGS=$RUSTDOCFLAGS)"
  start=$SECONDS
  if cargo "${toolchain[@]}" doc --no-deps --all-features -p "$p"; then
    echo "<== $p: ok ($((SECONDS - start)) s)"
  else
    echo "<== $p: FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$p")
  fi
done

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "ci-docs: rustdoc warnings (denied) or errors in ${#failed[@]} package(s): ${failed[*]}" >&2
  exit 1
fi
echo "ci-docs: the docs of ${#packages[@]} packages build without a warning"
