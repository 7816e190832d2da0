"""One cell timed by pyperf, the Python community's harness: the native harness of
`serbench calibrate` (docs/runner-protocol.md, section 12).

    python bench/pyperf_cell.py --serializer S --dataset D --dataset-file F --operation OP
        --iterations N --samples K --sample-ms M --warmup-ms W

pyperf's own schedule, shaped by the calibrate flags: values of N loops, three per worker
process (pyperf's default), as many processes as K values need, warm-up values for W ms.
Prints each value as one JSON line, {"wall_ns": ..., "cpu_ns": null, "iterations": N}.
The operation is built by the runner's own code (same prepared objects, same framing),
so pyperf and serbench time exactly the same callable.
"""

from __future__ import annotations

import argparse
import json
import math

import pyperf

from serbench_runner_python.cell import bind, compare, operation

VALUES_PER_PROCESS = 3  # pyperf's default
CELL_ARGS = ("serializer", "dataset", "dataset-file", "operation")
SCHEDULE_ARGS = ("iterations", "samples", "sample-ms", "warmup-ms")


def _forward(cmd: list[str], args: argparse.Namespace) -> None:
    """pyperf re-runs this script in worker processes: hand them the cell too."""
    for name in CELL_ARGS + SCHEDULE_ARGS:
        cmd.extend([f"--{name}", str(getattr(args, name.replace("-", "_")))])


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    for name in CELL_ARGS:
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--iterations", type=int, required=True)
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--sample-ms", type=float, default=10.0)
    parser.add_argument("--warmup-ms", type=float, default=0.0)


def main() -> None:
    contract = argparse.ArgumentParser(add_help=False)
    _add_arguments(contract)
    known, _ = contract.parse_known_args()
    runner = pyperf.Runner(
        values=VALUES_PER_PROCESS,
        processes=math.ceil(known.samples / VALUES_PER_PROCESS),
        loops=known.iterations,
        warmups=max(1, math.ceil(known.warmup_ms / known.sample_ms)),
        add_cmdline_args=_forward,
    )
    _add_arguments(runner.argparser)
    args = runner.parse_args()
    bound = bind(
        args.serializer, {"name": args.dataset, "kind": "builtin", "data": args.dataset_file}
    )
    prepared = bound.prepared()
    encoded = prepared.encode_all()
    ok, detail = compare(prepared, encoded, bound.expected, bound.count)
    if not ok:
        raise SystemExit(f"check failed: {detail}")
    op = operation(prepared, args.operation, encoded)
    bench = runner.bench_func(f"{args.serializer}/{args.dataset}/{args.operation}", op)
    if bench is None:  # a worker: its values went to the main process
        return
    for run in bench.get_runs():
        for value in run.values:  # seconds per operation
            line = {"wall_ns": round(value * 1e9 * args.iterations), "cpu_ns": None}
            print(json.dumps({**line, "iterations": args.iterations}))


if __name__ == "__main__":
    main()
