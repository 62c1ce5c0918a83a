#!/usr/bin/env bash
# CI's packaging check, for every package that may be published (every workspace member
# without `publish = false`):
#   1. `cargo package --list` contains LICENSE-MIT, LICENSE-APACHE and the README the manifest
#      names (crates.io shows it; the licences are required by the MIT and Apache terms);
#   2. the manifest has what crates.io and docs.rs show: description, license, repository,
#      homepage, documentation, readme, and a [package.metadata.docs.rs] table (all features,
#      feature badges);
#   3. the README has no link that leaves the package (`../`): crates.io cannot follow it; and
#      it states the licence (MIT and Apache-2.0), as crates.io readers expect;
#   4. then `cargo publish --dry-run --workspace`: every publishable package is packaged and
#      built from its own .crate file against the others, as a real publish would.
#
#   scripts/ci-package.sh [--no-verify] [--allow-dirty]
#
# --no-verify skips step 4's build (a quick local check: it still packages every crate);
# --allow-dirty lets a working tree with uncommitted changes be packaged (local runs).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

publish_args=()
list_args=()
for a in "$@"; do
  case $a in
    --no-verify) publish_args+=(--no-verify) ;;
    --allow-dirty) publish_args+=(--allow-dirty); list_args+=(--allow-dirty) ;;
    *) echo "usage: scripts/ci-package.sh [--no-verify] [--allow-dirty]" >&2; exit 2 ;;
  esac
done

# name<TAB>manifest dir<TAB>readme<TAB>missing manifest fields (comma-separated, or -)
mapfile -t rows < <(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] == []:
        continue
    # repository and homepage: required once the public repository exists (LORE_REQUIRE_REPOSITORY=1);
    # until then the project sets none rather than an address that leads nowhere.
    fields = ["description", "license", "documentation", "readme"]
    if os.environ.get("LORE_REQUIRE_REPOSITORY") == "1":
        fields += ["repository", "homepage"]
    missing = [f for f in fields if not p.get(f)]
    # cargo metadata nests [package.metadata.docs.rs] as {"docs": {"rs": {...}}}.
    if not ((p.get("metadata") or {}).get("docs") or {}).get("rs"):
        missing.append("[package.metadata.docs.rs]")
    print("\t".join([p["name"], os.path.dirname(p["manifest_path"]), p.get("readme") or "README.md",
                     ",".join(missing) or "-"]))
')
[ ${#rows[@]} -gt 0 ] || { echo "ci-package: no publishable package found" >&2; exit 1; }

problems=()
for row in "${rows[@]}"; do
  IFS=$'\t' read -r name dir readme missing <<<"$row"
  echo
  echo "==> $name ($dir)"
  if ! list=$(cargo package --list -p "$name" "${list_args[@]}" 2>&1); then
    echo "$list" >&2
    problems+=("$name: cargo package --list fails: $(grep -m1 '^error' <<<"$list" || echo "see the log")")
    continue
  fi
  for f in LICENSE-MIT LICENSE-APACHE "$readme" Cargo.toml; do
    if ! grep -qxF "$f" <<<"$list"; then
      problems+=("$name: the package lacks $f")
    fi
  done
  if [ "$missing" != - ]; then
    problems+=("$name: Cargo.toml lacks ${missing//,/, }")
  fi
  if [ -f "$dir/$readme" ]; then
    escaping=$(grep -noE '\]\(\.\./[^)]*\)|^\[[^]]*\]: *\.\./.*' "$dir/$readme" || true)
    if [ -n "$escaping" ]; then
      problems+=("$name: $readme links outside the package (crates.io cannot follow them): $(tr '\n' ' ' <<<"$escaping")")
    fi
    if ! grep -q 'MIT' "$dir/$readme" || ! grep -q 'Apache' "$dir/$readme"; then
      problems+=("$name: $readme does not state the licence (MIT or Apache-2.0)")
    fi
  else
    problems+=("$name: $dir/$readme does not exist")
  fi
  echo "<== $name: $(wc -l <<<"$list") files listed"
done

echo
echo "==> cargo publish --dry-run --workspace ${publish_args[*]}"
if ! cargo publish --dry-run --workspace "${publish_args[@]}"; then
  problems+=("cargo publish --dry-run --workspace fails (see above)")
fi

echo
if [ ${#problems[@]} -gt 0 ]; then
  echo "ci-package: ${#problems[@]} problem(s):" >&2
  printf '  - %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "ci-package: ${#rows[@]} publishable packages carry their licences and README, and package"
