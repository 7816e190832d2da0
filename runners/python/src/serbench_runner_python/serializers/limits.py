"""Values a format cannot carry, found in a user's tree before anything is timed."""

from __future__ import annotations

from typing import Any

from serbench_runner_python.serializers.base import Limits
from serbench_runner_python.tree import find


def int_range(low: int, high: int, what: str) -> Limits:
    def test(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and not low <= v <= high:
            return f"{v} exceeds {what}" if v > high else f"{v} is below {what}'s range"
        return None

    return lambda tree: find(tree, test)


MSGPACK = int_range(-(2**63), 2**64 - 1, "uint64")
INT64_OR_UINT64 = int_range(-(2**63), 2**64 - 1, "64-bit integers")
