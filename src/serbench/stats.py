"""Estimators for one cell operation, computed from a runner's raw samples.

The unit of time-variation is the *slice*: a few consecutive samples taken by one `sample`
command. Slices of every cell are spread over the run in a randomized, interleaved order, so
each cell's slices see the machine's fast and slow phases alike; the samples inside one
slice share one phase. So each slice is reduced to its median, and:

- the headline is the *fast-edge median* of the slices: the median of the slice medians
  that lie within ``FAST_EDGE`` of the fastest slice (pooled over processes): the low edge
  of the fast phase, which moves like the minimum across runs but is made of several
  slices. The fast *mode* (within ``FAST_MODE_WIDTH``) is the whole fast phase: it decides
  which slices are slow and when a process has confirmed its fast phase; a slice that
  straddles a phase switch lands in it but rarely in the edge;
- its 95% interval comes from a hierarchical bootstrap: processes resampled, then slices
  within each, so that the variation between processes (a JIT's choices, memory layout)
  and between phases is inside the interval. Two or three processes show that variation
  poorly, so a run's report widens the interval to at least what the runner's other
  cells in the run say about it (``Prior``, ``process_interval``).

docs/method.md has the evidence for both choices and the estimators considered beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import special  # bdtr, the binomial CDF, without scipy.stats' second of import

FAST_MODE_WIDTH = 0.25  # fast-mode slices: at most 25% above the fastest
PRECISION_TARGET = 0.03  # a headline whose 95% CI half-width exceeds 3% is flagged
OVERHEAD_FACTOR = 5.0  # an operation under 5x the no-op's time is flagged
BOOTSTRAP = 1000  # hierarchical resamples for an interval
# slices this close to the fastest are the fast edge: the headline is their median, and a
# process is judged by its share of them (docs/method.md, "the headline is the fast edge")
FAST_EDGE = 0.10
DISAGREEMENT_P = 0.01  # a process holding fewer of the fast edge than this allows disagrees
MEDIAN_CI_IQR = 1.57  # 95% interval of a median ~ median ± 1.57 IQR / sqrt(n) (McGill et al.)
MIN_CELLS_FOR_PRIOR = 8  # fewer cells of a runner with a process variance: no prior
Z95 = float(special.ndtri(0.975))  # the normal's 97.5% point


@dataclass
class Estimate:
    n: int  # samples
    slices: int
    processes: int
    headline_ns: float
    ci_low_ns: float
    ci_high_ns: float
    min_ns: float
    p10_ns: float
    median_ns: float
    mean_ns: float
    sample_fast_ns: float  # fast-mode median of the samples (the v1 headline)
    slice_median_ns: float  # median of the slice medians
    process_median_ns: float  # median over processes of each one's headline
    cpu_headline_ns: float | None
    slow_fraction: float  # share of slices outside the fast mode
    fast_spread: float  # IQR / median of the fast-mode slices
    process_spread: float  # (max - min) / (max + min) of the per-process headlines
    process_min_ns: float  # per process its headline: the lowest and the highest
    process_max_ns: float  # of those (a process is not blamed for its slow-phase slices)
    processes_agreeing: int  # processes that confirm the lowest figure (stats.agreeing)
    processes_confirmed: int  # processes whose fast mode was confirmed (timing["confirmed"])
    per_message_ns: float
    alloc_bytes: float | None  # per operation, where the runner can tell
    alloc_count: float | None
    peak_alloc_bytes: int | None
    gc_per_op: float | None
    steady: bool | None  # False: some process never passed the steady-state test
    warmup_slices: int
    iterations: int
    # sample variance of the log per-process figures (None with one process): how far one
    # fresh process lands from the next, which compare's test needs and the bootstrap over
    # two or three processes cannot see
    process_log_var: float | None = None

    @property
    def ci_half_width(self) -> float:
        return (self.ci_high_ns - self.ci_low_ns) / 2

    @property
    def precise(self) -> bool:
        return self.ci_half_width <= PRECISION_TARGET * self.headline_ns

    @property
    def settled(self) -> bool:
        """A second fresh process confirms the fastest one (or the run had one process and
        it confirmed its fast mode)."""
        if self.processes == 1:
            return self.processes_confirmed == 1
        # two processes whose few slices all fell in the slow phase would agree on it
        return self.processes_agreeing >= 2 and self.processes_confirmed >= 1

    @property
    def processes_disagree(self) -> bool:
        """Fresh processes that each confirmed their fast mode disagree, and no second one
        confirms the fastest: which figure a run shows then depends on its processes' luck
        (a JIT's choices, memory layout), so no re-run would confirm one number
        (docs/method.md)."""
        return not self.settled and self.processes_confirmed >= 2

    @property
    def unconfirmed(self) -> bool:
        """Not settled, and not because confirmed processes disagree: too few processes
        reached their fast mode within the slices allowed (a machine in its slow phase all
        along), so the figure may be the slow phase's."""
        return not self.settled and self.processes_confirmed < 2

    @property
    def has_figure(self) -> bool:
        """One headline a re-run can confirm: steady, and settled across processes."""
        return self.steady is not False and self.settled

    def as_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["precise"] = self.precise
        d["processes_disagree"] = self.processes_disagree
        d["unconfirmed"] = self.unconfirmed
        return d


def _near_fastest(values: np.ndarray, width: float) -> np.ndarray:
    """Which values lie within ``width`` of the fastest."""
    return values <= values.min() * (1 + width)


def fast_mode(values: np.ndarray) -> np.ndarray:
    return values[_near_fastest(values, FAST_MODE_WIDTH)]


def fast_edge(values: np.ndarray) -> np.ndarray:
    return values[_near_fastest(values, FAST_EDGE)]


def headline(values: list[float] | np.ndarray) -> float:
    """The fast-edge median of slice medians (or of raw per-operation times)."""
    return float(np.median(fast_edge(np.asarray(values, dtype=float))))


def _per_op(t: dict[str, Any], key: str) -> np.ndarray | None:
    raw = t.get(key)
    if raw is None or len(raw) != len(t["wall_ns"]):
        return None
    return np.asarray(raw, dtype=float) / max(int(t["iterations"]), 1)


def slice_medians(t: dict[str, Any], key: str = "wall_ns") -> np.ndarray:
    """Each slice's median per-operation time (a sample is its own slice in v1 results)."""
    values = _per_op(t, key)
    assert values is not None
    sizes = t.get("slice_sizes") or [1] * len(values)
    edges = np.cumsum([0, *sizes])
    return np.array([np.median(values[a:b]) for a, b in zip(edges[:-1], edges[1:], strict=True)])


def _headline_rows(matrix: np.ndarray) -> np.ndarray:
    """The headline of every row (NaN = absent)."""
    low = np.nanmin(matrix, axis=1, keepdims=True)
    edge = np.where(matrix <= low * (1 + FAST_EDGE), matrix, np.nan)
    return np.nanmedian(edge, axis=1)


def hierarchical_ci(
    per_process: list[np.ndarray], resamples: int = BOOTSTRAP, seed: int = 0
) -> tuple[float, float]:
    """95% percentile interval of the pooled headline: processes resampled with
    replacement, then slices with replacement within each chosen process."""
    rng = np.random.default_rng(seed)
    p = len(per_process)
    width = max(len(x) for x in per_process)
    padded = np.full((p, width), np.nan)
    for i, x in enumerate(per_process):
        padded[i, : len(x)] = x
    counts = np.array([len(x) for x in per_process])
    chosen = rng.integers(0, p, (resamples, p)) if p > 1 else np.zeros((resamples, 1), int)
    picks = (rng.random((resamples, p, width)) * counts[chosen][:, :, None]).astype(int)
    draws = padded[chosen[:, :, None], picks]
    draws[:, :, :][np.arange(width)[None, None, :] >= counts[chosen][:, :, None]] = np.nan
    boots = _headline_rows(draws.reshape(resamples, p * width))
    lo, hi = np.percentile(boots, [2.5, 97.5])
    return float(lo), float(hi)


def median_half_width(values: list[float] | np.ndarray) -> float:
    """Approximate 95% half-width of the median of ``values`` from their IQR: cheap enough to
    ask after every slice (the reported interval is the bootstrap's)."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return math.inf
    q1, q3 = np.percentile(x, [25, 75])
    return float(MEDIAN_CI_IQR * (q3 - q1) / math.sqrt(len(x)))


def fast_mode_confirmed(slices: list[float], needed: int, precision: float | None = None) -> bool:
    """One process's fast mode is confirmed: ``needed`` slices in it (within
    FAST_MODE_WIDTH of its fastest slice), and, with a precision target, its headline's
    approximate 95% half-width (from the fast edge's slices) at most ``precision`` of it."""
    if not slices:
        return False
    fast = fast_mode(np.asarray(slices, dtype=float))
    if len(fast) < needed:
        return False
    if precision is None:
        return True
    edge = fast_edge(np.asarray(slices, dtype=float))
    return median_half_width(edge) <= precision * float(np.median(edge))


def is_slow(values: list[float] | np.ndarray) -> np.ndarray:
    """Which slices lie outside the fast mode (more than FAST_MODE_WIDTH above the fastest)."""
    return ~_near_fastest(np.asarray(values, dtype=float), FAST_MODE_WIDTH)


def agreeing(per_process: list[np.ndarray]) -> int:
    """How many processes confirm the fastest, given each one's slice medians: the slices
    within FAST_EDGE of the fastest slice of all are the fast edge; a process is
    told apart from the fastest only when it holds so few of them that its share of the
    slices would give that few with probability under DISAGREEMENT_P (binomial). Two
    processes of the same code measured side by side on a noisy machine differ by 5% in
    any single estimator (the minimum included); a fixed 10% line between their figures
    called one in three of them apart, where this test calls about one in a hundred."""
    line = (1 + FAST_EDGE) * min(float(x.min()) for x in per_process)
    edge = [int((x <= line).sum()) for x in per_process]
    slices, fast = sum(len(x) for x in per_process), sum(edge)
    return sum(
        bool(special.bdtr(k, fast, len(x) / slices) >= DISAGREEMENT_P)
        for x, k in zip(per_process, edge, strict=True)
    )


def confirmed(t: dict[str, Any]) -> bool:
    """Did this process confirm its fast mode? Runs before sequential sampling did not ask:
    their processes count as confirmed, as they were judged then."""
    return bool(t.get("confirmed", True))


def unsettled(timings: list[dict[str, Any]]) -> bool:
    """No second process confirms the fastest (processes disagree, or too few confirmed):
    Estimate.settled without the rest of the estimate, which the orchestrator asks of every
    cell to choose which get a tie-break process."""
    timings = [t for t in timings if t and t.get("wall_ns")]
    if len(timings) == 1:
        return not confirmed(timings[0])
    return agreeing([slice_medians(t) for t in timings]) < 2 or not any(
        confirmed(t) for t in timings
    )


def estimate(timings: list[dict[str, Any]], messages: int = 1) -> Estimate | None:
    """Estimate one operation from its samples, one timing dict per process."""
    timings = [t for t in timings if t and t.get("wall_ns")]
    if not timings:
        return None
    per_process = [slice_medians(t) for t in timings]
    pooled = np.concatenate(per_process)
    fast = fast_mode(pooled)
    head = headline(pooled)
    lo, hi = hierarchical_ci(per_process)
    lo, hi = min(lo, head), max(hi, head)
    samples = np.sort(np.concatenate([_per_op(t, "wall_ns") for t in timings]))  # type: ignore[misc]
    heads = [headline(x) for x in per_process]  # each process's figure
    cpu = [_per_op(t, "cpu_ns") for t in timings]
    cpu_head = None
    if all(c is not None for c in cpu):
        cpu_head = headline(np.concatenate([slice_medians(t, "cpu_ns") for t in timings]))
    q1, q3 = np.percentile(fast, [25, 75])
    alloc = [_per_op(t, "alloc_bytes") for t in timings]
    count = [_per_op(t, "alloc_count") for t in timings]
    gcs = [_per_op(t, "gc_count") for t in timings]

    def pooled_median(parts: list[np.ndarray | None]) -> float | None:
        if any(x is None for x in parts):
            return None
        return float(np.median(np.concatenate(parts)))  # type: ignore[arg-type]

    peaks = [t.get("peak_alloc_bytes") for t in timings if t.get("peak_alloc_bytes") is not None]
    warm = [t.get("warmup") or {} for t in timings]
    gc_mean = None
    if all(g is not None for g in gcs):
        gc_mean = float(np.mean(np.concatenate(gcs)))  # type: ignore[arg-type]
    return Estimate(
        n=len(samples),
        slices=len(pooled),
        processes=len(timings),
        headline_ns=head,
        ci_low_ns=lo,
        ci_high_ns=hi,
        min_ns=float(samples[0]),
        p10_ns=float(np.percentile(samples, 10)),
        median_ns=float(np.median(samples)),
        mean_ns=float(np.mean(samples)),
        sample_fast_ns=float(np.median(fast_mode(samples))),
        slice_median_ns=float(np.median(pooled)),
        process_median_ns=float(np.median(heads)),
        cpu_headline_ns=cpu_head,
        slow_fraction=1 - len(fast) / len(pooled),
        fast_spread=float((q3 - q1) / head) if head else math.nan,
        process_spread=(max(heads) - min(heads)) / (max(heads) + min(heads)),
        process_min_ns=min(heads),
        process_max_ns=max(heads),
        processes_agreeing=agreeing(per_process),
        processes_confirmed=sum(confirmed(t) for t in timings),
        per_message_ns=head / max(messages, 1),
        alloc_bytes=pooled_median(alloc),
        alloc_count=pooled_median(count),
        peak_alloc_bytes=max(peaks) if peaks else None,
        gc_per_op=gc_mean,
        steady=False
        if any(w.get("steady") is False for w in warm)
        else (True if all(w.get("steady") for w in warm) else None),
        warmup_slices=max((w.get("slices", w.get("samples", 0)) for w in warm), default=0),
        iterations=int(timings[0]["iterations"]),
        process_log_var=float(np.var(np.log(heads), ddof=1)) if len(heads) > 1 else None,
    )


@dataclass(frozen=True)
class Prior:
    """What a runner's cells in one run say about the variance of the log figure between
    its fresh processes: Smyth's scaled inverse chi-square prior, ``df`` = d0 (inf: every
    cell shares ``var``)."""

    df: float
    var: float


def fit_prior(variances: list[float], dfs: list[int]) -> Prior | None:
    """d0 and s0^2 fitted by moments of log s^2 (Smyth 2004, section 6.2); None when too
    few cells have a positive variance to fit them."""
    from scipy.optimize import brentq  # a third of a second of import, for reports only

    s2, d = np.asarray(variances, float), np.asarray(dfs, float)
    keep = s2 > 0
    if keep.sum() < MIN_CELLS_FOR_PRIOR:
        return None
    s2, d = s2[keep], d[keep]
    e = np.log(s2) - special.digamma(d / 2) + np.log(d / 2)
    excess = float(np.var(e, ddof=1) - np.mean(special.polygamma(1, d / 2)))
    if excess <= special.polygamma(1, 1e8):  # no more spread than sampling: one variance
        return Prior(math.inf, math.exp(float(np.mean(e))))
    half = brentq(lambda y: special.polygamma(1, y) - excess, 1e-8, 1e8)
    d0 = 2 * half
    return Prior(d0, math.exp(float(np.mean(e)) + special.digamma(half) - math.log(half)))


def moderated_process_var(e: Estimate, prior: Prior | None) -> tuple[float, float] | None:
    """The variance of the log headline that fresh processes give, and its degrees of
    freedom: the cell's own variance between its processes over their number, moderated
    towards the runner's prior (Smyth's empirical Bayes). None for a one-process cell."""
    if e.processes < 2 or e.process_log_var is None:
        return None
    own = e.processes - 1
    if prior is None:
        return e.process_log_var / e.processes, float(own)
    if math.isinf(prior.df):
        return prior.var / e.processes, math.inf
    s2 = (prior.df * prior.var + own * e.process_log_var) / (prior.df + own)
    return s2 / e.processes, prior.df + own


def process_interval(e: Estimate, prior: Prior | None) -> Estimate:
    """``e`` with its 95% interval widened to at least the headline times exp(± t s), s the
    moderated SD between fresh processes (``moderated_process_var``). The bootstrap over
    two or three processes sees one or two of them: cells of a JIT whose processes happened
    to agree got intervals that the next run's headline missed in 4 of 10 pairs
    (docs/method.md, "intervals that know the runner's processes"). Without a prior (too
    few cells of the runner) the bootstrap's interval stands: a t with one or two degrees
    of freedom would say nothing."""
    spread = moderated_process_var(e, prior)
    if prior is None or spread is None or e.headline_ns <= 0:
        return e
    var, df = spread
    t = float(special.stdtrit(df, 0.975)) if math.isfinite(df) else Z95
    half = t * math.sqrt(var)
    low = min(e.ci_low_ns, e.headline_ns * math.exp(-half))
    high = max(e.ci_high_ns, e.headline_ns * math.exp(half))
    return replace(e, ci_low_ns=low, ci_high_ns=high)


def ratio_ci(a: Estimate, b: Estimate) -> tuple[float, float, float]:
    """a/b with a conservative interval from the two headline intervals."""
    return (a.headline_ns / b.headline_ns, a.ci_low_ns / b.ci_high_ns, a.ci_high_ns / b.ci_low_ns)


def block_stretch(
    blocks: list[dict[tuple[str, str], float]],
) -> list[float | None]:
    """How much slower each block ran than the run's fastest, from the reference cell's
    headline per (runner, operation) in each block (schedule.Block.reference_times): per
    block the median, over the keys that at least one other block read too, of its time over
    the fastest block's; None where no such key was read. The same work in every block, so
    a whole block measured in a slow stretch of the machine reads above 1 on every runner,
    where one runner's process that compiled its reference cell differently moves one key."""
    seen: dict[tuple[str, str], list[float]] = {}
    for reading in blocks:
        for key, ns in reading.items():
            seen.setdefault(key, []).append(ns)
    fastest = {k: min(v) for k, v in seen.items() if len(v) >= 2}
    out: list[float | None] = []
    for reading in blocks:
        ratios = [ns / fastest[k] for k, ns in reading.items() if k in fastest and fastest[k] > 0]
        out.append(float(np.median(ratios)) if ratios else None)
    return out
