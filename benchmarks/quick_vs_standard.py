"""Does the quick suite show steady-state numbers? Compares every cell operation of a quick
run with the same cell timed by the standard profile (longer warm-up, more slices, three
processes) on the same quick-scale data, and prints the ratio quick/standard. With
--standard-data the standard run uses the standard datasets instead and cells are compared
per record; S2, S4 and S5 then differ in size, so cache effects mix with the timing
contract's.

    .venv/bin/python benchmarks/quick_vs_standard.py -- -r go      # runs both, Go only
    .venv/bin/python benchmarks/quick_vs_standard.py --quick-run 3 --standard-run 4 --db X

Goal (docs/method.md): every quick headline within ±10% of the standard one, or flagged
`not-steady` in the quick run (then the report shows no number for it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from serbench import datasets

TOLERANCE = 0.10


def run(db: Path, extra: list[str]) -> None:
    cmd = [sys.executable, "-m", "serbench", "run", "--db", str(db), *extra]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def report(db: Path, run_id: int | None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "serbench", "report", "--format", "json", "--db", str(db)]
    if run_id is not None:
        cmd.insert(4, str(run_id))
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def per_record(rep: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    """'runner/serializer dataset op' -> (headline per record, steady?)."""
    scale = rep["run"]["config"]["scale"]
    out = {}
    for ds, rows in rep["datasets"].items():
        built = datasets.get(ds).build(scale)  # type: ignore[arg-type]
        records = built.records
        for r in rows:
            for op, e in r.get("operations", {}).items():
                key = f"{r['runner']}/{r['serializer']} {ds} {op}"
                out[key] = (e["headline_ns"] / records, e.get("steady") is not False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path)
    ap.add_argument("--quick-run", type=int)
    ap.add_argument("--standard-run", type=int)
    ap.add_argument("--standard-data", action="store_true", help="standard-scale datasets")
    ap.add_argument("extra", nargs="*", help="more `serbench run` options for both runs")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "qs.sqlite"
        if args.quick_run is None:
            run(db, ["--quick", *args.extra])
            args.quick_run = report(db, None)["run"]["id"]
        if args.standard_run is None:
            same_data = [] if args.standard_data else ["--scale", "quick", "--profile", "standard"]
            run(db, [*same_data, *args.extra])
            args.standard_run = report(db, None)["run"]["id"]
        quick = per_record(report(db, args.quick_run))
        standard = per_record(report(db, args.standard_run))
    print("| cell | quick / standard | verdict |")
    print("|---|---|---|")
    within = flagged = outside = 0
    for key in sorted(set(quick) & set(standard)):
        (q, steady), (s, _) = quick[key], standard[key]
        ratio = q / s
        if not steady:
            verdict, flagged = "quick flagged not-steady", flagged + 1
        elif abs(ratio - 1) <= TOLERANCE:
            verdict, within = "within ±10%", within + 1
        else:
            verdict, outside = "OUTSIDE ±10%", outside + 1
        print(f"| {key} | {ratio:.3f} | {verdict} |")
    total = within + flagged + outside
    print(
        f"\n{total} cell operations: {within} within ±10%, {flagged} flagged not-steady, "
        f"{outside} outside ({100 * (within + flagged) / max(total, 1):.1f}% meet the goal)"
    )


if __name__ == "__main__":
    main()
