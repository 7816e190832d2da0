"""Runner builds: `serbench build`, and the rebuild of every runner whose build generates typed
models (runner.json "typed_model") once a user dataset is registered, since its generated
code covers the registered datasets it finds then."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from serbench import runners
from serbench.datasets import UnknownName
from serbench.paths import state_dir
from serbench.runners import RunnerSpec
from serbench.userdata.schemas.builtin import write_all

# runner builds at once: each long one (C++ with ninja, Rust with cargo) keeps both cores
# busy by itself, but Node.js's, Go's and GNUstep's leave one idle for most of their time
# (npm and tsc, the Go linker, make): 111 idle core-seconds of 610 s one at a time, 20 two at
# a time (605 s; the gain in wall time is within the machine's variation, docs/method.md)
AT_ONCE: Final = 2


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


def build(spec: RunnerSpec, schemas: Path) -> Built:
    """Run one runner's build (runners.build: its commands, with the datasets' folders and
    the built-in ``schemas`` folder in its environment), timed; a failure is returned, not
    raised."""
    log = log_path(spec.name)
    started = time.monotonic()
    try:
        runners.build(spec, log, schemas)
    except runners.RunnerUnavailable as exc:
        return Built(spec.name, time.monotonic() - started, log, str(exc))
    return Built(spec.name, time.monotonic() - started, log)


def build_all(specs: list[RunnerSpec], at_once: int = AT_ONCE) -> Iterator[Built]:
    """Build the runners, ``at_once`` at a time in the order given, each yielded as it
    finishes. The built-in schemas every build reads are written once, before any starts."""
    schemas = write_all()
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        running = [pool.submit(build, spec, schemas) for spec in specs]
        for done in as_completed(running):
            yield done.result()
