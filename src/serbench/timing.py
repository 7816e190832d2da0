"""Timing parameters, defined once: the orchestrator sends runners only `sample` commands built
from these (docs/method.md says why each value is what it is)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Timing:
    min_sample_ns: int  # one sample (a batch of iterations) lasts at least this long
    slice_samples: int  # samples per slice: one `sample` command, consecutive in time
    slices: int  # measured slices per operation per process, spread over the block
    min_slices: int  # ... at least this many even when the budget is spent
    max_measure_ns: int  # measuring budget per operation per process (slow operations)
    processes: int  # fresh runner processes per cell: one per round
    warmup_window: int  # slices per window of the steady-state test
    warmup_tolerance: float  # a window whose best is this much below the window before: not steady
    warmup_max_ns: int  # warm-up budget per operation per process; past it: not-steady
    jit_warmup_min_ns: int  # runtimes that compile at run time warm up at least this long
    peak_alloc: bool  # ask for one operation's peak heap growth (process 0 only)
    peak_alloc_max_ns: int  # ... unless one operation takes longer than this
    block_bytes: int  # a runner process holds at most about this many bytes of cells at once
    # after the rounds, up to this many more fresh processes for each runner and dataset
    # where a cell's processes disagree (stats.processes_disagree): one that confirms the
    # fastest gives the cell a figure back
    tiebreak_processes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Timing:
        return cls(**{k: raw[k] for k in cls.__dataclass_fields__ if k in raw})

    def with_processes(self, processes: int) -> Timing:
        return replace(self, processes=max(1, processes))


QUICK = Timing(
    min_sample_ns=1_000_000,
    slice_samples=3,
    slices=5,
    min_slices=2,
    max_measure_ns=50_000_000,
    processes=2,
    warmup_window=3,
    warmup_tolerance=0.03,
    warmup_max_ns=1_000_000_000,
    jit_warmup_min_ns=250_000_000,
    peak_alloc=False,
    peak_alloc_max_ns=0,
    block_bytes=2 << 30,
    tiebreak_processes=1,
)
STANDARD = Timing(
    min_sample_ns=1_000_000,
    slice_samples=3,
    slices=10,
    min_slices=4,
    max_measure_ns=250_000_000,
    processes=3,
    warmup_window=3,
    warmup_tolerance=0.03,
    warmup_max_ns=1_500_000_000,
    jit_warmup_min_ns=250_000_000,
    peak_alloc=True,
    peak_alloc_max_ns=300_000_000,
    block_bytes=2 << 30,
    tiebreak_processes=1,
)
PROFILES = {"quick": QUICK, "standard": STANDARD, "full": STANDARD}


def one_slice(sample_ns: int, samples: int, warmup_max_ns: int | None = None) -> Timing:
    """The standard profile cut to one process and one slice of `samples` samples of at
    least `sample_ns`: what the runners' accuracy scripts (bench/compare.py) time beside
    a native harness, so that both tools deliver the same number of raw values."""
    return replace(
        STANDARD,
        processes=1,
        tiebreak_processes=0,
        peak_alloc=False,
        min_sample_ns=sample_ns,
        slice_samples=samples,
        slices=1,
        min_slices=1,
        warmup_max_ns=STANDARD.warmup_max_ns if warmup_max_ns is None else warmup_max_ns,
    )
