"""Does the quick suite show steady-state numbers? Compares every cell operation of a quick
run with the same cell timed by the standard profile (longer warm-up, more slices, three
processes) on the same quick-scale data, and prints the ratio quick/standard. With
--standard-data the standard run uses the standard datasets instead and cells are compared
per record; S2, S4 and S5 then differ in size, so cache effects mix with the timing
contract's.

    .venv/bin/python benchmarks/quick_vs_standard.py -- -r go      # runs both, Go only
    .venv/bin/python benchmarks/quick_vs_standard.py --quick-run 3 --standard-run 4 --db X

Goal (docs/runner-done.md item 8): every quick headline within ±10% of the standard one,
or flagged in the quick run (`not-steady` or `processes-disagree`: the report then shows no
single number for it). A cell the standard run itself flags has no steady figure to agree
with: it is counted apart, as "standard has no single figure".
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
VERDICTS = ("within ±10%", "quick flagged", "OUTSIDE ±10%", "standard has no single figure")


def run(db: Path, extra: list[str]) -> None:
    cmd = [sys.executable, "-m", "serbench", "run", "--db", str(db), *extra]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def report(db: Path, run_id: int | None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "serbench", "report", "--format", "json", "--db", str(db)]
    if run_id is not None:
        cmd.insert(4, str(run_id))
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def per_record(rep: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    """'runner/serializer dataset op' -> (headline per record, has a single figure?)."""
    scale = rep["run"]["config"]["scale"]
    out = {}
    for ds, rows in rep["datasets"].items():
        built = datasets.get(ds).build(scale)  # type: ignore[arg-type]
        records = built.records
        for r in rows:
            for op, e in r.get("operations", {}).items():
                key = f"{r['runner']}/{r['serializer']} {ds} {op}"
                figure = e.get("steady") is not False and not e.get("processes_disagree")
                out[key] = (e["headline_ns"] / records, figure)
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
    counts = dict.fromkeys(VERDICTS, 0)
    for key in sorted(set(quick) & set(standard)):
        (q, q_figure), (s, s_figure) = quick[key], standard[key]
        if not s_figure:
            verdict = "standard has no single figure"
        elif not q_figure:
            verdict = "quick flagged"
        elif abs(q / s - 1) <= TOLERANCE:
            verdict = "within ±10%"
        else:
            verdict = "OUTSIDE ±10%"
        counts[verdict] += 1
        print(f"| {key} | {q / s:.3f} | {verdict} |")
    judged = sum(counts.values()) - counts["standard has no single figure"]
    met = counts["within ±10%"] + counts["quick flagged"]
    print(
        f"\n{sum(counts.values())} cell operations: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + f"\n{met} of {judged} with a standard figure meet the goal "
        f"({100 * met / max(judged, 1):.1f}%), {counts['within ±10%']} of them as numbers"
    )


if __name__ == "__main__":
    main()
