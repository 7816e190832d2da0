"""serbench's Go runner against testing.B on the same cells, alternately in one session.

For each cell, each round runs the runner (`serve`: prepare, then `sample` with a fixed
iteration count) and the testing.B benchmark (`-test.benchtime=<N>x -test.count=<samples>`,
the same N), in alternating order. Both give one ns/op, B/op and allocs/op per sample;
the script pools them and prints serbench/testing.B ratios of the median and minimum
ns/op and of the mean B/op and allocs/op.

    cd runners/go && ../../.venv/bin/python bench/compare.py --rounds 10 --samples 5
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(HERE, "..", "..", ".serbench", "data", "quick")
# (serializer, dataset, operation, iterations per sample): small, medium, large
CELLS = [
    ("msgpack", "android-users", "encode", 4000),
    ("protobuf", "click-maps", "decode", 20),
    ("json", "log-records", "decode", 2),
]
LINE = re.compile(r"^BenchmarkCell\S*\s+(\d+)\s+([\d.]+) ns/op\s+(\d+) B/op\s+(\d+) allocs/op", re.M)


def data_file(name: str) -> str:
    files = glob.glob(os.path.join(DATA, f"{name}.*.json"))
    if not files:
        sys.exit(f"no {name} file in {DATA}: run `serbench datasets --scale quick --write`")
    return files[0]


def native(test_bin: str, cell: tuple, samples: int) -> list[tuple[float, float, float]]:
    ser, ds, op, n = cell
    env = {**os.environ, "SERBENCH_CELL": f"{ser}:{ds}:{op}:{data_file(ds)}"}
    out = subprocess.run(
        [test_bin, "-test.run", "^$", "-test.bench", "^BenchmarkCell$", "-test.benchmem",
         f"-test.benchtime={n}x", f"-test.count={samples}"],
        env=env, capture_output=True, text=True, check=True, cwd=os.path.join(HERE, "internal", "libs"),
    ).stdout
    return [(float(m[1]), float(m[2]), float(m[3])) for m in LINE.findall(out)]


def runner(exe: str, cell: tuple, samples: int) -> list[tuple[float, float, float]]:
    ser, ds, op, n = cell
    cmds = [
        {"cmd": "prepare", "cell": "c", "serializer": ser, "operations": [op],
         "dataset": {"name": ds, "kind": "builtin", "data": data_file(ds)}},
        {"cmd": "sample", "cell": "c", "operation": op, "iterations": n, "samples": 1},  # warm-up
        {"cmd": "sample", "cell": "c", "operation": op, "iterations": n, "samples": samples},
        {"cmd": "quit"},
    ]
    out = subprocess.run([exe, "serve"], input="".join(json.dumps(c) + "\n" for c in cmds),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    r = json.loads(out[2])
    return [(w / n, a / n, c / n) for w, a, c in zip(r["wall_ns"], r["alloc_bytes"], r["alloc_count"])]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--samples", type=int, default=5)
    args = ap.parse_args()
    go = os.environ.get("GO", "go")
    test_bin = os.path.join(HERE, "bin", "libs.test")
    subprocess.run([go, "test", "-c", "-o", test_bin, "./internal/libs"], cwd=HERE, check=True)
    exe = os.path.join(HERE, "bin", "serbench-go")
    print("| cell | median ns/op | min ns/op | B/op | allocs/op | serbench median ns | testing.B median ns |")
    print("|---|---|---|---|---|---|---|")
    for cell in CELLS:
        ours: list = []
        theirs: list = []
        for r in range(args.rounds):
            pair = [lambda: ours.extend(runner(exe, cell, args.samples)),
                    lambda: theirs.extend(native(test_bin, cell, args.samples))]
            for f in (pair if r % 2 == 0 else pair[::-1]):
                f()
        med = statistics.median(x[0] for x in ours) / statistics.median(x[0] for x in theirs)
        mn = min(x[0] for x in ours) / min(x[0] for x in theirs)
        bop = statistics.mean(x[1] for x in ours) / max(statistics.mean(x[1] for x in theirs), 1e-9)
        aop = statistics.mean(x[2] for x in ours) / max(statistics.mean(x[2] for x in theirs), 1e-9)
        print(f"| {cell[0]} / {cell[1]} / {cell[2]} | {med:.3f} | {mn:.3f} | {bop:.3f} | {aop:.3f} "
              f"| {statistics.median(x[0] for x in ours):,.0f} | {statistics.median(x[0] for x in theirs):,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
