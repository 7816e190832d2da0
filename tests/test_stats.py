"""The estimators behave as docs/method.md says on the noise these machines produce."""

from __future__ import annotations

import numpy as np
import pytest

from serbench.report.text import fmt_est
from serbench.stats import block_stretch, estimate, hierarchical_ci, slice_medians


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


def test_headline_is_the_fast_edge_not_the_slices_that_straddle_a_phase_switch() -> None:
    # phases flip every few tens of ms: a slice that straddles a switch is part fast, part
    # slow, and lands between the phases, often within FAST_MODE_WIDTH of the fastest
    rng = np.random.default_rng(3)
    fast = rng.normal(1000, 8, 10)
    straddling = rng.uniform(1120, 1220, 14)
    slow = rng.normal(1700, 30, 20)
    est = estimate([_timing(list(np.concatenate([fast, straddling, slow])))])
    assert est is not None
    assert est.headline_ns == pytest.approx(1000, rel=0.02)
    assert est.ci_low_ns <= est.headline_ns <= est.ci_high_ns < 1100
    assert est.slow_fraction == pytest.approx(20 / 44)  # the phase split is still the fast mode's


def test_pooled_processes_and_ci_narrow_with_n() -> None:
    rng = np.random.default_rng(2)
    small = estimate([_timing(list(rng.normal(1000, 20, 20)))])
    large = estimate([_timing(list(rng.normal(1000, 20, 200))) for _ in range(3)])
    assert small is not None and large is not None
    assert large.n == 600
    assert large.ci_half_width < small.ci_half_width
    assert large.precise


def test_slices_are_reduced_to_their_medians() -> None:
    t = _timing([10, 11, 50, 20, 21, 22], iterations=1)
    t["slice_sizes"] = [3, 3]
    assert list(slice_medians(t)) == [11, 21]


def test_hierarchical_interval_covers_the_truth_when_processes_vary() -> None:
    """Processes sit at random offsets from the truth (a JIT's luck): the interval from
    resampling processes, then slices, must cover the true centre about 95% of the time,
    where an interval from the slices alone would not."""
    rng = np.random.default_rng(3)
    hits = naive = 0
    trials = 200
    for _ in range(trials):
        per_process = [1000 * (1 + rng.normal(0, 0.03)) + rng.normal(0, 5, 15) for _ in range(8)]
        lo, hi = hierarchical_ci(per_process, resamples=300)
        hits += lo <= 1000 <= hi
        flat_lo, flat_hi = hierarchical_ci([np.concatenate(per_process)], resamples=300)
        naive += flat_lo <= 1000 <= flat_hi
    assert hits / trials >= 0.85
    assert naive / trials < 0.7


def test_no_samples_no_estimate() -> None:
    assert estimate([]) is None
    assert estimate([{"iterations": 1, "wall_ns": []}]) is None


def test_several_processes_pool_their_fast_mode_and_widen_the_interval() -> None:
    rng = np.random.default_rng(4)
    centres = (1000, 1040, 1100, 990, 1010)
    runs = [_timing(list(rng.normal(c, 5, 100))) for c in centres]
    runs.append(_timing(list(rng.normal(2000, 20, 100))))  # a process stuck in the slow phase
    est = estimate(runs)
    assert est is not None and est.processes == 6
    # the pooled fast mode (within 25% of the overall minimum) leaves the slow process out
    assert est.headline_ns == pytest.approx(np.median([990, 1000, 1010, 1040, 1100]), rel=0.03)
    single = estimate(runs[:1])
    assert single is not None
    # resampling processes puts their spread into the interval: wider than one process's
    assert est.ci_half_width > 3 * single.ci_half_width
    assert est.ci_low_ns < 1000 < est.ci_high_ns


def test_a_fastest_process_no_other_confirms_within_ten_percent_leaves_no_single_figure() -> None:
    rng = np.random.default_rng(5)
    agree = estimate([_timing(list(rng.normal(c, 3, 30))) for c in (1000, 1060)])
    apart = estimate([_timing(list(rng.normal(c, 3, 30))) for c in (1000, 1150)])
    alone = estimate([_timing(list(rng.normal(1000, 3, 30)))])
    assert agree is not None and apart is not None and alone is not None
    assert not agree.processes_disagree and agree.has_figure
    assert apart.processes_disagree and not apart.has_figure
    # each process's headline: the range of the processes' own figures
    assert apart.process_min_ns == pytest.approx(1000, rel=0.02)
    assert apart.process_max_ns == pytest.approx(1150, rel=0.02)
    assert not alone.processes_disagree  # one process cannot show it
    # a third process that confirms the fastest gives the figure back; one that does not,
    # or confirms only the slower, leaves the range
    confirmed = estimate([_timing(list(rng.normal(c, 3, 30))) for c in (1000, 1150, 1040)])
    slower = estimate([_timing(list(rng.normal(c, 3, 30))) for c in (1000, 1150, 1160)])
    assert confirmed is not None and slower is not None
    assert confirmed.has_figure and confirmed.processes_agreeing == 2
    assert confirmed.headline_ns == pytest.approx(1020, rel=0.02)  # the slow process left out
    assert slower.processes_disagree and slower.processes_agreeing == 1
    text = fmt_est(apart)  # the range, never one number
    assert text.startswith("varies ") and "–1.15 µs" in text and "±" not in text


def test_block_stretch_reads_a_whole_block_not_one_runner() -> None:
    """A block whose reference cells all ran 1.5x reads 1.5; one runner's process that
    compiled its reference 2x slower moves one key of many and not the block; a key no other
    block read, or a block that read nothing, says nothing."""
    keys = [(r, op) for r in ("cpp", "go", "java", "rust") for op in ("encode", "decode")]
    base = {k: 10.0 + i for i, k in enumerate(keys)}
    stretched = {k: 1.5 * v for k, v in base.items()}
    one_runner = {k: (2 * v if k[0] == "java" else 1.02 * v) for k, v in base.items()}
    alone = {("objc", "encode"): 100.0}
    got = block_stretch([base, stretched, one_runner, alone, {}])
    assert got[0] == pytest.approx(1.0)
    assert got[1] == pytest.approx(1.5)
    assert got[2] == pytest.approx(1.02)
    assert got[3] is None and got[4] is None
