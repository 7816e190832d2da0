"""Estimators for one cell operation, computed from a runner's raw samples.

The headline is the *fast-mode median*: the median of the per-iteration times that lie
within ``FAST_MODE_WIDTH`` of the minimum. docs/method.md gives the evidence: on these
machines a process flips between a fast mode and a ~2x slower one every few seconds,
so the plain median jumps between modes (±50% across runs) while the fast mode's
centre moves like the minimum (±3.5%) and, unlike the minimum, has a
distribution-free confidence interval (order statistics of a binomial). A process can
spend its whole life in the slow phase, so with several processes the fast mode is
taken over all their samples pooled and the interval comes from resampling processes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sps

FAST_MODE_WIDTH = 0.25  # fast-mode samples: at most 25% above the minimum
PRECISION_TARGET = 0.02  # a headline whose 95% CI half-width exceeds 2% is flagged
OVERHEAD_FACTOR = 5.0  # an operation under 5x the no-op's time is flagged
BOOTSTRAP = 400  # process resamples for a multi-process interval


@dataclass
class Estimate:
    n: int
    processes: int
    headline_ns: float
    ci_low_ns: float
    ci_high_ns: float
    min_ns: float
    p10_ns: float
    median_ns: float
    mean_ns: float
    cpu_headline_ns: float | None
    slow_fraction: float  # share of samples outside the fast mode
    fast_spread: float  # IQR / median within the fast mode
    per_message_ns: float
    alloc_bytes: float | None  # per operation, where the runner can tell
    alloc_count: float | None
    peak_alloc_bytes: int | None
    gc_per_op: float | None
    warmup_steady: bool
    warmup_samples: int
    iterations: int

    @property
    def ci_half_width(self) -> float:
        return (self.ci_high_ns - self.ci_low_ns) / 2

    @property
    def precise(self) -> bool:
        return self.ci_half_width <= PRECISION_TARGET * self.headline_ns

    def as_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["precise"] = self.precise
        return d


def median_ci(sorted_values: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free CI of the median from order statistics (binomial, p = 0.5)."""
    n = len(sorted_values)
    if n < 6:
        return float(sorted_values[0]), float(sorted_values[-1])
    lo, hi = sps.binom.interval(confidence, n, 0.5)
    lo_i = max(int(lo) - 1, 0)
    hi_i = min(int(hi), n - 1)
    return float(sorted_values[lo_i]), float(sorted_values[hi_i])


def fast_mode(values: np.ndarray) -> np.ndarray:
    return values[values <= values.min() * (1 + FAST_MODE_WIDTH)]


def fast_mode_median(values: list[float] | np.ndarray) -> float:
    """serbench's headline estimator on raw per-operation times (for cross-checks)."""
    return float(np.median(fast_mode(np.sort(np.asarray(values, dtype=float)))))


def _per_op(timings: list[dict[str, Any]], key: str) -> np.ndarray | None:
    parts = []
    for t in timings:
        raw = t.get(key)
        if raw is None or len(raw) != len(t["wall_ns"]):
            return None
        parts.append(np.asarray(raw, dtype=float) / max(int(t["iterations"]), 1))
    return np.concatenate(parts) if parts else None


def pooled_fast_median(per_process: list[np.ndarray]) -> float:
    return float(np.median(fast_mode(np.sort(np.concatenate(per_process)))))


def process_bootstrap_ci(
    per_process: list[np.ndarray], resamples: int = BOOTSTRAP
) -> tuple[float, float]:
    """95% interval of the pooled fast-mode median, resampling whole processes.

    Processes, not samples, are the unit that varies most here: a process can spend all of
    its life in the neighbour's slow phase. Resampling them keeps that in the interval.
    """
    rng = np.random.default_rng(0)
    n = len(per_process)
    boots = [
        pooled_fast_median([per_process[i] for i in rng.integers(0, n, n)])
        for _ in range(resamples)
    ]
    lo, hi = np.percentile(boots, [2.5, 97.5])
    return float(lo), float(hi)


def estimate(timings: list[dict[str, Any]], messages: int = 1) -> Estimate | None:
    """Estimate one operation from its samples, one timing dict per process.

    One process: the fast-mode median with its within-process 95% CI. Several: the
    fast-mode median of all their samples pooled (the fast mode is found even when some
    processes never left the slow phase), with a CI from resampling whole processes.
    """
    timings = [t for t in timings if t and t.get("wall_ns")]
    if not timings:
        return None
    per_process = [np.sort(_per_op([t], "wall_ns")) for t in timings]  # type: ignore[arg-type]
    ordered = np.sort(np.concatenate(per_process))
    fast = fast_mode(ordered)
    head = float(np.median(fast))
    lo, hi = median_ci(fast)
    if len(per_process) > 1:
        boot_lo, boot_hi = process_bootstrap_ci(per_process)
        lo, hi = min(lo, boot_lo), max(hi, boot_hi)
    cpu = _per_op(timings, "cpu_ns")
    cpu_head = float(np.median(fast_mode(np.sort(cpu)))) if cpu is not None else None
    q1, q3 = np.percentile(fast, [25, 75])
    alloc = _per_op(timings, "alloc_bytes")
    count = _per_op(timings, "alloc_count")
    gcs = _per_op(timings, "gc_count")
    peaks = [t.get("peak_alloc_bytes") for t in timings if t.get("peak_alloc_bytes") is not None]
    warm = [t.get("warmup") or {} for t in timings]
    return Estimate(
        n=len(ordered),
        processes=len(timings),
        headline_ns=head,
        ci_low_ns=lo,
        ci_high_ns=hi,
        min_ns=float(ordered[0]),
        p10_ns=float(np.percentile(ordered, 10)),
        median_ns=float(np.median(ordered)),
        mean_ns=float(np.mean(ordered)),
        cpu_headline_ns=cpu_head,
        slow_fraction=1 - len(fast) / len(ordered),
        fast_spread=float((q3 - q1) / head) if head else math.nan,
        per_message_ns=head / max(messages, 1),
        alloc_bytes=float(np.median(alloc)) if alloc is not None else None,
        alloc_count=float(np.median(count)) if count is not None else None,
        peak_alloc_bytes=max(peaks) if peaks else None,
        gc_per_op=float(np.mean(gcs)) if gcs is not None else None,
        warmup_steady=all(w.get("steady", True) for w in warm),
        warmup_samples=max((w.get("samples", 0) for w in warm), default=0),
        iterations=int(timings[0]["iterations"]),
    )


def ratio_ci(a: Estimate, b: Estimate) -> tuple[float, float, float]:
    """a/b with a conservative interval from the two headline intervals."""
    return (a.headline_ns / b.headline_ns, a.ci_low_ns / b.ci_high_ns, a.ci_high_ns / b.ci_low_ns)
