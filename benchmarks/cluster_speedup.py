"""What a local Ray cluster gains: instruction counts and times, cluster against one process.

1. `--measure instructions` (deterministic, so fair when both nodes share this machine): the
   same run in one process and on a local cluster of two nodes; prints both wall times,
   the speed-up, and whether every cell's counts are identical.
2. Time mode: the same run in one process and on a cluster of one node; prints whether they
   stored the same cells and each cell's cluster/plain ratio of median times.

Both runs of a pair use fresh SQLite files and one `serbench run` command each; the wall
time is the command's, noise probe and planning included, cluster start-up not. The cluster
is started by serbench.cluster.local (loopback only) and stopped at the end. Usage:

    .venv/bin/python benchmarks/cluster_speedup.py [--dataset D] [--runner R] [--serializer S]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from serbench.cluster.local import LOOPBACK_ENV, LocalCluster
from serbench.store import Store

SERBENCH = str(Path(sys.executable).with_name("serbench"))


def run(db: Path, args: list[str], cluster: str | None) -> float:
    """Seconds one `serbench run` takes."""
    command = [SERBENCH, "run", "--quick", "--db", str(db), *args]
    if cluster:
        command += ["--cluster", cluster]
    started = time.monotonic()
    subprocess.run(
        command, check=True, env={**os.environ, **LOOPBACK_ENV}, stdout=subprocess.DEVNULL
    )
    return time.monotonic() - started


def cells(db: Path) -> dict[tuple[str, ...], dict[str, object]]:
    store = Store(db)
    run = store.run()
    assert run is not None
    out = {}
    for r in store.results(run["id"]):
        key = (r["runner"], r["serializer"], r["dataset"], r["operation"], str(r["process"]))
        out[key] = {"status": r["status"], "timing": json.loads(r["timing"] or "null")}
    store.close()
    return out


def counts(timing: object) -> object:
    """An instruction cell's counts (wall_ns holds instructions in that mode)."""
    return timing.get("wall_ns") if isinstance(timing, dict) else None


def median_ns(timing: object) -> float | None:
    if not isinstance(timing, dict) or not timing.get("wall_ns"):
        return None
    per_op = [w / timing.get("iterations", 1) for w in timing["wall_ns"]]
    return statistics.median(per_op)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append", default=None)
    parser.add_argument("--runner", action="append", default=None)
    parser.add_argument(
        "-s", "--serializer", action="append", default=[], help="as serbench run -s"
    )
    parser.add_argument("--skip-time", action="store_true", help="only the instruction pair")
    opts = parser.parse_args()
    select = []
    for d in opts.dataset or ["android-users", "order-book", "log-records"]:
        select += ["--dataset", d]
    for r in opts.runner or ["rust", "cpp", "go"]:
        select += ["--runner", r]
    for s in opts.serializer:
        select += ["--serializer", s]
    work = Path(tempfile.mkdtemp(prefix="serbench-cluster-speedup-"))
    print(f"work folder {work}; the machine may be loaded by other work: figures are indicative")

    counted = [*select, "--measure", "instructions"]
    plain = run(work / "plain-i.sqlite", counted, None)
    with LocalCluster(nodes=2, logs=work / "ray2") as cluster:
        spread = run(work / "cluster-i.sqlite", counted, cluster.address)
    a, b = cells(work / "plain-i.sqlite"), cells(work / "cluster-i.sqlite")
    same = a.keys() == b.keys() and all(counts(a[k]["timing"]) == counts(b[k]["timing"]) for k in a)
    # callgrind's counts move by ~1e-4 between any two processes (environment size, ASLR):
    # the largest relative difference of a cell's median count says how close the runs are
    gaps = [
        abs(mb - ma) / ma
        for k in a.keys() & b.keys()
        if (ma := median_ns(a[k]["timing"])) and (mb := median_ns(b[k]["timing"]))
    ]
    print(f"instructions: largest relative difference of a cell's count {max(gaps, default=0):.2e}")
    print(
        f"instructions: one process {plain:.1f} s, two-node cluster {spread:.1f} s, "
        f"speed-up {plain / spread:.2f}x; {len(a)} cells, counts identical: {same}"
    )
    if not same:
        differ = [
            k for k in a.keys() & b.keys() if counts(a[k]["timing"]) != counts(b[k]["timing"])
        ]
        print(f"  cells only one run has: {sorted(a.keys() ^ b.keys())[:10]}")
        print(f"  cells whose counts differ: {sorted(differ)[:10]}")
    if opts.skip_time:
        return

    plain = run(work / "plain-t.sqlite", select, None)
    with LocalCluster(nodes=1, logs=work / "ray1") as cluster:
        one = run(work / "cluster-t.sqlite", select, cluster.address)
    a, b = cells(work / "plain-t.sqlite"), cells(work / "cluster-t.sqlite")
    ratios = [
        mb / ma
        for k in a.keys() & b.keys()
        if (ma := median_ns(a[k]["timing"])) and (mb := median_ns(b[k]["timing"]))
    ]
    spread_of = (
        f"median ratio {statistics.median(ratios):.3f}, range {min(ratios):.3f}-{max(ratios):.3f}"
        if ratios
        else "no timed cells"
    )
    print(
        f"time: one process {plain:.1f} s, one-node cluster {one:.1f} s; same cells: "
        f"{a.keys() == b.keys()} ({len(a)}); cluster/plain per cell: {spread_of}"
    )


if __name__ == "__main__":
    main()
