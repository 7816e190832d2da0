"""The estimators behave as docs/method.md says on the noise these machines produce."""

from __future__ import annotations

import numpy as np
import pytest

from serbench.stats import estimate, median_ci


def _timing(values: list[float], iterations: int = 10) -> dict:
    return {
        "iterations": iterations,
        "wall_ns": [v * iterations for v in values],
        "cpu_ns": [v * iterations for v in values],
        "warmup": {"steady": True, "samples": 5},
    }


def test_headline_ignores_the_slow_mode() -> None:
    rng = np.random.default_rng(1)
    fast = rng.normal(3600, 60, 45)
    slow = rng.normal(7300, 150, 55)  # most samples in the neighbour's slow phase
    est = estimate([_timing(list(np.concatenate([fast, slow])))])
    assert est is not None
    assert abs(est.headline_ns - 3600) < 60
    assert 0.5 < est.slow_fraction < 0.6
    assert est.median_ns > 7000  # the plain median lands in the slow mode
    assert est.ci_low_ns <= est.headline_ns <= est.ci_high_ns


def test_pooled_processes_and_ci_narrow_with_n() -> None:
    rng = np.random.default_rng(2)
    small = estimate([_timing(list(rng.normal(1000, 20, 20)))])
    large = estimate([_timing(list(rng.normal(1000, 20, 200))) for _ in range(3)])
    assert small is not None and large is not None
    assert large.n == 600
    assert large.ci_half_width < small.ci_half_width
    assert large.precise


def test_median_ci_covers_the_median() -> None:
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(400):
        x = np.sort(rng.exponential(1.0, 41))
        lo, hi = median_ci(x)
        hits += lo <= np.log(2) <= hi
    assert 0.92 <= hits / 400 <= 0.995


def test_no_samples_no_estimate() -> None:
    assert estimate([]) is None
    assert estimate([{"iterations": 1, "wall_ns": []}]) is None


def test_several_processes_widen_the_interval_to_their_spread() -> None:
    rng = np.random.default_rng(4)
    runs = [_timing(list(rng.normal(centre, 5, 100))) for centre in (1000, 1040, 1100, 990, 1010)]
    est = estimate(runs)
    assert est is not None and est.processes == 5
    assert est.headline_ns == pytest.approx(1010, rel=0.01)
    assert est.ci_low_ns <= 995 and est.ci_high_ns >= 1095  # min..max of 5 process headlines
    assert est.ci_confidence == pytest.approx(1 - 2**-4)
    assert not est.precise
