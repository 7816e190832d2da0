"""`serbench calibrate`: serbench's timing against a runner's native harness.

A runner declares the harness its community times code with (testing.B, criterion, JMH,
Google Benchmark, ...) as `native_harness` in its runner.json (docs/runner-protocol.md,
section 12). Both tools time the same cells, alternately in one session (which goes first
alternates per round), and the same estimators are computed from both tools' raw samples;
the ratios serbench / native say how far serbench's figures are from the ones the
language's own harness gives. "Accurate" means the pooled ratio of serbench's headline
estimator (the fast-edge median) within ±5% on every cell and clock
(../shared/runner-done.md, item 7: "the same estimator computed from both tools' raw
values"). The minimum and the plain median are printed beside it but not judged: on a
machine that is slow for a varying share of the time, the plain median follows how many of
each tool's samples fell in a slow phase, which swings either way between runs of the same
code (docs/method.md, "serbench against the native harnesses").
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from serbench import datasets, runners, schedule
from serbench.runners import RunnerSpec
from serbench.stats import headline
from serbench.timing import (
    CALIBRATE_ROUNDS,
    CALIBRATE_SAMPLE_NS,
    CALIBRATE_SAMPLES,
    CALIBRATE_WARMUP_NS,
    TIME_CELL_TIMEOUT_S,
    one_slice,
)

GOAL = 0.05  # the headline's pooled ratio within ±5% of 1 is accurate

# The cells, by size: dataset, operation, and the formats preferred for its serializer
# (the first of the runner's serializers, in its own order, of the first format it has).
CELLS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("small", "android-users", "encode", ("msgpack", "protobuf", "json")),
    ("medium", "log-records", "decode", ("protobuf", "msgpack", "json")),
    ("large", "one-mb-dict", "decode", ("json", "msgpack", "protobuf")),
)
ESTIMATORS: dict[str, Callable[[list[float]], float]] = {
    "median": statistics.median,
    "minimum": min,
    "fast-edge median": headline,  # serbench's headline
}
JUDGED = "fast-edge median"
CLOCKS = ("wall", "cpu")


class CalibrateError(Exception):
    """Something the user can act on: no harness declared, a failed build, a bad line."""


@dataclass(frozen=True)
class NativeHarness:
    name: str
    command: list[str]
    build: list[list[str]] = field(default_factory=list)


@dataclass(frozen=True)
class Cell:
    size: str
    serializer: str
    dataset: str
    operation: str

    def label(self) -> str:
        return f"{self.serializer} {self.operation} {self.dataset} ({self.size})"


@dataclass
class Samples:
    """One tool's samples of one cell in one round, per operation."""

    iterations: int
    wall: list[float]
    cpu: list[float] | None


def native_harness(spec: RunnerSpec) -> NativeHarness:
    """The runner's `native_harness` entry, or CalibrateError naming the file and field."""
    manifest = spec.directory / "runner.json"
    try:
        raw = json.loads(manifest.read_text()).get("native_harness")
    except ValueError as exc:
        raise CalibrateError(f"{manifest}: {exc}") from exc
    if raw is None:
        raise CalibrateError(f"{manifest}: no native_harness entry (docs/runner-protocol.md §12)")

    def commands(value: object, key: str) -> list[list[str]]:
        if not isinstance(value, list) or not all(
            isinstance(c, list) and c and all(isinstance(a, str) for a in c) for c in value
        ):
            raise CalibrateError(f"{manifest}: native_harness.{key}: a list of commands")
        return value

    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        raise CalibrateError(f"{manifest}: native_harness.name: the harness's name")
    return NativeHarness(
        name=raw["name"],
        command=commands([raw.get("command")], "command")[0],
        build=commands(raw.get("build", []), "build"),
    )


def build_native(spec: RunnerSpec, harness: NativeHarness) -> None:
    for command in harness.build:
        proc = subprocess.run(
            command, cwd=spec.directory, capture_output=True, text=True, stdin=subprocess.DEVNULL
        )
        if proc.returncode != 0:
            raise CalibrateError(
                f"building {harness.name} ({' '.join(command)}) exited {proc.returncode}: "
                + _gist(proc.stderr or proc.stdout)
            )


def _gist(output: str) -> str:
    """A failed command's first and last lines: where an error says what happened (a
    panic, a JavaScript exception) and where it ends (a Python traceback)."""
    lines = [line for line in output.strip().splitlines() if line.strip()]
    if len(lines) > 5:
        lines = [*lines[:2], "...", *lines[-3:]]
    return " | ".join(lines)


def pick_cells(
    description: dict[str, Any],
    serializer: str | None = None,
    dataset: str | None = None,
    operation: str | None = None,
) -> list[Cell]:
    """The small, medium and large cells for this runner (or the one the options name)."""
    serializers = description["serializers"]
    wanted = list(CELLS)
    if dataset is not None:
        datasets.get(dataset)  # UnknownName for a typo
        wanted = [("chosen", dataset, "decode", ("msgpack", "protobuf", "json"))]

    def applicable(s: dict[str, Any], ds: str) -> bool:
        return bool(s.get("datasets", {}).get(ds, {}).get("applicable"))

    cells = []
    for size, ds, op, formats in wanted:
        candidates = [s for s in serializers if applicable(s, ds)]
        if serializer is not None:
            chosen = [s for s in candidates if s["name"] == serializer]
        else:
            chosen = [s for f in formats for s in candidates if s.get("format") == f]
        if chosen:
            cells.append(Cell(size, chosen[0]["name"], ds, operation or op))
    if not cells:
        what = serializer or "a msgpack, protobuf or json serializer"
        where = dataset or "its datasets"
        raise CalibrateError(f"{description['runner']} has no cell for {what} on {where}")
    return cells


def time_serbench(spec: RunnerSpec, cell: Cell, path: str, samples: int, sample_ns: int) -> Samples:
    """The orchestrator's own schedule (calibration, steady-state warm-up, one slice of
    `samples` samples) in a fresh runner process."""
    timing = one_slice(sample_ns, samples)
    t = schedule.time_cell(spec, cell.serializer, cell.dataset, path, cell.operation, timing)
    t = t["timing"]
    n = t["iterations"]
    cpu = t.get("cpu_ns")
    return Samples(
        n, [w / n for w in t["wall_ns"]], [c / n for c in cpu] if cpu and None not in cpu else None
    )


def time_native(
    spec: RunnerSpec,
    harness: NativeHarness,
    cell: Cell,
    path: str,
    iterations: int,
    samples: int,
    sample_ns: int,
) -> Samples:
    """The native harness's samples of the cell, each `iterations` operations long unless
    the harness chose its own batch (it then says how many in each line)."""
    args = [
        *harness.command,
        *("--serializer", cell.serializer, "--dataset", cell.dataset, "--dataset-file", path),
        *("--operation", cell.operation, "--iterations", str(iterations)),
        *("--samples", str(samples), "--sample-ms", f"{sample_ns / 1e6:g}"),
        *("--warmup-ms", f"{CALIBRATE_WARMUP_NS / 1e6:g}"),
    ]
    try:
        proc = subprocess.run(
            args,
            cwd=spec.directory,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=TIME_CELL_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CalibrateError(f"{harness.name} on {cell.label()}: {exc}") from exc
    if proc.returncode != 0:
        raise CalibrateError(
            f"{harness.name} on {cell.label()} exited {proc.returncode}: "
            + _gist(proc.stderr or proc.stdout)
        )
    return parse_native(proc.stdout, iterations, f"{harness.name} ({' '.join(harness.command)})")


def parse_native(stdout: str, iterations: int, source: str) -> Samples:
    """Per-operation samples from the harness's JSON lines; other lines are its own report."""
    wall: list[float] = []
    cpu: list[float] = []
    has_cpu = True
    for number, line in enumerate(stdout.splitlines(), 1):
        if not line.startswith("{"):
            continue
        try:
            row = json.loads(line)
            n = row.get("iterations", iterations)
            w, c = row["wall_ns"], row.get("cpu_ns")
            if not (isinstance(n, int) and n > 0 and isinstance(w, int | float) and w > 0):
                raise ValueError("wall_ns and iterations must be positive numbers")
        except (ValueError, KeyError, AttributeError) as exc:
            raise CalibrateError(f"{source}, stdout line {number}: {exc}: {line[:200]}") from exc
        wall.append(w / n)
        if isinstance(c, int | float) and c > 0:
            cpu.append(c / n)
        else:
            has_cpu = False
    if not wall:
        raise CalibrateError(f'{source} printed no sample line ({{"wall_ns": ...}})')
    return Samples(iterations, wall, cpu if has_cpu else None)


@dataclass
class CellResult:
    cell: Cell
    rounds: list[dict[str, Samples]] = field(default_factory=list)  # tool -> samples

    def pooled(self, tool: str, clock: str) -> list[float] | None:
        values: list[float] = []
        for r in self.rounds:
            got = getattr(r[tool], clock)
            if got is None:
                return None
            values += got
        return values

    def estimates(self) -> dict[str, dict[str, dict[str, Any]]]:
        """clock -> estimator -> serbench, native, pooled ratio and each round's ratio."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for clock in CLOCKS:
            ours, theirs = self.pooled("serbench", clock), self.pooled("native", clock)
            if ours is None or theirs is None:
                continue
            out[clock] = {}
            for name, estimator in ESTIMATORS.items():
                s, n = estimator(ours), estimator(theirs)
                per_round = [
                    estimator(getattr(r["serbench"], clock))
                    / estimator(getattr(r["native"], clock))
                    for r in self.rounds
                ]
                out[clock][name] = {"serbench": s, "native": n, "ratio": s / n, "rounds": per_round}
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "size": self.cell.size,
            "serializer": self.cell.serializer,
            "dataset": self.cell.dataset,
            "operation": self.cell.operation,
            "iterations": [r["serbench"].iterations for r in self.rounds],
            "samples": {t: len(self.pooled(t, "wall") or []) for t in ("serbench", "native")},
            "estimates": self.estimates(),
        }


@dataclass
class Calibration:
    runner: str
    harness: str
    scale: str
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    cells: list[CellResult] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # cell label -> why

    def worst(self, clock: str, estimator: str = JUDGED) -> float | None:
        """The largest deviation from 1 of an estimator's pooled ratio on this clock."""
        deviations = [
            abs(by[estimator]["ratio"] - 1)
            for c in self.cells
            if (by := c.estimates().get(clock)) and estimator in by
        ]
        return max(deviations) if deviations else None

    def as_dict(self) -> dict[str, Any]:
        worst = {clock: self.worst(clock) for clock in CLOCKS}
        return {
            "runner": self.runner,
            "native_harness": self.harness,
            "scale": self.scale,
            "cpus": os.cpu_count(),
            "load_before": list(self.load_before),
            "load_after": list(self.load_after),
            "goal": GOAL,
            "judged": JUDGED,
            "largest_deviation": worst,
            "largest_deviation_by_estimator": {
                c: {name: self.worst(c, name) for name in ESTIMATORS} for c in CLOCKS
            },
            "accurate": {c: w is not None and w <= GOAL for c, w in worst.items()},
            "cells": [c.as_dict() for c in self.cells],
            "failures": self.failures,
        }


def calibrate(
    spec: RunnerSpec,
    cells: Sequence[Cell],
    harness: NativeHarness,
    scale: str = "quick",
    rounds: int = CALIBRATE_ROUNDS,
    samples: int = CALIBRATE_SAMPLES,
    sample_ns: int = CALIBRATE_SAMPLE_NS,
    progress: Callable[[str], None] = lambda _line: None,
) -> Calibration:
    """Both tools on every cell, `rounds` times; serbench goes first in even rounds (its
    first run also gives the native harness its batch length), the native harness in odd
    ones, with the batch length of serbench's previous run."""
    result = Calibration(spec.name, harness.name, scale, os.getloadavg())
    for cell in cells:
        path = str(datasets.get(cell.dataset).build(scale).path())  # type: ignore[arg-type]
        done = CellResult(cell)
        iterations = 0
        try:
            for r in range(rounds):
                got: dict[str, Samples] = {}
                order = ["serbench", "native"] if r % 2 == 0 else ["native", "serbench"]
                for tool in order:
                    progress(f"{cell.label()}: round {r + 1}/{rounds}, {tool}")
                    if tool == "serbench":
                        got[tool] = time_serbench(spec, cell, path, samples, sample_ns)
                        iterations = got[tool].iterations
                    else:
                        got[tool] = time_native(
                            spec, harness, cell, path, iterations, samples, sample_ns
                        )
                done.rounds.append(got)
        except (CalibrateError, RuntimeError) as exc:
            result.failures[cell.label()] = str(exc)
            continue
        result.cells.append(done)
    result.load_after = os.getloadavg()
    return result


def run(
    runner: str,
    serializer: str | None = None,
    dataset: str | None = None,
    operation: str | None = None,
    scale: str = "quick",
    rounds: int = CALIBRATE_ROUNDS,
    samples: int = CALIBRATE_SAMPLES,
    sample_ns: int = CALIBRATE_SAMPLE_NS,
    progress: Callable[[str], None] = lambda _line: None,
) -> Calibration:
    specs = runners.discover()
    if runner not in specs:
        raise CalibrateError(f"unknown runner {runner!r}; valid: {', '.join(specs)}")
    spec = specs[runner]
    harness = native_harness(spec)
    try:
        description = runners.describe(spec)
    except runners.RunnerUnavailable as exc:
        raise CalibrateError(f"runner {runner} unavailable: {exc}") from exc
    cells = pick_cells(description, serializer, dataset, operation)
    progress(f"building {harness.name}")
    build_native(spec, harness)
    return calibrate(spec, cells, harness, scale, rounds, samples, sample_ns, progress)


def _ns(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def print_calibration(result: Calibration, console: Console) -> None:
    load = ", ".join(f"{x:.2f}" for x in result.load_before)
    after = ", ".join(f"{x:.2f}" for x in result.load_after)
    console.print(
        f"[bold]{result.runner}[/bold]: serbench / {result.harness}, scale {result.scale}; "
        f"load average {load} before, {after} after, on {os.cpu_count()} CPUs"
    )
    for c in result.cells:
        table = Table(title=c.cell.label(), title_justify="left")
        table.add_column("clock")
        table.add_column("estimator")
        for column in ("serbench ns/op", f"{result.harness} ns/op", "ratio, pooled"):
            table.add_column(column, justify="right")
        table.add_column("ratio per round")
        for clock, by_estimator in c.estimates().items():
            for name, e in by_estimator.items():
                off = name == JUDGED and abs(e["ratio"] - 1) > GOAL
                ratio = f"[red]{e['ratio']:.3f}[/red]" if off else f"{e['ratio']:.3f}"
                rounds = " ".join(f"{x:.3f}" for x in e["rounds"])
                table.add_row(clock, name, _ns(e["serbench"]), _ns(e["native"]), ratio, rounds)
        console.print(table)
    for label, why in result.failures.items():
        console.print(f"[yellow]{label}: not compared:[/yellow] {why}")
    for clock, name in (("wall", "wall"), ("cpu", "thread CPU")):
        worst = result.worst(clock)
        if worst is not None:
            verdict = "accurate" if worst <= GOAL else "not accurate"
            others = ", ".join(
                f"{other} {w:.1%}"
                for other in ESTIMATORS
                if other != JUDGED and (w := result.worst(clock, other)) is not None
            )
            console.print(
                f"{name}: the headline ({JUDGED}) {worst:.1%} from 1 at most "
                f"({verdict}: the goal is within ±{GOAL:.0%}); not judged: {others}"
            )


def write_json(result: Calibration, path: Path | None) -> str:
    text = json.dumps(result.as_dict(), indent=2)
    if path is not None:
        path.write_text(text + "\n")
    return text
