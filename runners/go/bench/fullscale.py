"""Peak RSS of the Go runner on the full-scale datasets: one `serve` process per cell
(prepare with its round-trip check, one encode and one decode sample of one operation),
its maximum resident set size read from wait4's rusage.

    cd runners/go && ../../.venv/bin/serbench datasets --scale full --write
    ../../.venv/bin/python bench/fullscale.py protobuf msgpack json goavro
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from serbench import datasets

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = ["pb-vs-msgpack-test1", "log-records"]


def one(ser: str, ds: str, path: str) -> str:
    cmds = [
        {
            "cmd": "prepare",
            "cell": "c",
            "serializer": ser,
            "operations": ["encode", "decode"],
            "dataset": {"name": ds, "kind": "builtin", "data": path},
        },
        {"cmd": "sample", "cell": "c", "operation": "encode", "iterations": 1, "samples": 1},
        {"cmd": "sample", "cell": "c", "operation": "decode", "iterations": 1, "samples": 1},
        {"cmd": "quit"},
    ]
    start = time.monotonic()
    proc = subprocess.Popen(
        [os.path.join(HERE, "bin", "serbench-go"), "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    replies = []
    for c in cmds:
        proc.stdin.write(json.dumps(c) + "\n")
        proc.stdin.flush()
        replies.append(json.loads(proc.stdout.readline()))
        if c["cmd"] == "prepare":
            prepared_s = time.monotonic() - start
            if replies[-1]["status"] != "ok":
                proc.stdin.close()
                break
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    p = replies[0]
    if p["status"] != "ok":
        return f"| {ser} | {ds} | {p['status']}: {p.get('check') or p.get('error')} | | | | |"
    enc, dec = replies[1]["wall_ns"][0] / 1e6, replies[2]["wall_ns"][0] / 1e6
    return (
        f"| {ser} | {ds} ({p['messages']:,} msgs) | {p['sizes']['encoded']:,} B "
        f"| {prepared_s:.1f} s "
        f"| {enc:,.0f} ms | {dec:,.0f} ms | {usage.ru_maxrss / 1024:,.0f} MiB |"
    )


def main() -> None:
    sers = sys.argv[1:] or ["protobuf", "msgpack", "json"]
    print(
        "| serializer | dataset | encoded | prepare (load, encode, codecs, check) "
        "| one encode | one decode | peak RSS |"
    )
    print("|---|---|---|---|---|---|---|")
    for ds in DATASETS:
        path = str(datasets.get(ds).build("full").path())  # type: ignore[union-attr]
        for ser in sers:
            print(one(ser, ds, path), flush=True)


if __name__ == "__main__":
    main()
