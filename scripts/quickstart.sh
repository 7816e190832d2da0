#!/usr/bin/env bash
# The main job: install, build, run the quick suite over every runner and dataset, report.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
scripts/setup.sh
.venv/bin/serbench run --quick --report report.md
.venv/bin/serbench report --format html -o report.html >/dev/null
echo "All rows: .venv/bin/serbench report | Markdown: $(pwd)/report.md | HTML: $(pwd)/report.html"
