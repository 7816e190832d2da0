#!/usr/bin/env bash
# Installs everything serbench needs on a fresh Debian machine and builds every runner.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  # toolchains the runners build with
  cmake ninja-build g++ pkg-config maven default-jdk-headless
  # the C++ runner's libraries and schema compilers
  libmsgpack-cxx-dev libprotobuf-dev protobuf-compiler nlohmann-json3-dev rapidjson-dev
  libsimdjson-dev libflatbuffers-dev flatbuffers-compiler capnproto libcapnp-dev
  libcereal-dev libboost-serialization-dev libthrift-dev thrift-compiler libbson-dev
  libzstd-dev liblz4-dev zlib1g-dev libbenchmark-dev libgtest-dev
)

install_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "serbench setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

if command -v apt-get >/dev/null; then
  install_apt
else
  echo "serbench setup: no apt-get; install the C++ and Java toolchains by hand (see README)" >&2
fi

PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'

# Build every runner; a failed build is reported and the others still run.
.venv/bin/serbench build || echo "serbench setup: some runners failed to build (see .serbench/build/)" >&2
