"""Bytes this runner did not write (docs/runner-protocol.md section 11).

Each decoder maps to the exception types its library documents for bad input: only those
answer ``rejected``. Any other exception answers ``error`` (the orchestrator counts it as a
crash) and a fault that kills the interpreter kills the process: no policy lives here.
"""

from __future__ import annotations

import base64
import json
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bson
import bson.errors
import cbor2
import msgpack
import msgspec
import orjson
from google.protobuf.message import DecodeError as ProtobufDecodeError

from serbench_runner_python import avro_container, canonical
from serbench_runner_python.cell import bind

Reply = dict[str, Any]
Decode = Callable[[bytes], Any]

# serializer -> the exceptions its library documents for input it cannot decode
REJECTS: dict[str, tuple[type[BaseException], ...]] = {
    "json": (json.JSONDecodeError, UnicodeDecodeError),
    "orjson": (orjson.JSONDecodeError,),
    "msgspec-json": (msgspec.DecodeError,),
    "msgspec-json-dynamic": (msgspec.DecodeError,),
    # msgpack's ExtraData, FormatError and StackError all derive from ValueError, which
    # its unpackb raises for incomplete input
    "msgpack": (ValueError,),
    "msgpack-positional": (ValueError,),
    "msgspec-msgpack": (msgspec.DecodeError,),
    "msgspec-msgpack-dynamic": (msgspec.DecodeError,),
    "cbor2": (cbor2.CBORDecodeError,),
    "bson": (bson.errors.InvalidBSON,),
    "protobuf": (ProtobufDecodeError,),
    "protobuf-dynamic": (ProtobufDecodeError,),
    # pickle's documentation lists these beside UnpicklingError
    "pickle": (pickle.UnpicklingError, AttributeError, EOFError, ImportError, IndexError),
}

# serializer -> its library's decode to a generic value (no dataset)
GENERIC: dict[str, Decode] = {
    "json": json.loads,
    "orjson": orjson.loads,
    "msgspec-json-dynamic": msgspec.json.decode,
    "msgpack": lambda b: msgpack.unpackb(b, raw=False, strict_map_key=False),
    "msgspec-msgpack-dynamic": msgspec.msgpack.decode,
    "cbor2": cbor2.loads,
    "bson": bson.decode,
}

ENCODE: dict[str, Callable[[Any], bytes]] = {
    "msgpack": lambda v: msgpack.packb(canonical.from_json(v), use_bin_type=True),
    "msgspec-msgpack-dynamic": lambda v: msgspec.msgpack.encode(canonical.from_json(v, "msgspec")),
}


class Unsupported(ValueError):
    pass


def _decoder(serializer: str, dataset: dict[str, Any] | None) -> Decode:
    if serializer not in REJECTS:
        raise Unsupported(f"{serializer} does not take untrusted input in this runner yet")
    if dataset is None:
        if serializer not in GENERIC:
            raise Unsupported(f"{serializer} has no generic-value decode: name a dataset")
        return GENERIC[serializer]
    codec = bind(serializer, dataset).codec

    def typed(data: bytes) -> Any:
        value = codec.decode(data)
        try:
            return codec.to_native(value)
        except Exception as exc:  # the runner's conversion, not the library: accepted
            return Converted(f"does not fit the model: {type(exc).__name__}: {exc}")

    return typed


class Converted(str):
    """What the library accepted but the runner's model conversion could not read."""


def _input(item: dict[str, Any]) -> bytes:
    if "path" in item:
        return Path(item["path"]).read_bytes()
    return base64.b64decode(item["b64"])


def decode(cmd: Reply) -> Reply:
    serializer = cmd["serializer"]
    if cmd.get("container"):
        if serializer not in avro_container.ROWS:
            raise Unsupported(f"{serializer} does not read Avro container files")
        run, rejects = avro_container.read, avro_container.REJECTS
    else:
        run, rejects = _decoder(serializer, cmd.get("dataset")), REJECTS[serializer]
    outcomes = []
    for item in cmd["inputs"]:
        data = _input(item)
        start = time.perf_counter_ns()
        try:
            value = run(data)
        except rejects as exc:
            outcome = {"outcome": "rejected", "error": f"{type(exc).__name__}: {exc}"[:300]}
        except Exception as exc:  # not the library's documented error: the caller's crash
            outcome = {"outcome": "error", "error": f"{type(exc).__name__}: {exc}"[:300]}
        else:
            shown = {"$other": str(value)} if isinstance(value, Converted) else value
            outcome = {"outcome": "accepted", "value": canonical.to_json(shown)}
        outcome["ns"] = time.perf_counter_ns() - start
        outcomes.append({"id": item["id"], **outcome})
    return {"event": "untrusted_decoded", "cell": cmd["cell"], "outcomes": outcomes}


def encode(cmd: Reply) -> Reply:
    serializer, dataset = cmd["serializer"], cmd.get("dataset")
    if "container" in cmd:
        if serializer not in avro_container.ROWS:
            raise Unsupported(f"{serializer} does not write Avro container files")
        container = cmd["container"]
        data = avro_container.write(container["schema"], container["codec"], cmd["value"])
    elif dataset is not None:
        bound = bind(serializer, dataset)
        item = bound.items[int(cmd.get("message", 0)) % len(bound.items)]
        data = bound.codec.encode(bound.codec.prepare(item))
    elif serializer in ENCODE:
        data = ENCODE[serializer](cmd["value"])
    else:
        raise Unsupported(f"{serializer} does not encode generic values in this runner")
    return {
        "event": "untrusted_encoded",
        "cell": cmd["cell"],
        "b64": base64.b64encode(bytes(data)).decode(),
    }
