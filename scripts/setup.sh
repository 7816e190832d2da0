#!/usr/bin/env bash
# Installs everything serbench needs on a fresh Debian machine and builds every runner.
# Idempotent: re-running only installs what is missing.
#   scripts/setup.sh           what a run needs (the main job)
#   scripts/setup.sh --tests   and what the tests need: their Debian packages
#                              (scripts/apt-packages-tests.txt) and the dev and cluster extras
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

TESTS=0
case "${1:-}" in
  "") ;;
  --tests) TESTS=1 ;;
  *) echo "usage: scripts/setup.sh [--tests]" >&2; exit 2 ;;
esac

# Toolchains every runner builds with; each runner lists its own Debian packages in
# runners/<name>/apt-packages.txt (one per line, # comments), so adding a runner touches
# nothing here; scripts/apt-packages.txt lists what serbench itself uses, and
# scripts/apt-packages-tests.txt what only its tests use.
# A schema compiler is pinned as NAME=VERSION, its upstream version: the code it generates
# must match its runtime. Debian's own revision suffix (security updates) may change.
APT_PACKAGES=(cmake ninja-build g++ pkg-config)
LISTS=(scripts/apt-packages.txt runners/*/apt-packages.txt)
[ "$TESTS" -eq 1 ] && LISTS+=(scripts/apt-packages-tests.txt)
for list in "${LISTS[@]}"; do
  [ -f "$list" ] || continue
  while read -r pkg; do APT_PACKAGES+=("$pkg"); done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list")
done

# "installed" or "installed at the pinned upstream version" for one NAME[=VERSION] entry
apt_has() {
  local name=${1%%=*} have
  have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
  if [ "$name" != "$1" ]; then
    [[ "$have" == "install ok installed ${1#*=}"[-+~]* ]]
  else
    [[ "$have" == "install ok installed "* ]]
  fi
}

install_apt() {
  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    apt_has "$p" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "serbench setup: installing ${missing[*]%%=*}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]%%=*}" >/dev/null
  for p in "${missing[@]}"; do
    apt_has "$p" || {
      echo "serbench setup: $p: Debian installed $(dpkg-query -W -f='${Version}' "${p%%=*}")" >&2
      exit 1
    }
  done
}

if command -v apt-get >/dev/null; then
  install_apt
else
  echo "serbench setup: no apt-get; install the C++ and Java toolchains by hand (see README)" >&2
fi

PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
if [ "$TESTS" -eq 1 ]; then
  .venv/bin/python -m pip install -q -e '.[dev,cluster]'
else
  .venv/bin/python -m pip install -q -e .
fi
.venv/bin/python -m pip install -q -e runners/python  # the Python runner, its own project

# Build every runner; a failed build is reported and the others still run.
.venv/bin/serbench build || echo "serbench setup: some runners failed to build (see .serbench/build/)" >&2
