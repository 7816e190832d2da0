"""Full scale for the .NET runner: one `serve` process per cell (prepare with its
round-trip check, then one sample of one encode and one of one decode), under a hard
time limit (SIGTERM, not SIGKILL: timeout signals its own process group, and a killed
timeout would never reap mono, leaving GNU time without its rusage), its peak RSS from GNU
time (`%M`). Prints one Markdown row per cell.

    ../../.venv/bin/serbench datasets --scale full --write
    ../../.venv/bin/python bench/fullscale.py --limit 600 json.net binaryformatter \\
        -d pb-vs-msgpack-test1 -d pb-vs-msgpack-test4
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from serbench import datasets

HERE = Path(__file__).resolve().parent.parent


def commands(ser: str, ds: str, path: str) -> str:
    cell = {"cell": "c"}
    lines: list[dict[str, Any]] = [
        {
            "cmd": "prepare",
            **cell,
            "serializer": ser,
            "operations": ["encode", "decode"],
            "dataset": {"name": ds, "kind": "builtin", "data": path},
        },
        {"cmd": "sample", **cell, "operation": "encode", "iterations": 1, "samples": 1},
        {"cmd": "sample", **cell, "operation": "decode", "iterations": 1, "samples": 1},
        {"cmd": "quit"},
    ]
    return "".join(json.dumps(c) + "\n" for c in lines)


def one(ser: str, ds: str, path: str, limit: int) -> str:
    """Runs one cell; the Markdown row (what finished, and where the limit stopped it)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        argv = ["/usr/bin/time", "-f", "%M", "-o", rss.name, "timeout", "-k", "10", str(limit)]
        argv += ["nice", "-n", "10", "mono", "build/serbench-dotnet.exe", "serve"]
        start = time.monotonic()
        proc = subprocess.Popen(
            argv, cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(commands(ser, ds, path))
        proc.stdin.close()
        replies = []
        for line in proc.stdout:
            replies.append((time.monotonic() - start, json.loads(line)))
        proc.wait()
        elapsed = time.monotonic() - start
        peak_mb = int(rss.read().strip().splitlines()[-1]) / 1024
    rss_cell = f"{peak_mb:,.0f} MB"
    if not replies:
        return f"| {ser} | {ds} | killed at the {limit} s limit during prepare | | | | {rss_cell} |"
    prepared_s, p = replies[0]
    if p["status"] != "ok":
        why = (p.get("error") or {}).get("message") or (p.get("check") or {}).get("detail")
        return f"| {ser} | {ds} | {p['status']}: {why} | | | {prepared_s:.0f} s | {rss_cell} |"
    times = [f"{r['wall_ns'][0] / 1e9:.1f} s" for _, r in replies[1:3] if r["event"] == "samples"]
    times += [f"killed at the {limit} s limit"] * (2 - len(times))
    return (
        f"| {ser} | {ds} | OK, {p['messages']:,} messages, {p['sizes']['encoded']:,} B "
        f"| {times[0]} | {times[1]} | {prepared_s:.0f} s (all {elapsed:.0f} s) | {rss_cell} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("serializers", nargs="+")
    parser.add_argument("-d", "--dataset", action="append", default=[])
    parser.add_argument("--limit", type=int, default=600, help="seconds per cell")
    args = parser.parse_args()
    print("| serializer | dataset | prepare | encode | decode | prepare time | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for ds in args.dataset or ["pb-vs-msgpack-test1"]:
        path = str(datasets.get(ds).build("full").path())  # type: ignore[union-attr]
        for ser in args.serializers:
            print(one(ser, ds, path, args.limit), flush=True)


if __name__ == "__main__":
    main()
