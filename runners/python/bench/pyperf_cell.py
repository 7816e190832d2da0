"""One cell timed by pyperf, the Python community's harness:
`python bench/pyperf_cell.py SERIALIZER DATASET DATA OP -o x.json` (DATA: a canonical file).

The operation is built by the runner's own code (same prepared objects, same framing),
so pyperf and serbench time exactly the same callable.
"""

from __future__ import annotations

import argparse

import pyperf

from serbench_runner_python.cell import bind, compare, operation


def _forward(cmd: list[str], args: argparse.Namespace) -> None:
    """pyperf re-runs this script in worker processes: hand them the cell too."""
    cmd.extend([args.serializer, args.dataset, args.data, args.operation])


def main() -> None:
    runner = pyperf.Runner(add_cmdline_args=_forward)
    for name in ("serializer", "dataset", "data", "operation"):
        runner.argparser.add_argument(name)
    args = runner.parse_args()
    bound = bind(args.serializer, {"name": args.dataset, "kind": "builtin", "data": args.data})
    prepared = bound.prepared()
    encoded = prepared.encode_all()
    ok, detail = compare(prepared, encoded, bound.expected, bound.count)
    if not ok:
        raise SystemExit(f"check failed: {detail}")
    op = operation(prepared, args.operation, encoded)
    runner.bench_func(f"{args.serializer}/{args.dataset}/{args.operation}", op)


if __name__ == "__main__":
    main()
