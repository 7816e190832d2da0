"""`python -m serbench_runner_python describe|serve|transport`: the runner's front end."""

from __future__ import annotations

import json
import sys
from typing import Any

from serbench_runner_python import PROTOCOL_VERSION
from serbench_runner_python import transport as transport_side
from serbench_runner_python.cell import bind
from serbench_runner_python.describe import describe
from serbench_runner_python.serializers.base import NotApplicable
from serbench_runner_python.serve import serve


def emit(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def transport(raw: str) -> int:
    """One side of an S3 socket transfer (docs/runner-protocol.md section 9)."""
    try:
        request = json.loads(raw)
        role = request["role"]
        if request.get("protocol") != PROTOCOL_VERSION:
            raise ValueError(f"protocol {request.get('protocol')!r} is not {PROTOCOL_VERSION}")
        bound = bind(request["serializer"], request["dataset"])
        if role == "receive":
            result = transport_side.receive(bound, request, emit)
        elif role == "send":
            result = transport_side.send(bound, request)
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
    sys.stderr.write("usage: python -m serbench_runner_python describe | serve | transport\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
