"""Do identical runs agree? Runs the same `serbench run` N times back to back, each with a
fresh database, and prints per cell operation the spread of every estimator across runs and
how often one run's 95% interval contains another run's headline.

    .venv/bin/python benchmarks/identical_runs.py --runs 8            # the default selection
    .venv/bin/python benchmarks/identical_runs.py --runs 8 --json out.json

It drives the CLI only (`serbench run`, `serbench report --format json`), so it measures
any checkout; `--baseline-tree DIR` alternates every run with the same run of another
checkout (its runners built), so that both versions face the same machine:

    .venv/bin/python benchmarks/identical_runs.py --runs 8 --baseline-tree /tmp/before

`--stored A.sqlite B.sqlite ...` summarises the latest run of each database instead (runs of
one matrix made some other way, e.g. a series of quick suites).

Spread is half the range relative to the centre, ±(max - min) / (max + min), over every
run's headline, and apart over the runs that show the cell as a number (not flagged
`not-steady`, `processes-disagree` or `unconfirmed`); coverage counts
ordered pairs of runs (i, j), i != j, where run i's interval contains run j's headline (an
honest 95% interval does so about 83% of the time: both headlines vary). The headline's
spread is also summed up by one operation's time: operations of 10 ms and more take one
operation per slice and few slices, and part furthest (docs/method.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

SELECTION = [
    "java/protobuf",
    "java/kryo",
    "python/msgspec-msgpack",
    "cpp/msgpack",
    "cpp/protobuf",
]
DATASETS = ["android-users", "log-records"]
ESTIMATORS = [
    "headline_ns",
    "sample_fast_ns",
    "slice_median_ns",
    "process_median_ns",
    "min_ns",
    "p10_ns",
    "median_ns",
    "mean_ns",
]


# one operation's time (its median headline over the runs): the bands the summary gives the
# spread in, single operations of a slice (10 ms and more) apart from the batched ones
LENGTH_BANDS = [(1e3, "under 1 µs"), (1e5, "1-100 µs"), (1e6, "0.1-1 ms"), (1e7, "1-10 ms")]
LONGEST_BAND = "10 ms and more"


def length_band(ns: float) -> str:
    return next((name for limit, name in LENGTH_BANDS if ns < limit), LONGEST_BAND)


def report_json(
    serbench: list[str], db: Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> dict[str, Any]:
    out = subprocess.run(
        [*serbench, "report", "--format", "json", "--db", str(db)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
    ).stdout
    return json.loads(out)


def one_run(
    serbench: list[str], args: argparse.Namespace, db: Path, tree: Path | None = None
) -> dict[str, Any]:
    env = dict(os.environ)
    if tree is not None:  # another checkout: its package and its runners
        env["PYTHONPATH"] = str(tree / "src")
        env["SERBENCH_HOME"] = str(db.parent / "baseline-home")
    cmd = [*serbench, "run", "--db", str(db)]
    for s in args.serializer:
        cmd += ["-s", s]
    for d in args.dataset:
        cmd += ["-d", d]
    cmd += args.extra
    cwd = tree or Path.cwd()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    return report_json(serbench, db, env, cwd)


def probe_words(noise: dict[str, Any]) -> str:
    """The run's noise probe, as each run's line gives it beside its time."""
    if "slow_share" not in noise:
        return "no noise probe"
    words = f"probe {100 * noise['slow_share']:.0f}% slow, fast phase {noise['fast_ns']:.0f} ns"
    if noise.get("fast_ns_on_record"):
        words += f" ({noise['fast_ns'] / noise['fast_ns_on_record']:.2f}x the record)"
    return words + (", a slow stretch" if noise.get("slow_stretch") else "")


def cells(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """'runner/serializer dataset op' -> that operation's estimate dict."""
    out = {}
    for ds, rows in report["datasets"].items():
        for r in rows:
            for op, est in r.get("operations", {}).items():
                out[f"{r['runner']}/{r['serializer']} {ds} {op}"] = est
    return out


def spread(values: list[float]) -> float:
    return (max(values) - min(values)) / (max(values) + min(values))


def has_figure(est: dict[str, Any]) -> bool:
    """The report shows a number for it (not `not-steady`, `processes-disagree`,
    `unconfirmed`)."""
    return (
        est.get("steady") is not False
        and not est.get("processes_disagree")
        and not est.get("unconfirmed")
    )


def coverage(ests: list[dict[str, Any]]) -> tuple[int, int]:
    hits = pairs = 0
    for i, a in enumerate(ests):
        for j, b in enumerate(ests):
            if i != j:
                pairs += 1
                hits += a["ci_low_ns"] <= b["headline_ns"] <= a["ci_high_ns"]
    return hits, pairs


def summarize(runs: list[dict[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    rows = []
    for key in keys:
        ests = [r[key] for r in runs]
        row: dict[str, Any] = {"cell": key}
        for e in ESTIMATORS:
            if all(x.get(e) for x in ests):
                row[e] = spread([x[e] for x in ests])
        row["coverage"] = coverage(ests)
        row["band"] = length_band(sorted(x["headline_ns"] for x in ests)[len(ests) // 2])
        shown = [x["headline_ns"] for x in ests if has_figure(x)]
        row["shown"] = len(shown)
        if len(shown) > 1:
            row["shown_spread"] = spread(shown)
        row["half_width"] = max(
            (x["ci_high_ns"] - x["ci_low_ns"]) / 2 / x["headline_ns"] for x in ests
        )
        rows.append(row)
    return rows


def print_table(rows: list[dict[str, Any]], seconds: list[float]) -> None:
    present = [e for e in ESTIMATORS if any(e in r for r in rows)]
    head = [
        "cell",
        *(e.removesuffix("_ns") for e in present),
        "widest CI",
        "coverage",
        "shown as a number",
    ]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cov = r["coverage"]
        vals = [f"±{100 * r[e]:.1f}%" if e in r else "-" for e in present]
        shown = f"{r['shown']} of {len(seconds)}"
        if "shown_spread" in r:
            shown += f", ±{100 * r['shown_spread']:.1f}%"
        print(
            f"| {r['cell']} | "
            + " | ".join(vals)
            + f" | ±{100 * r['half_width']:.1f}% | {cov[0]} of {cov[1]} | {shown} |"
        )
    worst = max(r["headline_ns"] for r in rows)
    hits = sum(r["coverage"][0] for r in rows)
    pairs = sum(r["coverage"][1] for r in rows)
    shown = sum(r["shown"] for r in rows)
    worst_shown = max((r["shown_spread"] for r in rows if "shown_spread" in r), default=0.0)
    print("\nheadline spread by one operation's time:")
    for band in [name for _, name in LENGTH_BANDS] + [LONGEST_BAND]:
        these = [r for r in rows if r["band"] == band]
        if not these:
            continue
        spreads = sorted(r["headline_ns"] for r in these)
        median, within = spreads[len(spreads) // 2], sum(x <= 0.05 for x in spreads)
        covered = sum(r["coverage"][0] for r in these) / sum(r["coverage"][1] for r in these)
        print(
            f"  {band}: {len(spreads)} cell operations, median ±{100 * median:.1f}%,"
            f" worst ±{100 * spreads[-1]:.1f}%, within ±5% {within}; coverage {100 * covered:.0f}%"
        )
    print(
        f"\nworst headline spread ±{100 * worst:.1f}%; coverage {hits}/{pairs} "
        f"({100 * hits / pairs:.0f}%); run wall time {min(seconds):.0f}-{max(seconds):.0f} s"
        f"\nshown as a number {shown}/{len(rows) * len(seconds)}; worst spread of the numbers"
        f" shown ±{100 * worst_shown:.1f}%"
    )


def summarize_stored(serbench: list[str], dbs: list[Path]) -> None:
    runs, seconds = [], []
    for db in dbs:
        if not db.is_file():
            raise SystemExit(f"--stored: {db}: no such database")
        report = report_json(serbench, db)
        runs.append(cells(report))
        started, finished = (report["run"][k] for k in ("started_at", "finished_at"))
        if not finished:
            raise SystemExit(f"--stored: {db}: its latest run did not finish")
        elapsed = datetime.fromisoformat(finished) - datetime.fromisoformat(started)
        seconds.append(elapsed.total_seconds())
        print(f"{db}: run {report['run']['id']}, {probe_words(noise_of(report))}", file=sys.stderr)
    print_table(summarize(runs), seconds)


def noise_of(report: dict[str, Any]) -> dict[str, Any]:
    return (report["run"].get("environment") or {}).get("noise") or {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("-s", "--serializer", action="append", default=None)
    ap.add_argument("-d", "--dataset", action="append", default=None)
    ap.add_argument("--serbench", default=f"{sys.executable} -m serbench")
    ap.add_argument("--json", type=Path, help="also write every run's estimates here")
    ap.add_argument("--baseline-tree", type=Path, help="alternate with this checkout's runs")
    ap.add_argument(
        "--stored", type=Path, nargs="+", help="summarise the latest run of these databases"
    )
    ap.add_argument("extra", nargs="*", help="more `serbench run` options, after --")
    args = ap.parse_args()
    serbench = shlex.split(args.serbench)
    if args.stored:
        if len(args.stored) < 2:
            ap.error("--stored: at least 2 databases (one run has nothing to agree with)")
        summarize_stored(serbench, args.stored)
        return
    if args.runs < 2:
        ap.error("--runs: at least 2 (one run has nothing to agree with)")
    args.serializer = args.serializer or SELECTION
    args.dataset = args.dataset or DATASETS
    versions = {"this tree": None} | (
        {f"baseline {args.baseline_tree}": args.baseline_tree.resolve()}
        if args.baseline_tree
        else {}
    )
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in versions}
    seconds: dict[str, list[float]] = {v: [] for v in versions}
    probes: dict[str, list[dict[str, Any]]] = {v: [] for v in versions}
    blocks: dict[str, list[list[dict[str, Any]]]] = {v: [] for v in versions}  # their stretch
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            for name, tree in versions.items():
                t0 = time.monotonic()
                db = Path(tmp) / f"{len(runs[name])}-{'b' if tree else 'a'}.sqlite"
                result = one_run(serbench, args, db, tree)
                runs[name].append(cells(result))
                seconds[name].append(time.monotonic() - t0)
                environment = result["run"].get("environment") or {}
                probes[name].append(noise_of(result))
                blocks[name].append(environment.get("blocks") or [])
                again = [", ".join(b["datasets"]) for b in blocks[name][-1] if b.get("again")]
                print(
                    f"{name} run {i + 1}/{args.runs}: {seconds[name][-1]:.0f} s; "
                    f"{probe_words(probes[name][-1])}"
                    + (f"; measured again: {'; '.join(again)}" if again else ""),
                    file=sys.stderr,
                )
    out = {}
    for name in versions:
        rows = summarize(runs[name])
        print(f"\n## {name}\n")
        print_table(rows, seconds[name])
        out[name] = {
            "runs": runs[name],
            "seconds": seconds[name],
            "probes": probes[name],
            "blocks": blocks[name],
            "rows": rows,
        }
    if args.json:
        args.json.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
