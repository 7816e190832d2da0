"""Which estimator moves least across fresh processes? The evidence for serbench's headline.

    .venv/bin/python benchmarks/estimator_stability.py [--processes 8] [--serializer msgpack]

Runs one cell in N fresh Python-runner processes with the full-suite timing settings
and prints, per estimator, its spread across processes ((max - min) / median / 2, the
± figure of measurement-notes.md) and its median 95% CI half-width where it has one.
"""

from __future__ import annotations

import argparse

import numpy as np

from serbench import datasets
from serbench.orchestrate import FULL_TIMING
from serbench.runners import PYTHON, time_cell
from serbench.stats import estimate


def one_process(serializer: str, dataset: str, op: str) -> dict:
    path = str(datasets.get(dataset).build("full").path())
    result = time_cell(PYTHON, serializer, dataset, path, op, dict(FULL_TIMING, peak_alloc=False))
    return result["timing"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--serializer", default="msgpack")
    parser.add_argument("--dataset", default="android-users")
    parser.add_argument("--operation", default="encode")
    args = parser.parse_args()
    ests = [
        estimate([one_process(args.serializer, args.dataset, args.operation)])
        for _ in range(args.processes)
    ]
    rows = {
        "fast-mode median (headline)": [e.headline_ns for e in ests],
        "minimum": [e.min_ns for e in ests],
        "10th percentile": [e.p10_ns for e in ests],
        "median": [e.median_ns for e in ests],
        "mean": [e.mean_ns for e in ests],
    }
    print(
        f"{args.serializer} {args.dataset} {args.operation}: {args.processes} fresh processes,"
        f" {ests[0].n} samples each"
    )
    print(f"{'estimator':30} {'lowest':>10} {'highest':>10} {'spread ±%':>10}")
    for name, values in rows.items():
        v = np.asarray(values)
        spread = 100 * (v.max() - v.min()) / np.median(v) / 2
        print(f"{name:30} {v.min():10,.0f} {v.max():10,.0f} {spread:10.1f}")
    half = [100 * e.ci_half_width / e.headline_ns for e in ests]
    slow = [100 * e.slow_fraction for e in ests]
    print(
        f"headline 95% CI half-width: median {np.median(half):.1f}% (max {max(half):.1f}%);"
        f" samples in the slow mode: {min(slow):.0f}-{max(slow):.0f}%"
    )


if __name__ == "__main__":
    main()
