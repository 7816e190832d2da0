"""Where serbench finds its own files and keeps the ones it makes."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DATASETS_DIR = REPO_ROOT / "datasets"
RUNNERS_DIR = REPO_ROOT / "runners"


def state_dir() -> Path:
    """Generated data, results and build caches: $SERBENCH_HOME or ./.serbench in the repo."""
    return Path(os.environ.get("SERBENCH_HOME", REPO_ROOT / ".serbench"))


def default_db() -> str | Path:
    """$SERBENCH_DB (a SQLite file or a postgresql:// URL), else .serbench/results.sqlite."""
    return os.environ.get("SERBENCH_DB") or state_dir() / "results.sqlite"


def data_dir() -> Path:
    return state_dir() / "data"
