"""The generic value tree every dataset is read into, and its strict comparison.

The tree is what Python users hold for arbitrary data: dicts (records and maps), lists,
int (any size), float, str, bool, None, bytes for ``bytes`` and UTC datetimes for
``timestamp_ms``; enums stay ordinals, as in the canonical file.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from serbench_runner_python.typelang import Enum, ListOf, MapOf, Optional, Prim, Record, Type

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
Native = Callable[[Any], Any]
PathPart = str | int


def format_path(parts: Sequence[PathPart]) -> str:
    """``$``, ``$.user.name``, ``$.ids[3]``, ``$["a b"]``; ``[*]`` stands for any index."""
    out = ["$"]
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        elif p == "[*]":
            out.append("[*]")
        elif p.isidentifier() and p.isascii():
            out.append(f".{p}")
        else:
            escaped = p.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'["{escaped}"]')
    return "".join(out)


def _ident(v: Any) -> Any:
    return v


def _float(v: Any) -> Any:
    # An int stays an int: a library that turned a float into an integer must fail the check.
    return _SPECIAL.get(v, v) if isinstance(v, str) else v


def _timestamp(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return EPOCH + timedelta(milliseconds=v)
    if isinstance(v, str):  # JSON formats write date-times as ISO-8601 text
        try:
            return datetime.fromisoformat(v)
        except ValueError:
            return v
    return v


def _bytes(v: Any) -> Any:
    if isinstance(v, str):  # JSON formats write bytes as base64 text
        try:
            return base64.b64decode(v, validate=True)
        except ValueError:
            return v
    return v


def native(t: Type) -> Native:
    """Canonical value (or a text format's decoded value) -> the tree."""
    if isinstance(t, Prim):
        return {
            "float64": _float,
            "float32": _float,
            "timestamp_ms": _timestamp,
            "bytes": _bytes,
        }.get(t.name, _ident)
    if isinstance(t, Enum):
        return _ident
    if isinstance(t, Optional):
        inner = native(t.of)
        if inner is _ident:
            return _ident
        return lambda v: None if v is None else inner(v)
    if isinstance(t, ListOf):
        item = native(t.of)
        if item is _ident:
            return _ident
        return lambda v: [item(x) for x in v] if isinstance(v, list) else v
    if isinstance(t, MapOf):
        value = native(t.of)
        if value is _ident:
            return _ident
        return lambda v: {k: value(x) for k, x in v.items()} if isinstance(v, dict) else v
    assert isinstance(t, Record)
    converting = [(k, f) for k, f in ((k, native(ft)) for k, ft in t.fields) if f is not _ident]
    if not converting:
        return _ident

    def record(v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        out = dict(v)
        for k, f in converting:
            if k in out:
                out[k] = f(out[k])
        return out

    return record


def load_items(
    path: str | Path, message: Type, name: str | None = None
) -> tuple[list[Any], int, str]:
    """Canonical file -> (trees, message count, framing); ``name``: the dataset it must hold."""
    doc = json.loads(Path(path).read_bytes())
    if not isinstance(doc, dict) or doc.get("format") != "serbench-dataset":
        raise ValueError(f"{path} is not a serbench dataset file")
    if name is not None and doc.get("name") != name:
        raise ValueError(f"{path} holds dataset {doc.get('name')!r}, not {name!r}")
    convert = native(message)
    return [convert(item) for item in doc["items"]], int(doc["count"]), doc["framing"]


def _same_float(e: float, a: float) -> bool:
    if math.isnan(e):
        return math.isnan(a)
    return e == a and math.copysign(1.0, e) == math.copysign(1.0, a)


def _show(v: Any) -> str:
    return type(v).__name__ if isinstance(v, (dict, list)) else repr(v)[:60]


def _kind(v: Any) -> type:
    """int subclasses (bson.Int64, IntEnum) count as int; bool stays bool."""
    t = type(v)
    return int if t is not bool and isinstance(v, int) else t


def first_difference(expected: Any, actual: Any, parts: list[PathPart] | None = None) -> str | None:
    """Where two trees differ: ``$.a[3]: 1.0 != 1`` (actual != expected).

    Strict: NaN equals NaN, -0.0 differs from 0.0, an int is not a float, a bool is not
    an int, bytes are not str. Maps compare as maps (order ignored).
    """
    parts = parts or []
    te, ta = _kind(expected), _kind(actual)
    if te is not ta:
        where = format_path(parts)
        return f"{where}: {_show(actual)} ({ta.__name__}) != {_show(expected)} ({te.__name__})"
    if te is dict:
        if expected.keys() != actual.keys():
            missing = [k for k in expected if k not in actual][:3]
            extra = [k for k in actual if k not in expected][:3]
            return f"{format_path(parts)}: keys differ (missing {missing}, extra {extra})"
        for k, v in expected.items():
            diff = first_difference(v, actual[k], [*parts, k])
            if diff:
                return diff
        return None
    if te is list:
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            diff = first_difference(e, a, [*parts, i])
            if diff:
                return diff
        if len(expected) != len(actual):
            return f"{format_path(parts)}: length {len(actual)} != {len(expected)}"
        return None
    same = _same_float(expected, actual) if te is float else expected == actual
    if not same:
        return f"{format_path(parts)}: {_show(actual)} != {_show(expected)}"
    return None


def find(
    tree: Any,
    test: Callable[[Any], str | None],
    parts: list[PathPart] | None = None,
    keys: Callable[[str], str | None] | None = None,
) -> tuple[str, str] | None:
    """The first value (or key) of the tree ``test`` objects to: (path, reason)."""
    parts = parts or []
    reason = test(tree)
    if reason:
        return format_path(parts), reason
    if isinstance(tree, list):
        for i, x in enumerate(tree):
            found = find(x, test, [*parts, i], keys)
            if found:
                return found
    elif isinstance(tree, dict):
        for k, x in tree.items():
            if keys is not None:
                why = keys(k)
                if why:
                    return format_path([*parts, k]), why
            found = find(x, test, [*parts, k], keys)
            if found:
                return found
    return None
