"""Does the quick suite show steady-state numbers? Compares every cell operation of a quick
run with the same cell timed by the standard profile (longer warm-up, more slices, three
processes) on the same quick-scale data, and prints the ratio quick/standard. With
--standard-data the standard run uses the standard datasets instead and cells are compared
per record; S2, S4 and S5 then differ in size, so cache effects mix with the timing
contract's.

    .venv/bin/python benchmarks/quick_vs_standard.py -- -r go      # runs both, Go only
    .venv/bin/python benchmarks/quick_vs_standard.py --quick-run 3 --standard-run 4 --db X
    .venv/bin/python benchmarks/quick_vs_standard.py --rerun -- -r go  # and standard twice

Goal (docs/runner-done.md item 8): every quick headline within ±10% of the standard one, or
flagged in the quick run (`not-steady`, `processes-disagree` or `unconfirmed`: the report
then shows no single number for it). A quick number where the standard run has none (its
processes disagree, or it never settled) misses the goal too: the longer run could not
confirm it. `--rerun` judges a second standard run against the first the same way: how often
an identical re-run of the standard profile misses is the floor on this machine for any
profile."""

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
VERDICTS = ("within ±10%", "flagged", "OUTSIDE ±10%", "a number the standard run has not")
MET = ("within ±10%", "flagged")


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
                figure = (
                    e.get("steady") is not False
                    and not e.get("processes_disagree")
                    and not e.get("unconfirmed")
                )
                out[key] = (e["headline_ns"] / records, figure)
    return out


def judge(
    candidate: dict[str, tuple[float, bool]], standard: dict[str, tuple[float, bool]]
) -> dict[str, tuple[float, str]]:
    """Per cell operation: candidate/standard and its verdict."""
    out = {}
    for key in sorted(set(candidate) & set(standard)):
        (c, c_figure), (s, s_figure) = candidate[key], standard[key]
        if not c_figure:
            verdict = "flagged"
        elif not s_figure:
            verdict = "a number the standard run has not"
        elif abs(c / s - 1) <= TOLERANCE:
            verdict = "within ±10%"
        else:
            verdict = "OUTSIDE ±10%"
        out[key] = (c / s, verdict)
    return out


def summary(verdicts: dict[str, tuple[float, str]], what: str) -> str:
    counts = dict.fromkeys(VERDICTS, 0)
    for _, verdict in verdicts.values():
        counts[verdict] += 1
    met, total = sum(counts[v] for v in MET), sum(counts.values())
    return (
        f"{what}: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
        + f"\n{met} of {total} cell operations meet the goal ({100 * met / max(total, 1):.1f}%),"
        f" {counts['within ±10%']} of them as numbers"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path)
    ap.add_argument("--quick-run", type=int)
    ap.add_argument("--standard-run", type=int)
    ap.add_argument(
        "--rerun",
        nargs="?",
        const=-1,
        type=int,
        help="also judge a second standard run (its id, or none to run it) against the first:"
        " the floor an identical re-run of the standard profile sets",
    )
    ap.add_argument("--standard-data", action="store_true", help="standard-scale datasets")
    ap.add_argument("extra", nargs="*", help="more `serbench run` options for both runs")
    args = ap.parse_args()
    same_data = [] if args.standard_data else ["--scale", "quick", "--profile", "standard"]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "qs.sqlite"
        if args.quick_run is None:
            run(db, ["--quick", *args.extra])
            args.quick_run = report(db, None)["run"]["id"]
        if args.standard_run is None:
            run(db, [*same_data, *args.extra])
            args.standard_run = report(db, None)["run"]["id"]
        if args.rerun == -1:
            run(db, [*same_data, *args.extra])
            args.rerun = report(db, None)["run"]["id"]
        quick = per_record(report(db, args.quick_run))
        standard = per_record(report(db, args.standard_run))
        rerun = per_record(report(db, args.rerun)) if args.rerun is not None else None
    verdicts = judge(quick, standard)
    again = judge(rerun, standard) if rerun is not None else {}
    print(
        "| cell | quick / standard | verdict |" + (" re-run / standard | verdict |" * bool(again))
    )
    print("|---|---|---|" + "---|---|" * bool(again))
    for key, (ratio, verdict) in verdicts.items():
        more = f" {again[key][0]:.3f} | {again[key][1]} |" if key in again else ""
        print(f"| {key} | {ratio:.3f} | {verdict} |{more}")
    print()
    print(summary(verdicts, "quick"))
    if again:
        print(summary(again, "standard re-run"))


if __name__ == "__main__":
    main()
