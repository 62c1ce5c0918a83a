#!/usr/bin/env bash
# lore's test command: the one the README gives and CI runs (.ci/run).
#
# Installs what the tests need when it is missing (a C compiler and linker, the software Vulkan
# driver so GPU tests find an adapter, Xvfb for the window test, valgrind for the allocators,
# ALSA's headers for the dungeon's live sound, the nightly toolchain for the sanitizer and
# docs.rs stages, cargo-fuzz, Debian's Rust for the no_std and Windows/macOS checks), then:
# formatting, clippy, every test of the default members (GPU tests required: they fail, naming
# the package, when no adapter is found), and the slower stages, each within its budget; then
# every job of the GitHub workflow (docs, no_std builds, packaging, a short fuzz run; with
# --full also the docs.rs build, the packaging verify build and the Windows and macOS check).
# Whole run: under an hour from a clean clone on 2 cores is the aim; not yet timed end to end.
#
# A stage that cannot run here (no root and no passwordless sudo for the tmpfs tests, no
# nightly) says "NOT RUN" and why. With CI set (GitHub sets CI=true, and so does .ci/run), that
# is a failure; elsewhere the run goes on and its last line lists what did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

# `--full` adds the two stages whose cost on 2 cores is not yet measured within CI's 90-minute
# budget on a clean clone: the docs.rs-style docs build (nightly) and the Windows/macOS check.
# The GitHub workflow's daily `explore` job runs with it, and its own docs and cross jobs run
# them on every push.
full=0
for arg in "$@"; do
  case $arg in
    --full) full=1 ;;
    *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
  esac
done

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# One fixed proptest seed, so that a CI run is reproducible and a red run can be replayed;
# `PROPTEST_RNG_SEED=$RANDOM scripts/test.sh` (or a plain `cargo test`) explores fresh cases.
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261123}
# Seconds of fuzzing per fuzz target (scripts/ci-fuzz.sh).
fuzz_seconds=${LORE_FUZZ_SECONDS:-10}
# Silence the harmless "XDG_RUNTIME_DIR is invalid" warnings of Mesa and wgpu on bare machines.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi

# rustup installs no linker: a bare machine fails at its first link without one.
system_packages() {
  local c_compiler=()
  command -v cc >/dev/null 2>&1 || c_compiler=(gcc libc6-dev)
  ensure_packages "${c_compiler[@]}" mesa-vulkan-drivers libegl1 libegl-mesa0 xvfb xauth valgrind \
    pkg-config libasound2-dev
}

# The nightly toolchain (AddressSanitizer, the docs.rs build, cargo-fuzz), installed with
# rustup when missing.
have_nightly() {
  rustup run nightly rustc --version >/dev/null 2>&1 && return 0
  echo "lore: installing the nightly toolchain (rustup toolchain install nightly --profile minimal)"
  rustup toolchain install nightly --profile minimal >&2 && rustup run nightly rustc --version >/dev/null 2>&1
}

total=$SECONDS
stage "system packages (a C compiler when none is found, ...)" system_packages
stage "format" cargo fmt --all --check
stage "clippy (default members)" cargo clippy --all-targets -- -D warnings
stage "tests (default members, GPU tests on lavapipe)" cargo test
# The GPU collider takes another path on wgpu's GL backend (every pair on the compute pass):
# the GPU test binaries again (pixel-collide's and the dungeon's), on Mesa's llvmpipe through
# EGL; a test in each fails unless the adapter is on GL. No `-p`: it would unify features
# differently and rebuild wgpu. One test at a time: wgpu's GL backend serialises every call
# through one context lock and gives up after a few seconds ("Could not lock adapter context"),
# which tests sharing llvmpipe's two cores reached on a loaded machine.
stage "GPU tests on the GL backend (llvmpipe)" env WGPU_BACKEND=gl cargo test --test gpu -- --test-threads=1
# Slow stages (see docs/architecture.md, "Tests and CI"). The long, ignored tests of every
# library in release mode, built together so they share one release build of the dependencies.
# broadphase with its `parallel` feature (its thread pool and the 100k-box run of
# tests/parallel.rs); tests/features.rs fails if the feature is missing from the build.
# Run times on 2 cores: allocators 85 s, pixel-collide 36 s, bitpack-audio 33 s, broadphase
# 30 s, reflect 8 s, collide2d 7 s, mazegen 4 s.
stage "long tests (release, --ignored)" env LORE_BROADPHASE_FEATURES=parallel cargo test --release --tests \
  -p lore-allocators -p lore-bitpack-audio -p lore-broadphase -p lore-collide2d \
  -p lore-mazegen -p lore-pixel-collide -p lore-reflect --features lore-broadphase/parallel -- --ignored
# The platformer: on 200 seeds every level lore-mazegen's check calls beatable is beaten by the
# autopilot with the character controller (about 2.5 min on 2 busy cores).
stage "platformer: the check and the autopilot agree on 200 seeds (release, --ignored)" \
  cargo test --release -p lore-platformer --test agree -- --ignored
# The file-safety tests that mount a small tmpfs (a full disk, a read-only folder) need root:
# as root they run directly; otherwise the test binaries (only they) run through passwordless
# sudo, as cargo's target runner, so the build stays the user's. No -p: the targets are picked
# by name among the default members (lore-bitpack's safety and cli, lore-maze's cli,
# lore-editor's files), so the debug build of the test stage is reused as it is.
if root=$(as_root_prefix); then
  runner=()
  if [ -n "$root" ]; then
    host=$(rustc -vV | sed -n 's/^host: //p')
    runner=(env "CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$host")_RUNNER=$root --preserve-env")
  fi
  stage "full-disk and read-only tests (tmpfs, as root${root:+ through $root})" "${runner[@]}" cargo test \
    --test safety --test cli --test files -- --ignored
else
  not_run "full-disk and read-only tests" "they mount a tmpfs and need root or passwordless sudo"
fi
# The allocators' unsafe code: every test under valgrind memcheck, and under AddressSanitizer
# on the nightly toolchain with freed blocks poisoned.
stage "allocators under valgrind memcheck" crates/allocators/scripts/memcheck.sh
# The other crates with `unsafe` in a hot loop (mazegen's uniform carver, bitpack-audio's SSE2
# transposition, broadphase's prefetch hints and, with `parallel`, its thread pool) run their
# tests under AddressSanitizer too.
if have_nightly; then
  stage "allocators under AddressSanitizer (nightly)" crates/allocators/scripts/asan.sh
  stage "mazegen, bitpack-audio, broadphase (parallel) under AddressSanitizer (nightly)" \
    env LORE_BROADPHASE_FEATURES=parallel scripts/asan.sh -p lore-mazegen -p lore-bitpack-audio -p lore-broadphase \
    --features lore-broadphase/parallel
else
  not_run "AddressSanitizer stages" "no nightly toolchain, and rustup could not install one"
fi
# The GitHub workflow's other jobs, so that none of them rots unseen.
stage "docs (cargo doc per package, warnings denied)" scripts/ci-docs.sh
if [ "$full" -eq 1 ]; then
  if have_nightly; then
    stage "docs as docs.rs builds them (nightly, --cfg docsrs)" scripts/ci-docs.sh --docsrs
  else
    not_run "docs.rs build" "no nightly toolchain"
  fi
fi
stage "no_std builds (thumbv7em-none-eabihf and host)" scripts/ci-no-std.sh
# The browser: every library checked for wasm32, then the showcase's page built and tested in
# headless Chromium (see docs/render.md, "Web").
stage "wasm32 check of every library crate" scripts/ci-wasm.sh
stage "the showcase's page in headless Chromium" scripts/ci-web.sh
# Every crate packaged (licences, README, manifest); the build of the packaged sources (the
# same sources the stages above built) is the GitHub package job's and `--full`'s.
if [ "$full" -eq 1 ]; then
  stage "packaging (licences, README, publish dry run)" scripts/ci-package.sh --allow-dirty
else
  stage "packaging (licences, README, publish dry run without the verify build)" \
    scripts/ci-package.sh --allow-dirty --no-verify
fi
if have_nightly; then
  stage "fuzz targets, ${fuzz_seconds} s each (ASan, nightly)" scripts/ci-fuzz.sh "$fuzz_seconds"
else
  not_run "fuzz targets" "no nightly toolchain"
fi
if [ "$full" -eq 1 ]; then
  stage "Windows and macOS check (Debian's rustc, -Zbuild-std)" scripts/ci-cross.sh
fi
echo
if [ ${#NOT_RUN[@]} -gt 0 ]; then
  echo "the stages that ran passed in $((SECONDS - total)) s; NOT RUN (${#NOT_RUN[@]}):" >&2
  printf '  - %s\n' "${NOT_RUN[@]}" >&2
else
  echo "all stages passed in $((SECONDS - total)) s"
fi
