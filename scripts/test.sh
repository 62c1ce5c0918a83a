#!/usr/bin/env bash
# lore's test command: the one the README gives and CI runs (.ci/run).
#
# Installs what the tests need when it is missing (the software Vulkan driver so GPU tests find
# an adapter, Xvfb for the window test, valgrind for the allocators, ALSA's headers for the
# dungeon's live sound), then: formatting, clippy,
# every test of the default members (GPU tests required: they fail, naming the package, when no
# adapter is found), and the slower stages, each within its budget. Whole run: well under an
# hour from a clean clone on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# One fixed proptest seed, so that a CI run is reproducible and a red run can be replayed;
# `PROPTEST_RNG_SEED=$RANDOM scripts/test.sh` (or a plain `cargo test`) explores fresh cases.
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261123}
# Silence the harmless "XDG_RUNTIME_DIR is invalid" warnings of Mesa and wgpu on bare machines.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi

total=$SECONDS
stage "system packages" ensure_packages mesa-vulkan-drivers libegl1 libegl-mesa0 xvfb xauth valgrind \
  pkg-config libasound2-dev
stage "format" cargo fmt --all --check
stage "clippy (default members)" cargo clippy --all-targets -- -D warnings
stage "tests (default members, GPU tests on lavapipe)" cargo test
# The GPU collider takes another path on wgpu's GL backend (every pair on the compute pass):
# the GPU test binaries again (pixel-collide's and the dungeon's), on Mesa's llvmpipe through
# EGL. No `-p`: it would unify features differently and rebuild wgpu.
stage "GPU tests on the GL backend (llvmpipe)" env WGPU_BACKEND=gl cargo test --test gpu
# Slow stages (see docs/architecture.md, "Tests and CI"). The long, ignored tests of every
# library in release mode, built together so they share one release build of the dependencies.
# Run times on 2 cores: allocators 85 s, pixel-collide 36 s, bitpack-audio 33 s, broadphase
# 30 s, reflect 8 s, collide2d 7 s, mazegen 4 s.
stage "long tests (release, --ignored)" cargo test --release --tests \
  -p lore-allocators -p lore-bitpack-audio -p lore-broadphase -p lore-collide2d \
  -p lore-mazegen -p lore-pixel-collide -p lore-reflect -- --ignored
# The file-safety tests that mount a small tmpfs (a full disk, a read-only folder) need root:
# CI runs as root; elsewhere the stage says it did not run and why.
if [ "$(id -u)" -eq 0 ]; then
  # No -p: the targets are picked by name among the default members (lore-bitpack's safety and
  # cli, lore-maze's cli, lore-editor's files), so the debug build of the stage above is reused
  # as it is; a -p selection unifies features differently and rebuilt half the workspace.
  stage "full-disk and read-only tests (tmpfs, root)" cargo test \
    --test safety --test cli --test files -- --ignored
else
  echo
  echo "==> full-disk and read-only tests: NOT RUN, they mount a tmpfs and need root" >&2
fi
# The allocators' unsafe code: every test under valgrind memcheck, and under AddressSanitizer
# on the nightly toolchain with freed blocks poisoned.
stage "allocators under valgrind memcheck" crates/allocators/scripts/memcheck.sh
# The other crates with `unsafe` in a hot loop (mazegen's uniform carver, bitpack-audio's SSE2
# transposition, broadphase's prefetch hints) run their tests under AddressSanitizer too.
if rustup run nightly rustc --version >/dev/null 2>&1; then
  stage "allocators under AddressSanitizer (nightly)" crates/allocators/scripts/asan.sh
  stage "mazegen, bitpack-audio, broadphase under AddressSanitizer (nightly)" \
    scripts/asan.sh -p lore-mazegen -p lore-bitpack-audio -p lore-broadphase
else
  echo
  echo "==> AddressSanitizer stages: NOT RUN, no nightly toolchain here" >&2
  echo "    (install one with: rustup toolchain install nightly; CI has it)" >&2
fi
echo
echo "all stages passed in $((SECONDS - total)) s"
