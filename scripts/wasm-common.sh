# The wasm32 toolchain of scripts/ci-wasm.sh and scripts/web.sh; sourced after scripts/common.sh.
#
# With rustup's wasm32 target (`rustup target add wasm32-unknown-unknown`, as on GitHub's
# runners) the pinned toolchain builds directly. Where rustup cannot add it (its download server
# out of reach), Debian's own Rust does (rustc-web 1.96, installed when missing, with LLVM 19's
# wasm-ld as the linker): the standard library is built from its source (`-Zbuild-std`,
# unlocked by RUSTC_BOOTSTRAP=1), as scripts/ci-cross.sh does for Windows and macOS. Separate
# target dir: target/wasm.

WASM_TARGET=wasm32-unknown-unknown

# use_wasm_toolchain : sets WASM_CARGO (the cargo command and its target flags) and the
# environment; fails when neither way works.
use_wasm_toolchain() {
  export CARGO_TARGET_DIR=${LORE_WASM_TARGET_DIR:-target/wasm}
  if rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET" ||
    rustup target add "$WASM_TARGET" >/dev/null 2>&1; then
    WASM_CARGO=(cargo)
    WASM_ARGS=(--target "$WASM_TARGET")
    WASM_HOW="rustup's $WASM_TARGET target"
    return 0
  fi
  local v=1.96.0+dfsg1-1~deb12u2
  ensure_packages "rustc-web=$v" "cargo-web=$v" "rust-web-src=$v" "libstd-rust-web-dev=$v" lld-19 || return 1
  # /usr/bin/cargo and RUSTC: the cargo and rustc on PATH are rustup's proxies, which follow
  # rust-toolchain.toml (no wasm32 standard library there, and no source of it to build).
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-19/bin/wasm-ld
  WASM_CARGO=(/usr/bin/cargo)
  WASM_ARGS=(--target "$WASM_TARGET" -Zbuild-std=std,panic_abort)
  WASM_HOW="Debian's rustc $(/usr/bin/rustc --version | cut -d' ' -f2), -Zbuild-std"
}
