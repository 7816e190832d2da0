"""Shared fixtures: runner discovery, canonical data, a throwaway state directory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from serbench import datasets, runners

QUICK_TIMING = {
    "min_sample_ns": 200_000,
    "min_samples": 3,
    "max_samples": 5,
    "max_measure_ns": 20_000_000,
    "warmup_window": 2,
    "warmup_tolerance": 0.5,
    "warmup_max_ns": 5_000_000,
    "peak_alloc": False,
}


def available_runners() -> list[str]:
    return list(runners.discover())


def runner_or_skip(name: str) -> runners.RunnerSpec:
    """The runner's spec; a runner that is not built fails under SERBENCH_REQUIRE_RUNNERS=1."""
    spec = runners.discover()[name]
    try:
        runners.describe(spec)
    except runners.RunnerUnavailable as exc:
        if os.environ.get("SERBENCH_REQUIRE_RUNNERS") == "1":
            pytest.fail(f"runner {name} unavailable: {exc}")
        pytest.skip(f"runner {name} unavailable: {exc}")
    return spec


def data_path(name: str, scale: str = "quick") -> str:
    return str(datasets.get(name).build(scale).path())  # type: ignore[arg-type]


def run_request(
    spec: runners.RunnerSpec,
    cells: list[dict[str, Any]],
    timing: dict[str, Any] | None = None,
    raw: str | None = None,
    timeout: float = 600,
) -> tuple[int, list[dict[str, Any]]]:
    return runners.run_cells(spec, cells, timing or QUICK_TIMING, raw, timeout)


def results(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e.get("event") == "result"]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private SERBENCH_HOME with the shared data cache linked in."""
    from serbench.paths import data_dir

    home = tmp_path / "home"
    home.mkdir()
    (home / "data").symlink_to(data_dir().resolve(), target_is_directory=True)
    data_dir().mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("SERBENCH_HOME", str(home))
    monkeypatch.setenv("SERBENCH_DB", str(home / "results.sqlite"))
    return home
