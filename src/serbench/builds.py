"""Runner builds: `serbench build`, and the rebuild of every runner whose build generates typed
models (runner.json "typed_model") once a user dataset is registered, since its generated
code covers the registered datasets it finds then."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from serbench import runners
from serbench.datasets import UnknownName
from serbench.paths import state_dir
from serbench.runners import RunnerSpec


@dataclass(frozen=True)
class Built:
    runner: str
    seconds: float
    log: Path
    error: str | None = None  # why the build failed; None: it succeeded


def log_path(runner: str) -> Path:
    return state_dir() / "build" / f"{runner}.log"


def selected(names: list[str], specs: dict[str, RunnerSpec] | None = None) -> list[RunnerSpec]:
    """The named runners (all when none are named) that have build commands."""
    specs = specs if specs is not None else runners.discover()
    for name in names:
        if name not in specs:
            raise UnknownName(f"unknown runner {name!r}; valid runners: {', '.join(specs)}")
    return [s for n, s in specs.items() if (not names or n in names) and s.build]


def typed_model(
    names: list[str] | None = None, specs: dict[str, RunnerSpec] | None = None
) -> list[RunnerSpec]:
    """The runners whose build generates a typed model per dataset, user datasets included;
    only the named ones when names are given (a user who runs one runner waits for one
    build: the others' typed rows say how to build them when they are asked)."""
    return [s for s in selected(names or [], specs) if s.typed_model]


def build(spec: RunnerSpec) -> Built:
    """Run one runner's build (runners.build: its commands, with the datasets' folders in its
    environment), timed; a failure is returned, not raised."""
    log = log_path(spec.name)
    started = time.monotonic()
    try:
        runners.build(spec, log)
    except runners.RunnerUnavailable as exc:
        return Built(spec.name, time.monotonic() - started, log, str(exc))
    return Built(spec.name, time.monotonic() - started, log)
