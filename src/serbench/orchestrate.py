"""Plans the matrix, launches runner processes, survives their faults, stores every result."""

from __future__ import annotations

import fnmatch
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from serbench import PROTOCOL_VERSION, datasets
from serbench.operations import OPERATIONS
from serbench.runners import RunnerSpec, RunnerUnavailable, describe, discover
from serbench.store import CellKey, Store

QUICK_TIMING = {
    "min_sample_ns": 1_000_000,
    "min_samples": 10,
    "max_samples": 40,
    "max_measure_ns": 40_000_000,
    "warmup_window": 3,
    "warmup_tolerance": 0.1,
    "warmup_max_ns": 150_000_000,  # a JIT needs this long; others reach steady state sooner
    "peak_alloc": False,
}
FULL_TIMING = {
    "min_sample_ns": 2_000_000,
    "min_samples": 30,
    "max_samples": 300,
    "max_measure_ns": 300_000_000,
    "warmup_window": 5,
    "warmup_tolerance": 0.05,
    "warmup_max_ns": 300_000_000,
    "peak_alloc": True,
    "budget_ns": 3_000_000_000,
}


@dataclass
class RunConfig:
    scale: str = "standard"
    datasets: list[str] = field(default_factory=list)  # empty: all
    serializers: list[str] = field(default_factory=list)  # names or runner/name globs
    runners: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=lambda: ["encode", "decode"])
    processes: int = 1
    isolation: str = "cell"  # "cell": a fresh process per cell; "dataset": per runner x dataset
    cell_timeout: float = 600.0
    timing: dict[str, int | float] = field(default_factory=lambda: dict(FULL_TIMING))

    @classmethod
    def quick(cls, **overrides: Any) -> RunConfig:
        base = cls(
            scale="quick", isolation="dataset", cell_timeout=120.0, timing=dict(QUICK_TIMING)
        )
        for k, v in overrides.items():
            setattr(base, k, v)
        return base


@dataclass
class Cell:
    runner: str
    serializer: str
    dataset: str
    process: int

    def keys(self, operations: list[str]) -> list[CellKey]:
        return [
            CellKey(self.runner, self.serializer, self.dataset, op, self.process)
            for op in operations
        ]


def _selected(name: str, runner: str, patterns: list[str]) -> bool:
    if not patterns:
        return True
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(f"{runner}/{name}", p) for p in patterns)


def validate(config: RunConfig, specs: dict[str, RunnerSpec]) -> None:
    """Unknown names are errors that list the valid ones."""
    for name in config.datasets:
        datasets.get(name)
    for name in config.runners:
        if name not in specs:
            raise datasets.UnknownName(
                f"unknown runner {name!r}; valid runners: {', '.join(specs)}"
            )
    valid_ops = set(OPERATIONS)
    for op in config.operations:
        if op not in valid_ops:
            raise datasets.UnknownName(
                f"unknown operation {op!r}; valid: {', '.join(sorted(valid_ops))}"
            )


@dataclass
class Plan:
    cells: list[Cell]
    describes: dict[str, dict[str, Any]]
    unavailable: dict[str, str]
    not_applicable: list[tuple[Cell, str]]
    specs: dict[str, RunnerSpec]


def plan(config: RunConfig, specs: dict[str, RunnerSpec] | None = None) -> Plan:
    specs = specs if specs is not None else discover()
    validate(config, specs)
    wanted_datasets = config.datasets or list(datasets.DATASETS)
    describes, unavailable = {}, {}
    cells, not_applicable = [], []
    for name, spec in specs.items():
        if config.runners and name not in config.runners:
            continue
        try:
            describes[name] = describe(spec)
        except RunnerUnavailable as exc:
            unavailable[name] = str(exc)
            continue
        for s in describes[name]["serializers"]:
            if not _selected(s["name"], name, config.serializers):
                continue
            for ds in wanted_datasets:
                entry = s.get("datasets", {}).get(
                    ds, {"applicable": False, "reason": "runner does not list it"}
                )
                for p in range(config.processes):
                    cell = Cell(name, s["name"], ds, p)
                    if entry.get("applicable"):
                        cells.append(cell)
                    else:
                        not_applicable.append((cell, entry.get("reason", "")))
    if config.serializers and not cells and not not_applicable:
        known = sorted({f"{r}/{s['name']}" for r, d in describes.items() for s in d["serializers"]})
        raise datasets.UnknownName(
            f"no serializer matches {config.serializers}; valid: {', '.join(known)}"
        )
    return Plan(cells, describes, unavailable, not_applicable, specs)


def batches(cells: list[Cell], isolation: str) -> list[list[Cell]]:
    """Groups of cells that share one runner process."""
    groups: dict[tuple[Any, ...], list[Cell]] = {}
    for c in cells:
        key = (
            (c.runner, c.dataset, c.process)
            if isolation == "dataset"
            else (c.runner, c.serializer, c.dataset, c.process)
        )
        groups.setdefault(key, []).append(c)
    return list(groups.values())


Progress = Callable[[str, int], None]  # (description, operations finished)


class BatchRunner:
    """Runs one batch of cells in runner processes, restarting after crashes and hangs."""

    def __init__(
        self,
        spec: RunnerSpec,
        config: RunConfig,
        store: Store,
        run_id: int,
        data_paths: dict[str, str],
        progress: Progress,
        done: set[CellKey],
    ) -> None:
        self.spec, self.config, self.store, self.run_id = spec, config, store, run_id
        self.data_paths, self.progress, self.done = data_paths, progress, done

    def _save(self, key: CellKey, result: dict[str, Any]) -> None:
        """Store a result unless an earlier (resumed) process already stored that one."""
        if key not in self.done:
            self.store.save_result(self.run_id, key, result)

    def _request(self, cells: list[Cell]) -> str:
        return json.dumps(
            {
                "protocol": PROTOCOL_VERSION,
                "cells": [
                    {
                        "serializer": c.serializer,
                        "dataset": c.dataset,
                        "data": self.data_paths[c.dataset],
                        "operations": self.config.operations,
                    }
                    for c in cells
                ],
                "timing": self.config.timing,
                "dump_dir": None,
            }
        )

    def _fail(self, cell: Cell, code: str, message: str, done_ops: set[str]) -> None:
        for op in self.config.operations:
            if op in done_ops:
                continue
            key = CellKey(cell.runner, cell.serializer, cell.dataset, op, cell.process)
            self._save(key, {"status": "error", "error": {"code": code, "message": message}})
            self.progress(f"{cell.runner}/{cell.serializer} {cell.dataset}: {code}", 1)

    def run(self, cells: list[Cell]) -> None:
        pending = list(cells)
        while pending:
            pending = self._one_process(pending)

    def _one_process(self, cells: list[Cell]) -> list[Cell]:
        """Run cells in one process; return the ones still to do after a fault."""
        by_name = {(c.serializer, c.dataset): c for c in cells}
        done_ops: dict[tuple[str, str], set[str]] = {k: set() for k in by_name}
        finished: set[tuple[str, str]] = set()
        current: tuple[str, str] | None = None
        with tempfile.TemporaryFile("w+") as stderr:
            proc = subprocess.Popen(
                [*self.spec.command, "run"],
                cwd=self.spec.directory,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                start_new_session=True,
            )
            lines: queue.Queue[str | None] = queue.Queue()

            def pump() -> None:
                assert proc.stdout is not None
                for line in proc.stdout:
                    lines.put(line)
                lines.put(None)

            threading.Thread(target=pump, daemon=True).start()
            try:
                assert proc.stdin is not None
                proc.stdin.write(self._request(cells))
                proc.stdin.close()
            except BrokenPipeError:
                pass
            fault: tuple[str, str] | None = None
            saw_done = False
            while True:
                try:
                    line = lines.get(timeout=self.config.cell_timeout)
                except queue.Empty:
                    fault = ("timeout", f"no output for {self.config.cell_timeout:.0f} s; killed")
                    break
                if line is None:
                    break
                try:
                    event = json.loads(line)
                    kind = event["event"]
                except (ValueError, KeyError, TypeError):
                    fault = ("malformed_output", f"runner printed {line.strip()[:200]!r}")
                    break
                if kind == "start":
                    current = (event.get("serializer"), event.get("dataset"))
                elif kind == "result":
                    name = (event.get("serializer"), event.get("dataset"))
                    op = event.get("operation")
                    if name not in by_name or op not in self.config.operations:
                        continue
                    c = by_name[name]
                    self._save(CellKey(c.runner, c.serializer, c.dataset, op, c.process), event)
                    done_ops[name].add(op)
                    self.progress(f"{c.runner}/{c.serializer} {c.dataset} {op}", 1)
                    if done_ops[name] >= set(self.config.operations):
                        finished.add(name)
                elif kind == "done":
                    saw_done = True
                elif kind == "error":
                    fault = ("runner_error", str(event.get("message")))
                    break
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            code = proc.wait()
            stderr.seek(0)
            tail = " | ".join(stderr.read().strip().splitlines()[-3:])
        if fault is None and not saw_done:
            fault = ("crashed", f"runner exited {code} mid-cell: {tail}"[:500])
        unfinished = [c for k, c in by_name.items() if k not in finished]
        if fault is None:
            for c in unfinished:  # done without answering: the runner's fault, said once
                self._fail(
                    c,
                    "missing_result",
                    "runner finished without a result",
                    done_ops[(c.serializer, c.dataset)],
                )
            return []
        blamed = current if current in by_name and current not in finished else None
        if blamed is None and unfinished:
            blamed = (unfinished[0].serializer, unfinished[0].dataset)
        if blamed is not None:
            self._fail(by_name[blamed], fault[0], fault[1], done_ops[blamed])
        return [c for c in unfinished if (c.serializer, c.dataset) != blamed]


def execute(
    config: RunConfig,
    the_plan: Plan,
    store: Store,
    run_id: int,
    progress: Progress,
    done: set[CellKey] | None = None,
) -> None:
    """Run every planned cell not already in ``done``; not-applicable ones are stored as such."""
    done = done or set()
    ops = config.operations
    for cell, reason in the_plan.not_applicable:
        for key in cell.keys(ops):
            if key not in done:
                store.save_result(
                    run_id,
                    key,
                    {
                        "status": "not_applicable",
                        "error": {"code": "not_applicable", "message": reason},
                    },
                )
    todo = [c for c in the_plan.cells if not set(c.keys(ops)) <= done]
    specs = the_plan.specs
    data_paths = {
        name: str(datasets.get(name).build(config.scale).path())  # type: ignore[arg-type]
        for name in {c.dataset for c in todo}
    }
    for group in batches(todo, config.isolation):
        BatchRunner(specs[group[0].runner], config, store, run_id, data_paths, progress, done).run(
            group
        )


def config_json(config: RunConfig) -> dict[str, Any]:
    return asdict(config)
