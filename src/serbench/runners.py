"""Finding runners (runners/<name>/runner.json, plus the built-in Python one) and asking them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from serbench.paths import REPO_ROOT, RUNNERS_DIR


@dataclass(frozen=True)
class RunnerSpec:
    name: str
    language: str
    directory: Path
    command: list[str]
    build: list[list[str]] = field(default_factory=list)
    test: list[list[str]] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)

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
        )
        specs[spec.name] = spec
    return specs


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
    if answer.get("protocol") != 1:
        raise RunnerUnavailable(f"speaks protocol {answer.get('protocol')!r}, serbench speaks 1")
    return answer


def run_cells(
    spec: RunnerSpec,
    cells: list[dict[str, Any]],
    timing: dict[str, Any],
    raw: str | None = None,
    timeout: float = 1800,
    dump_dir: str | None = None,
) -> tuple[int, list[dict[str, Any]]]:
    """One `run` request in a fresh runner process: (exit status, events). For tools and tests;
    the orchestrator streams events instead (orchestrate.BatchRunner)."""
    body = {"protocol": 1, "cells": cells, "timing": timing, "dump_dir": dump_dir}
    request = raw if raw is not None else json.dumps(body)
    proc = subprocess.run(
        [*spec.command, "run"],
        cwd=spec.directory,
        input=request,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, events


def time_cell(
    spec: RunnerSpec,
    serializer: str,
    dataset: str,
    data: str,
    operation: str,
    timing: dict[str, Any],
) -> dict[str, Any]:
    """The result event of one operation of one cell, timed in a fresh runner process."""
    cells = [
        {"serializer": serializer, "dataset": dataset, "data": data, "operations": [operation]}
    ]
    code, events = run_cells(spec, cells, timing)
    found = [e for e in events if e.get("event") == "result"]
    if code != 0 or len(found) != 1 or found[0].get("status") != "ok":
        raise RuntimeError(
            f"{spec.name}/{serializer} {dataset} {operation} failed: {found or code}"
        )
    return found[0]


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
