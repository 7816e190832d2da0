#!/usr/bin/env bash
# The main job: install, build, run the quick suite over every runner and dataset, report.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
.venv/bin/serbench run --quick --report report.md
echo "Markdown report: $(pwd)/report.md"
