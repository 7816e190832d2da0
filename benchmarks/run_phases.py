"""Where a stored run's time went: its measuring phases against the time between them.

Every measured slice is stored with the time it was taken (`slice_at_ns`, from the run's
start), so each block's measuring phase is its first to its last slice. Prints, per block
(a dataset's rounds, then its tie-break process), the phase's length, the time inside its
samples and its slices; then the run's wall time, the measuring phases summed and the time
between them (process starts, prepare and check, calibration and warm-up), and the share of
slices in the machine's slow band (each operation's slices against its own fastest, as
`schedule.SlowShare` counts them), which sets how many slices a process needs.

    .venv/bin/python benchmarks/run_phases.py            # the latest run
    .venv/bin/python benchmarks/run_phases.py 3 --db other.sqlite

A dataset split into parts (memory) counts as one block here.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from serbench import stats
from serbench.orchestrate import RunConfig
from serbench.paths import default_db
from serbench.store import Store, decode_json


@dataclass
class Phase:
    first_ns: int = 1 << 62
    last_ns: int = 0
    sampled_ns: int = 0
    slices: int = 0
    slow: int = 0

    def add(self, timing: dict[str, Any]) -> None:
        at, sizes, wall = timing["slice_at_ns"], timing["slice_sizes"], timing["wall_ns"]
        self.first_ns, self.last_ns = min(self.first_ns, min(at)), max(self.last_ns, max(at))
        self.sampled_ns += sum(wall)
        self.slices += len(sizes)
        ends = np.cumsum(sizes)
        medians = [float(np.median(wall[e - n : e])) for e, n in zip(ends, sizes, strict=True)]
        if len(medians) >= 2:
            self.slow += int(stats.is_slow(medians).sum())

    @property
    def span_s(self) -> float:
        return (self.last_ns - self.first_ns) / 1e9


def phases(store: Store, run_id: int) -> dict[tuple[str, bool], Phase]:
    """Measuring phases by dataset and whether they are its tie-break process's."""
    run = store.run(run_id)
    assert run is not None
    processes = RunConfig(**decode_json([run], "config")[0]["config"]).profile.processes
    found: dict[tuple[str, bool], Phase] = defaultdict(Phase)
    for r in decode_json(store.results(run_id), "timing"):
        t = r["timing"]
        if r["status"] == "ok" and t and t.get("slice_at_ns"):
            found[(r["dataset"], r["process"] >= processes)].add(t)
    return found


def joined_spans(found: dict[tuple[str, bool], Phase]) -> list[tuple[int, int]]:
    """When the run measured (its clock's ns): the phases' spans, overlapping ones joined (a
    dataset's tie-break process measures inside a later dataset's block)."""
    joined: list[tuple[int, int]] = []
    for a, b in sorted((p.first_ns, p.last_ns) for p in found.values()):
        if joined and a <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(joined[-1][1], b))
        else:
            joined.append((a, b))
    return joined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=int, nargs="?", help="run id (default: the latest)")
    parser.add_argument("--db", default=str(default_db()))
    args = parser.parse_args()
    store = Store(args.db)
    run = store.run(args.run)
    if run is None or not run["finished_at"]:
        raise SystemExit(f"{args.db}: no finished run {args.run or ''}".strip())
    found = phases(store, run["id"])
    print(f"{'block':32s} {'measuring':>10s} {'in samples':>11s} {'slices':>8s} {'slow':>5s}")
    for (dataset, tiebreak), p in sorted(found.items(), key=lambda kv: kv[1].first_ns):
        name = f"{dataset}{' (tie-break)' if tiebreak else ''}"
        share = p.slow / max(p.slices, 1)
        print(f"{name:32s} {p.span_s:9.1f}s {p.sampled_ns / 1e9:10.1f}s {p.slices:8d} {share:5.2f}")
    wall = (
        datetime.fromisoformat(run["finished_at"]) - datetime.fromisoformat(run["started_at"])
    ).total_seconds()
    measuring = sum(b - a for a, b in joined_spans(found)) / 1e9
    slices = sum(p.slices for p in found.values())
    slow = sum(p.slow for p in found.values()) / max(slices, 1)
    print(
        f"run {run['id']}: {wall:.0f} s; measuring phases {measuring:.0f} s, between them "
        f"{wall - measuring:.0f} s; {slices} slices, {slow:.2f} of them in the slow band"
    )


if __name__ == "__main__":
    main()
