#!/usr/bin/env bash
# Runs every test binary of lore-allocators under valgrind memcheck; fails on any error or leak.
# Usage (from the workspace root): crates/allocators/scripts/memcheck.sh [extra cargo args]
set -euo pipefail
cd "$(dirname "$0")/../../.."
supp=crates/allocators/valgrind.supp
bins=$(cargo test -p lore-allocators --no-run "$@" 2>&1 | sed -n 's/.*Executable [^(]*(\(.*\))$/\1/p')
[ -n "$bins" ] || { echo "memcheck: no test binaries found" >&2; exit 1; }
for bin in $bins; do
  echo "memcheck: $bin"
  valgrind --quiet --error-exitcode=1 --leak-check=full --suppressions="$supp" "$bin" --test-threads=2
done
echo "memcheck: all clean"
