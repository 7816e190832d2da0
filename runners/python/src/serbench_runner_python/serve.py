"""`serve`: the runner's side of protocol v2 (docs/runner-protocol.md section 4)."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterable
from typing import Any

from serbench_runner_python import model
from serbench_runner_python.cell import peak_alloc, prepare_cell
from serbench_runner_python.compress import OPERATIONS
from serbench_runner_python.sample import Op, samples
from serbench_runner_python.serializers import REGISTRY
from serbench_runner_python.serializers.base import NotApplicable
from serbench_runner_python.untrusted import Unsupported
from serbench_runner_python.untrusted import decode as untrusted_decode
from serbench_runner_python.untrusted import encode as untrusted_encode

Reply = dict[str, Any]
UNTRUSTED = ("untrusted_decode", "untrusted_encode")
COMMANDS = ("prepare", "sample", "peak_alloc", "release", "quit", *UNTRUSTED)


class BadRequest(ValueError):
    pass


def _failed(cell: str, status: str, code: str, message: str) -> Reply:
    return {
        "event": "prepared",
        "cell": cell,
        "status": status,
        "check": None,
        "messages": None,
        "sizes": None,
        "unsupported": [],
        "error": {"code": code, "message": message[:1000]},
    }


def exception_text(exc: BaseException) -> str:
    where = traceback.format_exc(limit=3).strip().splitlines()[-1]
    return f"{type(exc).__name__}: {exc} ({where})"[:500]


class Server:
    """Prepared cells by id; one reply per command."""

    def __init__(self) -> None:
        self.cells: dict[str, dict[str, Op]] = {}

    def prepare(self, cmd: Reply) -> Reply:
        cell, serializer, dataset = cmd["cell"], cmd["serializer"], cmd["dataset"]
        unknown = [op for op in cmd["operations"] if op not in OPERATIONS]
        if unknown:
            raise BadRequest(f"unknown operations {unknown}; valid: {', '.join(OPERATIONS)}")
        if serializer not in REGISTRY:
            valid = ", ".join(REGISTRY)
            message = f"unknown serializer {serializer!r}; valid: {valid}"
            return _failed(cell, "error", "unknown_serializer", message)
        builtins = model.builtin_names()
        if dataset.get("kind") != "user" and dataset["name"] not in builtins:
            message = f"unknown dataset {dataset['name']!r}; valid: {', '.join(builtins)}"
            return _failed(cell, "error", "unknown_dataset", message)
        try:
            reply, ops = prepare_cell(cmd)
        except NotApplicable as exc:
            return _failed(cell, "not_applicable", "not_applicable", str(exc))
        except (OSError, ValueError, KeyError) as exc:
            return _failed(cell, "error", "bad_data", exception_text(exc))
        except Exception as exc:  # a library failing must not take the other cells down
            return _failed(cell, "error", "exception", exception_text(exc))
        if ops:
            self.cells[cell] = ops
        return {"event": "prepared", "cell": cell, **reply}

    def _op(self, cmd: Reply) -> Op:
        ops = self.cells.get(cmd["cell"])
        if ops is None or cmd["operation"] not in ops:
            raise KeyError(cmd["cell"])
        return ops[cmd["operation"]]

    def untrusted(self, cmd: Reply) -> Reply:
        """Section 11: the library's own outcome for bytes this runner did not write."""
        cell, serializer = cmd["cell"], cmd["serializer"]
        if serializer not in REGISTRY:
            message = f"unknown serializer {serializer!r}; valid: {', '.join(REGISTRY)}"
            code = "unknown_serializer"
            return {"event": "error", "code": code, "cell": cell, "message": message}
        try:
            if cmd["cmd"] == "untrusted_decode":
                return untrusted_decode(cmd)
            return untrusted_encode(cmd)
        except Unsupported as exc:
            return {"event": "error", "code": "unsupported", "cell": cell, "message": str(exc)}
        except NotApplicable as exc:
            return {"event": "error", "code": "not_applicable", "cell": cell, "message": str(exc)}

    def handle(self, cmd: Reply) -> Reply:
        kind = cmd.get("cmd")
        cell = cmd.get("cell", "")
        try:
            if kind == "prepare":
                return self.prepare(cmd)
            if kind == "sample":
                iterations, count = int(cmd["iterations"]), int(cmd["samples"])
                untimed = int(cmd.get("untimed", 0))
                if iterations < 1 or count < 1 or untimed < 0:
                    raise BadRequest("iterations and samples must be at least 1, untimed 0")
                out = samples(self._op(cmd), iterations, count, untimed)
                return {"event": "samples", "cell": cell, "operation": cmd["operation"], **out}
            if kind == "peak_alloc":
                return {
                    "event": "peak_alloc",
                    "cell": cell,
                    "operation": cmd["operation"],
                    "bytes": peak_alloc(self._op(cmd)),
                }
            if kind == "release":
                self.cells.pop(cell, None)
                return {"event": "released", "cell": cell}
            if kind == "quit":
                return {"event": "bye"}
            if kind in UNTRUSTED:
                return self.untrusted(cmd)
            raise BadRequest(f"unknown cmd {kind!r}; valid: {', '.join(COMMANDS)}")
        except BadRequest as exc:
            return {"event": "error", "code": "bad_request", "message": str(exc)}
        except KeyError as exc:
            if kind in ("sample", "peak_alloc") and exc.args == (cell,):
                return {
                    "event": "error",
                    "code": "unknown_cell",
                    "cell": cell,
                    "message": f"cell {cell!r} with operation {cmd.get('operation')!r} "
                    "is not prepared (or did not pass its check)",
                }
            return {"event": "error", "code": "bad_request", "message": f"missing field {exc}"}
        except (TypeError, ValueError) as exc:
            return {"event": "error", "code": "bad_request", "message": str(exc)}
        except Exception as exc:
            message = exception_text(exc)
            return {"event": "error", "code": "exception", "cell": cell, "message": message}


def serve(lines: Iterable[str], emit: Callable[[Reply], None]) -> int:
    server = Server()
    for line in lines:
        if not line.strip():
            continue
        try:
            cmd = json.loads(line)
            if not isinstance(cmd, dict):
                raise ValueError("a command is a JSON object")
        except ValueError as exc:
            emit({"event": "error", "code": "bad_request", "message": f"not a command: {exc}"})
            continue
        reply = server.handle(cmd)
        emit(reply)
        if reply["event"] == "bye":
            break
    return 0
