"""`serbench run --measure instructions`: instructions per operation counted under callgrind.

A wall-clock time follows the machine's load; an instruction count does not, so a gate on a
shared CI machine (`serbench compare --fail-above`) can use it without flapping. Each
runner's unchanged `serve` process runs under valgrind's callgrind; the orchestrator sends
the usual `prepare` and `sample` commands and reads callgrind's counter between them
(callgrind's `dump` monitor command, sent through vgdb, writes the instructions executed
since the previous dump and starts counting afresh).

Per (cell, operation): one sample of k operations gives F + k*c instructions, one of 2k
gives F + 2k*c, where F is the fixed cost of a command (reading and parsing it, the clocks,
printing the reply) and c the cost of one operation; their difference is k*c. Each repeat
stores that difference as one sample of ``iterations = k`` in the field stats.estimate
reads (``wall_ns``, with ``unit: "instructions"`` beside it), so the report and
`serbench compare` treat counts as they treat times. docs/method.md, "Counting
instructions", has the evidence and the runtimes it does not suit.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from serbench.client import CommandError, Dataset, RunnerClient, Samples, prepare_request
from serbench.runners import RunnerSpec, discover
from serbench.schedule import Cell
from serbench.session import RunnerSession, SessionFault
from serbench.store import CellKey
from serbench.timing import VALGRIND_SLOWDOWN, VGDB_MAX_INVOKE_MS, VGDB_TIMEOUT_S, VGDB_WAIT_S

UNIT = "instructions"
MEASURES = ("time", UNIT)
GO_MEMORY_LIMIT = "2GiB"
JIT_REFUSAL = (
    'runner {name} compiles code while it runs (runner.json "jit": true): under valgrind '
    "its JIT is 20-100x slower and the count depends on when each tier compiles, so it would "
    "measure the JIT, not the library; measure it by time"
)


@dataclass(frozen=True)
class Counting:
    # k operations execute about this many instructions (k a power of two, so that two runs
    # of the same code choose the same k); callgrind runs some 20-40 million a second here
    batch_instructions: int
    repeats: int  # (k, 2k) pairs per operation per process: the slices of the estimate
    max_iterations: int = 1 << 20


COUNTING = {
    "quick": Counting(batch_instructions=8_000_000, repeats=3),
    "standard": Counting(batch_instructions=32_000_000, repeats=5),
    "full": Counting(batch_instructions=32_000_000, repeats=5),
}

Save = Callable[[CellKey, dict[str, Any]], None]
Progress = Callable[[str, int], None]


class Refused(ValueError):
    """A run that cannot count instructions (a JIT runtime, valgrind missing)."""


def refusal(spec: RunnerSpec) -> str | None:
    """Why this runner's instructions are not counted, or None."""
    return JIT_REFUSAL.format(name=spec.name) if spec.jit else None


def require_valgrind() -> None:
    missing = [tool for tool in ("valgrind", "vgdb") if shutil.which(tool) is None]
    if missing:
        raise Refused(
            f"--measure instructions needs {' and '.join(missing)} on PATH "
            "(Debian package valgrind, listed in scripts/apt-packages.txt)"
        )


def callgrind_total(dump: Path) -> int:
    """The instructions (Ir) of one callgrind dump: its ``summary:`` line."""
    for line in dump.read_text(errors="replace").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise ValueError(f"{dump}: no 'summary:' line in the callgrind output")


class CallgrindSession:
    """A runner's `serve` process under callgrind, whose counter can be read between commands."""

    def __init__(self, spec: RunnerSpec, timeout: float) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="serbench-callgrind-"))
        self.prefix = f"--vgdb-prefix={self.dir}/vgdb"
        command = [
            "env",
            # string hashing seeded alike in every process, so dict layouts (and so counts)
            # repeat from run to run
            "PYTHONHASHSEED=0",
            # Go preempts goroutines with signals, on which callgrind 3.19 asserts and aborts
            "GODEBUG=" + ",".join(filter(None, [os.environ.get("GODEBUG"), "asyncpreemptoff=1"])),
            # a Go collection costs as much as hundreds of operations and lands in one batch
            # or another: the collector runs only near the memory limit (docs/method.md)
            "GOGC=off",
            f"GOMEMLIMIT={GO_MEMORY_LIMIT}",
            "valgrind",
            "--tool=callgrind",
            "--quiet",
            f"--callgrind-out-file={self.dir}/cg.%p",
            self.prefix,
            "--dump-line=no",
            "--dump-instr=no",
            "--instr-atstart=no",  # start-up and prepare run uninstrumented, 5x faster
            "--trace-children=yes",  # a runner command that execs its program stays counted
            *spec.command,
        ]
        self.session = RunnerSession(replace(spec, command=command), timeout, validate="fast")
        self.pid = self.session.proc.pid  # env and valgrind exec: the runner keeps this pid

        self.runner = RunnerClient(self.session)

    def _monitor(self, *command: str) -> None:
        """A callgrind monitor command, sent through vgdb (it waits for callgrind's answer)."""
        try:
            done = subprocess.run(
                [
                    "vgdb",
                    self.prefix,
                    f"--wait={VGDB_WAIT_S}",
                    f"--max-invoke-ms={VGDB_MAX_INVOKE_MS}",
                    f"--pid={self.pid}",
                    *command,
                ],
                capture_output=True,
                text=True,
                timeout=VGDB_TIMEOUT_S,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            raise SessionFault(
                "timeout", f"vgdb {' '.join(command)}: no answer in {VGDB_TIMEOUT_S:.0f} s"
            ) from exc
        if done.returncode != 0:
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-2:])
            raise SessionFault("crashed", f"vgdb {' '.join(command)} failed: {tail}")

    def instrument(self, on: bool) -> None:
        """Switch counting on or off (off: prepare runs about 5x faster)."""
        self._monitor("instrumentation", "on" if on else "off")

    def instructions(self) -> int:
        """Instructions executed since the previous call (all threads); counting restarts."""
        self._monitor("dump")
        dumps = sorted(
            self.dir.glob(f"cg.{self.pid}.*"), key=lambda p: int(p.suffix.lstrip(".") or 0)
        )
        if not dumps:
            raise SessionFault("crashed", f"callgrind wrote no dump in {self.dir}")
        total = callgrind_total(dumps[-1])
        for d in dumps:
            d.unlink()
        return total

    def close(self) -> None:
        self.session.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class _NotCounted(RuntimeError):
    """Counts that make no figure: the cell's operation fails as an exception."""

    code = "exception"


def _sample(cg: CallgrindSession, cell: str, op: str, iterations: int) -> Samples:
    return cg.runner.sample(cell, op, iterations, 1)


def _batch_size(cg: CallgrindSession, cell: str, op: str, counting: Counting) -> int:
    """The power of two k whose batch executes about ``batch_instructions``: probes of n and
    2n operations, n growing until their difference stands well above what a runtime
    executes besides the work (Go varies by some 0.1 million instructions per sample)."""
    target, n = counting.batch_instructions, 1
    while True:
        _sample(cg, cell, op, n)
        single = cg.instructions()
        _sample(cg, cell, op, 2 * n)
        net = cg.instructions() - single
        if net >= target // 8 or n >= counting.max_iterations:
            break
        n = min(counting.max_iterations, n * min(64, max(2, target // 8 // max(net, 1))))
    k = 1 << max(0, round(math.log2(target * n / max(net, 1))))
    return min(k, counting.max_iterations)


def count(cg: CallgrindSession, cell: str, op: str, counting: Counting) -> dict[str, Any]:
    """The timing record of one prepared (cell, operation): per repeat, the instructions of
    k operations, net of the command's fixed cost."""
    _sample(cg, cell, op, 1)  # first call: lazy set-up, caches, the interpreter's quickening
    cg.instructions()
    k = _batch_size(cg, cell, op, counting)
    _sample(cg, cell, op, k)  # warm at the batch size (allocator arenas, GC thresholds)
    cg.instructions()  # from here on, each reading covers one sample command
    single, double, wall = [], [], []
    for _ in range(counting.repeats):
        wall.append(_sample(cg, cell, op, k)["wall_ns"][0])
        single.append(cg.instructions())
        _sample(cg, cell, op, 2 * k)
        double.append(cg.instructions())
    net = [b - a for a, b in zip(single, double, strict=True)]
    if min(net) <= 0:
        raise _NotCounted(f"instruction count not positive: {single} -> {double}")
    return {
        "unit": UNIT,
        "iterations": k,
        "wall_ns": net,  # instructions of k operations per repeat, in the field stats reads
        "cpu_ns": None,
        "alloc_bytes": None,
        "alloc_count": None,
        "gc_count": None,
        "gc_ns": None,
        "slice_sizes": [1] * len(net),
        "slice_at_ns": [],
        "compile_ns": None,
        "warmup": {"slices": 1, "spent_ns": 0, "steady": True},
        "peak_alloc_bytes": None,
        "callgrind": {"batch": single, "double_batch": double, "batch_wall_ns": wall},
    }


def _measure_cell(
    cg: CallgrindSession,
    cell: Cell,
    dataset: Dataset,
    operations: list[str],
    counting: Counting,
    save: Save,
) -> None:
    """Prepare, count every operation, release; results saved as they finish. A SessionFault
    (the process died) propagates after the cell's unfinished operations are saved failed."""
    todo = list(operations)
    common: dict[str, Any] = {}
    try:
        cg.instrument(False)
        reply = cg.runner.prepare(prepare_request(cell.id, cell.serializer, dataset, operations))
        cg.instrument(True)
        common = {"check": reply["check"], "messages": reply["messages"], "sizes": reply["sizes"]}
        if reply["status"] != "ok":
            for op in todo:
                save(cell.key(op), {**common, "status": reply["status"], "error": reply["error"]})
            return
        unsupported = set(reply["unsupported"])
        while todo:
            op = todo[0]
            if op in unsupported:
                error = {"code": "unsupported", "message": f"{cell.runner} has no {op}"}
                save(cell.key(op), {**common, "status": "unsupported", "error": error})
            else:
                timing = count(cg, cell.id, op, counting)
                save(cell.key(op), {**common, "status": "ok", "error": None, "timing": timing})
            todo.pop(0)
        cg.runner.release(cell.id)
    except (_NotCounted, CommandError, SessionFault) as exc:
        error = {"code": exc.code, "message": str(exc)}
        for op in todo:
            save(cell.key(op), {**common, "status": "error", "error": error})
        if isinstance(exc, SessionFault):
            raise


def execute(
    cells: list[Cell],
    operations: list[str],
    specs: dict[str, RunnerSpec],
    datasets: dict[str, Dataset],
    scale: str,
    cell_timeout: float,
    save: Save,
    progress: Progress,
) -> None:
    """Count every cell: per process index and runner, one process under callgrind that
    prepares, counts and releases the cells one at a time. JIT runtimes are not counted."""
    require_valgrind()
    counting = COUNTING[scale]

    def saved(key: CellKey, result: dict[str, Any]) -> None:
        save(key, result)
        progress(f"{key.runner}/{key.serializer} {key.dataset} {key.operation}", 1)

    groups: dict[tuple[int, str], list[Cell]] = {}
    for c in sorted(cells, key=lambda c: c.dataset):
        groups.setdefault((c.process, c.runner), []).append(c)
    for (_, runner), group in sorted(groups.items()):
        reason = refusal(specs[runner])
        if reason:
            for c in group:
                for op in operations:
                    error = {"code": "not_applicable", "message": reason}
                    saved(c.key(op), {"status": "not_applicable", "error": error})
            continue
        cg: CallgrindSession | None = None
        try:
            for c in group:
                if cg is None:
                    cg = CallgrindSession(specs[runner], cell_timeout * VALGRIND_SLOWDOWN)
                try:
                    _measure_cell(cg, c, datasets[c.dataset], operations, counting, saved)
                except SessionFault:
                    cg.close()
                    cg = None  # the next cell gets a fresh process
        finally:
            if cg is not None:
                cg.close()


def check(measure: str, requested: list[str]) -> None:
    """Refused: an unknown measure, or instructions without valgrind or for a runner the user
    named that has a JIT (unnamed JIT runners' cells are stored as not applicable)."""
    if measure not in MEASURES:
        raise Refused(f"unknown measure {measure!r}; valid: {', '.join(MEASURES)}")
    if measure != UNIT:
        return
    require_valgrind()
    specs = discover()
    for name in requested:
        reason = refusal(specs[name]) if name in specs else None
        if reason:
            raise Refused(f"--measure instructions: {reason}")
