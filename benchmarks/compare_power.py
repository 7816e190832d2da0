"""Does `serbench compare` tell a change from noise? Measures its two goal figures with the
Go runner's tunable test device (runners/go/internal/libs/tunable.go, enabled by
SERBENCH_TUNABLE_SCALE):

- between identical runs, the share of cell operations called "no difference" (goal >= 95%);
- between identical runs, how many pairs `compare --fail-above 5` would fail (goal: at
  most 1 in 20);
- against a run whose test device is made 5% slower, the share of the device's cell
  operations called "slower" (goal >= 90%).

    .venv/bin/python benchmarks/compare_power.py --triplets 8
    .venv/bin/python benchmarks/compare_power.py --triplets 8 --keep /tmp/power  # keep the db

Each triplet is three runs back to back: A and B at scale 1.00, C at 1.05 (--slower). A
against B is an identical pair, B against C the slowed pair; all runs go into one
database, and each comparison is `serbench compare X Y --format json`. It drives the CLI
only, and prints the machine's load average before every run (a shared CI runner's
neighbours are part of the result).
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
from collections import Counter
from pathlib import Path
from typing import Any

DEVICE = "go/tunable-test-device"
SERIALIZERS = [f"{DEVICE}*", "go/protobuf", "go/msgp", "go/json", "go/cbor"]
# Datasets whose quick operations are short enough for every slice the quick profile asks
# for (pb-vs-msgpack-test3's device operations, ~10 ms on a quiet machine, got only 3).
DATASETS = ["android-users", "pb-vs-msgpack-test1", "click-maps", "log-records"]
# Quick datasets and sampling, but five processes: one quick process cannot sample the
# between-process variation, and three left the device's 5% under-powered (docs/method.md).
PROFILE = ["--quick", "--processes", "5"]
GOAL_SAME, GOAL_SLOWER = 0.95, 0.90
GATE_PCT, GOAL_GATE = 5.0, 1 / 20  # `--fail-above 5` on identical pairs: fails at most 1 in 20


def serbench(args: list[str], base: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*base, *args], check=True, text=True, **kw)


def one_run(base: list[str], db: Path, scale: float, args: argparse.Namespace) -> int:
    cmd = ["run", "--db", str(db), "-r", "go"]
    for s in args.serializer:
        cmd += ["-s", s]
    for d in args.dataset:
        cmd += ["-d", d]
    env = dict(os.environ, SERBENCH_TUNABLE_SCALE=f"{scale:g}")
    serbench([*cmd, *args.extra], base, env=env, stdout=subprocess.DEVNULL)
    rep = serbench(["report", "--format", "json", "--db", str(db)], base, capture_output=True)
    return int(json.loads(rep.stdout)["run"]["id"])


def compared(base: list[str], db: Path, a: int, b: int) -> dict[str, Any]:
    out = serbench(
        ["compare", str(a), str(b), "--format", "json", "--db", str(db)], base, capture_output=True
    )
    return json.loads(out.stdout)


def gate_fails(base: list[str], db: Path, a: int, b: int) -> bool:
    """Would `serbench compare A B --fail-above GATE_PCT` fail a build?"""
    args = ["compare", str(a), str(b), "--fail-above", f"{GATE_PCT:g}", "--db", str(db)]
    done = subprocess.run([*base, *args], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"serbench compare failed: {done.stderr.strip()}")
    return done.returncode == 1


def share(counts: Counter[str], wanted: str, decided_only: bool = False) -> str:
    """wanted's share of the cells; with decided_only, of those that got a verdict."""
    skip = ("no verdict", "added", "removed") if decided_only else ()
    total = sum(n for v, n in counts.items() if v not in skip)
    return f"{counts[wanted]} of {total} ({100 * counts[wanted] / max(total, 1):.1f}%)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--triplets", type=int, default=8)
    ap.add_argument("--slower", type=float, default=1.05, help="the device's scale in run C")
    ap.add_argument("-s", "--serializer", action="append", default=None)
    ap.add_argument("-d", "--dataset", action="append", default=None)
    ap.add_argument("--serbench", default=f"{sys.executable} -m serbench")
    ap.add_argument("--keep", type=Path, help="keep the database and comparisons here")
    ap.add_argument("extra", nargs="*", help=f"`serbench run` options after --; default {PROFILE}")
    args = ap.parse_args()
    args.serializer = args.serializer or SERIALIZERS
    args.dataset = args.dataset or DATASETS
    args.extra = args.extra or PROFILE
    base = shlex.split(args.serbench)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "power.sqlite"
        same: Counter[str] = Counter()
        slowed: Counter[str] = Counter()
        loads, log = [], []
        gate_failures = 0
        for i in range(args.triplets):
            ids = []
            for scale in (1.0, 1.0, args.slower):
                loads.append(os.getloadavg()[0])
                t0 = time.monotonic()
                ids.append(one_run(base, db, scale, args))
                print(
                    f"triplet {i + 1}/{args.triplets}: run {ids[-1]} scale {scale:g}, "
                    f"{time.monotonic() - t0:.0f} s, load {loads[-1]:.1f}",
                    file=sys.stderr,
                )
            pair_same = compared(base, db, ids[0], ids[1])
            pair_slow = compared(base, db, ids[1], ids[2])
            same.update(c["verdict"] for c in pair_same["cells"])
            gate_failures += gate_fails(base, db, ids[0], ids[1])
            slowed.update(c["verdict"] for c in pair_slow["cells"] if c["cell"] == DEVICE)
            log.append({"runs": ids, "identical": pair_same, "slowed": pair_slow})
        if args.keep:
            (folder / "comparisons.json").write_text(json.dumps(log, indent=1))
    print(f"identical runs, all cell operations: {dict(same)}")
    print(f"  'no difference': {share(same, 'no difference', True)}, goal >= {GOAL_SAME:.0%}")
    alarms = same["faster"] + same["slower"]
    total = sum(same.values())
    print(
        f"  false alarms (faster or slower) among all {total}: {alarms} "
        f"({100 * alarms / max(total, 1):.1f}%); the rest no difference or no verdict"
    )
    print(
        f"  --fail-above {GATE_PCT:g} failed {gate_failures} of {args.triplets} identical pairs, "
        f"goal at most {GOAL_GATE:.0%}"
    )
    print(f"device x{args.slower:g} against x1, its cell operations: {dict(slowed)}")
    print(f"  'slower': {share(slowed, 'slower')}, goal >= {GOAL_SLOWER:.0%}")
    print(f"load average (1 min) before each run: {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
