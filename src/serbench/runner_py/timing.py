"""The timing loop of docs/runner-protocol.md section 7: calibrate, warm up, sample."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

Op = Callable[[], Any]


@dataclass
class TimingConfig:
    min_sample_ns: int = 1_000_000
    min_samples: int = 20
    max_samples: int = 200
    max_measure_ns: int = 500_000_000
    warmup_window: int = 5
    warmup_tolerance: float = 0.05
    warmup_max_ns: int = 300_000_000
    peak_alloc: bool = True
    budget_ns: int | None = None  # hard cap per operation: stop at 3 samples once spent

    @classmethod
    def from_request(cls, raw: dict[str, Any] | None) -> TimingConfig:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in (raw or {}).items() if k in known})


@dataclass
class Samples:
    iterations: int = 1
    wall_ns: list[int] = field(default_factory=list)
    cpu_ns: list[int] = field(default_factory=list)
    gc_count: list[int] = field(default_factory=list)
    warmup: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "wall_ns": self.wall_ns,
            "cpu_ns": self.cpu_ns,
            "alloc_bytes": None,
            "alloc_count": None,
            "gc_count": self.gc_count,
            "gc_ns": None,
            "warmup": self.warmup,
            "clock": {"wall": "time.perf_counter_ns", "cpu": "time.thread_time_ns"},
        }


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


def calibrate(op: Op, cfg: TimingConfig) -> int:
    n = 1
    while True:
        wall, _, _ = batch(op, n)
        if wall >= cfg.min_sample_ns:
            return n
        # Jump close to the target instead of doubling blindly, never by more than 16x.
        n = max(n * 2, min(n * 16, int(n * cfg.min_sample_ns / max(wall, 1) * 1.1)))


def warm_up(op: Op, n: int, cfg: TimingConfig) -> dict[str, Any]:
    w, walls, spent = cfg.warmup_window, [], 0
    while True:
        wall, _, _ = batch(op, n)
        walls.append(wall)
        spent += wall
        if len(walls) >= 2 * w:
            last = statistics.median(walls[-w:])
            before = statistics.median(walls[-2 * w : -w])
            if abs(last - before) <= cfg.warmup_tolerance * before:
                return {"samples": len(walls), "wall_ns": spent, "steady": True}
        if spent >= cfg.warmup_max_ns:
            return {"samples": len(walls), "wall_ns": spent, "steady": False}


def measure(ops: dict[str, Op], cfg: TimingConfig) -> dict[str, Samples]:
    """Calibrate and warm up each operation, then sample them round-robin."""
    results: dict[str, Samples] = {}
    for name, op in ops.items():
        n = calibrate(op, cfg)
        results[name] = Samples(iterations=n, warmup=warm_up(op, n, cfg))
    spent = dict.fromkeys(ops, 0)
    active = list(ops)
    while active:
        for name in list(active):
            s = results[name]
            wall, cpu, gcs = batch(ops[name], s.iterations)
            s.wall_ns.append(wall)
            s.cpu_ns.append(cpu)
            s.gc_count.append(gcs)
            spent[name] += wall
            k = len(s.wall_ns)
            enough = k >= cfg.min_samples and (
                k >= cfg.max_samples or spent[name] >= cfg.max_measure_ns
            )
            over_budget = cfg.budget_ns is not None and k >= 3 and spent[name] >= cfg.budget_ns
            if enough or over_budget:
                active.remove(name)
    return results
