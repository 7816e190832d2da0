"""serbench's Go runner against testing.B on the same cells, alternately in one session.

serbench side: serbench.schedule.time_cell, i.e. the orchestrator's own schedule
(calibration to --sample-ms, steady-state warm-up, then one slice of --samples samples) in a
fresh `bin/serbench-go serve` process. testing.B side: BenchmarkCell of internal/libs (the
very same Cell operation) with `-test.benchtime=<serbench's iterations>x
-test.count=<samples>`, so both tools time batches of the same length, in two variants:

  B       plain testing.B: runtime.GC() before every repetition, timer started right after
  B-warm  the same, plus untimed operations after that GC (SERBENCH_WARM: at least
          <iterations> and two completed GC cycles), so timing starts with the heap back at
          its steady-state size, as serbench's samples do

The tools alternate per round (which goes first alternates too). From each tool's raw
per-sample values the SAME estimators are computed: median and minimum wall ns/op,
serbench's headline (fast-mode median of wall ns/op), median and minimum thread-CPU ns/op
(serbench's cpu_ns; BenchmarkCell reports cpu-ns/op from the same clock, its goroutine
locked to its thread as the runner's is), mean B/op and allocs/op; ratios are
serbench / testing.B. On a loaded machine the CPU figures are the robust ones: wall time
there is mostly the share of a core the scheduler gave each process.

    cd runners/go && ../../.venv/bin/python bench/compare.py --rounds 8 --samples 10 --sample-ms 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess

from serbench import datasets, runners, schedule  # run with the repo's .venv python
from serbench.stats import fast_mode_median
from serbench.timing import one_slice

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CELLS = [  # (serializer, dataset, operation): small, medium, large
    ("msgpack", "android-users", "encode"),
    ("protobuf", "click-maps", "decode"),
    ("json", "log-records", "decode"),
]
Sample = tuple[
    float, float, float, float, float
]  # wall ns/op, thread CPU ns/op, B/op, allocs/op, GCs/op


def parse_bench(out: str) -> list[Sample]:
    """BenchmarkCell lines: N, then value-unit pairs (ns/op, cpu-ns/op, gc/op, B/op, ...)."""
    rows = []
    for line in out.splitlines():
        if not line.startswith("BenchmarkCell"):
            continue
        f = line.split()
        units = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
        rows.append(
            (units["ns/op"], units["cpu-ns/op"], units["B/op"], units["allocs/op"], units["gc/op"])
        )
    return rows


def testing_b(
    test_bin: str, cell: tuple, path: str, n: int, samples: int, warm: bool
) -> list[Sample]:
    ser, ds, op = cell
    env = {
        **os.environ,
        "SERBENCH_CELL": f"{ser}:{ds}:{op}:{path}",
        "SERBENCH_WARM": str(n if warm else 0),
    }
    out = subprocess.run(
        [
            test_bin,
            "-test.run",
            "^$",
            "-test.bench",
            "^BenchmarkCell$",
            "-test.benchmem",
            f"-test.benchtime={n}x",
            f"-test.count={samples}",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.join(HERE, "internal", "libs"),
    ).stdout
    return parse_bench(out)


def serbench(spec, cell: tuple, path: str, timing) -> tuple[int, list[Sample]]:
    ser, ds, op = cell
    t = schedule.time_cell(spec, ser, ds, path, op, timing)["timing"]
    n = t["iterations"]
    rows = zip(
        t["wall_ns"], t["cpu_ns"], t["alloc_bytes"], t["alloc_count"], t["gc_count"], strict=True
    )
    return n, [(w / n, c / n, a / n, k / n, g / n) for w, c, a, k, g in rows]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--samples", type=int, default=10, help="samples per tool, cell and round")
    ap.add_argument("--sample-ms", type=int, default=100)
    ap.add_argument(
        "--cell",
        action="append",
        help="only cells whose serializer/dataset/operation contains this",
    )
    a = ap.parse_args()
    cells = [c for c in CELLS if not a.cell or any(f in "/".join(c) for f in a.cell)]
    go = os.environ.get("GO", "go")
    test_bin = os.path.join(HERE, "bin", "libs.test")
    subprocess.run([go, "test", "-c", "-o", test_bin, "./internal/libs"], cwd=HERE, check=True)
    spec = runners.discover()["go"]
    ns = a.sample_ms * 1_000_000
    timing = one_slice(ns, a.samples, 10 * ns)
    print(
        f"GOGC={os.environ.get('GOGC', '100 (default)')}; "
        f"load average before: {os.getloadavg()} on {os.cpu_count()} CPUs"
    )
    print(
        f"rounds {a.rounds}, {a.samples} samples of ~{a.sample_ms} ms "
        f"per tool, cell and round; scale {a.scale}\n"
    )
    rows = []
    for cell in cells:
        path = str(datasets.get(cell[1]).build(a.scale).path())  # type: ignore[union-attr]
        pooled: dict[str, list[Sample]] = {"serbench": [], "B": [], "B-warm": []}
        n = 0
        for r in range(a.rounds):
            steps = ["serbench", "B", "B-warm"]
            if r % 2 == 1 and n:
                steps = steps[::-1]
            for step in steps:
                if step == "serbench":
                    n, got = serbench(spec, cell, path, timing)
                else:
                    got = testing_b(test_bin, cell, path, n, a.samples, step == "B-warm")
                pooled[step] += got
        s = pooled["serbench"]
        for variant in ("B", "B-warm"):
            b = pooled[variant]
            ratio = [
                statistics.median(x[0] for x in s) / statistics.median(x[0] for x in b),
                min(x[0] for x in s) / min(x[0] for x in b),
                fast_mode_median([x[0] for x in s]) / fast_mode_median([x[0] for x in b]),
                statistics.median(x[1] for x in s) / statistics.median(x[1] for x in b),
                min(x[1] for x in s) / min(x[1] for x in b),
                statistics.mean(x[2] for x in s) / max(statistics.mean(x[2] for x in b), 1e-9),
                statistics.mean(x[3] for x in s) / max(statistics.mean(x[3] for x in b), 1e-9),
            ]
            gcs = (statistics.mean(x[4] for x in s), statistics.mean(x[4] for x in b))
            rows.append(
                (
                    f"{'/'.join(cell)} ({n} ops/sample)",
                    variant,
                    ratio,
                    statistics.median(x[0] for x in s),
                    statistics.median(x[0] for x in b),
                    gcs,
                )
            )
            print(
                f"{rows[-1][0]:44} vs {variant:6}: " + " ".join(f"{x:.3f}" for x in ratio),
                flush=True,
            )
    print(f"\nload average after: {os.getloadavg()}\n")
    print(
        "| cell | vs | wall median | wall min | wall fast-mode median | CPU median | CPU min "
        "| B/op | allocs/op "
        "| serbench wall median | testing.B wall median | GCs/op serbench / testing.B |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, variant, ratio, sm, bm, gcs in rows:
        print(
            f"| {name} | {variant} | "
            + " | ".join(f"{x:.3f}" for x in ratio)
            + f" | {sm:,.0f} ns | {bm:,.0f} ns | {gcs[0]:.4f} / {gcs[1]:.4f} |"
        )


if __name__ == "__main__":
    main()
