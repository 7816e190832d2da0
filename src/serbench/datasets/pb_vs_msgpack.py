"""S2 pb-vs-msgpack: one small message appended N times to a stream (C++, 2008)."""

from __future__ import annotations

from functools import partial
from typing import Any

from serbench.datasets import DatasetSpec, Scale

TEST1 = {"a": 1, "b": 2}
TEST2 = {"a": -1, "b": -2}
TEST3 = {"s": "a" * 8192}
TEST4 = {"t1": TEST1, "t2": TEST2, "t3": TEST3}

# (message, N in the seed, N for --quick)
MESSAGES: dict[str, tuple[dict[str, Any], int, int]] = {
    "test1": (TEST1, 2**23, 2**12),
    "test2": (TEST2, 2**23, 2**12),
    "test3": (TEST3, 2**15, 2**8),
    "test4": (TEST4, 2**15, 2**8),
}


def generate(test: str, scale: Scale) -> tuple[list[Any], int]:
    message, full, quick = MESSAGES[test]
    return [message], full if scale == "full" else quick


SPECS = [
    DatasetSpec(
        name=f"pb-vs-msgpack-{test}",
        scenario="S2",
        title=f"S2 {test.capitalize()} stream (C++, 2008)",
        framing="stream",
        generate=partial(generate, test),
        schema_dir="pb-vs-msgpack",
    )
    for test in MESSAGES
]
