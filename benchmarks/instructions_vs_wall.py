"""Do instruction counts repeat where wall times do not? Measures the same cells twice by
wall time and twice by instructions (`serbench run --measure instructions`), alternating,
each run in a fresh database so both measures face the same machine, and prints per cell
operation each measure's headline in both runs and its spread between them.

    .venv/bin/python benchmarks/instructions_vs_wall.py               # the default selection
    .venv/bin/python benchmarks/instructions_vs_wall.py -s cpp/msgpack -d android-users

Spread is half the range relative to the centre, ±(max - min) / (max + min), as in
benchmarks/identical_runs.py. It drives the CLI only (`serbench run`, `serbench report
--format json`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SELECTION = [
    "python/msgspec-msgpack",
    "python/msgpack",
    "cpp/msgpack",
    "cpp/protobuf",
    "rust/rmp-serde",
    "rust/prost",
    "go/msgpack",
    "go/protobuf",
]
DATASETS = ["android-users", "log-records"]
MEASURES = ("time", "instructions")


def one_run(args: argparse.Namespace, measure: str, db: Path) -> tuple[dict[str, float], float]:
    """Headline per 'runner/serializer dataset op', and the run's wall time in seconds."""
    serbench = [sys.executable, "-m", "serbench"]
    cmd = [*serbench, "run", "--scale", args.scale, "--measure", measure, "--db", str(db)]
    for s in args.serializer:
        cmd += ["-s", s]
    for d in args.dataset:
        cmd += ["-d", d]
    started = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    took = time.monotonic() - started
    out = subprocess.run(
        [*serbench, "report", "--format", "json", "--db", str(db)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return headlines(json.loads(out)), took


def headlines(report: dict[str, Any]) -> dict[str, float]:
    out = {}
    for ds, rows in report["datasets"].items():
        for r in rows:
            for op, e in r["operations"].items():
                out[f"{r['runner']}/{r['serializer']} {ds} {op}"] = e["headline_ns"]
    return out


def spread(values: list[float]) -> float:
    return (max(values) - min(values)) / (max(values) + min(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--serializer", action="append", default=None)
    parser.add_argument("-d", "--dataset", action="append", default=None)
    parser.add_argument("--scale", default="quick")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    args.serializer = args.serializer or SELECTION
    args.dataset = args.dataset or DATASETS
    runs: dict[str, list[dict[str, float]]] = {m: [] for m in MEASURES}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(2):
            for measure in MEASURES:
                got, took = one_run(args, measure, Path(tmp) / f"{measure}-{i}.sqlite")
                runs[measure].append(got)
                print(f"run {i + 1} by {measure}: {took:.0f} s", file=sys.stderr)
    keys = sorted(set.intersection(*(set(r) for m in MEASURES for r in runs[m])))
    print("| cell | wall 1 | wall 2 | wall spread | instr/op 1 | instr/op 2 | instr spread |")
    print("|---|---|---|---|---|---|---|")
    spreads: dict[str, list[float]] = {m: [] for m in MEASURES}
    for key in keys:
        row = [key]
        for m in MEASURES:
            values = [r[key] for r in runs[m]]
            spreads[m].append(spread(values))
            fmt = "{:,.0f} ns" if m == "time" else "{:,.0f}"
            row += [fmt.format(v) for v in values] + [f"±{100 * spreads[m][-1]:.3f}%"]
        print("| " + " | ".join(row) + " |")
    for m in MEASURES:
        s = spreads[m]
        if s:
            print(
                f"{m}: median spread ±{100 * statistics.median(s):.3f}%, "
                f"worst ±{100 * max(s):.3f}% over {len(s)} cell operations"
            )
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "keys": keys}, indent=1))


if __name__ == "__main__":
    main()
