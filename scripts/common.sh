# Shared helpers of lore's scripts; sourced, not run.

# missing_packages PKG... : prints the Debian packages among PKG that are not installed (a
# PKG=VERSION is looked up by name, and printed whole so that apt installs that version).
missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$p"
  done
}

# ensure_packages PKG... : installs the missing ones with apt-get when we may (root, or
# passwordless sudo); otherwise says what to install and fails.
ensure_packages() {
  local missing
  missing=$(missing_packages "$@")
  [ -z "$missing" ] && return 0
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "lore: not a Debian-like system; please install the equivalents of: $missing" >&2
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo"
    else
      echo "lore: missing Debian packages: $missing" >&2
      echo "lore: install them with:  sudo apt-get install $missing" >&2
      return 1
    fi
  fi
  echo "lore: installing $missing"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086  # word splitting of the package list is intended
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
}

# disk_use : the size of target/ and the free space under it, for the stage lines (a CI disk
# once filled up mid-run).
disk_use() {
  local size free
  size=$(du -sh target 2>/dev/null | cut -f1)
  free=$(df -h --output=avail . 2>/dev/null | tail -n 1 | tr -d ' ')
  echo "target ${size:-0}, ${free:-?} free"
}

# ci_mode : whether this is a CI run (CI set, as GitHub Actions and .ci/run set it, and not
# "false" or "0"): there, a stage that cannot run is a failure, not a skip.
ci_mode() {
  case ${CI:-} in
    '' | false | 0) return 1 ;;
    *) return 0 ;;
  esac
}

# NOT_RUN: the stages that did not run, with why (see not_run).
NOT_RUN=()

# not_run NAME WHY : reports a stage that cannot run here. On CI (ci_mode) it stops the
# script with a failure; elsewhere the stage is skipped and listed at the end.
not_run() {
  echo
  echo "==> $1: NOT RUN, $2" >&2
  if ci_mode; then
    echo "<== $1: FAILED: CI is set (CI=$CI), and on CI every stage must run" >&2
    exit 1
  fi
  NOT_RUN+=("$1 ($2)")
}

# as_root_prefix : prints how to run a command as root here: nothing when we are root,
# "sudo -n" with passwordless sudo; fails otherwise.
as_root_prefix() {
  if [ "$(id -u)" -eq 0 ]; then
    return 0
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "sudo -n"
  else
    return 1
  fi
}

# stage NAME CMD... : runs a stage, timing it; stops the script on failure.
stage() {
  local name=$1; shift
  local start=$SECONDS
  echo
  echo "==> $name"
  if "$@"; then
    echo "<== $name: ok ($((SECONDS - start)) s; $(disk_use))"
  else
    local rc=$?
    echo "<== $name: FAILED (exit $rc, $((SECONDS - start)) s)" >&2
    exit "$rc"
  fi
}
