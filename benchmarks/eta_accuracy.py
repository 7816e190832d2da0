"""How good was a run's estimate of the time left? Replays the progress bar's estimate
(serbench.progress.Eta) from the times a stored run finished its cell operations and
prints, from the moment a tenth of it was done, how far the estimate was from the time
that really remained.

    .venv/bin/python benchmarks/eta_accuracy.py [RUN] [--db .serbench/results.sqlite]

Goal: within ±25% once a tenth of the run is done. Result times are stored to the second,
so the first seconds of a run read coarsely.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime

from serbench.paths import default_db
from serbench.progress import Eta
from serbench.store import Store


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def errors(store: Store, run_id: int) -> list[tuple[float, float]]:
    """(share done, estimate / truth - 1) at every finished operation after the first
    tenth: the estimate made then against the time the run really went on for. The total
    grows as in the run: a dataset's tie-break work when its block ends."""
    run = store.run(run_id)
    assert run is not None and run["finished_at"], "the run did not finish"
    start, end = _seconds(run["started_at"]), _seconds(run["finished_at"])
    rounds = json.loads(run["config"])["timing"]["processes"]
    results = [r for r in store.results(run_id) if r["status"] != "not_applicable"]
    # the bar learns of a dataset's tie-break work when that dataset's block ends
    tiebreak: dict[str, int] = {}
    block_end: dict[str, float] = {}
    for r in results:
        if r["process"] >= rounds:
            tiebreak[r["dataset"]] = tiebreak.get(r["dataset"], 0) + 1
        else:
            t = _seconds(r["created_at"])
            block_end[r["dataset"]] = max(block_end.get(r["dataset"], t), t)
    measured = sorted(_seconds(r["created_at"]) for r in results)
    eta = Eta(len(measured) - sum(tiebreak.values()), started=start)
    out = []
    for t in measured:
        for ds in [d for d in tiebreak if block_end.get(d, 0) <= t]:
            eta.advance(0, more=tiebreak.pop(ds))
        eta.advance(1)
        done = eta.finished / eta.total
        truth = end - t
        left = eta.remaining(now=t)
        if done >= 0.1 and truth > 0 and left is not None:
            out.append((done, left / truth - 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", type=int)
    parser.add_argument("--db", default=str(default_db()))
    args = parser.parse_args()
    store = Store(args.db)
    run_id = args.run or int(store.runs()[-1]["id"])
    got = errors(store, run_id)
    if not got:
        raise SystemExit("no estimate after a tenth of the run")
    worst = max(got, key=lambda x: abs(x[1]))
    within = sum(abs(e) <= 0.25 for _, e in got)
    print(f"run {run_id}: {len(got)} estimates after a tenth of the run")
    print(f"  within ±25% of the time that remained: {within} of {len(got)}")
    print(f"  worst: {100 * worst[1]:+.0f}% at {100 * worst[0]:.0f}% done")
    for mark in (0.1, 0.25, 0.5, 0.75, 0.9):
        share, err = min(got, key=lambda x: abs(x[0] - mark))
        print(f"  at {100 * share:3.0f}% done: {100 * err:+.0f}%")


if __name__ == "__main__":
    main()
