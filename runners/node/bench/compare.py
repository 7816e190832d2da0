#!/usr/bin/env python3
"""Accuracy check of the serbench Node.js runner against mitata and tinybench.

For each round and cell, in fresh processes and alternating which tool goes first:
  serbench:  serbench.runners.time_cell (the orchestrator's own schedule: calibration,
             steady-state warm-up, interleaved slices; standard profile, one process),
             with every other node serializer on the same dataset in that process, as
             `serbench run` measures it (--alone: the cell by itself);
             raw value = wall_ns[k] / iterations per sample
  mitata:    bench/native.mjs mitata, batches of serbench's calibrated iteration count;
             raw value = batch time / iterations
  tinybench: bench/native.mjs tinybench, one clock pair per call; raw value = call time
The same estimators are computed from every tool's raw values: minimum, median and the
fast-mode median (serbench's headline estimator, serbench.stats.fast_mode_median).

Usage (from runners/node, after `npm run build` and
`serbench datasets --scale quick --write` and `--scale standard --write`):
  ../../.venv/bin/python bench/compare.py [--rounds 3] [--jit-warmup-ms MS] [--equal-samples]
                                          [--alone]
--jit-warmup-ms replaces the standard profile's JIT minimum warm-up (README, "Accuracy");
--equal-samples has mitata take as many batches (tinybench as many calls) as serbench did,
so that the minimum is taken over the same number of values.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess

from serbench import datasets, runners
from serbench.stats import fast_mode_median
from serbench.timing import STANDARD

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.dirname(HERE)
CELLS = [  # small, medium, large
    ("msgpackr", "android-users", "quick", "encode"),
    ("json", "click-maps", "quick", "decode"),
    ("protobufjs", "log-records", "standard", "encode"),
]
TOOLS = ["mitata", "tinybench"]
ESTIMATORS = {"min": min, "median": statistics.median, "fast-mode median": fast_mode_median}


TIMING = dataclasses.replace(STANDARD, processes=1, peak_alloc=False)


NEIGHBOURS: list[str] = []  # the other serializers in serbench's process (none: --alone)


def serbench_raw(
    ser: str, ds: str, path: str, op: str, alone: bool = False
) -> tuple[list[float], int]:
    spec = runners.discover()["node"]
    neighbours = [] if alone else NEIGHBOURS
    t = runners.time_cell(spec, ser, ds, path, op, TIMING, neighbours)["timing"]
    return [w / t["iterations"] for w in t["wall_ns"]], t["iterations"]


def native_raw(
    tool: str, ser: str, ds: str, path: str, op: str, iterations: int, samples: int | None
) -> list[float]:
    budget = [] if samples is None else [str(samples)]
    out = subprocess.run(
        ["node", "--expose-gc", "bench/native.mjs", tool, ser, ds, path, op, str(iterations)]
        + budget,
        cwd=RUNNER_DIR,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.splitlines()[-1])["per_op_ns"]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jit-warmup-ms", type=float, default=None)
    ap.add_argument(
        "--equal-samples",
        action="store_true",
        help="mitata and tinybench measure as many batches / calls as serbench did",
    )
    ap.add_argument(
        "--alone",
        action="store_true",
        help="serbench times the cell by itself, not among the dataset's other cells",
    )
    a = ap.parse_args()
    global TIMING
    if not a.alone:
        described = runners.describe(runners.discover()["node"])
        NEIGHBOURS.extend(s["name"] for s in described["serializers"])
    if a.jit_warmup_ms is not None:
        ns = int(a.jit_warmup_ms * 1e6)
        TIMING = dataclasses.replace(
            TIMING, jit_warmup_min_ns=ns, warmup_max_ns=max(TIMING.warmup_max_ns, 2 * ns)
        )
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"node {node}; load average before: {os.getloadavg()} on {os.cpu_count()} CPUs")
    print(f"serbench JIT minimum warm-up: {TIMING.jit_warmup_min_ns / 1e6:.0f} ms")
    print("serbench times each cell " + ("alone" if a.alone else "among the dataset's cells"))
    budget = "as many samples as serbench" if a.equal_samples else "their own default time"
    print(f"mitata and tinybench measure {budget}")
    ratios: dict[tuple, dict[str, dict[str, list[float]]]] = {}
    for r in range(a.rounds):
        for ser, ds, scale, op in CELLS:
            path = str(datasets.get(ds).build(scale).path())  # type: ignore[union-attr]
            raw: dict[str, list[float]] = {}
            if r % 2 == 0:
                raw["serbench"], n = serbench_raw(ser, ds, path, op)
                k = len(raw["serbench"]) if a.equal_samples else None
                for tool in TOOLS:
                    raw[tool] = native_raw(tool, ser, ds, path, op, n, k)
            else:
                # the natives need serbench's batch size: a short calibration run first
                calibration, n = serbench_raw(ser, ds, path, op, alone=True)
                k = len(calibration) if a.equal_samples else None
                for tool in TOOLS:
                    raw[tool] = native_raw(tool, ser, ds, path, op, n, k)
                raw["serbench"], _ = serbench_raw(ser, ds, path, op)
            key = (ser, ds, scale, op)
            cell = ratios.setdefault(key, {t: {e: [] for e in ESTIMATORS} for t in TOOLS})
            line = []
            for tool in TOOLS:
                for e, f in ESTIMATORS.items():
                    cell[tool][e].append(f(raw["serbench"]) / f(raw[tool]))
                line.append(
                    f"{tool}: " + ", ".join(f"{e} {cell[tool][e][-1]:.3f}" for e in ESTIMATORS)
                )
            sb = {e: round(f(raw["serbench"])) for e, f in ESTIMATORS.items()}
            print(
                f"round {r + 1} {ser} {op} {ds} {scale} (n={n}; serbench ns {sb}): "
                + "; ".join(line),
                flush=True,
            )
    print()
    per_round = " | ".join(f"{e} ratio per round" for e in ESTIMATORS)
    print(f"| cell | vs | {per_round} | median of rounds ({' / '.join(ESTIMATORS)}) |")
    print("|---|---|---|---|---|---|")
    for (ser, ds, scale, op), cell in ratios.items():
        for tool in TOOLS:
            per = [", ".join(f"{x:.3f}" for x in cell[tool][e]) for e in ESTIMATORS]
            med = " / ".join(f"{statistics.median(cell[tool][e]):.3f}" for e in ESTIMATORS)
            print(f"| {ser} {op}, {ds} {scale} | {tool} | " + " | ".join(per) + f" | {med} |")
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
