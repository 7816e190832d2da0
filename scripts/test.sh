#!/usr/bin/env bash
# Installs what is needed, then runs the whole test suite (every runner must be built).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh --tests
export SERBENCH_REQUIRE_RUNNERS=1
exec .venv/bin/python -m pytest -q "$@"
