"""Estimators for one cell operation, computed from a runner's raw samples.

The headline is the *fast-mode median*: the median of the per-iteration times that lie
within ``FAST_MODE_WIDTH`` of the minimum. docs/method.md gives the evidence: on these
machines a process flips between a fast mode and a ~2x slower one every few seconds,
so the plain median jumps between modes (±50% across runs) while the fast mode's
centre moves like the minimum (±3.5%) and, unlike the minimum, has a
distribution-free confidence interval (order statistics of a binomial). With several
processes the interval comes from the spread of the per-process headlines.
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


@dataclass
class Estimate:
    n: int
    processes: int
    headline_ns: float
    ci_low_ns: float
    ci_high_ns: float
    ci_confidence: float
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


def _per_op(timings: list[dict[str, Any]], key: str) -> np.ndarray | None:
    parts = []
    for t in timings:
        raw = t.get(key)
        if raw is None or len(raw) != len(t["wall_ns"]):
            return None
        parts.append(np.asarray(raw, dtype=float) / max(int(t["iterations"]), 1))
    return np.concatenate(parts) if parts else None


def _fast_median(values: np.ndarray) -> tuple[float, float, float, np.ndarray]:
    """(headline, CI low, CI high, fast-mode samples) of one process's sorted samples."""
    fast = fast_mode(values)
    lo, hi = median_ci(fast)
    return float(np.median(fast)), lo, hi, fast


def between_process_ci(headlines: list[float]) -> tuple[float, float, float]:
    """(low, high, confidence) for the median of per-process headlines.

    Distribution-free: with n processes the true median lies between the k-th lowest and
    k-th highest headline with binomial probability; with few processes the range
    [min, max] is used and its confidence (1 - 2^(1-n)) reported as it is.
    """
    h = np.sort(np.asarray(headlines))
    n = len(h)
    if n < 6:
        return float(h[0]), float(h[-1]), 1 - 2.0 ** (1 - n)
    lo, hi = median_ci(h)
    return lo, hi, 0.95


def estimate(timings: list[dict[str, Any]], messages: int = 1) -> Estimate | None:
    """Estimate one operation from its samples, one timing dict per process.

    One process: the fast-mode median with its within-process 95% CI. Several: the
    median of the per-process headlines, with a CI from their spread, since the machine's
    phases make processes differ more than samples within one process do.
    """
    timings = [t for t in timings if t and t.get("wall_ns")]
    if not timings:
        return None
    per_process = [np.sort(_per_op([t], "wall_ns")) for t in timings]  # type: ignore[arg-type]
    heads = [_fast_median(v) for v in per_process]
    ordered = np.sort(np.concatenate(per_process))
    fast = np.concatenate([h[3] for h in heads])
    if len(heads) == 1:
        head, lo, hi = heads[0][0], heads[0][1], heads[0][2]
        confidence = 0.95
    else:
        head = float(np.median([h[0] for h in heads]))
        lo, hi, confidence = between_process_ci([h[0] for h in heads])
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
        ci_confidence=confidence,
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
