#!/usr/bin/env bash
# Fuzzes every decoder target of lore-bitpack-audio for N seconds each (default 60), one process
# at a time, under AddressSanitizer with debug assertions and overflow checks (cargo-fuzz's
# defaults). Not part of CI; for a later session or a nightly job.
#
#   crates/bitpack-audio/scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz --locked`). Seeds come from
# this crate's encoders (benches/src/bin/bitpack_fuzz_seeds.rs) into fuzz/corpus/<target>/, which also keeps what
# the fuzzer finds between runs (ignored by git). Crashes land in fuzz/artifacts/<target>/: turn
# each into a regression test in the crate's tests before fixing it.
set -euo pipefail

secs="${1:-60}"
shift || true
crate="$(cd "$(dirname "$0")/.." && pwd)"
cd "$crate"

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: needs cargo-fuzz and a nightly toolchain: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

cargo run -q -p lore-benches --bin bitpack_fuzz_seeds -- "$crate/fuzz/corpus"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

mkdir -p fuzz/logs
failed=()
for t in "${targets[@]}"; do
    log="fuzz/logs/$t.log"
    echo "== $t: ${secs}s (log: fuzz/logs/$t.log)"
    # One worker only: the machine is shared. -timeout: a hang is a bug; -rss_limit_mb: so is an
    # absurd allocation.
    if cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=5 \
        -print_final_stats=1 >"$log" 2>&1; then
        runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
        cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)"
        echo "   ok: $runs executions, $cov"
    else
        echo "   FAILED: see $log and fuzz/artifacts/$t/" >&2
        grep -m3 -E 'panicked|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY' "$log" >&2 || true
        failed+=("$t")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: failures in: ${failed[*]}" >&2
    exit 1
fi
