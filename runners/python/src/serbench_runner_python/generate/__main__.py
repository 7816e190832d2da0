"""`python -m serbench_runner_python.generate`: the runner's build step.

Reads SERBENCH_DATASETS_DIR (default: the repository's datasets/), SERBENCH_SCHEMAS_DIR
(the schemas `serbench build` generates; default .serbench/gen/schemas) and
SERBENCH_USER_DATASETS_DIR (registered user datasets; may be absent), and writes the
typed models to the model folder (SERBENCH_PYTHON_MODEL_DIR, default build/model in the
runner's folder).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from serbench_runner_python.generate.build import build
from serbench_runner_python.generate.jobs import builtin_jobs, user_jobs
from serbench_runner_python.model import RUNNER_DIR, model_dir


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def main() -> int:
    start = time.monotonic()
    repo = RUNNER_DIR.parent.parent
    datasets = _env_path("SERBENCH_DATASETS_DIR") or repo / "datasets"
    schemas = _env_path("SERBENCH_SCHEMAS_DIR") or repo / ".serbench" / "gen" / "schemas"
    jobs = builtin_jobs(datasets, schemas)
    jobs += user_jobs(_env_path("SERBENCH_USER_DATASETS_DIR"))
    report = build(jobs, model_dir())
    print(
        f"typed models: {len(report['generated'])} generated, {len(report['unchanged'])} "
        f"unchanged ({time.monotonic() - start:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
