"""Shared fixtures: runner discovery, canonical data, a throwaway state directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from serbench import datasets, runners
from serbench.client import prepare_request
from serbench.session import RunnerSession


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


def dataset(name: str, scale: str = "quick", **extra: Any) -> dict[str, Any]:
    """The protocol's dataset object for a built-in dataset."""
    return {"name": name, "kind": "builtin", "data": data_path(name, scale), **extra}


def prepare(
    cell: str,
    serializer: str,
    data: dict[str, Any],
    operations: tuple[str, ...] = ("encode", "decode"),
    **extra: Any,
) -> dict[str, Any]:
    """A `prepare` request; ``extra`` overrides or adds fields (protocol tests send bad ones)."""
    return {**prepare_request(cell, serializer, data, list(operations)), **extra}  # type: ignore[arg-type]


def sample(cell: str, operation: str, iterations: int = 2, samples: int = 3) -> dict[str, Any]:
    return {
        "cmd": "sample",
        "cell": cell,
        "operation": operation,
        "iterations": iterations,
        "samples": samples,
    }


@contextmanager
def serving(spec: runners.RunnerSpec, timeout: float = 300) -> Iterator[RunnerSession]:
    """A `serve` process whose every reply is validated against the protocol schema."""
    session = RunnerSession(spec, timeout)
    try:
        yield session
    finally:
        session.close()


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


def assert_resumed_run_complete(done: set[Any], plan: Any, ops: list[str]) -> None:
    """A resumed run's stored keys: every planned cell operation, and besides only tie-break
    cells (as process `processes`): a tiered JIT's whole block of a runner and dataset,
    elsewhere the unsettled cells alone."""
    expected = {c.key(op) for c in plan.cells for op in ops}
    expected |= {c.key(op) for c, _ in plan.not_applicable for op in ops}
    assert expected <= done
    processes = 1 + max(c.process for c in plan.cells)
    extra = done - expected
    assert {k.process for k in extra} <= {processes}
    redone = {(k.runner, k.serializer, k.dataset) for k in extra}
    for runner, dataset in {(r, d) for r, _, d in redone if plan.specs[r].jit == "tiered"}:
        block = {
            (c.runner, c.serializer, c.dataset)
            for c in plan.cells
            if c.process == 0 and (c.runner, c.dataset) == (runner, dataset)
        }
        assert block <= redone, f"{runner} {dataset}: a tiered JIT's tie-break is its block"
