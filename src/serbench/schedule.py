"""Runs one block of cells: fresh runner processes (one per runner and process index, side by
side); every (cell, operation) calibrated and warmed up in one stretch until the
steady-state test and the runtime's own evidence say its code is final, then measured in
short slices taken in a randomized, interleaved order across all processes' cells, each
operation until its fast mode is confirmed, so that measurement goes where the machine's
phases leave uncertainty, and a cell's processes are measured over the same minutes
(docs/method.md)."""

from __future__ import annotations

import collections
import contextlib
import math
import random
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from serbench import stats
from serbench.client import (
    Check,
    CommandError,
    Dataset,
    Prepared,
    PrepareRequest,
    RunnerClient,
    Samples,
    prepare_request,
)
from serbench.runners import RunnerSpec
from serbench.session import RunnerSession, SessionFault
from serbench.store import CellKey
from serbench.timing import (
    CALIBRATION_MAX_STEP,
    CALIBRATION_OVERSHOOT,
    COMPILE_BACKLOG,
    LONG_CONFIRM,
    LONG_FINAL_WINDOW,
    LONG_SAMPLE,
    MAX_ITERATIONS,
    RECALIBRATE,
    REFERENCE_CELL,
    STANDARD,
    TIME_CELL_TIMEOUT_S,
    Timing,
)

MAX_RESTARTS = 5  # per runner and block; past it the runner's remaining cells fail
Save = Callable[[CellKey, dict[str, Any]], None]
Slot = tuple[str, int]  # (runner, process index): one fresh runner process of a block
SAMPLE_FIELDS = ("wall_ns", "cpu_ns", "alloc_bytes", "alloc_count", "gc_count", "gc_ns")


@dataclass
class SlowShare:
    """The share of slices that fall in the machine's slow phase, learnt from the run's own
    finished operations that felt it (each slice against its operation's fastest), starting
    from the noise probe's reading. It sets how many slices a process needs before its fastest can
    be taken for the fast mode: with share s, n slices all miss the fast phase with
    probability s^n."""

    MOST: ClassVar[float] = 0.98  # the share slices_needed assumes at most
    prior: float = 0.5  # the probe's slow share, or a cautious guess
    prior_weight: int = 50  # the prior counts as this many slices
    slow: int = 0
    total: int = 0

    def add(self, slices: list[float]) -> None:
        """One finished operation's slices. Only operations that showed the slow phase
        count: some workloads barely feel it (and one whose slices all fell in it cannot
        tell, but that takes as many slow draws in a row as the rule makes unlikely)."""
        slow = int(stats.is_slow(slices).sum()) if len(slices) >= 2 else 0
        if slow:
            self.slow += slow
            self.total += len(slices)

    @property
    def share(self) -> float:
        return (self.slow + self.prior * self.prior_weight) / (self.total + self.prior_weight)

    def slices_needed(self, miss_probability: float) -> int:
        s = min(max(self.share, 1e-6), self.MOST)
        return math.ceil(math.log(miss_probability) / math.log(s))


class Lanes:
    """How many of a block's runner processes may work at once while it gets ready: one
    while the block before it measures (its slices are taken one at a time and leave the
    other core idle), any number once that block is done."""

    def __init__(self, one_at_a_time: bool = False) -> None:
        self._cond = threading.Condition()
        self._limited = one_at_a_time
        self._busy = 0

    def widen(self) -> None:
        with self._cond:
            self._limited = False
            self._cond.notify_all()

    @contextlib.contextmanager
    def lane(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._limited or self._busy == 0)
            self._busy += 1
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._cond.notify_all()


@dataclass(frozen=True)
class Cell:
    runner: str
    serializer: str
    dataset: str
    process: int
    # prepared and warmed up beside the block's other cells, then neither measured nor
    # stored: a tiered JIT's tie-break process compiles its unsettled cells with the
    # neighbours they had, whose own figures are settled already
    warm_only: bool = False
    # the run's reference cell (timing.REFERENCE_CELL) added to a block of another dataset:
    # measured, read as the block's pace (Block.reference_times), never stored
    reference: bool = False

    @property
    def id(self) -> str:
        return f"{self.serializer}@{self.dataset}"

    @property
    def stored(self) -> bool:
        """Its results go to the store (a warmed neighbour's and a reference cell's do not)."""
        return not (self.warm_only or self.reference)

    @property
    def serializer_at(self) -> tuple[str, str, str]:
        """The cell whatever the process: runner, serializer, dataset."""
        return (self.runner, self.serializer, self.dataset)

    @property
    def slot(self) -> Slot:
        """The runner process that holds the cell: one per runner and process index."""
        return (self.runner, self.process)

    def key(self, op: str) -> CellKey:
        return CellKey(self.runner, self.serializer, self.dataset, op, self.process)


class Checked:
    """The first `ok` check and sizes of every cell a process of this run prepared. The
    cell's other processes prepare it without checking it again (`verify: false`,
    docs/runner-protocol.md section 4): the round trip and the sizes are the same in every
    process, and a prepare's decode, comparison and compressions are CPU work on the way
    between measuring phases. A runner that ignores the field checks anyway."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str, str], tuple[int, Check, dict[str, int]]] = {}
        self._lock = threading.Lock()  # the block getting ready ahead prepares in threads

    def known(self, cell: Cell) -> bool:
        return cell.serializer_at in self._first

    def accepted(self, cell: Cell, reply: Prepared) -> Prepared:
        """The reply with the earlier process's check and sizes where it skipped them;
        a checked `ok` reply is noted for the cell's later processes."""
        if reply["status"] != "ok":
            return reply
        with self._lock:
            if reply["check"] is not None and reply["sizes"]:
                self._first.setdefault(
                    cell.serializer_at, (cell.process, reply["check"], reply["sizes"])
                )
                return reply
            first = self._first.get(cell.serializer_at)
        if first is None:  # a runner that skipped a check it was asked for
            return reply
        process, check, sizes = first
        encoded = (reply["sizes"] or sizes)["encoded"]
        detail = f"{check['detail']} (checked by process {process})"
        return {
            **reply,
            "check": {"ok": True, "detail": detail},
            "sizes": {**sizes, "encoded": encoded},
        }


def _drop_leading(reply: Samples, lead: int) -> Samples:
    """The reply without its first `lead` samples (operations run only to warm the next)."""
    if not lead:
        return reply
    kept: dict[str, Any] = dict(reply)
    for f in SAMPLE_FIELDS:
        if kept.get(f) is not None:
            kept[f] = list(kept[f])[lead:]
    return cast(Samples, kept)


@dataclass(eq=False)  # one object per operation and process: membership is identity
class OpState:
    """Where one operation of one cell is: calibrate -> warmup -> measure -> done."""

    cell: Cell
    op: str
    common: dict[str, Any]  # check, messages, sizes from `prepared`
    phase: str = "calibrate"
    iterations: int = 1
    long: bool = False  # one operation lasts LONG_SAMPLE samples' worth or more
    warm_best: list[float] = field(default_factory=list)  # best per-iteration time per slice
    warm_compiling: list[bool] = field(default_factory=list)
    warm_ns: int = 0
    warm_ops: int = 0  # operations x messages run in warm-up (tiered JITs count these)
    steady: bool | None = None
    measured_ns: int = 0
    samples: dict[str, list[int] | None] = field(
        default_factory=lambda: {f: [] for f in SAMPLE_FIELDS}
    )
    slice_sizes: list[int] = field(default_factory=list)
    slice_at_ns: list[int] = field(default_factory=list)
    slice_best: list[float] = field(default_factory=list)  # each measured slice's median per op
    confirmed: bool = False  # the fast mode reached confirm_slices slices (and the precision)
    compile_ns: int | None = None

    def restart(self) -> None:
        """A new process: warm up again, keep what was measured."""
        if self.phase == "measure":
            self.phase, self.steady = "warmup", None
        self.warm_best, self.warm_compiling, self.warm_ns, self.warm_ops = [], [], 0, 0


class _Interrupted(Exception):
    """A fault or an error reply met while warming up in a runner's own thread: the block's
    main thread records it (faults and failures are handled one at a time, in order)."""

    def __init__(self, st: OpState, cause: SessionFault | CommandError) -> None:
        super().__init__(str(cause))
        self.st, self.cause = st, cause


class Block:
    def __init__(
        self,
        cells: list[Cell],
        operations: list[str],
        specs: dict[str, RunnerSpec],
        datasets: dict[str, Dataset],
        timing: Timing,
        cell_timeout: float,
        save: Save,
        progress: Callable[[str, int], None],
        rng: random.Random,
        clock_zero: int,
        slow_share: SlowShare | None = None,
        deadline_ns: int | None = None,
        checked: Checked | None = None,
    ) -> None:
        self.cells, self.operations, self.specs = cells, operations, specs
        self.checked = checked or Checked()  # the run's: cells an earlier process checked
        self.datasets, self.timing, self.cell_timeout = datasets, timing, cell_timeout
        self.save, self.progress, self.rng, self.clock_zero = save, progress, rng, clock_zero
        self.slow_share = slow_share or SlowShare()
        self.deadline_ns = deadline_ns  # --budget: past it, operations stop at min_slices
        self.sessions: dict[Slot, RunnerSession] = {}
        self.clients: dict[Slot, RunnerClient] = {}
        self.restarts: dict[Slot, int] = {}
        self.states: list[OpState] = []
        # processes of each cell in this block: their slices are pooled for its headline
        self.side_by_side = collections.Counter(c.serializer_at for c in cells)
        # (cell, operation) of which a process in this block has reached its fast mode
        self.fast_reached: set[tuple[tuple[str, str, str], str]] = set()
        self._warming = threading.local()  # set in the warm-up threads: faults are deferred
        self.lanes = Lanes()
        # results met while the block gets ready in a thread of its own (ReadyAhead): saved
        # and counted by the run's thread when it takes the block over
        self._outbox: list[tuple[Cell, str, dict[str, Any]]] | None = None
        self._abandoned = False  # the run stopped while the block got ready: start nothing
        # per (runner, operation): the reference cell's slices in this block, each per operation
        self.reference_slices: dict[tuple[str, str], list[float]] = collections.defaultdict(list)

    # --- sessions and faults -------------------------------------------------------------

    def _client(self, slot: Slot) -> RunnerClient:
        """The slot's runner process, started on first use (and after a restart)."""
        if slot not in self.sessions:
            if self._abandoned:
                raise SessionFault("crashed", "the run stopped")
            spec = self.specs[slot[0]]
            self.sessions[slot] = RunnerSession(spec, self.cell_timeout, validate="fast")
            self.clients[slot] = RunnerClient(self.sessions[slot])
        return self.clients[slot]

    def _fail_cell(self, cell: Cell, code: str, message: str) -> None:
        for st in [s for s in self.states if s.cell == cell]:
            self.states.remove(st)
        for op in self.operations:
            self._finish(cell, op, {"status": "error", "error": {"code": code, "message": message}})

    def _finish(self, cell: Cell, op: str, result: dict[str, Any]) -> None:
        if not cell.stored:
            return
        if self._outbox is not None:
            self._outbox.append((cell, op, result))
            return
        self.save(cell.key(op), result)
        self.progress(f"{cell.runner}/{cell.serializer} {cell.dataset} {op}", 1)

    def _fault(self, cell: Cell, fault: SessionFault) -> None:
        """Blame the cell in flight, then restart its runner process for the cells still live."""
        self._fail_cell(cell, fault.code, str(fault))
        self._restart(cell.slot)

    def _restart(self, slot: Slot) -> None:
        session = self.sessions.pop(slot, None)
        if session is not None:
            session.kill()
        if self._abandoned:
            return
        self.restarts[slot] = self.restarts.get(slot, 0) + 1
        live = list(dict.fromkeys(s.cell for s in self.states if s.cell.slot == slot))
        if self.restarts[slot] > MAX_RESTARTS:
            message = f"runner {slot[0]} failed {MAX_RESTARTS}x in a block"
            for c in live:
                self._fail_cell(c, "crashed", message)
            return
        for c in live:
            if self._prepare(c) is not None:
                for st in self.states:
                    if st.cell == c:
                        st.restart()

    # --- the phases ----------------------------------------------------------------------

    def _prepare_request(self, cell: Cell) -> PrepareRequest:
        dataset = self.datasets[cell.dataset]
        verify = not self.checked.known(cell)
        return prepare_request(cell.id, cell.serializer, dataset, self.operations, verify=verify)

    def _prepare(self, cell: Cell) -> dict[str, Any] | None:
        """Prepare (and check) a cell; its results are saved at once unless it is ok."""
        try:
            reply = self._client(cell.slot).prepare(self._prepare_request(cell))
        except SessionFault as fault:
            self._fault(cell, fault)
            return None
        except CommandError as error:
            self._fail_cell(cell, error.code, error.message)
            return None
        return self._accept(cell, reply)

    def _accept(self, cell: Cell, reply: Prepared) -> dict[str, Any] | None:
        """A `prepared` reply: the cell's common fields if it is ok, else its results saved."""
        reply = self.checked.accepted(cell, reply)
        common: dict[str, Any] = {
            "check": reply["check"],
            "messages": reply["messages"],
            "sizes": reply["sizes"],
        }
        if reply["status"] != "ok":
            for st in [s for s in self.states if s.cell == cell]:
                self.states.remove(st)
            for op in self.operations:
                self._finish(
                    cell, op, {**common, "status": reply["status"], "error": reply["error"]}
                )
            return None
        return {**common, "unsupported": reply["unsupported"]}

    def _prepare_in_parallel(self) -> dict[Cell, Prepared | SessionFault | CommandError]:
        """Every runner process prepares its cells at once, one thread each: no sample is
        being taken yet, and preparing is CPU work the two cores can share. A cell not checked
        yet in this run is checked by its first process here; its other processes wait for
        that prepare and skip the check (`Checked`). A process that faults stops there; its
        remaining cells are prepared one by one."""
        by_slot: dict[Slot, list[Cell]] = {}
        for c in self.cells:
            by_slot.setdefault(c.slot, []).append(c)
        replies: dict[Cell, Prepared | SessionFault | CommandError] = {}
        checker: dict[tuple[str, str, str], Cell] = {}
        for c in sorted(self.cells, key=lambda c: c.process):
            if not self.checked.known(c):
                checker.setdefault(c.serializer_at, c)
        passed = {key: threading.Event() for key in checker}

        def work(slot: Slot) -> None:
            mine = [c for c in by_slot[slot] if checker.get(c.serializer_at) == c]
            try:
                for c in by_slot[slot]:
                    first = checker.get(c.serializer_at)
                    if first is not None and first != c:
                        passed[c.serializer_at].wait()  # outside the lane: the checker needs it
                    try:
                        with self.lanes.lane():
                            reply = self._client(slot).prepare(self._prepare_request(c))
                        replies[c] = self.checked.accepted(c, reply)
                    except CommandError as error:
                        replies[c] = error
                    except SessionFault as fault:
                        replies[c] = fault
                        return
                    finally:
                        if first == c:
                            passed[c.serializer_at].set()
            finally:  # a process that stopped early lets the others check for themselves
                for c in mine:
                    passed[c.serializer_at].set()

        threads = [threading.Thread(target=work, args=(slot,)) for slot in by_slot]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return replies

    def _sample(
        self, st: OpState, iterations: int, samples: int, untimed: int = 0
    ) -> Samples | None:
        try:
            client = self._client(st.cell.slot)
            return client.sample(st.cell.id, st.op, iterations, samples, untimed)
        except (SessionFault, CommandError) as stop:
            if getattr(self._warming, "active", False):
                raise _Interrupted(st, stop) from None
            self._stop(st.cell, stop)
            return None

    def _stop(self, cell: Cell, cause: SessionFault | CommandError) -> None:
        """A fault restarts the cell's runner process; an error reply fails the cell alone."""
        if isinstance(cause, SessionFault):
            self._fault(cell, cause)
        else:
            self._fail_cell(cell, cause.code, cause.message)

    def _calibrate(self, st: OpState) -> None:
        reply = self._sample(st, st.iterations, 1)
        if reply is None:
            return
        wall = reply["wall_ns"][0]
        target = self.timing.min_sample_ns
        if wall >= target or st.iterations >= MAX_ITERATIONS:
            st.phase = "warmup"
            st.long = wall >= LONG_SAMPLE * target
            return
        # jump close to the target, never by more than CALIBRATION_MAX_STEP times
        guess = int(st.iterations * target / max(wall, 1) * CALIBRATION_OVERSHOOT)
        st.iterations = max(st.iterations * 2, min(st.iterations * CALIBRATION_MAX_STEP, guess))

    def _warm(self, st: OpState) -> None:
        per_slice = 1 if st.long else self.timing.warmup_slice_samples
        reply = self._sample(st, st.iterations, per_slice)
        if reply is None:
            return
        t = self.timing
        # warm-up shares the cores with the other runners' threads: the test and the budget
        # go by the thread's CPU time where the runner reports it, which waiting for a core
        # does not inflate (by wall time, a slow operation's slices got faster as the other
        # threads finished, and the test read that as code still getting faster)
        spent = reply.get("cpu_ns") or reply["wall_ns"]
        st.warm_ns += sum(spent)
        st.warm_ops += (
            st.iterations * len(reply["wall_ns"]) * max(st.common.get("messages") or 1, 1)
        )
        st.warm_best.append(min(spent) / st.iterations)
        st.warm_compiling.append(bool(reply.get("compile_ns")))
        if min(reply["wall_ns"]) < t.min_sample_ns // 2:
            st.iterations *= 2  # compiled code got faster: keep samples long, slices few
        # code compiled ahead of time or on first call is final once calibration has run
        # it: what remains to warm (caches, the allocator) shows in shorter windows
        w = t.warmup_window if self._tiered(st) else t.final_code_window
        if st.long and not self._tiered(st):
            w = LONG_FINAL_WINDOW  # calibration has run it whole: one slice against the next
        if len(st.warm_best) >= 2 * w:
            # the window before, not the best of all time: on a noisy machine a fast phase
            # now and then beats every earlier slice, while a JIT's gains show window on window
            before, last = min(st.warm_best[-2 * w : -w]), min(st.warm_best[-w:])
            improving = last < (1 - t.warmup_tolerance) * before
            if not improving and self._code_is_final(st):
                st.steady = True
        if st.steady is None and st.warm_ns >= t.warmup_max_ns:
            # too slow to test, or never settled within the budget
            st.steady = None if len(st.warm_best) < 2 * w else False
            st.phase = "measure"
        if st.steady:
            st.phase = "measure"
        if st.phase == "measure":
            # compiled code is faster than the code that was calibrated
            best = min(st.warm_best)
            if best * st.iterations < t.min_sample_ns:
                st.iterations = math.ceil(t.min_sample_ns / best)

    def _warm_up(self, st: OpState) -> None:
        """Calibration and warm-up of one operation in one stretch (until it measures, or its
        cell fails)."""
        while st in self.states and st.phase in ("calibrate", "warmup"):
            (self._calibrate if st.phase == "calibrate" else self._warm)(st)

    def _tiered(self, st: OpState) -> bool:
        return self.specs[st.cell.runner].jit == "tiered"

    def _code_is_final(self, st: OpState) -> bool:
        """The runtime's own evidence that the code being timed will not change any more.
        Warm-up runs in one stretch per operation, so a compile signal is this cell's own."""
        t = self.timing
        if not self._tiered(st):
            return True  # compiled ahead of time, interpreted, or compiled once on first call
        # an optimising tier triggers on invocation counts: wait for them, or for the time
        # they take when one operation is large (its inner loops count on their own)
        counted = st.warm_ops >= t.jit_min_invocations or st.warm_ns >= t.jit_warmup_min_ns
        # a compilation that finished in the last window (the JVM reports them) may have
        # replaced code: not yet; a backlog from the cells before is waited for only so long
        w = t.warmup_window
        compiling = (
            any(st.warm_compiling[-w:]) and st.warm_ns < COMPILE_BACKLOG * t.jit_warmup_min_ns
        )
        return counted and not compiling

    def _measure(self, st: OpState) -> None:
        t = self.timing
        per_slice = 1 if st.long else t.slice_samples
        # a slice of one sample is timed warm (Timing.rewarm): a single operation comes
        # second in its own command, after one that is dropped, unless the pair would not
        # fit min_slices into the measuring budget; a batch follows one operation the runner
        # runs untimed in the same command
        rewarm = t.rewarm and per_slice == 1
        op_ns = min(st.warm_best, default=0.0)
        lead = int(rewarm and st.iterations == 1 and 2 * op_ns * t.min_slices <= t.max_measure_ns)
        untimed = int(rewarm and st.iterations > 1)
        at = time.monotonic_ns() - self.clock_zero
        reply = self._sample(st, st.iterations, per_slice + lead, untimed)
        if reply is None:
            return
        spent_ns = sum(reply["wall_ns"])  # the dropped operation is spent budget too
        reply = _drop_leading(reply, lead)
        short = min(reply["wall_ns"])
        if not st.slice_sizes and short < RECALIBRATE * t.min_sample_ns:
            # warmed up beside other runners, measured alone: samples came out short; the
            # batch grows before the first slice counts (every slice has one batch size)
            st.iterations = math.ceil(st.iterations * t.min_sample_ns / max(short, 1))
            return
        for f in SAMPLE_FIELDS:
            got, have = reply.get(f), st.samples[f]
            st.samples[f] = None if got is None or have is None else have + list(got)
        st.slice_sizes.append(len(reply["wall_ns"]))
        st.slice_at_ns.append(at)
        st.slice_best.append(float(statistics.median(reply["wall_ns"])))
        if reply.get("compile_ns") is not None:
            st.compile_ns = (st.compile_ns or 0) + reply["compile_ns"]
        st.measured_ns += spent_ns
        taken = len(st.slice_sizes)
        spent = st.measured_ns >= t.max_measure_ns
        # a long operation whose time budget ends first spans phases in every sample: its
        # fastest reproduced once is its fast mode
        fast_needed = LONG_CONFIRM if st.long and spent else t.confirm_slices
        fast = stats.fast_mode_confirmed(st.slice_best, fast_needed)
        if fast:
            self.fast_reached.add((st.cell.serializer_at, st.op))
        if fast and t.precision is not None:  # the interval's width too, once in the mode
            fast = stats.fast_mode_confirmed(st.slice_best, fast_needed, t.precision)
        st.confirmed = fast
        if spent and (st.cell.serializer_at, st.op) not in self.fast_reached:
            # no process of the cell has reached its fast mode yet: measure on, up to
            # unconfirmed_budgets budgets, until one does (each slice is a new draw of the
            # machine's phase; a tie-break process would start and warm up anew)
            spent = st.measured_ns >= t.unconfirmed_budgets * t.max_measure_ns
        # enough slices that all of the cell's slices missing the fast phase is unlikely: its
        # processes measure side by side in this block and their slices are pooled for the
        # headline, so each takes its share (a process that still missed it entirely is not
        # told apart by the fast-edge test, stats.processes_disagree, and the pooled fast
        # mode is the other's)
        pooled = self.slow_share.slices_needed(t.miss_probability)
        needed = max(t.min_slices, math.ceil(pooled / self.side_by_side[st.cell.serializer_at]))
        st.confirmed = st.confirmed and (taken >= needed or spent)
        late = self.deadline_ns is not None and time.monotonic_ns() >= self.deadline_ns
        if taken >= t.min_slices and (st.confirmed or spent or late or taken >= t.max_slices):
            st.phase = "done"
            self.slow_share.add(st.slice_best)

    def _peak_alloc(self, st: OpState) -> int | None:
        t = self.timing
        per_op = min(st.samples["wall_ns"] or [0]) / st.iterations
        if not t.peak_alloc or st.cell.process != 0 or per_op > t.peak_alloc_max_ns:
            return None
        try:
            return self._client(st.cell.slot).peak_alloc(st.cell.id, st.op)["bytes"]
        except SessionFault as fault:
            self._fault(st.cell, fault)
        except CommandError:
            pass  # a runtime that cannot tell: no figure
        return None

    def _done(self, st: OpState) -> None:
        self.states.remove(st)
        if (st.cell.serializer, st.cell.dataset) == REFERENCE_CELL:
            self.reference_slices[(st.cell.runner, st.op)] += [
                x / st.iterations for x in st.slice_best
            ]
        if st.cell.stored:
            timing = {
                "iterations": st.iterations,
                **st.samples,
                "slice_sizes": st.slice_sizes,
                "slice_at_ns": st.slice_at_ns,
                "confirmed": st.confirmed,
                "compile_ns": st.compile_ns,
                "warmup": {
                    "slices": len(st.warm_best),
                    "spent_ns": st.warm_ns,  # the thread's CPU time where reported, else wall
                    "operations": st.warm_ops,
                    "steady": st.steady,
                },
                "peak_alloc_bytes": self._peak_alloc(st),
            }
            self._finish(
                st.cell, st.op, {**st.common, "status": "ok", "error": None, "timing": timing}
            )
        if not any(s.cell == st.cell for s in self.states):
            self._release(st.cell)

    def _release(self, cell: Cell) -> None:
        try:
            self._client(cell.slot).release(cell.id)
        except SessionFault:
            self._restart(cell.slot)  # every result of the cell is saved already
        except CommandError:
            pass  # every result of the cell is saved already

    def _warm_in_parallel(self) -> None:
        """Calibration and warm-up of every operation, one thread per process, before any
        slice is measured: nothing is measured yet, so the runners' processes may share the
        cores (a JIT's compile threads included); each operation warms in one stretch, so
        a compile signal is its own. Measured slices are then taken one at a time."""
        by_slot: dict[Slot, list[OpState]] = {}
        for st in self.states:
            by_slot.setdefault(st.cell.slot, []).append(st)
        stopped: list[_Interrupted] = []

        def work(states: list[OpState]) -> None:
            self._warming.active = True
            try:
                for st in states:
                    with self.lanes.lane():
                        self._warm_up(st)
            except _Interrupted as stop:
                stopped.append(stop)  # the rest of this runner's cells warm up later

        for states in by_slot.values():
            self.rng.shuffle(states)
        threads = [threading.Thread(target=work, args=(v,)) for v in by_slot.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for stop in stopped:
            if stop.st in self.states:
                self._stop(stop.st.cell, stop.cause)

    # --- the block -----------------------------------------------------------------------

    def run(self) -> None:
        """Prepare, warm up and measure the block; its runner processes end with it."""
        try:
            self.ready()
            self.measure()
        finally:
            self.close()

    def ready(self) -> None:
        """Every cell prepared (and checked) and every operation calibrated and warmed up."""
        replies = self._prepare_in_parallel()
        for cell in self.cells:
            got = replies.get(cell)
            if got is None:  # its runner faulted earlier in the parallel phase
                common = self._prepare(cell)
            elif isinstance(got, SessionFault | CommandError):
                self._stop(cell, got)
                common = None
            else:
                common = self._accept(cell, got)
            if common is None:
                continue
            unsupported = set(common.pop("unsupported"))
            for op in self.operations:
                if op in unsupported:
                    message = f"{cell.runner} has no {op}"
                    self._finish(
                        cell,
                        op,
                        {
                            **common,
                            "status": "unsupported",
                            "error": {"code": "unsupported", "message": message},
                        },
                    )
                else:
                    self.states.append(OpState(cell, op, common))
        self._warm_in_parallel()

    def measure(self) -> None:
        """Measured slices, one at a time, in a random order, until every operation is done."""
        # a warmed neighbour's data stays held, as in the rounds: the heap is the same
        self.states = [st for st in self.states if not st.cell.warm_only]
        while self.states:
            order = list(self.states)
            self.rng.shuffle(order)
            for st in order:
                self._warm_up(st)  # a cell whose runner restarted warms up again here
                if st in self.states and st.phase == "measure":
                    self._measure(st)
                if st.phase == "done" and st in self.states:
                    self._done(st)

    def reference_times(self) -> dict[tuple[str, str], float]:
        """Per (runner, operation) the reference cell's headline in this block, its processes
        pooled (stats.block_stretch compares them across blocks)."""
        return {k: stats.headline(v) for k, v in self.reference_slices.items() if v}

    def close(self) -> None:
        for session in list(self.sessions.values()):
            session.close()


class ReadyAhead:
    """A block prepared and warmed up in a thread of its own while the block before it
    measures, one runner process working at a time: measured slices are taken one at a
    time, so one core is idle while they are (docs/method.md, "the next block warms up
    while this one measures"). `take` lets every process work, waits for the block to be
    ready and hands it to the run's thread with the results it met (failed checks, faults)."""

    def __init__(self, block: Block) -> None:
        self.block = block
        block.lanes = Lanes(one_at_a_time=True)
        block._outbox = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            self.block.ready()
        except BaseException as error:  # handed to the run's thread in take()
            self._error = error

    def take(self) -> Block:
        block = self.block
        block.lanes.widen()
        self._thread.join()
        outbox, block._outbox = block._outbox or [], None
        for cell, op, result in outbox:
            block._finish(cell, op, result)
        if self._error is not None:
            block.close()
            raise self._error
        return block

    def abandon(self) -> None:
        """The run stopped: the block's processes are killed, none started again, and what
        it met is dropped (its cells were not measured; a resumed run does them)."""
        self.block._abandoned = True
        while self._thread.is_alive():  # one may have started just before
            for session in list(self.block.sessions.values()):
                session.kill()
            self._thread.join(0.1)
        self.block.close()


def time_cell(
    spec: RunnerSpec,
    serializer: str,
    dataset: str,
    data: str,
    operation: str,
    timing: Timing | None = None,
    neighbours: Sequence[str] = (),
) -> dict[str, Any]:
    """The stored result of one operation of one cell, measured by the orchestrator's own
    schedule in one fresh runner process (for comparison scripts and tests); ``timing``
    defaults to the standard profile. ``neighbours``: more of the runner's serializers
    measured in the same process, interleaved, as a run measures a dataset's cells (a JIT's
    code for one cell can depend on what else ran)."""
    results: dict[str, dict[str, Any]] = {}  # serializer -> its result
    names = [serializer, *(n for n in neighbours if n != serializer)]

    def save(key: CellKey, result: dict[str, Any]) -> None:
        results[key.serializer] = result

    Block(
        [Cell(spec.name, name, dataset, 0) for name in names],
        [operation],
        {spec.name: spec},
        {dataset: Dataset(name=dataset, kind="builtin", data=data)},
        timing or STANDARD,
        TIME_CELL_TIMEOUT_S,
        save,
        lambda _description, _n: None,
        random.Random(0),
        time.monotonic_ns(),
    ).run()
    found = results.get(serializer, {})
    if found.get("status") != "ok":
        raise RuntimeError(f"{spec.name}/{serializer} {dataset} {operation} failed: {found}")
    return found
