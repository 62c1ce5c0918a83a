#!/usr/bin/env bash
# lore's test command: the one the README gives and CI runs (.ci/run).
#
# Installs what the tests need when it is missing (the software Vulkan driver so GPU tests find
# an adapter, Xvfb for the window test, valgrind for the allocators), then: formatting, clippy,
# every test of the default members (GPU tests required: they fail, naming the package, when no
# adapter is found), and the slower stages, each within its budget. Whole run: well under an
# hour from a clean clone on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# Silence the harmless "XDG_RUNTIME_DIR is invalid" warnings of Mesa and wgpu on bare machines.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi

total=$SECONDS
stage "system packages" ensure_packages mesa-vulkan-drivers libegl1 libegl-mesa0 xvfb xauth valgrind
stage "format" cargo fmt --all --check
stage "clippy (default members)" cargo clippy --all-targets -- -D warnings
stage "tests (default members, GPU tests on lavapipe)" cargo test
# Slow stages, one crate at a time, each with its budget in the comment. They are added here
# as the crates arrive (see docs/architecture.md, "Tests and CI").
echo
echo "all stages passed in $((SECONDS - total)) s"
