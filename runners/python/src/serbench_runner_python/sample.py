"""`sample`: a batch of consecutive operations, clocks read at its boundaries."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from itertools import repeat
from typing import Any

Op = Callable[[], Any]


def _collections() -> int:
    return sum(s["collections"] for s in gc.get_stats())


def batch(op: Op, n: int) -> tuple[int, int, int]:
    """Run op n times; (wall ns, thread-CPU ns, GC collections) for the batch."""
    g0 = _collections()
    c0 = time.thread_time_ns()
    t0 = time.perf_counter_ns()
    for _ in repeat(None, n):
        op()
    t1 = time.perf_counter_ns()
    c1 = time.thread_time_ns()
    return t1 - t0, c1 - c0, _collections() - g0


def samples(op: Op, iterations: int, count: int, untimed: int = 0) -> dict[str, Any]:
    """`count` consecutive samples of `iterations` operations, after `untimed` operations
    that are not timed: the `samples` reply's fields."""
    for _ in repeat(None, untimed):
        op()
    wall, cpu, gcs = [], [], []
    for _ in range(count):
        w, c, g = batch(op, iterations)
        wall.append(max(w, 1))
        cpu.append(c)
        gcs.append(g)
    return {
        "iterations": iterations,
        "wall_ns": wall,
        "cpu_ns": cpu,
        "alloc_bytes": None,
        "alloc_count": None,
        "gc_count": gcs,
        "gc_ns": None,
        "compile_ns": None,
    }
