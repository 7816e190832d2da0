"""Timing parameters, defined once: the profiles the orchestrator builds its `sample`
commands from (docs/method.md says why each value is what it is), and every timeout, probe
length and time reserve of the orchestrator's other commands."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final, Literal

# How a runtime compiles code while it runs (runner.json "jit"):
# - "tiered": interpreted or baseline code first, an optimising tier later, by counts and in
#   background threads (HotSpot, V8): warm-up waits for the counts and the compile signal;
# - "once": every method compiled once, on first call, never again (Mono without tiering):
#   the first slices are already the final code;
# - None: ahead of time or an interpreter (C++, Rust, Go, CPython).
JitKind = Literal["tiered", "once"] | None


@dataclass(frozen=True)
class Timing:
    min_sample_ns: int  # one sample (a batch of iterations) lasts at least this long
    slice_samples: int  # samples per slice: one `sample` command, consecutive in time
    # sequential sampling: a process measures an operation until its fast mode is confirmed
    # (confirm_slices slices within stats.FAST_MODE_WIDTH of its fastest one) and, with a
    # precision target, until its headline's interval is that tight; never fewer than
    # min_slices, never more than max_slices or max_measure_ns (past min_slices)
    # A process's slices must also be enough that all of them missing the fast phase is
    # unlikely: with the machine's slow share s (learnt from the run's own slices), at least
    # log(miss_probability) / log(s) slices
    min_slices: int
    max_slices: int
    confirm_slices: int
    miss_probability: float
    max_measure_ns: int  # measuring budget per operation per process (slow operations)
    processes: int  # fresh runner processes per cell: one per round
    warmup_window: int  # warm-up slices per window of the steady-state test (tiered JITs)
    final_code_window: int  # ... where the code is final from the first call (no tiered JIT)
    warmup_slice_samples: int  # samples per warm-up slice (a measured slice may have fewer)
    warmup_tolerance: float  # a window whose best is this much below the window before: not steady
    warmup_max_ns: int  # warm-up budget per operation per process; past it: not-steady
    # tiered JITs: at least this many operations x messages before the test may pass (their
    # optimising tier counts invocations), or at least jit_warmup_min_ns when the count takes
    # longer (large operations, whose inner loops are compiled on their own counts); the
    # runtime's own compile signal (`compile_ns`) holds the test beyond it. 0.1 s made quick
    # JVM runs bimodal (docs/method.md, "the JIT minimum on the runtimes' queues")
    jit_min_invocations: int
    jit_warmup_min_ns: int
    peak_alloc: bool  # ask for one operation's peak heap growth (process 0 only)
    peak_alloc_max_ns: int  # ... unless one operation takes longer than this
    block_bytes: int  # a runner's processes hold at most about this many bytes of cells at once
    # after the rounds, up to this many more fresh processes for each runner and dataset
    # where a cell's confirmed processes disagree (stats.processes_disagree): one that
    # confirms the fastest gives the cell a figure back
    tiebreak_processes: int = 0
    precision: float | None = None  # optional target: 95% half-width / headline
    # a slice of one sample is timed warm: a process that waited for its turn finds its
    # caches cold, and such a slice has no later sample that shows the warm time. A batch
    # follows one operation its command runs untimed (`untimed`); a sample of a single
    # operation is the second of its command, the first dropped, while the two still fit
    # min_slices into max_measure_ns
    # (longer ones are timed as they come). docs/method.md: "the first sample of a slice",
    # "single operations timed second in their command"
    rewarm: bool = False
    # the next block is prepared and warmed up, one runner process at a time, while this one
    # takes its slices (one at a time, leaving a core idle) when both fit in memory at once
    # (docs/method.md, "the next block warms up while this one measures")
    warm_ahead: bool = False
    # an operation none of whose processes in the block has reached its fast mode when its
    # max_measure_ns runs out measures on, up to this many budgets, until one of them does:
    # measuring on costs slices, where a tie-break process costs a start, a warm-up and its
    # neighbours' slices too (docs/method.md, "measuring on where no process confirmed")
    unconfirmed_budgets: int = 1
    # every block of the rounds also times the reference cell (REFERENCE_CELL) in each of its
    # runner processes; a block whose reference cells ran STRETCH_FACTOR times slower than in
    # the run's fastest block was measured in a slow stretch of the machine and is measured
    # again (docs/method.md, "a block inside a slow stretch is measured again")
    stretch_check: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Timing:
        known = {k: raw[k] for k in cls.__dataclass_fields__ if k in raw}
        return replace(PROFILES["standard"], **known)

    def with_processes(self, processes: int) -> Timing:
        return replace(self, processes=max(1, processes))


QUICK = Timing(
    min_sample_ns=1_000_000,
    slice_samples=1,
    min_slices=3,
    max_slices=60,
    confirm_slices=5,
    miss_probability=0.02,
    max_measure_ns=120_000_000,
    processes=2,
    warmup_window=3,
    final_code_window=2,
    warmup_slice_samples=3,
    warmup_tolerance=0.03,
    warmup_max_ns=1_000_000_000,
    jit_min_invocations=20_000,
    jit_warmup_min_ns=250_000_000,
    peak_alloc=False,
    peak_alloc_max_ns=0,
    block_bytes=2 << 30,
    tiebreak_processes=1,
    rewarm=True,
    warm_ahead=True,
    unconfirmed_budgets=3,
    stretch_check=True,
)
STANDARD = Timing(
    min_sample_ns=1_000_000,
    slice_samples=3,
    min_slices=8,
    max_slices=120,
    confirm_slices=8,
    miss_probability=0.01,
    max_measure_ns=300_000_000,
    processes=3,
    warmup_window=3,
    final_code_window=2,
    warmup_slice_samples=3,
    warmup_tolerance=0.03,
    warmup_max_ns=1_500_000_000,
    jit_min_invocations=20_000,
    jit_warmup_min_ns=250_000_000,
    peak_alloc=True,
    peak_alloc_max_ns=300_000_000,
    block_bytes=2 << 30,
    tiebreak_processes=1,
    rewarm=True,
    warm_ahead=True,
    stretch_check=True,
)
PROFILES = {"quick": QUICK, "standard": STANDARD, "full": STANDARD}


def one_slice(sample_ns: int, samples: int, warmup_max_ns: int | None = None) -> Timing:
    """The standard profile cut to one process and one slice of `samples` samples of at
    least `sample_ns`: what `serbench calibrate` times beside
    a native harness, so that both tools deliver the same number of raw values."""
    return replace(
        STANDARD,
        processes=1,
        tiebreak_processes=0,
        warm_ahead=False,
        stretch_check=False,
        peak_alloc=False,
        min_sample_ns=sample_ns,
        slice_samples=samples,
        min_slices=1,
        max_slices=1,
        confirm_slices=1,
        rewarm=False,
        warmup_max_ns=STANDARD.warmup_max_ns if warmup_max_ns is None else warmup_max_ns,
    )


# --- the schedule (schedule.Block) ---------------------------------------------------------
# a sample over this many min_sample_ns: the operation is long, and a slice is one sample
LONG_SAMPLE: Final = 10
# fast-mode slices that confirm a long operation whose measuring budget ran out
LONG_CONFIRM: Final = 2
# warm-up window of a long operation whose code is final from the first call: calibration
# has run it whole, so one slice against the next shows what caches and the allocator
# still change (windows of final_code_window long slices were about 40% of Mono's and
# GNUstep's timed work in the quick suite)
LONG_FINAL_WINDOW: Final = 1
# a first measured sample under this share of min_sample_ns: the batch grows before it counts
RECALIBRATE: Final = 0.75
# calibration aims this far past min_sample_ns (the next sample may run faster) ...
CALIBRATION_OVERSHOOT: Final = 1.2
# ... growing the batch at most this many times per probe (a first call can be slow)
CALIBRATION_MAX_STEP: Final = 16
# a batch never exceeds this many iterations (an operation the runtime optimised away)
MAX_ITERATIONS: Final = 1 << 30
# a tiered JIT's compile backlog from the cells before is waited for up to this many
# jit_warmup_min_ns of warm-up, then taken for the cell's own steady code
COMPILE_BACKLOG: Final = 3

# --- a run (orchestrate) -------------------------------------------------------------------
# seconds one runner command may take before its process is killed: a full-scale cell's
# check and its slowest batch fit in the standard value, a quick cell's in the quick one
CELL_TIMEOUT_S: Final[dict[str, float]] = {"quick": 120.0, "standard": 600.0, "full": 600.0}
# a runner process holds about this many times a cell's canonical size per cell (messages,
# encoded bytes, the decoded copy, the runtime's slack) unless its runner.json says
# "held_per_cell": measured 6-11x on standard S5 (log-records, 7.7 MB canonical, seven
# cells prepared: Go 5.8x, Rust 7.9x, C++ 8.1x, .NET 9.0x, Node.js 9.4x, Python 11x);
# Java (its heap grows while measuring) and GNUstep's objects take far more
HELD_PER_CELL: Final = 8
# a block's processes together hold at most this share of the memory available when the
# run is planned (every runner's processes are side by side: 24 at standard on S5 filled
# 22 of 24 GB, and one was killed)
MEMORY_SHARE: Final = 0.5
# a block getting ready ahead is reckoned at most this share of what is available while the
# block before it measures, that block's processes already grown: the reckoning is an upper
# bound (S2 Test3 reckoned 11.7 GB, both S2 blocks held 3.8 GB), and at half neither S2
# Test3 nor Test4 ever got ready ahead on 24 GB (docs/method.md, "S2 Test3 and Test4 ahead")
AHEAD_MEMORY_SHARE: Final = 0.75
# the reference cell (serializer, dataset) every block of the rounds times in each runner
# process: the same work in every block, a few nanoseconds to a microsecond, on a dataset
# every runner takes; its times from block to block read how fast the machine was
REFERENCE_CELL: Final = ("noop", "android-users")
# a block whose reference cells ran this many times slower (median over runners and
# operations) than in the run's fastest block is measured again: its figures would sit
# outside the +-10% that a re-run is asked to agree within; ordinary blocks read 1.00-1.06
# (35 on 2026-11-29), blocks in a stretch 1.57 and 1.64 (docs/method.md)
STRETCH_FACTOR: Final = 1.15
# share of a --budget kept while the rounds run for what may follow them: a block measured
# again after a slow stretch, and its dataset's tie-break decided again
AFTER_ROUNDS_RESERVE: Final = 0.15
# --precision may take this many times the profile's slices and measuring time
PRECISION_CAP: Final = 4
# seconds of the noise probe at the start of a run (its slow share seeds schedule.SlowShare)
RUN_NOISE_PROBE_S: Final = 2.0

# --- `serbench calibrate` (calibrate): serbench beside a runner's native harness ----------------
# rounds of the two tools, alternating which goes first: a round gives each tool about 0.1 s,
# one or two of the machine's phases; pooled over 16 the headline's ratio stayed within ±2%
# where 4 left one run in six at 9% (docs/method.md, "serbench against the native harnesses")
CALIBRATE_ROUNDS: Final = 16
CALIBRATE_SAMPLES: Final = 10  # samples per tool, cell and round
# serbench's sample length; the native harness aims at it too
CALIBRATE_SAMPLE_NS: Final = 10_000_000
# the least untimed warm-up the native harness runs: as long as serbench's JIT minimum
CALIBRATE_WARMUP_NS: Final = STANDARD.jit_warmup_min_ns

# --- other runner commands -----------------------------------------------------------------
# `describe`: a cold JVM or .NET start that loads every library
DESCRIBE_TIMEOUT_S: Final = 120.0
# `quit`: a runner that has not answered and exited within this is killed
QUIT_TIMEOUT_S: Final = 10.0
# schedule.time_cell's one command (comparison scripts time full-scale cells)
TIME_CELL_TIMEOUT_S: Final = 1800.0
# crosscheck's `prepare` with a dump or a decode_from: a full-scale dataset's check
CROSSCHECK_TIMEOUT_S: Final = 300.0
# `transport`: each side's start and each of its events
TRANSPORT_TIMEOUT_S: Final = 120.0
# ... after the sender failed, how long the receiver may take to say why
TRANSPORT_RECEIVER_GRACE_S: Final = 5.0
# untimed frames before the timed ones, and timed frames by default (the seed timed 5)
TRANSPORT_WARMUP: Final = 2
TRANSPORT_REPETITIONS: Final = 20

# --- `serbench noise` (noise) --------------------------------------------------------------
NOISE_PROBE_S: Final = 15.0  # long enough to see several fast and slow phases
NOISE_SAMPLE_NS: Final = 10_000_000  # one probe sample: as long as a slice's sample
NOISE_SESSION_TIMEOUT_S: Final = 120.0  # a runner's start and its quick dataset's prepare
# the cost of one `sample`: the best of this many commands of this many samples of a noop
SAMPLE_COST_COMMANDS: Final = 20
SAMPLE_COST_SAMPLES: Final = 50

# --- --measure instructions (instructions) --------------------------------------------------
VALGRIND_SLOWDOWN: Final = 5  # a command may take this many cell timeouts under callgrind
VGDB_WAIT_S: Final = 30  # vgdb waits this long for callgrind to answer a monitor command
VGDB_TIMEOUT_S: Final = 60.0  # ... and is killed past this
# vgdb forces callgrind's gdbserver in (ptrace) after this many ms when every thread of the
# runner sits in a system call, as it does between commands (reading the next one): vgdb's
# default of 100 ms made a monitor command 0.24-0.27 s, 1 ms makes it 0.11 s
VGDB_MAX_INVOKE_MS: Final = 1

# --- untrusted bytes (untrusted) -----------------------------------------------------------
# a decoder's start: a cold interpreter or VM importing every library on a loaded machine
UNTRUSTED_START_TIMEOUT_S: Final = 120.0
# "slow": a hostile input's decode past this multiple of the valid input's decode time ...
UNTRUSTED_SLOW_FACTOR: Final = 50
UNTRUSTED_SLOW_FLOOR_NS: Final = 20_000_000  # ... and past this absolute time (a loaded machine)

# --- a team's cluster on Ray (cluster) -----------------------------------------------------
CLUSTER_WAIT_S: Final = 5.0  # how often the head looks for new nodes while blocks run
CLUSTER_START_TIMEOUT_S: Final = 90.0  # local nodes of `serbench cluster` joining the head
CLUSTER_CONNECT_MARGIN_S: Final = 60.0  # ... plus the waiting script's own Ray import and connect
CLUSTER_STOP_GRACE_S: Final = 10.0  # SIGTERM, then SIGKILL after this
CLUSTER_POLL_S: Final = 0.2  # how often a stopping node's processes are looked at

# --- the environment record (environment) -------------------------------------------------
GIT_TIMEOUT_S: Final = 10.0  # a git query for the commit and the dirty flag
