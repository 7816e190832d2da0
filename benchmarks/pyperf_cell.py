"""One serbench cell timed by pyperf: `python pyperf_cell.py SERIALIZER DATASET OP SCALE -o x.json`.

The operation is built by the Python runner's own code (same prepared objects, same
framing), so the two tools time exactly the same callable.
"""

from __future__ import annotations

import pyperf

from serbench import datasets
from serbench.runner_py.cell import check, operation, prepare
from serbench.runner_py.serializers import REGISTRY


def _forward(cmd: list[str], args) -> None:
    """pyperf re-runs this script in worker processes: hand them the cell too."""
    cmd.extend([args.serializer, args.dataset, args.operation, args.scale])


def main() -> None:
    runner = pyperf.Runner(add_cmdline_args=_forward)
    runner.argparser.add_argument("serializer")
    runner.argparser.add_argument("dataset")
    runner.argparser.add_argument("operation")
    runner.argparser.add_argument("scale")
    args = runner.parse_args()
    path = str(datasets.get(args.dataset).build(args.scale).path())
    prepared = prepare(REGISTRY[args.serializer].codec(args.dataset), args.dataset, path)
    ok, detail, encoded = check(prepared, args.dataset, path)
    if not ok:
        raise SystemExit(f"check failed: {detail}")
    op = operation(prepared, args.operation, encoded)
    runner.bench_func(f"{args.serializer}/{args.dataset}/{args.operation}", op)


if __name__ == "__main__":
    main()
