"""serbench vs pyperf on the same cells, run alternately, same estimators on raw values.

    .venv/bin/python benchmarks/pyperf_compare.py [--rounds 3]

For each cell and round: one fresh serbench runner process, then one pyperf run
(its own worker processes). Both tools' raw per-iteration values are pooled per cell
and the same estimators are computed from each: serbench's headline (fast-mode
median), the plain median and the minimum. Prints serbench/pyperf ratios.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyperf

from serbench import datasets
from serbench.paths import RUNNERS_DIR
from serbench.runners import PYTHON
from serbench.schedule import time_cell
from serbench.stats import fast_mode, headline
from serbench.timing import STANDARD

PYPERF_CELL = RUNNERS_DIR / "python" / "bench" / "pyperf_cell.py"  # the runner's own harness
# small, medium, large
CELLS = [
    ("msgspec-msgpack", "android-users", "encode", "full"),
    ("orjson", "click-maps", "decode", "quick"),
    ("protobuf", "log-records", "encode", "full"),
]


def serbench_values(serializer: str, dataset: str, op: str, scale: str) -> np.ndarray:
    path = str(datasets.get(dataset).build(scale).path())  # type: ignore[arg-type]
    timing = replace(STANDARD, processes=1, peak_alloc=False)
    result = time_cell(PYTHON, serializer, dataset, path, op, timing)
    t = result["timing"]
    return np.asarray(t["wall_ns"], dtype=float) / t["iterations"]


def pyperf_values(serializer: str, dataset: str, op: str, scale: str) -> np.ndarray:
    data = str(datasets.get(dataset).build(scale).path())  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        subprocess.run(
            [
                sys.executable,
                str(PYPERF_CELL),
                serializer,
                dataset,
                data,
                op,
                "--processes",
                "6",
                "--values",
                "10",
                "--quiet",
                "-o",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        bench = pyperf.Benchmark.load(str(out))
        return np.asarray(bench.get_values(), dtype=float) * 1e9


def estimators(values: np.ndarray) -> dict[str, float]:
    s = np.sort(values)
    return {
        "fast-mode median": float(np.median(fast_mode(s))),
        "fast-edge median (headline)": headline(s),
        "median": float(np.median(s)),
        "min": float(s[0]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pooled: dict[tuple, dict[str, list[np.ndarray]]] = {
        c: {"serbench": [], "pyperf": []} for c in CELLS
    }
    start = time.time()
    for r in range(args.rounds):
        for cell in CELLS:
            pooled[cell]["serbench"].append(serbench_values(*cell))
            pooled[cell]["pyperf"].append(pyperf_values(*cell))
            print(f"round {r + 1}/{args.rounds} {'/'.join(cell[:3])} done", file=sys.stderr)
    print(f"{'cell':42} {'estimator':17} {'serbench ns':>13} {'pyperf ns':>13} {'ratio':>7}")
    for cell, tools in pooled.items():
        ours = estimators(np.concatenate(tools["serbench"]))
        theirs = estimators(np.concatenate(tools["pyperf"]))
        for name in ours:
            ratio = ours[name] / theirs[name]
            print(
                f"{'/'.join(cell[:3]) + ' (' + cell[3] + ')':42} {name:17} {ours[name]:13,.0f}"
                f" {theirs[name]:13,.0f} {ratio:7.3f}"
            )
    print(f"wall time {time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
