#!/usr/bin/env python3
"""Cross-check the serbench Rust runner's timing against criterion.

Both tools time the very same operation bodies (`CellOps::run` in the runner's library) on
the same cells, run ALTERNATELY in one session (round r: criterion then serbench, round
r+1: serbench then criterion). serbench times each cell with the orchestrator's own
schedule in a fresh runner process (schedule.time_cell); criterion runs the bench binary
of bench/benches/cells.rs with flat sampling. From each tool's raw per-sample times
(criterion: target/criterion/<id>/new/sample.json, times[k] / iters[k]; serbench:
wall_ns[k] / iterations) the same estimators are computed over the pooled samples:
minimum, median and serbench's headline estimator (the fast-mode median). Prints the
serbench/criterion ratios and the median over rounds of each round's ratio of minima.

Run from runners/rust:
    ../../.venv/bin/python bench/compare.py [--rounds 10] [--samples 10] [--sample-ms 10]
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
RUST = HERE.parent
CELLS = [
    ("prost", "pb-vs-msgpack-test1", "decode"),  # small messages, a stream
    ("rmp-serde", "android-users", "encode"),  # one small object graph
    ("serde_json", "log-records", "decode"),  # a large object graph
    ("bincode", "log-records", "encode"),
]


def data_paths(scale: str) -> dict[str, str]:
    names = {d for _, d, _ in CELLS}
    return {d: str(datasets.get(d).build(scale).path()) for d in names}  # type: ignore[union-attr]


def bench_binary() -> str:
    out = subprocess.run(
        [
            "cargo",
            "bench",
            "--locked",
            "-p",
            "serbench-rust-bench",
            "--bench",
            "cells",
            "--no-run",
            "--message-format=json",
        ],
        cwd=RUST,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if (
            msg.get("reason") == "compiler-artifact"
            and msg["target"]["name"] == "cells"
            and msg.get("executable")
        ):
            return msg["executable"]
    raise RuntimeError("no criterion bench binary")


def run_criterion(
    exe: str, paths: dict[str, str], samples: int, sample_s: float
) -> dict[tuple, list[float]]:
    env = {"SERBENCH_CELLS": ";".join(f"{s}:{d}:{o}:{paths[d]}" for s, d, o in CELLS)}
    args = [
        exe,
        "--bench",
        "--warm-up-time",
        "1",
        "--sample-size",
        str(max(samples, 10)),
        "--measurement-time",
        str(max(samples, 10) * sample_s),
        "--noplot",
    ]
    subprocess.run(
        args,
        cwd=RUST,
        env={**__import__("os").environ, **env},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    got: dict[tuple, list[float]] = {}
    for s, d, o in CELLS:
        doc = json.loads(
            (
                RUST / "target" / "criterion" / f"{s}__{d}__{o}" / "cell" / "new" / "sample.json"
            ).read_text()
        )
        got[(s, d, o)] = [t / n for t, n in zip(doc["times"], doc["iters"], strict=True)]
    return got


def run_serbench(paths: dict[str, str], samples: int, sample_s: float) -> dict[tuple, list[float]]:
    spec = runners.discover()["rust"]
    timing = one_slice(int(sample_s * 1e9), samples)
    got: dict[tuple, list[float]] = {}
    for s, d, o in CELLS:
        t = schedule.time_cell(spec, s, d, paths[d], o, timing)["timing"]
        got[(s, d, o)] = [w / t["iterations"] for w in t["wall_ns"]]
    return got


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", default="quick", choices=["quick", "standard", "full"])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--samples", type=int, default=10, help="samples per cell per round")
    ap.add_argument("--sample-ms", type=float, default=10.0, help="target duration of one sample")
    a = ap.parse_args()
    subprocess.run(
        ["cargo", "build", "--release", "--locked", "--bin", "serbench-runner"],
        cwd=RUST,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    exe = bench_binary()
    paths = data_paths(a.scale)
    native: dict[tuple, list[float]] = {}
    ours: dict[tuple, list[float]] = {}
    per_round: dict[tuple, list[float]] = {}
    for r in range(a.rounds):
        order = [
            ("criterion", lambda: run_criterion(exe, paths, a.samples, a.sample_ms / 1000)),
            ("serbench", lambda: run_serbench(paths, a.samples, a.sample_ms / 1000)),
        ]
        if r % 2:
            order.reverse()
        this: dict[str, dict[tuple, list[float]]] = {}
        for name, fn in order:
            this[name] = fn()
            target = native if name == "criterion" else ours
            for k, v in this[name].items():
                target.setdefault(k, []).extend(v)
        for k in CELLS:
            per_round.setdefault(k, []).append(min(this["serbench"][k]) / min(this["criterion"][k]))
        print(f"round {r + 1} done", file=sys.stderr)
    print(
        f"{'cell':42} {'crit min':>10} {'sb min':>10} {'ratio':>6}   {'crit med':>10} {'sb med':>10} "
        f"{'ratio':>6}   {'fast-mode med ratio':>19}   {'per-round min ratio, median':>27}"
    )
    worst = 0.0
    for key in CELLS:
        g, s = native[key], ours[key]
        rmin = min(s) / min(g)
        rmed = statistics.median(s) / statistics.median(g)
        rfast = fast_mode_median(s) / fast_mode_median(g)
        worst = max(worst, abs(rmin - 1), abs(rmed - 1), abs(rfast - 1))
        print(
            f"{'/'.join(key):42} {min(g):10.0f} {min(s):10.0f} {rmin:6.3f}   {statistics.median(g):10.0f} "
            f"{statistics.median(s):10.0f} {rmed:6.3f}   {rfast:19.3f}   {statistics.median(per_round[key]):27.3f}"
        )
    print(
        f"(ns per operation, wall clock; samples per tool and cell: criterion {len(native[CELLS[0]])}, "
        f"serbench {len(ours[CELLS[0]])}; largest deviation from 1: {worst:.1%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
