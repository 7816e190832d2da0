#!/usr/bin/env python3
"""Accuracy check of the serbench Objective-C runner against a plain timing loop.

Objective-C has no community benchmark harness on GNUstep (XCTest's measureBlock is Apple's
only); the yardstick is the loop every Objective-C developer writes: clock_gettime around a
batch of library calls, an autorelease pool per call (bench/yardstick.m, `make bench`). It
binds the same serializer and Foundation objects but none of the runner's cell, batch loop
or sinks, with its own schedule: iterations doubled until a batch takes --sample-ms,
--warmup-samples batches of warm-up, then --samples batches.

The two tools run ALTERNATELY in one session: per round and cell, the yardstick process and
then serbench (serbench.schedule.time_cell: the orchestrator's calibration and steady-state
warm-up, then one slice of samples in a fresh runner process), the order swapped in even
rounds. The SAME estimators are computed from both tools' raw per-operation values (minimum,
median, and serbench's headline fast-mode median) and printed as serbench/yardstick ratios,
for wall time and for the thread's CPU time (which preemption on a busy machine cannot
inflate).

Usage (from runners/objc):
  make bench
  ../../.venv/bin/python bench/compare.py [--scale quick] [--rounds 3] [--samples 40]
                                          [--sample-ms 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess

from serbench import datasets, runners, schedule  # run with the repo's .venv python
from serbench.stats import fast_mode_median
from serbench.timing import one_slice

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.dirname(HERE)
BENCH = os.path.join(RUNNER_DIR, "build", "serbench-objc-bench")
CELLS = [  # small, medium, large
    ("nsjsonserialization", "android-users"),
    ("nsjsonserialization", "one-mb-dict"),
    ("nsjsonserialization", "log-records"),
]
OPS = ["encode", "decode"]


def data_file(scale: str, dataset: str) -> str:
    return str(datasets.get(dataset).build(scale).path())  # type: ignore[union-attr]


def run_yardstick(ser: str, ds: str, path: str, op: str, a) -> dict[str, list[float]]:
    out = subprocess.run(
        [BENCH, ser, ds, path, op, str(a.warmup_samples), str(a.samples), str(a.sample_ms)],
        check=True,
        capture_output=True,
        text=True,
        cwd=RUNNER_DIR,
    ).stdout
    d = json.loads(out)
    return {"wall": d["ns_per_op"], "cpu": d["cpu_ns_per_op"]}


def run_serbench(ser: str, ds: str, path: str, a) -> dict[str, dict[str, list[float]]]:
    ns = a.sample_ms * 1_000_000
    spec = runners.discover()["objc"]
    timing = one_slice(ns, a.samples, a.warmup_samples * ns)
    out = {}
    for op in OPS:
        t = schedule.time_cell(spec, ser, ds, path, op, timing)["timing"]
        n = t["iterations"]
        out[op] = {"wall": [w / n for w in t["wall_ns"]], "cpu": [c / n for c in t["cpu_ns"]]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--samples", type=int, default=40, help="measuring samples per tool, op and round"
    )
    ap.add_argument(
        "--warmup-samples",
        type=int,
        default=50,
        help="yardstick warm-up batches; serbench's warm-up cap is the same time",
    )
    ap.add_argument("--sample-ms", type=int, default=20)
    a = ap.parse_args()
    if not os.path.exists(BENCH):
        raise SystemExit("build/serbench-objc-bench is missing: run `make bench` first")
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    print(f"compiler: {gcc.splitlines()[0]}")
    print(f"load average before: {os.getloadavg()} on {os.cpu_count()} CPUs")
    print(
        f"rounds {a.rounds}, {a.samples} samples of {a.sample_ms} ms per tool, op and round;"
        f" scale {a.scale}"
    )
    pooled: dict[tuple, dict[str, list[float]]] = {}
    for r in range(1, a.rounds + 1):
        for ser, ds in CELLS:
            path = data_file(a.scale, ds)
            if r % 2 == 1:  # alternate which tool goes first
                ys = {op: run_yardstick(ser, ds, path, op, a) for op in OPS}
                sb = run_serbench(ser, ds, path, a)
            else:
                sb = run_serbench(ser, ds, path, a)
                ys = {op: run_yardstick(ser, ds, path, op, a) for op in OPS}
            for op in OPS:
                for clock in ("wall", "cpu"):
                    key = (ser, ds, op, clock)
                    pooled.setdefault(key, {"yardstick": [], "serbench": []})
                    pooled[key]["yardstick"] += ys[op][clock]
                    pooled[key]["serbench"] += sb[op][clock]
                    med = statistics.median(sb[op][clock]) / statistics.median(ys[op][clock])
                    print(
                        f"round {r} {ser:9} {ds:14} {op:6} {clock:4}"
                        f"  min ratio {min(sb[op][clock]) / min(ys[op][clock]):.3f}"
                        f"  median ratio {med:.3f}",
                        flush=True,
                    )
    print()
    print(
        f"{'cell':41} {'yardstick min':>13} {'serbench min':>12} {'ratio':>6}   "
        f"{'yardstick med':>13} {'serbench med':>12} {'ratio':>6}   {'fast-mode med ratio':>19}"
    )
    worst = 0.0
    for (ser, ds, op, clock), v in pooled.items():
        wm, sm = min(v["yardstick"]), min(v["serbench"])
        wd, sd = statistics.median(v["yardstick"]), statistics.median(v["serbench"])
        rfast = fast_mode_median(v["serbench"]) / fast_mode_median(v["yardstick"])
        worst = max(worst, abs(sm / wm - 1), abs(sd / wd - 1), abs(rfast - 1))
        print(
            f"{ser + '/' + ds + ' ' + op + ' ' + clock:41} {wm:13.0f} {sm:12.0f} {sm / wm:6.3f}   "
            f"{wd:13.0f} {sd:12.0f} {sd / wd:6.3f}   {rfast:19.3f}"
        )
    print(f"\nload average after: {os.getloadavg()}")
    print(f"largest deviation of a pooled ratio from 1: {worst * 100:.1f}% (goal: within 5%)")


if __name__ == "__main__":
    main()
