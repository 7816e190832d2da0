"""Plans the matrix, cuts it into blocks, runs them (schedule.Block), stores every result.

A run visits the datasets in a random order; each dataset is one block (or a few, when its
cells would not fit in memory at once) in which every runner gets `processes` fresh
processes side by side and all their cells are measured interleaved. Up to
`tiebreak_processes` more processes per runner and dataset time the cells that are not
settled, with the neighbours they had: the first of them joins the next block that has not
begun to get ready once the dataset's own blocks are done, the others follow the rounds.
"""

from __future__ import annotations

import fnmatch
import random
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol, cast

from serbench import datasets, instructions, stats, userdata
from serbench.client import Dataset
from serbench.operations import OPERATIONS
from serbench.runners import RunnerSpec, describe_all, discover
from serbench.schedule import Block, Cell, Checked, ReadyAhead, SlowShare
from serbench.store import CellKey, Store, decode_json
from serbench.timing import (
    AFTER_ROUNDS_RESERVE,
    AHEAD_MEMORY_SHARE,
    CELL_TIMEOUT_S,
    HELD_PER_CELL,
    MEMORY_SHARE,
    PRECISION_CAP,
    PROFILES,
    REFERENCE_CELL,
    STRETCH_FACTOR,
    Timing,
)


@dataclass
class RunConfig:
    scale: str = "standard"
    datasets: list[str] = field(default_factory=list)  # empty: all
    serializers: list[str] = field(default_factory=list)  # names or runner/name globs
    runners: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=lambda: ["encode", "decode"])
    cell_timeout: float = CELL_TIMEOUT_S["standard"]  # one command; then the runner is killed
    timing: dict[str, Any] = field(default_factory=lambda: PROFILES["standard"].as_dict())
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(1 << 31))
    measure: str = "time"  # or "instructions": counted under callgrind (serbench.instructions)
    budget_s: float | None = None  # fit the run into this many seconds (Budget below)

    @classmethod
    def for_scale(
        cls, scale: str, processes: int | None = None, profile: str | None = None
    ) -> RunConfig:
        """The scale's datasets, timed by the scale's own profile unless ``profile`` is given."""
        timing = PROFILES[profile or scale]
        if processes:
            timing = timing.with_processes(processes)
        return cls(scale=scale, cell_timeout=CELL_TIMEOUT_S[scale], timing=timing.as_dict())

    @property
    def profile(self) -> Timing:
        return Timing.from_dict(self.timing)

    def with_precision(self, precision: float) -> None:
        """Sample every cell until its headline's interval is this tight (a fraction of the
        headline), within caps PRECISION_CAP times the profile's."""
        t = self.profile
        self.timing = replace(
            t,
            precision=precision,
            max_slices=PRECISION_CAP * t.max_slices,
            max_measure_ns=PRECISION_CAP * t.max_measure_ns,
        ).as_dict()


@dataclass
class Budget:
    """--budget: the run's remaining time shared among the blocks still to run, in proportion
    to their operations; a block past its share stops measuring each operation as soon as it
    has its minimum slices (and says so: such operations are not confirmed)."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def deadline_ns(self, share: float, reserve: float = 0.0) -> int:
        """The monotonic clock reading at which a block with this share of the remaining
        work should end, keeping ``reserve`` of the whole budget for what follows."""
        left = max(self.left() - reserve * self.seconds, 0.0)
        return time.monotonic_ns() + int(left * share * 1e9)


def _selected(name: str, runner: str, patterns: list[str]) -> bool:
    if not patterns:
        return True
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(f"{runner}/{name}", p) for p in patterns)


def check_datasets(names: list[str]) -> None:
    """UnknownName, listing the valid ones, for a name neither built in nor registered."""
    for name in names:
        if not userdata.is_registered(name):
            try:
                datasets.get(name)
            except datasets.UnknownName:
                users = userdata.names()
                extra = f"; user datasets: {', '.join(users)}" if users else ""
                raise datasets.UnknownName(
                    f"unknown dataset {name!r}; valid datasets: {', '.join(datasets.DATASETS)}"
                    f"{extra}"
                ) from None


def validate(config: RunConfig, specs: dict[str, RunnerSpec]) -> None:
    """Unknown names are errors that list the valid ones."""
    check_datasets(config.datasets)
    for name in config.runners:
        if name not in specs:
            raise datasets.UnknownName(
                f"unknown runner {name!r}; valid runners: {', '.join(specs)}"
            )
    valid_ops = set(OPERATIONS)
    for op in config.operations:
        if op not in valid_ops:
            raise datasets.UnknownName(
                f"unknown operation {op!r}; valid: {', '.join(sorted(valid_ops))}"
            )


@dataclass
class Plan:
    cells: list[Cell]
    describes: dict[str, dict[str, Any]]
    unavailable: dict[str, str]
    not_applicable: list[tuple[Cell, str]]
    specs: dict[str, RunnerSpec]


def applicability(described: dict[str, Any], s: dict[str, Any], ds: str) -> dict[str, Any]:
    """A serializer's entry for a built-in dataset, or its ``user_datasets`` entry."""
    if ds in datasets.DATASETS or not userdata.is_registered(ds):
        return s.get("datasets", {}).get(
            ds, {"applicable": False, "reason": "runner does not list it"}
        )
    if "user_datasets" not in described.get("capabilities", []):
        runner = described.get("runner", "?")
        return {"applicable": False, "reason": f"runner {runner} does not take user datasets yet"}
    return s.get("user_datasets") or {
        "applicable": False,
        "reason": "the serializer does not say whether it takes user datasets",
    }


_applicability = applicability


def plan(config: RunConfig, specs: dict[str, RunnerSpec] | None = None) -> Plan:
    specs = specs if specs is not None else discover()
    validate(config, specs)
    wanted_datasets = config.datasets or list(datasets.DATASETS)
    chosen = {n: s for n, s in specs.items() if not config.runners or n in config.runners}
    describes, unavailable = describe_all(chosen)
    cells, not_applicable = [], []
    for name in describes:
        for s in describes[name]["serializers"]:
            if not _selected(s["name"], name, config.serializers):
                continue
            for ds in wanted_datasets:
                entry = _applicability(describes[name], s, ds)
                for p in range(config.profile.processes):
                    cell = Cell(name, s["name"], ds, p)
                    if entry.get("applicable"):
                        cells.append(cell)
                    else:
                        not_applicable.append((cell, entry.get("reason", "")))
    if config.serializers and not cells and not not_applicable:
        known = sorted({f"{r}/{s['name']}" for r, d in describes.items() for s in d["serializers"]})
        raise datasets.UnknownName(
            f"no serializer matches {config.serializers}; valid: {', '.join(known)}"
        )
    return Plan(cells, describes, unavailable, not_applicable, specs)


def _expanded_bytes(descriptor: dict[str, Any]) -> int:
    """About how many bytes one cell of the dataset holds (its messages, once encoded)."""
    return int(descriptor.get("expanded_bytes") or 0)


def available_memory() -> int | None:
    """Bytes of memory the machine can give without swapping (Linux's MemAvailable)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _held_bytes(cells_per_runner: Mapping[str, int], held: Mapping[str, float], size: int) -> float:
    """About how many bytes a block's processes hold: each runner's cells at its own
    ``held`` factor (default HELD_PER_CELL) times a cell's canonical size."""
    return sum(n * held.get(runner, HELD_PER_CELL) * size for runner, n in cells_per_runner.items())


def _parts(
    per_slot: Mapping[tuple[str, int], list[Cell]],
    held: Mapping[str, float],
    size: int,
    block_bytes: int,
    memory: int | None,
) -> int:
    """The fewest parts whose chunks (each slot's cells, ceil(n / parts) at a time) keep
    every runner's cells within block_bytes (at HELD_PER_CELL) and the whole part, at each
    runner's own ``held`` factor, within MEMORY_SHARE of memory."""

    def fits(parts: int) -> bool:
        cells: dict[str, int] = defaultdict(int)
        for (runner, _), v in per_slot.items():
            cells[runner] += -(-len(v) // parts)
        if max(cells.values()) * HELD_PER_CELL * size > block_bytes:
            return False
        return memory is None or _held_bytes(cells, held, size) <= MEMORY_SHARE * memory

    most = max(len(v) for v in per_slot.values())
    return next((k for k in range(1, most + 1) if fits(k)), most)


def fits_beside(
    block: list[Cell],
    descriptors: dict[str, dict[str, Any]],
    memory_now: int | None,
    held: Mapping[str, float],
) -> bool:
    """Whether a block may get ready while the block before it measures: its processes'
    expected bytes within AHEAD_MEMORY_SHARE of the memory available now, with the measuring
    block's processes started, prepared and warmed up (their data allocated, their heaps
    grown). Reckoning the measuring block by its `held` factors instead (upper bounds, from
    one large dataset at a time) counted a quick block of 298 cells of 2.1 MB at 11.7 GB
    where it held 3.8 GB, and kept the larger quick datasets from getting ready ahead; the
    next block's own reckoning is that upper bound still, so it may take more of what is
    left than half (docs/method.md)."""
    if memory_now is None:
        return False  # cannot tell: one block at a time, as planned
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in block:
        counts[c.dataset][c.runner] += 1
    expected = sum(
        _held_bytes(n, held, max(_expanded_bytes(descriptors[ds]), 1)) for ds, n in counts.items()
    )
    return expected <= AHEAD_MEMORY_SHARE * memory_now


def blocks(
    cells: list[Cell],
    descriptors: dict[str, dict[str, Any]],
    timing: Timing,
    rng: random.Random,
    memory: int | None = None,
    held_per_cell: Mapping[str, float] | None = None,
) -> list[list[Cell]]:
    """The datasets in random order, each one block holding every process of every runner
    (measured side by side, so a cell's processes see the same minutes of the machine); a
    dataset's cells split into as few parts as keep one runner's processes within
    timing.block_bytes between them, and all the block's processes together within
    MEMORY_SHARE of ``memory`` (the bytes available, when known), a process of runner R
    holding ``held_per_cell[R]`` (default HELD_PER_CELL) times a cell's canonical size per
    cell. Every runner's cells are spread over the parts, a heavy runner's too."""
    held = held_per_cell or {}
    out = []
    by_dataset: dict[str, dict[tuple[str, int], list[Cell]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for c in cells:
        by_dataset[c.dataset][c.slot].append(c)
    names = sorted(by_dataset)
    rng.shuffle(names)
    for ds in names:
        per_slot = by_dataset[ds]
        size = max(_expanded_bytes(descriptors[ds]), 1)
        parts = _parts(per_slot, held, size, timing.block_bytes, memory)
        for k in range(parts):  # even chunks, none larger than ceil(n / parts)
            part = [
                c
                for v in per_slot.values()
                for c in v[k * len(v) // parts : (k + 1) * len(v) // parts]
            ]
            if part:
                out.append(part)
    return out


Paced = list[tuple[list[Cell], dict[tuple[str, str], float]]]  # a block's cells, its pace


class Progress(Protocol):
    def __call__(self, description: str, finished: int, more: int = 0) -> None:
        """``finished`` operations done; ``more`` operations added to the run's total."""


def descriptor(name: str, scale: str) -> dict[str, Any]:
    """The dataset object of protocol v2 for a built-in dataset (written on demand), or
    for a registered user dataset (section 7; one size at every scale)."""
    if name not in datasets.DATASETS and userdata.is_registered(name):
        return userdata.get(name).descriptor()
    ds = datasets.get(name).build(scale)  # type: ignore[arg-type]
    per_item = len(ds.canonical_bytes()) / max(len(ds.items), 1)
    return {
        "name": name,
        "kind": "builtin",
        "data": str(ds.path()),
        "expanded_bytes": int(per_item * ds.count),
    }


def on_the_wire(descriptor: dict[str, Any]) -> Dataset:
    """The protocol's dataset object: the descriptor less the orchestrator's own size hint."""
    return cast(Dataset, {k: v for k, v in descriptor.items() if k != "expanded_bytes"})


def execute(
    config: RunConfig,
    the_plan: Plan,
    store: Store,
    run_id: int,
    progress: Progress,
    done: set[CellKey] | None = None,
    slow_share: float | None = None,
) -> None:
    """Run every planned cell not already in ``done``; not-applicable ones are stored as such.
    ``slow_share``: the noise probe's share of time in the slow phase, the starting point of
    what the run learns from its own slices (schedule.SlowShare)."""
    done = done or set()
    ops = config.operations
    for cell, reason in the_plan.not_applicable:
        for op in ops:
            if cell.key(op) not in done:
                store.save_result(
                    run_id,
                    cell.key(op),
                    {
                        "status": "not_applicable",
                        "error": {"code": "not_applicable", "message": reason},
                    },
                )
    todo = [c for c in the_plan.cells if not {c.key(op) for op in ops} <= done]
    descriptors: dict[str, dict[str, Any]] = {}
    rng = random.Random(config.seed)
    timing = config.profile
    budget = Budget(config.budget_s) if config.budget_s else None
    clock_zero = time.monotonic_ns()
    share = SlowShare() if slow_share is None else SlowShare(prior=slow_share)
    checked = Checked()  # a cell's later processes skip the check its first one made

    def save(key: CellKey, result: dict[str, Any]) -> None:
        if key not in done:  # an earlier (resumed) process already stored it
            store.save_result(run_id, key, result)

    def tiebreak_cells(process: int, dataset: str | None = None) -> list[Cell]:
        """The cells a tie-break process holds: a tiered JIT's whole block of a runner and
        dataset, not the unsettled cells alone (it compiles a cell differently without the
        neighbours it had), the settled ones only warmed up; code that is final from the
        first call is the same alone, so only the unsettled cells go again."""
        redo = unsettled(store, run_id, dataset)
        whole = {(r, d) for r, _, d in redo if the_plan.specs[r].jit == "tiered"}
        todo = [
            Cell(
                c.runner,
                c.serializer,
                c.dataset,
                process,
                warm_only=(c.runner, c.serializer, c.dataset) not in redo,
            )
            for c in the_plan.cells
            if c.process == 0
            and (dataset is None or c.dataset == dataset)
            and ((c.runner, c.dataset) in whole or (c.runner, c.serializer, c.dataset) in redo)
            and not {CellKey(c.runner, c.serializer, c.dataset, op, process) for op in ops} <= done
        ]
        # a resumed run may have stored every unsettled cell of a block: no neighbours then
        live = {(c.runner, c.dataset) for c in todo if not c.warm_only}
        return [c for c in todo if (c.runner, c.dataset) in live]

    tied: set[str] = set()  # datasets whose tie-break processes joined a later block

    def measured(cells: list[Cell]) -> int:
        """The cell operations these cells will store (a warmed neighbour stores none)."""
        return sum(c.stored for c in cells) * len(ops)

    reference_runners = {
        name
        for name, described in the_plan.describes.items()
        for s in described["serializers"]
        if s["name"] == REFERENCE_CELL[0]
        and _applicability(described, s, REFERENCE_CELL[1]).get("applicable")
    }

    def with_reference(block: list[Cell]) -> list[Cell]:
        """The block and, in each of its runner processes that lacks it, the reference cell."""
        serializer, dataset = REFERENCE_CELL
        own = {c.slot for c in block if (c.serializer, c.dataset) == REFERENCE_CELL}
        slots = sorted({c.slot for c in block} - own)
        return block + [
            Cell(r, serializer, dataset, p, reference=True)
            for r, p in slots
            if r in reference_runners
        ]

    def run_blocks(
        cells: list[Cell], reserve: float = 0.0, rounds: bool = False, reference: bool = False
    ) -> Paced:
        """Plan and run the blocks of these cells; ``reference``: each block times the
        reference cell too, and its measured cells are returned with what it read.
        ``rounds``: a dataset's tie-break processes, known once its blocks are done, join the
        next block that has not begun to get ready (or follow the last in a block of their
        own), so that they get ready beside other work instead of in a tail of their own."""
        wanted = {c.dataset for c in cells} | ({REFERENCE_CELL[1]} if reference else set())
        for name in wanted - descriptors.keys():
            descriptors[name] = descriptor(name, config.scale)
        wire = {name: on_the_wire(d) for name, d in descriptors.items()}
        if config.measure == instructions.UNIT:
            instructions.execute(
                cells, ops, the_plan.specs, wire, config.scale, config.cell_timeout, save, progress
            )
            return []
        held = {name: spec.held_per_cell for name, spec in the_plan.specs.items()}
        memory = available_memory()
        planned = blocks(cells, descriptors, timing, rng, memory, held)
        if reference:
            planned = [with_reference(b) for b in planned]
        paced_blocks = len(planned)  # the blocks after these hold tie-break processes alone
        parts_left = Counter(b[0].dataset for b in planned)
        pending: list[Cell] = []  # tie-break processes of finished datasets, to join a block
        weights = [len(b) for b in planned]
        paced: Paced = []

        def block(k: int) -> Block:
            return Block(
                planned[k],
                ops,
                the_plan.specs,
                wire,
                timing,
                config.cell_timeout,
                save,
                progress,
                random.Random(rng.getrandbits(64)),
                clock_zero,
                share,
                checked=checked,
            )

        def join_pending(k: int) -> None:
            """The pending tie-break processes join block k (not yet getting ready), or
            follow the last block in one of their own."""
            if not pending:
                return
            if k < len(planned):
                planned[k] = planned[k] + pending
                weights[k] += len(pending)
            else:
                planned.append(list(pending))
                weights.append(len(pending))
            tied.update(c.dataset for c in pending)
            pending.clear()

        ahead: ReadyAhead | None = None  # the next block, getting ready while one measures
        try:
            k = 0
            while k < len(planned) or pending:
                if ahead is not None:
                    current, ahead = ahead.take(), None
                else:
                    join_pending(k)
                    current = block(k)
                    try:
                        current.ready()
                    except BaseException:
                        current.close()
                        raise
                try:
                    join_pending(k + 1)
                    following = k + 1 < len(planned) and timing.warm_ahead
                    if following and fits_beside(
                        planned[k + 1], descriptors, available_memory(), held
                    ):
                        ahead = ReadyAhead(block(k + 1))
                    share_of_rest = weights[k] / sum(weights[k:])
                    if budget:
                        current.deadline_ns = budget.deadline_ns(share_of_rest, reserve)
                    current.measure()
                finally:
                    current.close()
                if k < paced_blocks:
                    paced.append(
                        ([c for c in planned[k] if not c.reference], current.reference_times())
                    )
                    dataset = planned[k][0].dataset
                    parts_left[dataset] -= 1
                    if rounds and timing.tiebreak_processes and not parts_left[dataset]:
                        # the tie-break work this dataset leaves, known now: the time left
                        # counts it, and it joins the next block free to take it
                        found = tiebreak_cells(timing.processes, dataset)
                        pending.extend(found)
                        progress(f"{dataset}: done", 0, measured(found))
                k += 1
        finally:
            if ahead is not None:  # the run stopped: the block getting ready ends with it
                ahead.abandon()
        return paced

    check = timing.stretch_check and config.measure != instructions.UNIT
    paced = run_blocks(todo, AFTER_ROUNDS_RESERVE if check else 0.0, rounds=True, reference=check)
    if config.measure == instructions.UNIT:
        return  # counts are deterministic: processes agree or a runner is broken
    if check:
        blocks_read = remeasure_stretched(paced, run_blocks, len(ops), progress, budget)
        store.note_environment(run_id, {"blocks": blocks_read})
        # a dataset whose rounds were measured again had its tie-break decided on the
        # stretched figures: it is decided again on the new ones
        again = tied & {
            c.dataset
            for (cells, _), b in zip(paced, blocks_read[: len(paced)], strict=True)
            if b["measured_again"]
            for c in cells
            if c.process < timing.processes
        }
        for ds in again:
            store.forget_results(run_id, ds, from_process=timing.processes)
        tied.difference_update(again)
    for extra in range(timing.tiebreak_processes):
        cells = [
            c for c in tiebreak_cells(timing.processes + extra) if extra or c.dataset not in tied
        ]
        if not cells or (budget and budget.left() <= 0):
            break
        blocks_to_redo = {(c.runner, c.dataset) for c in cells}
        more = measured(cells)  # the rounds announced only the tie-breaks they ran
        progress(f"tie-break: {len(blocks_to_redo)} blocks with unsettled cells", 0, more)
        run_blocks(cells)


class RunBlocks(Protocol):
    def __call__(
        self, cells: list[Cell], reserve: float = 0.0, rounds: bool = False, reference: bool = False
    ) -> Paced: ...


def remeasure_stretched(
    paced: Paced,
    run_blocks: RunBlocks,
    operations: int,
    progress: Progress,
    budget: Budget | None,
) -> list[dict[str, Any]]:
    """Blocks whose reference cells ran STRETCH_FACTOR times slower than in the run's fastest
    block were measured in a slow stretch of the machine: they are measured again once, in
    fresh processes, their results replacing the stretched ones (the same processes' keys).
    Returns what every block read, the second blocks after the first."""
    stretch = stats.block_stretch([reading for _, reading in paced])
    stretched = [
        x is not None and x >= STRETCH_FACTOR and bool(c)
        for (c, _), x in zip(paced, stretch, strict=True)
    ]
    again = [c for (c, _), s in zip(paced, stretched, strict=True) if s]
    second: Paced = []
    if again and not (budget and budget.left() <= 0):
        cells = [c for b in again for c in b]
        names = ", ".join(sorted({c.dataset for c in cells}))
        more = sum(c.stored for c in cells) * operations
        progress(f"measured again (a slow stretch): {names}", 0, more)
        second = run_blocks(cells, reference=True)
    read = stats.block_stretch([reading for _, reading in [*paced, *second]])

    def entry(cells: list[Cell], x: float | None, **more: bool) -> dict[str, Any]:
        return {
            "datasets": sorted({c.dataset for c in cells}),
            "cells": sum(c.stored for c in cells),
            "stretch": x,
            **more,
        }

    first = [
        entry(c, x, measured_again=s and bool(second))
        for (c, _), x, s in zip(paced, stretch, stretched, strict=True)
    ]
    return first + [
        entry(c, x, again=True) for (c, _), x in zip(second, read[len(paced) :], strict=True)
    ]


def unsettled(store: Store, run_id: int, dataset: str | None = None) -> set[tuple[str, str, str]]:
    """(runner, serializer, dataset) of every cell with an operation whose steady processes
    are not settled: they disagree, or too few confirmed their fast mode."""
    timings: dict[tuple[str, str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in decode_json(store.results(run_id), "timing"):
        if r["status"] == "ok" and r["timing"] and dataset in (None, r["dataset"]):
            key = (r["runner"], r["serializer"], r["dataset"], r["operation"])
            timings[key].append(r["timing"])
    return {
        key[:3]
        for key, t in timings.items()
        # a not-steady cell has no figure for a tie-break to give back
        if stats.unsettled(t) and all(x["warmup"].get("steady") is not False for x in t)
    }


def config_json(config: RunConfig) -> dict[str, Any]:
    return asdict(config)
