#!/bin/bash
# CPU time of `bitpack encode --preset max` against Debian's `flac -8` on the same files, as in
# docs/benchmarks.md: `perf stat -e task-clock` of each whole process, ROUNDS interleaved rounds
# (odd rounds bitpack first, even rounds flac first), each writing into a fresh empty folder
# under OUTBASE (put it on a real disk or on a tmpfs to compare the two). Prints every round and
# the medians. Nothing is deleted until all rounds are done: deleting files between rounds makes
# ext4's inode allocation slower for the next ones.
#
# Usage (from the workspace root, after fetch.sh and `cargo build --release -p lore-bitpack`):
#   crates/bitpack-audio/corpus/cpu_vs_flac.sh target/release/bitpack target/bitpack-corpus/wav8 OUTBASE [ROUNDS]
set -eu
bin=$1 dir=$2 outbase=$3 rounds=${4:-7}
corpus=${CORPUS:-target/bitpack-corpus}
flac="$corpus/flac/bin"
export LD_LIBRARY_PATH="$corpus/flac"
run="$outbase/cpu_vs_flac.$$"
mkdir -p "$run"
clock() {
    perf stat -e task-clock -x, -o "$run/perf" "$@" >/dev/null 2>&1
    grep task-clock "$run/perf" | cut -d, -f1
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for i in $(seq "$rounds"); do
    mkdir -p "$run/b$i" "$run/f$i"
    sync
    if [ $((i % 2)) = 1 ]; then
        b=$(clock "$bin" encode --preset max --progress never -o "$run/b$i" "$dir")
        sync
        f=$(clock "$flac" -8 -s -f --no-padding --no-seektable --output-prefix="$run/f$i/" "$dir"/*.wav)
    else
        f=$(clock "$flac" -8 -s -f --no-padding --no-seektable --output-prefix="$run/f$i/" "$dir"/*.wav)
        sync
        b=$(clock "$bin" encode --preset max --progress never -o "$run/b$i" "$dir")
    fi
    echo "$b $f"
done >"$run.txt"
awk '{printf "bitpack %s ms  flac %s ms  ratio %.3f\n", $1, $2, $1 / $2}' "$run.txt"
echo "median: bitpack $(cut -d' ' -f1 "$run.txt" | median) ms, flac $(cut -d' ' -f2 "$run.txt" | median) ms," \
    "ratio $(awk '{print $1 / $2}' "$run.txt" | median) ($(uptime | sed 's/.*load/load/'))"
rm -rf "$run" "$run.txt"
