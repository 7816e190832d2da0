"""S2 pb-vs-msgpack: one small message appended N times to a stream (C++, 2008)."""

from __future__ import annotations

from functools import partial
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

TEST1 = {"a": 1, "b": 2}
TEST2 = {"a": -1, "b": -2}
TEST3 = {"s": "a" * 8192}
TEST4 = {"t1": TEST1, "t2": TEST2, "t3": TEST3}

# message and N per scale; "full" is the seed's N
MESSAGES: dict[str, tuple[dict[str, Any], dict[str, int]]] = {
    "test1": (TEST1, {"quick": 2**12, "standard": 2**16, "full": 2**23}),
    "test2": (TEST2, {"quick": 2**12, "standard": 2**16, "full": 2**23}),
    "test3": (TEST3, {"quick": 2**8, "standard": 2**11, "full": 2**15}),
    "test4": (TEST4, {"quick": 2**8, "standard": 2**11, "full": 2**15}),
}


def generate(test: str, scale: Scale) -> tuple[list[Any], int]:
    message, counts = MESSAGES[test]
    return [message], counts[scale]


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
