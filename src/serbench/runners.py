"""Finding runners (runners/<name>/runner.json, plus the built-in Python one) and asking them."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from serbench import PROTOCOL_VERSION
from serbench.paths import REPO_ROOT, RUNNERS_DIR
from serbench.timing import JitKind


@dataclass(frozen=True)
class RunnerSpec:
    name: str
    language: str
    directory: Path
    command: list[str]
    build: list[list[str]] = field(default_factory=list)
    test: list[list[str]] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)
    jit: JitKind = None  # how the runtime compiles while it runs (timing.JitKind)

    def missing_tools(self) -> list[str]:
        return [tool for tool in self.requires if shutil.which(tool) is None]


PYTHON = RunnerSpec(
    name="python",
    language="python",
    directory=REPO_ROOT,
    command=[sys.executable, "-m", "serbench.runner_py"],
)


def discover(root: Path = RUNNERS_DIR) -> dict[str, RunnerSpec]:
    specs = {"python": PYTHON}
    for manifest in sorted(root.glob("*/runner.json")):
        raw = json.loads(manifest.read_text())
        spec = RunnerSpec(
            name=raw["name"],
            language=raw.get("language", raw["name"]),
            directory=manifest.parent,
            command=list(raw["command"]),
            build=[list(c) for c in raw.get("build", [])],
            test=[list(c) for c in raw.get("test", [])],
            requires=list(raw.get("requires", [])),
            jit=jit_kind(raw.get("jit"), manifest),
        )
        specs[spec.name] = spec
    return specs


def jit_kind(raw: object, manifest: Path) -> JitKind:
    """runner.json's "jit": "tiered", "once", or absent/false; true means "tiered"."""
    if raw in (None, False):
        return None
    if raw is True or raw == "tiered":
        return "tiered"
    if raw == "once":
        return "once"
    raise ValueError(f'{manifest}: "jit" must be "tiered", "once" or false, not {raw!r}')


class RunnerUnavailable(RuntimeError):
    pass


def describe(spec: RunnerSpec, timeout: float = 120) -> dict[str, Any]:
    """The runner's discovery answer, or RunnerUnavailable naming what went wrong."""
    missing = spec.missing_tools()
    if missing:
        raise RunnerUnavailable(f"needs {', '.join(missing)} on PATH")
    try:
        proc = subprocess.run(
            [*spec.command, "describe"],
            cwd=spec.directory,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunnerUnavailable(f"describe failed: {exc}") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise RunnerUnavailable(
            f"describe exited {proc.returncode} (not built? run `serbench build`): "
            + " | ".join(tail)
        )
    try:
        answer = json.loads(proc.stdout)
    except ValueError as exc:
        raise RunnerUnavailable(f"describe printed malformed JSON: {exc}") from exc
    if answer.get("protocol") != PROTOCOL_VERSION:
        raise RunnerUnavailable(
            f"speaks protocol {answer.get('protocol')!r}, serbench speaks {PROTOCOL_VERSION}"
        )
    return answer


def time_cell(
    spec: RunnerSpec,
    serializer: str,
    dataset: str,
    data: str,
    operation: str,
    timing: Any = None,
    neighbours: Sequence[str] = (),
) -> dict[str, Any]:
    """The stored result of one operation of one cell, measured by the orchestrator's own
    schedule in one fresh runner process (for comparison scripts and tests). ``timing`` is a
    serbench.timing.Timing (default: the standard profile, one process). ``neighbours``:
    more of the runner's serializers measured in the same process, interleaved, as a run
    measures a dataset's cells (a JIT's code for one cell can depend on what else ran)."""
    from serbench.schedule import Block, Cell
    from serbench.timing import STANDARD

    results: dict[str, dict[str, Any]] = {}  # serializer -> its result
    names = [serializer, *(n for n in neighbours if n != serializer)]

    def save(key: Any, result: dict[str, Any]) -> None:
        results[key.serializer] = result

    Block(
        [Cell(spec.name, name, dataset, 0) for name in names],
        [operation],
        {spec.name: spec},
        {dataset: {"name": dataset, "kind": "builtin", "data": data}},
        timing or STANDARD,
        1800.0,
        save,
        lambda _description, _n: None,
        random.Random(0),
        time.monotonic_ns(),
    ).run()
    found = results.get(serializer, {})
    if found.get("status") != "ok":
        raise RuntimeError(f"{spec.name}/{serializer} {dataset} {operation} failed: {found}")
    return found


def build(spec: RunnerSpec, log: Path) -> None:
    """Run the runner's build commands; output to log; RunnerUnavailable on failure."""
    missing = spec.missing_tools()
    if missing:
        raise RunnerUnavailable(f"needs {', '.join(missing)} on PATH")
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        for command in spec.build:
            out.write(f"$ {' '.join(command)}\n")
            out.flush()
            code = subprocess.run(
                command,
                cwd=spec.directory,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            ).returncode
            if code != 0:
                raise RunnerUnavailable(f"`{' '.join(command)}` exited {code}; see {log}")
