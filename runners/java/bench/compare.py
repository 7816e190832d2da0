#!/usr/bin/env python3
"""Accuracy check of the serbench Java runner against JMH on the same cells.

Runs JMH (target/serbench-jmh.jar, benchmark serbench.jmh.CellBench) and the serbench runner
(target/serbench-runner.jar) ALTERNATELY in one session: for each round, for each cell, one JMH
fork per operation and then one serbench process for the cell (JMH first in odd rounds, serbench first in even ones). Both tools time the same code
(serbench.harness.Workload: one iteration = one encode or decode of the whole dataset) with
samples of the same length (--sample-ms), and the SAME estimators are computed from both tools'
raw samples:

  JMH:      primaryMetric.rawData (ns/op of each measurement iteration; -rf json)
  serbench: wall_ns[k] / iterations for each sample k (serbench.schedule.time_cell: the
            orchestrator's calibration and steady-state warm-up, then one slice of samples)

Printed: minimum and median per tool and the serbench/JMH ratios, per round and pooled.

Usage (from runners/java):
  mvn -q -B -P jmh -DskipTests package
  ../../.venv/bin/python bench/compare.py [--scale quick] [--rounds 3] [--samples 40] [--sample-ms 20]
                           [--java /path/to/java]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from dataclasses import replace

from serbench import datasets, runners, schedule  # run with the repo's .venv python
from serbench.stats import fast_mode_median
from serbench.timing import one_slice

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.dirname(HERE)
CELLS = [  # small, medium, large
    ("protobuf", "android-users"),
    ("protobuf", "click-maps"),
    ("protobuf", "log-records"),
]
OPS = ["encode", "decode"]


def data_file(scale: str, dataset: str) -> str:
    return str(datasets.get(dataset).build(scale).path())  # type: ignore[union-attr]


def run_jmh(java: str, ser: str, ds: str, path: str, op: str, a) -> list[float]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    cmd = [
        java,
        "-jar",
        os.path.join(RUNNER_DIR, "target", "serbench-jmh.jar"),
        f"serbench.jmh.CellBench.{op}$",
        "-p",
        f"serializer={ser}",
        "-p",
        f"dataset={ds}",
        "-p",
        f"data={path}",
        "-f",
        "1",
        "-wi",
        str(a.warmup_samples),
        "-w",
        f"{a.sample_ms}ms",
        "-i",
        str(a.samples),
        "-r",
        f"{a.sample_ms}ms",
        "-rf",
        "json",
        "-rff",
        out,
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        res = json.load(f)
    os.unlink(out)
    raw = res[0]["primaryMetric"]["rawData"]
    return [v for fork in raw for v in fork]


def run_serbench(java: str, ser: str, ds: str, path: str, a) -> dict[str, list[float]]:
    """Each operation timed by the orchestrator's own schedule (calibration to --sample-ms,
    steady-state warm-up capped at the time of JMH's warm-up, then --samples samples in one
    slice) in a fresh runner process: serbench.schedule.time_cell."""
    ns = a.sample_ms * 1_000_000
    spec = runners.discover()["java"]
    if java != "java":
        spec = replace(spec, command=[java] + spec.command[1:])
    timing = one_slice(ns, a.samples, a.warmup_samples * ns)
    out = {}
    for op in OPS:
        t = schedule.time_cell(spec, ser, ds, path, op, timing)["timing"]
        out[op] = [w / t["iterations"] for w in t["wall_ns"]]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--samples", type=int, default=40, help="measuring samples per tool and run")
    ap.add_argument(
        "--warmup-samples",
        type=int,
        default=100,
        help="JMH warm-up iterations; serbench gets the same time as its warm-up cap",
    )
    ap.add_argument("--sample-ms", type=int, default=20)
    ap.add_argument("--java", default="java")
    a = ap.parse_args()
    for jar in ("serbench-jmh.jar", "serbench-runner.jar"):
        if not os.path.exists(os.path.join(RUNNER_DIR, "target", jar)):
            raise SystemExit(
                f"target/{jar} is missing: run `mvn -q -B -P jmh -DskipTests package` first"
            )
    jvm = subprocess.run([a.java, "-version"], capture_output=True, text=True).stderr.splitlines()
    print(f"JVM: {' | '.join(jvm)}")
    print(f"load average before: {os.getloadavg()} on {os.cpu_count()} CPUs")
    print(
        f"rounds {a.rounds}, {a.samples} samples of {a.sample_ms} ms per tool, op and round; scale {a.scale}"
    )
    pooled: dict[tuple, dict[str, list[float]]] = {}
    rows = []
    for r in range(1, a.rounds + 1):
        for ser, ds in CELLS:
            path = data_file(a.scale, ds)
            # Alternate which tool goes first, so a drift in the machine's load favours neither.
            if r % 2 == 1:
                jmh = {op: run_jmh(a.java, ser, ds, path, op, a) for op in OPS}
                sb = run_serbench(a.java, ser, ds, path, a)
            else:
                sb = run_serbench(a.java, ser, ds, path, a)
                jmh = {op: run_jmh(a.java, ser, ds, path, op, a) for op in OPS}
            for op in OPS:
                key = (ser, ds, op)
                pooled.setdefault(key, {"jmh": [], "serbench": []})
                pooled[key]["jmh"] += jmh[op]
                pooled[key]["serbench"] += sb[op]
                rows.append((r, key, jmh[op], sb[op]))
                print(
                    f"round {r} {ser:9} {ds:14} {op:6}  min ratio {min(sb[op]) / min(jmh[op]):.3f}"
                    f"  median ratio {statistics.median(sb[op]) / statistics.median(jmh[op]):.3f}",
                    flush=True,
                )
    print()
    print(
        f"{'cell':36} {'JMH min':>12} {'serbench min':>12} {'ratio':>6}   {'JMH median':>12} {'serbench med':>12} {'ratio':>6}   {'fast-mode med ratio':>19}   {'median of round min ratios':>26}"
    )
    worst = 0.0
    for (ser, ds, op), v in pooled.items():
        jm, sm = min(v["jmh"]), min(v["serbench"])
        jd, sd = statistics.median(v["jmh"]), statistics.median(v["serbench"])
        rfast = fast_mode_median(v["serbench"]) / fast_mode_median(v["jmh"])  # serbench's headline
        worst = max(worst, abs(sm / jm - 1), abs(sd / jd - 1), abs(rfast - 1))
        # robust to the machine's slow phases, which move whole rounds
        per_round = statistics.median(
            min(sb) / min(jm_) for _, key, jm_, sb in rows if key == (ser, ds, op)
        )
        print(
            f"{ser + '/' + ds + ' ' + op:36} {jm:12.0f} {sm:12.0f} {sm / jm:6.3f}   {jd:12.0f} {sd:12.0f} {sd / jd:6.3f}   {rfast:19.3f}   {per_round:26.3f}"
        )
    print(f"\nload average after: {os.getloadavg()}")
    print(f"largest deviation of a pooled ratio from 1: {worst * 100:.1f}% (goal: within 5%)")


if __name__ == "__main__":
    main()
