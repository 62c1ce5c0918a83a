#!/usr/bin/env bash
# CI's fuzz smoke run: every target of fuzz/ (bitpack-audio's decoders, lore-reflect's XML
# loader and text forms) for SECONDS each (default 60), one at a time, under AddressSanitizer
# with debug assertions (cargo-fuzz's defaults). Fails, naming the targets, on any crash, leak,
# timeout or out-of-memory; the input that did it is in fuzz/artifacts/<target>/.
#
#   scripts/ci-fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain; installs cargo-fuzz from the crate registry when it is missing
# (`cargo install cargo-fuzz --locked`, about 2 minutes on 2 cores). Seeds: the
# checked-in fuzz/seeds/<target>/ (the bitpack ones made by the crate's own encoders with
# `cargo run -p lore-benches --bin bitpack_fuzz_seeds -- DIR`); what the fuzzer finds is kept in fuzz/corpus/<target>/
# (ignored by git), so repeated local runs go deeper.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
shift || true
case $secs in
  '' | *[!0-9]*) echo "ci-fuzz: SECONDS must be a number, not '$secs'" >&2; exit 2 ;;
esac

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "ci-fuzz: needs a nightly toolchain: rustup toolchain install nightly" >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "ci-fuzz: installing cargo-fuzz (cargo install cargo-fuzz --locked)"
  if ! cargo install cargo-fuzz --locked; then
    echo "ci-fuzz: could not install cargo-fuzz (cargo install cargo-fuzz --locked)" >&2
    exit 2
  fi
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
[ ${#targets[@]} -gt 0 ] || { echo "ci-fuzz: no fuzz targets found in fuzz/" >&2; exit 1; }

# Its own target dir (even when CARGO_TARGET_DIR is set): sanitizer builds share nothing with
# the normal ones. Every target built at once first, so a build error stops here, clearly.
fuzz_target_dir=fuzz/target
echo "==> building the fuzz targets (cargo +nightly fuzz build)"
cargo +nightly fuzz build --target-dir "$fuzz_target_dir"

mkdir -p fuzz/target/logs
failed=()
for t in "${targets[@]}"; do
  log="fuzz/target/logs/$t.log"
  corpus=("fuzz/corpus/$t")
  mkdir -p "fuzz/corpus/$t"
  if [ -d "fuzz/seeds/$t" ]; then corpus+=("fuzz/seeds/$t"); fi
  echo "==> $t: ${secs} s (log: $log)"
  # One worker (CI runners and the dev machine are small). -timeout: a hang is a bug;
  # -rss_limit_mb: so is an absurd allocation on a small input.
  if (cargo +nightly fuzz run --target-dir "$fuzz_target_dir" "$t" "${corpus[@]}" -- -max_total_time="$secs" \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1) >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "<== $t: ok, $runs executions, $cov"
  else
    echo "<== $t: FAILED, see $log and fuzz/artifacts/$t/" >&2
    grep -m5 -E 'panicked|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY|error(\[E[0-9]+\])?:' "$log" >&2 || true
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "ci-fuzz: failures in: ${failed[*]}" >&2
  exit 1
fi
echo "ci-fuzz: all ${#targets[@]} targets ran ${secs} s each without a failure"
