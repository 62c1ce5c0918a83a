#!/usr/bin/env bash
# The desktop job's build, checked from Linux: `cargo check --all-targets` of every default
# member for Windows (x86_64-pc-windows-gnu) and macOS (aarch64-apple-darwin), so that a
# Unix-only API in a test or an app is found here and not only on the hosted runners.
#
#   scripts/ci-cross.sh [TARGET...]
#
# With rustup's targets (`rustup target add`, as on GitHub's runners) the pinned toolchain
# checks directly. Where rustup cannot add them (its download server out of reach), the check
# uses Debian's own Rust instead (rustc-web, 1.96, whose LLVM has every target) and builds the
# standard library from its source (`-Zbuild-std`, unlocked by RUSTC_BOOTSTRAP=1); see
# docs/architecture.md, "Tests and CI". Those packages are installed when missing (root or
# passwordless sudo), with mingw's binutils (the Windows std build calls its dlltool). A check
# does not link, and no build script in the dependency tree calls a C compiler for these
# targets, so nothing more is needed. Separate target dir: target/cross.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-pc-windows-gnu aarch64-apple-darwin)

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/cross
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

check=(cargo check)
if rustup target add "${targets[@]}" >/dev/null 2>&1; then
  how="rustup's targets"
else
  echo "ci-cross: rustup cannot add ${targets[*]} here; using Debian's Rust and -Zbuild-std"
  debian_rust=1.96.0+dfsg1-1~deb12u2
  ensure_packages "rustc-web=$debian_rust" "cargo-web=$debian_rust" "rust-web-src=$debian_rust" \
    "libstd-rust-web-dev=$debian_rust" binutils-mingw-w64-x86-64
  # /usr/bin/cargo and RUSTC: the cargo and rustc on PATH are rustup's proxies, which follow
  # rust-toolchain.toml (no source of std for build-std there).
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  check=(/usr/bin/cargo check -Zbuild-std)
  how="Debian's rustc $(/usr/bin/rustc --version | cut -d' ' -f2), -Zbuild-std"
fi

failed=()
for t in "${targets[@]}"; do
  echo
  echo "==> cargo check --locked --all-targets --target $t ($how)"
  start=$SECONDS
  if "${check[@]}" --locked --all-targets --target "$t"; then
    echo "<== $t: ok ($((SECONDS - start)) s)"
  else
    echo "<== $t: FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "ci-cross: the default members do not check for: ${failed[*]}" >&2
  exit 1
fi
echo "ci-cross: every default member (all targets) checks for ${targets[*]}"
