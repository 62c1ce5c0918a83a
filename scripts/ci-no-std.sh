#!/usr/bin/env bash
# CI's no_std check: the crates that say they build without the standard library do, with the
# recipe their READMEs give (`default-features = false`, plus `libm` for the math backend).
#
#   scripts/ci-no-std.sh [--host-only]
#
# 1. For a target that has no `std` at all (default thumbv7em-none-eabihf, a Cortex-M4F; set
#    NO_STD_TARGET to change it): the proof that nothing, dependencies included, pulls in std.
#    The target is added with rustup when missing. When rustup cannot add it (its download
#    server out of reach), the target's `core` and `alloc` are built from source instead, with
#    Debian's Rust (rustc-web 1.96, installed when missing; `-Zbuild-std=core,alloc`, target
#    dir target/no-std), as scripts/ci-cross.sh does. When neither works, the script says so
#    loudly and fails on CI (CI set); locally it goes on with the host build only.
# 2. On the host, the same feature sets: quick, and the build users of those recipes run.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${NO_STD_TARGET:-thumbv7em-none-eabihf}
host_only=false
case ${1:-} in
  --host-only) host_only=true ;;
  '') ;;
  *) echo "usage: scripts/ci-no-std.sh [--host-only]" >&2; exit 2 ;;
esac

# package|features (comma-separated, after --no-default-features).
builds=(
  "lore-allocators|"
  "lore-bitpack-audio|"
  "lore-broadphase|libm"
  "lore-collide2d|libm"
  "lore-geom|libm"
  # The core (reflection, paths, text, registry, documents) with the derive macro; xml and
  # inventory need std, and glam without std needs glam's libm, which lore-reflect does not
  # expose as a feature.
  "lore-reflect|derive"
  # The serde feature keeps them no_std (serde without its std feature).
  "lore-allocators|serde"
  "lore-bitpack-audio|serde"
  "lore-broadphase|libm,serde"
  "lore-geom|libm,serde"
  "lore-collide2d|libm,serde"
)

# How the builds for $target run: rustup's toolchain with the target added, or Debian's rustc
# building core and alloc from source.
target_cargo=(cargo)
target_args=()

build() {
  local pkg=$1 features=$2; shift 2
  local args=(build --lib -p "$pkg" --no-default-features)
  [ -n "$features" ] && args+=(--features "$features")
  cargo "${args[@]}" "$@"
}

build_for_target() {
  local pkg=$1 features=$2
  local args=(build --lib -p "$pkg" --no-default-features --target "$target")
  [ -n "$features" ] && args+=(--features "$features")
  "${target_cargo[@]}" "${args[@]}" "${target_args[@]}"
}

# Debian's Rust, for build-std (see scripts/ci-cross.sh).
use_debian_rust() {
  . scripts/common.sh
  local v=1.96.0+dfsg1-1~deb12u2
  ensure_packages "rustc-web=$v" "cargo-web=$v" "rust-web-src=$v" "libstd-rust-web-dev=$v" || return 1
  /usr/bin/rustc --print target-list | grep -qx "$target" || return 1
  target_cargo=(env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 "CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/no-std" /usr/bin/cargo)
  target_args=(-Zbuild-std=core,alloc)
  echo "ci-no-std: building for $target with Debian's rustc $(/usr/bin/rustc --version | cut -d' ' -f2) and -Zbuild-std=core,alloc"
}

if ! $host_only; then
  if ! rustup target list --installed | grep -qx "$target"; then
    echo "ci-no-std: adding target $target"
    if ! rustup target add "$target"; then
      echo "ci-no-std: rustup could not add target $target (offline?); trying Debian's Rust with build-std"
      if ! use_debian_rust; then
        echo "ci-no-std: no way to build for $target here: the no-std-target builds are NOT RUN" >&2
        case ${CI:-} in
          '' | false | 0) ;;
          *) exit 1 ;;
        esac
        host_only=true
      fi
    fi
  fi
fi

# Every build runs, so that one report names every crate that fails.
failed=()
run() {
  local name=$1; shift
  local start=$SECONDS
  echo
  echo "==> $name"
  if "$@"; then
    echo "<== $name: ok ($((SECONDS - start)) s)"
  else
    echo "<== $name: FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$name")
  fi
}
for b in "${builds[@]}"; do
  pkg=${b%%|*}
  features=${b#*|}
  what="$pkg --no-default-features${features:+ --features $features}"
  if ! $host_only; then
    run "$what --target $target" build_for_target "$pkg" "$features"
  fi
  run "$what (host)" build "$pkg" "$features"
done
echo
if $host_only; then
  echo "ci-no-std: host builds only; the builds for $target did NOT run" >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "ci-no-std: ${#failed[@]} build(s) failed:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "ci-no-std: all ${#builds[@]} no_std builds pass"
