"""How noisy is this machine right now? A fixed workload timed in short samples for a while
(fast and slow phases, how long they last), each runtime's cost of one timed sample, and
the precision a standard run can expect here, replayed from the same series."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from serbench import datasets, paths, runners
from serbench.client import CommandError, Dataset, RunnerClient, prepare_request
from serbench.runners import RunnerSpec, RunnerUnavailable
from serbench.schedule import SlowShare
from serbench.session import RunnerSession, SessionFault
from serbench.stats import fast_mode, fast_mode_confirmed, headline, is_slow
from serbench.timing import (
    NOISE_PROBE_S,
    NOISE_SAMPLE_NS,
    NOISE_SESSION_TIMEOUT_S,
    SAMPLE_COST_COMMANDS,
    SAMPLE_COST_SAMPLES,
    STANDARD,
)

PROBE_RUNNER = "python"  # the runner every machine has (serbench runs on Python)
PROBE = ("msgpack", "android-users", "encode")  # a real serializer it has


# a probe whose fast phase is this much slower than the fastest on record for the machine
# ran in a slow stretch: the machine's slow phase is about 2x (measurement-notes), and an
# ordinary probe's fast phase lands within a few % of the record
SLOW_STRETCH = 1.5
RECORD_FILE = "noise-record.json"  # in the state directory, per machine class
RECENT_PROBES_S = 3600.0  # a run starts from the highest slow share of this long's probes


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


def _quick(name: str) -> Dataset:
    """A built-in dataset at the quick scale, as the protocol hands it to a runner."""
    ds = datasets.get(name).build("quick")  # type: ignore[arg-type]
    return Dataset(name=name, kind="builtin", data=str(ds.path()))


def _series(runner: RunnerClient, seconds: float) -> tuple[np.ndarray, np.ndarray]:
    serializer, dataset, op = PROBE
    runner.prepare(prepare_request("p", serializer, _quick(dataset), [op]))
    n = 1
    while runner.sample("p", op, n, 1)["wall_ns"][0] < NOISE_SAMPLE_NS:
        n *= 2
    at, per_op = [], []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        got = runner.sample("p", op, n, 1)
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
    then the pooled headline; ±half range of the middle 95%."""
    t = STANDARD
    share = float(is_slow(per_op).mean())
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
        heads.append(headline(pooled))
    lo, hi = np.percentile(heads, [2.5, 97.5])
    return float((hi - lo) / (hi + lo))


def sample_cost(spec: RunnerSpec) -> float | None:
    """Best time of one `sample` of one noop encode: the clock reads and the loop."""
    try:
        with RunnerSession(spec, NOISE_SESSION_TIMEOUT_S) as session:
            runner = RunnerClient(session)
            request = prepare_request("n", "noop", _quick("android-users"), ["encode"])
            if runner.prepare(request)["status"] != "ok":
                return None
            return float(
                min(
                    min(runner.sample("n", "encode", 1, SAMPLE_COST_SAMPLES)["wall_ns"])
                    for _ in range(SAMPLE_COST_COMMANDS)
                )
            )
    except (SessionFault, CommandError, OSError):
        return None


class ProbeFailed(RuntimeError):
    """The probe runner could not time its operation (not built, or it failed)."""


def measure(seconds: float = NOISE_PROBE_S, cost_of: list[str] | None = None) -> Noise:
    specs = runners.discover()
    try:
        with RunnerSession(specs[PROBE_RUNNER], NOISE_SESSION_TIMEOUT_S) as session:
            at, per_op = _series(RunnerClient(session), seconds)
    except (SessionFault, CommandError, OSError, KeyError) as exc:
        raise ProbeFailed(
            f"runner {PROBE_RUNNER} could not time {'/'.join(PROBE)} ({exc}); "
            f"is it built? `serbench build -r {PROBE_RUNNER}`"
        ) from exc
    fast = fast_mode(per_op)
    slow_mask = is_slow(per_op)
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


def against_record(machine_class: str, reading: Noise, now: float | None = None) -> dict[str, Any]:
    """This probe beside this machine class's earlier ones, kept in the state directory
    (which then keeps this one too): the fastest fast phase any of them saw, since a probe
    that ran wholly in a slow stretch sees one phase and takes it for the fast one, and the
    highest slow share among the last RECENT_PROBES_S seconds' probes, since a 2 s probe on a
    machine whose share swings from 30% to 99% within minutes may catch a calm moment.
    Fields for the run's noise record."""
    now = time.time() if now is None else now
    path = paths.state_dir() / RECORD_FILE
    record: dict[str, Any] = {}
    before: float | None = None
    recent: list[tuple[float, float]] = []
    try:
        loaded = json.loads(path.read_text())
        record = loaded if isinstance(loaded, dict) else {}
        mine = record.get(machine_class) or {}
        before = float(mine["fast_ns"])
        recent = [(float(t), float(x)) for t, x in mine["probes"] if now - t <= RECENT_PROBES_S]
    except (OSError, ValueError, TypeError, KeyError):  # none yet, or unreadable: start it
        pass
    record[machine_class] = {
        "fast_ns": min(reading.fast_ns, before or reading.fast_ns),
        "probes": [*recent, (now, reading.slow_share)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return {
        "fast_ns_on_record": before,
        "slow_stretch": bool(before and reading.fast_ns >= SLOW_STRETCH * before),
        "recent_slow_share": max([x for _, x in recent], default=None),
    }


def prior_share(reading: dict[str, Any]) -> float | None:
    """The slow share a run starts from (schedule.SlowShare): the probe's or the highest of
    the machine's last hour's probes, whichever is higher (a run's own slices raise the
    share only when an operation shows both phases, and a process that met one phase only
    would take it for the fast mode in a few slices); the most the schedule assumes when the
    probe ran in a slow stretch, with no fast phase to tell the slow one from."""
    if reading.get("slow_stretch"):
        return SlowShare.MOST
    shares = [
        x for x in (reading.get("slow_share"), reading.get("recent_slow_share")) if x is not None
    ]
    return float(max(shares)) if shares else None
