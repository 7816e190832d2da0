"""`python -m serbench.runner_py describe|serve|transport`: the Python runner's front end."""

from __future__ import annotations

import json
import platform
import sys
from typing import Any

from serbench import PROTOCOL_VERSION
from serbench.datasets import DATASETS
from serbench.runner_py import transport as transport_side
from serbench.runner_py.serializers import REGISTRY
from serbench.runner_py.serializers.base import NotApplicable
from serbench.runner_py.serve import bind, serve
from serbench.runner_py.user_codecs import applicability as user_applicability


def emit(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


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
                "user_datasets": user_applicability(name),
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
        "capabilities": ["transport", "decode_from", "user_datasets"],
    }


def transport(raw: str) -> int:
    """One side of an S3 socket transfer (docs/runner-protocol.md section 9)."""
    try:
        request = json.loads(raw)
        role = request["role"]
        if request.get("protocol") != PROTOCOL_VERSION:
            raise ValueError(f"protocol {request.get('protocol')!r} is not {PROTOCOL_VERSION}")
        dataset = request["dataset"]
        user = None
        if dataset.get("kind") == "user":  # section 7: the generic tree and its check
            from serbench.runner_py.user_cell import user_transport

            user = user_transport(request["serializer"], dataset)
            codec = user.codec
        else:
            codec = bind(request["serializer"], dataset["name"])
        request = {**request, "dataset": dataset["name"], "data": dataset["data"]}
        request["check_data"] = dataset.get("check_data")
        if role == "receive":
            result = transport_side.receive(codec, request, emit, user)
        elif role == "send":
            result = transport_side.send(codec, request, user)
        else:
            raise ValueError(f"unknown role {role!r}; valid: send, receive")
    except NotApplicable as exc:
        emit({"event": "error", "code": "not_applicable", "message": str(exc)})
        return 2
    except (ValueError, KeyError, TypeError) as exc:
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
    if argv[:1] == ["serve"]:
        return serve(sys.stdin, emit)
    if argv[:1] == ["transport"]:
        return transport(sys.stdin.read())
    sys.stderr.write("usage: python -m serbench.runner_py describe | serve | transport\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
