#!/usr/bin/env python3
"""Accuracy check of the serbench Node.js runner against mitata and tinybench.

For each round and cell, in fresh processes and alternating which tool goes first:
  serbench:  serbench.schedule.time_cell (the orchestrator's own schedule: calibration,
             steady-state warm-up, interleaved slices; standard profile, one process);
             raw value = wall_ns[k] / iterations per sample
  mitata:    bench/native.mjs mitata, batches of serbench's calibrated iteration count;
             raw value = batch time / iterations
  tinybench: bench/native.mjs tinybench, one clock pair per call; raw value = call time
By default every tool measures the cell in the state a `serbench run` measures it in: the
dataset's other node cells prepared in the same process and run between the cell's slices
(serbench through the orchestrator's own interleaving; mitata and tinybench take as many
samples as serbench did, in as many slices, with every neighbour run before each slice).
--alone: every tool measures the cell by itself, mitata and tinybench for their own default
time (--equal-samples: as many samples as serbench).
Each tool's raw values are pooled over the rounds (fresh processes), as a run pools its
processes, and the same estimators are computed from every tool's pool: minimum, median and
the fast-mode median (serbench's headline estimator, serbench.stats.fast_mode_median).

Usage (from runners/node, after `npm run build` and
`serbench datasets --scale quick --write` and `--scale standard --write`):
  ../../.venv/bin/python bench/compare.py [--rounds 6] [--alone [--equal-samples]]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess

from serbench import datasets, runners, schedule
from serbench.stats import fast_mode_median
from serbench.timing import STANDARD

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.dirname(HERE)
CELLS = [  # small, medium, large
    ("msgpackr", "android-users", "quick", "encode"),
    ("json", "click-maps", "quick", "decode"),
    ("protobufjs", "log-records", "standard", "encode"),
]
TOOLS = ["serbench", "mitata", "tinybench"]
ESTIMATORS = {"min": min, "median": statistics.median, "fast-mode median": fast_mode_median}
TIMING = dataclasses.replace(STANDARD, processes=1, peak_alloc=False)
# a neighbour's slice in a run: slice_samples samples of at least min_sample_ns
NEIGHBOUR_SLICE_MS = TIMING.slice_samples * TIMING.min_sample_ns / 1e6


@dataclasses.dataclass
class Serbench:
    per_op_ns: list[float]
    iterations: int
    slices: int


def serbench_raw(ser: str, ds: str, path: str, op: str, neighbours: list[str]) -> Serbench:
    spec = runners.discover()["node"]
    t = schedule.time_cell(spec, ser, ds, path, op, TIMING, neighbours)["timing"]
    n = t["iterations"]
    return Serbench([w / n for w in t["wall_ns"]], n, len(t["slice_sizes"]))


def native_raw(
    tool: str,
    cell: tuple[str, str, str, str],
    path: str,
    sb: Serbench,
    neighbours: list[str],
    equal_samples: bool,
) -> list[float]:
    ser, ds, _scale, op = cell
    args = [tool, ser, ds, path, op, str(sb.iterations)]
    args += ["--warmup-ms", str(TIMING.jit_warmup_min_ns / 1e6)]
    if neighbours:
        args += ["--neighbours", ",".join(neighbours), "--slices", str(sb.slices)]
        args += ["--neighbour-slice-ms", str(NEIGHBOUR_SLICE_MS)]
    if neighbours or equal_samples:
        args += ["--samples", str(len(sb.per_op_ns))]
    out = subprocess.run(
        ["node", "--expose-gc", "bench/native.mjs", *args],
        cwd=RUNNER_DIR,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.splitlines()[-1])["per_op_ns"]


def one_round(
    r: int, cell: tuple[str, str, str, str], neighbours: list[str], equal_samples: bool
) -> dict[str, list[float]]:
    ser, ds, scale, op = cell
    path = str(datasets.get(ds).build(scale).path())  # type: ignore[union-attr]
    # even rounds: serbench first; odd rounds: serbench last (the first run only gives the
    # natives serbench's batch size and slice count)
    sb = serbench_raw(ser, ds, path, op, neighbours)
    raw = {tool: native_raw(tool, cell, path, sb, neighbours, equal_samples) for tool in TOOLS[1:]}
    last = sb if r % 2 == 0 else serbench_raw(ser, ds, path, op, neighbours)
    raw["serbench"] = last.per_op_ns
    return raw


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--alone", action="store_true", help="every tool times the cell by itself")
    ap.add_argument(
        "--equal-samples",
        action="store_true",
        help="alone: mitata and tinybench measure as many samples as serbench did",
    )
    a = ap.parse_args()
    neighbours: list[str] = []
    if not a.alone:
        described = runners.describe(runners.discover()["node"])
        neighbours = [s["name"] for s in described["serializers"]]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"node {node}; load average before: {os.getloadavg()} on {os.cpu_count()} CPUs")
    where = "by itself" if a.alone else "among the dataset's other node cells, interleaved"
    print(f"every tool times each cell {where}; {a.rounds} rounds of fresh processes")
    pools: dict[tuple[str, str, str, str], dict[str, list[float]]] = {}
    per_round: dict[tuple[str, str, str, str], dict[str, list[float]]] = {}
    for r in range(a.rounds):
        for cell in CELLS:
            raw = one_round(r, cell, neighbours, a.equal_samples)
            pool = pools.setdefault(cell, {t: [] for t in TOOLS})
            for tool in TOOLS:
                pool[tool] += raw[tool]
            ratios = per_round.setdefault(cell, {t: [] for t in TOOLS[1:]})
            for tool in TOOLS[1:]:
                ratios[tool].append(fast_mode_median(raw["serbench"]) / fast_mode_median(raw[tool]))
            ns = {t: round(fast_mode_median(raw[t])) for t in TOOLS}
            print(f"round {r + 1} {' '.join(cell)}: fast-mode median ns {ns}", flush=True)
    print()
    names = " / ".join(ESTIMATORS)
    print(f"| cell | vs | serbench / tool, pooled ({names}) | fast-mode median ratio per round |")
    print("|---|---|---|---|")
    for cell, pool in pools.items():
        ser, ds, scale, op = cell
        for tool in TOOLS[1:]:
            pooled = " / ".join(
                f"{f(pool['serbench']) / f(pool[tool]):.3f}" for f in ESTIMATORS.values()
            )
            rounds = ", ".join(f"{x:.3f}" for x in per_round[cell][tool])
            print(f"| {ser} {op}, {ds} {scale} | {tool} | {pooled} | {rounds} |")
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
