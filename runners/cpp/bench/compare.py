#!/usr/bin/env python3
"""Cross-check the serbench C++ runner's timing against Google Benchmark.

Both tools time the very same operation bodies (src/harness/cell.h) on the same cells, run
ALTERNATELY in one session (round r: gbench then runner, round r+1: runner then gbench).
From each tool's raw per-sample times (Google Benchmark: one per repetition, from
--benchmark_repetitions with --benchmark_report_aggregates_only=false and JSON output,
real_time and cpu_time; serbench: wall_ns[k] / iterations and cpu_ns[k] / iterations) the
same estimators are computed over the pooled samples: minimum and median. Prints
serbench/native ratios, and the median over rounds of each round's ratio of minima
(robust to the machine's slow phases, which move whole rounds). Google Benchmark gets a
warm-up (--benchmark_min_warmup_time).

Run from runners/cpp after building (cmake --build build):
    ../../.venv/bin/python bench/compare.py [--scale quick] [--rounds 12] [--samples 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from serbench import datasets, runners, schedule
from serbench.stats import fast_mode_median
from serbench.timing import one_slice

HERE = Path(__file__).resolve().parent
CPP = HERE.parent
ROOT = CPP.parent.parent
CELLS = [
    ("protobuf", "pb-vs-msgpack-test1", "decode"),
    ("msgpack-zerocopy", "pb-vs-msgpack-test3", "decode"),
    ("msgpack", "log-records", "decode"),
    ("protobuf", "log-records", "encode"),
]
# each cell twice: wall-clock time (the headline) and thread CPU time
KEYS = [c + (clock,) for c in CELLS for clock in ("wall", "cpu")]


def data_paths(scale: str) -> dict[str, str]:
    names = {d for _, d, _ in CELLS}
    return {d: str(datasets.get(d).build(scale).path()) for d in names}  # type: ignore[union-attr]


def run_gbench(paths: dict[str, str], samples: int, sample_s: float) -> dict[tuple, list[float]]:
    args = [str(CPP / "build" / "serbench-cpp-gbench")]
    args += [f"--cell={s}:{d}:{o}:{paths[d]}" for s, d, o in CELLS]
    args += [
        f"--benchmark_repetitions={samples}",
        "--benchmark_report_aggregates_only=false",
        "--benchmark_display_aggregates_only=false",
        "--benchmark_format=json",
        f"--benchmark_min_time={sample_s}",
        "--benchmark_min_warmup_time=0.1",
    ]
    doc = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    got: dict[tuple, list[float]] = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        key = tuple(b["run_name"].split("/")[:3])
        f = scale[b["time_unit"]]
        got.setdefault(key + ("wall",), []).append(b["real_time"] * f)
        got.setdefault(key + ("cpu",), []).append(b["cpu_time"] * f)
    return got


def run_serbench(paths: dict[str, str], samples: int, sample_s: float) -> dict[tuple, list[float]]:
    """Each cell timed by the orchestrator's own schedule (calibration, steady-state warm-up,
    then `samples` samples of at least sample_s) in a fresh runner process."""
    spec = runners.discover()["cpp"]
    timing = one_slice(int(sample_s * 1e9), samples)
    got: dict[tuple, list[float]] = {}
    for s, d, o in CELLS:
        t = schedule.time_cell(spec, s, d, paths[d], o, timing)["timing"]
        got[(s, d, o, "wall")] = [w / t["iterations"] for w in t["wall_ns"]]
        if t.get("cpu_ns"):
            got[(s, d, o, "cpu")] = [c / t["iterations"] for c in t["cpu_ns"]]
    return got


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", default="quick", choices=["quick", "full"])
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument(
        "--samples", type=int, default=10, help="samples (repetitions) per cell per round"
    )
    ap.add_argument("--sample-ms", type=float, default=10.0, help="target duration of one sample")
    a = ap.parse_args()
    subprocess.run(
        [
            "cmake",
            "--build",
            str(CPP / "build"),
            "--target",
            "serbench-cpp-runner",
            "serbench-cpp-gbench",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    paths = data_paths(a.scale)
    native: dict[tuple, list[float]] = {}
    ours: dict[tuple, list[float]] = {}
    per_round: dict[tuple, list[float]] = {}  # min ratio of each round
    for r in range(a.rounds):
        order = [("gbench", run_gbench), ("serbench", run_serbench)]
        if r % 2:
            order.reverse()
        this: dict[str, dict[tuple, list[float]]] = {}
        for name, fn in order:
            got = fn(paths, a.samples, a.sample_ms / 1000)
            this[name] = got
            target = native if name == "gbench" else ours
            for k, v in got.items():
                target.setdefault(k, []).extend(v)
        for k in KEYS:
            if this["gbench"].get(k) and this["serbench"].get(k):
                per_round.setdefault(k, []).append(
                    min(this["serbench"][k]) / min(this["gbench"][k])
                )
        print(f"round {r + 1} done", file=sys.stderr)
    print(
        f"{'cell / clock':50} {'gbench min':>12} {'serbench min':>12} {'ratio':>6}   "
        f"{'gbench med':>12} {'serbench med':>12} {'ratio':>6}   {'fast-mode med ratio':>19}   "
        f"{'per-round min ratio, median':>27}"
    )
    worst = 0.0
    for key in KEYS:
        g, s = native.get(key), ours.get(key)
        if not g or not s:
            print(f"{'/'.join(key):50} missing samples")
            continue
        rmin = min(s) / min(g)
        rmed = statistics.median(s) / statistics.median(g)
        rfast = fast_mode_median(s) / fast_mode_median(g)  # serbench's headline estimator
        worst = max(worst, abs(rmin - 1), abs(rmed - 1), abs(rfast - 1))
        print(
            f"{'/'.join(key):50} {min(g):12.0f} {min(s):12.0f} {rmin:6.3f}   "
            f"{statistics.median(g):12.0f} {statistics.median(s):12.0f} {rmed:6.3f}   "
            f"{rfast:19.3f}   {statistics.median(per_round[key]):27.3f}"
        )
    print(
        f"(ns per operation; samples per tool and cell: {a.rounds * a.samples}; "
        f"largest deviation from 1: {worst:.1%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
