"""What would fewer slices cost? Replays stopping rules on two stored runs of the same
selection: every operation's slices are stored in the order they were taken, so a rule
that stops a process earlier than the run did can be replayed exactly on the prefix it
would have kept. For each rule it prints the share of the slices kept, the cell
operations that would have had a figure, and how often the headline it gives in run A
lies within ±5% and ±10% of run B's headline as measured (and the reverse).

    .venv/bin/serbench run --quick          # twice, nothing changed between them
    .venv/bin/python benchmarks/stopping_rules.py 1 2
    .venv/bin/python benchmarks/stopping_rules.py 1 2 --db other.sqlite

A rule: how many processes of a cell it keeps (the first ones), and how many slices in
its fast mode confirm a process (`confirm_slices`); every rule keeps the run's other
conditions (at least `min_slices`, and as many slices as the run's slow share needs for
`miss_probability`, shared by the processes kept), with the timing profile the run stored.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from serbench import stats
from serbench.orchestrate import RunConfig
from serbench.paths import default_db
from serbench.schedule import SlowShare
from serbench.store import Store, decode_json

Slices = dict[int, np.ndarray]  # process -> its slice medians, in the order taken
Key = tuple[str, str, str, str]  # runner, serializer, dataset, operation


@dataclass(frozen=True)
class Rule:
    processes: int
    confirm: int


RULES = [Rule(2, 5), Rule(2, 4), Rule(2, 3), Rule(2, 2), Rule(1, 5), Rule(1, 3)]


def load(store: Store, run_id: int) -> tuple[dict[Key, Slices], dict[str, Any]]:
    cells: dict[Key, Slices] = defaultdict(dict)
    for r in decode_json(store.results(run_id), "timing"):
        t = r["timing"]
        if r["status"] == "ok" and t and t.get("wall_ns"):
            key = (r["runner"], r["serializer"], r["dataset"], r["operation"])
            cells[key][r["process"]] = stats.slice_medians(t)
    run = store.run(run_id)
    if run is None:
        raise SystemExit(f"no run {run_id} in this database")
    return cells, json.loads(run["config"])


def slow_share(cells: dict[Key, Slices]) -> float:
    """The run's slow share as the scheduler learns it, without the probe's prior."""
    learnt = SlowShare(prior_weight=0)
    for procs in cells.values():
        for x in procs.values():
            learnt.add(list(x))
    return learnt.share if learnt.total else 0.0


def stop_at(x: np.ndarray, confirm: int, needed: int) -> int:
    """How many of a process's slices the rule keeps."""
    for n in range(needed, len(x) + 1):
        if len(stats.fast_mode(x[:n])) >= confirm:
            return n
    return len(x)


def headline(parts: list[np.ndarray]) -> float:
    return stats.headline(np.concatenate(parts))


def replay(
    a: dict[Key, Slices], b: dict[Key, Slices], config: dict[str, Any], rule: Rule
) -> tuple[float, float, float, float]:
    """(slices kept, figures, within 5%, within 10%) of rule on run a, against run b."""
    timing = RunConfig(timing=config["timing"]).profile
    pooled = SlowShare(prior=slow_share(a)).slices_needed(timing.miss_probability)
    needed = max(timing.min_slices, math.ceil(pooled / rule.processes))
    keys = [k for k in a if k in b and len(a[k]) >= 2 and len(b[k]) >= 2]
    kept = total = figures = near5 = near10 = 0
    for key in keys:
        parts = [a[key][p] for p in sorted(a[key])]
        total += sum(len(x) for x in parts)
        prefixes = [x[: stop_at(x, rule.confirm, needed)] for x in parts[: rule.processes]]
        kept += sum(len(x) for x in prefixes)
        if rule.processes == 1:
            figures += len(stats.fast_mode(prefixes[0])) >= rule.confirm
        else:
            figures += stats.agreeing(prefixes) >= 2
        ratio = headline(prefixes) / headline(list(b[key].values()))
        near5 += abs(ratio - 1) <= 0.05
        near10 += abs(ratio - 1) <= 0.10
    n = max(len(keys), 1)
    return kept / max(total, 1), figures / n, near5 / n, near10 / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_a", type=int)
    parser.add_argument("run_b", type=int)
    parser.add_argument("--db", default=None, help="results database (default: serbench's)")
    args = parser.parse_args()
    store = Store(args.db or default_db())
    a, config = load(store, args.run_a)
    b, _ = load(store, args.run_b)
    shares = f"{slow_share(a):.2f} / {slow_share(b):.2f}"
    print(f"runs {args.run_a} and {args.run_b}: slow share {shares}")
    print("rule | slices kept | with a figure | within ±5% of the other run | within ±10%")
    for rule in RULES:
        ab = replay(a, b, config, rule)
        ba = replay(b, a, config, rule)
        print(
            f"{rule.processes} process(es), {rule.confirm} slices | "
            f"{ab[0]:.0%} / {ba[0]:.0%} | {ab[1]:.1%} / {ba[1]:.1%} | "
            f"{ab[2]:.1%} / {ba[2]:.1%} | {ab[3]:.1%} / {ba[3]:.1%}"
        )


if __name__ == "__main__":
    main()
