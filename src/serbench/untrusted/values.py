"""Canonical JSON values (docs/runner-protocol.md section 11) and their comparison."""

from __future__ import annotations

import json
import math
from typing import Any

_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _number(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, dict) and set(value) == {"$float"}:
        return _SPECIAL.get(value["$float"])
    return None


def _same_number(a: float | int, b: float | int) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    fa, fb = float(a), float(b)
    # a JSON number read as a double is a faithful reading (RFC 8259 section 6)
    return fa == fb or (math.isnan(fa) and math.isnan(fb))


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """None when equal (numbers by value, maps as maps), else the first differing path."""
    ne, na = _number(expected), _number(actual)
    if ne is not None or na is not None:
        if ne is None or na is None or not _same_number(ne, na):
            return f"{path}: {_show(actual)} != {_show(expected)}"
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: {len(actual)} elements != {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(expected) != set(actual):
            return f"{path}: keys {sorted(actual)[:5]} != {sorted(expected)[:5]}"
        for key, e in expected.items():
            if key == "$map":  # maps with keys that are not strings: compare as pair sets
                if sorted(map(_key, e)) != sorted(map(_key, actual[key])):
                    return f"{path}: map {_show(actual)} != {_show(expected)}"
                continue
            found = first_difference(e, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: {_show(actual)} != {_show(expected)}"
    return None


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _show(value: Any) -> str:
    return json.dumps(value)[:60]
