#!/usr/bin/env bash
# CI's no_std check: the crates that say they build without the standard library do, with the
# recipe their READMEs give (`default-features = false`, plus `libm` for the math backend).
#
#   scripts/ci-no-std.sh [--host-only]
#
# 1. For a target that has no `std` at all (default thumbv7em-none-eabihf, a Cortex-M4F; set
#    NO_STD_TARGET to change it): the proof that nothing, dependencies included, pulls in std.
#    The target is added with rustup when missing. When it cannot be had (offline), the script
#    says so loudly and fails on CI (CI=true); locally it goes on with the host build only.
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

build() {
  local pkg=$1 features=$2; shift 2
  local args=(build --lib -p "$pkg" --no-default-features)
  [ -n "$features" ] && args+=(--features "$features")
  cargo "${args[@]}" "$@"
}

if ! $host_only; then
  if ! rustup target list --installed | grep -qx "$target"; then
    echo "ci-no-std: adding target $target"
    if ! rustup target add "$target"; then
      echo "ci-no-std: could not add target $target (offline?): the no-std-target builds are NOT RUN" >&2
      if [ "${CI:-}" = true ]; then
        exit 1
      fi
      host_only=true
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
    run "$what --target $target" build "$pkg" "$features" --target "$target"
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
