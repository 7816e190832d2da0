"""Decoded values as canonical JSON (docs/runner-protocol.md section 11), and back.

JSON carries null, bools, strings, integers and finite floats itself; everything else is
a one-key object: ``$bytes`` (hex), ``$float`` ("NaN", "Infinity", "-Infinity"), ``$map``
(pairs, for maps with keys that are not strings), ``$ext`` ([type, hex]), ``$timestamp``
([seconds, nanoseconds]), ``$tag`` ([number, value]), ``$simple`` (number),
``$undefined`` (true) and ``$other`` (a type the format's library made, with its text).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import cbor2
import msgpack
import msgspec

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _timestamp(value: datetime) -> dict[str, Any]:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    delta = value - _EPOCH
    seconds = delta.days * 86400 + delta.seconds
    return {"$timestamp": [seconds, delta.microseconds * 1000]}


MAX_DEPTH = 400  # deeper values are rendered as $other: the reply must stay printable


def to_json(value: Any, depth: int = 0) -> Any:
    """The canonical JSON form of a value a decoder returned."""
    if depth > MAX_DEPTH:
        return {"$other": f"nested deeper than {MAX_DEPTH}"}
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        word = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        return {"$float": word}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$bytes": bytes(value).hex()}
    if isinstance(value, msgpack.ExtType):  # a tuple: before the sequences
        return {"$ext": [value.code, value.data.hex()]}
    d = depth + 1
    if isinstance(value, list | tuple):
        return [to_json(v, d) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: to_json(v, d) for k, v in value.items()}
        return {"$map": [[to_json(k, d), to_json(v, d)] for k, v in value.items()]}
    if isinstance(value, msgspec.msgpack.Ext):
        return {"$ext": [value.code, bytes(value.data).hex()]}
    if isinstance(value, msgpack.Timestamp):
        return {"$timestamp": [value.seconds, value.nanoseconds]}
    if isinstance(value, datetime):
        return _timestamp(value)
    if isinstance(value, cbor2.CBORTag):
        return {"$tag": [value.tag, to_json(value.value, depth + 1)]}
    if isinstance(value, cbor2.CBORSimpleValue):
        return {"$simple": value.value}
    if value is cbor2.undefined:
        return {"$undefined": True}
    return {"$other": f"{type(value).__name__}: {value}"[:200]}


_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def from_json(value: Any, kind: str = "msgpack") -> Any:
    """The native value a canonical JSON form stands for (for the encode direction)."""
    if isinstance(value, list):
        return [from_json(v, kind) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((key, inner),) = value.items()
        if key == "$bytes":
            return bytes.fromhex(inner)
        if key == "$float":
            return _SPECIAL[inner]
        if key == "$map":
            return {_hashable(from_json(k, kind)): from_json(v, kind) for k, v in inner}
        if key == "$ext":
            if kind == "msgspec":
                return msgspec.msgpack.Ext(inner[0], bytes.fromhex(inner[1]))
            return msgpack.ExtType(inner[0], bytes.fromhex(inner[1]))
        if key == "$timestamp":
            if kind == "msgspec":
                return datetime.fromtimestamp(inner[0], UTC).replace(microsecond=inner[1] // 1000)
            return msgpack.Timestamp(inner[0], inner[1])
    return {k: from_json(v, kind) for k, v in value.items()}


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value
