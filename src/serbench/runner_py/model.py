"""Native Python objects from canonical dataset files, and the deep comparison."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from serbench.datasets import load_canonical

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Fields whose canonical form is epoch milliseconds and whose native form is a datetime.
TIMESTAMP_FIELDS: dict[str, tuple[str, ...]] = {"log-records": ("MyProperty3",)}


def _records(message: Any) -> list[dict[str, Any]]:
    return message if isinstance(message, list) else [message]


def to_native(dataset: str, message: Any) -> Any:
    """Canonical JSON value -> the value Python users hold (datetimes for timestamps)."""
    for field in TIMESTAMP_FIELDS.get(dataset, ()):
        for record in _records(message):
            record[field] = EPOCH + timedelta(milliseconds=record[field])
    return message


def revive_iso(dataset: str, message: Any) -> Any:
    """For text formats with no date-time type: ISO-8601 strings back to datetimes."""
    for field in TIMESTAMP_FIELDS.get(dataset, ()):
        for record in _records(message):
            record[field] = datetime.fromisoformat(record[field])
    return message


def load_messages(dataset: str, path: str) -> tuple[list[Any], int, str]:
    """The distinct native messages, the message count and the framing of a dataset file."""
    doc = load_canonical(path)
    if doc["name"] != dataset:
        raise ValueError(f"{path} holds dataset {doc['name']!r}, not {dataset!r}")
    items = [to_native(dataset, item) for item in doc["items"]]
    return items, int(doc["count"]), doc["framing"]


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where two native values differ, as a path and the two values; None when equal.

    Stricter than ``==``: a bool is not an int and a str is not bytes, so a library
    that changes a type is caught.
    """
    te, ta = type(expected), type(actual)
    if isinstance(expected, bool) or isinstance(actual, bool):
        if te is not ta or expected != actual:
            return f"{path or '.'}: {actual!r} != {expected!r}"
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path or '.'}: {ta.__name__} != dict"
        if expected.keys() != actual.keys():
            missing = sorted(set(expected) - set(actual))[:3]
            extra = sorted(set(actual) - set(expected))[:3]
            return f"{path or '.'}: keys differ (missing {missing}, extra {extra})"
        for key, value in expected.items():
            diff = first_difference(value, actual[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path or '.'}: {ta.__name__} != list"
        if len(expected) != len(actual):
            return f"{path or '.'}: length {len(actual)} != {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            diff = first_difference(e, a, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if isinstance(expected, int) and isinstance(actual, int):
        return None if expected == actual else f"{path or '.'}: {actual!r} != {expected!r}"
    if te is not ta or expected != actual:
        shown_a, shown_e = repr(actual)[:60], repr(expected)[:60]
        return f"{path or '.'}: {shown_a} != {shown_e}"
    return None


# Datasets whose message is a list (formats whose root must be a map wrap these).
LIST_ROOTED = frozenset({"android-users", "log-records"})
