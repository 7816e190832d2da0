"""`python -m serbench.runner_py describe|run`: the Python runner's protocol front end."""

from __future__ import annotations

import json
import platform
import sys
import traceback
from pathlib import Path
from typing import Any

from serbench import PROTOCOL_VERSION
from serbench.datasets import DATASETS
from serbench.runner_py import transport as transport_side
from serbench.runner_py.cell import OPERATIONS, run_cell
from serbench.runner_py.serializers import REGISTRY
from serbench.runner_py.serializers.base import Codec, NotApplicable
from serbench.runner_py.timing import TimingConfig


def emit(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def bind(serializer: str, dataset: str) -> Codec:
    return REGISTRY[serializer].codec(dataset)


def describe() -> dict[str, Any]:
    serializers = []
    for name, s in REGISTRY.items():
        datasets: dict[str, Any] = {}
        for ds in DATASETS:
            try:
                bind(name, ds)
                datasets[ds] = {"applicable": True}
            except NotApplicable as exc:
                datasets[ds] = {"applicable": False, "reason": str(exc)}
        serializers.append(
            {
                "name": name,
                "format": s.format,
                "library": s.library,
                "version": s.version(),
                "labels": list(s.labels),
                "footprint_bytes": s.footprint_bytes(),
                "datasets": datasets,
            }
        )
    return {
        "protocol": PROTOCOL_VERSION,
        "runner": "python",
        "language": "python",
        "runtime": {
            "name": platform.python_implementation(),
            "version": platform.python_version(),
            "details": sys.version.replace("\n", " "),
        },
        "serializers": serializers,
        "capabilities": ["transport", "decode_from"],
    }


def _error(code: str, message: str) -> dict[str, Any]:
    return {"status": "error", "error": {"code": code, "message": message}}


def run_one(cell: dict[str, Any], cfg: TimingConfig, dump_dir: str | None) -> None:
    serializer, dataset = cell.get("serializer", ""), cell.get("dataset", "")
    operations = list(cell.get("operations") or ["encode", "decode"])
    emit({"event": "start", "serializer": serializer, "dataset": dataset})
    base = {"event": "result", "serializer": serializer, "dataset": dataset}

    def finish(common: dict[str, Any], per_op: dict[str, dict[str, Any]]) -> None:
        for op in operations:
            emit({**base, "operation": op, "error": None, **common, **per_op[op]})

    def fail_all(result: dict[str, Any]) -> None:
        finish({}, {op: result for op in operations})

    if serializer not in REGISTRY:
        valid = ", ".join(REGISTRY)
        return fail_all(
            _error("unknown_serializer", f"unknown serializer {serializer!r}; valid: {valid}")
        )
    if dataset not in DATASETS:
        valid = ", ".join(DATASETS)
        return fail_all(_error("unknown_dataset", f"unknown dataset {dataset!r}; valid: {valid}"))
    unknown_ops = [op for op in operations if op not in OPERATIONS]
    if unknown_ops:
        valid = ", ".join(OPERATIONS)
        return fail_all(_error("unsupported", f"unknown operations {unknown_ops}; valid: {valid}"))
    try:
        codec = bind(serializer, dataset)
    except NotApplicable as exc:
        result = _error("not_applicable", str(exc))
        result["status"] = "not_applicable"
        return fail_all(result)
    try:
        dump = Path(dump_dir) / f"python.{serializer}.{dataset}.bin" if dump_dir else None
        common, per_op = run_cell(
            codec,
            dataset,
            cell["data"],
            cell.get("check_data") or cell["data"],
            operations,
            cfg,
            dump,
            cell.get("decode_from"),
        )
    except (OSError, ValueError, KeyError) as exc:
        if isinstance(exc, (OSError, ValueError)) and "data" in str(exc).lower():
            return fail_all(_error("bad_data", str(exc)))
        return fail_all(_error("exception", f"{type(exc).__name__}: {exc}"))
    except Exception as exc:  # a library failing must not take the other cells down
        last = traceback.format_exc(limit=3).strip().splitlines()[-1]
        return fail_all(_error("exception", f"{type(exc).__name__}: {exc} ({last})"))
    finish(common, per_op)


def run(raw: str) -> int:
    try:
        request = json.loads(raw)
        if not isinstance(request, dict) or not isinstance(request.get("cells"), list):
            raise ValueError("request must be an object with a 'cells' list")
        if request.get("protocol") != PROTOCOL_VERSION:
            raise ValueError(f"protocol {request.get('protocol')!r} is not {PROTOCOL_VERSION}")
        cfg = TimingConfig.from_request(request.get("timing"))
    except (ValueError, TypeError) as exc:
        emit({"event": "error", "code": "bad_request", "message": str(exc)})
        return 2
    for cell in request["cells"]:
        run_one(cell, cfg, request.get("dump_dir"))
    emit({"event": "done"})
    return 0


def transport(raw: str) -> int:
    """One side of an S3 socket transfer (docs/runner-protocol.md section 10)."""
    try:
        request = json.loads(raw)
        role = request["role"]
        codec = bind(request["serializer"], request["dataset"])
        if role == "receive":
            result = transport_side.receive(codec, request, emit)
        elif role == "send":
            result = transport_side.send(codec, request)
        else:
            raise ValueError(f"unknown role {role!r}; valid: send, receive")
    except (ValueError, KeyError, TypeError, NotApplicable) as exc:
        emit({"event": "error", "code": "bad_request", "message": f"{type(exc).__name__}: {exc}"})
        return 2
    except OSError as exc:
        emit({"event": "error", "code": "transport", "message": f"{type(exc).__name__}: {exc}"})
        return 1
    except Exception as exc:  # a library that cannot read the peer's bytes
        emit({"event": "error", "code": "exception", "message": f"{type(exc).__name__}: {exc}"})
        return 1
    emit({"event": "transport_result", **result})
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["describe"]:
        emit(describe())
        return 0
    if argv[:1] == ["run"]:
        return run(sys.stdin.read())
    if argv[:1] == ["transport"]:
        return transport(sys.stdin.read())
    sys.stderr.write(
        "usage: python -m serbench.runner_py describe | run | transport < request.json\n"
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
