"""How noisy is this machine right now? A fixed workload timed in short samples for a while
(fast and slow phases, how long they last), each runtime's cost of one timed sample, and
the precision a standard run can expect here, replayed from the same series."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from serbench import datasets, runners
from serbench.runners import RunnerSpec, RunnerUnavailable
from serbench.schedule import SlowShare
from serbench.session import RunnerSession, SessionFault
from serbench.stats import FAST_MODE_WIDTH, fast_mode, fast_mode_confirmed
from serbench.timing import STANDARD

PROBE = ("msgpack", "android-users", "encode")  # a real serializer every machine has
SAMPLE_NS = 10_000_000


@dataclass
class Noise:
    seconds: float
    samples: int
    fast_ns: float  # centre of the fast phase, per operation
    slow_ns: float | None  # centre of the samples outside it
    slow_share: float  # share of samples outside the fast phase
    switches_per_minute: float
    phase_seconds_median: float | None  # how long one phase lasts
    phase_seconds_max: float | None
    expected_spread: float  # ± headline spread of a standard run, replayed from the series
    sample_cost_ns: dict[str, float] = field(default_factory=dict)  # per runner

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _series(session: RunnerSession, seconds: float) -> tuple[np.ndarray, np.ndarray]:
    serializer, dataset, op = PROBE
    ds = datasets.get(dataset).build("quick")  # type: ignore[arg-type]
    data = {"name": dataset, "kind": "builtin", "data": str(ds.path())}
    command = {"cmd": "prepare", "cell": "p", "serializer": serializer, "dataset": data}
    session.call({**command, "operations": [op], "dump_path": None, "decode_from": None})
    probe = {"cmd": "sample", "cell": "p", "operation": op, "iterations": 1, "samples": 1}
    n = 1
    while session.call({**probe, "iterations": n})["wall_ns"][0] < SAMPLE_NS:
        n *= 2
    at, per_op = [], []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        got = session.call({**probe, "iterations": n})
        at.append(time.monotonic() - start)
        per_op.append(got["wall_ns"][0] / n)
    return np.asarray(at), np.asarray(per_op)


def _phases(at: np.ndarray, slow: np.ndarray) -> list[float]:
    """Durations of the runs of equal phase, in seconds."""
    edges = np.flatnonzero(np.diff(slow.astype(int))) + 1
    bounds = [0, *edges.tolist(), len(slow)]
    step = float(np.median(np.diff(at))) if len(at) > 1 else 0.0
    ends = np.append(at, at[-1] + step)  # a phase lasts until the next one starts
    return [float(ends[b] - ends[a]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def replayed_spread(per_op: np.ndarray, rng: np.random.Generator, runs: int = 200) -> float:
    """The headline spread of a standard run if its slices fell at random times of this
    series: each process draws slices as the scheduler does (until its fast mode is
    confirmed and the slices are enough for this series' slow share, at most max_slices),
    then the pooled fast-mode median; ±half range of the middle 95%."""
    t = STANDARD
    share = float((per_op > per_op.min() * (1 + FAST_MODE_WIDTH)).mean())
    needed = max(t.min_slices, SlowShare(prior=share).slices_needed(t.miss_probability))
    heads = []
    for _ in range(runs):
        pooled: list[float] = []
        for _ in range(t.processes):
            drawn: list[float] = []
            while len(drawn) < t.max_slices:
                drawn.append(float(per_op[rng.integers(0, len(per_op))]))
                confirmed = fast_mode_confirmed(drawn, t.confirm_slices)
                if len(drawn) >= needed and confirmed:
                    break
            pooled += drawn
        heads.append(float(np.median(fast_mode(np.asarray(pooled)))))
    lo, hi = np.percentile(heads, [2.5, 97.5])
    return float((hi - lo) / (hi + lo))


def sample_cost(spec: RunnerSpec) -> float | None:
    """Best time of one `sample` of one noop encode: the clock reads and the loop."""
    try:
        with RunnerSession(spec, 120) as session:
            ds = datasets.get("android-users").build("quick")  # type: ignore[arg-type]
            data = {"name": "android-users", "kind": "builtin", "data": str(ds.path())}
            prepared = session.call(
                {
                    "cmd": "prepare",
                    "cell": "n",
                    "serializer": "noop",
                    "dataset": data,
                    "operations": ["encode"],
                    "dump_path": None,
                    "decode_from": None,
                }
            )
            if prepared.get("status") != "ok":
                return None
            probe = {"cmd": "sample", "cell": "n", "operation": "encode", "iterations": 1}
            return float(
                min(min(session.call({**probe, "samples": 50})["wall_ns"]) for _ in range(20))
            )
    except (SessionFault, OSError):
        return None


def measure(seconds: float = 15.0, cost_of: list[str] | None = None) -> Noise:
    specs = runners.discover()
    with RunnerSession(runners.PYTHON, 120) as session:
        at, per_op = _series(session, seconds)
    fast = fast_mode(per_op)
    slow_mask = per_op > per_op.min() * (1 + FAST_MODE_WIDTH)
    phases = _phases(at, slow_mask)
    switches = len(phases) - 1
    costs = {}
    for name in cost_of if cost_of is not None else list(specs):
        try:
            runners.describe(specs[name])
        except RunnerUnavailable:
            continue
        cost = sample_cost(specs[name])
        if cost is not None:
            costs[name] = cost
    return Noise(
        seconds=float(at[-1]) if len(at) else 0.0,
        samples=len(per_op),
        fast_ns=float(np.median(fast)),
        slow_ns=float(np.median(per_op[slow_mask])) if slow_mask.any() else None,
        slow_share=float(slow_mask.mean()),
        switches_per_minute=60 * switches / max(float(at[-1]), 1e-9),
        phase_seconds_median=float(np.median(phases)) if switches else None,
        phase_seconds_max=float(max(phases)) if switches else None,
        expected_spread=replayed_spread(per_op, np.random.default_rng(0)),
        sample_cost_ns=costs,
    )
