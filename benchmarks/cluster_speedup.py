"""What a local Ray cluster gains: instruction counts and times, cluster against one process.

1. `--measure instructions` (deterministic, so fair when both nodes share this machine): the
   same run in one process and on a local cluster of two nodes; prints both wall times,
   the speed-up, and how many cells' counts are identical, or within the spread of their
   own repeats (no two processes count every batch alike).
2. Time mode: the same run in one process, on a cluster of one node, and in one process
   again; prints whether they stored the same cells (tie-break processes aside: which
   cells get one follows each run's noise), each cell's cluster/plain ratio of median
   times, and the plain/plain ratios beside them: the noise to read them against.

Both runs of a pair use fresh SQLite files and one `serbench run` command each; the wall
time is the command's, noise probe and planning included, cluster start-up not. The cluster
is started by serbench.cluster.local (loopback only) and stopped at the end. The machine's
load (/proc/loadavg, 1 minute) before and after each run is printed beside its time: two
nodes need two free cores. By default the rust, cpp and go runners, every serializer, on
android-users (the whole matrix counted once takes hours on 2 cores). Usage:

    .venv/bin/python benchmarks/cluster_speedup.py [--dataset D] [--runner R]
        [--serializer S] [--processes N] [--skip-time | --skip-instructions]
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
from datetime import datetime
from pathlib import Path
from typing import Any

from serbench.cluster.local import LOOPBACK_ENV, LocalCluster
from serbench.store import Store

SERBENCH = str(Path(sys.executable).with_name("serbench"))


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def run(db: Path, args: list[str], cluster: str | None) -> tuple[float, str]:
    """Seconds one `serbench run` takes, and the machine's load before and after it."""
    command = [SERBENCH, "run", "--quick", "--db", str(db), *args]
    if cluster:
        command += ["--cluster", cluster]
    before = load()
    started = time.monotonic()
    subprocess.run(
        command, check=True, env={**os.environ, **LOOPBACK_ENV}, stdout=subprocess.DEVNULL
    )
    return time.monotonic() - started, f"load {before}->{load()}"


def cells(db: Path, tiebreaks: bool = True) -> dict[tuple[str, ...], dict[str, Any]]:
    """The latest run's results by cell; without the tie-break processes' (which cells get
    one follows each run's own noise) when ``tiebreaks`` is false."""
    store = Store(db)
    run = store.run()
    assert run is not None
    planned = json.loads(run["config"])["timing"]["processes"]
    out = {}
    for r in store.results(run["id"]):
        if not tiebreaks and r["process"] >= planned:
            continue
        key = (r["runner"], r["serializer"], r["dataset"], r["operation"], str(r["process"]))
        out[key] = {"status": r["status"], "timing": json.loads(r["timing"] or "null")}
    store.close()
    return out


def spans(db: Path) -> str:
    """Each runner process's seconds from its first stored result to its last (a block in
    instruction mode), in the order they started: where a cluster's wall time goes."""
    store = Store(db)
    run = store.run()
    assert run is not None
    stamps: dict[str, list[datetime]] = {}
    for r in store.results(run["id"]):
        if r["status"] != "not_applicable":
            stamps.setdefault(f"{r['runner']} p{r['process']}", []).append(
                datetime.fromisoformat(r["created_at"])
            )
    store.close()
    ordered = sorted(stamps.items(), key=lambda kv: min(kv[1]))
    return ", ".join(f"{k} {(max(v) - min(v)).total_seconds():.0f} s" for k, v in ordered)


def counts(timing: object) -> object:
    """An instruction cell's counts (wall_ns holds instructions in that mode)."""
    return timing.get("wall_ns") if isinstance(timing, dict) else None


def per_op(timing: object) -> list[float]:
    if not isinstance(timing, dict) or not timing.get("wall_ns"):
        return []
    return [w / timing.get("iterations", 1) for w in timing["wall_ns"]]


def median_ns(timing: object) -> float | None:
    return statistics.median(per_op(timing)) if per_op(timing) else None


def within_repeats(a: object, b: object) -> bool:
    """Two runs' counts of a cell differ by no more than one run's repeats differ among
    themselves (callgrind counts move by a few instructions per batch from repeat to
    repeat, Go's by ~1%: no two processes give identical counts)."""
    x, y = per_op(a), per_op(b)
    if not x or not y:
        return x == y
    spread = max(max(x) - min(x), max(y) - min(y))
    return abs(statistics.median(x) - statistics.median(y)) <= spread


def compare_counts(a: dict[Any, dict[str, Any]], b: dict[Any, dict[str, Any]]) -> str:
    both = a.keys() & b.keys()
    exact = sum(counts(a[k]["timing"]) == counts(b[k]["timing"]) for k in both)
    close = [k for k in both if within_repeats(a[k]["timing"], b[k]["timing"])]
    gaps = [
        abs(mb - ma) / ma
        for k in both
        if (ma := median_ns(a[k]["timing"])) and (mb := median_ns(b[k]["timing"]))
    ]
    # the plain run's own processes of a cell differ too (the first process of a runner
    # counts a few instructions more or less than the next): the cluster's count against
    # the range of the plain run's processes
    processes: dict[tuple[str, ...], list[float]] = {}
    for k in a:
        if (m := median_ns(a[k]["timing"])) is not None:
            processes.setdefault(k[:4], []).append(m)
    outside = [
        k
        for k in both - set(close)
        if (m := median_ns(b[k]["timing"])) is None
        # one instruction per operation of slack: the medians are of k-operation batches
        or not min(processes.get(k[:4], [m])) - 1 <= m <= max(processes.get(k[:4], [m])) + 1
    ]
    out = (
        f"same cells: {a.keys() == b.keys()} ({len(a)}); counts equal to the instruction "
        f"{exact}, within their repeats' spread {len(close)} of {len(both)}, within that or "
        f"the plain run's own processes' range {len(both) - len(outside)}; largest relative "
        f"difference of a cell's median {max(gaps, default=0):.2e}"
    )
    if outside:
        out += f"\n  outside both: {sorted(outside)[:10]}"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append", default=None)
    parser.add_argument("--runner", action="append", default=None)
    parser.add_argument(
        "-s", "--serializer", action="append", default=[], help="as serbench run -s"
    )
    parser.add_argument("--processes", type=int, help="as serbench run --processes")
    skip = parser.add_mutually_exclusive_group()
    skip.add_argument("--skip-time", action="store_true", help="only the instruction pair")
    skip.add_argument("--skip-instructions", action="store_true", help="only the time pair")
    opts = parser.parse_args()
    select = ["--processes", str(opts.processes)] if opts.processes else []
    for d in opts.dataset or ["android-users"]:
        select += ["--dataset", d]
    for r in opts.runner or ["rust", "cpp", "go"]:
        select += ["--runner", r]
    for s in opts.serializer:
        select += ["--serializer", s]
    work = Path(tempfile.mkdtemp(prefix="serbench-cluster-speedup-"))
    print(f"work folder {work}; the machine may be loaded by other work: figures are indicative")

    if not opts.skip_instructions:
        instruction_pair(work, select)
    if not opts.skip_time:
        time_pair(work, select)


def instruction_pair(work: Path, select: list[str]) -> None:
    counted = [*select, "--measure", "instructions"]
    plain, plain_load = run(work / "plain-i.sqlite", counted, None)
    with LocalCluster(nodes=2, logs=work / "ray2") as cluster:
        spread, spread_load = run(work / "cluster-i.sqlite", counted, cluster.address)
    print(
        f"instructions: one process {plain:.1f} s ({plain_load}), two-node cluster "
        f"{spread:.1f} s ({spread_load}), speed-up {plain / spread:.2f}x"
    )
    print(
        "instructions: "
        + compare_counts(cells(work / "plain-i.sqlite"), cells(work / "cluster-i.sqlite"))
    )
    print(f"instructions, one process: {spans(work / 'plain-i.sqlite')}")
    print(f"instructions, two nodes: {spans(work / 'cluster-i.sqlite')}")


def time_pair(work: Path, select: list[str]) -> None:
    """A plain run, the same on a one-node cluster, then a second plain run: the noise the
    cluster's ratios are to be read against."""
    plain, plain_load = run(work / "plain-t.sqlite", select, None)
    with LocalCluster(nodes=1, logs=work / "ray1") as cluster:
        one, one_load = run(work / "cluster-t.sqlite", select, cluster.address)
    again, again_load = run(work / "plain-t2.sqlite", select, None)
    dbs = (work / "plain-t.sqlite", work / "cluster-t.sqlite", work / "plain-t2.sqlite")
    a, b, c = (cells(db, tiebreaks=False) for db in dbs)
    extra = [len(cells(db)) - len(x) for db, x in zip(dbs, (a, b, c), strict=True)]
    print(
        f"time: one process {plain:.1f} s ({plain_load}), one-node cluster {one:.1f} s "
        f"({one_load}), one process again {again:.1f} s ({again_load}); same planned cells: "
        f"{a.keys() == b.keys() == c.keys()} ({len(a)}), tie-break results {extra}"
    )
    print(f"time: cluster/plain per cell {ratios(a, b)}; plain again/plain {ratios(a, c)}")


def ratios(a: dict[Any, dict[str, Any]], b: dict[Any, dict[str, Any]]) -> str:
    """Each cell's ratio of median times, b over a, summarised."""
    found = [
        mb / ma
        for k in a.keys() & b.keys()
        if (ma := median_ns(a[k]["timing"])) and (mb := median_ns(b[k]["timing"]))
    ]
    if not found:
        return "no timed cells"
    return f"median {statistics.median(found):.3f}, range {min(found):.3f}-{max(found):.3f}"


if __name__ == "__main__":
    main()
